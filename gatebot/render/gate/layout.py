"""Where everything goes on Gate's PNG board: pure geometry, for the drawing code and tests.

The board is laid out like the table: a header line; a top row with the stock and waste at
the left and the four foundations at the right; below it the two reserves standing as
gateposts at the sides with the columns hung between them, every pile fanned downwards so
each card's corner index shows and the last card is shown whole. Every pile carries a badge
with the name players type for it. All sizes scale with ``scale`` (1.0 gives a board about
1140 px wide, which Discord shrinks to ~400 px on a phone, so corner indices are large).

:func:`gatebot.render.layout_board` lays out any variant; Gate's board (Gate and Little Gate)
is laid out here, from the pieces in :mod:`gatebot.render.image_geometry` every family's shares.
"""

from __future__ import annotations

from gatebot.messages import ENGLISH, Language
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
    header_texts,
)
from gatebot.render.text_rows import header_facts, title_words
from gatebot.rules import GateGame, Suit


def layout_gate(
    game: GateGame, scale: float = 1.0, language: Language = ENGLISH, *, label: str | None = None
) -> Layout:
    """Lay out a Gate ``game`` at ``scale``: every card, slot, badge and text with its box, words in ``language``."""
    m = Metrics.at(scale)
    grid = _grid(len(game.columns), m)
    width = grid[-1] + m.card_w + m.margin
    texts, header_bottom = _header(game, m, width - m.margin, language, label)

    badges: list[Badge] = []
    slots: list[Slot] = []
    stacks: list[Stack] = []
    cards: list[CardSpot] = []
    backs: list[Box] = []

    # Top row: stock and waste at the left, foundations at the right.
    badge_top = header_bottom + round(m.badge_h * 0.3)
    top = badge_top + m.badge_h + m.pad
    stock_box = card_box(grid[0], top, m)
    waste_box = card_box(grid[1], top, m)
    # The foundations end flush with the right gatepost, evenly spaced whatever the grid.
    first_foundation = width - m.margin - 4 * m.card_w - 3 * m.gap
    foundation_boxes = [card_box(first_foundation + i * (m.card_w + m.gap), top, m) for i in range(4)]
    badges += [badge("S", stock_box, badge_top, m), badge("W", waste_box, badge_top, m)]
    f_span = (foundation_boxes[0][0], top, foundation_boxes[-1][2], top)
    badges.append(badge("F", f_span, badge_top, m))

    if game.stock_count:
        stacks.append(Stack("S", stock_box, min(game.stock_count - 1, 3), face_down=True))
        backs.append(stock_box)
    else:
        slots.append(Slot("S", stock_box, SlotKind.EMPTY))
    waste = game.waste
    if waste:
        stacks.append(Stack("W", waste_box, min(len(waste) - 1, 3), face_down=False))
        cards.append(CardSpot("W", waste[-1], waste_box, m.card_h))
        if len(waste) > 1:
            caption_xy = ((waste_box[0] + waste_box[2]) // 2, waste_box[3] + m.pad + m.pad // 2)
            under = language.gettext("+{n} under").format(n=len(waste) - 1)
            texts.append(Text(under, caption_xy, m.caption_font, "caption", "mt"))
    else:
        slots.append(Slot("W", waste_box, SlotKind.EMPTY))
    for suit, (box, top_card) in enumerate(zip(foundation_boxes, game.foundations, strict=True)):
        if top_card is None:
            slots.append(Slot("F", box, SlotKind.FOUNDATION, Suit(suit)))
        else:
            cards.append(CardSpot("F", top_card, box, m.card_h))

    # Main row: left gatepost, columns, right gatepost, all fanned downwards.
    badge_top = top + m.card_h + m.caption_font + 3 * m.pad
    pile_top = badge_top + m.badge_h + m.pad
    left, right = game.reserves
    piles = [("L", left), *((str(i), col) for i, col in enumerate(game.columns, start=1)), ("R", right)]
    bottom = pile_top + m.card_h + 4 * m.fan  # room for full reserves, so the board keeps its height
    for x, (label, pile) in zip(grid, piles, strict=True):
        box = card_box(x, pile_top, m)
        badges.append(badge(label, box, badge_top, m))
        if not pile:
            kind = SlotKind.EMPTY if label in "LR" else SlotKind.FREE
            slots.append(Slot(label, box, kind))
            continue
        step = fan_step(len(pile), m)
        for i, card in enumerate(pile):
            y = pile_top + i * step
            shown = m.card_h if i == len(pile) - 1 else step
            cards.append(CardSpot(label, card, card_box(x, y, m), shown))
        bottom = max(bottom, pile_top + (len(pile) - 1) * step + m.card_h)

    inset = m.pad
    posts = tuple(
        (x - inset, badge_top - inset, x + m.card_w + inset, bottom + inset) for x in (grid[0], grid[-1])
    )
    return Layout(
        metrics=m,
        size=(width, bottom + m.margin),
        texts=tuple(texts),
        badges=tuple(badges),
        slots=tuple(slots),
        stacks=tuple(stacks),
        cards=tuple(cards),
        backs=tuple(backs),
        posts=posts,
        stock_count=game.stock_count,
    )


def _grid(columns: int, m: Metrics) -> list[int]:
    """Left edges of the main row's piles: left reserve, the columns, right reserve."""
    first = m.margin + m.card_w + m.post_gap
    xs = [first + i * (m.card_w + m.gap) for i in range(columns)]
    return [m.margin, *xs, xs[-1] + m.card_w + m.post_gap]


def _header(
    game: GateGame, m: Metrics, right_edge: int, language: Language, label: str | None
) -> tuple[list[Text], int]:
    """Title and deal at the left, moves and score (and the result) at the right, as the text board words them."""
    deal, moves, score = header_facts(game, language, label=label)
    return header_texts(game, f"{title_words(game)} · {deal}", f"{moves} · {score}", m, right_edge, language)
