"""The members of what a CommonJS entry exports when it is made by a constructor or is a class.

``module.exports = new Mime()`` (or ``var mime = new Mime(); module.exports = mime``) exports
an instance: its members are ``Mime``'s methods (``class Mime { getType() {} }`` or
``Mime.prototype.lookup = function …``) and what its constructor sets on ``this``.
``module.exports = Base`` with ``class Base { static create() {} }`` exports the class: its
static methods are members. A constructor bound by ``require('./Mime')`` is read from that
file of the release (what it exports as ``module.exports``). ``members`` answers None when
the instance's maker is not found: its members are not known, which is not "none".
No code is run.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import tree_sitter

from depbot.ecosystems.npm.api.nodes import node_text

Parse = Callable[[Path], "tree_sitter.Node | None"]
Resolve = Callable[[Path, str], "Path | None"]
MAX_FILES = 4  # files followed from the entry to the constructor


def _statements(program: tree_sitter.Node) -> list[tree_sitter.Node]:
    return list(program.named_children)


def _expression(node: tree_sitter.Node) -> tree_sitter.Node | None:
    return node.named_children[0] if node.type == "expression_statement" else None


def _declarators(node: tree_sitter.Node) -> list[tree_sitter.Node]:
    if node.type not in ("lexical_declaration", "variable_declaration"):
        return []
    return [d for d in node.named_children if d.type == "variable_declarator"]


def _this_members(body: tree_sitter.Node | None) -> set[str]:
    """Names assigned as ``this.x = …`` in a constructor's body (not in the functions and
    classes nested in it, whose ``this`` is another object; arrow functions share it)."""
    found: set[str] = set()
    stack = [body] if body is not None else []
    while stack:
        node = stack.pop()
        if node.type == "assignment_expression":
            left = node.child_by_field_name("left")
            if left is not None and left.type == "member_expression":
                owner = left.child_by_field_name("object")
                if owner is not None and owner.type == "this":
                    found.add(node_text(left.child_by_field_name("property")))
        stack.extend(c for c in node.named_children if c.type not in _OWN_THIS)
    return found


_OWN_THIS = frozenset({
    "function_declaration", "function_expression", "function", "generator_function",
    "generator_function_declaration", "class_declaration", "class", "method_definition",
})  # fmt: skip


def _class_members(node: tree_sitter.Node, *, static: bool) -> set[str]:
    """Methods and fields of a class body: the instance's, or with ``static`` the class's."""
    body = node.child_by_field_name("body")
    found: set[str] = set()
    for member in body.named_children if body is not None else []:
        if member.type not in ("method_definition", "field_definition"):
            continue
        is_static = any(c.type == "static" for c in member.children)
        key = member.child_by_field_name("name") or member.child_by_field_name("property")
        name = node_text(key)
        if name == "constructor":
            if not static:
                found |= _this_members(member.child_by_field_name("body"))
            continue
        if is_static == static and name and not name.startswith("#"):
            found.add(name)
    return found


class _File:
    """What one file binds at its top level: classes, functions, `require`d names, instances."""

    def __init__(self, program: tree_sitter.Node) -> None:
        self.classes: dict[str, tree_sitter.Node] = {}
        self.functions: dict[str, tree_sitter.Node] = {}
        self.required: dict[str, str] = {}  # local name → the relative path it requires
        self.made: dict[str, str] = {}  # `var mime = new Mime()`: mime → Mime
        self.prototype: dict[str, set[str]] = {}  # Mime.prototype.lookup = … : Mime → {lookup}
        self.exported: tree_sitter.Node | None = None  # the value of `module.exports = …`
        for node in _statements(program):
            self._statement(node)

    def _statement(self, node: tree_sitter.Node) -> None:
        if node.type == "class_declaration":
            self.classes[node_text(node.child_by_field_name("name"))] = node
        elif node.type == "function_declaration":
            self.functions[node_text(node.child_by_field_name("name"))] = node
        for declarator in _declarators(node):
            self._bind(node_text(declarator.child_by_field_name("name")), declarator)
        expression = _expression(node)
        if expression is None or expression.type != "assignment_expression":
            return
        left, right = (
            expression.child_by_field_name("left"),
            expression.child_by_field_name("right"),
        )
        if node_text(left) == "module.exports":
            self.exported = right
        elif left is not None and left.type == "member_expression":
            owner = left.child_by_field_name("object")
            if owner is not None and owner.type == "member_expression":
                base = owner.child_by_field_name("object")
                if (
                    node_text(owner.child_by_field_name("property")) == "prototype"
                    and base is not None
                ):
                    member = node_text(left.child_by_field_name("property"))
                    self.prototype.setdefault(node_text(base), set()).add(member)

    def _bind(self, name: str, declarator: tree_sitter.Node) -> None:
        value = declarator.child_by_field_name("value")
        if value is None or not name:
            return
        if value.type == "new_expression":
            self.made[name] = node_text(value.child_by_field_name("constructor"))
        elif value.type == "class":
            self.classes[name] = value
        elif value.type == "call_expression" and node_text(
            value.child_by_field_name("function")
        ) == ("require"):
            args = value.child_by_field_name("arguments")
            first = args.named_children[0] if args is not None and args.named_children else None
            if first is not None and first.type == "string":
                self.required[name] = node_text(first)


class Instances:
    """Members of the entry's export, following constructors into other files of the release."""

    def __init__(self, parse: Parse, resolve: Resolve) -> None:
        self.parse, self.resolve = parse, resolve

    def members(self, file: Path, program: tree_sitter.Node) -> set[str] | None:
        """The members ``module.exports`` has for being an instance or a class; an empty set
        when it is neither, None when it is an instance whose maker is not found."""
        scope = _File(program)
        value = scope.exported
        if value is None:
            return set()
        if value.type == "new_expression":
            return self._instance(
                file, scope, node_text(value.child_by_field_name("constructor")), 0
            )
        if value.type != "identifier":
            return set()
        name = node_text(value)
        if name in scope.made:
            return self._instance(file, scope, scope.made[name], 0)
        if name in scope.classes:
            return _class_members(scope.classes[name], static=True)
        return set()

    def _instance(self, file: Path, scope: _File, maker: str, depth: int) -> set[str] | None:
        if maker in scope.classes:
            node = scope.classes[maker]
            return _class_members(node, static=False) | scope.prototype.get(maker, set())
        if maker in scope.functions:
            body = scope.functions[maker].child_by_field_name("body")
            return _this_members(body) | scope.prototype.get(maker, set())
        spec = scope.required.get(maker)
        target = self.resolve(file, spec) if spec and depth < MAX_FILES else None
        program = self.parse(target) if target is not None else None
        if target is None or program is None:
            return None
        inner = _File(program)
        exported = inner.exported
        if exported is None or exported.type != "identifier":
            return None
        return self._instance(target, inner, node_text(exported), depth + 1)
