"""What the released code adds to the notes' conclusion (``api_diff``), and the releases
whose notes are missing. Pure.

``with_api``: a strong use of a break the diff shows makes an update ``affected`` even when
the notes do not mention it; a diff that could not be made leaves missing notes unknown.
``covered``: ``not_affected`` only with the notes of every release that may break, or a
clean diff of the released code.
"""

from __future__ import annotations

import re
from dataclasses import replace

from depbot.core.fence import unfence
from depbot.planner.notes import esm_only_fix
from depbot.planner.records import (
    MAX_HITS_CITED,
    ApiResult,
    Change,
    Changelog,
    Conclusion,
    Finding,
    State,
    UpdateEntry,
)
from depbot.records.accounting import leaf, named_in

# what the reason of a package nothing imports says until ``who_loads`` answers (reach.py)
NOT_LOOKED = "what loads it (a script's command, another package that needs it) was not looked for"


def wants_api(st: State) -> bool:
    """Diff the releases of an update that may break, whose notes announce a removal or
    whose notes are missing (wholly, or for a version of the range)."""
    cl = st.changelog
    if st.update.may_break or cl is None or not cl.found:
        return True
    return bool(cl.missing_versions or cl.breaking or cl.removes_deprecated_code)


def _strong_findings(api: ApiResult) -> list[tuple[Finding, list[str]]]:
    """(finding, the ids of its strong code uses) for every strong finding."""
    out = []
    for f in api.findings:
        ids = [h.id for h in f.hits if h.context == "code" and h.evidence in (None, "strong")]
        if f.strength == "strong" and ids:
            out.append((f, ids))
    return out


def _api_change(f: Finding, to: str) -> Change:
    what = unfence(f.where).rsplit(" · ", 1)[-1]
    return Change(f"{what} (released code of {to})"[:300], f.symbols[:10], f.id)


def with_api(st: State, base: Conclusion) -> Conclusion:
    """The notes' conclusion, with what the released code adds: never affected → not."""
    api, u = st.api, st.update
    if not st.api_asked or base.verdict == "unknown" and st.rejections:
        return base
    compared = api is not None and api.compared
    strong = _strong_findings(api) if api is not None and compared else []
    if base.verdict == "affected":
        extra = tuple(_api_change(f, u.to) for f, _ in strong)
        ids = tuple(i for _, got in strong for i in got if i not in base.hit_ids)
        return replace(base, breaking_changes=(base.breaking_changes + extra)[:20],
                       hit_ids=(base.hit_ids + ids)[:MAX_HITS_CITED])  # fmt: skip
    if strong:
        return _released_break(
            u, strong, notes_read=st.changelog is not None and st.changelog.found,
            items=[unfence(e.item) for e in (st.changelog.breaking if st.changelog else ())],
        )  # fmt: skip
    # notes read, but not for every version of the range, of an update that may break
    # (a result with ``coverage`` is judged by ``covered``: the releases that may break)
    cl = st.changelog or Changelog()
    partial = u.may_break and bool(cl.missing_versions) and cl.coverage is None
    if base.verdict == "not_affected" and partial and not compared:
        missing = ", ".join(cl.missing_versions[:5])
        return Conclusion(u.package, "unknown",
                          f"the notes of {missing} are missing and the released code could not "
                          "be compared; what those versions break is not known")  # fmt: skip
    if base.verdict == "not_affected" and _silent_and_blind(st):
        assert api is not None
        return Conclusion(u.package, "unknown",
                          f"the notes of {u.frm} → {u.to} name no breaking change, and the "
                          f"released code's diff cannot see {api.names_total - api.names_resolved} "
                          f"of the {api.names_total} name(s) this code takes from {u.package}: "
                          "nothing looked at them, so what the update breaks here is not known"
                          [:600])  # fmt: skip
    if api is not None and compared:
        said = "; ".join(dict.fromkeys(_summary(f) for f in api.deprecated[:3]))
        said = f"; said, not a break: {said}" if said else ""
        said += _undeclared(api)
        base = replace(base, reason=f"{base.reason}; the released code's {api.changes_in_diff} "
                                    f"API change(s) touch no strong use here{said}"[:600])  # fmt: skip
    return base


def _undeclared(api: ApiResult) -> str:
    """What the reason says of used names neither release declares (``""`` when none)."""
    # each line is a ``Fate.line()``: ``<name>: undeclared (…) · <place>`` (a name may hold ":")
    lines = unfence(api.undeclared).splitlines()
    names = [ln.split(": undeclared", 1)[0].strip() for ln in lines if ": undeclared" in ln]
    if not names:
        return ""
    return (f"; this code passes {', '.join(f'`{n}`' for n in names[:4])}, which neither "
            "release declares: ignored before and after the update (check the name)")  # fmt: skip


