"""The call-shape rules of ``search_symbol``: does a call of the package's API have the
shape a break needs? (Options given or passed, values allowed, argument kinds, positional
counts, signatures, awaits.) A mixin of ``match.Matcher``, which finds the call and whose
query fields (``kind``, ``arg``, ``max_pos``, ``params``, ``symbol``, ``leaf``) and ``skip``
these rules read. Pure.
"""

from __future__ import annotations

import re

from depbot.changelogs.wording import IF_CONDITION, VARIADIC
from depbot.symbols.python import CallShape

_NUMERIC_PARAM = re.compile(
    r"^(status|code|statuscode|n|num|number|count|port|ms|timeout|size|length|index|i)$", re.I
)
_FUNC_PARAM = re.compile(r"^(fn|func|function|callback|cb|handler|listener|middleware)$", re.I)

# the words of a weak hit that may be a use no search can settle (an option key passed to
# the package's own call): it stands against not_affected, as an unknown with its places
WEAK_USE = "may be a use"
# `(err, rows) =>`, `function (error) {`, `async (e) =>`: Node's error-first callback
_ERROR_FIRST = re.compile(
    r"^(?:async\s*)?(?:function\b\s*[\w$]*\s*)?\(?\s*(?:err|error|e|er|ex)\b", re.I
)
# methods that take a function in any release: a promise's, an emitter's, an array's
_TAKES_FUNCTIONS = frozenset(
    "then catch finally on once off addListener prependListener prependOnceListener "
    "removeListener forEach map filter reduce some every find findIndex sort flatMap".split()
)
_LITERAL_KINDS = ("string", "number", "function", "object", "array")


