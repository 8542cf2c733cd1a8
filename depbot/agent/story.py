"""A run's trace told update by update: what was read, searched, found, set aside and
concluded, and why. Pure: trace records in, lines out (``depbot trace show``).

Each tool call is matched to its result by conversation and call id and said in one line
(``read the notes: 2 sections (6.0–6.0.1), 1 breaking item``, ``searched yaml.load
(required_arg): 1 strong use``); a refused conclusion gives the words for people; the
verdict and its accounting close each update. A text search names no package: it is told
under every update of its conversation.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from depbot.core.fence import unfence
from depbot.records.accounting import Accounting

_COUNT_NOTE = re.compile(r"\d+ strong and \d+ weak use\(s\)|\d+ import site\(s\) match")


@dataclass
class _Step:
    conv: str
    name: str
    args: dict[str, Any]
    result: Any = None
    guard: str = ""
    seconds: float = 0.0

    @property
    def package(self) -> str:
        return str(self.args.get("package") or "")


class _Calls:
    """The tool calls of a trace, each matched to its result by conversation and call id."""

    def __init__(self) -> None:
        self._by_id: dict[tuple[str, str], _Step] = {}

    def asked(self, rec: dict[str, Any]) -> list[_Step]:
        """The calls a ``round`` record's reply made."""
        conv, steps = str(rec.get("conv", "")), []
        for call in (rec.get("reply") or {}).get("tool_calls") or []:
            fn = call.get("function") or {}
            args = _json(fn.get("arguments", "{}"))
            step = _Step(conv, str(fn.get("name")), args if isinstance(args, dict) else {})
            self._by_id[(conv, str(call.get("id")))] = step
            steps.append(step)
        return steps

    def answered(self, rec: dict[str, Any]) -> _Step | None:
        """The call a ``tool`` record answers, its result, guard and time filled in."""
        step = self._by_id.get((str(rec.get("conv", "")), str(rec.get("call_id"))))
        if step is not None:
            step.result, step.guard = _json(rec.get("result")), str(rec.get("guard") or "")
            step.seconds = float(rec.get("seconds") or 0)
        return step


@dataclass
class Story:
    package: str
    steps: list[_Step] = field(default_factory=list)
    verdict: dict[str, Any] | None = None
    accounting: dict[str, Any] | None = None


def _json(text: Any) -> Any:
    if not isinstance(text, str):
        return text
    try:
        return json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        return text


def _short(text: str, n: int) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= n else text[: n - 1] + "…"


def stories(records: Iterable[dict[str, Any]]) -> tuple[list[Story], list[str]]:
    """One story per update (in the order they first appear) and the run's own lines."""
    calls = _Calls()
    by_pkg: dict[str, Story] = {}
    convs: dict[str, set[str]] = {}
    free: list[_Step] = []
    head: list[str] = []

    def story(pkg: str) -> Story:
        return by_pkg.setdefault(pkg.lower(), Story(pkg))

    for rec in records:
        kind, conv = rec.get("type"), str(rec.get("conv", ""))
        if kind == "run_start":
            head.append(f"run {rec.get('run', '')}: {rec.get('updates')} update(s), model "
                        f"{rec.get('model')}" + (" (resumed)" if rec.get("resumed") else ""))  # fmt: skip
        elif kind == "round":
            for step in calls.asked(rec):
                if step.package:
                    story(step.package).steps.append(step)
                    convs.setdefault(conv, set()).add(step.package.lower())
                else:
                    free.append(step)
        elif kind == "tool":
            calls.answered(rec)
        elif kind == "verdict":
            story(str(rec.get("package"))).verdict = rec
        elif kind == "accounting":
            story(str(rec.get("package"))).accounting = rec
        elif kind == "run_end":
            head.append(f"run finished: {rec.get('status')}")
            head += [f"degraded: {d}" for d in rec.get("degraded") or []]
    for step in free:  # a text search: told under each update of its conversation
        for pkg in sorted(convs.get(step.conv, ())):
            by_pkg[pkg].steps.append(step)
    return list(by_pkg.values()), head


