"""Canfield's boards (text, emoji, PNG): every card a player may see, where the engine has it, and no other.

The text and emoji boards are read back with small parsers written here from the layout
contract: a pile's row starts with its label (``R`` reserve, ``F`` foundations, ``1``-``4``
tableau piles, ``W`` waste, ``S`` stock), continuation lines are indented, and the top card
of the reserve and of the waste is in brackets. What they show is compared with the engine's
own view of the position. The face-down cards — the reserve's under its top card, and the
stock — may appear nowhere: no board names one, and two positions that differ only in them
draw the same board, to the byte (for the PNG, the same pixels).
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable
from itertools import pairwise
from typing import Any

from gatebot.render import layout_board, render_emoji, render_png, render_text, rules_text
from gatebot.render.image_geometry import Layout, SlotKind
from gatebot.rules import CanfieldGame, Card, Game
from tests.render.gate.test_image import check_pixels, decode
from tests.render.playouts import canfield_playout
from tests.rules.builders import canfield

DISCORD_MESSAGE = 2000
#: Room left for the line the bot may add under a board (a move's result, a hint).
NOTE_ROOM = 200
TEXT_WIDTH, TEXT_COMPACT = 72, 36  # 36: what a 380 px phone shows of a code block line
EMOJI_WIDTH, EMOJI_COMPACT, EMOJI_COMPACT_CARDS = 80, 40, 5
LABELS = {"R", "F", "W", "S", "1", "2", "3", "4"}
RANK_WORDS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
OPTION_SETS: list[tuple[str, ...]] = [
    (), ("draw-one",), ("draw-one", "passes-1"), ("partial-moves",), ("draw-one", "passes-2", "partial-moves"),
]

TEXT_CARD = re.compile(r"(\[)?((?:10|[2-9AJQK])[♣♦♥♠])(\])?")
ANSI = re.compile(r"\x1b\[[0-9;]*m")
EMOJI_RANKS = {"🇦": "A", **{f"{d}\ufe0f\u20e3": d for d in "23456789"}, "🔟": "10", "🇯": "J", "🇶": "Q", "🇰": "K"}
EMOJI_SUITS = {"♧": "♣", "♦\ufe0f": "♦", "♥\ufe0f": "♥", "♤": "♠"}
EMOJI_CARD = re.compile(
    r"(\[)?(" + "|".join(map(re.escape, EMOJI_RANKS)) + r")\u2060(" + "|".join(map(re.escape, EMOJI_SUITS)) + r")(\])?"
)
EMOJI_LABEL = re.compile(r"^`([RFWS1-4])` ")
ZERO_WIDTH = re.compile("[\ufe0f\u20e3\u2060*`_]")
BLANK = "🟦"

CardsIn = Callable[[str], list[tuple[str, bool]]]


# -- reading boards back -----------------------------------------------------------------


def text_cards(text: str) -> list[tuple[str, bool]]:
    """The cards written in ``text`` (``10♦``), in order, each with whether it is bracketed."""
    return [(m.group(2), bool(m.group(1) and m.group(3))) for m in TEXT_CARD.finditer(text)]


def emoji_cards(text: str) -> list[tuple[str, bool]]:
    """The emoji cards in ``text`` as ``10♦`` names, in order, each with whether it is bracketed."""
    return [
        (EMOJI_RANKS[m.group(2)] + EMOJI_SUITS[m.group(3)], bool(m.group(1) and m.group(4)))
        for m in EMOJI_CARD.finditer(text)
    ]


def text_rows(board: str) -> dict[str, str]:
    """Each pile's row (continuation lines joined) by its label; other lines are skipped."""
    found: dict[str, str] = {}
    current: str | None = None
    for line in board.splitlines():
        if not line.strip():
            current = None
        elif line[0] != " ":
            label = line.split()[0]
            current = label if label in LABELS else None
            if current is not None:
                assert current not in found, f"row {current} appears twice"
                found[current] = line[len(label):]
        elif current is not None:
            found[current] += " " + line
    return found


def emoji_rows(board: str) -> dict[str, str]:
    found: dict[str, str] = {}
    current: str | None = None
    for line in board.splitlines():
        match = EMOJI_LABEL.match(line)
        if match:
            current = match.group(1)
            assert current not in found, f"row {current} appears twice"
            found[current] = line[match.end():]
        elif not line.strip():
            current = None
        elif current is not None:
            assert line.startswith("\u2003"), f"continuation line not indented: {line!r}"
            found[current] += " " + line
    return found


