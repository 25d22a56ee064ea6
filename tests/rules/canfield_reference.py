"""A deliberately simple reference model of Canfield, for differential tests only.

Written from the Canfield rules text quoted in ``docs/canfield.md``, and that page, alone,
independently of ``gatebot.rules``, so that the engine and this model can be checked against
each other move for move. Clarity beats speed: positions are immutable, cards are strings like
``"7H"``, legal moves are found by trying every source against every destination, and every
move played is first checked against that legal-move set.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, replace

try:  # tests/ may or may not be a package; support both layouts
    from .reference import deal_cards
except ImportError:
    from reference import deal_cards  # type: ignore[no-redef]

RANKS = "A23456789TJQK"
SUITS = "CDHS"
KNOWN_OPTIONS = ("draw-one", "passes-1", "passes-2", "partial-moves")  # canonical order
PILES = 4


def rank_of(card: str) -> int:
    """Ace = 1 ... King = 13."""
    return RANKS.index(card[0]) + 1


def is_red(card: str) -> bool:
    return card[1] in "DH"


def full_deck() -> list[str]:
    return [rank + suit for rank in RANKS for suit in SUITS]


def builds_on(lower: str, upper: str) -> bool:
    """``upper`` may lie on ``lower`` in the tableau: one rank lower (a King on an Ace), other colour."""
    wanted = rank_of(lower) - 1 if rank_of(lower) > 1 else 13
    return rank_of(upper) == wanted and is_red(upper) != is_red(lower)


@dataclass(frozen=True)
class Position:
    """One Canfield position; piles are listed bottom to top, the stock in the order it is turned."""

    options: tuple[str, ...]
    base: int  # the base rank, 1..13
    reserve: tuple[str, ...]
    foundations: tuple[int, int, int, int]  # how many cards each suit's foundation holds (C D H S)
    piles: tuple[tuple[str, ...], ...]
    waste: tuple[str, ...]
    stock: tuple[str, ...]  # stock[0] is turned next
    pass_number: int
    offered: bool  # whether a card could move at some point of this pass


def draw_count(pos: Position) -> int:
    return 1 if "draw-one" in pos.options else 3


def pass_limit(pos: Position) -> int | None:
    """How many passes the stock allows in all (None: no limit)."""
    if "draw-one" not in pos.options:
        return None
    if "passes-1" in pos.options:
        return 1
    if "passes-2" in pos.options:
        return 2
    return 3


def new_position(deal: int, options: tuple[str, ...] = ()) -> Position:
    """Deal ``deal``: 13 to the reserve, 1 to its foundation, 1 to each pile, 34 to the stock."""
    cards = deal_cards(deal)
    base_card = cards[13]
    foundations = [0, 0, 0, 0]
    foundations[SUITS.index(base_card[1])] = 1
    pos = Position(
        options=tuple(option for option in KNOWN_OPTIONS if option in options),
        base=rank_of(base_card),
        reserve=tuple(cards[0:13]),
        foundations=(foundations[0], foundations[1], foundations[2], foundations[3]),
        piles=tuple((card,) for card in cards[14:18]),
        waste=(),
        stock=tuple(cards[18:]),
        pass_number=1,
        offered=True,
    )
    return replace(pos, offered=has_card_move(pos))


def score(pos: Position) -> int:
    return sum(pos.foundations)


def is_won(pos: Position) -> bool:
    return score(pos) == 52


def goes_up(pos: Position, card: str) -> bool:
    """The card is the next one its suit's foundation needs (a base-rank card starts one)."""
    have = pos.foundations[SUITS.index(card[1])]
    if have == 13:
        return False
    needed = (pos.base - 1 + have) % 13 + 1
    return rank_of(card) == needed


def foundation_cards(pos: Position) -> list[str]:
    cards = []
    for suit, count in zip(SUITS, pos.foundations, strict=True):
        cards += [RANKS[(pos.base - 1 + k) % 13] + suit for k in range(count)]
    return cards


def all_cards(pos: Position) -> list[str]:
    cards = list(pos.reserve) + foundation_cards(pos) + list(pos.waste) + list(pos.stock)
    for pile in pos.piles:
        cards += pile
    return cards


def lengths_onto(pos: Position, pile: tuple[str, ...], destination: tuple[str, ...]) -> list[int]:
    """How many cards from the top of a tableau ``pile`` may move onto a non-empty ``destination``."""
    top = destination[-1]
    if "partial-moves" not in pos.options:
        return [len(pile)] if builds_on(top, pile[0]) else []
    run = 1  # the properly built run at the top of the pile
    while run < len(pile) and builds_on(pile[-run - 1], pile[-run]):
        run += 1
    return [n for n in range(1, run + 1) if builds_on(top, pile[-n])]


