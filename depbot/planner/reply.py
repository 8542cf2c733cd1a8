"""The rules planner: a deterministic triage of updates that works offline.

It sees only what a chat model would see (the messages and the tool results) and acts
only through the same tool calls, so it exercises the same boundaries. Each time it is
asked, it re-reads the conversation and decides, per open update:

1. no notes yet → ``fetch_changelog`` (all updates in one reply);
2. notes unreadable → retry a transient failure once, then ``not_affected`` only for a
   patch of a 1.x+ version (the semver promise); the others are decided by the released
   code (``api_diff``), ``unknown`` when it cannot be compared either; the same holds for
   notes missing for a release of the range that may break (the result's ``coverage``);
3. breaking items with candidate symbols → ``where_imported`` and one ``search_symbol``
   per candidate (all in one reply);
4. searches done → ``affected`` when a search returned strong evidence in code,
   ``not_affected`` otherwise, with a reason that says what was checked.

It is the ``rules`` model (``models.rules``), the default when no model is configured and
the baseline every model must beat.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from depbot.changelogs.items import REWRITE
from depbot.changelogs.wording import behaviour_change
from depbot.core.fence import unfence
from depbot.core.limits import MAX_CALLS_PER_REPLY
from depbot.planner.notes import (
    candidates,
    deprecated,
    describe,
    expand_wildcards,
    fix,
    search_args,
    spread,
    symbols,
    verify_note,
    verify_only,
)
from depbot.planner.searches import unasked_note, wildcard_asks, within_budget
from depbot.records.names import normalize
from depbot.records.versions import semver_promise
from depbot.symbols.match import SHAPE_KINDS

MAX_SEARCHES_PER_UPDATE = 30
MAX_HITS_CITED = 20

# "[BREAKING CHANGE]", "BREAKING:", "(breaking)", "breaking change": a break said outright
_ANNOUNCED_BREAK = re.compile(
    r"\bBREAKING\b|\(breaking(?: change)?\)|\bbreaking changes?\b|\bbackwards?[- ]incompatible\b|"
    + REWRITE,
    re.I,
)


@dataclass
class _Search:
    args: dict[str, Any]
    result: dict[str, Any] | None = None


@dataclass
class _State:
    update: dict[str, Any]
    fetches: list[dict[str, Any] | None] = field(default_factory=list)  # results (None = pending)
    fetch_errors: list[str] = field(default_factory=list)
    changelog: dict[str, Any] | None = None
    imported: dict[str, Any] | None = None
    imported_asked: bool = False
    imported_pending: bool = False
    code: dict[str, dict[str, Any] | None] = field(default_factory=dict)  # search_code by pattern
    searches: list[_Search] = field(default_factory=list)
    api_asked: bool = False
    api: dict[str, Any] | None = None  # the api_diff result (None: not asked, or pending)
    concluded: bool = False
    rejections: list[str] = field(default_factory=list)


def _updates_from(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    for m in messages:
        if m.get("role") != "user":
            continue
        match = re.search(r"```json\s*(\[.*?\])\s*```", str(m.get("content") or ""), re.S)
        if match:
            try:
                data = json.loads(match.group(1))
            except json.JSONDecodeError:
                continue
            if isinstance(data, list):
                return [d for d in data if isinstance(d, dict) and d.get("package")]
    return []


def _parse(content: Any) -> dict[str, Any]:
    try:
        data = json.loads(content or "{}")
    except (TypeError, json.JSONDecodeError):
        return {"error": "unreadable result"}
    return data if isinstance(data, dict) else {"error": "unexpected result"}


def _key(name: str) -> str:
    return normalize(str(name))


def read_state(messages: list[dict[str, Any]]) -> tuple[list[_State], int]:
    """Rebuild per-update state from the conversation; also returns how many calls were made."""
    states = {_key(u["package"]): _State(u) for u in _updates_from(messages)}
    results = {
        m.get("tool_call_id"): _parse(m.get("content")) for m in messages if m.get("role") == "tool"
    }
    n_calls = 0
    code: dict[str, dict[str, Any] | None] = {}  # search_code results by pattern, shared
    for st in states.values():
        st.code = code
    for m in messages:
        if m.get("role") != "assistant":
            continue
        for call in m.get("tool_calls") or []:
            n_calls += 1
            fn = call.get("function") or {}
            args = _parse(fn.get("arguments"))
            if fn.get("name") == "search_code":
                got = results.get(call.get("id"))
                code[str(args.get("pattern", ""))] = (
                    got if got is None or "error" not in got else {}
                )
                continue
            st = states.get(_key(args.get("package", "")))
            if st is None:
                continue
            res = results.get(call.get("id"))
            name = fn.get("name")
            if name == "fetch_changelog":
                if res is None:
                    st.fetches.append(None)
                elif "error" in res:
                    st.fetches.append(res)
                    st.fetch_errors.append(str(res["error"]))
                else:
                    st.fetches.append(res)
                    st.changelog = res
            elif name == "where_imported":
                st.imported_asked = True
                st.imported_pending = res is None
                if res and "error" not in res:
                    st.imported = res
            elif name == "search_symbol":
                st.searches.append(_Search(args, res))
            elif name == "api_diff":
                st.api_asked, st.api = True, res
            elif name == "conclude":
                if res and res.get("accepted"):
                    st.concluded = True
                elif res and "error" in res:
                    st.rejections.append(str(res["error"]))
                elif res is None:
                    st.concluded = True  # pending: do not conclude twice
    return list(states.values()), n_calls


# --- decisions -------------------------------------------------------------------------------


def _a_use(hit: dict[str, Any], args: dict[str, Any]) -> bool:
    """A strong hit in code; for a configuration key, also in a string: settings are set
    by name (``conf['KEY'] = ...``), so the string is the use."""
    if hit.get("evidence") != "strong":
        return False
    context = hit.get("context", "code")
    return context == "code" or (context == "string" and args.get("kind") == "config_key")


_SHIM_WORDS = re.compile(r"compatibility|version check|feature check", re.I)


def _conclusion(st: _State) -> dict[str, Any]:
    u = st.update
    package, frm, to = u["package"], u.get("from", "?"), u.get("to", "?")
    may_break = bool(u.get("may_break"))
    kind = u.get("update_type", "")
    if st.rejections:
        return {"package": package, "verdict": "unknown",
                "reason": f"depbot could not back a verdict: {st.rejections[-1][:300]}"}  # fmt: skip
    cl = st.changelog
    if cl is None:
        err = st.fetch_errors[-1] if st.fetch_errors else "no result"
        if not _promised(u):
            why = "may break" if may_break else "is not covered by the semver promise"
            return {"package": package, "verdict": "unknown",
                    "reason": f"{kind} update {frm} → {to} {why} and its changelog could not be read: {err[:300]}"}  # fmt: skip
        return {"package": package, "verdict": "not_affected",
                "reason": f"{kind} update of a stable version; its notes could not be read ({err[:200]}), "
                          "and semver promises compatibility"}  # fmt: skip
    if not cl.get("found"):
        note = str(cl.get("note") or "no release notes in range")[:300]
        if not _promised(u):
            why = "may break" if may_break else "is not covered by the semver promise"
            return {"package": package, "verdict": "unknown",
                    "reason": f"{kind} update {frm} → {to} {why}, but no release notes were found for it: {note}"}  # fmt: skip
        return {"package": package, "verdict": "not_affected",
                "reason": f"{kind} update of a stable version with no release notes found ({note}); "
                          "semver promises compatibility"}  # fmt: skip
    cands = _found_candidates(st)
    hits: list[str] = []
    hit_cands: list[tuple[dict[str, Any], dict[str, Any]]] = []
    excluded = 0
    shims: dict[str, int] = {}  # compatibility shims set aside, by reason
    paths: dict[str, str] = {}
    main_args = [search_args(package, c) for c, _ in cands]
    kept = [(c, e) for c, e in deprecated(cl) if search_args(package, c) not in main_args]
    also: list[tuple[dict[str, Any], dict[str, Any], list[str]]] = []
    verify: list[tuple[dict[str, Any], dict[str, Any], int]] = []
    shaped: list[dict[str, Any]] = []  # weak hits that have the broken call shape
    for search in st.searches:
        res = search.result or {}
        strong = [h for h in res.get("hits") or [] if _a_use(h, search.args)]
        for h in strong:
            paths[h["id"]] = str(h.get("path", ""))
        if search.args not in main_args:  # a deprecated name: never a reason to be affected
            dep = next((ce for ce in kept if search_args(package, ce[0]) == search.args), None)
            if dep is not None and strong:
                also.append((*dep, [h["id"] for h in strong]))
            continue
        # weak hits of a call-shape search: the broken call on an object of unknown type
        weak_shaped = [
            h for h in res.get("hits") or []
            if h.get("evidence") == "weak" and h.get("context", "code") == "code"
        ] if search.args.get("kind") in SHAPE_KINDS else []  # fmt: skip
        shaped.extend(weak_shaped)
        excluded += (
            len(res.get("hits") or []) - len(strong) + sum((res.get("excluded") or {}).values())
        )
        for why, n in (res.get("excluded") or {}).items():
            if _SHIM_WORDS.search(str(why)):
                shims[str(why)] = shims.get(str(why), 0) + int(n or 0)
        if strong:
            pairs = [(c, e) for c, e in cands if search_args(package, c) == search.args]
            if pairs and all(verify_only(c, e) for c, e in pairs):
                verify.append((*pairs[0], len(strong)))  # a weak "verify", never affected alone
                continue
            for h in strong:
                if h["id"] not in hits:
                    hits.append(h["id"])
            for h in weak_shaped:  # cited too, for the reviewer to check
                if h["id"] not in hits:
                    paths[h["id"]] = str(h.get("path", ""))
                    hits.append(h["id"])
            for cand, entry in cands:
                if search_args(package, cand) == search.args:
                    hit_cands.append((cand, entry))
                    break
    n_breaking = len(cl.get("breaking") or [])
    if hits:
        changes = []
        for cand, entry in hit_cands:
            refs = [entry["ref"]]
            if entry.get("from_deprecation"):
                removal = next(
                    (
                        b["ref"]
                        for b in cl.get("breaking") or []
                        if re.search(r"deprecat", unfence(b.get("item", "")), re.I)
                    ),
                    None,
                )
                refs = [removal, entry["ref"]] if removal else refs
            for ref in refs:
                if not entry.get("from_deprecation"):
                    summary = describe(cand, package, entry.get("version", to), entry)
                elif ref == entry["ref"]:
                    summary = f"`{cand['symbol']}` was deprecated in {entry.get('version')}"
                else:
                    summary = f"{package} {to} removes previously deprecated code, `{cand['symbol']}` among it"
                changes.append({
                    "summary": summary,
                    "symbols": symbols(cand, package),
                    "source_ref": ref,
                })  # fmt: skip
        what = "; ".join(
            dict.fromkeys(
                f"`{c['symbol']}` (deprecated in {e.get('version')}) was removed"
                if e.get("from_deprecation")
                else describe(c, package, e.get("version", to), e)
                for c, e in hit_cands[:3]
            )
        )
        n_main = len(hits)
        for cand, entry, ids in also:
            changes.append({
                "summary": f"Also deprecated (still works in {to}): `{cand['symbol']}`, "
                           f"deprecated in {entry.get('version', to)}",
                "symbols": symbols(cand, package),
                "source_ref": entry["ref"],
            })  # fmt: skip
            hits.extend(i for i in ids if i not in hits)
        more = f" (and {len(hit_cands) - 3} more)" if len(hit_cands) > 3 else ""
        return {
            "package": package,
            "verdict": "affected",
            "reason": f"{what}{more}; this code relies on it in {n_main} place{'s' if n_main != 1 else ''}.",
            "breaking_changes": changes[:20],
            "hit_ids": spread(hits, paths, MAX_HITS_CITED),
            "suggested_fix": fix(hit_cands, package, to),
        }
    announced = _unnamed_breaks(cl)
    if not cands:
        if announced:
            # an update that may break, whose notes announce a break (or a change of behaviour)
            # without naming what it breaks: that is not a fact that this code is safe
            first = announced[0][:200]
            return {"package": package, "verdict": "unknown",
                    "reason": f"the notes {frm} → {to} list {n_breaking} breaking item(s) that name "
                              f"no API to search for (\u201c{first}\u201d): whether this code is "
                              "affected is not known from them; read them against your calls"}  # fmt: skip
        if n_breaking:
            reason = (f"the notes {frm} → {to} list {n_breaking} breaking item(s), none naming an API "
                      "this code could call (runtime support or build changes); nothing to search")  # fmt: skip
        else:
            reason = f"no breaking changes in the release notes between {frm} and {to}"
        return {"package": package, "verdict": "not_affected", "reason": reason}
    failed = [
        s
        for s in st.searches
        if s.result is not None and "error" in s.result and s.args in main_args
    ]
    if failed:  # a search that did not answer is not a search that found nothing
        what = ", ".join(f"`{s.args.get('symbol', '?')}`" for s in failed[:4])
        err = unfence(str(failed[0].result.get("error")))[:160]  # type: ignore[union-attr]
        return {"package": package, "verdict": "unknown",
                "reason": f"the search for {what} failed ({err}): whether this code uses what "
                          f"{frm} → {to} breaks is not known"}  # fmt: skip
    if shaped:  # calls made the way the notes say breaks, on objects of unknown type
        where = ", ".join(f"{h.get('path')}:{h.get('line')}" for h in shaped[:4])
        why = unfence(str(shaped[0].get("why", "")))[:200]
        return {"package": package, "verdict": "unknown",
                "reason": f"{len(shaped)} call(s) in this code have the shape {frm} → {to} breaks, "
                          f"on objects whose type the code does not say ({where}: {why}): whether "
                          f"they are {package}'s is not known; check them"}  # fmt: skip
    asked = {str(s.args.get("symbol")) for s in st.searches}
    named = list(dict.fromkeys(str(c["symbol"]) for c, _ in cands if str(c["symbol"]) in asked))
    unasked = len({str(c["symbol"]) for c, _ in cands} - asked)
    searched = ", ".join(f"`{n}`" for n in named[:8]) + (" …" if len(named) > 8 else "")
    extra = (
        f"; {excluded} match(es) only in comments, strings or unrelated code were set aside"
        + "".join(f" ({n} {unfence(why)[:120]})" for why, n in list(shims.items())[:3])
        if excluded
        else ""
    )
    return {
        "package": package,
        "verdict": "not_affected",
        "reason": f"searched for what {frm} → {to} breaks ({searched}): no use in this code{extra}"
        + (unasked_note(unasked, st.code) if unasked else "")
        + "".join(verify_note(c, e, n) for c, e, n in verify[:3]),
    }


def _unnamed_breaks(cl: dict[str, Any]) -> list[str]:
    """The breaking items of an update that may break (coverage needed) that announce a break
    or a change of behaviour without naming an API to search for: no search can clear them."""
    if not (cl.get("coverage") or {}).get("needed"):
        return []
    texts = [
        " ".join(unfence(str(e.get("item", ""))).split())
        for e in cl.get("breaking") or []
        if not e.get("candidates")
    ]
    return [t for t in texts if _ANNOUNCED_BREAK.search(t) or behaviour_change(t)]


def _found_candidates(st: _State) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """The candidates of the notes, each wildcard (`safe*`) replaced by the names of its
    family this checkout uses (import sites and a text search for the prefix)."""
    asked = tuple(str(s.args.get("symbol", "")) for s in st.searches)
    return expand_wildcards(candidates(st.changelog or {}), {**st.code, "": st.imported}, asked)


# --- the released code: api_diff --------------------------------------------------------------


def _wants_api(st: _State) -> bool:
    """Diff the releases of an update that may break, whose notes announce a removal or
    whose notes are missing (wholly, or for a version of the range)."""
    cl = st.changelog
    if st.update.get("may_break") or cl is None or not cl.get("found"):
        return True
    return bool(
        cl.get("missing_versions") or cl.get("breaking") or cl.get("removes_deprecated_code")
    )


def _strong_findings(api: dict[str, Any]) -> list[tuple[dict[str, Any], list[str]]]:
    """(finding, the ids of its strong code uses) for every strong finding."""
    out = []
    for f in api.get("findings") or []:
        ids = [
            h["id"]
            for h in f.get("hits") or []
            if h.get("context", "code") == "code" and h.get("evidence", "strong") == "strong"
        ]
        if f.get("strength") == "strong" and ids:
            out.append((f, ids))
    return out


def _api_change(f: dict[str, Any], to: str) -> dict[str, Any]:
    what = unfence(str(f.get("where", ""))).rsplit(" · ", 1)[-1]
    return {"summary": f"{what} (released code of {to})"[:300], "symbols": f["symbols"][:10],
            "source_ref": f["id"]}  # fmt: skip


def _with_api(st: _State, base: dict[str, Any]) -> dict[str, Any]:
    """The notes' conclusion, with what the released code adds: never affected → not."""
    api, u = st.api, st.update
    if not st.api_asked or base["verdict"] == "unknown" and st.rejections:
        return base
    compared = bool(api and api.get("compared"))
    strong = _strong_findings(api) if compared and api else []
    # notes read, but not for every version of the range, of an update that may break
    # (a result with ``coverage`` is judged by ``_covered``: the releases that may break)
    cl = st.changelog or {}
    partial = bool(u.get("may_break") and cl.get("missing_versions")) and "coverage" not in cl
    if base["verdict"] == "affected":
        extra = [_api_change(f, u.get("to", "?")) for f, _ in strong]
        ids = [i for _, got in strong for i in got if i not in base["hit_ids"]]
        return {**base, "breaking_changes": (base["breaking_changes"] + extra)[:20],
                "hit_ids": (base["hit_ids"] + ids)[:MAX_HITS_CITED]}  # fmt: skip
    if strong:
        ids = list(dict.fromkeys(i for _, got in strong for i in got))
        what = "; ".join(_api_change(f, u.get("to", "?"))["summary"] for f, _ in strong[:3])
        return {
            "package": u["package"], "verdict": "affected",
            "reason": f"the released code shows a break this code uses ({what}); "
                      "the release notes do not mention it"[:600],
            "breaking_changes": [_api_change(f, u.get("to", "?")) for f, _ in strong][:20],
            "hit_ids": ids[:MAX_HITS_CITED],
            "suggested_fix": f"Adapt the uses listed to the API of {u['package']} {u.get('to')}, "
                             "then run the tests against it.",
        }  # fmt: skip
    if base["verdict"] == "not_affected" and partial and not compared:
        missing = ", ".join(str(v) for v in st.changelog["missing_versions"][:5])  # type: ignore[index]
        return {"package": u["package"], "verdict": "unknown",
                "reason": f"the notes of {missing} are missing and the released code could not "
                          "be compared; what those versions break is not known"}  # fmt: skip
    if compared and api:
        n = api.get("changes_in_diff", 0)
        base = {**base, "reason": f"{base['reason']}; the released code's {n} API change(s) "
                                  "touch no strong use here"[:600]}  # fmt: skip
    return base


