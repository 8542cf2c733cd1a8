"""Serve a fake package index + npm registry on 127.0.0.1 for trying ``depbot updates`` offline.

    python tools/serve_fake_registry.py [--data FILE] [--port N] [--garbage NAME] [--flaky NAME]

It prints the environment to point depbot at it, then serves until interrupted:

    export DEPBOT_PYPI_URL=http://127.0.0.1:PORT DEPBOT_NPM_URL=http://127.0.0.1:PORT/npm
    export DEPBOT_NO_CACHE=1

``--data`` is a JSON file ``{"pip": {name: {"versions": [...], "yanked": [...]}},
"npm": {name: {"versions": [...], "deprecated": [...]}}}`` (a bare list of versions works
too). Without it, the releases of the example repository in ``depbot/demo/repo`` are
served. ``--garbage NAME`` makes that package always answer with a body that is not JSON;
``--flaky NAME`` makes it answer HTTP 500 once, then normally. The answers use the real
wire formats (tests/helpers/fake_registry.py).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from depbot.fakes.loopback import LoopbackServer, Reply  # noqa: E402
from tests.helpers.fake_registry import FakeRegistry  # noqa: E402

DEFAULT_DATA = {
    "pip": {
        "marshmallow": {"versions": ["3.19.0", "3.20.1", "3.21.3", "4.0.0b1"]},
        "tabulate": {"versions": ["0.8.10", "0.9.0"]},
        "python-dateutil": {"versions": ["2.8.2", "2.9.0", "2.9.0.post0"]},
        "attrs": {"versions": ["22.1.0", "22.2.0", "23.1.0", "23.2.0"], "yanked": ["23.2.0"]},
    },
    "npm": {
        "commander": {"versions": ["9.4.1", "9.5.0", "10.0.0", "11.0.0"]},
        "dayjs": {"versions": ["1.11.7", "1.11.10", "1.11.13"]},
        "lodash": {"versions": ["4.17.20", "4.17.21"]},
        "eslint": {"versions": ["8.30.0", "8.57.0", "9.0.0-rc.0"], "deprecated": ["8.57.0"]},
    },
}


def build(data: dict) -> FakeRegistry:
    fake = FakeRegistry()
    for name, entry in (data.get("pip") or {}).items():
        entry = {"versions": entry} if isinstance(entry, list) else entry
        fake.add_pypi(name, *entry["versions"], yanked=tuple(entry.get("yanked", ())))
    for name, entry in (data.get("npm") or {}).items():
        entry = {"versions": entry} if isinstance(entry, list) else entry
        fake.add_npm(name, *entry["versions"], deprecated=tuple(entry.get("deprecated", ())))
    return fake


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, help="JSON file of packages and versions")
    parser.add_argument("--garbage", action="append", default=[], metavar="NAME")
    parser.add_argument("--flaky", action="append", default=[], metavar="NAME")
    args = parser.parse_args()
    data = json.loads(args.data.read_text(encoding="utf-8")) if args.data else DEFAULT_DATA
    fake = build(data)
    for name in args.garbage:
        fake.faults[name] = [Reply(200, "<<not json>>")] * 1000
    for name in args.flaky:
        fake.faults[name] = [Reply(500, "try again")]
    with LoopbackServer(fake) as srv:
        fake.base_url = srv.url
        print(f"export DEPBOT_PYPI_URL={srv.url} DEPBOT_NPM_URL={srv.url}/npm")
        print("export DEPBOT_NO_CACHE=1", flush=True)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    main()