@functools.lru_cache(maxsize=4096)
def card_tokens(pos: Position) -> frozenset[str]:
    """Every legal move but the turn of the stock (memoised: positions are immutable)."""
    tokens: set[str] = set()
    singles = [("r", pos.reserve), ("w", pos.waste)]
    for name, pile in singles + [(str(i + 1), p) for i, p in enumerate(pos.piles)]:
        if pile and goes_up(pos, pile[-1]):
            tokens.add(name + "f")
    for j, destination in enumerate(pos.piles, start=1):
        for name, pile in singles:
            if not pile:
                continue
            if destination and builds_on(destination[-1], pile[-1]):
                tokens.add(f"{name}{j}")
            if not destination and name == "w" and not pos.reserve:
                tokens.add(f"w{j}")
        for i, pile in enumerate(pos.piles, start=1):
            if i == j or not pile or not destination:
                continue
            lengths = lengths_onto(pos, pile, destination)
            if len(lengths) == 1:
                tokens.add(f"{i}{j}")
            else:
                tokens.update(f"{i}{j}:{n}" for n in lengths)
    return frozenset(tokens)


def has_card_move(pos: Position) -> bool:
    return bool(card_tokens(pos))


def can_turn(pos: Position) -> bool:
    if pos.stock:
        return True
    limit = pass_limit(pos)
    return bool(pos.waste) and (limit is None or pos.pass_number < limit) and pos.offered


def legal_tokens(pos: Position) -> set[str]:
    tokens = set(card_tokens(pos))
    if can_turn(pos):
        tokens.add("d")
    return tokens


TOKEN = re.compile(r"(d)|([1-4rw])f|([1-4rw])([1-4])(?::(\d+))?")


def take(pos: Position, source: str, n: int) -> tuple[tuple[str, ...], Position]:
    """Lift the top ``n`` cards of a pile; a tableau pile left empty takes the reserve's top card."""
    if source == "r":
        return pos.reserve[-n:], replace(pos, reserve=pos.reserve[:-n])
    if source == "w":
        return pos.waste[-n:], replace(pos, waste=pos.waste[:-n])
    index = int(source) - 1
    pile = pos.piles[index]
    lifted, rest = pile[-n:], pile[:-n]
    reserve = pos.reserve
    if not rest and reserve:
        rest, reserve = reserve[-1:], reserve[:-1]
    piles = list(pos.piles)
    piles[index] = rest
    return lifted, replace(pos, piles=tuple(piles), reserve=reserve)


def apply_token(pos: Position, token: str) -> Position:
    """Play one canonical token and return the new position."""
    if token not in legal_tokens(pos):
        raise ValueError(f"illegal or non-canonical move {token!r}")
    match = TOKEN.fullmatch(token)
    assert match is not None, token
    turn, up, source, target, count = match.groups()
    if turn:
        if pos.stock:
            n = min(draw_count(pos), len(pos.stock))
            after = replace(pos, waste=pos.waste + pos.stock[:n], stock=pos.stock[n:])
            return replace(after, offered=pos.offered or has_card_move(after))
        after = replace(pos, stock=pos.waste, waste=(), pass_number=pos.pass_number + 1)
        return replace(after, offered=has_card_move(after))
    if up:
        (card,), after = take(pos, up, 1)
        foundations = list(after.foundations)
        foundations[SUITS.index(card[1])] += 1
        return replace(after, foundations=(foundations[0], foundations[1], foundations[2], foundations[3]),
                       offered=True)
    j = int(target) - 1
    if count is not None:
        n = int(count)
    elif source in "rw":
        n = 1
    else:
        (n,) = lengths_onto(pos, pos.piles[int(source) - 1], pos.piles[j])
    lifted, after = take(pos, source, n)
    piles = list(after.piles)
    piles[j] = piles[j] + lifted
    return replace(after, piles=tuple(piles), offered=True)


def position_text(pos: Position, *, hide_stock: bool = False) -> str:
    """The position text of docs/canfield.md."""

    def line(label: str, cards: tuple[str, ...] | list[str]) -> str:
        return f"{label}: {' '.join(cards)}" if cards else f"{label}:"

    tops = [
        RANKS[(pos.base - 1 + count - 1) % 13] + suit if count else "-"
        for suit, count in zip(SUITS, pos.foundations, strict=True)
    ]
    stock = line("S", pos.stock)
    if hide_stock and pos.pass_number == 1 and pos.stock:
        stock = f"S: ?{len(pos.stock)}"
    reserve = line("R", pos.reserve)
    if hide_stock and len(pos.reserve) > 1:  # a player sees the reserve's top card only
        reserve = f"R: ?{len(pos.reserve) - 1} {pos.reserve[-1]}"
    return "\n".join([
        " ".join(("canfield", *pos.options)),
        reserve,
        line("F", tops),
        f"B: {RANKS[pos.base - 1]}",
        *(line(str(i + 1), pile) for i, pile in enumerate(pos.piles)),
        line("W", pos.waste),
        stock,
        f"P: {pos.pass_number}" + ("" if pos.offered else " idle"),
    ])
