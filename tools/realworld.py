"""Assemble the real-world corpus: specs in tests/realworld/cases/*.toml -> scenario folders.

A spec names a real client repository at a commit (the files to keep), the upstream
repository (the notes files to read at a tag) and the update, with the verdict a careful
triager reaches. ``build`` turns each spec into a scenario folder in the shared scenario
format (see the scenarios README) under tests/realworld/built/<name>/:

    scenario.toml   description, one [[updates]], one [[expect]]
    repo/           the kept client files, read from the client's mirror at the commit
    upstream/<ecosystem>/<package>/
        <notes path>    each notes file at its repository path, read at its ref
        meta.json       {"repository": "https://github.com/<upstream>", "directory"?: ...,
                        "versions": the releases the registry lists from `from` to `to`}
        dist/<version>/ the `from` and `to` artifacts, trimmed (when dist = true; npm: JS kept)
    upstream/<ecosystem>/<also package>/   one per optional [[also]] entry (package,
        meta.json       versions): another package the registry must serve, e.g. the
        dist/<version>/ target of an `export *` or an @types/<name>; dist only, trimmed alike.
                        npm: the @types/<name> release depbot reads for a `from` or `to`
                        without declarations of its own is added so by itself, as a real
                        registry serves it (a spec's own [[also]] for it wins)
    SOURCES.txt     where everything came from: repos, commits, licenses, URLs, sha256

Mirrors are bare git directories at <mirror root>/<owner>+<name>/repo (made by the
session's fetch tool: source github:<owner>/<name>); this script never fetches from
GitHub. Registry downloads (artifacts, and the version lists) are cached in
tests/realworld/.downloads/ (a rebuild is offline).
Built output and downloads are git-ignored: third-party code is never committed.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

try:
    import tomllib
except ImportError:  # pragma: no cover - Python 3.10
    import tomli as tomllib

sys.path.insert(0, str(Path(__file__).resolve().parent))
import realworld_dist as dist  # noqa: E402
from realworld_manifest import pin_manifest  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "realworld"
MIRRORS = Path("/work/.mirror")
VERDICTS = ("affected", "not_affected", "unknown")
NEGATIVES = ("unused", "comment", "test-fixture", "vendored", "shim", "patch")
REPO_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9][A-Za-z0-9_.-]*$")
TOP = {"description", "ecosystem", "package", "from", "to", "expect", "files", "symbols",
       "negative", "client", "upstream", "also"}  # fmt: skip
CLIENT = {"repo", "commit", "license", "paths", "manifest"}
UPSTREAM = {"repo", "license", "notes", "directory", "dist"}
ALSO = {"package", "versions"}


@dataclass
class Spec:
    name: str
    path: Path
    data: dict[str, Any]

    def __getitem__(self, key: str) -> Any:
        return self.data[key]


def _str(d: dict[str, Any], key: str, where: str, errs: list[str], *, empty: bool = False) -> str:
    v = d.get(key)
    if not isinstance(v, str) or (not empty and not v.strip()):
        errs.append(f"{where}: {key}: {'a string' if empty else 'a non-empty string'} is required")
        return ""
    return v


def _strs(d: dict[str, Any], key: str, where: str, errs: list[str]) -> list[str]:
    v = d.get(key, [])
    if not isinstance(v, list) or not all(isinstance(x, str) and x for x in v):
        errs.append(f"{where}: {key}: must be a list of non-empty strings")
        return []
    return v


def _rel(p: str) -> bool:
    return bool(p) and not p.startswith("/") and ".." not in p.split("/") and "\\" not in p


def validate(name: str, data: dict[str, Any], where: str) -> list[str]:
    """One line per bad field, each naming the file and the key."""
    errs: list[str] = []
    for k in sorted(set(data) - TOP):
        errs.append(f"{where}: {k}: unknown key (known: {', '.join(sorted(TOP))})")
    _str(data, "description", where, errs)
    eco = data.get("ecosystem")
    if eco not in ("pip", "npm"):
        errs.append(f"{where}: ecosystem: must be pip or npm, not {eco!r}")
    elif not name.startswith(f"{eco}-"):
        errs.append(
            f"{where}: ecosystem: the file name must start with {eco}- (e.g. {eco}-<package>-<what>)"
        )
    _str(data, "package", where, errs)
    for k in ("from", "to"):
        _str(data, k, where, errs)
    verdict = data.get("expect")
    if verdict not in VERDICTS:
        errs.append(f"{where}: expect: must be one of {', '.join(VERDICTS)}, not {verdict!r}")
    files, symbols = _strs(data, "files", where, errs), _strs(data, "symbols", where, errs)
    if verdict == "affected":
        if not files:
            errs.append(f"{where}: files: an affected case lists the client files to cite")
        if not symbols:
            errs.append(f"{where}: symbols: an affected case lists at least one symbol")
    elif files or symbols:
        errs.append(f'{where}: files/symbols: only for expect = "affected"')
    neg = data.get("negative", "")
    if not isinstance(neg, str) or (neg and neg not in NEGATIVES):
        errs.append(f"{where}: negative: one of {', '.join(NEGATIVES)} (or empty), not {neg!r}")
    elif neg and verdict != "not_affected":
        errs.append(f'{where}: negative: only for expect = "not_affected"')
    client, up = data.get("client"), data.get("upstream")
    if not isinstance(client, dict):
        errs.append(f"{where}: client: a [client] table is required")
    else:
        cw = f"{where}: client"
        errs += [f"{cw}.{k}: unknown key" for k in sorted(set(client) - CLIENT)]
        if not REPO_RE.match(str(client.get("repo", ""))):
            errs.append(f"{cw}.repo: must be owner/name, not {client.get('repo')!r}")
        if not re.fullmatch(r"[0-9a-f]{40}", str(client.get("commit", ""))):
            errs.append(f"{cw}.commit: must be 40 lower-case hex digits")
        _str(client, "license", cw, errs)
        paths = _strs(client, "paths", cw, errs)
        if not paths:
            errs.append(f"{cw}.paths: at least one kept file is required")
        errs += [f"{cw}.paths: {p!r} is not a relative path" for p in paths if not _rel(p)]
        manifest = _str(client, "manifest", cw, errs)
        if manifest and not _rel(manifest):  # not kept: the build writes a one-line manifest
            errs.append(f"{cw}.manifest: {manifest!r} is not a relative path")
        errs += [
            f"{where}: files: {f!r} is not among client.paths" for f in files if f not in paths
        ]
    if not isinstance(up, dict):
        errs.append(f"{where}: upstream: an [upstream] table is required")
    else:
        uw = f"{where}: upstream"
        errs += [f"{uw}.{k}: unknown key" for k in sorted(set(up) - UPSTREAM)]
        if not REPO_RE.match(str(up.get("repo", ""))):
            errs.append(f"{uw}.repo: must be owner/name, not {up.get('repo')!r}")
        _str(up, "license", uw, errs)
        _str(up, "directory", uw, errs, empty=True) if "directory" in up else None
        if not isinstance(up.get("dist", True), bool):
            errs.append(f"{uw}.dist: must be true or false")
        notes, seen = up.get("notes", []), set()
        if not isinstance(notes, list):
            errs.append(f"{uw}.notes: must be a list of {{ path = ..., ref = ... }}")
            notes = []
        for i, n in enumerate(notes, 1):
            ok = (
                isinstance(n, dict)
                and set(n) == {"path", "ref"}
                and all(isinstance(n[k], str) and n[k] for k in ("path", "ref"))
            )
            if not ok or not _rel(n["path"]):
                errs.append(f'{uw}.notes[{i}]: must be {{ path = "relative/path", ref = "tag" }}')
            elif (
                n["path"] in seen
                or n["path"] in ("meta.json", "releases.json")
                or n["path"].startswith("dist/")
            ):
                errs.append(f"{uw}.notes[{i}]: path {n['path']!r} is repeated or reserved")
            else:
                seen.add(n["path"])
    errs += _validate_also(data, where)
    return errs


def _validate_also(data: dict[str, Any], where: str) -> list[str]:
    """``[[also]]``: other packages of the same ecosystem the registry serves, dist only."""
    also, errs = data.get("also", []), []
    if not isinstance(also, list):
        return [f"{where}: also: must be a list of {{ package = ..., versions = [...] }}"]
    seen = {str(data.get("package", "")).lower()}
    for i, a in enumerate(also, 1):
        aw = f"{where}: also[{i}]"
        if not isinstance(a, dict):
            errs.append(f"{aw}: must be {{ package = ..., versions = [...] }}")
            continue
        errs += [f"{aw}.{k}: unknown key (known: package, versions)" for k in sorted(set(a) - ALSO)]
        name = _str(a, "package", aw, errs)
        if name and (name.lower() in seen or not _rel(name) or name.count("/") > 1):
            errs.append(f"{aw}.package: {name!r} is repeated, the case's own package or not a name")
        seen.add(name.lower())
        if not _strs(a, "versions", aw, errs):
            errs.append(f"{aw}.versions: at least one version is required")
    return errs


def load_specs(cases: Path, only: list[str] | None = None) -> tuple[list[Spec], list[str]]:
    """The specs in ``cases`` (those named in ``only`` when given) and the errors found."""
    specs, errs = [], []
    paths = sorted(cases.glob("*.toml"))
    names = {p.stem for p in paths}
    for missing in sorted(set(only or ()) - names):
        errs.append(f"{cases / (missing + '.toml')}: no such spec")
    for p in paths:
        if only and p.stem not in only:
            continue
        where = str(p.relative_to(ROOT)) if p.is_relative_to(ROOT) else str(p)
        try:
            data = tomllib.loads(p.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            errs.append(f"{where}: not valid TOML ({exc})")
            continue
        bad = validate(p.stem, data, where)
        errs += bad
        if not bad:
            specs.append(Spec(p.stem, p, data))
    return specs, errs


def mirror_of(root: Path, repo: str) -> Path:
    """The git directory of repo's mirror: some snapshots are clones with a work tree."""
    m = root / repo.replace("/", "+") / "repo"
    return m / ".git" if (m / ".git").is_dir() else m


