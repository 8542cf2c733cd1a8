"""What local JS/TS names were bound to (symbols.javascript.assignments)."""

from __future__ import annotations

from depbot.symbols.javascript import assignments, offsets, passed_as, use_at


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


def test_a_function_called_where_it_is_written_passes_its_arguments_to_its_parameters():
    umd = "(function (root, zk) {\n  zk.inflateRaw(b);\n})(typeof window !== 'undefined' ? window : global, require('zipkit'));\n"  # noqa: E501
    assert passed_as(umd, "zk") == ["require('zipkit')"]
    assert passed_as("((zk) => { zk.x(); })(lib);\n", "zk") == ["lib"]
    assert passed_as("(function (zk) { zk.x(); }(require('a')));\n", "zk") == ["require('a')"]
    assert passed_as("(function (zk) { zk.x(); });\n", "zk") == []  # not called there


def test_an_object_literal_gives_its_keys_their_values_and_a_spread_its_source():
    assigned, _ = assignments(
        "const deps = {\n  zip: require('zipkit'),\n  log,\n  'quoted': other.thing,\n};\n"
        "const api = { ...zk, isZip: (b) => true };\nconst plain = { a: 1 };\n"
    )
    assert assigned["deps.zip"] == ["require:zipkit"]
    assert assigned["deps.log"] == ["chain:log"]
    assert assigned["deps.quoted"] == ["chain:other.thing"]
    assert assigned["deps"] == ["literal:dict"]
    assert assigned["api"] == ["chain:zk"]  # what zk is; its own keys are looked up first
    assert assigned["api.isZip"] == ["other"]
    assert assigned["plain"] == ["literal:dict"] and assigned["plain.a"] == ["literal:str"]


def test_typed_arrows_are_functions_and_a_cast_is_the_value_it_casts():
    from depbot.symbols.javascript import arg_kind, call_shape

    assert arg_kind("(err: Error, user: User | null) => done(user)") == "function"
    assert arg_kind("async (e) => e") == "function"
    assert arg_kind("callback as any") == "name"
    assert call_shape(["{ email }", "callback as any"]).last_arg == "callback"


def test_a_conditional_value_is_either_branch_and_null_is_no_value():
    assigned, _ = assignments(
        "const zk = process.env.NO_ZIP ? null : require('zipkit');\n"
        "const fmt = opts.json ? JSON.stringify : require('util').inspect;\n"
        "const a = b?.c ?? d;\n"
    )
    assert assigned["zk"] == ["require:zipkit"]
    assert assigned["fmt"] == ["chain:JSON.stringify", "made:util"]
    assert assigned["a"] == ["chain:b"]  # optional chaining and ?? are no conditional


def test_a_bare_specifier_a_module_root_of_the_project_holds_is_its_file():
    from depbot.symbols.jslocal import rooted

    files = frozenset({"dev/components/box.jsx", "dev/lib/codec.js", "src/lib/codec.ts"})
    assert rooted(files, "components/box")[:2] == ["dev/components/box", "dev/components/box.js"]
    assert "dev/components/box.jsx" in rooted(files, "components/box")
    assert rooted(files, "lib/codec") == []  # two folders hold it: which one is not known
    assert rooted(files, "react") == [] and rooted(files, "@scope/x/y") == []


def test_a_tagged_template_is_a_call():
    text = "export const slide = keyframes`\n  from { top: 0 }\n`;\n"
    use = use_at(text, offsets(text), 1, text.index("keyframes") + 1, "keyframes")
    assert use is not None and use.call is not None and use.call.arg_kinds == ("string",)


def test_a_field_is_what_a_class_body_or_an_object_literal_gives_it():
    from depbot.symbols.javascript import field_values

    cls = (
        "class A {\n  private static codec = require('zipkit');\n"
        "  private readonly c: Client = make();\n  n = 1;\n  run() { return this.n === 2; }\n}\n"
    )
    assert field_values(cls, "codec") == ["require('zipkit')"]
    assert field_values(cls, "c") == ["make()"]
    obj = (
        "module.exports = {\n  zk: require('zipkit'),\n  unpack(b) { return this.zk.x(b); },\n};\n"
    )
    assert field_values(obj, "zk") == ["require('zipkit')"]
    assert field_values("if (a === b) { x.zk = 1; }\n", "zk") == []


def test_the_type_a_class_gives_an_injected_or_declared_field():
    from depbot.symbols.javascript import typed_field

    src = (
        "export class Users {\n"
        "  private store!: Cache<string>;\n"
        "  constructor(private readonly api: HttpClient, public log: Logger) {}\n"
        "  list() { return this.api.get('/u'); }\n"
        "}\n"
    )
    assert typed_field(src, "api") == ["HttpClient"]
    assert typed_field(src, "log") == ["Logger"]
    assert typed_field(src, "store") == ["Cache"]
    assert typed_field(src, "list") == []  # a method, no field
