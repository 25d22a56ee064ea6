"""A deliberately simple reference model of the Gate rules, for differential tests only.

Written from ``docs/rules.md`` alone, independently of ``gatebot.rules``, so that
the fast engine and this model can be checked against each other ("two implementations
must agree"). Clarity beats speed here: positions are immutable, legal moves are found by
trying every source against every destination, and every move played is first checked
against that legal-move set (memoised per position, the only concession to speed besides a
table of which card builds on which).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, replace

RANKS = "A23456789TJQK"
SUITS = "CDHS"
RED_SUITS = "DH"
COLUMN_COUNTS = {"gate": 8, "little-gate": 4}
KNOWN_OPTIONS = ("single-moves", "stock-fill")  # canonical order in the position text
RESERVE_DEAL = 10  # c0..c9 go to the reserves
RANK_VALUE = {rank: value for value, rank in enumerate(RANKS, start=1)}


def rank_of(card: str) -> int:
    """Rank of a card as a number, Ace = 1 ... King = 13."""
    return RANK_VALUE[card[0]]


def suit_of(card: str) -> str:
    """Suit letter of a card."""
    return card[1]


def is_red(card: str) -> bool:
    """True for diamonds and hearts."""
    return suit_of(card) in RED_SUITS


def full_deck() -> list[str]:
    """The deck in section 2 order: AC AD AH AS 2C ... KS."""
    return [rank + suit for rank in RANKS for suit in SUITS]


def deal_cards(n: int) -> list[str]:
    """The dealt sequence c0..c51 of deal ``n`` (Microsoft FreeCell generator, section 2)."""
    if not 1 <= n <= 2**32 - 1:
        raise ValueError(f"deal number out of range: {n}")
    deck = full_deck()
    state = n
    dealt = []
    for left in range(52, 0, -1):
        state = (state * 214013 + 2531011) % 2**32
        rand = (state >> 16) & 0x7FFF
        j = rand % left
        dealt.append(deck[j])
        deck[j] = deck[left - 1]
    return dealt


@dataclass(frozen=True)
class Position:
    """One Gate position; every pile is a tuple listed bottom to top (stock: draw order)."""

    variant: str
    options: tuple[str, ...]
    left: tuple[str, ...]
    right: tuple[str, ...]
    foundations: tuple[int, int, int, int]  # cards on each foundation, suits C D H S
    columns: tuple[tuple[str, ...], ...]
    waste: tuple[str, ...]
    stock: tuple[str, ...]  # stock[0] is the next card drawn


def normalise_options(options: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """Validate option names and put them in canonical order."""
    for option in options:
        if option not in KNOWN_OPTIONS:
            raise ValueError(f"unknown option: {option!r}")
    return tuple(option for option in KNOWN_OPTIONS if option in options)


def new_position(variant: str, deal: int, options: tuple[str, ...] = ()) -> Position:
    """The starting position of ``deal`` in ``variant``, laid out per section 2."""
    if variant not in COLUMN_COUNTS:
        raise ValueError(f"unknown variant: {variant!r}")
    cards = deal_cards(deal)
    n_columns = COLUMN_COUNTS[variant]
    reserve_cards = cards[:RESERVE_DEAL]
    column_cards = cards[RESERVE_DEAL : RESERVE_DEAL + n_columns]
    return Position(
        variant=variant,
        options=normalise_options(options),
        left=tuple(reserve_cards[0::2]),
        right=tuple(reserve_cards[1::2]),
        foundations=(0, 0, 0, 0),
        columns=tuple((card,) for card in column_cards),
        waste=(),
        stock=tuple(cards[RESERVE_DEAL + n_columns :]),
    )


def score(pos: Position) -> int:
    """Number of cards on the foundations."""
    return sum(pos.foundations)


def is_won(pos: Position) -> bool:
    """All 52 cards are on the foundations."""
    return score(pos) == 52


def foundation_cards(pos: Position) -> list[str]:
    """Every card on the foundations (each foundation holds Ace up to its top)."""
    return [RANKS[r] + suit for suit, count in zip(SUITS, pos.foundations, strict=True) for r in range(count)]


def all_cards(pos: Position) -> list[str]:
    """Every card of the position, wherever it lies (for conservation checks)."""
    cards = list(pos.left) + list(pos.right) + foundation_cards(pos)
    for column in pos.columns:
        cards += column
    return cards + list(pos.waste) + list(pos.stock)


# ---------------------------------------------------------------- legal moves


def fits_foundation(pos: Position, card: str) -> bool:
    """A card goes to its foundation when it is the next rank up in its suit."""
    return pos.foundations[SUITS.index(suit_of(card))] == rank_of(card) - 1


def builds_on(lower: str, upper: str) -> bool:
    """``upper`` may lie on ``lower`` in a column: one rank lower, the other colour."""
    return rank_of(upper) == rank_of(lower) - 1 and is_red(upper) != is_red(lower)


# The same relation as a table, for speed in the inner loop of legal_tokens.
BUILD_PAIRS = frozenset(
    (lower, upper) for lower in full_deck() for upper in full_deck() if builds_on(lower, upper)
)


def top_run_length(column: tuple[str, ...]) -> int:
    """Length of the longest properly built run ending at the column's top card."""
    if not column:
        return 0
    length = 1
    while length < len(column) and builds_on(column[-length - 1], column[-length]):
        length += 1
    return length


