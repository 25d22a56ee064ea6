"""Where everything goes on Canfield's PNG board: pure geometry, like Gate's (:mod:`gatebot.render.gate.layout`).

The board is laid out like the table::

    S  W           F  F  F  F
    R  W           1  2  3  4
       W

a header; a top row with the stock and the waste at the left and the four foundations at the
right; below the foundations the four tableau piles, fanned downwards so each card's corner
index shows, and below the stock the reserve. The waste fans downwards too, its top card
(the one that plays) lowest and whole: the top three when turning three, the top one when
turning one, the cards under them as edges and a count. Only what a player sees is drawn:
the reserve's top card on the edges of the face-down cards under it, with their count; the
stock as a card back with its size; an empty foundation as a slot with its suit and the
base rank it starts at. Every pile carries a badge with the name players type for it.
"""

from __future__ import annotations

import math

from gatebot.messages import ENGLISH, Language
from gatebot.render.canfield.text import canfield_facts, pass_words, shown_waste
from gatebot.render.image_geometry import (
    Badge,
    Box,
    CardSpot,
    Layout,
    Metrics,
    Slot,
    SlotKind,
    Stack,
    Text,
    badge,
    card_box,
    fan_step,
    font,
    header_texts,
)
from gatebot.render.text_rows import rank_word, title_words
from gatebot.rules import CanfieldGame, Suit

#: At most this many cards drawn as edges under a pile's top (the reserve's, the waste's, the stock's).
EDGES = 3


def layout_canfield(
    game: CanfieldGame, scale: float = 1.0, language: Language = ENGLISH, *, label: str | None = None
) -> Layout:
    """Lay out a Canfield ``game`` at ``scale``: every card, slot, badge and text with its box.

    Its words (header, captions, empty piles) are in ``language``.
    """
    m = Metrics.at(scale)
    left, middle = m.margin, m.margin + m.card_w + m.gap
    first_pile = middle + m.card_w + m.post_gap
    pile_xs = [first_pile + i * (m.card_w + m.gap) for i in range(4)]
    width = pile_xs[-1] + m.card_w + m.margin
    texts, header_bottom = _header(game, m, width - m.margin, language, label)

    badges: list[Badge] = []
    slots: list[Slot] = []
    stacks: list[Stack] = []
    cards: list[CardSpot] = []
    backs: list[Box] = []

    # Top row: stock and waste at the left, the foundations over the piles.
    badge_top = header_bottom + round(m.badge_h * 0.3)
    top = badge_top + m.badge_h + m.pad
    stock_box, waste_box = card_box(left, top, m), card_box(middle, top, m)
    foundation_boxes = [card_box(x, top, m) for x in pile_xs]
    f_span = (foundation_boxes[0][0], top, foundation_boxes[-1][2], top)
    badges += [badge(label, box, badge_top, m) for label, box in (("S", stock_box), ("W", waste_box), ("F", f_span))]

    if game.stock_count:
        stacks.append(Stack("S", stock_box, min(game.stock_count - 1, EDGES), face_down=True))
        backs.append(stock_box)
    else:
        slots.append(Slot("S", stock_box, SlotKind.EMPTY))
    bottom = _waste(game, waste_box, m, slots, stacks, cards, texts, language)
    base = rank_word(game.base_rank)
    for suit, (box, top_card) in enumerate(zip(foundation_boxes, game.foundations, strict=True)):
        if top_card is None:
            slots.append(Slot("F", box, SlotKind.FOUNDATION, Suit(suit), note=base))
        else:
            cards.append(CardSpot("F", top_card, box, m.card_h))

    # Main row: the reserve under the stock, the piles under the foundations.
    badge_top = top + m.card_h + m.caption_font + 3 * m.pad
    pile_top = badge_top + m.badge_h + m.pad
    reserve_box = card_box(left, pile_top, m)
    badges.append(badge("R", reserve_box, badge_top, m))
    reserve = game.reserve
    if reserve:
        under = len(reserve) - 1
        if under:
            stacks.append(Stack("R", reserve_box, min(under, EDGES), face_down=True))
            texts.append(_caption(language.gettext("+{n} under").format(n=under), reserve_box, m))
        cards.append(CardSpot("R", reserve[-1], reserve_box, m.card_h))
    else:
        slots.append(Slot("R", reserve_box, SlotKind.EMPTY))
    # Room for a few cards on every pile, so the board does not change its height at every move.
    bottom = max(bottom, pile_top + m.card_h + m.caption_font + 3 * m.pad, pile_top + m.card_h + 3 * m.fan)
    for x, (label, pile) in zip(pile_xs, ((str(i), p) for i, p in enumerate(game.piles, start=1)), strict=True):
        box = card_box(x, pile_top, m)
        badges.append(badge(label, box, badge_top, m))
        if not pile:
            slots.append(Slot(label, box, SlotKind.FREE, note=language.gettext("space")))
            continue
        step = fan_step(len(pile), m)
        for i, card in enumerate(pile):
            shown = m.card_h if i == len(pile) - 1 else step
            cards.append(CardSpot(label, card, card_box(x, pile_top + i * step, m), shown))
        bottom = max(bottom, pile_top + (len(pile) - 1) * step + m.card_h)

    return Layout(
        metrics=m,
        size=(width, bottom + m.margin),
        texts=tuple(texts),
        badges=tuple(badges),
        slots=tuple(slots),
        stacks=tuple(stacks),
        cards=tuple(cards),
        backs=tuple(backs),
        posts=(),
        stock_count=game.stock_count,
    )


def _waste(
    game: CanfieldGame, box: Box, m: Metrics, slots: list[Slot], stacks: list[Stack], cards: list[CardSpot],
    texts: list[Text], language: Language,
) -> int:
    """Lay out the waste fanned downwards from ``box``; return how far down it reaches."""
    shown = shown_waste(game)
    if not shown:
        slots.append(Slot("W", box, SlotKind.EMPTY))
        return box[3]
    under = len(game.waste) - len(shown)
    if under:
        stacks.append(Stack("W", box, min(under, EDGES), face_down=False))
    x, y = box[:2]
    for i, card in enumerate(shown):
        last = i == len(shown) - 1
        cards.append(CardSpot("W", card, card_box(x, y + i * m.fan, m), m.card_h if last else m.fan))
    last_box = card_box(x, y + (len(shown) - 1) * m.fan, m)
    if not under:
        return last_box[3]
    texts.append(_caption(language.gettext("+{n} under").format(n=under), last_box, m))
    return last_box[3] + m.caption_font + 3 * m.pad


def _caption(text: str, under: Box, m: Metrics) -> Text:
    """A count centred under a card: the reserve's face-down cards, the waste's cards under those shown.

    Under the reserve, at the board's left edge, a long caption (``+12 darunter``) is moved right
    just enough to start half a margin inside the board.
    """
    half = math.ceil(font(m.caption_font).getlength(text) / 2)
    centre = max((under[0] + under[2]) // 2, m.margin // 2 + half)
    return Text(text, (centre, under[3] + m.pad + m.pad // 2), m.caption_font, "caption", "mt")


def _header(
    game: CanfieldGame, m: Metrics, right_edge: int, language: Language, label: str | None
) -> tuple[list[Text], int]:
    """Title, deal and base rank at the left; pass, moves and score (and the result) at the right."""
    deal, base, moves, score = canfield_facts(game, language, label=label)
    facts = f"{pass_words(game, language)} · {moves} · {score}"
    return header_texts(game, f"{title_words(game)} · {deal} · {base}", facts, m, right_edge, language)