def git_show(mirror: Path, ref: str, path: str) -> bytes | None:
    done = subprocess.run(["git", "--git-dir", str(mirror), "show", f"{ref}:{path}"],
                          capture_output=True, timeout=60)  # fmt: skip
    return done.stdout if done.returncode == 0 else None


def _write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def _q(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)


def scenario_toml(spec: Spec) -> str:
    d = spec.data
    out = [f"# built by tools/realworld.py from tests/realworld/cases/{spec.name}.toml",
           f"description = {_q(d['description'])}", "", "[[updates]]",
           f"ecosystem = {_q(d['ecosystem'])}", f"package = {_q(d['package'])}",
           f"from = {_q(d['from'])}", f"to = {_q(d['to'])}",
           f"manifest = {_q(d['client']['manifest'])}", "", "[[expect]]",
           f"package = {_q(d['package'])}", f"verdict = {_q(d['expect'])}"]  # fmt: skip
    if d["expect"] == "affected":
        out.append(f"files = [{', '.join(map(_q, d.get('files', [])))}]")
        out.append(f"symbols = [{', '.join(map(_q, d.get('symbols', [])))}]")
    return "\n".join(out) + "\n"


def build_case(spec: Spec, mirrors: Path, out: Path, downloads: Path) -> str:
    """Assemble one case into ``out/<name>/``; returns '' when built, else why it was skipped."""
    d, client, up = spec.data, spec["client"], spec["upstream"]
    eco, pkg = d["ecosystem"], d["package"]
    cm, um = mirror_of(mirrors, client["repo"]), mirror_of(mirrors, up["repo"])
    for repo, m in ((client["repo"], cm), (up["repo"], um)):
        if not (m / "HEAD").is_file() and (repo == client["repo"] or up.get("notes")):
            return f"mirror of {repo} missing at {m}: get it with the fetch tool (source github:{repo})"
    tmp = out / f".{spec.name}.tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    try:
        why = _assemble(spec, cm, um, tmp, downloads, eco, pkg)
        if why:
            return why
        final = out / spec.name
        shutil.rmtree(final, ignore_errors=True)
        tmp.rename(final)
        return ""
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _assemble(
    spec: Spec, cm: Path, um: Path, tmp: Path, downloads: Path, eco: str, pkg: str
) -> str:
    d, client, up = spec.data, spec["client"], spec["upstream"]
    src = [f"case: tests/realworld/cases/{spec.name}.toml",
           f"client: https://github.com/{client['repo']} at {client['commit']}",
           f"client license: {client['license']}",
           f"upstream: https://github.com/{up['repo']}", f"upstream license: {up['license']}"]  # fmt: skip
    for p in client["paths"]:
        data = git_show(cm, client["commit"], p)
        if data is None:
            return f"{client['repo']}@{client['commit'][:12]} has no {p} (or the commit is not in the mirror)"
        _write(tmp / "repo" / p, data)
        src.append(f"client file: {p}")
    try:
        note = pin_manifest(tmp / "repo", client["manifest"], eco, pkg, d["from"])
    except (ValueError, OSError, json.JSONDecodeError) as exc:
        return str(exc)
    if note:
        src.append(f"manifest rewritten (the kept one did not pin {d['from']}): {note}")
    pkg_dir = tmp / "upstream" / eco / pkg
    for n in up.get("notes", []):
        data = git_show(um, n["ref"], n["path"])
        if data is None:
            return f"{up['repo']} has no {n['path']} at {n['ref']} (is the ref in the mirror?)"
        _write(pkg_dir / n["path"], data)
        src.append(f"upstream notes: {n['path']} at {n['ref']}")
    meta: dict[str, Any] = {"repository": f"https://github.com/{up['repo']}"}
    if up.get("directory"):
        meta["directory"] = up["directory"]
    try:  # the releases a real registry lists between the two, not only those the notes name
        meta["versions"] = dist.released_versions(eco, pkg, d["from"], d["to"], downloads)
    except (dist.DistError, OSError, ValueError) as exc:
        return f"versions of {pkg}: {exc}"
    src.append(f"registry versions {d['from']} … {d['to']}: {len(meta['versions'])} listed")
    _write(pkg_dir / "meta.json", (json.dumps(meta) + "\n").encode())
    if up.get("dist", True):
        fetch = dist.pip_artifact if eco == "pip" else dist.npm_artifact
        for version in dict.fromkeys((d["from"], d["to"])):
            try:
                art = fetch(pkg, version, downloads)
            except (dist.DistError, OSError, ValueError) as exc:
                return f"artifact {pkg} {version}: {exc}"
            for rel, body in sorted(art.files.items()):
                _write(pkg_dir / "dist" / version / rel, body)
            src.append(
                f"artifact {version}: {art.url} sha256={art.sha256} ({len(art.files)} files kept)"
            )
    also = list(d.get("also", []))
    if eco == "npm" and up.get("dist", True):  # the @types release depbot would ask for
        also += _types_companions(pkg, d["from"], d["to"], pkg_dir / "dist", downloads, also)
    for a in also:  # dist-only folders: no notes, the versions named in meta.json
        also_dir = tmp / "upstream" / eco / a["package"]
        _write(also_dir / "meta.json", (json.dumps({"versions": a["versions"]}) + "\n").encode())
        fetch = dist.pip_artifact if eco == "pip" else dist.npm_artifact
        for version in dict.fromkeys(a["versions"]):
            try:
                art = fetch(a["package"], version, downloads)
            except (dist.DistError, OSError, ValueError) as exc:
                return f"artifact {a['package']} {version}: {exc}"
            for rel, body in sorted(art.files.items()):
                _write(also_dir / "dist" / version / rel, body)
            src.append(f"also {a['package']} {version}: {art.url} sha256={art.sha256} "
                       f"({len(art.files)} files kept)")  # fmt: skip
    if eco == "npm":
        src += _declared_releases(tmp, client["manifest"], pkg, downloads)
    (tmp / "scenario.toml").write_text(scenario_toml(spec), encoding="utf-8")
    (tmp / "SOURCES.txt").write_text("\n".join(src) + "\n", encoding="utf-8")
    return ""


