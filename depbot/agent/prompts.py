"""Prompt building from the templates in ``depbot/agent/templates/``. Pure (the templates are package data)."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from string import Template

from depbot.records.update import Update


@cache
def template(name: str) -> Template:
    text = (
        resources.files("depbot.agent")
        .joinpath("templates", f"{name}.txt")
        .read_text(encoding="utf-8")
    )
    return Template(text)


def update_entry(u: Update) -> dict[str, object]:
    entry: dict[str, object] = {
        "package": u.package,
        "ecosystem": u.ecosystem,
        "from": u.from_version,
        "to": u.to_version,
        "update_type": u.update_type,
        "may_break": u.may_break,
    }
    if u.manifest:
        entry["manifest"] = u.manifest
    if u.dependency_kind != "direct":
        entry["dependency_kind"] = u.dependency_kind
    return entry


def system_prompt(repo: str) -> str:
    return template("system").substitute(repo=repo)


def user_prompt(repo: str, updates: list[Update], *, batch: int = 1, batches: int = 1) -> str:
    note = f", batch {batch} of {batches}" if batches > 1 else ""
    body = json.dumps([update_entry(u) for u in updates], indent=1, ensure_ascii=False)
    return template("user").substitute(
        repo=repo, count=len(updates), batch_note=note, updates_json=body
    )


def nudge_prompt(open_packages: list[str]) -> str:
    return template("nudge").substitute(open=", ".join(open_packages))


def initial_messages(
    repo: str, updates: list[Update], *, batch: int = 1, batches: int = 1
) -> list[dict]:
    return [
        {"role": "system", "content": system_prompt(repo)},
        {"role": "user", "content": user_prompt(repo, updates, batch=batch, batches=batches)},
    ]
