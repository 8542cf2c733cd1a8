"""Realistic verdicts for the draft, report and publish tests."""

from __future__ import annotations

from depbot.records.update import Update
from depbot.records.verdict import BreakingChange, Hit, Verdict

CHANGES_URL = "https://github.com/urllib3/urllib3/blob/main/CHANGES.rst"

# verbatim from the pip-urllib3-retry scenario's CHANGES.rst, 2.0.0 "Removed"
URLLIB3_QUOTE = (
    "* The deprecated ``Retry`` keyword ``method_whitelist`` and the "
    "``Retry.DEFAULT_REDIRECT_HEADERS_BLACKLIST``\n"
    "  attribute were removed; use ``allowed_methods`` and "
    "``Retry.DEFAULT_REMOVE_HEADERS_ON_REDIRECT`` "
    "(`#2086 <https://github.com/urllib3/urllib3/issues/2086>`__)."
)


def urllib3_verdict(*, pr: int | None = None, hits: list[Hit] | None = None) -> Verdict:
    """The pip-urllib3-retry scenario's verdict, as the loop would build it."""
    extra = {"pr": str(pr)} if pr else {}
    update = Update(
        ecosystem="pip",
        package="urllib3",
        from_version="1.26.18",
        to_version="2.0.7",
        manifest="requirements.txt",
        source="dependabot" if pr else "file",
        source_ref=f"https://github.com/acme/statuspoller/pull/{pr}" if pr else "updates.json",
        extra=extra,
    )
    return Verdict(
        update=update,
        verdict="affected",
        reason=(
            "urllib3 2.0.0 removed the Retry keyword method_whitelist; "
            "statuspoller/http.py still passes it when it builds its retry policy."
        ),
        breaking_changes=[
            BreakingChange(
                summary="Retry(method_whitelist=) was removed; use allowed_methods=",
                symbols=("method_whitelist",),
                source=CHANGES_URL,
                quote=URLLIB3_QUOTE,
                version="2.0.0",
                section_ref="c1.s9",
            )
        ],
        hits=hits
        if hits is not None
        else [Hit("h3", "statuspoller/http.py", 26, "method_whitelist=_RETRYABLE_METHODS,", 8)],
        suggested_fix=(
            "In `build_retry()`, pass `allowed_methods=_RETRYABLE_METHODS` instead of "
            "`method_whitelist=`; `allowed_methods` exists since urllib3 1.26.0, so the "
            "change works before and after the upgrade."
        ),
        decided_by="model",
    )


def simple_verdict(
    package: str,
    to: str = "2.0.0",
    *,
    verdict: str = "affected",
    ecosystem: str = "pip",
    hits: int = 1,
    pr: int | None = None,
    quote: str = "* `old_api()` was removed.",
) -> Verdict:
    update = Update(
        ecosystem=ecosystem,
        package=package,
        from_version="1.0.0",
        to_version=to,
        manifest="requirements.txt" if ecosystem == "pip" else "package.json",
        source="dependabot" if pr else "file",
        source_ref=f"https://github.com/acme/app/pull/{pr}" if pr else "",
        extra={"pr": str(pr)} if pr else {},
    )
    return Verdict(
        update=update,
        verdict=verdict,
        reason=f"{package} {to} removed old_api, which the code calls.",
        breaking_changes=[
            BreakingChange(
                summary="old_api() was removed",
                symbols=("old_api",),
                source=f"https://github.com/up/{package.strip('@')}/blob/main/CHANGELOG.md",
                quote=quote,
                version=to,
            )
        ]
        if verdict == "affected"
        else [],
        hits=[Hit(f"h{i}", f"src/mod{i % 3}.py", 10 + i, "old_api(1)") for i in range(hits)]
        if verdict == "affected"
        else [],
    )
