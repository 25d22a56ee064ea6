"""The result card: its grid shows when cards went up and never which cards, and it fits a message."""

import dataclasses
import math
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gatebot.locale import translator
from gatebot.render.card import DEALT, DEALT_SQUARE, NEVER, THIRDS, ResultCard, duration, render_card
from gatebot.rules import Game
from gatebot.service.stats import ascents
from tests.lines import LOST_DEAL_10, NO_WIN_DEAL_1, WIN_DEAL_1

SQUARES = (*THIRDS, NEVER)
#: A card written any way the game writes one: 7H, 7h, 10♦, T♦, Q♠ ...
CARD_NAME = re.compile(r"(?<![A-Za-z0-9])(?:10|[A2-9TJQK])[CDHScdhs♣♦♥♠](?![A-Za-z])")
SUIT_SYMBOLS = "♣♦♥♠"


def engine_score(deal: int, steps: list[str]) -> int:
    game = Game.new("gate", deal=deal)
    for step in steps:
        game.play(step)
    return game.score


def card_of(deal: int, steps: list[str], *, won: bool = False, challenge: str | None = None,
            **counts: int) -> ResultCard:
    return ResultCard(
        title="Gate", deal=deal, won=won, score=engine_score(deal, steps), moves=counts.get("moves", len(steps)),
        hints=counts.get("hints", 0), undos=counts.get("undos", 0), seconds=counts.get("seconds", 372),
        ascents=ascents("gate", deal, (), steps), steps=len(steps), challenge=challenge,
    )


GAMES = {
    "won": (1, WIN_DEAL_1),
    "lost": (10, LOST_DEAL_10),
    "stuck": (1, NO_WIN_DEAL_1),
    "half": (1, WIN_DEAL_1[:60]),
}


def grid(text: str) -> list[str]:
    lines = text.splitlines()
    assert len(lines) == 7, text
    return lines[1:5]


@pytest.mark.parametrize("name", GAMES)
def test_the_grid_is_four_rows_of_thirteen_squares_one_coloured_per_card_home(name: str) -> None:
    deal, steps = GAMES[name]
    card = card_of(deal, steps, won=name == "won")
    rows = grid(render_card(card))
    assert all(len(row) == 13 and set(row) <= set(SQUARES) for row in rows), rows
    coloured = sum(row.count(square) for row in rows for square in THIRDS)
    assert coloured == engine_score(deal, steps) == card.score
    assert sum(row.count(NEVER) for row in rows) == 52 - card.score


@pytest.mark.parametrize("name", GAMES)
def test_each_square_is_coloured_by_the_third_of_the_game_its_card_went_up_in(name: str) -> None:
    deal, steps = GAMES[name]
    rows = grid(render_card(card_of(deal, steps)))
    n = len(steps)
    first, second = math.ceil(n / 3), math.ceil(2 * n / 3)
    by_third = [sum(row.count(square) for row in rows) for square in THIRDS]
    assert by_third[0] == engine_score(deal, steps[:first])
    assert by_third[0] + by_third[1] == engine_score(deal, steps[:second])
    # A foundation builds up from its Ace: along a row, squares never go back to an earlier third.
    order = {square: rank for rank, square in enumerate(SQUARES)}
    for row in rows:
        assert [order[s] for s in row] == sorted(order[s] for s in row), row


def test_an_undone_card_is_not_counted_as_home() -> None:
    # A♦ up (3f), then taken back, then the game goes on without it: the grid says so.
    steps = ["3f", "u", "45"]
    found = ascents("gate", 1, (), steps)
    assert all(step is None for row in found for step in row)
    again = ascents("gate", 1, (), ["3f", "u", "3f"])
    assert again[1][0] == 2  # up for good at the third step, the last third


def test_the_card_names_no_card_and_a_challenge_hides_its_deal() -> None:
    card = card_of(86421, [], challenge="Friday Cup")
    won = card_of(1, WIN_DEAL_1, won=True, challenge="Daily 2024-03-01", hints=3, undos=2)
    for text in (render_card(card), render_card(won)):
        assert not CARD_NAME.search(text), text
        assert not any(symbol in text for symbol in SUIT_SYMBOLS)
    assert "86421" not in render_card(card) and "deal" not in render_card(card)
    assert "Friday Cup" in render_card(card)
    header = render_card(won).splitlines()[0]
    assert "Gate" in header and "Daily 2024-03-01" in header and "won" in header and "52/52" in header


def test_the_header_gives_the_deal_or_the_score_and_the_last_line_the_counts() -> None:
    lost = card_of(10, LOST_DEAL_10, hints=1, undos=0, seconds=4000)
    text = render_card(lost)
    header, counts = text.splitlines()[0], text.splitlines()[-1]
    assert "deal 10" in header and f"{lost.score}/52" in header and "won" not in header
    assert f"{len(LOST_DEAL_10)} moves" in counts and "1 hint" in counts and "no undos" in counts
    assert "1:06:40" in counts


def test_the_card_fits_a_discord_message_even_at_its_longest() -> None:
    card = card_of(1, WIN_DEAL_1, won=True, challenge="C" * 100, moves=10**9, hints=10**9, undos=10**9,
                   seconds=10**9)
    text = render_card(card)
    assert len(text) < 2000 and len(text.encode("utf-16-le")) // 2 < 2000


