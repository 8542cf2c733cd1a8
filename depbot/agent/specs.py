"""The tools a model may call: their JSON schemas, in the OpenAI chat-completions format.

Data only. The schemas are what ``schema.validate`` checks every call's arguments
against and what the model is shown (``tool_specs``); ``toolbox`` runs the calls.
"""

from __future__ import annotations

from typing import Any

from depbot import ecosystems
from depbot.changelogs.breaking import CANDIDATE_KINDS
from depbot.core.limits import MAX_CALLS_PER_REPLY

__all__ = ["MAX_CALLS_PER_REPLY", "SCHEMAS", "SEARCH_TOOLS", "tool_specs"]

# the tools whose results are searches of the checkout (the "nothing new" guard counts them)
SEARCH_TOOLS = ("search_code", "search_symbol", "where_imported")

_STR = {"type": "string", "maxLength": 200}
SCHEMAS: dict[str, dict[str, Any]] = {
    "fetch_changelog": {
        "description": (
            "Read the release notes of one update of the list: every section between the "
            "installed and the new version, newest first, with refs to cite. Also lists the "
            "breaking items found in them with candidate symbols to search for, and, when "
            "the update removes previously deprecated code, the older deprecation notes."
        ),
        "parameters": {
            "type": "object",
            "properties": {"package": {"type": "string", "maxLength": 214}},
            "required": ["package"],
            "additionalProperties": False,
        },
    },
    "search_code": {
        "description": (
            "Plain text or regex search of the checkout (ripgrep). Literal by default. Each hit "
            "has an id, path, line and whether it sits in code, a comment or a string."
        ),
        "parameters": {
            "type": "object",
            "properties": {
                "pattern": _STR,
                "regex": {"type": "boolean"},
                "path_glob": _STR,
                "word": {"type": "boolean"},
            },
            "required": ["pattern"],
            "additionalProperties": False,
        },
    },
    "where_imported": {
        "description": (
            "Where a package is imported or required in the checkout, under which names, and "
            "whether each importing file is an ES module. Import sites are hits with ids."
        ),
        "parameters": {
            "type": "object",
            "properties": {
                "package": {"type": "string", "maxLength": 214},
                "ecosystem": {"type": "string", "enum": ecosystems.NAMES},
            },
            "required": ["package"],
            "additionalProperties": False,
        },
    },
    "search_symbol": {
        "description": (
            "Find uses of a package's API that a breaking change affects, resolving import "
            "aliases and receivers. kind: name (removed function/class/attribute), parameter "
            "(removed keyword/option; of = its function), required_arg (calls of symbol that "
            "do not pass arg), positional (calls of symbol with more than max_positional "
            "positional arguments), signature (calls shaped like symbol, e.g. 'res.send(status)'), "
            "literal_arg (calls of symbol passing the literal arg), arg_kind (arg: string, "
            "number or function), module (require() of an "
            "ES-module-only package from CommonJS), default_import, subpath ('pkg/sub' entry "
            "point), module_path ('pkg.sub' module), config_key (of = the config file when "
            "named, e.g. 'pyproject.toml'), config_file (files named symbol, e.g. '.babelrc', "
            "that configure the package), required_use (a name now required: uses without it), "
            "callback_arg (symbol: the package; its API's calls passing a callback), "
            "optional_dependency (symbol: a dependency a feature now needs, arg: the feature's "
            "words 'Email|validation'; uses when no manifest lists it), "
            "other_package (symbol: another package the notes drop or stop publishing; its "
            "imports), version_floor (symbol: another package the release needs at version "
            "arg or newer; the checkout's declared versions), command (a command line the "
            "release no longer runs, e.g. 'python -m pkg.cli': the lines of scripts, CI, "
            "Makefiles and code that run it), string_value (a string value the release no longer "
            "accepts, e.g. a chart type 'horizontalBar': the string literals equal to it), "
            "side_effect_import (symbol: the package; its imports that bind nothing, "
            "`import 'pkg'`), options_given (symbol: the package; the options this code gives it, when the "
            "notes reshape its options as a whole), returned_member (symbol: a function, arg: a "
            "member of what it returns, e.g. useQuery / remove), async (calls not awaited), "
            "behaviour (calls of "
            "symbol whose behaviour changed: each to verify). "
            "Hits say how strong the evidence is and why."
        ),
        "parameters": {
            "type": "object",
            "properties": {
                "package": {"type": "string", "maxLength": 214},
                "symbol": _STR,
                "kind": {"type": "string", "enum": list(CANDIDATE_KINDS)},
                "of": {"type": "string", "maxLength": 120},
                "arg": {"type": "string", "maxLength": 120},
                "max_positional": {"type": "integer", "minimum": 0, "maximum": 20},
            },
            "required": ["package", "symbol"],
            "additionalProperties": False,
        },
    },
    "api_diff": {
        "description": (
            "Compare the released code (registry artifacts) of one update's two versions and "
            "check the API changes against this checkout: only changes that touch an import or "
            "a call here are returned, each with an id (a1, a2 ...) citable as source_ref in "
            "conclude, the hit ids of its uses and a strength (weak: a method name on an "
            "object of unknown type, never enough alone). Deprecated names in use are listed "
            "apart. When the artifacts cannot be had, the notes say why."
        ),
        "parameters": {
            "type": "object",
            "properties": {"package": {"type": "string", "maxLength": 214}},
            "required": ["package"],
            "additionalProperties": False,
        },
    },
    "who_loads": {
        "description": (
            "For a package no file imports: what else may load it. Looks for files that name "
            "it or its commands (scripts, config; prose and lock files aside), a tool that may "
            "load it by a short name or prefix, and the other declared packages that need it "
            "(a peer, or a dependency whose range takes the new version). 'unreached' true: "
            "nothing reaches it and everything was looked at, so no item of its notes can "
            "break this code; 'unseen' lists what could not be looked at."
        ),
        "parameters": {
            "type": "object",
            "properties": {"package": {"type": "string", "maxLength": 214}},
            "required": ["package"],
            "additionalProperties": False,
        },
    },
    "conclude": {
        "description": (
            "Give the verdict for one update. affected: cite hit_ids from searches of this run "
            "and breaking_changes with the source_ref of the changelog section (or of an api_diff "
            "finding, a1). not_affected: "
            "the breaking changes do not touch the code (or nothing breaks). unknown: the facts "
            "could not be had; say why in reason."
        ),
        "parameters": {
            "type": "object",
            "properties": {
                "package": {"type": "string", "maxLength": 214},
                "verdict": {"type": "string", "enum": ["affected", "not_affected", "unknown"]},
                "reason": {"type": "string", "maxLength": 1000},
                "breaking_changes": {
                    "type": "array",
                    "maxItems": 20,
                    "items": {
                        "type": "object",
                        "properties": {
                            "summary": {"type": "string", "maxLength": 400},
                            "symbols": {"type": "array", "maxItems": 10, "items": _STR},
                            "source_ref": {"type": "string", "maxLength": 40},
                        },
                        "required": ["summary", "source_ref"],
                        "additionalProperties": False,
                    },
                },
                "hit_ids": {
                    "type": "array",
                    "maxItems": 50,
                    "items": {"type": "string", "maxLength": 20},
                },
                "suggested_fix": {"type": "string", "maxLength": 2000},
            },
            "required": ["package", "verdict", "reason"],
            "additionalProperties": False,
        },
    },
}


def tool_specs() -> list[dict[str, Any]]:
    """The tools in the OpenAI chat-completions format."""
    return [
        {"type": "function", "function": {"name": name, **spec}} for name, spec in SCHEMAS.items()
    ]
