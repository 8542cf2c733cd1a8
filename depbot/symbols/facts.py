"""Value types and small pure rules of symbol search: queries, hits, results, what a name is
bound to."""

from __future__ import annotations

from dataclasses import dataclass, field

CONFIG_GLOBS = (
    "*.json", "*.yml", "*.yaml", "*.toml", "*.ini", "*.cfg", "*.conf", ".*rc", "*.env.example",
    ".flaskenv", "Dockerfile", "*.properties", "*.sh", "Makefile", "Procfile",
)  # fmt: skip
SCAN_LIMIT = 2000  # lines read per search
GENERIC = frozenset(
    "append pop push get set add remove delete clear copy update keys values items index count sort "
    "insert extend find join split replace format strip map filter send json text data body status "
    "type name value id key run start stop close open read write load dump call apply emit on off "
    "param params query render redirect end size length next then catch log info warn error debug "
    "env top mode default".split()
)


@dataclass(frozen=True)
class SymbolQuery:
    """One ``search_symbol`` call: the uses of ``symbol`` of ``package`` that a break of ``kind``
    affects (the tool's ``kind`` enum: ``name``, ``parameter``, ``positional`` …). ``of`` (the
    function a parameter belongs to, the config file of a key), ``arg`` (the argument a call
    must pass, the literal it may not; ``call`` for a name the notes call a function: never an
    option key) and ``max_positional`` qualify some kinds. ``exact``:
    ``of`` is the owner itself (an API diff's), not the one a changelog happened to name."""

    ecosystem: str
    package: str
    symbol: str
    kind: str = "name"
    of: str = ""
    arg: str = ""
    max_positional: int = 1
    exact: bool = False


@dataclass(frozen=True)
class SymbolHit:
    path: str
    line: int
    col: int
    text: str
    context: str
    evidence: str  # strong | weak
    why: str


@dataclass
class SymbolResult:
    symbol: str
    kind: str
    hits: list[SymbolHit]
    total: int
    truncated: bool
    excluded: dict[str, int] = field(default_factory=dict)
    note: str = ""


def initials(name: str) -> str:
    return "".join(c for c in name if c.isupper()).lower()


def names_match(receiver: str, cls: str) -> bool:
    """Does a variable name suggest an instance of ``cls``? ``engine``/Engine, ``df``/DataFrame."""
    r, c = receiver.lower().strip("_"), cls.lower()
    if not r:
        return False
    return (
        r == c
        or r == initials(cls)
        or (len(r) >= 3 and (c.startswith(r) or r.endswith(c) or c in r))
    )


def distinctive(leaf: str) -> bool:
    return leaf.lower() not in GENERIC and (
        "_" in leaf.strip("_") or any(c.isupper() for c in leaf[1:]) or len(leaf) >= 10
    )


def merge(bindings: list[Binding]) -> Binding:
    """A name assigned several times: package-made if any assignment is, a plain value or
    another package's if all are."""
    made = [b for b in bindings if b.kind == "local-package"]
    if made:
        return made[0]
    taken = {b.path for b in bindings if b.kind == "package"}
    if len(taken) == 1 and all(b.kind == "package" for b in bindings):
        return next(b for b in bindings if b.kind == "package")  # `const { fn } = lib` alone
    if bindings and all(b.kind == "builtin" for b in bindings):
        return Binding("builtin")
    if bindings and all(b.kind == "foreign" for b in bindings):
        return Binding("foreign")  # `const app = express()`: another package's, every time
    return Binding("unknown")


@dataclass
class Binding:
    """What a file binds a name to: the package (with a dotted path), another module, or nothing known."""

    kind: str  # package | foreign | local-package | builtin | param | unknown
    path: str = ""  # dotted path inside the package ("yaml.load", "flask.Flask"), when kind=package
