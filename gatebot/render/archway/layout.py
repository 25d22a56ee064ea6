"""Where everything goes on Archway's PNG board: pure geometry, like Gate's (:mod:`gatebot.render.gate.layout`).

The table is laid out as the rules text sets it up, the arch over the columns::

    A  A  A  A   up to K          down to A   K  K  K  K
          6 ◂◂◂◂      7 ◂◂◂◂      8 ◂◂◂◂
    5 ◂◂◂◂                                   ◂◂◂◂ 9
    4 ◂◂◂◂        1   2   3   4              ◂◂◂◂ 10
    3 ◂◂◂◂                                   ◂◂◂◂ J
    2 ◂◂◂◂                                   ◂◂◂◂ Q
    A ◂◂◂◂                                   ◂◂◂◂ K

a header; the four Ace foundations (badge ``A``, built up to the King) at the left and the
four King foundations (badge ``K``, built down to the Ace) at the right, each showing its top
card; then the arch, its 13 packets in the order of the rules text: the Aces at the left foot,
rising to the Fives, the Sixes, Sevens and Eights across the top with the Sevens highest, at
the apex, then falling from the Nines to the Kings at the right foot. Each packet carries its
rank on its outer side and lies in a place kept for all eight cards of that rank, fanned
sideways so every card's suit pip and colour show (its cards share the packet's rank, which
the label gives); an empty packet is a slot with its rank. Inside the arch the columns
(badges ``1``-``4``) fan downwards bottom to top, the exposed card last and whole, an empty
column a slot marked ``space``. Every place is fixed, so the board keeps its shape from the
deal to the end. Everything in Archway is open, so every card is drawn.

The table holds twice a Gate table's cards, so its cards are drawn at :data:`CARD_SIZE` of the
other boards' size: the board is under 750 px tall at scale 1 and under 850 px wide, no larger
on screen than Gate's (a chat shows either at the same width) and within a board's bytes
(:data:`gatebot.render.image.BOARD_BYTES`).
"""

from __future__ import annotations

from gatebot.messages import ENGLISH, Language
from gatebot.render.archway.text import DOWN_WORDS, UP_WORDS, archway_facts
from gatebot.render.image_geometry import (
    MAX_SCALE,
    MIN_SCALE,
    Badge,
    Box,
    CardSpot,
    Layout,
    Metrics,
    Slot,
    SlotKind,
    Text,
    badge,
    card_box,
    font,
    header_texts,
)
from gatebot.render.text_rows import rank_word, title_words
from gatebot.rules import ArchwayGame, Card

#: Archway's cards at this share of the other boards' card size: at 0.78 (985 x 897 px) its
#: picture took 67-77 KB, over a board's bytes (:data:`gatebot.render.image.BOARD_BYTES`).
CARD_SIZE = 0.64
#: The phone board's cards at this share of the other phone boards' (the same share of the board's
#: width, so the same rank height on a phone): twice the cards in fewer pixels, so the picture
#: stays within the phone board's bytes (:data:`gatebot.render.image.PHONE_BYTES`).
PHONE_CARD_SIZE = 0.9
#: The most cards a packet can hold: both decks' four cards of its rank.
PACKET_ROOM = 8
#: The room kept under each column: the deal's 12 cards, the most a column gets in play.
COLUMN_ROOM = 12
#: The packets of the arch's left leg (bottom to top), its top (left to right) and its right leg (top to bottom).
LEFT_LEG, TOP, RIGHT_LEG = (5, 4, 3, 2, 1), (6, 7, 8), (9, 10, 11, 12, 13)


