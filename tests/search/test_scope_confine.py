"""The checkout rule every reader shares (``core.confine``, re-exported by ``search.scope``)."""

from __future__ import annotations

import pytest

from depbot.core.settings import Settings
from depbot.search.scope import SECRET_FLOOR, is_secret, refusal, scope_args, secret_patterns
from tests.helpers.worlds import write_tree


@pytest.fixture
def tree(tmp_path):
    repo, outside = tmp_path / "repo", tmp_path / "outside"
    write_tree(repo, {"src/app.py": "x = 1\n", ".env": "A=1\n", "sub/requirements.txt": "a==1\n"})
    write_tree(outside, {"environ": "GITHUB_TOKEN=x\n", "base.txt": "b==1\n"})
    (repo / "out.txt").symlink_to(outside / "environ")
    (repo / "linked").symlink_to(outside, target_is_directory=True)
    (repo / "inner.txt").symlink_to(repo / "src" / "app.py")
    (repo / "dotenv.txt").symlink_to(repo / ".env")
    (repo / "loop").symlink_to(repo / "loop")
    return repo


@pytest.mark.parametrize(
    ("rel", "says"),
    [
        ("src/app.py", ""),
        ("inner.txt", ""),
        ("sub/requirements.txt", ""),
        ("out.txt", "leaves the checkout"),
        ("linked/base.txt", "leaves the checkout"),
        ("loop", "leaves the checkout"),
        ("dotenv.txt", "links to a file that may hold secrets"),
        (".env", "may hold secrets"),
        ("../outside/environ", "not inside the checkout"),
        ("/etc/passwd", "not inside the checkout"),
    ],
)
def test_refusal_names_why_and_never_the_target(tree, rel, says):
    why = refusal(tree, rel, Settings().secret_files)
    assert (says in why) if says else why == ""
    assert "GITHUB_TOKEN" not in why and "outside" not in why


def test_the_secret_floor_holds_whatever_the_settings_say():
    for name in (".envrc", "prod.tfvars", "terraform.tfstate", "terraform.tfstate.backup",
                 "SERVER.PEM", ".ENV", ".htpasswd", "kubeconfig", "app/.env.local"):  # fmt: skip
        assert is_secret(name, ()), name
    assert not is_secret("src/environment.py", ())
    assert set(SECRET_FLOOR) <= set(secret_patterns(["custom.secret"]))


def test_the_secret_files_setting_starts_from_the_floor_and_only_adds():
    assert Settings().secret_files == SECRET_FLOOR  # one list: the setting's default is the floor
    assert secret_patterns(Settings().secret_files) == SECRET_FLOOR
    assert secret_patterns(["Custom.Secret"]) == ("custom.secret", *SECRET_FLOOR)


def test_scope_excludes_secret_files_case_insensitively():
    args = scope_args(Settings())
    pairs = list(zip(args, args[1:], strict=False))
    assert ("--iglob", "!.envrc") in pairs and ("--iglob", "!*.tfstate") in pairs
    assert ("--glob", "!*.pem") not in pairs  # a case-sensitive glob would let SERVER.PEM in
