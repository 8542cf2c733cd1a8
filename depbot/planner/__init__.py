"""The rules planner: the domain policy that triages updates offline, from the conversation.

``plan(messages, tools)`` is the next assistant message (see ``reply`` for the order it
decides in); ``read_state`` is what it reads of the conversation; ``offered`` the names of
the tools a request offers. ``models.rules`` puts it behind the model interface.
"""

from depbot.planner.conversation import read_state
from depbot.planner.reply import offered, plan

__all__ = ["offered", "plan", "read_state"]
