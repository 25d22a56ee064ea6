"""The contract every variant in ``gatebot.rules.variants.VARIANTS`` keeps, walked from the list.

A variant is one unit: its rules class, its board drawings (``gatebot/render/<family>``) and,
if it has one, its solver (``gatebot/solver/<family>``), found through its ``family``. These
tests take every class from the list, so a variant added there without a drawing, with a
position text that doesn't read back, or with an undo that doesn't restore the position
fails here rather than in front of a player. The last test defines a fifth variant in the
test itself and shows that it plays, draws and gets hints with nothing else changed.
"""

from __future__ import annotations

import io
import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from gatebot.errors import UserError
from gatebot.render import (
    MissingBoard,
    boards_for,
    layout_board,
    notation_guide,
    render_emoji,
    render_png,
    render_spoken,
    render_text,
    rules_text,
)
from gatebot.rules import Game, GateGame, UnknownVariant, variants
from gatebot.rules.variants import VARIANTS, find_variant
from gatebot.solver import Outlook, Verdict, registry
from tests.rules.builders import archway, canfield, position

#: Discord's limits (not read from the bot): a message's content and an embed's description.
MESSAGE_LIMIT = 2000
DESCRIPTION_LIMIT = 4096
#: A board picture this big (bytes) would be slow to send: the real ones are a fraction of it.
PNG_LIMIT = 2_000_000

BY_NAME = pytest.mark.parametrize("variant", VARIANTS, ids=[variant.name for variant in VARIANTS])


def spellings(word: str) -> set[str]:
    """``word`` as a player might type it: any case, spaces or underscores for hyphens."""
    forms = {word, word.upper(), word.lower(), word.title(), word.swapcase()}
    return forms | {form.replace("-", " ") for form in forms} | {form.replace("-", "_") for form in forms}


def option_sets(variant: type[Game]) -> list[tuple[str, ...]]:
    """No option, then each of the variant's options alone that it can be dealt with."""
    sets: list[tuple[str, ...]] = [()]
    for option in variant.known_options:
        try:
            variant.new(deal=1, options=(option,))
        except UserError:
            continue  # an option that only goes with another (Canfield's passes with draw-one)
        sets.append((option,))
    return sets


def played_out(game: Game, rng: random.Random, limit: int = 2000) -> Game:
    """``game`` played on at random, foundation plays first, never back to a position it has been in.

    It stops when no legal move is left (the game is over) or every one leads back (the
    cards only go round), which a one-pass stock and a finite deck make sure of.
    """
    seen = {game.to_text()}
    for _ in range(limit):
        fresh = []
        for move in game.legal_moves():
            game.push(move)
            text = game.to_text()
            game.undo()
            if text not in seen:
                fresh.append((move, text))
        if not fresh:
            return game
        up = [pair for pair in fresh if game.is_foundation(pair[0].target)]
        move, text = up[0] if up else rng.choice(fresh)
        game.push(move)
        seen.add(text)
    raise AssertionError(f"{game.title} was still going after {limit} random moves")


def png_size(data: bytes) -> tuple[int, int]:
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    return image.size


def check_boards(game: Game) -> None:
    """Every board style draws ``game`` within Discord's limits, naming the variant."""
    for compact in (False, True):
        text = render_text(game, compact=compact)
        assert game.title in text.replace("\n", " ") or game.title.upper() in text
        assert len(f"```\n{text}\n```") <= MESSAGE_LIMIT
        assert len(render_text(game, compact=compact, colour=True)) >= len(text)
        emoji = render_emoji(game, compact=compact)
        assert 0 < len(emoji) <= MESSAGE_LIMIT
    layout = layout_board(game)
    data = render_png(game)
    assert png_size(data) == layout.size
    assert len(data) <= PNG_LIMIT
    assert len(f"```\n{rules_text(game, width=60)}\n```") <= MESSAGE_LIMIT
    spoken = render_spoken(game)
    assert game.title in spoken and 0 < len(spoken) <= MESSAGE_LIMIT


# -- names ----------------------------------------------------------------------------------


@BY_NAME
def test_a_variant_is_found_by_its_name_title_and_aliases_in_any_case(variant: type[Game]) -> None:
    for word in (variant.name, variant.title, *variant.aliases):
        for typed in spellings(word):
            assert find_variant(typed) is variant, typed
    assert variant.name in variants.variant_names()


def test_no_two_variants_share_a_name() -> None:
    words = [word.lower() for variant in VARIANTS for word in {variant.name, variant.title.lower(), *variant.aliases}]
    assert len(words) == len(set(words))


def test_an_unknown_name_is_refused_in_one_sentence_listing_every_variant() -> None:
    with pytest.raises(UnknownVariant) as raised:
        find_variant("klondike")
    message = str(raised.value)
    assert "\n" not in message and "klondike" in message
    assert all(variant.name in message for variant in VARIANTS)


# -- rules: the text reads back, every legal move plays and undoes ------------------------


@BY_NAME
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deal=st.integers(1, 2**32 - 1), data=st.data())
def test_every_legal_move_plays_and_undoes_back_to_the_same_text(variant: type[Game], deal: int, data) -> None:
    options = data.draw(st.sampled_from(option_sets(variant)), label="options")
    game = variant.new(deal=deal, options=options)
    assert (game.name, game.options, game.deal) == (variant.name, options, deal)
    for _ in range(data.draw(st.integers(0, 60), label="length")):
        text = game.to_text()
        assert Game.from_text(text).to_text() == text
        assert Game.from_text(game.to_text(hide_stock=True)).to_text(hide_stock=True) == game.to_text(hide_stock=True)
        legal = game.legal_moves()
        assert len(set(legal)) == len(legal)
        if not legal:
            assert game.is_over and game.outcome() is not None
            break
        for move in legal:
            board = game.copy()
            assert board.play(str(move)) == move
            note = board.fill_note(game, move)
            assert note is None or (note.endswith(".") and "\n" not in note)
            assert board.undo() == move and board.to_text() == text
        game.push(data.draw(st.sampled_from(legal), label="move"))
    assert 0 <= game.score <= variant.card_count
    assert game.is_over == (game.is_won or not game.legal_moves())


