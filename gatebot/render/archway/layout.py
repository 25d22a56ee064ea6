"""Where everything goes on Archway's PNG board: pure geometry, like Gate's (:mod:`gatebot.render.gate.layout`).

The board is laid out on a grid of nine card places::

    A  A  A  A     K  K  K  K
    P  P  P  P  P  P  P  P  P        the arch's packets A to 9
    P  P  P  P     1  2  3  4        the packets 10 to K; the columns

a header; a top row with the four Ace foundations (badge ``A``) at the left and the four King
foundations (badge ``K``) at the right, each showing its top card; below them the arch
(badge ``P``), its 13 packets by rank, each fanned downwards so every card's corner index
shows, an empty packet as a slot with its rank; and beside the last four packets the columns
(badges ``1``-``4``), fanned downwards bottom to top, the exposed card last and whole, an
empty column as a slot marked ``space``. Everything in Archway is open, so every card is drawn.
"""

from __future__ import annotations

from gatebot.render.image_geometry import (
    Badge,
    CardSpot,
    Layout,
    Metrics,
    Slot,
    SlotKind,
    Text,
    badge,
    card_box,
    fan_step,
    header_texts,
)
from gatebot.render.text_rows import rank_word
from gatebot.rules import ArchwayGame, Card

#: Card places across the board, and the arch's packets on its first row.
PLACES = 9
#: Room kept for this many cards in every fanned row, so the board does not jump at every move.
ROOM = 4


def layout_archway(game: ArchwayGame, scale: float = 1.0) -> Layout:
    """Lay out an Archway ``game`` at ``scale``: every card, slot, badge and text with its box."""
    m = Metrics.at(scale)
    xs = [m.margin + i * (m.card_w + m.gap) for i in range(PLACES)]
    width = xs[-1] + m.card_w + m.margin
    texts, header_bottom = _header(game, m, width - m.margin)
    badges: list[Badge] = []
    slots: list[Slot] = []
    cards: list[CardSpot] = []

    # Top row: the foundations' tops, Ace foundations at the left, King foundations at the right.
    badge_top = header_bottom + round(m.badge_h * 0.3)
    top = badge_top + m.badge_h + m.pad
    for label, places, tops in (("A", xs[:4], game.ace_foundations), ("K", xs[-4:], game.king_foundations)):
        boxes = [card_box(x, top, m) for x in places]
        badges.append(badge(label, (boxes[0][0], top, boxes[-1][2], top), badge_top, m))
        cards += [CardSpot(label, card, box, m.card_h) for box, card in zip(boxes, tops, strict=True)]

    # The arch: packets A to 9 on a row of their own, 10 to K beside the columns.
    badge_top = top + m.card_h + 2 * m.pad
    first_top = badge_top + m.badge_h + m.pad
    badges.append(badge("P", (xs[0], first_top, xs[-1] + m.card_w, first_top), badge_top, m))
    packets = list(enumerate(game.arch, start=1))
    bottom = first_top
    for x, (rank, packet) in zip(xs, packets[:PLACES], strict=True):
        bottom = max(bottom, _fan("P", packet, x, first_top, m, cards, slots, note=rank_word(rank)))
    bottom = max(bottom, first_top + m.card_h + (ROOM - 1) * m.fan)

    badge_top = bottom + 2 * m.pad
    second_top = badge_top + m.badge_h + m.pad
    for x, (rank, packet) in zip(xs, packets[PLACES:], strict=False):
        bottom = max(bottom, _fan("P", packet, x, second_top, m, cards, slots, note=rank_word(rank)))
    for x, (number, column) in zip(xs[-4:], enumerate(game.columns, start=1), strict=True):
        label = str(number)
        badges.append(badge(label, card_box(x, second_top, m), badge_top, m))
        bottom = max(bottom, _fan(label, column, x, second_top, m, cards, slots, note="space", kind=SlotKind.FREE))
    bottom = max(bottom, second_top + m.card_h + (ROOM - 1) * m.fan)

    return Layout(
        metrics=m,
        size=(width, bottom + m.margin),
        texts=tuple(texts),
        badges=tuple(badges),
        slots=tuple(slots),
        stacks=(),
        cards=tuple(cards),
        backs=(),
        posts=(),
        stock_count=0,
    )


def _fan(
    label: str, pile: tuple[Card, ...], x: int, y: int, m: Metrics, cards: list[CardSpot], slots: list[Slot],
    *, note: str, kind: SlotKind = SlotKind.EMPTY,
) -> int:
    """Fan ``pile`` downwards from ``(x, y)``, or a slot with ``note`` when it is empty; return its bottom."""
    box = card_box(x, y, m)
    if not pile:
        slots.append(Slot(label, box, kind, note=note))
        return box[3]
    step = fan_step(len(pile), m)
    for i, card in enumerate(pile):
        shown = m.card_h if i == len(pile) - 1 else step
        cards.append(CardSpot(label, card, card_box(x, y + i * step, m), shown))
    return y + (len(pile) - 1) * step + m.card_h


def _header(game: ArchwayGame, m: Metrics, right_edge: int) -> tuple[list[Text], int]:
    """Title and deal at the left; moves and score (and the result) at the right."""
    title = game.title + (f" ({', '.join(game.options)})" if game.options else "")
    deal = "custom position" if game.deal is None else f"deal {game.deal}"
    count = len(game.moves)
    facts = f"{count} move{'s' if count != 1 else ''} · score {game.score}/{game.card_count}"
    return header_texts(game, f"{title} · {deal}", facts, m, right_edge)
