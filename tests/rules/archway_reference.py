"""A deliberately simple reference model of Archway, for differential tests only.

Written from the Archway rules text quoted in ``docs/archway.md``, and that page, alone,
independently of ``gatebot.rules``, so that the engine and this model can be checked against
each other move for move. Clarity beats speed: positions are immutable, cards are strings like
``"7H"``, each foundation is the tuple of its cards, legal moves are found by trying every
available card against every place, and every move played is first checked against that set.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, replace

RANKS = "A23456789TJQK"
SUITS = "CDHS"
KNOWN_OPTIONS = ("kit",)
COLUMNS = 4


def rank_of(card: str) -> int:
    """Ace = 1 ... King = 13."""
    return RANKS.index(card[0]) + 1


def card_order(card: str) -> tuple[int, int]:
    """Arch order: by rank (the packet), then suit C D H S."""
    return rank_of(card), SUITS.index(card[1])


def full_deck() -> list[str]:
    return [rank + suit for rank in RANKS for suit in SUITS]


def deal_cards(n: int) -> list[str]:
    """The dealt sequence c0..c95 of deal ``n``: the FreeCell generator over the 96-card deck.

    The deck (docs/archway.md §1): the first deck without its Aces and Kings, then the second
    deck whole, each in the order AC AD AH AS 2C ... KS.
    """
    assert 1 <= n <= 2**32 - 1
    deck = [card for card in full_deck() if card[0] not in "AK"] + full_deck()
    assert len(deck) == 96
    state = n
    dealt = []
    for left in range(96, 0, -1):
        state = (state * 214013 + 2531011) % 2**32
        j = ((state >> 16) & 0x7FFF) % left
        dealt.append(deck[j])
        deck[j] = deck[left - 1]
    return dealt


@dataclass(frozen=True)
class Position:
    """One Archway position; columns bottom to top, foundations base first."""

    options: tuple[str, ...]
    aces: tuple[tuple[str, ...], ...]  # the Ace foundations, C D H S, each from its Ace up
    kings: tuple[tuple[str, ...], ...]  # the King foundations, C D H S, each from its King down
    arch: tuple[str, ...]  # every arch card, in arch order
    columns: tuple[tuple[str, ...], ...]


def new_position(deal: int, options: tuple[str, ...] = ()) -> Position:
    """Deal ``deal``: c0..c47 to the columns row by row, c48..c95 into the arch."""
    cards = deal_cards(deal)
    return Position(
        options=tuple(option for option in KNOWN_OPTIONS if option in options),
        aces=tuple(("A" + suit,) for suit in SUITS),
        kings=tuple(("K" + suit,) for suit in SUITS),
        arch=tuple(sorted(cards[48:], key=card_order)),
        columns=tuple(tuple(cards[i:48:4]) for i in range(COLUMNS)),
    )


def score(pos: Position) -> int:
    return sum(len(pile) for pile in pos.aces + pos.kings)


def is_won(pos: Position) -> bool:
    return all(len(pile) == 13 for pile in pos.aces + pos.kings)


def fits_ace(pile: tuple[str, ...], card: str) -> bool:
    return card[1] == pile[-1][1] and rank_of(card) == rank_of(pile[-1]) + 1


def fits_king(pile: tuple[str, ...], card: str) -> bool:
    return card[1] == pile[-1][1] and rank_of(card) == rank_of(pile[-1]) - 1


def available(pos: Position) -> list[tuple[str, str]]:
    """(source token, card) for each available card: exposed column cards, each distinct arch card."""
    found = [(str(i + 1), column[-1]) for i, column in enumerate(pos.columns) if column]
    found += [(card.lower(), card) for card in sorted(set(pos.arch), key=card_order)]
    return found


@functools.lru_cache(maxsize=8192)
def legal_tokens(pos: Position) -> frozenset[str]:
    tokens: set[str] = set()
    for source, card in available(pos):
        suit = SUITS.index(card[1])
        if fits_ace(pos.aces[suit], card):
            tokens.add(source + "a")
        if fits_king(pos.kings[suit], card):
            tokens.add(source + "k")
        for j, column in enumerate(pos.columns, start=1):
            if not column and source != str(j):
                tokens.add(f"{source}{j}")
        if "kit" in pos.options and source.isdigit():
            tokens.add(source + "p")
    for suit, letter in enumerate(SUITS):
        ace, king = pos.aces[suit], pos.kings[suit]
        # Reversing: the top of one foundation onto the other, the order kept, the bases staying.
        if len(ace) > 1 and fits_king(king, ace[-1]):
            tokens.add(f"f{letter.lower()}k")
        if len(king) > 1 and fits_ace(ace, king[-1]):
            tokens.add(f"f{letter.lower()}a")
    return frozenset(tokens)


TOKEN = re.compile(r"([1-4]|[a2-9tjqk][cdhs]|f[cdhs])([1-4akp])")


def apply_token(pos: Position, token: str) -> Position:
    """Play one canonical token and return the new position."""
    if token not in legal_tokens(pos):
        raise ValueError(f"illegal or non-canonical move {token!r}")
    match = TOKEN.fullmatch(token)
    assert match is not None, token
    source, target = match.groups()
    aces, kings = list(pos.aces), list(pos.kings)
    columns = list(pos.columns)
    arch = list(pos.arch)
    if source.startswith("f"):
        suit = SUITS.index(source[1].upper())
        if target == "k":
            card, aces[suit] = aces[suit][-1], aces[suit][:-1]
        else:
            card, kings[suit] = kings[suit][-1], kings[suit][:-1]
    elif source.isdigit():
        i = int(source) - 1
        card, columns[i] = columns[i][-1], columns[i][:-1]
    else:
        card = source.upper()
        arch.remove(card)
    suit = SUITS.index(card[1])
    if target == "a":
        aces[suit] += (card,)
    elif target == "k":
        kings[suit] += (card,)
    elif target == "p":
        arch.append(card)
    else:
        columns[int(target) - 1] += (card,)
    return replace(pos, aces=tuple(aces), kings=tuple(kings), arch=tuple(sorted(arch, key=card_order)),
                   columns=tuple(columns))


def position_text(pos: Position) -> str:
    """The position text of docs/archway.md §6."""

    def line(label: str, cards: tuple[str, ...] | list[str]) -> str:
        return f"{label}: {' '.join(cards)}" if cards else f"{label}:"

    return "\n".join([
        " ".join(("archway", *pos.options)),
        line("A", [pile[-1] for pile in pos.aces]),
        line("K", [pile[-1] for pile in pos.kings]),
        line("P", pos.arch),
        *(line(str(i + 1), column) for i, column in enumerate(pos.columns)),
    ])
