"""``DIR/report.json``: every verdict of a run, replaced atomically; its layout is schema 1.

The other files of the output folder: ``journal.py`` (``DIR/journal.jsonl``),
``draft_files.py`` (``DIR/drafts/``), ``review.py`` (``DIR/drafts/review.json``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from depbot.core.atomicio import atomic_write_json
from depbot.records.verdict import Verdict

REPORT_FILE = "report.json"
STAT_KEYS = ("turns", "tool_calls", "prompt_tokens", "completion_tokens", "seconds")


def report_data(
    *, repo: str, model: str, verdicts: Sequence[Verdict], stats: dict[str, Any]
) -> dict[str, Any]:
    """The report.json document, schema 1; extra stats are kept.

    Schema 1 is ``schema``, ``repo``, ``model``, ``updates`` (one ``Verdict.to_report()``
    each) and ``stats`` (at least ``STAT_KEYS``). Readers outside depbot (the Action's
    step outputs, users' scripts) rely on these keys: only add to them, or bump ``schema``.
    """
    merged: dict[str, Any] = {k: 0 for k in STAT_KEYS}
    merged.update(stats or {})
    if isinstance(merged.get("seconds"), float):
        merged["seconds"] = round(merged["seconds"], 3)
    return {
        "schema": 1,
        "repo": repo,
        "model": model,
        "updates": [v.to_report() for v in verdicts],
        "stats": merged,
    }


def write_report(
    out_dir: str | Path,
    *,
    repo: str,
    model: str,
    verdicts: Sequence[Verdict],
    stats: dict[str, Any],
) -> Path:
    """Write ``DIR/report.json`` atomically and return its path."""
    data = report_data(repo=repo, model=model, verdicts=verdicts, stats=stats)
    return atomic_write_json(Path(out_dir) / REPORT_FILE, data)