def _hits(res: dict[str, Any]) -> str:
    hits = res.get("hits") or []
    strong = sum(
        1 for h in hits if h.get("evidence") in (None, "strong") and h.get("context") == "code"
    )
    weak = sum(1 for h in hits if h.get("evidence") == "weak")
    other = len(hits) - strong - weak
    where = ", ".join(f"{h.get('path')}:{h.get('line')}" for h in hits[:3])
    more = f" …{len(hits) - 3} more" if len(hits) > 3 else ""
    parts = [
        f"{n} {w}"
        for n, w in ((strong, "strong"), (weak, "weak"), (other, "in comments or strings"))
        if n
    ]
    found = (", ".join(parts) + f" ({where}{more})") if hits else "nothing"
    aside = res.get("excluded") or {}
    if aside:
        found += "; set aside: " + ", ".join(f"{n} {why}" for why, n in list(aside.items())[:4])
    note = str(res.get("note") or "")
    if note and not _COUNT_NOTE.match(note):  # the counts are said above already
        found += f"; {_short(note, 160)}"
    return found


def _result_line(step: _Step) -> str:
    res, a = step.result, step.args
    if res is None:
        return f"{step.name}: no result recorded"
    if isinstance(res, dict) and "error" in res:
        why = res.get("for_people") or res["error"]
        what = "conclusion refused" if step.guard == "rejected" else f"{step.name} refused"
        return f"{what}: {_short(unfence(str(why)), 300)}"
    if not isinstance(res, dict):
        return f"{step.name}: {_short(str(res), 200)}"
    if step.name == "fetch_changelog":
        if not res.get("found"):
            return f"notes not found: {_short(unfence(str(res.get('note', ''))), 240)}"
        n = len(res.get("sections") or [])
        breaking = res.get("breaking") or []
        return (f"read the notes: {n} section(s); {len(breaking)} breaking item(s); "
                f"{_short(unfence(str(res.get('note', ''))), 160)}")  # fmt: skip
    if step.name == "where_imported":
        files = res.get("files") or []
        shown = ", ".join(files[:4]) + (f" …{len(files) - 4} more" if len(files) > 4 else "")
        extra = (
            f"; not searched (too big): {', '.join(res['not_searched'][:3])}"
            if res.get("not_searched")
            else ""
        )
        return f"imported in {len(files)} file(s){': ' + shown if files else ''}{extra}"
    if step.name == "search_symbol":
        return f"searched {a.get('symbol')} ({a.get('kind', 'name')}): {_hits(res)}"
    if step.name == "search_code":
        return f"searched the text /{_short(a.get('pattern', ''), 60)}/: {_hits(res)}"
    if step.name == "api_diff":
        if not res.get("compared"):
            why = unfence(str(res.get("not_compared") or res.get("fallback") or ""))
            return f"released code not compared: {_short(why, 240)}"
        findings = res.get("findings") or []
        used = res.get("used_names") or {}
        names = f"; {used.get('resolved')}/{used.get('total')} used names resolved" if used else ""
        return (f"compared the released code: {res.get('changes_in_diff')} API change(s), "
                f"{len(findings)} touching this code{names}")  # fmt: skip
    if step.name == "conclude":
        return f"concluded {a.get('verdict')}" + (" (accepted)" if res.get("accepted") else "")
    return f"{step.name}: {_short(json.dumps(res), 200)}"


def story_lines(s: Story, width: int = 600) -> list[str]:
    """One update's story: its steps, its verdict and why, and the accounting."""
    out = [f"== {s.package}"]
    for step in s.steps:
        if step.name == "conclude" and step.result is not None and "error" not in step.result:
            continue  # the verdict below says it
        out.append(f"  - {_result_line(step)}")
    v = s.verdict
    if v is not None:
        out.append(f"  => {v.get('verdict')}: {_short(str(v.get('reason', '')), width)}")
    acc = s.accounting
    if acc is not None:
        a = Accounting.from_report(str(acc.get("basis")), acc)
        parts = [p for p in (a.items_line(), a.names_line()) if p]
        out.append(f"  on {a.basis}" + (f"; {'; '.join(parts)}" if parts else ""))
        for i in a.items[:20]:
            why = f" — {i.why}" if i.why else ""
            hits = f", {i.hits} hit(s)" if i.disposition == "searched" else ""
            out.append(f"    item {i.version} {i.disposition}{hits}{why}: {_short(i.text, 120)}")
        out += [f"    name {n.name}: {n.fate} · {n.place}" for n in a.names[:20]]
        out += [f"    refused {_short(r, 200)}" for r in a.refused]
        out += [f"    not searched (too big) {f}" for f in a.unsearched[:10]]
        out += [f"    {_short(line, 200)}" for line in a.reach_lines()]
    return out


