"""``depbot eval``: replay scenarios and score verdicts, evidence and cost.

Each scenario runs in isolation: a fresh temporary copy of ``repo/`` made a git checkout,
a fresh fake upstream with the scenario's faults, a fresh cache. Scoring follows the
contract: an update is ``ok`` when its verdict matches and, for ``affected``, a draft
exists, every expected file is among its hits and an expected symbol is named in it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from depbot.core.settings import Settings
from depbot.evals.scenarios import Scenario, find_scenarios, load_scenario
from depbot.fakes.upstream import FakeUpstream
from depbot.models import make_model
from depbot.pipeline.run import triage

STAT_KEYS = ("turns", "tool_calls", "prompt_tokens", "completion_tokens", "seconds")
EXTRA_KEYS = ("repeated_calls_refused", "integrity_rejections")


@dataclass
class ScenarioRun:
    name: str
    passed: bool
    updates: list[dict[str, Any]]
    stats: dict[str, Any]
    why: str = ""
    trace: str = ""
    runs: int = 1
    passes: int = 0

    def to_json(self) -> dict[str, Any]:
        data = {
            "name": self.name,
            "passed": self.passed,
            "updates": self.updates,
            "stats": self.stats,
        }
        if self.runs > 1:
            data["runs"], data["passes"] = self.runs, self.passes
        if self.why:
            data["why"] = self.why
        if self.trace:
            data["trace"] = self.trace
        return data


@dataclass
class EvalSummary:
    model: str
    scenarios: list[ScenarioRun] = field(default_factory=list)

    def totals(self) -> dict[str, Any]:
        """Counts over expected updates. ``tp``: expected and got ``affected``; ``fn``: expected
        ``affected``, got anything else; ``fp``: expected ``not_affected``, got ``affected``;
        ``tn``: expected and got ``not_affected``; ``unknown_ok``: expected and got ``unknown``.
        precision = tp/(tp+fp), recall = tp/(tp+fn) (1.0 when the denominator is 0).
        ``false_safe``: expected ``affected``, got ``not_affected`` (the dangerous miss), with
        the scenarios in ``false_safe_cases``."""
        t: dict[str, Any] = {"scenarios": len(self.scenarios), "passed": 0, "failed": 0,
                             "tp": 0, "fp": 0, "fn": 0, "tn": 0, "unknown_ok": 0,
                             "false_safe": 0, "false_safe_cases": []}  # fmt: skip
        cited = wanted = 0
        for s in self.scenarios:
            t["passed" if s.passed else "failed"] += 1
            for u in s.updates:
                exp, got = u["expected"], u["got"]
                if exp == "affected":
                    t["tp" if got == "affected" else "fn"] += 1
                    if got == "not_affected":
                        t["false_safe"] += 1
                        t["false_safe_cases"].append(s.name)
                    wanted += u["_files_expected"]
                    cited += u["_files_expected"] - len(u["missing_files"])
                elif exp == "not_affected":
                    if got == "affected":
                        t["fp"] += 1
                    elif got == "not_affected":
                        t["tn"] += 1
                elif exp == "unknown" and got == "unknown":
                    t["unknown_ok"] += 1
        t["precision"] = round(t["tp"] / (t["tp"] + t["fp"]), 3) if t["tp"] + t["fp"] else 1.0
        t["recall"] = round(t["tp"] / (t["tp"] + t["fn"]), 3) if t["tp"] + t["fn"] else 1.0
        t["evidence_recall"] = round(cited / wanted, 3) if wanted else 1.0
        for k in (*STAT_KEYS, *EXTRA_KEYS):
            t[k] = sum(s.stats.get(k, 0) for s in self.scenarios)
        t["seconds"] = round(t["seconds"], 3)
        return t

    def to_json(self) -> dict[str, Any]:
        scenarios = []
        for s in self.scenarios:
            d = s.to_json()
            d["updates"] = [
                {k: v for k, v in u.items() if not k.startswith("_")} for u in d["updates"]
            ]
            scenarios.append(d)
        return {"model": self.model, "scenarios": scenarios, "totals": self.totals()}


def git_checkout(src: Path, dest: Path) -> None:
    """Copy ``src`` to ``dest`` and make it a git checkout with one commit (best effort)."""
    shutil.copytree(src, dest, symlinks=True)
    env = {"GIT_AUTHOR_NAME": "depbot", "GIT_AUTHOR_EMAIL": "depbot@localhost",
           "GIT_COMMITTER_NAME": "depbot", "GIT_COMMITTER_EMAIL": "depbot@localhost"}  # fmt: skip
    try:
        for args in (
            ["init", "-q"],
            ["add", "-A"],
            ["commit", "-q", "-m", "scenario", "--no-gpg-sign"],
        ):
            subprocess.run(
                ["git", *args],
                cwd=dest,
                env={**_base_env(), **env},
                capture_output=True,
                check=True,
                timeout=30,
            )
    except (OSError, subprocess.SubprocessError):
        pass  # not a git checkout then; search still works (it honours .gitignore either way)


def _base_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG", "TMPDIR")}


def score(sc: Scenario, verdicts: list[Any], out_dir: Path) -> tuple[list[dict[str, Any]], str]:
    """Rows per expected update and the first reason a scenario fails (empty when it passes)."""
    by_pkg = {v.update.package.lower(): v for v in verdicts}
    rows, why = [], ""
    for key, exp in sc.expect.items():
        v = by_pkg.get(key)
        got = v.verdict if v else "missing"
        draft_text = ""
        if v is not None and v.draft and (out_dir / v.draft).is_file():
            draft_text = (out_dir / v.draft).read_text(encoding="utf-8", errors="replace")
        cited = {h.path for h in v.hits} if v else set()
        missing = [f for f in exp.files if f not in cited]
        named = any(s.lower() in draft_text.lower() for s in exp.symbols) if exp.symbols else True
        if exp.verdict == "affected":
            ok = got == "affected" and bool(draft_text) and not missing and named
        elif exp.verdict == "not_affected":
            ok = got == "not_affected" and not (v and v.draft)
        else:
            ok = got == "unknown"
        if not ok and not why:
            if got != exp.verdict:
                why = f"{exp.package}: expected {exp.verdict}, got {got}" + (
                    f" ({v.reason[:160]})" if v else ""
                )
            elif exp.verdict == "affected" and not draft_text:
                why = f"{exp.package}: affected but no draft was written"
            elif missing:
                why = f"{exp.package}: draft does not cite {', '.join(missing)}"
            elif not named:
                why = f"{exp.package}: draft names none of {', '.join(exp.symbols)}"
            else:
                why = f"{exp.package}: a draft exists for a not_affected update"
        rows.append({
            "package": exp.package, "expected": exp.verdict, "got": got, "ok": ok,
            "missing_files": missing, "symbol_named": named, "_files_expected": len(exp.files),
        })  # fmt: skip
    return rows, why


def run_scenario(
    sc: Scenario, *, model_name: str, base: Settings, keep: Path | None = None
) -> tuple[bool, list[dict[str, Any]], dict[str, Any], str, Path]:
    """Run one scenario in a fresh folder: removed afterwards unless ``keep`` names where
    folders stay. A failed scenario's ``out/`` (trace, report, drafts) stays, since the
    failure row points at its trace; its checkout and cache go, so that many failing runs
    do not fill the disk."""
    work = Path(tempfile.mkdtemp(prefix=f"depbot-eval-{sc.name}-", dir=keep))
    try:
        passed, rows, stats, why, trace = _run_in(sc, work, model_name=model_name, base=base)
    except BaseException:
        if keep is None:
            shutil.rmtree(work, ignore_errors=True)
        raise
    if keep is None:
        if passed:
            shutil.rmtree(work, ignore_errors=True)
        else:
            for bulky in ("repo", "cache"):
                shutil.rmtree(work / bulky, ignore_errors=True)
    return passed, rows, stats, why, trace


def _run_in(
    sc: Scenario, work: Path, *, model_name: str, base: Settings
) -> tuple[bool, list[dict[str, Any]], dict[str, Any], str, Path]:
    repo = work / "repo"
    git_checkout(sc.repo, repo)
    out_dir = work / "out"
    started = time.monotonic()
    with FakeUpstream(
        sc.upstream, sc.faults, versions=sc.versions(), retry_after=0.5, timeout_delay=4.0
    ) as up:
        settings = base.replace(
            **up.settings_overrides(),
            cache_dir=work / "cache",
            http_timeout=1.5,
            http_retries=3,
            retry_backoff=0.05,
            max_retry_wait=2.0,
            github_token=None,
        )
        model = make_model(model_name, settings)
        result = triage(
            settings,
            repo=repo,
            updates=sc.updates,
            model=model,
            out_dir=out_dir,
            repo_label=sc.name,
        )
    rows, why = score(sc, result.verdicts, out_dir)
    stats = {k: result.stats.get(k, 0) for k in (*STAT_KEYS, *EXTRA_KEYS)}
    stats["seconds"] = round(time.monotonic() - started, 3)
    return not why, rows, stats, why, out_dir / "trace.jsonl"


def run_eval(
    paths: list[Path],
    *,
    model_name: str,
    base: Settings,
    repeat: int = 1,
    keep: Path | None = None,
    progress: Callable[[str], None] | None = None,
) -> EvalSummary:
    summary = EvalSummary(model=model_name)
    for folder in find_scenarios(paths):
        sc = load_scenario(folder)
        passes = 0
        last: tuple[Any, ...] | None = None
        first_fail: tuple[Any, ...] | None = None
        total_stats: dict[str, Any] = {}
        for _ in range(max(1, repeat)):
            last = run_scenario(sc, model_name=model_name, base=base, keep=keep)
            passes += last[0]
            if not last[0] and first_fail is None:
                first_fail = last
            for k, v in last[2].items():
                total_stats[k] = total_stats.get(k, 0) + v
        shown = first_fail or last
        assert shown is not None
        run = ScenarioRun(
            name=sc.name,
            passed=passes == max(1, repeat),
            updates=shown[1],
            stats={k: (round(v, 3) if isinstance(v, float) else v) for k, v in total_stats.items()},
            why=shown[3],
            trace=str(shown[4]) if shown[3] else "",
            runs=max(1, repeat),
            passes=passes,
        )
        summary.scenarios.append(run)
        if progress:
            progress(format_row(run))
    return summary


def format_row(run: ScenarioRun) -> str:
    ok = sum(u["ok"] for u in run.updates)
    status = "PASS" if run.passed else "FAIL"
    rep = f" pass^{run.runs}={run.passes}/{run.runs}" if run.runs > 1 else ""
    s = run.stats
    line = (f"{status}  {run.name:<34} {ok}/{len(run.updates)} ok  {s.get('turns', 0):>3} turns "
            f"{s.get('tool_calls', 0):>4} calls {s.get('prompt_tokens', 0):>7} tokens {s.get('seconds', 0):>6.2f}s{rep}")  # fmt: skip
    if not run.passed:
        line += f"\n      why: {run.why}\n      trace: {run.trace}"
    return line


def write_json(summary: EvalSummary, path: Path) -> None:
    Path(path).write_text(json.dumps(summary.to_json(), indent=2) + "\n", encoding="utf-8")