def _types_companions(
    pkg: str, low: str, high: str, dist_dir: Path, downloads: Path, also: list[dict]
) -> list[dict]:
    """The ``@types/<name>`` releases a real registry serves that depbot reads for a release
    without declarations of its own (the same choice: ``types_companion``, ``matching_version``;
    the old side may take an older major). A spec's own ``[[also]]`` for it wins."""
    from depbot.ecosystems.npm.api.types import matching_version, types_companion

    picks: dict[str, list[str]] = {}
    for version, older in ((low, True), (high, False)):
        name = types_companion(pkg, dist_dir / version)
        if name is None or any(a["package"] == name for a in also):
            continue
        try:
            published = dist.npm_published(name, downloads)
        except (dist.DistError, OSError, ValueError):  # no such package: nothing to serve
            continue
        picked = matching_version(version, published, below=older)
        if picked is not None and picked not in picks.setdefault(name, []):
            picks[name].append(picked)
    return [{"package": n, "versions": v} for n, v in picks.items() if v]


def _declared_releases(tmp: Path, manifest: str, pkg: str, downloads: Path) -> list[str]:
    """The registry documents of the other packages the client's manifest declares, at the
    version depbot reads them at (the lock's, the pin, the range's lowest), as
    ``upstream/npm/<name>/manifests/<version>.json``: what ``who_loads`` asks of them. One
    that cannot be had is left out (depbot then says it could not read it)."""
    from depbot import ecosystems

    eco = ecosystems.get("npm")
    repo = tmp / "repo"
    rels = [manifest, *sorted(p.relative_to(repo).as_posix() for p in repo.rglob("package.json")
                              if "node_modules" not in p.parts)]  # fmt: skip
    declared = []
    for rel in dict.fromkeys(rels):
        try:
            declared += eco.read_manifest(repo / rel, repo, rel, (), None)[0]
        except (OSError, ValueError):
            return [f"declared releases: {rel} could not be read"]
    wanted = set()  # every declaration: a name both manifests' lists declare (`^1.2.2` in
    for d in declared:  # dependencies, `^1.2.1` in devDependencies) may be read at either
        version = d.installed or d.pinned or eco.lower_bound(d.spec)
        if d.name != pkg and version and eco.parse_version(version) is not None:
            wanted.add((d.name, version, d.spec))

    def one(item: tuple[str, str, str]) -> str:
        name, version, spec = item
        try:
            doc = dist.npm_release_document(name, version, downloads)
        except dist.DistError as exc:  # a range's lowest never published: what depbot then
            try:  # takes, listed alone
                taken = dist.npm_newest_taken(name, spec, downloads) if "404" in str(exc) else None
            except dist.DistError:
                taken = None
            if taken is None and "404" in str(exc) and _published(name, downloads) == []:
                # the registry keeps the name with no release (`fs`, a security holding
                # package): its document lists no version, as the fake registry will
                _write(tmp / "upstream" / "npm" / name / "meta.json",
                       (json.dumps({"versions": []}) + "\n").encode())  # fmt: skip
                return ""
            if taken is None:
                return f"declared release {name} {version}: not had ({exc})"
            version, doc = taken, dist.npm_release_document(name, taken, downloads)
            _write(tmp / "upstream" / "npm" / name / "meta.json",
                   (json.dumps({"versions": [taken]}) + "\n").encode())  # fmt: skip
        except (OSError, ValueError) as exc:
            return f"declared release {name} {version}: not had ({exc})"
        _write(tmp / "upstream" / "npm" / name / "manifests" / f"{version}.json",
               (json.dumps(doc, sort_keys=True) + "\n").encode())  # fmt: skip
        return ""

    with ThreadPoolExecutor(8) as pool:
        return [why for why in pool.map(one, sorted(wanted)) if why]


