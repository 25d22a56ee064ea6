"""Numbered deals: the Microsoft FreeCell shuffle, so deal N is the same everywhere, forever."""

from __future__ import annotations

from collections.abc import Sequence

from gatebot.messages import _
from gatebot.rules.errors import DealNumberError

MAX_DEAL = 2**32 - 1


def shuffle(deal: int, deck: Sequence[int]) -> list[int]:
    """Return ``deck`` in the order it is dealt for deal number ``deal`` (docs/rules.md#deal-numbers, step 2).

    The generator is the same for every deck size: ``left`` runs from ``len(deck)`` down to 1.
    """
    if not 1 <= deal <= MAX_DEAL:
        raise DealNumberError(_("Deal numbers run from 1 to {most}, not {deal}.", most=MAX_DEAL, deal=deal))
    cards = list(deck)
    state = deal
    dealt = []
    for left in range(len(cards), 0, -1):
        state = (state * 214013 + 2531011) & 0xFFFFFFFF
        j = ((state >> 16) & 0x7FFF) % left
        dealt.append(cards[j])
        cards[j] = cards[left - 1]
    return dealt


def shuffled_deck(deal: int) -> list[int]:
    """Return the 52 card indices in the order they are dealt for deal number ``deal``.

    The deck starts as AC AD AH AS 2C … KS (card index order); docs/rules.md#deal-numbers.
    """
    return shuffle(deal, range(52))