@BY_NAME
def test_the_facts_a_variant_declares_hold_on_its_deal(variant: type[Game]) -> None:
    game = variant.new(deal=1)
    assert game.has_stock == (game.stock_count > 0)
    assert game.hidden_count >= game.stock_count
    assert game.known_options == tuple(option.name for option in variant.rule_options)
    assert all(option.help for option in variant.rule_options)
    assert len(game.foundation_heights()) > 0 and sum(game.foundation_heights()) == game.score


# -- boards -----------------------------------------------------------------------------------


@BY_NAME
def test_every_board_style_draws_the_deal_and_a_played_out_game_within_discords_limits(variant: type[Game]) -> None:
    for options in option_sets(variant):
        game = variant.new(deal=7, options=options)
        check_boards(game)
        check_boards(played_out(game.copy(), random.Random(7)))
        assert notation_guide(game), f"{variant.title} has no guide to its notation for the help"
    assert boards_for(variant) is boards_for(variant.new(deal=1))


def test_a_variant_without_drawings_is_told_what_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game.new("gate", deal=1)
    monkeypatch.setattr(GateGame, "family", "nowhere")
    for draw in (render_text, render_emoji, render_spoken, layout_board, rules_text, notation_guide):
        with pytest.raises(MissingBoard, match=r"Gate: no package gatebot\.render\.nowhere"):
            draw(game)


# -- solvers ----------------------------------------------------------------------------------

#: A few moves from a win, for every variant with a solver (a new one adds its own here).
NEARLY_WON = {
    "gate": lambda: position(foundations="QC QD JH QS", columns={1: "KC", 2: "KD", 3: "KH QH", 4: "KS"}),
    "little-gate": lambda: position(variant="little-gate", foundations="QC QD QH JS", columns={2: "KS QS", 3: "KC"},
                                    waste="KD KH"),
    "canfield": lambda: canfield(foundations="QC QD QH JS", piles={1: "KC", 2: "KD", 3: "KH QS", 4: "KS"}),
    "archway": lambda: archway(aces="QC QD JH QS", kings="AC AD AH AS", columns={1: "QH"}, arch="KC KD KH KS"),
}


@BY_NAME
def test_a_registered_solver_hints_a_legal_move_and_solves_a_nearly_won_position(variant: type[Game]) -> None:
    game = variant.new(deal=1)
    if registry.solver_for(variant) is None:
        assert not registry.thinks_about(game)
        with pytest.raises(registry.NotSolved, match=variant.title):
            registry.hint(game, seconds=0.1)
        return
    assert registry.thinks_about(game)
    found = registry.hint(game, seconds=0.3)
    assert found.move in game.legal_moves() and found.reason
    near = NEARLY_WON[variant.name]()
    assert type(near) is variant and not near.is_won
    solution = registry.solve(near, max_nodes=10_000, max_seconds=5)
    assert solution.verdict is Verdict.WINNABLE
    for move in solution.line:
        near.play(move)
    assert near.is_won and near.outcome() is not None and near.outcome().won
    check_boards(near)  # a won game, on every board style
    assert "won" in render_text(near).lower() and "won" in render_emoji(near).lower()


# -- a fifth variant, defined here ------------------------------------------------------------


class WideGateGame(GateGame):
    """Gate with six columns: a variant no module of gatebot knows, only this test."""

    name = "wide-gate"
    title = "Wide Gate"
    aliases = ("six",)
    column_count = 6
    __slots__ = ()


@pytest.fixture
def wide_gate(monkeypatch: pytest.MonkeyPatch) -> type[GateGame]:
    """The fifth variant, in the variant list and its lookup for the test's length."""
    monkeypatch.setattr(variants, "VARIANTS", (*VARIANTS, WideGateGame))
    lookup = {variants._key(word): WideGateGame for word in ("wide-gate", "Wide Gate", "six")}
    monkeypatch.setattr(variants, "_BY_NAME", {**variants._BY_NAME, **lookup})
    return WideGateGame


def test_a_fifth_variant_plays_draws_every_board_and_gets_hints_with_no_other_change(wide_gate) -> None:
    game = Game.new("Wide Gate", deal=5)
    assert type(game) is wide_gate and len(game.columns) == 6
    assert find_variant("SIX") is wide_gate and "wide-gate" in variants.variant_names()
    text = game.to_text()
    assert text.splitlines()[0] == "wide-gate" and Game.from_text(text).to_text() == text
    move = game.legal_moves()[0]
    game.play(move)
    assert game.undo() == move and game.to_text() == text
    check_boards(game)
    assert re.search(r"^6 ", render_text(game), re.M) and not re.search(r"^7 ", render_text(game), re.M)
    assert "Columns 1-6" in rules_text(game)
    check_boards(played_out(game.copy(), random.Random(5)))
    found = registry.hint(game, seconds=0.3)
    assert found.move in game.legal_moves() and found.outlook is Outlook.OPEN
    assert registry.positions_behind(game) == ()