def tell(records: Iterable[dict[str, Any]], *, update: str | None = None, width: int = 600) -> str:
    """The run's stories (``update``: only that package's), with the run's own lines."""
    found, head = stories(records)
    if update is not None:
        found = [s for s in found if s.package.lower() == update.lower()]
    lines = head[:1]
    for s in found:
        lines += ["", *story_lines(s, width)]
    lines += ["", *head[1:]] if head[1:] else []
    return "\n".join(lines)


def timings(records: Iterable[dict[str, Any]]) -> str:
    """Where the run's time went: each tool's calls, total and slowest seconds, the model's
    rounds, the seconds by stage (registry, download, unpack, API model, use-check, …) and
    the updates that took longest (``depbot trace show --timings``)."""
    calls = _Calls()
    by_tool: dict[str, list[float]] = {}
    by_pkg: dict[str, float] = {}
    rounds: list[float] = []
    staged: dict[str, Any] = {}
    for rec in records:
        kind = rec.get("type")
        if kind == "round":
            rounds.append(float(rec.get("seconds") or 0))
            calls.asked(rec)
        elif kind == "tool":
            seconds = float(rec.get("seconds") or 0)
            step = calls.answered(rec)
            name = rec.get("name") or (step.name if step is not None else None)
            by_tool.setdefault(str(name), []).append(seconds)
            if step is not None and step.package:
                by_pkg[step.package] = by_pkg.get(step.package, 0.0) + seconds
        elif kind == "timings":
            staged = rec
    rows = [("step", "calls", "total s", "slowest s")]
    for name, secs in sorted(by_tool.items(), key=lambda kv: -sum(kv[1])):
        rows.append((name, str(len(secs)), f"{sum(secs):.2f}", f"{max(secs):.2f}"))
    if rounds:
        rows.append(("model rounds", str(len(rounds)), f"{sum(rounds):.2f}", f"{max(rounds):.2f}"))
    lines = _table(rows)
    stages = staged.get("stages") if isinstance(staged.get("stages"), dict) else {}
    if stages:
        whole = sum(float(v) for v in stages.values()) or 1.0
        lines += ["", "by stage (a tool's seconds split by what it waited on):"]
        lines += _table([("stage", "total s", "share")] + [
            (str(k), f"{float(v):.2f}", f"{100 * float(v) / whole:.0f}%") for k, v in stages.items()
        ])  # fmt: skip
    updates = staged.get("updates") if isinstance(staged.get("updates"), dict) else {}
    if updates:  # the slowest first, with their slowest stages
        lines += ["", "slowest updates (seconds by stage):"]
        for pkg, parts in list(updates.items())[:10]:
            top = sorted(((k, float(v)) for k, v in parts.items() if k != "total"),
                         key=lambda kv: -kv[1])[:3]  # fmt: skip
            said = ", ".join(f"{k} {v:.2f}" for k, v in top)
            lines.append(f"  {float(parts.get('total', 0)):8.2f}  {pkg} ({said})")
    elif by_pkg:  # a trace written before stages were recorded
        lines += ["", "slowest updates (seconds in tools):"]
        lines += [
            f"  {secs:8.2f}  {pkg}"
            for pkg, secs in sorted(by_pkg.items(), key=lambda kv: -kv[1])[:10]
        ]
    return "\n".join(lines)


def _table(rows: list[tuple[str, ...]]) -> list[str]:
    """Rows as aligned columns: the first left-aligned, the rest right-aligned."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  ".join(c.rjust(widths[i]) if i else c.ljust(widths[i]) for i, c in enumerate(r))
            for r in rows]  # fmt: skip
