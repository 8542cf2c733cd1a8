"""A loopback fake of the package registries and GitHub, serving a scenario's ``upstream/`` folder.

Used by the tests, ``depbot eval`` and ``depbot demo``: the production fetching code is
pointed at it through its base-URL settings (``settings_overrides()``) and cannot tell it
from the real services. Layout (see the scenarios README)::

    upstream/<ecosystem>/<package>/
        CHANGELOG.md, docs/..., packages/x/...   the repository tree (any files and folders)
        releases.json   optional: [{"tag_name", "name", "body", "prerelease"?}], newest first
        meta.json       optional: {"repository": "https://github.com/o/r", "directory": "...",
                        "project_urls": {...}, "description": "...", "versions": [...],
                        "default_branch": "main", "tags": [...],
                        "refs": {"v2.0.0": "<folder>"}}   (a different tree for one ref)

What it answers, in the real wire formats:

- ``GET /pypi/<name>/json`` (names PEP 503-normalized) and ``GET /npm/<name>`` (scoped
  names as ``@scope%2Fname``): registry metadata whose versions are the ``versions``
  argument ∪ versions of changelog headings ∪ per-release notes files named by a version
  (``release_notes/4.0.0.md``) ∪ release tags ∪ meta ``versions``;
- ``GET /npm/<name>/<version>``: one release's document, as the registry serves it (its
  package.json: ``bin``, dependencies, peers), from ``manifests/<version>.json`` or else
  from the version of the metadata (with the ``bin`` and dependency lists of
  ``dist/<version>/package.json``); a folder holding only ``manifests/`` (the releases a
  checkout declares beside the updated package) serves no metadata, only these documents;
- the released artifacts of ``dist/<version>/`` (``fakes/artifacts.py``): a wheel listed in
  ``releases[<v>]`` and ``urls`` with its ``sha256`` (``GET /packages/<name>/<v>/<file>``),
  an npm tarball named by ``versions[<v>].dist`` with ``integrity`` and ``shasum``
  (``GET /npm/<name>/-/<file>.tgz``); a version without a ``dist/`` folder keeps its bare
  sdist entry with no ``url`` (no downloadable file);
- ``GET /github/repos/<o>/<r>`` (repository, default branch "main"),
  ``/releases`` and ``/tags`` (``per_page``/``page`` with ``Link`` headers) and
  ``/contents/<path>?ref=`` (folder listings and base64 files; any existing ref — the
  default branch, every release tag and meta ``tags``/``refs`` — serves the same tree
  unless meta ``refs`` gives that ref its own folder; a file over ``contents_limit`` bytes,
  1 MB as on GitHub, comes without content, ``encoding: none``),
  ``/git/trees/<ref>?recursive=1`` (the whole tree at a ref);
- ``GET /raw/<o>/<r>/<ref>/<path>``: the raw-file endpoint (``raw_url``) of any file.

A package without a ``repository`` gets a made-up GitHub repository so its files are still
reachable. ETags are on, so a client with a cache revalidates (304).

Faults (``[[faults]]`` of scenario.toml: ``package``, ``kind``, ``times``) apply to every
request concerning the package (its registry entry and its repository), counted across
them; ``times = 0`` means always. Kinds: ``rate_limit`` (429 with ``Retry-After``),
``server_error`` (500/502/503), ``not_found`` (404), ``timeout`` (the answer comes after
``timeout_delay`` seconds), ``garbage`` (200 with a body that is not JSON: an HTML page or
cut-off JSON, in turn). An optional ``endpoint`` (``registry``, ``artifact``, ``repo``,
``releases``, ``tags``, ``contents``) narrows a fault to one kind of request; the tests use it.

Finer kinds for the fault-matrix tests: ``rate_limit_bare`` (429 without ``Retry-After``
or rate-limit headers), ``reset`` (the connection is dropped without an answer),
``truncated`` (the real answer, announced in full, cut off halfway), ``html`` (200 with an
HTML page), ``bad_json`` (200 with cut-off JSON), ``unauthorized`` (401) and ``forbidden``
(403 without rate-limit headers). ``server_error`` takes an optional ``status`` (500, 502,
503, 504) instead of taking them in turn.
"""

