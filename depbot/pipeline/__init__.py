"""The weekly job: ``triage()`` on one checkout (see ``run``)."""

from depbot.pipeline.run import TriageResult, triage

__all__ = ["TriageResult", "triage"]