def emoji_width(line: str) -> int:
    """How wide a line is drawn, in the emoji module's units (an emoji 3, ♤ ♧ and an em space 2)."""
    total = 0
    for char in ZERO_WIDTH.sub("", line):
        if ord(char) >= 0x1F000 or char in "♦♥":
            total += 3
        elif char in "♤♧\u2003":
            total += 2
        else:
            total += 1
    return total + 2 * line.count("\u20e3")


# -- what a player may see ------------------------------------------------------------------


def rank(game: CanfieldGame) -> str:
    return RANK_WORDS[game.base_rank - 1]


def shown_waste(game: CanfieldGame) -> list[Card]:
    """The waste cards a player sees: the top three when turning three, the top one when turning one."""
    return list(game.waste[-game.draw_count:]) if game.waste else []


def visible(game: CanfieldGame) -> Counter[str]:
    seen = [*game.reserve[-1:], *(top for top in game.foundations if top is not None)]
    seen += [card for pile in game.piles for card in pile]
    seen += shown_waste(game)
    return Counter(card.pretty for card in seen)


def hidden(game: CanfieldGame) -> set[str]:
    """The face-down cards: the reserve under its top card, and the whole stock."""
    stock = [Card.from_index(index) for index in game.raw().stock]
    return {card.pretty for card in (*game.reserve[:-1], *stock)}


def hidden_reshuffled(game: CanfieldGame, rng: random.Random) -> tuple[CanfieldGame, CanfieldGame] | None:
    """The position, and the same with its face-down cards dealt in another order (None: fewer than two)."""
    lines = game.to_text().splitlines()
    reserve = lines[1].partition(":")[2].split()
    stock = lines[9].partition(":")[2].split()
    cards = reserve[:-1] + stock
    if len(cards) < 2:
        return None
    shuffled = cards[:]
    while shuffled == cards:
        rng.shuffle(shuffled)
    under = max(len(reserve) - 1, 0)
    lines[1] = ("R: " + " ".join([*shuffled[:under], *reserve[-1:]])).rstrip()
    lines[9] = ("S: " + " ".join(shuffled[under:])).rstrip()
    same, other = Game.from_text(game.to_text()), Game.from_text("\n".join(lines))
    assert isinstance(same, CanfieldGame) and isinstance(other, CanfieldGame)
    assert other.to_text() != same.to_text()
    return same, other


def check_board(game: CanfieldGame, board: str, found: dict[str, str], cards_in: CardsIn, blank: str) -> None:
    """Assert the rows ``found`` show what the engine holds, and no face-down card anywhere."""
    assert set(found) == LABELS

    reserve = cards_in(found["R"])
    if game.reserve:
        assert reserve == [(game.reserve[-1].pretty, True)]
        under = len(game.reserve) - 1
        assert (f"+{under} face down" in found["R"]) == (under > 0)
    else:
        assert reserve == [] and "empty" in found["R"]

    tops = [top for top in game.foundations if top is not None]
    assert cards_in(found["F"]) == [(top.pretty, False) for top in tops]
    empty = 4 - len(tops)
    assert found["F"].count(blank) == empty
    note = re.search(r"\((?:each starts at|from) (\w+)\)", found["F"])
    assert (note.group(1) if note else None) == (rank(game) if empty else None)

    for number, pile in enumerate(game.piles, start=1):
        row = found[str(number)]
        assert cards_in(row) == [(card.pretty, False) for card in pile]
        assert ("space" in row) == (not pile)

    shown = shown_waste(game)
    assert cards_in(found["W"]) == [(card.pretty, i == len(shown) - 1) for i, card in enumerate(shown)]
    under = len(game.waste) - len(shown)
    assert (f"+{under} under" in found["W"]) == (under > 0)
    assert ("empty" in found["W"]) == (not game.waste)

    stock = found["S"].replace("*", "")
    assert cards_in(stock) == []
    assert (f"{game.stock_count} card" in stock) if game.stock_count else ("empty" in stock)
    limit = None if game.passes_left is None else game.pass_number + game.passes_left
    assert f"pass {game.pass_number}" + (f" of {limit}" if limit else "") in stock
    assert ("order unknown" in stock) == (game.stock_count > 0 and not game.stock_known)

    names = Counter(name for name, _ in cards_in(board))
    assert names == visible(game)
    assert not hidden(game) & set(names)

    header = board.split("\n\n")[0]
    assert game.title in header and f"base {rank(game)}" in header
    assert (f"deal {game.deal}" if game.deal is not None else "custom position") in header
    assert f"{len(game.moves)} move" in header and f"score {game.score}/52" in header
    ending = board.split("\n\n")[-1]
    outcome = game.outcome()
    assert ("Won!" in ending) == (outcome is not None and outcome.won)
    assert ("Game over" in ending) == (outcome is not None and not outcome.won)


