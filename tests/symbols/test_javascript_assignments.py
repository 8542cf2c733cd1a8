"""What local JS/TS names were bound to (symbols.javascript.assignments)."""

from __future__ import annotations

from depbot.symbols.javascript import assignments


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
