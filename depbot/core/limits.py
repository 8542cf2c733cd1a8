"""Limits that more than one layer must agree on.

The agent's toolbox enforces them; the built-in rules model plans within them. They live
here, at the bottom, so that ``models`` (below ``agent``) can read them too.
"""

from __future__ import annotations

# tool calls of one model reply that are run; the ones after them are refused
MAX_CALLS_PER_REPLY = 40