def _promised(u: dict[str, Any]) -> bool:
    """A patch bump of a 1.x+ version, which semver promises to be compatible."""
    eco = str(u.get("ecosystem") or "pip")
    return semver_promise(eco, str(u.get("from", "")), str(u.get("to", "")))


def _missing(st: _State) -> list[str]:
    """The releases of the range that may break whose notes were not found (``coverage``)."""
    if _promised(st.update):
        return []
    cl = st.changelog
    if cl is None or "coverage" not in cl:
        return [] if cl is not None and cl.get("found") else [str(st.update.get("to", "?"))]
    return [str(v) for v in cl["coverage"].get("missing") or []]


def _clean(api: dict[str, Any] | None) -> bool:
    """Both releases' code compared whole, and no strong finding."""
    if not api or not api.get("compared") or api.get("incomplete"):
        return False
    return not any(f.get("strength") == "strong" for f in api.get("findings") or [])


def _tried(st: _State) -> str:
    cl = st.changelog or {}
    tried = [unfence(str(t)) for t in cl.get("sources_tried") or []] + st.fetch_errors[-1:]
    return "; ".join(tried[:4])[:300] or "the registry, the repository's changelog and releases"


def _covered(st: _State, base: dict[str, Any]) -> dict[str, Any]:
    """``not_affected`` only with the notes of every release that may break, or a clean API
    diff (then the reason says the notes were missing); ``unknown`` otherwise."""
    missing = _missing(st)
    if base["verdict"] == "affected" or st.rejections or not missing:
        return base
    u, names = st.update, ", ".join(missing[:5]) + (" …" if len(missing) > 5 else "")
    if _clean(st.api):
        n = (st.api or {}).get("changes_in_diff", 0)
        head = (
            f"the notes of {names} were not found; the released code of both versions was compared"
        )
        if base["verdict"] == "not_affected":
            return {**base, "reason": f"{head}; {base['reason']}"[:600]}
        return {"package": u["package"], "verdict": "not_affected",
                "reason": f"{head} and its {n} API change(s) touch no use in this code"[:600]}  # fmt: skip
    if base["verdict"] == "unknown":  # already unknown: its reason says why; name the releases
        if all(m in base["reason"] for m in missing[:5]):
            return base
        return {**base, "reason": f"{base['reason'][:500]}; no notes for {names}"[:600]}
    code = "was not compared" if not st.api_asked else "could not be compared"
    return {"package": u["package"], "verdict": "unknown",
            "reason": f"the notes of {names} were not found (tried: {_tried(st)}) and the released "
                      f"code {code}; what {u.get('from')} → {u.get('to')} breaks is not known"[:600]}  # fmt: skip


