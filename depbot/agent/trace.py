"""The trace: one JSON line per model round and per tool execution, readable by a person.

Every line is redacted (tokens, keys, secret-shaped strings) before it is written.
``show`` turns a trace file back into a round-by-round transcript.
"""

from __future__ import annotations

import json
import threading
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from depbot.core.fence import shown
from depbot.core.redact import redact
from depbot.records.accounting import Accounting

_LINE_BREAKS = {c: f"\\u{c:04x}" for c in (0x0B, 0x0C, 0x1C, 0x1D, 0x1E, 0x85, 0x2028, 0x2029)}


class Trace:
    def __init__(self, path: Path | None, secrets: list[str] | tuple[str, ...] = ()) -> None:
        self.path = path
        self._secrets = tuple(secrets)
        self._lock = threading.Lock()
        self._fh = None
        self._failed = False
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._fh = path.open("a", encoding="utf-8")

    def write(self, kind: str, **fields: Any) -> None:
        if self._fh is None:
            return
        record = {
            "t": datetime.now(timezone.utc).isoformat(timespec="milliseconds"),
            "type": kind,
            **fields,
        }
        # every string inside the record is redacted, not the JSON text: a secret replaced in
        # the middle of an escape sequence ("\u0000" + "00…") would break the line's syntax
        line = shown(
            json.dumps(self._redacted(record), ensure_ascii=False, default=str), json_text=True
        )
        # characters str.splitlines() breaks on (text from changelogs may hold them): escaped,
        # so that one record stays one line for every reader
        line = line.translate(_LINE_BREAKS)
        with self._lock:
            try:
                self._fh.write(line + "\n")
                self._fh.flush()
            except OSError:
                self._failed = True  # the disk refused: close() does not raise it again
                raise

    def _redacted(self, value: Any) -> Any:
        """Redact every string inside a record (redacting the JSON text could break its syntax)."""
        if isinstance(value, str):
            return self._text(value)
        if isinstance(value, dict):
            return {self._redacted(k): self._redacted(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [self._redacted(v) for v in value]
        if isinstance(value, (int, float, bool)) or value is None:
            return value
        return self._text(str(value))  # anything else is written as its text

    def _text(self, text: str) -> str:
        # the run's secrets and depbot's token patterns, not detect-secrets' plugins: a string
        # here may be JSON (a tool result, already redacted whole by observations.sent), and a
        # value the plugins find in JSON text may end in the backslash of an escape
        return redact(text, self._secrets, detectors=False)

    def close(self) -> None:
        with self._lock:
            fh, self._fh = self._fh, None
            if fh is not None:
                try:
                    fh.close()
                except OSError:
                    if not self._failed:
                        raise


def _short(text: str, limit: int = 600) -> str:
    text = text or ""
    return (
        text if len(text) <= limit else text[:limit] + f" … [{len(text) - limit} more characters]"
    )


def read_trace(path: Path) -> list[tuple[int, dict | str]]:
    """A trace file read as found, in order, by line number: each record, and in place of
    each line that is not one a note (a torn write, a stray byte, an edited field)."""
    out: list[tuple[int, dict | str]] = []
    for n, raw in enumerate(path.read_text(encoding="utf-8", errors="replace").split("\n"), 1):
        if not raw.strip():
            continue
        try:
            rec = json.loads(raw)
        except (json.JSONDecodeError, RecursionError):
            out.append((n, f"(line {n} is not JSON: torn write?)"))
            continue
        out.append((n, rec if isinstance(rec, dict) else f"(line {n} is not a trace record)"))
    return out


def read_records(path: Path) -> tuple[list[dict], list[str]]:
    """The records of a trace file, and the notes of the lines that are not records."""
    items = [i for _, i in read_trace(path)]
    return [i for i in items if isinstance(i, dict)], [i for i in items if isinstance(i, str)]


def show(path: Path, *, width: int = 600) -> str:
    """A readable transcript of a trace file."""
    out: list[str] = []
    for n, rec in read_trace(path):
        if isinstance(rec, str):
            out.append(rec)
            continue
        try:
            out.extend(_record_lines(rec, width))
        except (AttributeError, TypeError, ValueError, KeyError):
            out.append(f"(line {n}: a {str(rec.get('type'))[:40]!r} record with unexpected fields)")
    return "\n".join(out)


def _record_lines(rec: dict, width: int) -> list[str]:
    out: list[str] = []
    kind = rec.get("type")
    conv = rec.get("conv", "")
    if kind == "run_start":
        run = f"{rec.get('run', '')} {rec['run_id']}" if rec.get("run_id") else rec.get("run", "")
        resumed = " (resumed)" if rec.get("resumed") else ""
        out.append(
            f"=== run {run}{resumed}: {rec.get('updates')} updates, model {rec.get('model')}"
        )
    elif kind == "round":
        out.append(f"\n--- {conv} round {rec.get('round')} ({rec.get('seconds', 0):.2f}s, "
                   f"{rec.get('usage', {}).get('prompt_tokens', 0)} prompt + "
                   f"{rec.get('usage', {}).get('completion_tokens', 0)} completion tokens)")  # fmt: skip
        for m in rec.get("sent", []):
            role = m.get("role")
            if role in ("system", "user"):
                out.append(f"  [{role}] {_short(str(m.get('content', '')), width)}")
        reply = rec.get("reply") or {}
        if reply.get("content"):
            out.append(f"  [assistant] {_short(reply['content'], width)}")
        for call in reply.get("tool_calls") or []:
            fn = call.get("function", {})
            out.append(
                f"  [call {call.get('id')}] {fn.get('name')}({_short(fn.get('arguments', ''), width)})"
            )
    elif kind == "tool":
        guard = f" [{rec['guard']}]" if rec.get("guard") else ""
        out.append(f"  [result {rec.get('call_id')}]{guard} {_short(rec.get('result', ''), width)}")
    elif kind == "model_error":
        out.append(f"  [model error] {rec.get('error')}")
    elif kind == "http_retry":
        out.append(
            f"  [http retry] {rec.get('what')}: {rec.get('reason')} "
            f"(attempt {rec.get('attempt')}, waiting {rec.get('wait')}s)"
        )
    elif kind == "nudge":
        out.append(f"  [depbot] {rec.get('message')}")
    elif kind == "exit":
        out.append(f"=== {conv} ended: {rec.get('status')} after {rec.get('rounds')} rounds")
    elif kind == "verdict":
        out.append(
            f"  [verdict] {rec.get('package')}: {rec.get('verdict')} ({_short(rec.get('reason', ''), 200)})"
        )
    elif kind == "accounting":
        out.extend(_accounting_lines(rec, width))
    elif kind == "run_end":
        out.append(f"\n=== run finished: {rec.get('status')}; {rec.get('stats')}")
    return out


def _accounting_lines(rec: dict, width: int) -> list[str]:
    """What a verdict rests on: its basis, each breaking item, each used name, refusals."""
    acc = Accounting.from_report(str(rec.get("basis")), rec)
    head = f"  [accounting] {rec.get('package')}: {rec.get('verdict')} on {acc.basis}"
    head += "".join(f"; {line}" for line in (acc.items_line(), acc.names_line()) if line)
    out = [head]
    for i in acc.items[:40]:
        terms = ", ".join(i.terms)
        if i.disposition == "searched":
            extra = f" ({terms}; {i.hits} hit(s))"
        else:
            extra = f" ({terms})" if terms else ""
        why = f" — {i.why}" if i.why else ""
        item = _short(i.text.replace("\n", " "), min(width, 160))
        out.append(f"    item {i.version} {i.disposition}{extra}{why}: {item}")
    for n in acc.names[:60]:
        detail = f" ({_short(n.detail, 120)})" if n.detail else ""
        out.append(f"    name {n.name}: {n.fate}{detail} · {n.place}")
    out += [f"    refused {_short(str(r), width)}" for r in acc.refused]
    out += [f"    file not searched (too big) {f}" for f in acc.unsearched[:20]]
    out += [f"    {_short(line, width)}" for line in acc.reach_lines()]
    return out