def check_text(game: CanfieldGame, *, compact: bool = False) -> str:
    """The text board, checked: within its width and, in a code block with a note, Discord's limit."""
    board = render_text(game, compact=compact)
    assert len(f"```\n{board}\n```") + NOTE_ROOM < DISCORD_MESSAGE
    for line in board.splitlines():
        assert len(line) <= (TEXT_COMPACT if compact else TEXT_WIDTH), line
    check_board(game, board, text_rows(board), text_cards, blank="-")
    coloured = render_text(game, compact=compact, colour=True)
    assert ANSI.sub("", coloured) == board
    return board


def check_emoji(game: CanfieldGame, *, compact: bool = False) -> str:
    """The emoji board, checked: within Discord's limits, widths and markup."""
    board = render_emoji(game, compact=compact)
    assert len(board) + NOTE_ROOM < DISCORD_MESSAGE
    for line in board.splitlines():
        assert emoji_width(line) <= (EMOJI_COMPACT if compact else EMOJI_WIDTH), line
        assert line.count("**") % 2 == 0 and line.count("`") % 2 == 0, line
        if compact:
            assert len(emoji_cards(line)) <= EMOJI_COMPACT_CARDS, line
    assert not re.search(r"[\U0001F1E6-\U0001F1FF]{2}", board), "two regional indicators make a flag"
    assert "♠" not in board and "♣" not in board, "black suit emoji vanish on Discord's dark theme"
    check_board(game, board, emoji_rows(board), emoji_cards, blank=BLANK)
    return board


def deal_1(line: str = "", options: tuple[str, ...] = ()) -> CanfieldGame:
    game = Game.new("canfield", deal=1, options=options)
    assert isinstance(game, CanfieldGame)
    if line:
        assert game.play_line(line).error is None
    return game


def built(**position: Any) -> CanfieldGame:
    """A hand-built position (tests/rules/builders.py); unnamed cards go to the stock."""
    game = canfield(**position)
    assert isinstance(game, CanfieldGame)
    return game


def one_long_run() -> list[str]:
    """All 52 cards as one pile built down in alternating colours, King to Ace four times round."""
    black, red = ["S", "C"], ["H", "D"]
    used: dict[tuple[int, bool], int] = {}
    cards = []
    for i in range(52):
        value, is_red = 12 - i % 13, i % 2 == 1
        nth = used.get((value, is_red), 0)
        used[value, is_red] = nth + 1
        cards.append("A23456789TJQK"[value] + (red if is_red else black)[nth])
    return cards


# -- the text and emoji boards -------------------------------------------------------------------


def test_deal_1_shows_the_deal_of_the_docs() -> None:
    game = deal_1()
    found = text_rows(check_text(game))
    assert text_cards(found["R"]) == [("A♦", True)] and "+12 face down" in found["R"]
    assert text_cards(found["F"]) == [("Q♣", False)] and "(each starts at Q)" in found["F"]
    assert [text_cards(found[str(i)]) for i in range(1, 5)] == [[("K♥", False)], [("3♥", False)],
                                                                  [("2♠", False)], [("K♠", False)]]
    assert "34 cards" in found["S"] and "pass 1" in found["S"] and "d turns three" in found["S"]
    emoji = emoji_rows(check_emoji(game))
    assert emoji["R"] == "[🇦\u2060♦️]\u2002+12 face down"
    assert "**34** cards" in emoji["S"]
    check_text(game, compact=True)
    check_emoji(game, compact=True)


def test_turning_three_fans_the_top_three_and_turning_one_shows_the_top() -> None:
    game = deal_1("r3 32 d d")  # the position of docs/canfield.md section 6: W: 9D QD JS AS AH 3C
    for board, rows, cards_in in ((check_text(game), text_rows, text_cards),
                                  (check_emoji(game), emoji_rows, emoji_cards)):
        waste = rows(board)["W"]
        assert cards_in(waste) == [("A♠", False), ("A♥", False), ("3♣", True)]
        assert "+3 under them" in waste
    one = deal_1("d d d", options=("draw-one",))
    waste = text_rows(check_text(one))["W"]
    assert text_cards(waste) == [(one.waste[-1].pretty, True)] and "+2 under it" in waste
    assert "pass 1 of 3" in text_rows(check_text(one))["S"] and "d turns one" in check_text(one)