def _published(name: str, downloads: Path) -> list[str] | None:
    """The versions the registry lists for ``name``; None when it cannot say."""
    try:
        return dist.npm_published(name, downloads)
    except (dist.DistError, OSError, ValueError):
        return None


def counts(specs: list[Spec]) -> dict[str, int]:
    c: Counter[str] = Counter()
    for s in specs:
        c["total"] += 1
        c[s["ecosystem"]] += 1
        c[s["expect"]] += 1
        if s["expect"] == "not_affected" and s.data.get("negative"):
            c["negatives"] += 1
    return {k: c[k] for k in ("total", "pip", "npm", "negatives", *VERDICTS)}


def cmd_check(args: argparse.Namespace) -> int:
    specs, errs = load_specs(args.cases, args.only)
    for e in errs:
        print(e)
    c = counts(specs)
    print(f"{c['total']} valid specs: pip {c['pip']}, npm {c['npm']}, negatives {c['negatives']}; "
          + ", ".join(f"{v} {c[v]}" for v in VERDICTS) + (f"; {len(errs)} errors" if errs else ""))  # fmt: skip
    return 2 if errs else 0


def cmd_build(args: argparse.Namespace) -> int:
    specs, errs = load_specs(args.cases, args.only)
    for e in errs:
        print(e)
    args.out.mkdir(parents=True, exist_ok=True)
    if not args.only:  # a full build drops built cases whose spec is gone
        names = {p.stem for p in args.cases.glob("*.toml")}
        for old in args.out.iterdir():
            if old.is_dir() and old.name not in names and (old / "SOURCES.txt").is_file():
                shutil.rmtree(old)
    built, skipped = 0, Counter()
    for spec in specs:
        why = build_case(spec, args.mirror, args.out, args.downloads)
        if why:
            print(f"skip {spec.name}: {why}")
            skipped[
                "mirror missing"
                if why.startswith("mirror of")
                else "artifact"
                if why.startswith("artifact")
                else "other"
            ] += 1
        else:
            built += 1
            print(f"built {spec.name}")
    if errs:
        skipped["bad spec"] += len({e.split(":")[0] for e in errs})
    reasons = ", ".join(f"{k} {v}" for k, v in sorted(skipped.items()))
    print(
        f"built {built} cases, skipped {sum(skipped.values())}"
        + (f" ({reasons})" if reasons else "")
    )
    return 2 if errs else 1 if skipped else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python tools/realworld.py", description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="examples:\n  python tools/realworld.py check\n"
        "  python tools/realworld.py build --only pip-pyyaml-load-config\n"
        "  depbot eval tests/realworld --model rules",
    )  # fmt: skip
    sub = parser.add_subparsers(dest="command", required=True)
    for name, helptext in (("check", "validate the specs and print their counts (no building)"),
                           ("build", "assemble the specs into scenario folders")):  # fmt: skip
        p = sub.add_parser(name, help=helptext, description=helptext)
        p.add_argument(
            "--only", nargs="+", metavar="NAME", help="only these cases (spec file stems)"
        )
        p.add_argument(
            "--cases",
            type=Path,
            default=CORPUS / "cases",
            help="folder of *.toml specs (default: %(default)s)",
        )
        if name == "build":
            p.add_argument("--mirror", type=Path, default=MIRRORS, metavar="DIR",
                           help="mirror root: <DIR>/<owner>+<name>/repo is a bare git dir (default: %(default)s)")  # fmt: skip
            p.add_argument(
                "--out",
                type=Path,
                default=CORPUS / "built",
                metavar="DIR",
                help="where cases are built (default: %(default)s)",
            )
            p.add_argument("--downloads", type=Path, default=CORPUS / ".downloads", metavar="DIR",
                           help="registry download cache (default: %(default)s)")  # fmt: skip
    args = parser.parse_args(argv)
    return cmd_check(args) if args.command == "check" else cmd_build(args)


if __name__ == "__main__":
    sys.exit(main())
