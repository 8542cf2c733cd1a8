"""What depbot may read of a checkout: files that stay inside it and name no secret file.

One rule for every reader (the code search, the manifest and update-file readers): a path
is read only when it, followed through every symbolic link (of the file or of any folder
on the way), resolves inside the checkout, and neither its own name nor its target's
names a file that may hold secrets (``Settings.secret_files``). ``refusal`` says why a
path is refused in a short sentence that names the path only, never what it points to.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Iterable
from pathlib import Path, PurePosixPath

__all__ = [
    "SECRET_FLOOR",
    "is_secret",
    "refusal",
    "relative_to",
    "resolve_inside",
    "secret_patterns",
]

# Files that may hold secrets, never searched nor read whatever ``Settings.secret_files`` says
# (its default; a changed setting adds to these, never takes one away):
# env files and direnv, Terraform variables and state, keys and keystores, registry and
# cloud credentials, htpasswd, kubeconfig, secrets manifests.
SECRET_FLOOR = (
    ".env",
    ".env.*",
    "*.env",
    ".envrc",
    "*.tfvars",
    "*.tfvars.json",
    "*.tfstate",
    "*.tfstate.*",
    "*.pem",
    "*.key",
    "*.p12",
    "*.pfx",
    "*.jks",
    "*.keystore",
    "id_rsa*",
    "id_dsa*",
    "id_ecdsa*",
    "id_ed25519*",
    ".npmrc",
    ".pypirc",
    ".netrc",
    ".pgpass",
    ".s3cfg",
    ".dockercfg",
    ".htpasswd",
    "kubeconfig",
    "*.kubeconfig",
    "secrets.yml",
    "secrets.yaml",
    "secrets.json",
    "credentials",
    "credentials.*",
    "*credentials*.json",
    ".git-credentials",
)


def secret_patterns(secret_files: Iterable[str]) -> tuple[str, ...]:
    """The configured secret-file globs and ``SECRET_FLOOR``, lower-cased, each once."""
    return tuple(dict.fromkeys(p.lower() for p in (*secret_files, *SECRET_FLOOR) if p.strip()))


def is_secret(path: str, secret_files: Iterable[str]) -> bool:
    """Whether any component of a relative path matches one of ``secret_files`` or
    ``SECRET_FLOOR`` (globs, compared case-insensitively, as ``--iglob '!pattern'``
    excludes them from search)."""
    parts = [p.lower() for p in PurePosixPath(path.replace("\\", "/")).parts]
    pats = secret_patterns(secret_files)
    return any(fnmatch.fnmatchcase(part, pat) for part in parts for pat in pats)


def resolve_inside(root: Path, rel: str | Path) -> Path | None:
    """The resolved path of ``rel`` (relative to ``root``) when it stays inside the resolved
    ``root`` through every symlink; ``None`` when it leaves it or cannot be resolved (a
    link loop, a name over the limit)."""
    try:
        base = Path(root).resolve()
        resolved = (base / rel).resolve()
    except (OSError, RuntimeError, ValueError):
        return None
    return resolved if resolved.is_relative_to(base) else None


def relative_to(root: Path, path: Path) -> str:
    """``path`` (as the caller has it: under ``root`` as written, or absolute) relative to
    ``root``, without following links; "" when it is not under ``root`` as written."""
    for base, p in ((Path(root), Path(path)), (Path(root).absolute(), Path(path).absolute())):
        try:
            rel = p.relative_to(base).as_posix()
        except ValueError:
            continue
        # `../week.json` from root `.` is outside as written ("" like any other); a `..`
        # further in (`sub/../x`) stays for ``refusal`` to refuse
        return "" if rel == ".." or rel.startswith("../") else rel
    return ""


def refusal(root: Path, rel: str, secret_files: Iterable[str] = ()) -> str:
    """Why ``rel`` (a path relative to ``root``) may not be read, as a short sentence that
    names no target; "" when it may be read."""
    pats = tuple(secret_files)
    if not rel or rel.startswith("/") or ".." in PurePosixPath(rel).parts:
        return "it is not inside the checkout"
    if is_secret(rel, pats):
        return "it may hold secrets; depbot never reads such files"
    resolved = resolve_inside(root, rel)
    if resolved is None:
        return "it is a symbolic link (or lies in a linked folder) that leaves the checkout"
    inner = resolved.relative_to(Path(root).resolve()).as_posix()
    if inner != "." and is_secret(inner, pats):
        return "it links to a file that may hold secrets"
    return ""