def test_random_playouts_show_what_a_player_sees_and_nothing_more() -> None:
    rng = random.Random("canfield boards")
    saw = Counter[str]()
    for playout in range(40):
        for game in canfield_playout(rng, OPTION_SETS[playout % len(OPTION_SETS)], 300, every=13):
            for compact in (False, True):
                check_text(game, compact=compact)
                check_emoji(game, compact=compact)
            pair = hidden_reshuffled(game, rng)
            if pair is not None:
                same, other = pair
                for compact in (False, True):
                    assert render_text(other, compact=compact) == render_text(same, compact=compact)
                    assert render_emoji(other, compact=compact) == render_emoji(same, compact=compact)
            saw["space"] += any(not pile for pile in game.piles)
            saw["long pile"] += max(map(len, game.piles)) >= 8
            saw["second pass"] += game.pass_number > 1
            saw["waste under"] += len(game.waste) > game.draw_count
            saw["stock out"] += game.stock_count == 0
            saw["over"] += game.outcome() is not None
            saw["reshuffled"] += pair is not None
    # The playouts must reach the boards that are hard to draw, or this test proves little.
    assert len(saw) == 7, saw


def test_the_reserve_out_leaves_spaces() -> None:
    game = built(piles={1: "KS QH", 3: "9D"}, waste="5C 7H 8C", stock="2D 3D", passes="1")
    for board, rows in ((check_text(game), text_rows), (check_emoji(game), emoji_rows)):
        found = rows(board)
        assert "empty" in found["R"] and "space" in found["2"] and "space" in found["4"]
    check_text(game, compact=True)
    check_emoji(game, compact=True)


def test_the_stock_row_says_what_d_does_once_the_stock_is_out() -> None:
    cases = [
        ({"passes": "2"}, "d turns the waste over"),
        ({"options": "draw-one passes-2", "passes": "2"}, "no pass left"),
        ({"options": "draw-one passes-1", "passes": "1"}, "one pass only"),
    ]
    for extra, words in cases:
        game = built(piles={1: "KS QH", 2: "9D", 3: "5C", 4: "7H"}, reserve="2C 3S", rest="waste", **extra)
        assert game.stock_count == 0
        stock = text_rows(check_text(game))["S"]
        assert "empty" in stock and words in stock, (extra, stock)
        check_emoji(game)
        check_text(game, compact=True)
        check_emoji(game, compact=True)


def test_a_pass_with_no_move_ends_the_game_and_says_so() -> None:
    game = built(piles={1: "KS", 2: "KC", 3: "5S", 4: "5C"}, waste="9S", rest="waste", passes="2 idle")
    assert game.is_over and game.pass_idle
    board = check_text(game)
    assert "no card could move this pass" in text_rows(board)["S"]
    assert "Game over" in board.split("\n\n")[-1]
    check_emoji(game)


def test_a_hidden_stock_shows_only_its_size() -> None:
    game = Game.from_text(deal_1("d").to_text(hide_stock=True))
    assert isinstance(game, CanfieldGame) and not game.stock_known
    assert "31 cards, order unknown" in text_rows(check_text(game))["S"]
    assert "**31** cards, order unknown" in emoji_rows(check_emoji(game))["S"]


def test_the_longest_boards_stay_within_discord_limits() -> None:
    run = one_long_run()
    spread = {i + 1: " ".join(run[13 * i: 13 * i + 13]) for i in range(4)}
    for piles in ({1: " ".join(run)}, spread):
        game = built(options="draw-one passes-2 partial-moves", piles=piles)
        assert max(map(len, game.piles)) in (13, 52) and game.stock_count == 0
        for compact in (False, True):
            text = check_text(game, compact=compact)
            emoji = check_emoji(game, compact=compact)
            assert len(emoji) < DISCORD_MESSAGE // 2
            if len(game.piles[0]) == 52:  # too long for a line: it wraps, in order (check_board)
                assert any(line.startswith(" ") and TEXT_CARD.search(line) for line in text.splitlines())
                assert any(line.startswith("\u2003") for line in emoji.splitlines())