def _summary(f: Finding) -> str:
    """What a finding says, as its place ends (``… · the input x is deprecated``)."""
    return unfence(f.where).rsplit(" · ", 1)[-1][:200]


def _silent_and_blind(st: State) -> bool:
    """An update that may break, whose notes name no breaking item, and whose diff could not
    find some used names in the old release: neither source looked at those names."""
    api, cl = st.api, st.changelog
    if api is None or not api.compared or not st.update.may_break or cl is None:
        return False
    return not cl.breaking and api.names_resolved < api.names_total


def _released_break(
    u: UpdateEntry,
    strong: list[tuple[Finding, list[str]]],
    *,
    notes_read: bool,
    items: list[str] = (),  # type: ignore[assignment]
) -> Conclusion:
    """``affected`` by a break of the released code that no search of the notes' words
    found (the notes could not be read: it says so; a breaking item of the notes names the
    broken name: it says that, never that they are silent)."""
    ids = list(dict.fromkeys(i for _, got in strong for i in got))
    what = "; ".join(_api_change(f, u.to).summary for f, _ in strong[:3])
    if not notes_read:
        notes = "could not be read"
    elif named_in((s for f, _ in strong for s in f.symbols[:1]), items):
        notes = "name it too, in an item no search of the code was made for"
    else:
        notes = "do not mention it"
    return Conclusion(
        u.package,
        "affected",
        f"the released code shows a break this code uses ({what}); the release notes {notes}"[:600],
        tuple(_api_change(f, u.to) for f, _ in strong)[:20],
        tuple(ids[:MAX_HITS_CITED]),
        api_fix([f for f, _ in strong], u.package, u.to),
    )


def _one_fix(f: Finding, package: str, to: str) -> str:
    """What the released code says to do about one finding, when it says it."""
    what = unfence(f.where).rsplit(" · ", 1)[-1]
    s = f.symbols[0] if f.symbols else package
    arg = f.symbols[1] if len(f.symbols) > 1 else ""
    if f.kind == "param_now_required" and arg:
        return f"Pass `{arg}` in every call of `{s}()` listed: {package} {to} requires it."
    if f.kind == "param_kind_changed" and "keyword-only" in what:
        name = what.split(" parameter ", 1)[-1].split(":", 1)[0].strip()
        return f"Pass `{name}=` by keyword in the calls of `{leaf(s)}()` listed."
    if f.kind == "param_renamed" and "renamed parameter " in what and "→" in what:
        pair = what.split("renamed parameter ", 1)[1]
        old, new = (p.strip(" `") for p in pair.split("→", 1))
        return f"Pass `{new}=` instead of `{old}=` to `{leaf(s)}()`."
    if f.kind == "param_removed":
        return f"Stop passing the argument {package} {to} removed from `{leaf(s)}()` ({what})."
    if f.kind == "kind_changed" and re.search(r"→ (attribute|property)", what):
        return f"Read `{leaf(s)}` as an attribute, without calling it: it is no longer a method."
    if f.kind == "kind_changed" and re.search(r"attribute → (function|method)", what):
        return f"Call `{leaf(s)}()`: it is a method now, no longer an attribute."
    if f.kind == "became_esm_only":
        return esm_only_fix(package)
    if f.kind == "default_removed":
        return f"Import a named export of {package} instead of its default export."
    if f.kind == "no_longer_type":
        name = leaf(s)
        return (f"Write the type another way where `{name}` is used as one (`InstanceType<typeof "
                f"{name}>`, or the type {package} {to} exports for it): it is a value only now.")  # fmt: skip
    if f.kind == "not_constructible":
        return f"Call {package}'s module object without `new`: in {to} it is an arrow function."
    if f.kind == "not_callable":
        return (f"Call the named export of {package} that the module object used to be "
                f"(`import {{ … }} from '{package}'`): in {to} the module object is not a function.")  # fmt: skip
    if f.kind == "now_class":
        return f"Make {package}'s module object with `new`: in {to} it is a class."
    if f.kind == "export_removed" and any("augments" in unfence(h.why) for h in f.hits):
        name = what.rsplit(" no longer exports ", 1)[-1].strip("` ")
        return (
            f"Drop `{name}` from the `declare module '{package}'` block and type what it typed "
            f"another way: {package} {to} no longer has `{name}`, so the block changes nothing."
        )
    if f.kind in ("subpath_closed", "subpath_removed"):
        return f"Import from `{package}` itself (or an entry point its `exports` lists): `{s}` is gone."
    if f.kind == "option_values_narrowed" and "allows only" in what:
        return f"Give `{s}` one of the values {package} {to} still allows ({what.split('allows only', 1)[1].replace('the strings', '').strip()})."
    if f.kind == "removed" and "re-export" in what:
        return (
            f"Import `{leaf(s)}` from where it lives now: {package} {to} no longer re-exports it."
        )
    return ""


