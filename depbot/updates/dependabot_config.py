"""Which updates to triage: the rules of ``.github/dependabot.yml`` (or depbot.yml's ``updates:``).

depbot triages what Dependabot would propose. Of each ``updates[]`` entry it reads
``package-ecosystem`` (pip, npm; ``uv`` counts as pip; others are ignored with one note),
``directory`` / ``directories`` (``*`` within a folder name, ``**`` across folders; ``/`` is
the root), ``ignore`` and ``allow``; other options (schedule, groups, labels ...) are
Dependabot's business and are not read. The semantics follow Dependabot's options
reference:

- an update is considered when an entry of its ecosystem names its manifest's folder (or
  the folder Dependabot reads it from: an npm workspace member's root, the parent of a
  pip ``requirements/`` folder);
- ``allow``: with entries, an update must match one of them (every key an entry gives:
  ``dependency-name`` with ``*`` wildcards, ``dependency-type`` direct / indirect / all /
  production / development); without, direct dependencies (production and development)
  are allowed, as Dependabot keeps the explicitly declared ones up to date;
- ``ignore`` wins over ``allow``: an entry with only ``dependency-name`` ignores every
  update of the dependency; with ``versions`` (ranges in the ecosystem's syntax: PEP 440
  specifiers for pip, npm ranges for npm) or ``update-types``
  (``version-update:semver-major`` / ``-minor`` / ``-patch``) it ignores those target
  versions, and the update moves to the newest release no rule ignores (as Dependabot
  would then propose), or is dropped when there is none.

``.github/depbot.yml`` with an ``updates:`` key replaces dependabot.yml's entries (an empty
list: no rules at all). Its entries are checked strictly (unknown keys, types, values:
``ConfigError``); in dependabot.yml only the keys above are checked, and a problem there
leaves dependabot.yml unapplied with a warning, never ends the run. Parsing and checking
the entries: ``updates.dependabot_rules``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath

from depbot import ecosystems
from depbot.core.config_file import (
    check_keys,
    find_file,
    join,
    load_depbot_file,
    problem,
    read_yaml,
    type_name,
)
from depbot.core.errors import ConfigError
from depbot.ecosystems import canonical_name
from depbot.ecosystems.base import Ecosystem
from depbot.records.update import Update
from depbot.records.versions import parse_version, update_type
from depbot.updates.dependabot_rules import (
    DEPENDENCY_TYPES,
    Allow,
    Entry,
    Ignore,
    dependabot_names,
    in_versions,
    parse_entry,
)

DEPENDABOT_FILES = (".github/dependabot.yml", ".github/dependabot.yaml")
IGNORED = "by ignore rules"
NOT_ALLOWED = "not matched by the allow rules"
OUTSIDE = "outside the configured directories"
NO_ECOSYSTEM = "of an ecosystem it does not configure"
REASONS = (IGNORED, NOT_ALLOWED, OUTSIDE, NO_ECOSYSTEM)


@dataclass
class Policy:
    """The entries of one file, and what applying them skipped."""

    label: str  # ".github/dependabot.yml"
    entries: list[Entry] = field(default_factory=list)
    repo: Path | None = None  # the checkout: npm workspace roots are read from it
    notes: list[str] = field(default_factory=list)
    skipped: Counter[str] = field(default_factory=Counter)
    moved: int = 0  # updates moved below a version the ignore rules exclude
    unconfigured: Counter[str] = field(default_factory=Counter)  # ecosystem -> updates left out
    # (ecosystem, workspace root) → its member globs
    _globs: dict[tuple[str, str], list[str]] = field(default_factory=dict, repr=False)

    @property
    def name(self) -> str:
        return PurePosixPath(self.label).name

    def summary(self) -> str | None:
        """``dependabot.yml: 3 updates ignored (2 by ignore rules, 1 outside ...)``, or None."""
        total = sum(self.skipped.values())
        parts = []
        if total:
            why = ", ".join(f"{self.skipped[r]} {r}" for r in REASONS if self.skipped[r])
            parts.append(f"{total} update{'s' if total != 1 else ''} ignored ({why})")
        if self.moved:
            parts.append(f"{self.moved} moved to the newest version the ignore rules allow")
        if self.unconfigured:
            ecos = ", ".join(f"`{e}`" for e in sorted(self.unconfigured))
            hint = (
                " (an `updates:` list in .github/depbot.yml replaces its rules)"
                if self.name.startswith("dependabot")
                else ""
            )
            parts.append(f"it has no {ecos} entry{hint}")
        return f"{self.name}: {'; '.join(parts)}" if parts else None

    def decide(self, update: Update, versions: tuple[str, ...] | None = None) -> Update | None:
        """``update`` (maybe moved to another version), or None when the rules skip it.

        ``versions``: the package's published versions, to move an update whose target an
        ignore rule excludes; without them such an update is skipped.
        """
        eco = update.ecosystem
        entries = [e for e in self.entries if e.ecosystem == eco]
        if not entries:
            self.unconfigured[eco] += 1
            return self._skip(NO_ECOSYSTEM)
        folder = PurePosixPath(update.manifest).parent.as_posix() if update.manifest else ""
        folder = "" if folder == "." else folder
        entry = self._entry_for(entries, folder)
        if entry is None:
            return self._skip(OUTSIDE)
        name = canonical_name(eco, update.package)
        if not _allowed(entry.allow, name, update.dependency_kind):
            return self._skip(NOT_ALLOWED)
        rules = [r for r in entry.ignore if r.name.fullmatch(name)]
        if any(r.whole for r in rules):
            return self._skip(IGNORED)
        if not rules or update.error or not _excluded(rules, update, update.to_version):
            return update
        target = _newest_allowed(rules, update, versions or ())
        if target is None:
            return self._skip(IGNORED)
        self.moved += 1
        return replace(update, to_version=target, update_type="")

    def apply(
        self, updates: list[Update], versions: dict[tuple[str, str], tuple[str, ...]] | None = None
    ) -> list[Update]:
        """The updates the rules keep; ``versions`` by (ecosystem, canonical name)."""
        kept = []
        for u in updates:
            known = (versions or {}).get((u.ecosystem, canonical_name(u.ecosystem, u.package)))
            decided = self.decide(u, known)
            if decided is not None:
                kept.append(decided)
        return kept

    def _entry_for(self, entries: list[Entry], folder: str) -> Entry | None:
        """The first entry naming ``folder``, or one naming the folder Dependabot reads it
        from: a pip ``requirements/`` folder's parent, an npm workspace's root."""
        for here in (folder, *_ancestors(folder)):
            for e in entries:
                if not any(d.fullmatch(here) for d in e.directories):
                    continue
                eco = ecosystems.get(e.ecosystem)
                if here == folder or self._member(eco, here, folder):
                    return e
                sub = eco.requirements_folder
                if sub and folder == f"{here}/{sub}".lstrip("/"):
                    return e
        return None

    def _member(self, eco: Ecosystem, root: str, folder: str) -> bool:
        """Whether ``folder`` is a member of a workspace rooted at ``root`` (npm, pnpm)."""
        if self.repo is None:
            return False
        key = (eco.name, root)
        if key not in self._globs:
            self._globs[key] = eco.workspace_globs(self.repo, root)
        rel = folder[len(root) + 1 :] if root else folder
        return bool(self._globs[key]) and eco.in_workspace(rel, self._globs[key])

    def _skip(self, reason: str) -> None:
        self.skipped[reason] += 1
        return None


def _ancestors(folder: str) -> list[str]:
    """``a/b/c`` → ``a/b``, ``a``, ``""`` (the root); ``""`` has none."""
    parts = folder.split("/") if folder else []
    return ["/".join(parts[:i]) for i in range(len(parts) - 1, -1, -1)]


def _allowed(rules: tuple[Allow, ...], name: str, kind: str) -> bool:
    if not rules:
        return kind in DEPENDENCY_TYPES["direct"]
    return any(
        (r.name is None or r.name.fullmatch(name)) and (r.kinds is None or kind in r.kinds)
        for r in rules
    )


def _excluded(rules: list[Ignore], update: Update, target: str) -> bool:
    kind = update_type(update.ecosystem, update.from_version, target)
    return any(
        kind in r.update_types or in_versions(update.ecosystem, target, r.versions) for r in rules
    )


def _newest_allowed(rules: list[Ignore], update: Update, versions: tuple[str, ...]) -> str | None:
    """The newest release above ``from`` that no rule excludes (stable unless ``from`` is not)."""
    eco = update.ecosystem
    current = parse_version(eco, update.from_version)
    if current is None:
        return None
    best = None
    for text in versions:
        v = parse_version(eco, text)
        if v is None or not v > current or (v.is_prerelease and not current.is_prerelease):
            continue
        if (best is None or v > best[0]) and not _excluded(rules, update, text):
            best = (v, text)
    # ``from`` of a pip range is the highest release it allows: anything newer is outside it
    return best[1] if best else None


def load_policy(repo: Path) -> Policy | None:
    """The rules that decide which updates of ``repo`` to triage; None when no file sets any.

    depbot.yml's ``updates:`` when it has the key (its problems raise ``ConfigError``), else
    dependabot.yml's (its problems become a note and the file is not applied).
    """
    repo = Path(repo)
    own = load_depbot_file(repo)
    if own is not None and own.updates is not None:
        if not own.updates:
            return None
        policy = Policy(own.label, repo=repo)
        for i, raw in enumerate(own.updates):
            entry = parse_entry(own.label, join("updates", i), raw, strict=True)
            assert isinstance(entry, Entry)  # strict: other ecosystems raise
            policy.entries.append(entry)
        return policy
    path = find_file(repo, DEPENDABOT_FILES)
    if path is None:
        return None
    label = path.relative_to(repo).as_posix()
    try:
        policy = _dependabot_policy(label, read_yaml(path, label))
        policy.repo = repo
        return policy
    except ConfigError as exc:
        return Policy(label, notes=[f"{exc}; {PurePosixPath(label).name} is not applied"])


def _dependabot_policy(label: str, data: object) -> Policy:
    top = check_keys(label, "", data, (), strict=False)
    raw = top.get("updates")
    if not isinstance(raw, list):
        raise problem(label, "updates", f"must be a list of entries, got {type_name(raw)}")
    policy = Policy(label)
    others: list[str] = []
    for i, item in enumerate(raw):
        entry = parse_entry(label, join("updates", i), item, strict=False)
        if isinstance(entry, str):
            others.append(entry)
        else:
            policy.entries.append(entry)
    if others:
        shown = ", ".join(sorted(set(others)))
        triaged = dependabot_names(" and ")
        policy.notes.append(f"{policy.name}: {shown} not read (depbot triages {triaged} updates)")
    return policy


def filter_updates(
    policy: Policy | None,
    updates: list[Update],
    versions: dict[tuple[str, str], tuple[str, ...]] | None = None,
) -> tuple[list[Update], list[str]]:
    """``updates`` as the policy keeps them, and its notes and one summary line."""
    if policy is None:
        return updates, []
    if not policy.entries and policy.notes and policy.notes[0].endswith("is not applied"):
        return updates, list(policy.notes)
    kept = policy.apply(updates, versions)
    summary = policy.summary()
    return kept, policy.notes + ([summary] if summary else [])