def source_piles(pos: Position) -> list[tuple[str, tuple[str, ...]]]:
    """Every pile a card can be taken from, with its one-character name."""
    piles = [(str(i + 1), column) for i, column in enumerate(pos.columns)]
    return [*piles, ("l", pos.left), ("r", pos.right), ("w", pos.waste)]


def movable_lengths(pos: Position, name: str, pile: tuple[str, ...]) -> list[int]:
    """How many cards may be lifted from a pile: runs from columns, else the top card."""
    if not pile:
        return []
    if name.isdigit() and "single-moves" not in pos.options:
        return list(range(1, top_run_length(pile) + 1))
    return [1]


def accepts(destination: tuple[str, ...], deepest: str) -> bool:
    """A column accepts a run whose deepest card builds on its top; a free space any."""
    return not destination or (destination[-1], deepest) in BUILD_PAIRS


def legal_lengths(pos: Position, source: str, pile: tuple[str, ...], target: int) -> list[int]:
    """Every legal run length from pile ``source`` (holding ``pile``) onto column ``target``."""
    if source == str(target):
        return []
    destination = pos.columns[target - 1]
    return [n for n in movable_lengths(pos, source, pile) if accepts(destination, pile[-n])]


def legal_tokens(pos: Position) -> set[str]:
    """Every legal move of the position, in the canonical notation of section 5."""
    return set(_legal_tokens(pos))


@functools.lru_cache(maxsize=4096)
def _legal_tokens(pos: Position) -> frozenset[str]:
    """legal_tokens, memoised (positions are immutable) so apply_token's check is cheap."""
    tokens: set[str] = set()
    if pos.stock:
        tokens.add("d")
    sources = [(name, pile, movable_lengths(pos, name, pile)) for name, pile in source_piles(pos) if pile]
    for name, pile, _lengths in sources:
        if fits_foundation(pos, pile[-1]):
            tokens.add(name + "f")
    for target, destination in enumerate(pos.columns, start=1):
        for name, pile, movable in sources:
            if name == str(target):
                continue
            lengths = [n for n in movable if accepts(destination, pile[-n])]
            if len(lengths) == 1:
                tokens.add(f"{name}{target}")
            elif lengths:
                tokens.update(f"{name}{target}:{n}" for n in lengths)
    return frozenset(tokens)


# ---------------------------------------------------------------- playing moves


def take_fill_card(pos: Position) -> tuple[str | None, Position]:
    """The card that fills a just-emptied column (section 3), and the position without it."""
    if pos.left or pos.right:
        if len(pos.left) >= len(pos.right):
            return pos.left[-1], replace(pos, left=pos.left[:-1])
        return pos.right[-1], replace(pos, right=pos.right[:-1])
    if pos.waste:
        return pos.waste[-1], replace(pos, waste=pos.waste[:-1])
    if "stock-fill" in pos.options and pos.stock:
        return pos.stock[0], replace(pos, stock=pos.stock[1:])
    return None, pos


def with_column(pos: Position, index: int, column: tuple[str, ...]) -> Position:
    """A copy of the position with column ``index`` (0-based) replaced."""
    columns = list(pos.columns)
    columns[index] = column
    return replace(pos, columns=tuple(columns))


def remove_from_source(pos: Position, source: str, n: int) -> tuple[tuple[str, ...], Position]:
    """Lift the top ``n`` cards of a pile; fill the column if that empties it."""
    if source == "l":
        return pos.left[-n:], replace(pos, left=pos.left[:-n])
    if source == "r":
        return pos.right[-n:], replace(pos, right=pos.right[:-n])
    if source == "w":
        return pos.waste[-n:], replace(pos, waste=pos.waste[:-n])
    index = int(source) - 1
    column = pos.columns[index]
    moved, rest = column[-n:], column[:-n]
    pos = with_column(pos, index, rest)
    if not rest:
        card, pos = take_fill_card(pos)
        if card is not None:
            pos = with_column(pos, index, (card,))
    return moved, pos


