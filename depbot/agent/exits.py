"""How a conversation ends: one exception per exit status, raised by the loop's steps.

``Conversation.run`` catches ``ConversationExit`` and records its ``status`` and
``detail``; a conversation never ends any other way (nor with one more unbudgeted
model call).
"""

from __future__ import annotations


class ConversationExit(Exception):
    """The conversation is over; ``status`` names why, ``detail`` says more (maybe "")."""

    status = ""

    def __init__(self, detail: str = "") -> None:
        super().__init__(detail or self.status)
        self.detail = detail


class Finished(ConversationExit):
    """Every update of the batch has its verdict."""

    status = "finished"


class StepLimit(ConversationExit):
    """``max_rounds`` model calls were made."""

    status = "step_limit"


class TokenBudget(ConversationExit):
    """The next model call would overspend the run's token budget."""

    status = "token_budget"


class TimeBudget(ConversationExit):
    """The run's time budget is spent."""

    status = "time_budget"


class FormatErrors(ConversationExit):
    """The model kept answering without a usable tool call (``max_format_errors``)."""

    status = "format_errors"


class ModelUnavailable(ConversationExit):
    """The model failed, for good or after its bounded retries."""

    status = "model_unavailable"


EXITS = (Finished, StepLimit, TokenBudget, TimeBudget, FormatErrors, ModelUnavailable)
EXIT_STATUSES = tuple(e.status for e in EXITS)
