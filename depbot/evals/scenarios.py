"""Scenarios: one week of a repository, its upstream, and what a careful triager concludes.

Format: ``scenario.toml`` + ``repo/`` + ``upstream/<ecosystem>/<package>/`` (see the scenarios
README in the shared folder). Loading is strict: a malformed scenario names its file and field.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from depbot.core.errors import InputError
from depbot.fakes.upstream import FAULT_KINDS as FAKE_FAULT_KINDS
from depbot.records.update import Update
from depbot.updates.files import update_from_record

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

VERDICTS = ("affected", "not_affected", "unknown")
FAULT_KINDS = FAKE_FAULT_KINDS  # the kinds the fake upstream can inject


@dataclass(frozen=True)
class Expectation:
    package: str
    verdict: str
    files: tuple[str, ...] = ()
    symbols: tuple[str, ...] = ()


@dataclass
class Scenario:
    name: str
    path: Path
    description: str
    updates: list[Update]
    faults: list[dict[str, Any]] = field(default_factory=list)
    expect: dict[str, Expectation] = field(
        default_factory=dict
    )  # package (lower-cased) -> expectation

    @property
    def repo(self) -> Path:
        return self.path / "repo"

    @property
    def upstream(self) -> Path:
        return self.path / "upstream"

    def versions(self) -> dict[tuple[str, str], list[str]]:
        out: dict[tuple[str, str], list[str]] = {}
        for u in self.updates:
            out.setdefault((u.ecosystem, u.package), []).extend([u.from_version, u.to_version])
        return out


def load_scenario(path: Path) -> Scenario:
    path = Path(path)
    toml = path / "scenario.toml"
    if not toml.is_file():
        raise InputError(f"{path}: no scenario.toml")
    try:
        data = tomllib.loads(toml.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise InputError(f"{toml}: not valid TOML ({exc})") from None
    if not (path / "repo").is_dir():
        raise InputError(f"{path}: no repo/ folder")
    updates: list[Update] = []
    for i, rec in enumerate(data.get("updates") or [], 1):
        updates.extend(
            update_from_record(
                rec, where=f"{toml.name}: update {i}", source="file", source_ref=str(toml)
            )
        )
    if not updates:
        raise InputError(f"{toml}: no [[updates]]")
    faults = []
    for i, f in enumerate(data.get("faults") or [], 1):
        if not isinstance(f, dict) or f.get("kind") not in FAULT_KINDS or not f.get("package"):
            raise InputError(
                f"{toml}: fault {i} needs package and kind (one of {', '.join(FAULT_KINDS)})"
            )
        faults.append(dict(f))
    expect: dict[str, Expectation] = {}
    for i, e in enumerate(data.get("expect") or [], 1):
        if not isinstance(e, dict) or e.get("verdict") not in VERDICTS or not e.get("package"):
            raise InputError(
                f"{toml}: expect {i} needs package and verdict (one of {', '.join(VERDICTS)})"
            )
        expect[str(e["package"]).lower()] = Expectation(
            package=str(e["package"]),
            verdict=str(e["verdict"]),
            files=tuple(str(x) for x in e.get("files") or ()),
            symbols=tuple(str(x) for x in e.get("symbols") or ()),
        )
    return Scenario(path.name, path, str(data.get("description", "")), updates, faults, expect)


def is_corpus(path: Path) -> bool:
    """A real-world corpus: a ``cases/`` folder of ``*.toml`` specs, built into ``built/``."""
    cases = Path(path) / "cases"
    return cases.is_dir() and any(cases.glob("*.toml"))


def find_scenarios(paths: list[Path]) -> list[Path]:
    """Scenario folders among ``paths``: each path is a scenario, a folder of scenarios, or
    a corpus (``cases/*.toml`` specs), whose built scenarios under ``built/`` are used."""
    found: list[Path] = []
    for p in paths:
        p = Path(p)
        if not p.exists():
            raise InputError(f"scenario folder {str(p)!r} does not exist")
        if (p / "scenario.toml").is_file():
            found.append(p)
            continue
        if is_corpus(p):
            built = p / "built"
            subs = (
                sorted(d for d in built.iterdir() if d.is_dir() and (d / "scenario.toml").is_file())
                if built.is_dir()
                else []
            )
            if not subs:
                raise InputError(
                    f"{p}: the corpus is not built; run: python tools/realworld.py build"
                )
            found.extend(subs)
            continue
        subs = sorted(d for d in p.iterdir() if d.is_dir() and (d / "scenario.toml").is_file())
        if not subs:
            raise InputError(
                f"{p}: neither a scenario (no scenario.toml) nor a folder of scenarios"
            )
        found.extend(subs)
    return found
