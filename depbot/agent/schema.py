"""A small JSON-schema checker for tool arguments. Pure.

The tool schemas use a narrow subset of JSON Schema (object/string/integer/boolean/array,
``required``, ``enum``, ``maxLength``, ``maxItems``, ``additionalProperties: false``).
Checking that subset takes forty lines; a full validator would add a dependency for
features no tool uses. Messages name the field and what is valid.
"""

from __future__ import annotations

from typing import Any

_TYPES = {
    "object": dict,
    "string": str,
    "integer": int,
    "boolean": bool,
    "array": list,
    "number": (int, float),
}


def validate(value: Any, schema: dict[str, Any], path: str = "arguments") -> list[str]:
    """Every problem with ``value`` against ``schema``, as short sentences (empty when valid)."""
    problems: list[str] = []
    kind = schema.get("type")
    expected = _TYPES.get(kind) if kind else None
    if expected is not None:
        ok = isinstance(value, expected) and not (
            kind in ("integer", "number") and isinstance(value, bool)
        )
        if not ok:
            return [f"{path} must be {'an' if kind[0] in 'aeiou' else 'a'} {kind}"]
    if "enum" in schema and value not in schema["enum"]:
        choices = ", ".join(map(str, schema["enum"]))
        return [f"{path} must be one of: {choices}"]
    if kind == "string" and len(value) > schema.get("maxLength", 1 << 30):
        problems.append(f"{path} is too long (at most {schema['maxLength']} characters)")
    if kind == "integer":
        if "minimum" in schema and value < schema["minimum"]:
            problems.append(f"{path} must be at least {schema['minimum']}")
        if "maximum" in schema and value > schema["maximum"]:
            problems.append(f"{path} must be at most {schema['maximum']}")
    if kind == "array":
        if len(value) > schema.get("maxItems", 1 << 30):
            problems.append(f"{path} has too many items (at most {schema['maxItems']})")
        item_schema = schema.get("items")
        if item_schema:
            for i, item in enumerate(value[:100]):
                problems += validate(item, item_schema, f"{path}[{i}]")
    if kind == "object":
        props = schema.get("properties", {})
        for name in schema.get("required", []):
            if name not in value:
                problems.append(f"{path} is missing the required field '{name}'")
        if schema.get("additionalProperties") is False:
            extra = sorted(set(value) - set(props))
            if extra:
                valid = ", ".join(props) or "none"
                problems.append(f"{path} has unknown field(s) {', '.join(extra)} (valid: {valid})")
        for name, sub in props.items():
            if name in value:
                problems += validate(
                    value[name], sub, f"{name}" if path == "arguments" else f"{path}.{name}"
                )
    return problems
