"""Where a run's time went (#30): seconds by stage, for the whole run and per package.

``Watched`` (watch.py) adds each service call's seconds under its stage: ``notes`` (a
changelog fetch), the API diff's own stages (``registry``, ``download``, ``unpack``,
``model``, ``wait``), ``use_check`` (the uses of an API diff's findings looked up in the
checkout) and ``search`` (the model's searches). The model's rounds are the conversations'
(``model``: waiting for replies). report.json's ``stats.timings`` and the trace's
``timings`` record are ``to_report()``; ``depbot trace show --timings`` prints them.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping
from typing import Any

from depbot.records.names import normalize

# the order a table lists the stages in; one not listed here goes after them
STAGES = (
    "notes", "registry", "download", "unpack", "api model", "wait", "use_check", "search",
    "model rounds",
)  # fmt: skip
_RENAMED = {"model": "api model"}  # ReleaseDiff.stages names the API model "model"


class Timings:
    """Seconds by stage, for the run and per package; thread-safe."""

    def __init__(self) -> None:
        self._by: dict[str, dict[str, float]] = {}  # package -> stage -> seconds
        self._lock = threading.Lock()

    def add(self, package: str, stage: str, seconds: float) -> None:
        stage, package = _RENAMED.get(stage, stage), normalize(package)
        with self._lock:
            mine = self._by.setdefault(package, {})
            mine[stage] = mine.get(stage, 0.0) + max(0.0, seconds)

    def add_all(self, package: str, stages: Mapping[str, float]) -> None:
        for stage, seconds in stages.items():
            self.add(package, stage, float(seconds))

    def to_report(self, model_seconds: float = 0.0) -> dict[str, Any]:
        """``{"stages": {stage: s}, "updates": {package: {stage: s, "total": s}}}``, rounded
        to milliseconds, the slowest update first; ``model_seconds``: the model's rounds."""
        with self._lock:
            by = {pkg: dict(stages) for pkg, stages in self._by.items()}
        total: dict[str, float] = {}
        for stages in by.values():
            for stage, seconds in stages.items():
                total[stage] = total.get(stage, 0.0) + seconds
        if model_seconds:
            total["model rounds"] = model_seconds
        updates = {
            pkg: {**_rounded(stages), "total": round(sum(stages.values()), 3)}
            for pkg, stages in sorted(by.items(), key=lambda kv: -sum(kv[1].values()))
            if pkg  # "": a text search, which names no package (counted in the stages)
        }
        return {"stages": _rounded(total), "updates": updates}


def _rounded(stages: Mapping[str, float]) -> dict[str, float]:
    return {s: round(stages[s], 3) for s in ordered(stages)}


def ordered(stages: Iterable[str]) -> list[str]:
    """``stages`` in the order of ``STAGES``, the others after them by name."""
    known = {s: i for i, s in enumerate(STAGES)}
    return sorted(stages, key=lambda s: (known.get(s, len(STAGES)), s))
