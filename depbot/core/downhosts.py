"""Hosts found down, remembered for a few minutes across runs (#30).

When the breaker marks a host down, the run writes it to ``hosts-down.json`` in the cache
folder with its reason and the time; a run that starts within ``down_host_minutes`` takes the
host as down at once (saying it is remembered), so a rerun does not wait on it again. Any
failure to read or write the file is no memory, never an error.
"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

from depbot.core.atomicio import atomic_write_json

FILE = "hosts-down.json"
_lock = threading.Lock()


def remembered(
    cache_dir: Path | None, minutes: float, *, now: float | None = None
) -> dict[str, str]:
    """host → "reason (found down N min ago)" for each host found down in the last ``minutes``."""
    if cache_dir is None or minutes <= 0:
        return {}
    now = time.time() if now is None else now
    try:
        data = json.loads((Path(cache_dir) / FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return {}
    out = {}
    for host, entry in data.items() if isinstance(data, dict) else ():
        try:
            age = now - float(entry["at"])
            reason = str(entry["reason"])
        except (KeyError, TypeError, ValueError):
            continue
        if 0 <= age <= minutes * 60:
            out[str(host)] = f"{reason} (found down {max(1, round(age / 60))} min ago)"
    return out


def remember(cache_dir: Path | None, host: str, reason: str, *, now: float | None = None) -> None:
    """Write ``host`` as down now, with ``reason``."""
    if cache_dir is None:
        return
    path = Path(cache_dir) / FILE
    with _lock:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            data = data if isinstance(data, dict) else {}
        except (OSError, ValueError, RecursionError):
            data = {}
        data[host] = {"reason": reason, "at": time.time() if now is None else now}
        try:
            atomic_write_json(path, data)
        except OSError:
            pass