def layout_archway(
    game: ArchwayGame, scale: float = 1.0, language: Language = ENGLISH, *, label: str | None = None,
    phone: bool = False,
) -> Layout:
    """Lay out an Archway ``game`` at ``scale``: every card, slot, badge and text with its box.

    Its words (header, the foundations' directions, empty columns) are in ``language``. With
    ``phone`` it is the phone board (:func:`_layout_phone`): the arch as a list, eight cards wide.
    """
    Metrics.at(scale)  # refuses a scale outside the range every board accepts
    if phone:
        return _layout_phone(game, Metrics.at(min(MAX_SCALE, max(MIN_SCALE, scale * PHONE_CARD_SIZE)), phone=True),
                             language, label)
    m = Metrics.at(min(MAX_SCALE, max(MIN_SCALE, scale * CARD_SIZE)))
    places = packet_places(m)
    columns_w = 4 * m.card_w + 3 * m.gap
    width = places[RIGHT_LEG[0] - 1][2] + m.margin
    texts, header_bottom = _header(game, m, width - m.margin, language, label)
    badges: list[Badge] = []
    slots: list[Slot] = []
    cards: list[CardSpot] = []

    # The foundations' tops: Ace foundations at the left, King foundations at the right.
    badge_top = header_bottom + round(m.badge_h * 0.3)
    top = badge_top + m.badge_h + m.pad
    left_xs = [m.margin + i * (m.card_w + m.gap) for i in range(4)]
    right_xs = [width - m.margin - m.card_w - (3 - i) * (m.card_w + m.gap) for i in range(4)]
    for label, xs, tops, words in (
        ("A", left_xs, game.ace_foundations, language.gettext(UP_WORDS)),
        ("K", right_xs, game.king_foundations, language.gettext(DOWN_WORDS)),
    ):
        boxes = [card_box(x, top, m) for x in xs]
        badges.append(badge(label, (boxes[0][0], top, boxes[-1][2], top), badge_top, m))
        cards += [CardSpot(label, card, box, m.card_h) for box, card in zip(boxes, tops, strict=True)]
        middle = top + m.card_h // 2
        # Each direction has half the room between the two rows, a gap kept between them.
        room = (right_xs[0] - left_xs[-1] - m.card_w - 3 * m.gap) // 2
        if label == "A":
            texts += _direction(words, (boxes[-1][2] + m.gap, middle), "lm", room, m)
        else:
            texts += _direction(words, (boxes[0][0] - m.gap, middle), "rm", room, m)

    # The arch, each packet in its own place, moved down below the foundations.
    arch_top = top + m.card_h + 2 * m.pad
    for rank, packet in enumerate(game.arch, start=1):
        x0, y0, x1, y1 = places[rank - 1]
        texts.append(_packet(rank, packet, (x0, y0 + arch_top, x1, y1 + arch_top), m, cards, slots))

    # The columns, inside the arch: level with the top of its legs, centred between them.
    column_badge_top = places[LEFT_LEG[0] - 1][1] + arch_top
    column_top = column_badge_top + m.badge_h + m.pad
    first_x = (width - columns_w) // 2
    _columns(game, first_x, column_top, column_badge_top, m, language, badges, slots, cards)

    columns_bottom = column_top + (COLUMN_ROOM - 1) * m.fan + m.card_h
    arch_bottom = arch_top + max(place[3] for place in places)
    return Layout(
        metrics=m,
        size=(width, max(columns_bottom, arch_bottom) + m.margin),
        texts=tuple(texts),
        badges=tuple(badges),
        slots=tuple(slots),
        stacks=(),
        cards=tuple(cards),
        backs=(),
        posts=(),
        stock_count=0,
    )


