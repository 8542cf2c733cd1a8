"""depbot: dependency-upgrade triage that tells you whether a breaking change touches your code.

The names of ``__all__`` are the library's public face; the rest lives in the stage packages
(``depbot.core``, ``depbot.records``, ... ``depbot.cli``)::

    import depbot

    settings = depbot.Settings.from_env()
    updates, warnings = depbot.collect_updates(settings, repo=Path("."))
    model = depbot.make_model(None, settings)
    result = depbot.pipeline(
        settings, repo=Path("."), updates=updates, model=model, out_dir=Path("out")
    )

They are imported on first use, so ``import depbot`` alone loads neither ``openai`` nor
PyGithub.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "1.0.0"  # the one place the version is written (CHANGELOG.md, tools/release.py)

# Every ecosystem registers its version grammar with ``depbot.records.versions`` on import;
# loading the table here means no record is made before it is full.
import depbot.ecosystems  # noqa: E402,F401  (light: packaging and depbot's records only)

# public name → the module that defines it (or the package that exports it)
_EXPORTS: dict[str, str] = {
    "BreakingChange": "depbot.records.verdict",
    "collect_updates": "depbot.updates.sources",
    "ConfigError": "depbot.core.errors",
    "DepbotError": "depbot.core.errors",
    "Hit": "depbot.records.verdict",
    "InputError": "depbot.core.errors",
    "load_update_file": "depbot.updates.files",
    "make_model": "depbot.models",
    "ModelError": "depbot.core.errors",
    "PublishError": "depbot.core.errors",
    "run_eval": "depbot.evals.run",
    "Settings": "depbot.core.settings",
    "ToolError": "depbot.core.errors",
    "triage": "depbot.pipeline",
    "TriageResult": "depbot.pipeline",
    "Update": "depbot.records.update",
    "UpstreamError": "depbot.core.errors",
    "Verdict": "depbot.records.verdict",
}

if TYPE_CHECKING:  # the same names, for type checkers and editors
    from depbot.core.errors import (
        ConfigError,
        DepbotError,
        InputError,
        ModelError,
        PublishError,
        ToolError,
        UpstreamError,
    )
    from depbot.core.settings import Settings
    from depbot.evals.run import run_eval
    from depbot.models import make_model
    from depbot.pipeline import TriageResult, triage
    from depbot.records.update import Update
    from depbot.records.verdict import BreakingChange, Hit, Verdict
    from depbot.updates.files import load_update_file
    from depbot.updates.sources import collect_updates

__all__ = [
    "__version__",
    "BreakingChange",
    "collect_updates",
    "ConfigError",
    "DepbotError",
    "Hit",
    "InputError",
    "load_update_file",
    "make_model",
    "ModelError",
    "PublishError",
    "run_eval",
    "Settings",
    "ToolError",
    "triage",
    "TriageResult",
    "Update",
    "UpstreamError",
    "Verdict",
]


def __getattr__(name: str) -> Any:
    # Not cached in globals(): importing the subpackage ``depbot.pipeline`` sets the attribute
    # ``depbot.pipeline`` to that subpackage, and a cached function there would break
    # ``import depbot.pipeline.run``.
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
