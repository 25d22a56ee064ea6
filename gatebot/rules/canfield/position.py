"""Canfield's position text (docs/canfield.md): reading it line by line, and writing it.

Reading checks the invariants :mod:`gatebot.rules.canfield` keeps: every tableau pile a
properly built run (by the keys of :mod:`gatebot.rules.canfield.checks`), no empty pile
while the reserve holds a card.
"""

from __future__ import annotations

import re
from itertools import pairwise
from typing import TYPE_CHECKING

from gatebot.messages import _
from gatebot.rules.canfield.checks import KEY, PILE_NAMES, SUIT_NAMES, TAKES
from gatebot.rules.cards import CARD_TEXT, RANK_LETTERS
from gatebot.rules.errors import PositionError, quoted
from gatebot.rules.position import CardClaims, check_line_count, parse_pile_line, read_number

if TYPE_CHECKING:
    from gatebot.rules.canfield import CanfieldGame

#: The word on the ``P:`` line of a pass in which no card could move at any point so far.
IDLE = "idle"
_HIDDEN_COUNT = re.compile(r"\?([0-9]+)")
_PASS_NUMBER = re.compile(r"[0-9]+")


def read_position(game: CanfieldGame, lines: list[str]) -> None:
    """Set up ``game``, just made with its options, from the position's lines after the first.

    Each refusal is a :class:`PositionError` naming the line to fix.
    """
    labels = ["R", "F", "B", *PILE_NAMES, "W", "S", "P"]
    check_line_count(game.title, labels, lines)
    claim = CardClaims()
    seen = claim.seen

    reserve_hidden = 0
    head, colon, rest = lines[0].partition(":")
    words = rest.split()
    if colon and words and (hidden := _HIDDEN_COUNT.fullmatch(words[0])):
        reserve_hidden = read_number(hidden.group(1), "R", _("a count of unseen cards"))
        if len(words) != 2:
            raise PositionError(
                _("Line R: write a reserve with unseen cards as ?n then its face-up top card, like R: ?12 7H")
            )
        lines = [f"{head}: {words[1]}", *lines[1:]]
    numbered = {label: (line, number) for number, (line, label) in enumerate(zip(lines, labels, strict=True), 2)}
    game._base = _parse_base(*numbered["B"])
    parsed = {
        label: parse_pile_line(line, label, number)
        for label, (line, number) in numbered.items()
        if label not in ("B", "P")
    }
    game._reserve = claim(parsed["R"].cards, "R")
    foundation = parsed["F"]
    if foundation.hidden is not None or len(foundation.slots) != 4:
        raise PositionError(_("Line F: give four foundation tops in suit order C D H S, - for empty"))
    for suit, top in enumerate(foundation.slots):
        if top is None:
            continue
        if top & 3 != suit:
            raise PositionError(_("Line {label}: {card} is in the {suit} place; foundations are listed in the order "
                                  "C D H S", label="F", card=CARD_TEXT[top], suit=SUIT_NAMES[suit]))
        count = ((top >> 2) - game._base) % 13 + 1
        claim([((game._base + k) % 13) * 4 + suit for k in range(count)], "F")
        game._foundations[suit] = count
    for i, label in enumerate(PILE_NAMES):
        pile = claim(parsed[label].cards, label)
        for lower, upper in pairwise(pile):
            if TAKES[lower] != KEY[upper]:
                raise PositionError(_("Line {label}: {card} can't lie on {under}: tableau piles are built down in "
                                      "alternating colours", label=label, card=CARD_TEXT[upper],
                                      under=CARD_TEXT[lower]))
        if not pile and game._reserve:
            raise PositionError(_("Line {label}: the pile is empty while the reserve holds cards, but the reserve "
                                  "fills an emptied pile at once", label=label))
        game._piles[i] = pile
    game._waste = claim(parsed["W"].cards, "W")
    stock = parsed["S"]
    if stock.hidden is None:
        game._stock = claim(stock.cards, "S")[::-1]
    if stock.hidden is not None or reserve_hidden:
        missing = sorted(set(range(52)).difference(seen))
        unseen = (stock.hidden or 0) + reserve_hidden
        if len(missing) != unseen:
            if stock.hidden is None:
                message = _("Line R: the reserve to hide {hidden} unseen cards, but {missing} cards are missing "
                            "from the other lines", hidden=reserve_hidden, missing=len(missing))
            elif reserve_hidden:
                message = _("Line S: the reserve to hide {hidden} and the stock to hold {held} unseen cards, but "
                            "{missing} cards are missing from the other lines", hidden=reserve_hidden,
                            held=stock.hidden, missing=len(missing))
            else:
                message = _("Line S: the stock to hold {held} unseen cards, but {missing} cards are missing from "
                            "the other lines", held=stock.hidden, missing=len(missing))
            raise PositionError(message)
        game._reserve = claim(missing[:reserve_hidden], "R") + game._reserve
        game._reserve_hidden = reserve_hidden
        if stock.hidden is not None:
            game._stock = claim(missing[reserve_hidden:], "S")
            game._stock_hidden = bool(stock.hidden)
    if len(seen) != 52:
        missing_text = " ".join(CARD_TEXT[c] for c in range(52) if c not in seen)
        raise PositionError(_("The position is missing {count} cards ({cards}): each card appears once, and cards "
                              "not on the table belong on the S: line", count=52 - len(seen), cards=missing_text))
    game._pass, idle = _parse_pass(*numbered["P"])
    if game._pass_limit is not None and game._pass > game._pass_limit:
        if game._pass_limit == 1:
            message = _("Line P: pass {number}, but this game allows one pass through the stock", number=game._pass)
        else:
            message = _("Line P: pass {number}, but this game allows {limit} passes through the stock",
                        number=game._pass, limit=game._pass_limit)
        raise PositionError(message)
    if idle and game._has_card_move():
        raise PositionError(_("Line P: says no card could move this pass ({idle}), but a card can move in this "
                              "position", idle=IDLE))
    game._offered = not idle


