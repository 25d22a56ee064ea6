"""What services and front ends ask about a variant beyond playing it: its deck, its stock, its name.

The rules core answers for one game; these answer for a variant by its name, as stored
with a game or a challenge, so statistics, challenges and boards word each variant right
(scores out of 104 in Archway, no "never past a draw" where nothing is ever drawn).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from gatebot.rules import RulesError, find_variant

#: Cards in one deck, for a variant name this gatebot doesn't know.
ONE_DECK = 52


@functools.cache
def deck_size(variant: str) -> int:
    """How many cards a game of ``variant`` plays with (its rules say): 52, or 104 for Archway's two decks.

    A name no variant has (a row from a newer gatebot) counts as one deck.
    """
    try:
        return find_variant(variant).card_count
    except RulesError:
        return ONE_DECK


@functools.cache
def has_stock(variant: str) -> bool:
    """Whether ``variant`` deals a stock to draw from (Gate, Canfield) or lays every card out (Archway)."""
    try:
        return find_variant(variant).has_stock
    except RulesError:
        return True


def score_words(score: int, variant: str) -> str:
    """A game's score as its board shows it, the cards home out of its deck: ``31/52``, ``8/104`` in Archway.

    Every sentence that tells a score says it so, so a player reads one number everywhere.
    """
    return f"{score}/{deck_size(variant)}"


def variant_title(variant: str, options: Sequence[str] = ()) -> str:
    """The variant's name with its options: "Gate", "Little Gate (single-moves)", "Archway (kit)"."""
    try:
        title = find_variant(variant).title
    except RulesError:
        title = variant
    return f"{title} ({', '.join(options)})" if options else title
