"""The names a UMD bundle gives ``require``: what its wrapper hands to ``module.exports``.

``(function (root, factory) { … module.exports = factory(); … }(this, function () { … }))``
and its minified form ``!function(e,t){…?module.exports=t():…}(this,function(){…})``: the
module object is what the factory returns, and its members are the names (``default`` is the
object itself). ``factory(exports)``: the factory sets the names on the object it is handed
(``exports.x = …``, ``Object.defineProperty(exports, 'x', …)``).

What a value holds is read without running code (TAPIR's returned objects, within one file):
an object literal's keys; a local function's or variable's members set on it
(``api.get = …``) over what it was made from; what a local function returns;
``Object.create(proto, props)``, ``Object.assign(a, b)``, ``Object.freeze(x)``. Anything else
(a parameter, a class, a member set under a computed key, an object spread) is not read to
the end: the names are then ``default`` and ``UNSEEN`` (members not known, not none).
"""

from __future__ import annotations

import tree_sitter

from depbot.ecosystems.npm.api.nodes import descendants, node_text

UNSEEN = "*"  # among a file's names: the members of the module object are not known
MAX_DEPTH = 8
_FUNCTIONS = ("function_expression", "function", "arrow_function", "function_declaration",
              "generator_function", "generator_function_declaration")  # fmt: skip
_SCOPES = ("statement_block", "program")


class _Unread(Exception):
    """A value whose members are not read to the end."""


def _unparen(node: tree_sitter.Node | None) -> tree_sitter.Node | None:
    while node is not None and node.type in ("parenthesized_expression", "unary_expression"):
        inner = [c for c in node.named_children if c.type != "comment"]
        node = inner[-1] if inner else None  # `!function(){}()`, `(function(){}())`
    return node


def _args(call: tree_sitter.Node) -> list[tree_sitter.Node]:
    args = call.child_by_field_name("arguments")
    return [a for a in args.named_children if a.type != "comment"] if args is not None else []


def _params(function: tree_sitter.Node) -> list[str]:
    params = function.child_by_field_name("parameters")
    return [node_text(p) for p in params.named_children] if params is not None else []


def _own_nodes(node: tree_sitter.Node):
    """``node``'s descendants, not those inside a nested function."""
    for child in node.named_children:
        yield child
        if child.type not in _FUNCTIONS:
            yield from _own_nodes(child)


def umd_exports(program: tree_sitter.Node) -> set[str] | None:
    """The names of a UMD entry file (None: no UMD wrapper that feeds ``module.exports``)."""
    for statement in program.named_children:
        if statement.type != "expression_statement" or not statement.named_children:
            continue
        call = _unparen(statement.named_children[0])
        wrapper = _unparen(call.child_by_field_name("function")) if call is not None else None
        if call is None or call.type != "call_expression" or wrapper is None:
            continue
        if wrapper.type not in _FUNCTIONS or wrapper.child_by_field_name("body") is None:
            continue
        names = _fed(wrapper, _params(wrapper), _args(call))
        if names is not None:
            return names
    return None


def _fed(wrapper: tree_sitter.Node, params: list[str], args: list[tree_sitter.Node]):
    """What the wrapper's body hands to CommonJS: ``module.exports = factory()`` or
    ``factory(exports)``, where ``factory`` is one of its parameters."""
    for node in _own_nodes(wrapper.child_by_field_name("body")):
        if node.type == "assignment_expression":
            right = _unparen(node.child_by_field_name("right"))
            if node_text(node.child_by_field_name("left")) != "module.exports":
                continue
            factory = _factory(right, params, args)
            if factory is not None:
                try:
                    return {"default"} | _returned(factory, [])
                except _Unread:
                    return {"default", UNSEEN}
        elif node.type == "call_expression":
            handed = [i for i, a in enumerate(_args(node))
                      if node_text(a) in ("exports", "module.exports")]  # fmt: skip
            factory = _factory(node, params, args)
            if factory is None or not handed or handed[0] >= len(_params(factory)):
                continue
            body = factory.child_by_field_name("body")
            try:
                return _set_on(_params(factory)[handed[0]], body, [body], 0)
            except _Unread:
                return {UNSEEN}
    return None


def _factory(call, params: list[str], args: list[tree_sitter.Node]) -> tree_sitter.Node | None:
    """The function a call of one of the wrapper's parameters calls (its argument there)."""
    if call is None or call.type != "call_expression":
        return None
    name = node_text(call.child_by_field_name("function"))
    if name not in params or params.index(name) >= len(args):
        return None
    factory = _unparen(args[params.index(name)])
    body = factory.child_by_field_name("body") if factory is not None else None
    if factory is None or factory.type not in _FUNCTIONS or body is None:
        return None
    return factory if body.type == "statement_block" else None