TOKEN_RE = re.compile(r"^(?:(d)|([1-8lrw])f|([1-8lrw])([1-8])(?::([1-9][0-9]*))?)$")


def apply_token(pos: Position, token: str) -> Position:
    """Play one canonical token and return the new position (the input is not changed)."""
    if token not in legal_tokens(pos):
        raise ValueError(f"illegal or non-canonical move {token!r}")
    match = TOKEN_RE.match(token)
    assert match is not None, token
    draw, to_foundation, source, target, count = match.groups()
    if draw:
        return replace(pos, stock=pos.stock[1:], waste=pos.waste + pos.stock[:1])
    if to_foundation:
        (card,), pos = remove_from_source(pos, to_foundation, 1)
        foundations = list(pos.foundations)
        foundations[SUITS.index(suit_of(card))] += 1
        return replace(pos, foundations=tuple(foundations))
    if count is None:
        pile = dict(source_piles(pos))[source]
        (n,) = legal_lengths(pos, source, pile, int(target))
    else:
        n = int(count)
    moved, pos = remove_from_source(pos, source, n)
    index = int(target) - 1
    return with_column(pos, index, pos.columns[index] + moved)


# ---------------------------------------------------------------- position text


def foundation_text(pos: Position) -> str:
    """The ``F:`` line body: each foundation's top card, ``-`` if empty."""
    return " ".join(
        RANKS[count - 1] + suit if count else "-" for suit, count in zip(SUITS, pos.foundations, strict=True)
    )


def pile_line(label: str, cards: tuple[str, ...] | str) -> str:
    """One line of the position text; an empty pile has nothing after the colon."""
    body = cards if isinstance(cards, str) else " ".join(cards)
    return f"{label}: {body}" if body else f"{label}:"


def position_text(pos: Position) -> str:
    """The position text of section 6 (stock listed), lines joined by newlines."""
    lines = [
        " ".join((pos.variant, *pos.options)),
        pile_line("L", pos.left),
        pile_line("R", pos.right),
        pile_line("F", foundation_text(pos)),
    ]
    lines += [pile_line(str(i + 1), column) for i, column in enumerate(pos.columns)]
    lines += [pile_line("W", pos.waste), pile_line("S", pos.stock)]
    return "\n".join(lines)


def parse_card(text: str) -> str:
    """Read one card (case-insensitive, ``10`` accepted for ``T``)."""
    text = text.upper()
    if text.startswith("10"):
        text = "T" + text[2:]
    if len(text) != 2 or text[0] not in RANKS or text[1] not in SUITS:
        raise ValueError(f"not a card: {text!r}")
    return text


def parse_position_text(text: str) -> Position:
    """Read the position text of section 6 (stock fully listed) into a Position."""
    lines = [line.strip() for line in text.strip().splitlines()]
    header = lines[0].split()
    variant, options = header[0], tuple(header[1:])
    if variant not in COLUMN_COUNTS:
        raise ValueError(f"line 1: unknown variant {variant!r}")
    labels = ["L", "R", "F"] + [str(i + 1) for i in range(COLUMN_COUNTS[variant])] + ["W", "S"]
    if len(lines) != len(labels) + 1:
        raise ValueError(f"expected {len(labels) + 1} lines, got {len(lines)}")
    piles: dict[str, list[str]] = {}
    for number, (label, line) in enumerate(zip(labels, lines[1:], strict=True), start=2):
        head, colon, body = line.partition(":")
        if not colon or head.strip().upper() != label:
            raise ValueError(f"line {number}: expected '{label}:'")
        piles[label] = body.split()
    if len(piles["F"]) != 4:
        raise ValueError("F line: needs four entries")
    foundations = []
    for suit, word in zip(SUITS, piles["F"], strict=True):
        if word == "-":
            foundations.append(0)
            continue
        card = parse_card(word)
        if suit_of(card) != suit:
            raise ValueError(f"F line: {card} is not a {suit} card")
        foundations.append(rank_of(card))

    def cards(label: str) -> tuple[str, ...]:
        return tuple(parse_card(word) for word in piles[label])

    pos = Position(
        variant=variant,
        options=normalise_options(options),
        left=cards("L"),
        right=cards("R"),
        foundations=(foundations[0], foundations[1], foundations[2], foundations[3]),
        columns=tuple(cards(str(i + 1)) for i in range(COLUMN_COUNTS[variant])),
        waste=cards("W"),
        stock=cards("S"),
    )
    found = all_cards(pos)
    if sorted(found) != sorted(full_deck()):
        raise ValueError("position does not hold each of the 52 cards exactly once")
    return pos
