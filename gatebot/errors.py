"""The one base class for errors meant for people.

gatebot's front ends (the bot's error boundary, the terminal, the command line) show the
message of a :class:`UserError` to the person who caused it, and only of a ``UserError``:
any other exception is a bug, logged with its context and answered with a short apology, so
no internal text ever reaches a player. The message is one sentence saying what happened and
what to do.

It subclasses ``ValueError`` because every such error is a refusal of input, as the rules'
errors always were (python-chess's habit), so ``except ValueError`` keeps catching them.
This module imports nothing, so the pure rules core can build on it.
"""

from __future__ import annotations


class UserError(ValueError):
    """Input refused for a reason its sender can act on; the message is that sentence."""
