"""Numbered deals: the Microsoft FreeCell shuffle, so deal N is the same everywhere, forever."""

from __future__ import annotations

MAX_DEAL = 2**32 - 1


def shuffled_deck(deal: int) -> list[int]:
    """Return the 52 card indices in the order they are dealt for deal number ``deal``.

    The deck starts as AC AD AH AS 2C … KS (card index order); RULES.md section 2.
    """
    if not 1 <= deal <= MAX_DEAL:
        raise ValueError(f"deal numbers run from 1 to {MAX_DEAL}, not {deal}")
    deck = list(range(52))
    state = deal
    dealt = []
    for left in range(52, 0, -1):
        state = (state * 214013 + 2531011) & 0xFFFFFFFF
        j = ((state >> 16) & 0x7FFF) % left
        dealt.append(deck[j])
        deck[j] = deck[left - 1]
    return dealt