def offered(tools: list[dict[str, Any]] | None) -> frozenset[str]:
    """The names of the tools offered (OpenAI shape)."""
    return frozenset(str((t.get("function") or {}).get("name")) for t in tools or [])


def plan(messages: list[dict[str, Any]], tools: frozenset[str] = frozenset()) -> dict[str, Any]:
    """The next assistant message for this conversation. ``tools``: the names offered; like
    any model the planner calls ``api_diff`` only when it is offered."""
    states, n_calls = read_state(messages)
    calls: list[tuple[str, dict[str, Any]]] = []
    for st in states:
        if st.concluded:
            continue
        pkg = st.update["package"]
        pending = any(f is None for f in st.fetches)
        if pending:
            continue
        if st.changelog is None and len(st.fetches) < 2:
            # one more try after any failure: upstreams fail for a while, then answer
            calls.append(("fetch_changelog", {"package": pkg}))
            continue
        asking = "api_diff" in tools and not st.api_asked and not st.rejections and _wants_api(st)
        if asking:
            calls.append(("api_diff", {"package": pkg}))
        elif st.api_asked and st.api is None:
            continue  # pending
        if st.changelog is None:
            if not asking:
                calls.append(("conclude", _covered(st, _with_api(st, _conclusion(st)))))
            continue
        if st.rejections and not any(s.result is None for s in st.searches):
            calls.append(("conclude", _conclusion(st)))
            continue
        found = st.changelog.get("found")
        done = [s.args for s in st.searches]
        text_ok = "search_code" in tools
        raw = candidates(st.changelog) if found else []
        wild_asks, wild_pending = wildcard_asks(
            raw, st.code, st.imported_asked, st.imported_pending, text_ok
        )
        cands, pre_asks, pre_pending = within_budget(
            _found_candidates(st) if found else [],
            st.code,
            done,
            pkg,
            MAX_SEARCHES_PER_UPDATE,
            text_ok,
        )
        wild_asks += [a for a in pre_asks if a not in wild_asks]
        wild_pending = wild_pending or pre_pending
        if cands and found:
            cands = (cands + deprecated(st.changelog))[:MAX_SEARCHES_PER_UPDATE]
        todo = [search_args(pkg, c) for c, _ in cands if search_args(pkg, c) not in done]
        if todo or wild_asks or (wild_pending and not st.imported_asked):
            if not st.imported_asked:
                calls.append(("where_imported", {"package": pkg}))
            calls.extend(("search_code", a) for a in wild_asks)
            calls.extend(("search_symbol", a) for a in todo)
            continue
        if asking or wild_pending or any(s.result is None for s in st.searches):
            continue
        calls.append(("conclude", _covered(st, _with_api(st, _conclusion(st)))))
    if not calls:
        open_ = [st.update["package"] for st in states if not st.concluded]
        text = "All updates have a verdict." if not open_ else f"Waiting on: {', '.join(open_)}."
        return {"role": "assistant", "content": text}
    calls = calls[:MAX_CALLS_PER_REPLY]
    return {
        "role": "assistant",
        "content": "",
        "tool_calls": [
            {
                "id": f"call_{n_calls + i + 1}",
                "type": "function",
                "function": {"name": name, "arguments": json.dumps(args, ensure_ascii=False)},
            }
            for i, (name, args) in enumerate(calls)
        ],
    }
