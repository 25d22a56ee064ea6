"""Errors of the rules core, one class per cause, all of them ``ValueError``.

Front ends catch :class:`RulesError` to tell a player, in one sentence, why their input
was refused; the message is that sentence. It is a :class:`~gatebot.errors.UserError`, the
one kind of error front ends show to people.
"""

from __future__ import annotations

from gatebot.errors import UserError

#: The most characters of a player's input a message repeats; a longer input is cut with "…",
#: so a pasted page can't make the one-sentence answer a page long.
QUOTE_LIMIT = 40


def clipped(text: str) -> str:
    """``text`` as a message repeats it: cut to :data:`QUOTE_LIMIT` characters, ending in "…" if cut."""
    return text if len(text) <= QUOTE_LIMIT else text[: QUOTE_LIMIT - 1] + "…"


def quoted(text: str) -> str:
    """``text`` quoted in a message, within :data:`QUOTE_LIMIT` characters.

    It is ``repr()``'d, so control characters show as escapes, and cut with "…" so that the
    quote, escapes included, stays short.
    """
    kept = len(text)
    shown = repr(text) if kept <= QUOTE_LIMIT else ""
    while not shown or len(shown) > QUOTE_LIMIT + 2:  # the limit, and the quote marks
        kept = min(kept, QUOTE_LIMIT) - 1
        shown = repr(text[:kept] + "…")
    return shown


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
    """A deal number outside the numbering (docs/rules.md#deal-numbers)."""