class CallShapeRules:
    """The rules by call shape, for the kinds whose break is in how a call is made."""

    kind: str
    arg: str
    max_pos: int
    params: list[str]
    symbol: str
    leaf: str

    def skip(self, reason: str) -> None:  # pragma: no cover - the Matcher's
        raise NotImplementedError

    def _option_given(self, call: CallShape, evidence: str, who: str) -> tuple[str, str] | None:
        """``required_option``: the options object at position ``max_positional`` must hold
        ``arg``: absent from a literal is the break; a spread or a variable may hold it."""
        position, option = self.max_pos, self.arg
        if call.star:
            return "weak", f"{WEAK_USE}: {who}, arguments spread; {option} is now required"
        if call.positional <= position:
            return evidence, f"{who}, called without options; {option} is now required"
        keys = call.objects[position] if position < len(call.objects) else None
        if keys is None:
            why = f"{WEAK_USE}: {who}, its options are built elsewhere; {option} is now required"
            return "weak", why
        if option in keys:
            self.skip(f"passes {option}")
            return None
        if "..." in keys:
            return "weak", f"{WEAK_USE}: {who}, options spread from elsewhere may hold {option}"
        return evidence, f"{who}, called without the {option} option, which is now required"

    def _option_passed(self, call: CallShape, evidence: str, who: str) -> tuple[str, str] | None:
        """``passed_option``: the options object at position ``max_positional`` holding ``arg``,
        which the new release no longer takes, is the use; a variable or a spread may hold it."""
        position, option = self.max_pos, self.arg
        keys = call.objects[position] if position < len(call.objects) else None
        if call.star or (keys is None and position < call.positional):
            return "weak", f"{WEAK_USE}: {who}, its options are built elsewhere; {option} is gone"
        if keys is not None and option in keys:
            return evidence, f"{who}, passing the {option} option the new release no longer takes"
        if keys is not None and "..." in keys:
            return "weak", f"{WEAK_USE}: {who}, options spread from elsewhere may hold {option}"
        self.skip(f"does not pass {option}")
        return None

    def _may_pass(self, call: CallShape) -> bool:
        """Whether the call may pass ``arg``: by keyword or as an option key, spread, or as a
        second positional argument (its place is not known)."""
        keys = {k for obj in call.objects if obj for k in obj}
        return (
            call.star
            or self.arg in call.keywords
            or bool(keys & {self.arg, "..."})
            or call.positional >= 2
        )

    def _value_allowed(self, call: CallShape, evidence: str, who: str) -> tuple[str, str] | None:
        """``option_value``: ``arg`` is ``option=a|b``, the strings the option still allows; a
        string literal the options object gives it outside those is the break."""
        option, _, values = self.arg.partition("=")
        position = self.max_pos
        pairs = call.object_strings[position] if position < len(call.object_strings) else None
        given = dict(pairs or ())
        if option in given and given[option] not in values.split("|"):
            return evidence, f"{who}, passing {option}: '{given[option]}', no longer allowed"
        self.skip(f"passes no other string as {option}")
        return None

    def _callback_passed(self, call: CallShape, evidence: str, who: str) -> tuple[str, str] | None:
        """``callback_arg``: a callback as the last argument, in Node's style (``(err, r) =>``,
        a ``callback`` or ``cb`` passed on), or any function given to a method that is not
        one every value has (a promise's ``then``, an emitter's ``on``, an array's ``map``
        take functions in any release)."""
        last = call.arg_kinds[-1] if call.arg_kinds else ""
        given = last == "function" or (last == "name" and _FUNC_PARAM.match(call.last_arg))
        if not given:
            self.skip("no callback passed")
            return None
        if self.leaf in _TAKES_FUNCTIONS:  # `client.on('error', (err) => …)` stays valid
            self.skip(f"a function given to {self.leaf}, which takes one in any release")
            return None
        if last == "name":
            return evidence, f"{who}, passing the callback {call.last_arg} as its last argument"
        if _ERROR_FIRST.match(call.last_arg):
            return evidence, f"{who}, passing a callback (error first) as its last argument"
        return evidence, f"{who}, passing a callback as its last argument"

    def _kind_passed(self, call: CallShape, evidence: str, who: str) -> tuple[str, str] | None:
        """``arg_kind``: a literal of the dropped kind is the break; a variable may hold one.
        ``non-<kind>``: the call now throws unless given that kind; literals of it are safe."""
        if self.arg.startswith("non-"):
            return self._kind_insisted(call, self.arg[4:], evidence, who)
        wanted, changed = self._kind_meant()
        if wanted in call.arg_kinds:
            then = "whose handling of one changed" if changed else "it no longer accepts"
            return evidence, f"{who}, called with a {wanted} literal {then}"
        if call.star or "name" in call.arg_kinds or call.keywords:
            return (
                "weak",
                f"{WEAK_USE}: {who}, passed a value of unknown kind ({self._unknown_kind()})",
            )
        self.skip(f"passes no {wanted}")
        return None

    def _kind_meant(self) -> tuple[str, bool]:
        """The kind of value an ``arg_kind`` names, and whether the change is to how a value
        of it behaves (``when-number``) rather than its refusal (``number``)."""
        return self.arg.removeprefix("when-"), self.arg.startswith("when-")

    def _unknown_kind(self) -> str:
        """What a value of unknown kind may meet: the change for that kind, or its refusal."""
        wanted, changed = self._kind_meant()
        return f"the change is for a {wanted}" if changed else f"no longer a {wanted}"

    def _kind_insisted(
        self, call: CallShape, wanted: str, evidence: str, who: str
    ) -> tuple[str, str] | None:
        kinds = call.arg_kinds
        if kinds and all(k == wanted for k in kinds) and not call.star:
            self.skip(f"passes a {wanted}")
            return None
        if len(kinds) == 1 and kinds[0] in _LITERAL_KINDS and not call.star:
            return evidence, f"{who}, called with a {kinds[0]} literal, not a {wanted}"
        why = f"{WEAK_USE}: {who}, passed a value that may not be a {wanted}"
        return "weak", why

    def _shape_ok(
        self, call: CallShape | None, awaited: bool, evidence: str, who: str
    ) -> tuple[str, str] | None:
        k = self.kind
        if k == "name":
            return evidence, who
        if call is None:
            self.skip("not called here")
            return None
        if k == "required_arg":
            if call.star:
                self.skip("arguments passed with * or **")
                return None
            if self.arg == "callback":  # the last argument must be a function
                kinds = call.arg_kinds
                if kinds and kinds[-1] == "function":
                    self.skip("passes a callback")
                    return None
                if kinds and kinds[-1] == "name":
                    return "weak", f"{WEAK_USE}: {who}, last argument may be a callback"
                return evidence, f"{who}, called without a callback"
            if self.arg in ("", "*"):
                if call.positional == 0 and not call.keywords:
                    return evidence, f"{who}, called without arguments"
                self.skip("called with arguments")
                return None
            # two positional arguments may carry it; not when the call passes the other
            # optional arguments by keyword and this one not among them
            if self.arg in call.keywords or (call.positional >= 2 and not call.keywords):
                self.skip(f"passes {self.arg}")
                return None
            return evidence, f"{who}, called without {self.arg}"
        if k == "required_option":
            return self._option_given(call, evidence, who)
        if k == "passed_option":
            return self._option_passed(call, evidence, who)
        if k == "option_value":
            return self._value_allowed(call, evidence, who)
        if k == "positional":
            if call.star or call.positional <= self.max_pos:
                self.skip("no extra positional arguments")
                return None
            return evidence, f"{who}, called with {call.positional} positional arguments"
        if k == "signature":
            if call.star or call.positional != len(self.params):
                self.skip("a different call shape")
                return None
            for param, kind in zip(self.params, call.arg_kinds, strict=True):
                if _NUMERIC_PARAM.match(param) and kind in (
                    "string",
                    "function",
                    "object",
                    "array",
                ):
                    self.skip("a different call shape")
                    return None
                if _FUNC_PARAM.match(param) and kind in ("string", "number", "object", "array"):
                    self.skip("a different call shape")
                    return None
            return evidence, f"{who}, called as {self.symbol}({', '.join(self.params)})"
        if k == "arg_kind":
            return self._kind_passed(call, evidence, who)
        if k == "literal_arg":
            if self.arg in call.literals:
                return evidence, f"{who}, called with '{self.arg}'"
            self.skip(f"not passing '{self.arg}'")
            return None
        if k == "behaviour":
            if self.arg == VARIADIC and call.arg_kinds[:1] == ("object",):
                self.skip("called with an options object first, not argument by argument")
                return None
            if self.arg in (IF_CONDITION, VARIADIC):  # "now throws if …": only calls that do that
                return (
                    "weak",
                    f"{WEAK_USE}: {who}; it now fails under a condition, verify this call",
                )
            if self.arg and not self._may_pass(call):  # the change reaches the calls passing arg
                self.skip(f"not passing {self.arg}")
                return None
            return evidence, f"{who}: its behaviour changed, verify this call"
        if k == "callback_arg":
            return self._callback_passed(call, evidence, who)
        if k == "async":
            if awaited:
                self.skip("already awaited")
                return None
            return evidence, f"{who}, called without await"
        return evidence, who