def _returned(function: tree_sitter.Node, scopes: list, depth: int = 0) -> set[str]:
    """The members of what ``function`` returns (every ``return`` of its own body)."""
    if depth > MAX_DEPTH:
        raise _Unread
    body = function.child_by_field_name("body")
    out: set[str] = set()
    for node in _own_nodes(body):
        if node.type == "return_statement" and node.named_children:
            out |= _members(node.named_children[0], [body, *scopes], depth + 1)
    return out


def _members(node: tree_sitter.Node | None, scopes: list, depth: int) -> set[str]:
    node = _unparen(node)
    if node is None or depth > MAX_DEPTH:
        raise _Unread
    if node.type == "object":
        return _keys(node)
    if node.type in _FUNCTIONS:
        return set()  # a function's own members are those set on its name
    if node.type in ("assignment_expression", "sequence_expression"):
        return _members(node.child_by_field_name("right") or node.named_children[-1], scopes,
                        depth + 1)  # fmt: skip
    if node.type == "identifier":
        return _of_name(node_text(node), scopes, depth + 1)
    if node.type == "call_expression":
        return _called(node, scopes, depth + 1)
    raise _Unread


def _of_name(name: str, scopes: list, depth: int) -> set[str]:
    for i, scope in enumerate(scopes):
        for statement in scope.named_children:
            made = _declares(statement, name)
            if made is None:
                continue
            base = set() if made is statement else _members(made, scopes[i:], depth)
            return base | _set_on(name, scope, scopes[i:], depth)
    raise _Unread  # a parameter or a global


def _declares(statement: tree_sitter.Node, name: str):
    """The statement itself (a function named ``name``), the value a ``var name = …``
    gives, or None."""
    if statement.type in ("function_declaration", "generator_function_declaration"):
        return statement if node_text(statement.child_by_field_name("name")) == name else None
    if statement.type in ("variable_declaration", "lexical_declaration"):
        for declarator in statement.named_children:
            if node_text(declarator.child_by_field_name("name")) == name:
                value = declarator.child_by_field_name("value")
                return value if value is not None else statement
    return None


def _set_on(name: str, scope: tree_sitter.Node, scopes: list, depth: int) -> set[str]:
    """Members set on ``name`` anywhere in ``scope``: ``name.x = …``, ``name['x'] = …``,
    ``Object.defineProperty(name, 'x', …)``, ``Object.assign(name, {…})``."""
    out: set[str] = set()
    for node in descendants(scope):
        if node.type == "assignment_expression":
            left = node.child_by_field_name("left")
            if left is None or node_text(left.child_by_field_name("object")) != name:
                continue
            if left.type == "member_expression":
                out.add(node_text(left.child_by_field_name("property")))
            elif left.type == "subscript_expression":
                index = left.child_by_field_name("index")
                if index is None or index.type != "string":
                    raise _Unread  # `api[key] = …`: members made at run time
                out.add(node_text(index))
        elif node.type == "call_expression":
            args = _args(node)
            callee = node_text(node.child_by_field_name("function"))
            if not args or node_text(args[0]) != name or not callee.startswith("Object."):
                continue
            if callee == "Object.defineProperty" and len(args) > 1 and args[1].type == "string":
                out.add(node_text(args[1]))
            elif callee in ("Object.assign", "Object.defineProperties"):
                for arg in args[1:]:
                    out |= _members(arg, scopes, depth + 1)
    return out - {"__esModule"}


def _called(call: tree_sitter.Node, scopes: list, depth: int) -> set[str]:
    callee = call.child_by_field_name("function")
    args = _args(call)
    text = node_text(callee)
    if text == "Object.create" and args:
        return _members(args[0], scopes, depth) | (
            _keys(args[1]) if len(args) > 1 and args[1].type == "object" else set()
        )
    if text == "Object.assign" and args:
        return set().union(*(_members(a, scopes, depth) for a in args))
    if text == "Object.freeze" and args:
        return _members(args[0], scopes, depth)
    if callee is not None and callee.type == "identifier":
        for i, scope in enumerate(scopes):
            for statement in scope.named_children:
                if _declares(statement, text) is statement:
                    return _returned(statement, scopes[i:], depth)
    raise _Unread


def _keys(node: tree_sitter.Node) -> set[str]:
    keys: set[str] = set()
    for child in node.named_children:
        if child.type == "shorthand_property_identifier":
            keys.add(node_text(child))
        elif child.type in ("pair", "method_definition"):
            key = child.child_by_field_name("key") or child.child_by_field_name("name")
            if key is None or key.type == "computed_property_name":
                raise _Unread
            keys.add(node_text(key))
        elif child.type == "spread_element":
            raise _Unread
    return keys - {"__proto__"}