from __future__ import annotations

import json
import re
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from packaging.version import InvalidVersion
from packaging.version import Version as PepVersion

from depbot.ecosystems import canonical_name
from depbot.fakes import artifacts as fake_artifacts
from depbot.fakes import upstream_github as fake_github
from depbot.fakes.loopback import LoopbackServer, Reply, Request
from depbot.fakes.upstream_github import TAG_VERSION as _TAG_VERSION
from depbot.records.names import normalize
from depbot.records.repository import parse_repository
from depbot.records.versions import parse_version

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

ENDPOINTS = ("registry", "artifact", "repo", "releases", "tags", "contents", "git", "raw")
FAULT_KINDS = (
    "rate_limit",
    "server_error",
    "not_found",
    "timeout",
    "garbage",
    # finer kinds, for the fault-matrix tests
    "rate_limit_bare",
    "reset",
    "truncated",
    "html",
    "bad_json",
    "unauthorized",
    "forbidden",
)
_RESERVED = ("meta.json", "releases.json")
_CHANGELOG_NAME = re.compile(
    r"^(changelogs?|change[-_]?log|changes|history|news|releases|release[-_]?notes|whats[-_]?new"
    r"|updates)(\.en(?:[-_][a-z]{2})?)?(\.[a-z]+)?$",
    re.IGNORECASE,
)
# deliberately simple and independent of depbot.changelogs.sections: a line that starts with a
# version (after #, [, "Version", v) and carries nothing else but a date or a link
_HEADING_VERSION = re.compile(
    r"^\s{0,3}(?:#+\s*)?(?:\*\*)?\[?`?(?:version\s+|release\s+)?v?"
    r"(\d+(?:\.\d+)+(?:[-.]?[0-9A-Za-z]+(?:\.[0-9A-Za-z]+)*)?)`?\]?(?:\*\*)?"
    r"(?P<rest>.*)$",
    re.IGNORECASE,
)
# a per-release notes file named by its version (release_notes/4.0.0.md, docs/changes/v2.1.rst)
_NOTES_FILE_VERSION = re.compile(r"^v?(\d+(?:\.\d+){1,2})\.(?:md|markdown|rst|txt)$", re.IGNORECASE)
_REST_OK = re.compile(r"^\s*(?:\([^)]*\))?\s*(?:[-\u2013\u2014/(]\s*.*|\(.*\)|)\s*$")


def _canonical(ecosystem: str, text: str) -> str | None:
    """The registry spelling of a version (2022.06.15 -> 2022.6.15, npm 1.0 -> 1.0.0), or None."""
    text = text.strip().lstrip("vV")
    if ecosystem == "npm":
        text = re.sub(r"(?<![\w.])0+(?=\d)|(?<=\.)0+(?=\d)", "", text)
        if parse_version("npm", text) is None:
            return None
        core, sep, rest = text.partition("-")
        nums = core.split(".")
        nums += ["0"] * (3 - len(nums))
        return ".".join(nums) + sep + rest
    try:
        return str(PepVersion(text))
    except InvalidVersion:
        return None


@dataclass
class _Package:
    ecosystem: str
    name: str
    folder: Path | None  # None: a package with no upstream folder
    repo: str
    directory: str | None
    meta: dict[str, Any]
    releases: list[dict[str, Any]]
    default_branch: str = "main"
    trees: dict[str, dict[str, bytes]] = field(default_factory=dict)  # ref -> {path: bytes}
    versions: list[str] = field(default_factory=list)

    @property
    def tags(self) -> list[str]:
        out = [str(r.get("tag_name") or "") for r in self.releases]
        out += [str(t) for t in self.meta.get("tags", [])]
        out += [str(t) for t in (self.meta.get("refs") or {})]
        return list(dict.fromkeys(t for t in out if t))

    def tree(self, ref: str | None) -> dict[str, bytes] | None:
        ref = ref if ref and ref != "HEAD" else self.default_branch
        by_commit = {fake_github.commit_of(t): t for t in self.tags}
        ref = by_commit.get(ref, ref)  # a tag's commit (GET /tags names it) reads as the tag
        if ref in self.trees:
            return self.trees[ref]
        if ref == self.default_branch or ref in self.tags:
            return self.trees[""]
        return None