@pytest.mark.parametrize(("seconds", "shown"), [(0, "0:00"), (42.4, "0:42"), (372, "6:12"), (3723, "1:02:03")])
def test_durations(seconds: float, shown: str) -> None:
    assert duration(seconds) == shown


def test_an_archway_card_has_eight_rows_its_bases_white_and_a_score_out_of_104() -> None:
    steps = ["2ca", "qck", "2da", "u"]
    game = Game.new("archway", deal=1)
    game.play_line("2ca qck")
    card = ResultCard(title="Archway", deal=1, won=False, score=game.score, moves=3, hints=0, undos=1,
                      seconds=None, ascents=ascents("archway", 1, (), steps), steps=len(steps), total=104)
    lines = render_card(card).splitlines()
    assert lines[0] == "Archway · deal 1 · 10/104" and lines[-1] == "3 moves · no hints · 1 undo"
    rows = lines[1:-2]
    assert len(rows) == 8 and all(len(row) == 13 for row in rows)
    assert [row[0] for row in rows] == [DEALT_SQUARE] * 8  # each foundation's base, there from the deal
    assert rows[0][1] == rows[1][1] == THIRDS[0]  # 2♣ up and Q♣ down, both in the first third
    assert rows[2][1] == NEVER  # 2♦ was taken back
    assert sum(row.count(NEVER) for row in rows) == 104 - game.score
    won = ResultCard(title="Archway", deal=1, won=True, score=104, moves=300, hints=0, undos=0, seconds=60.0,
                     ascents=card.ascents, steps=4, total=104)
    assert render_card(won).splitlines()[0] == "Archway · deal 1 · won 104/104"


def test_the_legend_under_the_grid_says_what_each_coloured_square_means() -> None:
    lines = render_card(card_of(1, WIN_DEAL_1, won=True)).splitlines()
    assert lines[5] == "🟩 early · 🟨 mid-game · 🟧 late"  # a win: every card went up, none was dealt
    lost = render_card(card_of(10, LOST_DEAL_10)).splitlines()
    assert lost[5] == "🟩 early · 🟨 mid-game · 🟧 late · ⬛ never home"


#: A foundation's thirteen squares: the step that put each card up, there from the deal, or never up.
FOUNDATION = st.lists(st.one_of(st.none(), st.just(DEALT), st.integers(0, 299)), min_size=13, max_size=13)


@settings(max_examples=25, deadline=None)
@given(rows=st.lists(FOUNDATION, min_size=4, max_size=8), steps=st.integers(0, 300))
def test_the_legend_explains_every_square_the_grid_shows_in_one_short_line(
    rows: list[list[int | None]], steps: int
) -> None:
    card = ResultCard(title="Archway", deal=1, won=False, score=0, moves=steps, hints=0, undos=0, seconds=None,
                      ascents=tuple(tuple(row) for row in rows), steps=steps, total=13 * len(rows))
    lines = render_card(card).splitlines()
    grid, legend = lines[1:1 + len(rows)], lines[1 + len(rows)]
    explained = {part.split(" ", 1)[0] for part in legend.split(" · ")}
    assert {square for row in grid for square in row} <= explained
    assert set(THIRDS) <= explained, "the three colours are always explained"
    assert len(legend) <= 80 and CARD_NAME.search(legend) is None
    assert len(render_card(card)) < 2000


GERMAN = translator("de")
#: Words only the English card has: its header's, its legend's, its counts'.
CARD_ENGLISH = re.compile(r"\b(deal|won|early|mid-game|late|from the deal|never home|moves?|hints?|undos?|no)\b")


def test_a_german_card_words_its_header_legend_and_counts_and_keeps_the_grid() -> None:
    card = card_of(1, WIN_DEAL_1, won=True, hints=2, undos=0)
    german, english = render_card(card, GERMAN).splitlines(), render_card(card).splitlines()
    assert german[0] == "Gate · Spiel 1 · gewonnen 52/52"
    assert german[5] == "🟩 früh · 🟨 Spielmitte · 🟧 spät"
    assert german[6] == f"{len(WIN_DEAL_1)} Züge · 2 Tipps · keine Rücknahmen · 6:12"
    assert german[1:5] == english[1:5]  # the squares are the same in every language
    assert english[0] == "Gate · deal 1 · won 52/52" and english[6].endswith("2 hints · no undos · 6:12")


@settings(max_examples=15, deadline=None)
@given(st.integers(0, len(WIN_DEAL_1)), st.integers(0, 3), st.integers(0, 3), st.booleans())
def test_no_english_is_left_on_a_german_card(played: int, hints: int, undos: int, dealt: bool) -> None:
    steps = WIN_DEAL_1[:played]
    card = card_of(1, steps, won=played == len(WIN_DEAL_1), hints=hints, undos=undos, moves=played)
    if dealt:  # a card that lay on its foundation from the deal, as in Canfield: the white square's meaning too
        card = dataclasses.replace(card, ascents=((DEALT, *card.ascents[0][1:]), *card.ascents[1:]))
    text = render_card(card, GERMAN)
    assert not CARD_ENGLISH.search(text), text
    assert ("seit dem Austeilen" in text) == dealt and ("nie abgelegt" in text) == (card.score < 52)
