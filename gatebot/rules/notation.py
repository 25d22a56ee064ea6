"""The move language players type, read in the context of a position.

Reading happens in two steps. :func:`split_phrases` cuts a line into phrases without
looking at the position (``d 3f w5`` is three phrases, ``3 to 7`` and ``7h 8s`` are one each);
a variant may add words and one-word moves of its own (``Game.pile_words``, ``Game.read_token``).
:func:`resolve` then turns one phrase into the single legal move it names in the current
position, or raises with the reason in game terms, because ``7h`` or ``3`` mean different
moves in different positions. Every accepted form is listed in docs/rules.md#typed-moves.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from itertools import islice
from typing import TYPE_CHECKING

from gatebot.messages import _, joined, n_
from gatebot.rules.cards import CARD_PATTERN, CARD_PRETTY, CARD_WORDS, parse_card
from gatebot.rules.errors import AmbiguousMove, IllegalMove, NotationError, quoted
from gatebot.rules.move import DRAW, FOUNDATION, Move, read_number

if TYPE_CHECKING:
    from gatebot.rules.game import Game

_DRAW_WORDS = frozenset({"d", "draw", "deal", "turn", "flip", "stock"})
_ARROW_WORDS = frozenset({">", "to", "onto", "on", "into"})
_FILLER_WORDS = frozenset({"move", "play", "put", "column", "col", "from", "the", "card", "cards", "top"})
_PILE_WORDS = {
    "left": "l", "right": "r", "waste": "w",
    "f": "f", "found": "f", "foundation": "f", "foundations": "f", "home": "f", "up": "f",
}
_PAIR = re.compile(r"([0-9]|[lrwf])([0-9]|[lrwf])(?::([0-9]+))?")
_SINGLE = re.compile(r"([0-9]+|[lrw])(?::([0-9]+))?")
_COUNT = re.compile(r":([0-9]+)")
_EXAMPLES = _("write moves like {examples} or a card like {card}", examples="d, 3f, w5, 3>7, 35:2", card="7h")
#: The longest line of moves read, in characters: far more than a whole game's moves take, and
#: short enough that reading (and playing) a line stays quick whatever is pasted.
MAX_LINE_LENGTH = 10_000


@dataclass(frozen=True, slots=True)
class Ref:
    """A place a player named: a pile by name, or a card (whose place the position decides)."""

    pile: str | None = None
    card: int | None = None

    def __str__(self) -> str:
        if self.card is not None:
            return CARD_PRETTY[self.card]
        return self.pile or ""


@dataclass(frozen=True, slots=True)
class Phrase:
    """One move as typed, before the position gives it a meaning."""

    text: str
    draw: bool = False
    source: Ref | None = None
    target: Ref | None = None
    count: int | None = None


def _normalise(text: str) -> list[str]:
    text = text.lower().replace("\ufe0f", "")
    for arrow in ("->", "=>", "→", "⇒", ">", "-"):
        text = text.replace(arrow, " > ")
    text = re.sub(r"[,;]", " ; ", text)
    return [word for word in text.split() if word not in _FILLER_WORDS]


def _ref(word: str, pile_words: Mapping[str, str] = _PILE_WORDS) -> tuple[Ref, int | None] | None:
    """Read one word as a single place (``3``, ``l``, ``waste``, ``7h``), maybe with ``:n``."""
    if word in pile_words:
        return Ref(pile=pile_words[word]), None
    if CARD_PATTERN.fullmatch(word):
        return Ref(card=parse_card(word)), None
    match = _SINGLE.fullmatch(word)
    if match:
        pile = str(read_number(match.group(1))) if match.group(1).isdigit() else match.group(1)
        return Ref(pile=pile), read_number(match.group(2)) if match.group(2) else None
    return None


def split_phrases(text: str, variant: type[Game] | None = None) -> Iterator[Phrase]:
    """Cut a typed line into move phrases, in order; raise :class:`NotationError` at an unreadable word.

    Phrases are produced lazily, so the moves before an unreadable word can still be played.
    ``variant`` adds its own words and one-word moves to Gate's. A line longer than
    :data:`MAX_LINE_LENGTH` is refused whole, before any of it is read.
    """
    if len(text) > MAX_LINE_LENGTH:
        raise NotationError(
            _("That line is {length} characters long: send moves at most {limit} characters at a time",
              length=format(len(text), ","), limit=format(MAX_LINE_LENGTH, ","))
        )
    pile_words = {**_PILE_WORDS, **variant.pile_words} if variant is not None else _PILE_WORDS
    examples = _("write moves like {examples}", examples=variant.move_examples) if variant is not None else _EXAMPLES
    words = _normalise(text)
    if not words:
        raise NotationError(_("There is no move in that: {examples}", examples=examples))
    i = 0
    while i < len(words):
        word = words[i]
        i += 1
        if word == ";":
            continue
        if word in _DRAW_WORDS:
            yield Phrase(word, draw=True)
            continue
        if word in _ARROW_WORDS:
            raise NotationError(
                _("{word} needs a card or a pile before it: {examples}", word=quoted(word), examples=examples)
            )
        if variant is not None and (token := variant.read_token(word)) is not None:
            yield Phrase(word, source=Ref(pile=token.source), target=Ref(pile=token.target), count=token.count)
            continue
        pair = None if CARD_PATTERN.fullmatch(word) else _PAIR.fullmatch(word)
        if pair:
            source_pile, target_pile, count_text = pair.groups()
            yield Phrase(word, source=Ref(pile=source_pile), target=Ref(pile=target_pile),
                         count=read_number(count_text) if count_text else None)
            continue
        read = _ref(word, pile_words)
        if read is None:
            raise NotationError(_("{word} isn't a move I know: {examples}", word=quoted(word), examples=examples))
        source, count = read
        phrase_words = [word]
        target = None
        arrow = i < len(words) and words[i] in _ARROW_WORDS
        if arrow:
            phrase_words.append(words[i])
            i += 1
        if i < len(words) and (next_read := _ref(words[i], pile_words)) is not None:
            target, target_count = next_read
            count = target_count if target_count is not None else count
            phrase_words.append(words[i])
            i += 1
        elif arrow:
            raise NotationError(
                _("{word} needs a place to go after it: {examples}", word=quoted(" ".join(phrase_words)),
                  examples=examples)
            )
        if i < len(words) and (counted := _COUNT.fullmatch(words[i])):
            count = read_number(counted.group(1))
            phrase_words.append(words[i])
            i += 1
        yield Phrase(" ".join(phrase_words), source=source, target=target, count=count)


def parse_move(game: Game, text: str) -> Move:
    """Read exactly one move from ``text`` in the context of ``game``; return it, legal and canonical.

    Reading stops at the second phrase: a line of many moves is refused without reading them all.
    """
    phrases = list(islice(split_phrases(text, type(game)), 2))
    if not phrases:
        raise NotationError(_("There is no move in that: {examples}",
                               examples=_("write moves like {examples}", examples=type(game).move_examples)))
    if len(phrases) > 1:
        raise NotationError(_("{text} holds more than one move: play them one at a time", text=quoted(text.strip())))
    return resolve(game, phrases[0])


def resolve(game: Game, phrase: Phrase) -> Move:
    """The one legal move ``phrase`` names in ``game``, or an error that says why there is none."""
    if phrase.draw:
        return game.validate(DRAW)
    source, target = phrase.source, phrase.target
    assert source is not None
    if source.pile is not None:
        game.check_pile(source.pile, as_target=False)
    if target is not None and target.card is not None:
        moving = source.card if source.pile is None else game.top_card(source.pile)
        if (named := game.card_target(target.card, moving)) is not None:
            target = Ref(pile=named)
            phrase = Phrase(phrase.text, source=source, target=target, count=phrase.count)
    if target is not None and target.pile is not None:
        game.check_pile(target.pile, as_target=True)
    if source.pile is not None and target is not None and target.pile is not None:
        return game.validate(Move(source.pile, target.pile, phrase.count))
    candidates = [move for move in game.legal_moves() if _matches(game, move, phrase)]
    if target is None:
        candidates = _sensible(game, candidates)
    if len(candidates) == 1:
        return candidates[0]
    if candidates:
        labels = [joined(describe_move(game, move), f"({move})") for move in candidates]
        raise AmbiguousMove(
            _("{typed} could be {choices} or {last}: say which", typed=quoted(phrase.text),
              choices=joined(*labels[:-1], sep="; "), last=labels[-1]),
            tuple(map(str, candidates)),
        )
    raise IllegalMove(_why_nothing(game, phrase))


def _matches(game: Game, move: Move, phrase: Phrase) -> bool:
    if move.is_draw:
        return False
    source, target = phrase.source, phrase.target
    assert source is not None
    if source.pile is not None:
        if move.source != source.pile:
            return False
        if phrase.count is not None and _count(game, move) != phrase.count:
            return False
    elif game.moved_card(move) != source.card:
        return False
    if target is None:
        return True
    if target.pile is not None:
        return move.target == target.pile or (target.pile == FOUNDATION and game.is_foundation(move.target))
    return move.target != FOUNDATION and game.top_card(move.target) == target.card


def _count(game: Game, move: Move) -> int:
    """How many cards a legal move carries."""
    return game.cards_moved(move)


def _sensible(game: Game, moves: list[Move]) -> list[Move]:
    """Narrow the moves of a card or pile named alone to the ones a player would mean.

    A free space is a last resort: when the card can go up or onto a card, that is meant.
    Otherwise only the first free space is kept, since free spaces are interchangeable.
    """
    onto_cards = [m for m in moves if game.is_foundation(m.target) or game.top_card(m.target) is not None]
    if onto_cards:
        return onto_cards
    kept: list[Move] = []
    seen: set[tuple[str, int | None]] = set()
    for move in moves:
        if move.target.isdigit() and game.top_card(move.target) is None:
            key = (move.source, move.count)
            if key in seen:
                continue
            seen.add(key)
        kept.append(move)
    return kept


def _why_nothing(game: Game, phrase: Phrase) -> str:
    """Explain, in game terms, why a phrase names no legal move."""
    source, target = phrase.source, phrase.target
    assert source is not None
    if target is not None and target.card is not None:
        place = game.locate(target.card)
        if place is None:
            return _("{where}, so nothing can go on it", where=game.whereabouts(target.card))
        if place[1] > 0 or not place[0].isdigit():
            return _("{where}: cards go only onto the top card of a column", where=game.whereabouts(target.card))
    if source.card is not None:
        place = game.locate(source.card)
        if place is None:
            return _("{where}, so it can't move", where=game.whereabouts(source.card))
        pile, above = place
        if target is None:
            if above and pile.isdigit():
                return game.why_buried_card_stays(source.card)
            if above:
                return _("{where}, so it can't move yet", where=game.whereabouts(source.card))
            return _("{card} has nowhere to go right now", card=CARD_WORDS[source.card])
        target_pile = target.pile
        if target_pile is None:
            # A target without a pile names a card, and it is on the board (else the reason was given above).
            assert target.card is not None
            found = game.locate(target.card)
            assert found is not None
            target_pile = found[0]
        count = above + 1 if pile.isdigit() and not game.is_foundation(target_pile) else None
        if above and not pile.isdigit():
            return _("{where}, so it can't move yet", where=game.whereabouts(source.card))
        if above and not game.moves_runs:
            return game.why_buried_card_stays(source.card)
        game.validate(Move(pile, target_pile, count))
        return _("{card} can't move there", card=CARD_WORDS[source.card])
    assert source.pile is not None
    if target is None:
        if game.top_card(source.pile) is None:
            game.validate(Move(source.pile, FOUNDATION))
        return _("Nothing from {pile} can move right now", pile=game.pile_label(source.pile))
    assert target.card is not None
    target_pile = game.locate(target.card)[0]  # type: ignore[index]
    game.validate(Move(source.pile, target_pile, phrase.count))
    return _("That can't move onto {card}", card=CARD_WORDS[target.card])


def describe_move(game: Game, move: Move) -> str:
    """A move in words, as a player would say it, e.g. ``7♣ from column 3 onto 8♥``.

    It never names the next stock card, so it is safe to show before a draw. The words are a
    marked sentence (:mod:`gatebot.messages`), said in the reader's language where it is shown.
    """
    if move.is_draw:
        return _("draw from the stock")
    if (words := game.describe(move)) is not None:
        return words
    card = CARD_WORDS[game.moved_card(move)]
    where = game.pile_label(move.source)
    count = _count(game, move)
    what = card if count == 1 else n_("{card} and the {n} on it", "{card} and the {n} on it", count - 1, card=card)
    if game.is_foundation(move.target):
        return _("{what} from {where} to the foundation", what=what, where=where)
    top = game.top_card(move.target)
    target = game.pile_label(move.target)
    if top is None:
        return _("{what} from {where} onto the free space in {target}", what=what, where=where, target=target)
    return _("{what} from {where} onto {onto} in {target}", what=what, where=where, onto=CARD_WORDS[top],
             target=target)
