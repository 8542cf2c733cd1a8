"""What local JS/TS names were bound to (symbols.javascript.assignments)."""

from __future__ import annotations

from depbot.symbols.javascript import assignments, use_at


def test_a_name_destructured_from_a_call_is_a_member_of_what_the_call_returns():
    # `const { register } = useForm<Values>()`: register is a member of the hook's result
    # (a value the callee made), not of the callee itself; a plain object stays a member
    src = (
        "const { register, watch: w } = useForm<Values>();\n"
        "const { control } = await makeForm({ mode: 'all' });\n"
        "const { get } = lib.http;\n"
    )
    assigned, _ = assignments(src)
    assert assigned["register"] == ["chain:useForm().register"]
    assert assigned["w"] == ["chain:useForm().watch"]
    assert assigned["control"] == ["chain:makeForm().control"]
    assert assigned["get"] == ["member:lib.http.get"]


def test_a_key_of_a_declarations_pattern_is_a_read_of_the_value_it_destructures():
    text = (
        "import * as Z from 'zipkit';\nconst { inflateRaw: raw, deflate } = Z.sync;\n"
        "call({ inflateRaw: 1 });\nconst { a: { inflateRaw: deep } } = Z;\n"
    )
    starts = [0] + [i + 1 for i, c in enumerate(text) if c == "\n"]
    use = use_at(text, starts, 2, 9, "inflateRaw")
    assert use is not None and (use.kind, use.chain) == ("member", ("Z", "sync", "inflateRaw"))
    literal = use_at(text, starts, 3, 7, "inflateRaw")
    assert literal is not None and literal.kind == "property"  # an object literal's key
    nested = use_at(text, starts, 4, 15, "inflateRaw")
    assert nested is not None and nested.kind == "property"  # a nested pattern: not followed