def api_fix(findings: list[Finding], package: str, to: str) -> str:
    """The suggested fix a break seen in the released code gives: the replacement where the
    diff shows it (a parameter now required or keyword-only, an attribute that was a method,
    a named export for a default), else to adapt the uses; then the tests."""
    parts = list(dict.fromkeys(p for f in findings[:5] if (p := _one_fix(f, package, to))))
    if not parts:
        return f"Adapt the uses listed to the API of {package} {to}, then run the tests against it."
    return " ".join([*parts, f"Then run the tests against {package} {to}."])


# --- the releases whose notes are missing ----------------------------------------------------


def _missing(st: State) -> list[str]:
    """The releases of the range that may break whose notes were not found (``coverage``)."""
    if st.update.promised:
        return []
    cl = st.changelog
    if cl is None or cl.coverage is None:
        return [] if cl is not None and cl.found else [st.update.to]
    return list(cl.coverage.missing)


def clean_diff(api: ApiResult) -> bool:
    """Both releases' code compared whole, and no strong finding."""
    if not api.compared or api.incomplete:
        return False
    return not any(f.strength == "strong" for f in api.findings)


def _tried(st: State) -> str:
    cl = st.changelog or Changelog()
    tried = [unfence(t) for t in cl.sources_tried] + st.fetch_errors[-1:]
    return "; ".join(tried[:4])[:300] or "the registry, the repository's changelog and releases"


def _why_not(st: State) -> str:
    """Why the released code could not be compared, in a line ("" when it was, or unasked)."""
    if st.api is None or st.api.compared or not st.api.why_not:
        return ""
    return unfence(st.api.why_not)[:200]


def covered(st: State, base: Conclusion) -> Conclusion:
    """``not_affected`` only with the notes of every release that may break, or a clean API
    diff (then the reason says the notes were missing); ``unknown`` otherwise."""
    missing = _missing(st)
    if base.verdict == "affected" or st.rejections or not missing:
        return base
    u, names = st.update, ", ".join(missing[:5]) + (" …" if len(missing) > 5 else "")
    if (
        st.api is not None
        and clean_diff(st.api)
        and u.update_type == "major"
        and not st.api.names_total
    ):
        return Conclusion(u.package, "unknown",
                          f"nothing in this checkout imports {u.package} or names it in a config "
                          f"file, and the notes of {names} were not found (tried: {_tried(st)}); "
                          f"{NOT_LOOKED}: check it is still needed, or remove it"[:600])  # fmt: skip
    if st.api is not None and clean_diff(st.api) and u.update_type == "major":
        return Conclusion(u.package, "unknown",
                          f"the notes of {names} were not found (tried: {_tried(st)}); the "
                          f"released code of both versions was compared and its "
                          f"{st.api.changes_in_diff} API change(s) touch no use here, but what a "
                          "major changes in behaviour (a call that now throws, an option now "
                          "required at run time) does not show in its API: what "
                          f"{u.frm} → {u.to} breaks is not known"[:600])  # fmt: skip
    if st.api is not None and clean_diff(st.api):
        head = (
            f"the notes of {names} were not found; the released code of both versions was compared"
        )
        if base.verdict == "not_affected":
            return replace(base, reason=f"{head}; {base.reason}"[:600])
        return Conclusion(u.package, "not_affected",
                          f"{head} and its {st.api.changes_in_diff} API change(s) touch no use "
                          "in this code"[:600])  # fmt: skip
    why = _why_not(st)
    if base.verdict == "unknown":  # already unknown: its reason says why; name the releases
        extra = "" if all(m in base.reason for m in missing[:5]) else f"; no notes for {names}"
        if why and why not in base.reason:
            extra += f"; the released code could not be compared ({why})"
        return replace(base, reason=f"{base.reason[:400]}{extra}"[:600]) if extra else base
    code = "was not compared" if not st.api_asked else "could not be compared"
    code += f" ({why})" if why else ""
    return Conclusion(u.package, "unknown",
                      f"the notes of {names} were not found (tried: {_tried(st)}) and the released "
                      f"code {code}; what {u.frm} → {u.to} breaks is not known"[:600])  # fmt: skip
