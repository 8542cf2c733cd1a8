"""Where the week's update list comes from: a file, open Dependabot PRs, or the manifests.

``collect_updates`` is the one entry point. With no file and no repository name it reads
the checkout's manifests and asks the registries for each package's newest release:

- a pinned version (``==``/``===`` in pip, an exact npm version) or the version the npm
  lock records is the ``from`` version; an update exists when the registry has a newer
  stable release (pre-releases only when ``from`` is one; yanked / deprecated never);
- a pip range without a pin works like Dependabot's library mode: ``from`` is the
  highest published version the range allows, and there is an update only when the
  newest release falls outside the range (``requests>=2.28,<3`` with 3.1.0 out);
- an npm range without a lock entry: ``from`` is the lowest version the range allows
  (``^1.2.3`` → 1.2.3), and there is an update whenever a newer release exists.

A package whose registry lookup fails still appears, once, as an ``Update`` with
``error`` set (a short sentence), ``to_version == from_version`` (the version the
manifest states, or "" when it states none) and ``update_type`` "other". Consumers check
``error`` first: such an entry proposes nothing, it reports that the package could not be
checked. The rest of the list is unaffected.

One ``Http`` serves the whole run; registry lookups run ``settings.registry_concurrency``
at a time on it.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import replace
from pathlib import Path
from typing import Any

from depbot import ecosystems
from depbot.core.errors import DepbotError, InputError
from depbot.core.net import Http
from depbot.core.settings import Settings
from depbot.ecosystems import canonical_name
from depbot.records.declared import Declared
from depbot.records.package import PackageInfo
from depbot.records.update import Update, dedupe
from depbot.records.versions import parse_version
from depbot.updates.dependabot import parse_pull_requests
from depbot.updates.dependabot_config import Policy, filter_updates, load_policy
from depbot.updates.files import load_update_file
from depbot.updates.manifests.scan import find_manifests, read_manifest
from depbot.updates.registries import Registries

Progress = Callable[[str], None]


def collect_updates(
    settings: Settings,
    *,
    repo: Path,
    updates_file: Path | None = None,
    dependabot: str | None = None,
    http: Http | None = None,
    progress: Progress | None = None,
) -> tuple[list[Update], list[str]]:
    """The pending updates and the warnings met while collecting them.

    Raises ``InputError`` for a missing repository path, both sources at once, a bad update
    file or manifest, or a missing token for ``dependabot``; ``UpstreamError`` when GitHub
    cannot list the pull requests. Registry failures never raise: see the module notes.
    """
    repo = Path(repo)
    if not repo.exists():
        raise InputError(f"repository path '{repo}' does not exist")
    if not repo.is_dir():
        raise InputError(f"repository path '{repo}' is not a folder")
    if updates_file is not None and dependabot:
        raise InputError("give either an update file or a Dependabot repository, not both")
    say = progress or (lambda _msg: None)
    if updates_file is not None:
        updates = load_update_file(updates_file, checkout=repo)
        return _place_in_manifests(updates, repo, settings)
    # .github/dependabot.yml / depbot.yml: what Dependabot would propose (dependabot_config.py)
    policy = load_policy(repo)
    own_http = http is None
    http = http or Http(settings)
    try:
        if dependabot:
            found, warnings = _from_dependabot(settings, http, dependabot, repo, say)
            kept, notes = filter_updates(policy, found)
            return kept, warnings + notes
        return _from_manifests(settings, http, repo, say, policy)
    finally:
        if own_http:
            http.close()


# --- open Dependabot pull requests --------------------------------------------------------


def _from_dependabot(
    settings: Settings, http: Http, full_name: str, repo: Path, say: Progress
) -> tuple[list[Update], list[str]]:
    from depbot.github.client import GitHubClient, split_repo  # PyGithub loads only when needed

    owner, name = split_repo(full_name)
    client = GitHubClient(settings, http, require_token=True)  # no token: fails before a request
    say(f"reading the open pull requests of {owner}/{name}")
    prs = client.open_pull_requests(f"{owner}/{name}")
    updates, warnings = parse_pull_requests(prs)
    placed, more = _place_in_manifests(dedupe(updates), repo, settings)
    return placed, warnings + more


def _place_in_manifests(
    updates: list[Update], repo: Path, settings: Settings
) -> tuple[list[Update], list[str]]:
    """Point updates whose manifest is missing at the checkout's file that declares them.

    Dependabot names a directory, not a file: ``/backend`` becomes ``backend/pyproject.toml``
    when that is where the package is declared. Best effort: an unreadable checkout leaves
    the updates as they are, with a warning.
    """
    missing = {id(u) for u in updates if not u.manifest or not (repo / u.manifest).is_file()}
    if not missing:
        return updates, []
    try:
        declared, _ = _read_manifests(repo, settings)
    except InputError as exc:
        return updates, [f"could not match updates to manifests: {exc}"]
    where: dict[tuple[str, str], list[str]] = {}
    for d in declared:
        where.setdefault((d.ecosystem, canonical_name(d.ecosystem, d.name)), []).append(d.manifest)
    out = []
    for u in updates:
        if id(u) in missing:
            folder = str(Path(u.manifest).parent) if u.manifest else "."
            files = where.get((u.ecosystem, canonical_name(u.ecosystem, u.package)), [])
            here = [f for f in files if str(Path(f).parent) == folder]
            if len(here) == 1 or (not here and len(files) == 1):
                u = replace(u, manifest=(here or files)[0])
        out.append(u)
    return out, []


# --- manifests checked against the registries --------------------------------------------


def _read_manifests(
    repo: Path, settings: Settings, *, need_one: bool = False
) -> tuple[list[Declared], list[str]]:
    """Every declared dependency of the checkout, once per (package, manifest); with
    ``need_one``, a checkout that holds no manifest at all is an ``InputError``."""
    chosen: dict[tuple[str, str, str], Declared] = {}
    warnings: list[str] = []
    broken: list[InputError] = []
    read = 0
    memo: dict[Path, Any] = {}  # what the manifests of one workspace share, learned once
    seen = 0
    for path in find_manifests(repo, settings):
        seen += 1
        too_big = _too_big(path, repo, settings.max_manifest_bytes)
        if too_big:
            warnings.append(too_big)
            continue
        try:
            deps, warns = read_manifest(path, repo, memo=memo)
        except InputError as exc:  # one broken manifest (a test fixture's) ends nothing else
            broken.append(exc)
            warnings.append(f"{exc}; skipped, the other manifests are read")
            continue
        read += 1
        warnings += [w for w in warns if w not in warnings]
        for d in deps:
            key = (d.ecosystem, canonical_name(d.ecosystem, d.name), d.manifest)
            # an included file read on its own lacks its includer's -c pins: prefer pinned
            if key not in chosen or (chosen[key].pinned is None and d.pinned is not None):
                chosen[key] = d
    if broken and not read:
        raise broken[0]  # nothing else to go on with: the one broken manifest is bad input
    if need_one and not seen:  # an empty folder, or the wrong one: not "— ok"
        raise InputError(
            f"no manifest or lock file under '{repo}' (requirements*.txt, pyproject.toml, "
            "setup.cfg/setup.py, Pipfile, package.json and their locks, .github/workflows): give the checkout "
            "with -C PATH, or the updates with -u FILE or -d OWNER/REPO"
        )
    return list(chosen.values()), warnings


def _from_manifests(
    settings: Settings, http: Http, repo: Path, say: Progress, policy: Policy | None = None
) -> tuple[list[Update], list[str]]:
    declared, warnings = _read_manifests(repo, settings, need_one=True)
    if not declared:
        warnings.append(
            f"no dependencies found in the manifests and lock files under '{repo}' (requirements*.txt, "
            "pyproject.toml, setup.cfg/setup.py, Pipfile, package.json and their locks, .github/workflows)"
        )
        return [], warnings
    registries = Registries(settings, http)
    packages: dict[tuple[str, str], str] = {}
    for d in declared:
        packages.setdefault((d.ecosystem, canonical_name(d.ecosystem, d.name)), d.name)
    if len(packages) > settings.max_packages:
        kept = dict(list(packages.items())[: settings.max_packages])
        skipped = [name for key, name in packages.items() if key not in kept]
        shown = ", ".join(skipped[:5]) + (
            f" and {len(skipped) - 5} more" if len(skipped) > 5 else ""
        )
        warnings.append(
            f"{len(packages)} distinct packages declared: only the first {settings.max_packages} "
            f"are looked up (DEPBOT_MAX_PACKAGES); skipped: {shown}"
        )
        packages = kept
        declared = [
            d for d in declared if (d.ecosystem, canonical_name(d.ecosystem, d.name)) in kept
        ]
    say(f"checking {len(packages)} packages against the registries")
    results: dict[tuple[str, str], PackageInfo | str] = {}
    with ThreadPoolExecutor(max_workers=max(1, settings.registry_concurrency)) as pool:
        futures = {
            pool.submit(_lookup, registries, key[0], name): key for key, name in packages.items()
        }
        for done, future in enumerate(as_completed(futures), start=1):
            key = futures[future]
            results[key] = future.result()
            status = "failed" if isinstance(results[key], str) else "ok"
            say(f"[{done}/{len(packages)}] {key[0]} {packages[key]}: {status}")
    updates = []
    for d in declared:
        found = results[(d.ecosystem, canonical_name(d.ecosystem, d.name))]
        update, note = _plan(d, found, registries)
        if note:
            warnings.append(note)
        if update is not None:
            updates.append(update)
    known = {k: v.versions for k, v in results.items() if isinstance(v, PackageInfo)}
    kept, notes = filter_updates(policy, dedupe(updates), known)
    return kept, warnings + notes


def _too_big(path: Path, repo: Path, limit: int) -> str:
    """A warning when the manifest at ``path`` is over ``limit`` bytes ("" when it is not)."""
    try:
        size = path.stat().st_size
    except OSError:
        return ""  # reading it says what is wrong
    if size <= limit:
        return ""
    try:
        label = path.relative_to(repo).as_posix()
    except ValueError:
        label = path.name
    return (
        f"{label}: not read: {size / 1e6:.1f} MB, over the {limit / 1e6:.1f} MB limit of a "
        "manifest (DEPBOT_MAX_MANIFEST_BYTES)"
    )


def _lookup(registries: Registries, ecosystem: str, name: str) -> PackageInfo | str:
    """The registry entry, or a short sentence saying why there is none."""
    try:
        return registries.info(ecosystem, name)
    except DepbotError as exc:
        return str(exc)
    except Exception:  # noqa: BLE001 - an answer of an unexpected shape must not end the run
        label = ecosystems.get(ecosystem).registry_label
        return f"{label} entry for {name}: the answer could not be read"


def _current(d: Declared, info: PackageInfo | None) -> tuple[str | None, str | None]:
    """(the version in use, a warning) for a declaration, given its registry entry if any."""
    released = info.versions if info is not None else None
    eco = ecosystems.get(d.ecosystem)
    current, why = eco.version_in_use(d.name, d.spec, d.pinned, d.installed, released)
    return (current, None) if why is None else (None, f"{d.manifest}: {why}")


def _plan(
    d: Declared, found: PackageInfo | str, registries: Registries
) -> tuple[Update | None, str | None]:
    """The update one declaration calls for, if any, and a warning when it was skipped."""
    common: dict[str, Any] = dict(
        ecosystem=d.ecosystem,
        package=d.name,
        manifest=d.manifest,
        dependency_kind=d.dependency_kind,
        source="registry",
        source_ref=registries.metadata_url(d.ecosystem, d.name),
        extra={k: v for k, v in (("spec", d.spec), ("line", str(d.line or ""))) if v},
    )
    if isinstance(found, str):
        current, _ = _current(d, None)
        version = current or ""
        return Update(
            from_version=version, to_version=version, update_type="other", error=found, **common
        ), None
    current, note = _current(d, found)
    if current is None:
        return None, note
    if parse_version(d.ecosystem, current) is None:
        return (
            None,
            f"{d.manifest}: '{current}' of {d.name} is not a {d.ecosystem} version; skipped",
        )
    newest = registries.newest(d.ecosystem, d.name, current)
    if newest is None or not parse_version(d.ecosystem, newest) > parse_version(
        d.ecosystem, current
    ):  # type: ignore[operator]
        return None, None
    if ecosystems.get(d.ecosystem).range_allows(d.spec, d.pinned, newest):
        return None, None  # the range already allows the newest release
    return Update(from_version=current, to_version=newest, **common), None
