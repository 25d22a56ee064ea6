"""Playing cards: ranks, suits, the card value type and the text forms of a card.

Inside the engine a card is a plain ``int`` index, ``(rank - 1) * 4 + suit`` with suits in
the order C D H S (the order docs/rules.md#deal-numbers numbers deals in), because list and table
look-ups on ints keep move generation fast. :class:`Card` is the public value type.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import IntEnum

from gatebot.messages import NP_, _
from gatebot.rules.errors import NotationError, quoted

RANK_LETTERS = "A23456789TJQK"
RANK_NAMES = (
    "ace", "two", "three", "four", "five", "six", "seven",
    "eight", "nine", "ten", "jack", "queen", "king",
)


class Suit(IntEnum):
    """The four suits, numbered in the order deals and foundations use."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        return "CDHS"[self]

    @property
    def symbol(self) -> str:
        return "♣♦♥♠"[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.DIAMONDS, Suit.HEARTS)


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One card; ``str()`` is the position-text form (``7H``), :attr:`pretty` uses ``♥``."""

    rank: int
    suit: Suit

    def __post_init__(self) -> None:
        if not 1 <= self.rank <= 13:
            raise ValueError(f"rank must be 1..13, not {self.rank}")

    @classmethod
    def from_index(cls, index: int) -> Card:
        return CARDS[index]

    @classmethod
    def from_text(cls, text: str) -> Card:
        return CARDS[parse_card(text)]

    @property
    def index(self) -> int:
        return (self.rank - 1) * 4 + self.suit

    @property
    def is_red(self) -> bool:
        return self.suit.is_red

    @property
    def pretty(self) -> str:
        return CARD_PRETTY[self.index]

    def __str__(self) -> str:
        return CARD_TEXT[self.index]

    def __repr__(self) -> str:
        return f"Card.from_text({CARD_TEXT[self.index]!r})"


def _text(index: int) -> str:
    return RANK_LETTERS[index >> 2] + "CDHS"[index & 3]


def _pretty(index: int) -> str:
    rank = index >> 2
    return ("10" if rank == 9 else RANK_LETTERS[rank]) + "♣♦♥♠"[index & 3]


CARDS: tuple[Card, ...] = tuple(Card(i // 4 + 1, Suit(i % 4)) for i in range(52))
#: Position-text form of each card index (``"TD"``).
CARD_TEXT: tuple[str, ...] = tuple(_text(i) for i in range(52))
#: Player-facing form of each card index (``"10♦"``).
CARD_PRETTY: tuple[str, ...] = tuple(_pretty(i) for i in range(52))


class CardWord(str):
    """A card named in a sentence: it reads as its symbol (``10♦``) and remembers which card it is.

    A refusal passes one as a :class:`~gatebot.messages.Text` parameter, so a front end can
    name the card in its reader's language (German: "Karo-10") while English keeps the symbol.
    """

    code: int

    def __new__(cls, code: int) -> CardWord:
        word = super().__new__(cls, CARD_PRETTY[code])
        word.code = code
        return word

    def __reduce__(self) -> tuple[type[CardWord], tuple[int]]:
        return CardWord, (self.code,)


#: Each card index as a sentence names it (:class:`CardWord`).
CARD_WORDS: tuple[CardWord, ...] = tuple(CardWord(i) for i in range(52))


class RankWord(str):
    """A rank named in a sentence: it reads as its letter (``J``, ``10``), and a front end may name it in words.

    German says "Bube" where English keeps the letter, as with a :class:`CardWord`.
    """

    rank: int

    def __new__(cls, rank: int) -> RankWord:
        word = super().__new__(cls, "10" if rank == 9 else RANK_LETTERS[rank])
        word.rank = rank
        return word

    def __reduce__(self) -> tuple[type[RankWord], tuple[int]]:
        return RankWord, (self.rank,)


#: A card that a pile takes, by rank (ace first) then black and red, as a refusal names it in
#: words: "it takes a black J" in English (which keeps the letter) is "darauf passt ein
#: schwarzer Bube" in German, whose article and adjective follow each rank's gender.
WANTED_NAMES: tuple[tuple[str, str], ...] = (
    (NP_("a card a pile takes", "a black ace"), NP_("a card a pile takes", "a red ace")),
    (NP_("a card a pile takes", "a black two"), NP_("a card a pile takes", "a red two")),
    (NP_("a card a pile takes", "a black three"), NP_("a card a pile takes", "a red three")),
    (NP_("a card a pile takes", "a black four"), NP_("a card a pile takes", "a red four")),
    (NP_("a card a pile takes", "a black five"), NP_("a card a pile takes", "a red five")),
    (NP_("a card a pile takes", "a black six"), NP_("a card a pile takes", "a red six")),
    (NP_("a card a pile takes", "a black seven"), NP_("a card a pile takes", "a red seven")),
    (NP_("a card a pile takes", "a black eight"), NP_("a card a pile takes", "a red eight")),
    (NP_("a card a pile takes", "a black nine"), NP_("a card a pile takes", "a red nine")),
    (NP_("a card a pile takes", "a black ten"), NP_("a card a pile takes", "a red ten")),
    (NP_("a card a pile takes", "a black jack"), NP_("a card a pile takes", "a red jack")),
    (NP_("a card a pile takes", "a black queen"), NP_("a card a pile takes", "a red queen")),
    (NP_("a card a pile takes", "a black king"), NP_("a card a pile takes", "a red king")),
)


class WantedCard(str):
    """A card a pile takes, named by rank and colour in a sentence: ``a black J``, ``a red 10``.

    English reads it as here; a front end in another language says :data:`WANTED_NAMES`'
    phrase for it (German "ein schwarzer Bube", "eine rote Zehn"), article and all.
    """

    rank: int
    red: bool

    def __new__(cls, rank: int, red: bool) -> WantedCard:
        word = super().__new__(cls, f"a {'red' if red else 'black'} {RankWord(rank)}")
        word.rank, word.red = rank, red
        return word

    def __reduce__(self) -> tuple[type[WantedCard], tuple[int, bool]]:
        return WantedCard, (self.rank, self.red)

    @property
    def msgid(self) -> str:
        """The catalogue's id for this card in words (``a black jack``), context ``a card a pile takes``."""
        return WANTED_NAMES[self.rank][self.red]
#: Whether each card index is red.
RED: tuple[bool, ...] = tuple((i & 3) in (1, 2) for i in range(52))

_SUIT_INPUT = {
    "c": 0, "d": 1, "h": 2, "s": 3,
    "♣": 0, "♦": 1, "♥": 2, "♠": 3, "♧": 0, "♢": 1, "♡": 2, "♤": 3,
}
_RANK_INPUT = {letter.lower(): i for i, letter in enumerate(RANK_LETTERS)} | {"10": 9}
CARD_PATTERN = re.compile(r"(10|[2-9atjqk])([cdhs♣♦♥♠♧♢♡♤])", re.IGNORECASE)


def parse_card(text: str) -> int:
    """Read one card as a player may type it (``7h``, ``10d``, ``T♦``, ``qS``); return its index."""
    cleaned = text.strip().replace("\ufe0f", "")
    match = CARD_PATTERN.fullmatch(cleaned)
    if match is None:
        raise NotationError(
            _("{text} is not a card: write a rank and a suit, like 7H or 10♦", text=quoted(text.strip()))
        )
    rank = _RANK_INPUT[match.group(1).lower()]
    return rank * 4 + _SUIT_INPUT[match.group(2).lower()]
