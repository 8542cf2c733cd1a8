"""#29: every unknown left by a failure names its real cause, and the closing lines count them.

A file host the registry names (not one the user configured) resolves to a loopback address,
so every artifact download is refused. Before, the unknowns were put down to "GitHub reads
failed" (when GitHub was out of reach too) or to nothing at all, and stderr never said the
downloads were refused.
"""

from __future__ import annotations

import json
from pathlib import Path

from depbot.models.rules import RulesModel
from depbot.pipeline.outcome import closing_line
from depbot.pipeline.run import triage
from depbot.records.update import Update
from tests.helpers.worlds import World, settings_for, write_tree

N = 3


def world(tmp_path: Path, *, github_down: bool) -> World:
    repo, upstream = tmp_path / "repo", tmp_path / "upstream"
    write_tree(repo, {
        "requirements.txt": "".join(f"lib{i}==1.0.0\n" for i in range(N)),
        "app.py": "".join(f"import lib{i}\nlib{i}.old()\n" for i in range(N)),
    })  # fmt: skip
    for i in range(N):
        meta = {"repository": f"https://github.com/example/lib{i}", "versions": ["1.0.0", "2.0.0"]}
        write_tree(upstream / "pip" / f"lib{i}", {
            "meta.json": json.dumps(meta),
            f"dist/1.0.0/lib{i}/__init__.py": "def old():\n    pass\n",
            f"dist/2.0.0/lib{i}/__init__.py": "def new():\n    pass\n",
        })  # fmt: skip
    faults = [{"package": f"lib{i}", "kind": "server_error", "endpoint": "repo"}
              for i in range(N)] if github_down else []  # fmt: skip
    updates = [Update("pip", f"lib{i}", "1.0.0", "2.0.0", manifest="requirements.txt")
               for i in range(N)]  # fmt: skip
    return World(repo, upstream, updates, faults)


def run(tmp_path: Path, w: World):
    with w.serve() as up:
        port = up.url.rsplit(":", 1)[1]
        up.artifact_base = f"http://localhost:{port}"  # the same server, by a guarded name
        settings = settings_for(up, allow_private_hosts=False,
                                artifact_hosts=(f"localhost:{port}",))  # fmt: skip
        return triage(settings, repo=w.repo, updates=w.updates, model=RulesModel(),
                      out_dir=tmp_path / "out")  # fmt: skip


def test_refused_downloads_are_named_as_the_cause(tmp_path):
    result = run(tmp_path, world(tmp_path, github_down=False))
    assert [v.verdict for v in result.verdicts] == ["unknown"] * N
    assert all(v.unknown_cause == "failure" for v in result.verdicts)
    (because,) = result.outcome.because
    assert because.startswith(f"{N} updates unknown after failures (artifact downloads refused: ")
    assert "resolves to a private, loopback or reserved address" in because
    assert because.endswith("set DEPBOT_ALLOW_PRIVATE_HOSTS=1 if that host is yours)")
    assert closing_line(result.outcome).endswith(
        f"{N} unknown (artifact downloads refused) — degraded"
    )
    for v in result.verdicts:  # and each update's own reason says it
        assert "the released code could not be compared" in v.reason
        assert "refused to contact localhost" in v.reason


def test_with_github_down_too_each_cause_is_counted(tmp_path):
    result = run(tmp_path, world(tmp_path, github_down=True))
    (because,) = result.outcome.because
    # before: "3 updates unknown after failures (GitHub reads failed)", the refusals unsaid
    assert because.startswith(f"{N} updates unknown after failures (")
    assert f"{N} GitHub reads failed" in because or "GitHub reads failed" in because
    assert "artifact downloads refused" in because
