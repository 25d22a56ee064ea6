"""Errors of the rules core, one class per cause, all of them ``ValueError``.

Front ends catch :class:`RulesError` to tell a player, in one sentence, why their input
was refused; the message is that sentence. It is a :class:`~gatebot.errors.UserError`, the
one kind of error front ends show to people.
"""

from __future__ import annotations

from gatebot.errors import UserError


class RulesError(UserError):
    """Base class: anything the rules core refuses because of its input."""


class NotationError(RulesError):
    """Text that cannot be read as a move at all (a typo, an unknown word)."""


class IllegalMove(RulesError):
    """A move that was understood but the rules do not allow in this position."""


class AmbiguousMove(IllegalMove):
    """Input that names more than one legal move; :attr:`choices` lists them."""

    def __init__(self, message: str, choices: tuple[str, ...]) -> None:
        super().__init__(message)
        self.choices = choices


class PositionError(RulesError):
    """Position text that is malformed or does not hold each card exactly once."""


class UnknownVariant(RulesError):
    """A variant or option name that gatebot does not know."""


class DealNumberError(RulesError):
    """A deal number outside the numbering (RULES.md §2)."""
