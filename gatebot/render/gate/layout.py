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

from collections.abc import Sequence

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
from gatebot.rules import Card, GateGame, Suit

#: The phone board lifts the reserves into the top row when the main row would be wider than this many piles.
PHONE_MAIN_ROW = 6


def layout_gate(
    game: GateGame, scale: float = 1.0, language: Language = ENGLISH, *, label: str | None = None,
    phone: bool = False,
) -> Layout:
    """Lay out a Gate ``game`` at ``scale``: every card, slot, badge and text with its box, words in ``language``.

    With ``phone`` the cards carry the phone board's large indices (:meth:`Metrics.at`), and a
    board with more than four columns (Gate's eight) takes its reserves out of the main row:
    they stand at the ends of the top row, ``L S W F F F F R``, and hang down from there, so
    the board is eight cards wide instead of ten (see :func:`_layout_phone`).
    """
    m = Metrics.at(scale, phone=phone)
    if phone and len(game.columns) + 2 > PHONE_MAIN_ROW:
        return _layout_phone(game, m, language, label)
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

    _stock_and_waste(game, stock_box, waste_box, m, language, slots, stacks, cards, backs, texts)
    _foundations(game, foundation_boxes, m, slots, cards)

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


def _layout_phone(game: GateGame, m: Metrics, language: Language, label: str | None) -> Layout:
    """The phone board of a wide Gate: ``L S W F F F F R`` over the columns, eight cards across.

    The reserves hang down from the ends of the top row as gateposts, fanned like the columns;
    the waste's count sits under it, between them. The columns start below the longer reserve:
    nothing is ever played onto a reserve, so that room only shrinks (a phone's height is
    precious), and an emptied pair leaves the columns right under the top row.
    """
    across = len(game.columns)
    xs = [m.margin + i * (m.card_w + m.gap) for i in range(across)]
    width = xs[-1] + m.card_w + m.margin
    texts, header_bottom = _header(game, m, width - m.margin, language, label)
    badges: list[Badge] = []
    slots: list[Slot] = []
    stacks: list[Stack] = []
    cards: list[CardSpot] = []
    backs: list[Box] = []

    badge_top = header_bottom + round(m.badge_h * 0.3)
    top = badge_top + m.badge_h + m.pad
    left_x, right_x = xs[0], xs[-1]
    stock_box = card_box(xs[1], top, m)
    waste_box = card_box(xs[2], top, m)
    first_foundation = right_x - m.gap - 4 * m.card_w - 3 * m.gap
    foundation_boxes = [card_box(first_foundation + i * (m.card_w + m.gap), top, m) for i in range(4)]
    badges += [badge("S", stock_box, badge_top, m), badge("W", waste_box, badge_top, m)]
    badges.append(badge("F", (foundation_boxes[0][0], top, foundation_boxes[-1][2], top), badge_top, m))
    _stock_and_waste(game, stock_box, waste_box, m, language, slots, stacks, cards, backs, texts)
    _foundations(game, foundation_boxes, m, slots, cards)

    reserves_bottom = top + m.card_h + m.caption_font + 2 * m.pad  # room for the waste's count at least
    for name, x, pile in (("L", left_x, game.reserves[0]), ("R", right_x, game.reserves[1])):
        box = card_box(x, top, m)
        badges.append(badge(name, box, badge_top, m))
        reserves_bottom = max(reserves_bottom, _fan(name, pile, box, m, slots, cards, SlotKind.EMPTY))

    badge_top = reserves_bottom + 2 * m.pad
    pile_top = badge_top + m.badge_h + m.pad
    bottom = pile_top + m.card_h + 4 * m.fan
    for x, (name, pile) in zip(xs, ((str(i), col) for i, col in enumerate(game.columns, start=1)), strict=True):
        box = card_box(x, pile_top, m)
        badges.append(badge(name, box, badge_top, m))
        bottom = max(bottom, _fan(name, pile, box, m, slots, cards, SlotKind.FREE))

    inset = m.pad
    top_badge = header_bottom + round(m.badge_h * 0.3)
    posts = tuple(
        (x - inset, top_badge - inset, x + m.card_w + inset, reserves_bottom + inset) for x in (left_x, right_x)
    )
    return Layout(
        metrics=m, size=(width, bottom + m.margin), texts=tuple(texts), badges=tuple(badges), slots=tuple(slots),
        stacks=tuple(stacks), cards=tuple(cards), backs=tuple(backs), posts=posts, stock_count=game.stock_count,
    )


def _stock_and_waste(
    game: GateGame, stock_box: Box, waste_box: Box, m: Metrics, language: Language, slots: list[Slot],
    stacks: list[Stack], cards: list[CardSpot], backs: list[Box], texts: list[Text],
) -> None:
    """The stock as a back with its count, the waste's top card with the count of the cards under it."""
    if game.stock_count:
        stacks.append(Stack("S", stock_box, min(game.stock_count - 1, 3), face_down=True))
        backs.append(stock_box)
    else:
        slots.append(Slot("S", stock_box, SlotKind.EMPTY))
    waste = game.waste
    if not waste:
        slots.append(Slot("W", waste_box, SlotKind.EMPTY))
        return
    stacks.append(Stack("W", waste_box, min(len(waste) - 1, 3), face_down=False))
    cards.append(CardSpot("W", waste[-1], waste_box, m.card_h))
    if len(waste) > 1:
        caption_xy = ((waste_box[0] + waste_box[2]) // 2, waste_box[3] + m.pad + m.pad // 2)
        under = language.gettext("+{n} under").format(n=len(waste) - 1)
        texts.append(Text(under, caption_xy, m.caption_font, "caption", "mt"))


def _foundations(game: GateGame, boxes: Sequence[Box], m: Metrics, slots: list[Slot], cards: list[CardSpot]) -> None:
    """Each foundation's top card in its box, or its suit's empty place."""
    for suit, (box, top_card) in enumerate(zip(boxes, game.foundations, strict=True)):
        if top_card is None:
            slots.append(Slot("F", box, SlotKind.FOUNDATION, Suit(suit)))
        else:
            cards.append(CardSpot("F", top_card, box, m.card_h))


def _fan(
    name: str, pile: Sequence[Card], box: Box, m: Metrics, slots: list[Slot], cards: list[CardSpot], empty: SlotKind
) -> int:
    """Fan ``pile`` downwards from ``box`` (a slot of kind ``empty`` when it has no card); return its bottom."""
    if not pile:
        slots.append(Slot(name, box, empty))
        return box[3]
    step = fan_step(len(pile), m)
    for i, card in enumerate(pile):
        shown = m.card_h if i == len(pile) - 1 else step
        cards.append(CardSpot(name, card, card_box(box[0], box[1] + i * step, m), shown))
    return box[1] + (len(pile) - 1) * step + m.card_h


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