def _layout_phone(game: ArchwayGame, m: Metrics, language: Language, label: str | None) -> Layout:
    """The phone board: the eight foundations in a row, the arch's packets as a list beside the columns.

    The arch is drawn at its full card size, but straightened: its packets one under another,
    Aces at the top and Kings at the bottom, each row fanned over the one above it so every
    packet shows its top card's index and the suit pips of the cards under it, and each packet's
    rank beside it. The four columns stand at the right, fanned downwards. Eight cards across
    (the foundations' row), so the cards keep the phone board's large indices.
    """
    width = 2 * m.margin + 8 * m.card_w + 6 * m.gap + m.post_gap
    texts, header_bottom = _header(game, m, width - m.margin, language, label)
    badges: list[Badge] = []
    slots: list[Slot] = []
    cards: list[CardSpot] = []

    badge_top = header_bottom + round(m.badge_h * 0.3)
    top = badge_top + m.badge_h + m.pad
    group_w = 4 * m.card_w + 3 * m.gap
    for name, x0, tops, words in (
        ("A", m.margin, game.ace_foundations, language.gettext(UP_WORDS)),
        ("K", width - m.margin - group_w, game.king_foundations, language.gettext(DOWN_WORDS)),
    ):
        boxes = [card_box(x0 + i * (m.card_w + m.gap), top, m) for i in range(4)]
        badges.append(badge(name, (boxes[0][0], top, boxes[-1][2], top), badge_top, m))
        cards += [CardSpot(name, card, box, m.card_h) for box, card in zip(boxes, tops, strict=True)]
        texts.append(Text(words, (x0 + group_w // 2, top + m.card_h + m.pad), m.caption_font, "caption", "mt"))

    region_top = top + m.card_h + m.caption_font + 3 * m.pad
    label_w = _label_width(m)
    place_w = label_w + m.card_w + (PACKET_ROOM - 1) * side_step(m)
    for rank, packet in enumerate(game.arch, start=1):
        y0 = region_top + (rank - 1) * m.fan
        covered = rank < len(game.arch)
        place = (m.margin, y0, m.margin + place_w, y0 + m.card_h)
        texts.append(_packet(rank, packet, place, m, cards, slots, outside=False,
                             middle=m.fan // 2 if covered else m.card_h // 2, shown=m.fan if covered else None))

    first_x = width - m.margin - group_w
    column_top = region_top + m.badge_h + m.pad
    _columns(game, first_x, column_top, region_top, m, language, badges, slots, cards)

    packets_bottom = region_top + (len(game.arch) - 1) * m.fan + m.card_h
    columns_bottom = column_top + (COLUMN_ROOM - 1) * m.fan + m.card_h
    return Layout(
        metrics=m, size=(width, max(packets_bottom, columns_bottom) + m.margin), texts=tuple(texts),
        badges=tuple(badges), slots=tuple(slots), stacks=(), cards=tuple(cards), backs=(), posts=(), stock_count=0,
    )


def column_step(count: int, m: Metrics) -> int:
    """The fan step of a column of ``count`` cards.

    The usual one, squeezed so a column longer than the deal's (a pasted position) still ends
    within the room kept for :data:`COLUMN_ROOM` cards.
    """
    if count <= COLUMN_ROOM:
        return m.fan
    return m.fan * (COLUMN_ROOM - 1) // (count - 1)


def side_step(m: Metrics) -> int:
    """How far apart a packet's cards are fanned sideways: each covered card's suit pip shows whole."""
    return m.corner_pip + m.pad * 3 // 2


def _direction(words: str, xy: tuple[int, int], anchor: str, room: int, m: Metrics) -> list[Text]:
    """A foundation row's direction (``up to K``) beside it: one line, or two where it is wider than ``room``.

    The two lines are split between words where the longer is shortest (``aufwärts`` over ``bis K``),
    centred together on ``xy``'s height, so a small board (a replay) keeps the caption readable
    instead of running it into the other row's.
    """
    face = font(m.caption_font)
    parts = words.split(" ")
    lines = [words]
    if face.getlength(words) > room and len(parts) > 1:
        splits = [(" ".join(parts[:i]), " ".join(parts[i:])) for i in range(1, len(parts))]
        lines = list(min(splits, key=lambda pair: max(face.getlength(line) for line in pair)))
    step = round(m.caption_font * 1.2)
    first = xy[1] - step * (len(lines) - 1) // 2
    return [Text(line, (xy[0], first + i * step), m.caption_font, "caption", anchor) for i, line in enumerate(lines)]


def packet_places(m: Metrics) -> list[Box]:
    """The place kept for each packet, Aces first, its top at 0 (the top of the arch).

    A place holds the packet's rank label and room for :data:`PACKET_ROOM` cards fanned
    sideways; the legs' places are one under another, the top's side by side, the Sevens'
    highest of all.
    """
    label_w = _label_width(m)
    place_w = label_w + m.card_w + (PACKET_ROOM - 1) * side_step(m)
    place_h = m.card_h
    shoulder = m.pad  # the Sixes and the Eights a little under the Sevens, so the top is the apex
    row = place_h + m.gap
    width = 2 * (m.margin + place_w) + 4 * m.card_w + 7 * m.gap  # the legs, the columns with room each side
    places: dict[int, Box] = {}
    top_w = len(TOP) * place_w + (len(TOP) - 1) * 2 * m.gap
    top_x = (width - top_w) // 2
    for i, rank in enumerate(TOP):
        x = top_x + i * (place_w + 2 * m.gap)
        y = 0 if rank == 7 else shoulder
        places[rank] = (x, y, x + place_w, y + place_h)
    for i, rank in enumerate(reversed(LEFT_LEG)):  # the Aces first, at the bottom
        y = shoulder + row * (len(LEFT_LEG) - i)
        places[rank] = (m.margin, y, m.margin + place_w, y + place_h)
    for i, rank in enumerate(RIGHT_LEG):
        y = shoulder + row * (i + 1)
        places[rank] = (width - m.margin - place_w, y, width - m.margin, y + place_h)
    return [places[rank] for rank in range(1, 14)]


def _label_width(m: Metrics) -> int:
    """The room for a packet's rank label beside it (wider on the phone board, whose labels are larger)."""
    return round(font(m.badge_font).getlength("10")) + (3 * m.pad if m.phone else m.pad)


def _packet(
    rank: int, packet: tuple[Card, ...], place: Box, m: Metrics, cards: list[CardSpot], slots: list[Slot],
    *, outside: bool | None = None, middle: int | None = None, shown: int | None = None,
) -> Text:
    """Draw one packet in its ``place``: its rank label on the outer side, its cards or an empty slot beside it.

    The cards fan from right to left, the last of the packet leftmost and whole, each card under
    it showing its right edge, where the suit pip and the small index are. The right leg's
    packets lie against the board's right edge, the others against their label at the left
    (``outside`` says which, when given). The label is ``middle`` px below the place's top
    (half a card by default); ``shown`` is how much of the top card shows, when the next
    packet covers it (the phone board's list).
    """
    x0, y0, x1, _ = place
    label_w = _label_width(m)
    if outside is None:
        outside = rank in RIGHT_LEG  # the right leg's labels on the outer edge, its cards flush against them
    label_x = x1 - label_w // 2 if outside else x0 + label_w // 2
    label = Text(rank_word(rank), (label_x, y0 + (m.card_h // 2 if middle is None else middle)), m.badge_font,
                 "caption", "mm")
    step = side_step(m)
    last = len(packet) - 1
    left = x1 - label_w - m.card_w - max(0, last) * step if outside else x0 + label_w
    if not packet:
        slots.append(Slot("P", card_box(left, y0, m), SlotKind.EMPTY, note=rank_word(rank)))
        return label
    top_shown = m.card_h if shown is None else shown
    for i, card in enumerate(packet):
        cards.append(CardSpot("P", card, card_box(left + (last - i) * step, y0, m), top_shown if i == last else step))
    return label


def _header(
    game: ArchwayGame, m: Metrics, right_edge: int, language: Language, label: str | None
) -> tuple[list[Text], int]:
    """Title and deal at the left; moves and score (and the result) at the right."""
    deal, moves, score = archway_facts(game, language, label=label)
    return header_texts(game, f"{title_words(game)} · {deal}", f"{moves} · {score}", m, right_edge, language)


def _columns(
    game: ArchwayGame, first_x: int, top: int, badge_top: int, m: Metrics, language: Language, badges: list[Badge],
    slots: list[Slot], cards: list[CardSpot],
) -> None:
    """The four columns side by side from ``first_x``, each fanned down from ``top`` under its numbered badge."""
    for number, column in enumerate(game.columns, start=1):
        name = str(number)
        box = card_box(first_x + (number - 1) * (m.card_w + m.gap), top, m)
        badges.append(badge(name, box, badge_top, m))
        if not column:
            slots.append(Slot(name, box, SlotKind.FREE, note=language.gettext("space")))
            continue
        step = column_step(len(column), m)
        for i, card in enumerate(column):
            shown = m.card_h if i == len(column) - 1 else step
            cards.append(CardSpot(name, card, card_box(box[0], box[1] + i * step, m), shown))