def test_a_won_game_says_so() -> None:
    game = built(base="Q", foundations="JC JD JH JS")
    assert game.is_won
    for compact in (False, True):
        assert "52/52" in check_text(game, compact=compact).split("\n\n")[-1]
        assert "52/52" in check_emoji(game, compact=compact).split("\n\n")[-1]


# -- the PNG board -----------------------------------------------------------------------------


def check_layout(game: CanfieldGame, layout: Layout) -> None:
    """Every visible card once, where its pile is, inside the image; each pile labelled."""
    assert Counter(spot.card.pretty for spot in layout.cards) == visible(game)
    width, height = layout.size
    for spot in layout.cards:
        x0, y0, x1, y1 = spot.box
        assert 0 <= x0 < x1 <= width and 0 <= y0 < y1 <= height, spot
    assert {badge.text for badge in layout.badges} == LABELS
    assert [spot.card for spot in layout.spots("R")] == list(game.reserve[-1:])
    assert [spot.card for spot in layout.spots("W")] == shown_waste(game)
    for number, pile in enumerate(game.piles, start=1):
        spots = layout.spots(str(number))
        assert [spot.card for spot in spots] == list(pile)
        assert [spot.exposed for spot in spots] == [i == len(pile) - 1 for i in range(len(pile))]
        assert all(a.box[1] < b.box[1] for a, b in pairwise(spots))  # fanned downwards
    empty = [slot for slot in layout.slots if slot.kind is SlotKind.FOUNDATION]
    assert len(empty) == game.foundations.count(None) and all(slot.note == rank(game) for slot in empty)
    assert len(layout.backs) == (game.stock_count > 0) and layout.stock_count == game.stock_count


def test_png_of_deal_1_has_the_size_of_its_layout() -> None:
    game = deal_1("r3 32 d d")
    layout = layout_board(game)
    image = decode(render_png(game))
    assert image.size == layout.size and 600 <= image.width <= 800
    assert decode(render_png(deal_1())).height < image.width  # a fresh board fits Discord's preview
    check_layout(game, layout)
    check_pixels(game, layout, image)  # type: ignore[arg-type]
    waste = layout.spots("W")
    assert all(a.box[1] < b.box[1] for a, b in pairwise(waste)) and waste[-1].exposed
    assert any(text.text == "+10 under" for text in layout.texts)  # the reserve's face-down cards
    header = " ".join(text.text for text in layout.texts)
    assert "Canfield" in header and "deal 1" in header and "base Q" in header and "score 1/52" in header


def test_png_is_deterministic_and_blind_to_face_down_cards() -> None:
    rng = random.Random("canfield png")
    first = render_png(deal_1())
    compared = 0
    for playout in range(4):
        for game in canfield_playout(rng, OPTION_SETS[playout], 240, every=80):
            check_layout(game, layout_board(game))
            pair = hidden_reshuffled(game, rng)
            if pair is not None:
                same, other = pair
                assert render_png(other) == render_png(same)  # the same bytes, so the same pixels
                compared += 1
    assert compared >= 8
    assert render_png(deal_1()) == first  # other boards in between leave no trace
    assert render_png(deal_1("32")) != first


def test_png_long_piles_fit_inside_the_image() -> None:
    run = one_long_run()
    game = built(piles={1: " ".join(run[:13]), 2: " ".join(run[13:26]), 3: " ".join(run[26:])})
    layout = layout_board(game)
    image = decode(render_png(game))
    check_layout(game, layout)
    check_pixels(game, layout, image)  # type: ignore[arg-type]
    assert image.height < 2 * layout_board(deal_1()).size[1]  # a 26-card pile is squeezed, not stretched


# -- the rules ---------------------------------------------------------------------------------


def test_rules_say_the_base_rank_and_the_options() -> None:
    text = rules_text(deal_1(), width=60)
    assert all(len(line) <= 60 for line in text.splitlines()) and len(text.splitlines()) <= 25
    plain = " ".join(text.split())
    assert "Q in this game" in plain and "ending at J" in plain and "13 cards" in plain
    assert "three cards" in plain and "as often as you like" in plain and "only as a whole" in plain
    assert "3 passes" in rules_text(deal_1(options=("draw-one",)))
    assert "2 passes" in rules_text(deal_1(options=("draw-one", "passes-2")))
    assert "One pass" in rules_text(deal_1(options=("draw-one", "passes-1")))
    assert "partial-moves" in rules_text(deal_1(options=("partial-moves",)))