ACTIONS = "github_actions"  # an ecosystem whose packages are repositories (owner/repo)


def _npm_repository(pkg: _Package) -> dict[str, str]:
    repository = {"type": "git", "url": f"git+https://github.com/{pkg.repo}.git"}
    return repository | ({"directory": pkg.directory} if pkg.directory else {})


def _npm_release_path(path: str) -> tuple[str, str] | None:
    """(name, version) of ``/npm/<name>/<version>`` (a scoped name encoded or not), else
    None (the metadata, or a tarball under ``/-/``)."""
    parts = path[len("/npm/") :].strip("/").split("/")
    if parts[0].startswith("@") and "/" not in unquote(parts[0]):  # @scope/name, not encoded
        parts = [f"{parts[0]}/{parts[1]}", *parts[2:]] if len(parts) > 1 else parts
    if len(parts) != 2 or parts[1] == "-" or not parts[1]:
        return None
    return unquote(parts[0]), unquote(parts[1])


def _read_tree(folder: Path, skip: set[str]) -> dict[str, bytes]:
    files: dict[str, bytes] = {}
    for path in sorted(folder.rglob("*")):
        if not path.is_file():
            continue
        rel = path.relative_to(folder).as_posix()
        if rel in _RESERVED or rel.split("/")[0] in skip:
            continue
        files[rel] = path.read_bytes()
    return files


def _versions_in(text: str, ecosystem: str) -> list[str]:
    out = []
    for line in text.splitlines():
        m = _HEADING_VERSION.match(line)
        if m and _REST_OK.match(m.group("rest")):
            v = _canonical(ecosystem, m.group(1))
            if v:
                out.append(v)
    return out


