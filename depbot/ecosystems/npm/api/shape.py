"""What a release's module object is: a function ``new`` can make objects with, an arrow
function it cannot, or a class a plain call cannot run. Pure (reads the unpacked files).

``module.exports = (cfg) => …`` where the old release had ``module.exports = Busboy`` (a
``function Busboy(opts)``): ``new Busboy(opts)`` now throws "is not a constructor". And
``module.exports = class Client`` where it was ``function Client()``: ``Client(opts)`` now throws
"cannot be invoked without 'new'". Neither shows in the names a release exports.
"""

from __future__ import annotations

import re
from pathlib import Path

import tree_sitter

from depbot.ecosystems.npm.api.exports import loaded_spec, parse, resolve_relative, top_statements
from depbot.ecosystems.npm.api.nodes import node_text

__all__ = ["SHAPES", "module_shape"]

# the shape of a value: "function" (callable and constructible), "arrow" (callable only),
# "class" (constructible only), "object" (neither: named exports on a plain object)
SHAPES = ("function", "arrow", "class", "object")
_OF_NODE = {
    "function_expression": "function",
    "function": "function",
    "generator_function": "arrow",  # `new` of a generator throws too
    "arrow_function": "arrow",
    "class": "class",
}
_DECLARED = {
    "function_declaration": "function",
    "generator_function_declaration": "arrow",
    "class_declaration": "class",
}
MAX_DEPTH = 4


def module_shape(file: Path, root: Path, depth: int = 0) -> str | None:
    """The shape of what ``require`` of the entry ``file`` gives (``export default`` for an ES
    module): ``object`` when it is a plain object (an object literal, or only named exports
    set on ``exports``), None when not known from the file."""
    if depth > MAX_DEPTH:
        return None
    program = parse(file)
    if program is None:
        return None
    shape: str | None = None
    named = False  # `exports.x = …`, `Object.defineProperty(exports, 'x', …)`
    for node in top_statements(program):
        value = _exported_value(node)
        if value is None:
            named = named or _sets_named(node)
            continue
        spec = loaded_spec(node)  # `module.exports = require('./lib')`: that file's
        target = resolve_relative(file, spec, root) if spec else None
        if target is not None:
            shape = module_shape(target, root, depth + 1)
        else:
            shape = _shape(value, program)  # the last assignment is what `require` gives
            shape = shape or ("object" if value.type == "object" else None)
            named = False
    if shape is None and named and file.name.endswith((".cjs", ".js")):
        return "object"  # only named exports set on the exports object: not callable
    return shape


def _sets_named(node: tree_sitter.Node) -> bool:
    """Whether a top-level statement sets a named export on CommonJS's exports object."""
    if node.type != "expression_statement":
        return False
    text = node_text(node)
    return bool(re.match(r"(?:module\.)?exports\.[\w$]+\s*=(?!=)|Object\.defineProperty\(\s*"
                         r"(?:module\.)?exports\s*,", text))  # fmt: skip


def _exported_value(node: tree_sitter.Node) -> tree_sitter.Node | None:
    """The value ``module.exports = X`` or ``export default X`` sets, else None."""
    if node.type == "export_statement":
        if not any(c.type == "default" for c in node.children):
            return None
        value = node.child_by_field_name("value") or node.child_by_field_name("declaration")
        return value
    if node.type != "expression_statement" or not node.named_children:
        return None
    expression = node.named_children[0]
    while expression.type == "assignment_expression":  # `exports = module.exports = fn`
        left, right = (
            expression.child_by_field_name("left"),
            expression.child_by_field_name("right"),
        )
        if node_text(left) == "module.exports":
            return right
        if right is None or node_text(left) != "exports":
            return None
        expression = right
    return None


def _shape(value: tree_sitter.Node, program: tree_sitter.Node) -> str | None:
    if value.type in _OF_NODE:
        return _OF_NODE[value.type]
    if value.type in _DECLARED:  # `export default function f() {}`
        return _DECLARED[value.type]
    if value.type == "parenthesized_expression" and value.named_children:
        return _shape(value.named_children[0], program)
    if value.type != "identifier":
        return None
    return _declared_shape(node_text(value), program)


def _declared_shape(name: str, program: tree_sitter.Node) -> str | None:
    """The shape of the top-level declaration of ``name``: ``function Busboy(opts) {}``,
    ``class Client {}``, ``const make = (cfg) => …``."""
    for node in program.named_children:
        if node.type in _DECLARED and node_text(node.child_by_field_name("name")) == name:
            return _DECLARED[node.type]
        if node.type in ("lexical_declaration", "variable_declaration"):
            for declarator in node.named_children:
                if declarator.type != "variable_declarator":
                    continue
                if node_text(declarator.child_by_field_name("name")) != name:
                    continue
                value = declarator.child_by_field_name("value")
                return _OF_NODE.get(value.type) if value is not None else None
    return None
