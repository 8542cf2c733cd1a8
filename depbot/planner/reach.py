"""What ``who_loads`` adds to an ``unknown`` conclusion of a package no file imports. Pure.

``wants_reach``: ask it when the conclusion would be ``unknown`` and nothing here was
found importing the package. ``with_reach``: ``unreached`` (nothing loads it, all looked at)
makes the update ``not_affected`` whatever its notes say or lack, with what was looked at
as the reason; otherwise the unknown's reason says what reaches it or was not seen.
"""

from __future__ import annotations

from dataclasses import replace

from depbot import ecosystems
from depbot.core.fence import unfence
from depbot.planner.records import Conclusion, State
from depbot.planner.released import NOT_LOOKED, clean_diff


def wants_reach(st: State, base: Conclusion, tools: frozenset[str]) -> bool:
    """Whether to ask ``who_loads`` before concluding ``base``."""
    if base.verdict != "unknown" or st.rejections or st.reach_asked or "who_loads" not in tools:
        return False
    eco = ecosystems.find(st.update.ecosystem)
    if eco is None or eco.reach_rules() is None:  # it would only say it cannot look
        return False
    api, imported = st.api, st.imported
    no_names = api is not None and api.compared and not api.names_total
    no_sites = imported is not None and not imported.hits and not imported.error
    return no_names or _names_clear(st) or (api is None or not api.compared) and no_sites


def _names_clear(st: State) -> bool:
    """Both releases compared whole, every name this code imports found in the new one:
    what remains may be that nothing reads those names."""
    api = st.api
    return api is not None and clean_diff(api) and 0 < api.names_resolved == api.names_total


def _shape(res: dict) -> str:
    if not res.get("unread_imports"):
        return ""
    return "; the names those imports bind are all in the new release (its API compared)"


def _lines(res: dict, key: str) -> list[str]:
    return [ln.strip() for ln in unfence(str(res.get(key) or "")).splitlines() if ln.strip()]


def with_reach(st: State, base: Conclusion) -> Conclusion:
    """``base`` (unknown) with what ``who_loads`` answered."""
    res, u = st.reach, st.update
    if not st.reach_asked or res is None or base.verdict != "unknown":
        return base
    if "error" in res:
        return replace(base, reason=base.reason.replace(NOT_LOOKED, "what loads it could not be "
                                                        "looked for")[:600])  # fmt: skip
    if res.get("unreached") is True and (not res.get("unread_imports") or _names_clear(st)):
        looked = "; ".join(_lines(res, "looked"))
        return Conclusion(u.package, "not_affected",
                          f"nothing in this checkout reaches {u.package}: {looked}{_shape(res)}. No change of "
                          f"{u.frm} → {u.to} can break this code, whatever its notes say or lack; "
                          "it may be unused: check it is still needed, or remove it"[:600])  # fmt: skip
    found = _lines(res, "reached") + [f"not seen: {x}" for x in _lines(res, "unseen")]
    what = "; ".join(found[:3])[:300]
    reason = base.reason.replace(NOT_LOOKED, f"what may load it: {what}")
    if reason == base.reason:
        reason = f"{base.reason[:450]}; what reaches it: {what}"
    return replace(base, reason=reason[:600])