class FakeUpstream:
    """``with FakeUpstream(scenario / "upstream") as up: Settings(**up.settings_overrides())``."""

    def __init__(
        self,
        upstream_dir: Path,
        faults: list[dict] | tuple = (),
        *,
        versions: dict[tuple[str, str], list[str]] | None = None,
        retry_after: float = 1.0,
        timeout_delay: float = 5.0,
    ) -> None:
        self.upstream_dir = Path(upstream_dir)
        if not self.upstream_dir.is_dir():
            raise FileNotFoundError(f"no upstream folder at {self.upstream_dir}")
        self.retry_after = retry_after
        self.contents_limit = fake_github.CONTENTS_LIMIT  # tests may lower it
        # where the registry says the files are (default: this server's url); a test sets
        # another name of this server (http://localhost:PORT) to make it a guarded file host
        self.artifact_base: str | None = None
        self.timeout_delay = timeout_delay
        self.faults = []
        for f in faults:
            kind = str(f.get("kind", ""))
            if kind not in FAULT_KINDS:
                raise ValueError(f"unknown fault kind {kind!r} (one of {', '.join(FAULT_KINDS)})")
            endpoint = f.get("endpoint")
            if endpoint is not None and endpoint not in ENDPOINTS:
                raise ValueError(
                    f"unknown fault endpoint {endpoint!r} (one of {', '.join(ENDPOINTS)})"
                )
            self.faults.append(
                {
                    "package": str(f.get("package", "")),
                    "kind": kind,
                    "times": int(f.get("times", 0)),
                    "endpoint": endpoint,
                    "status": int(f["status"]) if f.get("status") else None,
                }
            )
        self._fault_counts = [0] * len(self.faults)
        self._lock = threading.Lock()
        self.packages: dict[tuple[str, str], _Package] = {}
        # (ecosystem, name) -> version -> the registry's document of that release
        self.manifests: dict[tuple[str, str], dict[str, dict[str, Any]]] = {}
        self._by_repo: dict[str, list[_Package]] = {}
        self._artifacts: dict[tuple[str, str, str], fake_artifacts.Artifact | None] = {}
        self._load(versions or {})
        self._server = LoopbackServer(self._handle, etags=True)

    @classmethod
    def for_scenario(cls, scenario_dir: Path, **kw: Any) -> FakeUpstream:
        """The fake for a scenario folder: its upstream/, faults and update versions."""
        scenario_dir = Path(scenario_dir)
        data = tomllib.loads((scenario_dir / "scenario.toml").read_text(encoding="utf-8"))
        versions: dict[tuple[str, str], list[str]] = {}
        for u in data.get("updates", []):
            key = (str(u.get("ecosystem", "")), str(u.get("package", "")))
            versions.setdefault(key, []).extend([str(u.get("from", "")), str(u.get("to", ""))])
        return cls(scenario_dir / "upstream", data.get("faults", []), versions=versions, **kw)

    # -- loading ---------------------------------------------------------------------------

    def _load(self, versions: dict[tuple[str, str], list[str]]) -> None:
        extra: dict[tuple[str, str], list[str]] = {}
        for (e, n), v in versions.items():
            extra.setdefault((e, canonical_name(e, n)), []).extend(v)
        for eco_dir in sorted(p for p in self.upstream_dir.iterdir() if p.is_dir()):
            eco = eco_dir.name
            folders: list[tuple[str, Path]] = []
            for folder in sorted(p for p in eco_dir.iterdir() if p.is_dir()):
                if eco == ACTIONS:  # github_actions/<owner>/<repo>/: the action's repository
                    folders += [(f"{folder.name}/{sub.name}", sub)
                                for sub in sorted(folder.iterdir()) if sub.is_dir()]  # fmt: skip
                elif eco == "npm" and folder.name.startswith("@"):  # npm/@scope/name/
                    folders += [
                        (f"{folder.name}/{sub.name}", sub)
                        for sub in sorted(folder.iterdir())
                        if sub.is_dir()
                    ]
                else:
                    folders.append((folder.name, folder))
            for name, folder in folders:
                self._load_manifests(eco, name, folder)
                if [p.name for p in folder.iterdir()] == ["manifests"]:
                    continue  # release documents only: no metadata, no repository
                pkg = self._load_package(
                    eco, name, folder, extra.get((eco, canonical_name(eco, name)))
                )
                self.packages[(eco, canonical_name(eco, pkg.name))] = pkg
                self._by_repo.setdefault(pkg.repo.lower(), []).append(pkg)
        # a package the updates name without an upstream folder: published, with no notes
        for eco, name in versions:
            if (eco, canonical_name(eco, name)) not in self.packages:
                pkg = self._load_package(eco, name, None, extra[(eco, canonical_name(eco, name))])
                self.packages[(eco, canonical_name(eco, name))] = pkg
                self._by_repo.setdefault(pkg.repo.lower(), []).append(pkg)

    def _load_manifests(self, eco: str, name: str, folder: Path) -> None:
        """``manifests/<version>.json``: the registry's document of each such release."""
        found = folder / "manifests"
        if not found.is_dir():
            return
        docs = self.manifests.setdefault((eco, canonical_name(eco, name)), {})
        for f in sorted(found.glob("*.json")):
            data = json.loads(f.read_text(encoding="utf-8"))
            if isinstance(data, dict):
                docs[f.name[: -len(".json")]] = {"name": name, "version": f.name[:-5], **data}

    def _load_package(
        self, eco: str, name: str, folder: Path | None, extra: list[str] | None
    ) -> _Package:
        meta: dict[str, Any] = {}
        if folder is not None and (folder / "meta.json").is_file():
            meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
        releases: list[dict[str, Any]] = []
        if folder is not None and (folder / "releases.json").is_file():
            releases = json.loads((folder / "releases.json").read_text(encoding="utf-8"))
        repo, directory = parse_repository(meta.get("repository"))
        if not repo and eco == ACTIONS:  # an action is its repository: owner/repo[/path]
            repo = "/".join(name.split("/")[:2])
        if not repo:
            repo = f"fake-{eco}/{re.sub(r'[^A-Za-z0-9_.-]+', '-', name.lstrip('@'))}"
        directory = meta.get("directory") or directory
        refs = {str(k): str(v) for k, v in (meta.get("refs") or {}).items()}
        if eco == ACTIONS and folder is not None and (folder / "dist").is_dir():
            for release in sorted(p for p in (folder / "dist").iterdir() if p.is_dir()):
                refs.setdefault(f"v{release.name}", f"dist/{release.name}")  # a tag per release
            meta = {**meta, "refs": refs}
        pkg = _Package(
            ecosystem=eco,
            name=name,
            folder=folder,
            repo=repo,
            directory=directory,
            meta=meta,
            releases=releases,
            default_branch=str(meta.get("default_branch") or "main"),
        )
        skip = {sub.split("/")[0] for sub in refs.values()}  # a ref's own folder (dist/4)
        pkg.trees[""] = _read_tree(folder, skip) if folder is not None else {}
        for ref, sub in refs.items():
            pkg.trees[ref] = _read_tree(folder / sub, set()) if folder is not None else {}
        found: list[str] = [*(extra or []), *map(str, meta.get("versions", []))]
        for tree in pkg.trees.values():
            for path, data in tree.items():
                if _CHANGELOG_NAME.match(path.rsplit("/", 1)[-1]):
                    found += _versions_in(data.decode("utf-8", "replace"), eco)
                elif m := _NOTES_FILE_VERSION.match(path.rsplit("/", 1)[-1]):
                    found.append(m.group(1))  # a per-release notes file: the release exists
        for tag in pkg.tags:
            m = _TAG_VERSION.search(tag)
            if m:
                found.append(m.group(1))
        canon = {c: None for v in found if v and (c := _canonical(eco, v))}
        pkg.versions = sorted(canon, key=lambda t: parse_version(eco, t))  # type: ignore[arg-type,return-value]
        return pkg

    # -- server ----------------------------------------------------------------------------

    def start(self) -> FakeUpstream:
        self._pack()
        self._server.start()
        return self

    def _pack(self) -> None:
        """Build every release's artifact before serving: a registry has its files packed, so
        its metadata (which carries their digests) answers at once. Packing a release of
        thousands of files on the first request took longer than a client waits."""
        for pkg in self.packages.values():
            if pkg.folder is None:
                continue
            for version in pkg.versions:
                if fake_artifacts.dist_folder(pkg.folder, version) is not None:
                    self._artifact(pkg, version)

    def stop(self) -> None:
        self._server.stop()

    def __enter__(self) -> FakeUpstream:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def url(self) -> str:
        return self._server.url

    @property
    def requests(self) -> list[Request]:
        """Every request served so far (the LoopbackServer log)."""
        return self._server.requests()

    def settings_overrides(self) -> dict[str, Any]:
        return {
            "pypi_url": self.url,
            "npm_url": self.url + "/npm",
            "github_api_url": self.url + "/github",
            "raw_url": self.url + "/raw",
            "allow_private_hosts": True,
        }

    # -- routing ---------------------------------------------------------------------------

    def _handle(self, req: Request) -> Reply:
        path = req.path
        pkgs: list[_Package] = []
        answer: Any
        artifact = self._artifact_route(req)
        if artifact is not None:
            return artifact
        m = re.fullmatch(r"/pypi/([^/]+)/json/?", path)
        if m:
            pkg = self.packages.get(("pip", normalize(unquote(m.group(1)))))
            pkgs = [pkg] if pkg else []
            fault = self._fault(pkgs, [unquote(m.group(1))], "pip", "registry")
            answer = lambda: self._pypi(pkg) if pkg else _not_found()  # noqa: E731
        elif path.startswith("/npm/") and _npm_release_path(path):
            name, version = _npm_release_path(path)  # type: ignore[misc]
            pkg = self.packages.get(("npm", name.lower()))
            pkgs = [pkg] if pkg else []
            fault = self._fault(pkgs, [name], "npm", "registry")
            answer = lambda: self._npm_version(name, version, pkg)  # noqa: E731
        elif path.startswith("/npm/"):
            name = unquote(path[len("/npm/") :]).strip("/")
            pkg = self.packages.get(("npm", name.lower()))
            pkgs = [pkg] if pkg else []
            fault = self._fault(pkgs, [name], "npm", "registry")
            answer = lambda: self._npm(pkg) if pkg else _not_found()  # noqa: E731
        elif path.startswith("/raw/"):
            return self._raw(unquote(path[len("/raw/") :]))
        else:
            m = re.fullmatch(r"/github/repos/([^/]+)/([^/]+)(/.*)?", path)
            if not m:
                return _not_found()
            repo = f"{m.group(1)}/{m.group(2)}"
            pkgs = self._by_repo.get(repo.lower(), [])
            rest = m.group(3) or ""
            endpoint = (rest.strip("/").split("/", 1)[0] or "repo") if rest else "repo"
            fault = self._fault(pkgs, [], None, endpoint)
            answer = lambda: fake_github.with_vary(  # noqa: E731
                self._github(pkgs, repo, rest, req) if pkgs else _not_found()
            )
        if fault is not None:
            if fault.delay or fault.truncate:
                normal = answer()
                normal.delay, normal.truncate = fault.delay, fault.truncate
                return normal
            return fault
        return answer()

    def _raw(self, rest: str) -> Reply:
        """raw.githubusercontent.com: ``<o>/<r>/<ref>/<path>`` as bytes (faults: ``raw``)."""
        parts = rest.split("/", 3)
        if len(parts) < 4:
            return _not_found()
        pkgs = self._by_repo.get(f"{parts[0]}/{parts[1]}".lower(), [])
        fault = self._fault(pkgs, [], None, "raw")
        if fault is not None:
            return fault
        ref = None if parts[2] == "HEAD" else parts[2]
        tree = pkgs[0].tree(ref) if pkgs else None
        if tree is None or parts[3] not in tree:
            return Reply(404, "404: Not Found", {"Content-Type": "text/plain"})
        return Reply(200, tree[parts[3]], {"Content-Type": "text/plain; charset=utf-8"})

    def _artifact_route(self, req: Request) -> Reply | None:
        """The download of a released artifact, or None for any other request."""
        where = fake_artifacts.parse_download(unquote(req.path))
        if where is None:
            return None
        eco, name, version, filename = where
        pkg = self.packages.get((eco, canonical_name(eco, name)))
        fault = self._fault([pkg] if pkg else [], [name], eco, "artifact")
        art = self._artifact(pkg, version) if pkg else None
        if art is None or art.filename != filename:
            return fault or _not_found()
        reply = Reply(200, art.data, {"Content-Type": "application/octet-stream"})
        if fault is not None and (fault.delay or fault.truncate):
            reply.delay, reply.truncate = fault.delay, fault.truncate
            return reply
        return fault or reply

    def _artifact(self, pkg: _Package, version: str) -> fake_artifacts.Artifact | None:
        """The artifact built from ``dist/<version>/`` (once), or None without that folder."""
        key = (pkg.ecosystem, pkg.name, version)
        with self._lock:
            if key in self._artifacts:
                return self._artifacts[key]
        folder = fake_artifacts.dist_folder(pkg.folder, version)
        art = fake_artifacts.build(pkg.ecosystem, pkg.name, version, folder) if folder else None
        with self._lock:
            self._artifacts[key] = art
        return art

    def _artifact_url(self, pkg: _Package, art: fake_artifacts.Artifact, version: str) -> str:
        base = self.artifact_base or self.url  # another name for this server: a file host
        if pkg.ecosystem == "npm":
            return f"{base}/npm/{pkg.name}/-/{art.filename}"
        return f"{base}/packages/{normalize(pkg.name)}/{version}/{art.filename}"

    def _pypi_files(self, pkg: _Package, v: str) -> list[dict[str, Any]]:
        yanked = v in pkg.meta.get("yanked", [])
        art = self._artifact(pkg, v)
        if art is None:
            return [
                {"filename": f"{pkg.name}-{v}.tar.gz", "packagetype": "sdist", "yanked": yanked}
            ]
        return [fake_artifacts.pypi_entry(art, self._artifact_url(pkg, art, v), yanked)]

    def _npm_dist(self, pkg: _Package, v: str) -> dict[str, Any]:
        art = self._artifact(pkg, v)
        return (
            {"dist": fake_artifacts.npm_dist(art, self._artifact_url(pkg, art, v))} if art else {}
        )

    def _fault(
        self, pkgs: list[_Package], names: list[str], eco: str | None, endpoint: str
    ) -> Reply | None:
        keys = {(p.ecosystem, canonical_name(p.ecosystem, p.name)) for p in pkgs}
        keys |= {(eco, canonical_name(eco, n)) for n in names if eco}
        with self._lock:
            for i, f in enumerate(self.faults):
                if not any(canonical_name(e, f["package"]) == k for e, k in keys):
                    continue
                if f["endpoint"] and f["endpoint"] != endpoint:
                    continue
                if f["times"] and self._fault_counts[i] >= f["times"]:
                    continue
                self._fault_counts[i] += 1
                n = self._fault_counts[i]
                return self._fault_reply(f["kind"], n, f.get("status"))
        return None

    def _fault_reply(self, kind: str, n: int, status: int | None = None) -> Reply:
        if kind == "rate_limit_bare":
            return Reply(429, {"message": "Too Many Requests"})
        if kind == "reset":
            return Reply(drop=True)
        if kind == "truncated":
            return Reply(200, truncate=True)  # the real answer, cut off (see _handle)
        if kind == "html":
            n = 1  # the HTML page of "garbage"
        if kind == "bad_json":
            n = 2  # the cut-off JSON of "garbage"
        if kind == "unauthorized":
            return Reply(401, {"message": "Bad credentials"})
        if kind == "forbidden":
            return Reply(403, {"message": "Resource not accessible by integration"})
        if kind == "rate_limit":
            return Reply(
                429,
                {
                    "message": "API rate limit exceeded",
                    "documentation_url": "https://docs.github.com",
                },
                {
                    "Retry-After": f"{self.retry_after:g}",
                    "X-RateLimit-Remaining": "0",
                    "X-RateLimit-Limit": "60",
                },
            )
        if kind == "server_error":
            status = status or (500, 502, 503)[(n - 1) % 3]
            return Reply(status, "<html><body><h1>Server Error</h1></body></html>")
        if kind == "not_found":
            return _not_found()
        if kind == "timeout":
            return Reply(200, b"", delay=self.timeout_delay)
        if n % 2:
            return Reply(
                200,
                "<!DOCTYPE html><html><head><title>Unicorn!</title></head>"
                "<body>No server is currently available to service your request.</body></html>",
                {"Content-Type": "text/html; charset=utf-8"},
            )
        return Reply(200, '{"message": "partial', {"Content-Type": "application/json"})

    # -- registries ------------------------------------------------------------------------

    def _latest(self, pkg: _Package) -> str | None:
        stable = [v for v in pkg.versions if not parse_version(pkg.ecosystem, v).is_prerelease]  # type: ignore[union-attr]
        pool = stable or pkg.versions
        return pool[-1] if pool else None

    def _pypi(self, pkg: _Package) -> Reply:
        urls = dict(pkg.meta.get("project_urls") or {})
        if not urls:
            source = f"https://github.com/{pkg.repo}"
            if pkg.directory:
                source += f"/tree/{pkg.default_branch}/{pkg.directory}"
            urls = {"Source": source}
        releases = {v: self._pypi_files(pkg, v) for v in pkg.versions}
        latest = self._latest(pkg)
        return Reply(
            200,
            {
                "info": {
                    "name": pkg.name,
                    "version": self._latest(pkg),
                    "summary": pkg.meta.get("summary", ""),
                    "description": pkg.meta.get("description", ""),
                    "description_content_type": pkg.meta.get(
                        "description_content_type", "text/markdown"
                    ),
                    "home_page": pkg.meta.get("home_page", ""),
                    "project_urls": urls,
                },
                "releases": releases,
                "urls": releases.get(latest, []) if latest else [],
            },
        )

    def _npm(self, pkg: _Package) -> Reply:
        latest = self._latest(pkg)
        return Reply(
            200,
            {
                "name": pkg.name,
                "dist-tags": {"latest": latest} if latest else {},
                "versions": {v: self._npm_release(pkg, v) for v in pkg.versions},
                "repository": _npm_repository(pkg),
                "homepage": f"https://github.com/{pkg.repo}#readme",
            },
        )

    def _npm_release(self, pkg: _Package, v: str) -> dict[str, Any]:
        """One version's entry of the metadata, as ``GET /<name>/<version>`` also serves it."""
        return {
            **self._declared_fields(pkg, v),
            "name": pkg.name,
            "version": v,
            "repository": _npm_repository(pkg),
            **({"deprecated": "do not use"} if v in pkg.meta.get("deprecated", []) else {}),
            **self._npm_dist(pkg, v),
        }

    def _declared_fields(self, pkg: _Package, v: str) -> dict[str, Any]:
        """What a release's own package.json adds to its metadata: ``bin``, dependencies."""
        folder = fake_artifacts.dist_folder(pkg.folder, v)
        path = folder / "package.json" if folder else None
        if path is None or not path.is_file():
            return {}
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except ValueError:
            return {}
        keep = ("bin", "dependencies", "peerDependencies", "optionalDependencies")
        return {k: data[k] for k in keep if isinstance(data, dict) and k in data}

    def _npm_version(self, name: str, version: str, pkg: _Package | None) -> Reply:
        doc = self.manifests.get(("npm", name.lower()), {}).get(version)
        if doc is not None:
            return Reply(200, doc)
        if pkg is None or version not in pkg.versions:
            return _not_found()
        return Reply(200, self._npm_release(pkg, version))

    # -- GitHub ----------------------------------------------------------------------------

    def _github(self, pkgs: list[_Package], repo: str, rest: str, req: Request) -> Reply:
        pkg = pkgs[0]
        api = f"{self.url}/github/repos/{repo}"
        if rest in ("", "/"):
            return Reply(200, fake_github.repo_json(repo, api, pkg.default_branch))
        if rest in ("/releases", "/releases/"):
            items = [fake_github.release_json(repo, i, r, api) for i, r in enumerate(pkg.releases)]
            return fake_github.paged(items, req, f"{api}/releases")
        if rest in ("/tags", "/tags/"):
            items = [fake_github.tag_json(t, api) for t in pkg.tags]
            return fake_github.paged(items, req, f"{api}/tags")
        if rest == "/contents" or rest.startswith("/contents/"):
            path = unquote(rest[len("/contents") :]).strip("/")
            ref = req.query.get("ref") or None
            tree = pkg.tree(ref)
            if tree is None:
                return Reply(404, {"message": f"No commit found for the ref {ref}"})
            return fake_github.contents(
                repo, api, tree, path, ref or pkg.default_branch, self.contents_limit
            )
        if rest.startswith("/git/trees/"):
            ref = unquote(rest[len("/git/trees/") :]).strip("/")
            tree = pkg.tree(ref)
            if tree is None:
                return Reply(404, {"message": "Not Found"})
            return fake_github.git_tree(api, tree, ref)
        return _not_found()


_not_found = fake_github.not_found