def write_position(game: CanfieldGame, *, hide_stock: bool = False) -> str:
    """The position text of ``game``; ``hide_stock`` writes what a player sees (see the docs).

    That is the reserve as ``R: ?n`` and its top card, and the stock as ``S: ?n`` in the first pass only.
    """

    def pile(label: str, cards: list[int]) -> str:
        return f"{label}:" + "".join(" " + CARD_TEXT[c] for c in cards)

    unseen = len(game._reserve) - 1 if hide_stock or game._reserve_hidden else 0
    lines = [
        " ".join((game.name, *game.options)),
        f"R: ?{unseen} {CARD_TEXT[game._reserve[-1]]}" if unseen > 0 else pile("R", game._reserve),
        "F: " + " ".join(
            CARD_TEXT[game._foundation_top(suit)] if count else "-"
            for suit, count in enumerate(game._foundations)
        ),
        f"B: {RANK_LETTERS[game._base]}",
        *(pile(name, cards) for name, cards in zip(PILE_NAMES, game._piles, strict=True)),
        pile("W", game._waste),
    ]
    if game._stock and (game._stock_hidden or (hide_stock and game._pass == 1)):
        lines.append(f"S: ?{len(game._stock)}")
    else:
        lines.append(pile("S", game._stock[::-1]))
    lines.append(f"P: {game._pass}" + ("" if game._offered else f" {IDLE}"))
    return "\n".join(lines)


def _parse_base(line: str, number: int) -> int:
    head, colon, rest = line.partition(":")
    if not colon or head.strip().upper() != "B":
        raise PositionError(_("Line {number} should start with {label}: but reads {line}", number=number,
                              label="B", line=quoted(line)))
    word = rest.strip().upper()
    word = "T" if word == "10" else word
    if len(word) != 1 or word not in RANK_LETTERS:
        raise PositionError(_("Line B: give the base rank, one of A 2 3 4 5 6 7 8 9 T J Q K, not {given}",
                              given=quoted(rest.strip())))
    return RANK_LETTERS.index(word)


def _parse_pass(line: str, number: int) -> tuple[int, bool]:
    head, colon, rest = line.partition(":")
    if not colon or head.strip().upper() != "P":
        raise PositionError(_("Line {number} should start with {label}: but reads {line}", number=number,
                              label="P", line=quoted(line)))
    words = rest.split()
    number_given = 1 <= len(words) <= 2 and _PASS_NUMBER.fullmatch(words[0])
    pass_number = read_number(words[0], "P", _("a pass number")) if number_given else 0
    if pass_number < 1 or (len(words) == 2 and words[1].lower() != IDLE):
        raise PositionError(_("Line P: give the pass number, from 1, then {idle} if no card could move this pass so "
                              "far (like 'P: 2' or 'P: 2 {word}'), not {given}", idle=repr(IDLE), word=IDLE,
                              given=quoted(rest.strip())))
    return pass_number, len(words) == 2
