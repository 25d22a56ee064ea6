"""Reading the pile lines of the position text (docs/rules.md#position-text), shared by every variant."""

from __future__ import annotations

import re
from dataclasses import dataclass

from gatebot.messages import _
from gatebot.rules.cards import CARD_TEXT, parse_card
from gatebot.rules.errors import NotationError, PositionError, clipped, quoted

_HIDDEN = re.compile(r"\?([0-9]+)")
#: The most words a pile line may hold: more than any game's cards, so a longer line is refused
#: before each word is read as a card.
MAX_PILE_WORDS = 104
#: The most significant digits a number in the position text may have (a ``?n`` count, a pass
#: number); a longer run is refused before ``int()`` reads it, which Python refuses past 4,300.
MAX_NUMBER_DIGITS = 6


def read_number(digits: str, label: str, what: str) -> int:
    """The number a run of ASCII digits on line ``label`` names; refused if too long to be ``what``.

    ``what`` is a marked phrase (``_("a count of unseen cards")``), said in the reader's language.
    """
    significant = digits.lstrip("0")
    if len(significant) > MAX_NUMBER_DIGITS:
        raise PositionError(_("Line {label}: {number} is too big a number for {what}", label=label,
                              number=clipped(digits), what=what))
    return int(significant or "0")


def check_line_count(title: str, labels: list[str], lines: list[str]) -> None:
    """Refuse a position whose line count isn't the variant's line, then one line per label."""
    if len(lines) != len(labels):
        expected = ", ".join(label + ":" for label in labels)
        if title[:1] in "AEIOU":
            message = _("An {game} position has {lines} lines (the variant, then {labels}); this one has {given}",
                        game=title, lines=len(labels) + 1, labels=expected, given=len(lines) + 1)
        else:
            message = _("A {game} position has {lines} lines (the variant, then {labels}); this one has {given}",
                        game=title, lines=len(labels) + 1, labels=expected, given=len(lines) + 1)
        raise PositionError(message)


class CardClaims:
    """The cards a position's lines have named so far, so a card named twice is refused by line."""

    def __init__(self) -> None:
        self.seen: dict[int, str] = {}

    def __call__(self, cards: list[int], label: str) -> list[int]:
        """``cards``, after checking no earlier line named one of them."""
        for card in cards:
            if card in self.seen:
                raise PositionError(_("Line {label}: {card} is already on line {other}: each card appears once",
                                      label=label, card=CARD_TEXT[card], other=self.seen[card]))
            self.seen[card] = label
        return cards


@dataclass(frozen=True, slots=True)
class PileLine:
    """One parsed ``X: …`` line: its cards, or foundation slots, or a hidden-card count."""

    cards: list[int]
    slots: tuple[int | None, ...]
    hidden: int | None


def parse_pile_line(line: str, label: str, number: int) -> PileLine:
    """Parse ``label: cards…``; ``-`` stands for an empty slot and ``?n`` for n unseen cards.

    Errors name the line (by its label and number) so a pasted position can be fixed.
    """
    head, colon, rest = line.partition(":")
    if not colon or head.strip().upper() != label:
        raise PositionError(_("Line {number} should start with {label}: but reads {line}", number=number,
                              label=label, line=quoted(line)))
    words = rest.split()
    if len(words) > MAX_PILE_WORDS:
        raise PositionError(_("Line {label}: {entries} entries are more than any line holds (a game has {most} "
                              "cards at most)", label=label, entries=format(len(words), ","), most=MAX_PILE_WORDS))
    if len(words) == 1 and (hidden := _HIDDEN.fullmatch(words[0])):
        if label != "S":
            raise PositionError(_("Line {label}: only the stock (S:) may be written as ?n unseen cards", label=label))
        return PileLine([], (), read_number(hidden.group(1), label, _("a count of unseen cards")))
    slots: list[int | None] = []
    for word in words:
        if word == "-":
            slots.append(None)
            continue
        try:
            slots.append(parse_card(word))
        except NotationError:
            raise PositionError(_("Line {label}: {word} is not a card (write cards like 7H or TD)", label=label,
                                  word=quoted(word))) from None
    cards = [card for card in slots if card is not None]
    if label != "F" and len(cards) != len(slots):
        raise PositionError(_("Line {label}: '-' only marks an empty foundation on the F: line", label=label))
    return PileLine(cards, tuple(slots), None)
