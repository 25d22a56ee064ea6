"""Replays: a game's positions from its deal and log, undos as they happened, and its animated picture.

The animation of a won deal (a winning line the solver found) is decoded and checked frame
by frame against the positions it should show: one frame a position, the deal first and the
won board last, each shown for as long as it should be, and the whole under 2 MB.
"""

from __future__ import annotations

import io
import random
from dataclasses import replace
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops, ImageStat, features

from gatebot.render import replay
from gatebot.render.boards import layout_board
from gatebot.render.image import draw_board
from gatebot.render.replay import FIRST_FRAME_MS, FRAME_MS, LAST_FRAME_MS, animate, positions
from gatebot.rules import VARIANTS, Game, RulesError
from gatebot.solver import Verdict, registry
from gatebot.solver.deals import winnable_deals
from tests.render.playouts import random_step

UNDO = "u"
TWO_MB = 2 * 1024 * 1024


def won_log() -> tuple[Game, list[str]]:
    """A Gate deal proved winnable and a log that wins it, with a move taken back and played again."""
    deal = Game.new("gate", deal=winnable_deals("gate")[0])
    solution = registry.solve(deal.copy())
    assert solution.verdict is Verdict.WINNABLE
    line = [str(move) for move in solution.line]
    return deal, [*line[:3], UNDO, *line[2:]]


def frames_of(data: bytes) -> list[tuple[Image.Image, int]]:
    """Every frame of an animated picture, as RGB, with how long it is shown (ms)."""
    image = Image.open(io.BytesIO(data))
    found = []
    for index in range(getattr(image, "n_frames", 1)):
        image.seek(index)
        found.append((image.convert("RGB"), int(image.info["duration"])))
    return found


def drawn(game: Game, size: tuple[int, int]) -> Image.Image:
    """The board of ``game`` as a replay frame of ``size`` draws it, before encoding."""
    return draw_board(replace(layout_board(game, replay.REPLAY_SCALE), size=size)).convert("RGB")


def distance(a: Image.Image, b: Image.Image) -> float:
    """The mean difference of two pictures' pixels, 0 to 255."""
    return sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3


@pytest.fixture(scope="module")
def won_game() -> tuple[list[Game], replay.Animation]:
    deal, log = won_log()
    seen = positions(deal, log, undo_token=UNDO)
    return seen, animate(seen)


def test_a_won_deal_animates_one_frame_a_position_from_the_deal_to_the_won_board_under_2_mb(
    won_game: tuple[list[Game], replay.Animation],
) -> None:
    seen, animation = won_game
    assert seen[-1].is_won and not seen[0].moves
    distinct = 1 + sum(a.to_text() != b.to_text() for a, b in pairwise(seen))
    frames = frames_of(animation.data)
    assert Image.open(io.BytesIO(animation.data)).format == "GIF"
    assert len(frames) == animation.frames == distinct == len(seen)
    assert len(animation.data) < TWO_MB
    deal_board, won_board = drawn(seen[0], animation.size), drawn(seen[-1], animation.size)
    first, last = frames[0][0], frames[-1][0]
    assert first.size == last.size == animation.size
    assert distance(first, deal_board) < 2 < distance(first, won_board)
    assert distance(last, won_board) < 2 < distance(last, deal_board)
    # The undo shows as it happened: the position before the taken-back move, again.
    assert distance(frames[4][0], drawn(seen[2], animation.size)) < 2
    durations = [duration for _, duration in frames]
    assert durations == [FIRST_FRAME_MS] + [FRAME_MS] * (len(frames) - 2) + [LAST_FRAME_MS]
    assert FIRST_FRAME_MS > FRAME_MS < LAST_FRAME_MS  # the deal and the end stay longer


def test_positions_replay_undos_as_they_happened_and_leave_the_deal_alone() -> None:
    deal, log = won_log()
    seen = positions(deal, log[:5], undo_token=UNDO)
    assert len(seen) == 6 and not deal.moves
    assert seen[4].to_text() == seen[2].to_text()  # 3 moves, the third taken back
    assert seen[5].to_text() == seen[3].to_text()  # and played again
    assert [str(move) for move in seen[5].moves] == log[:3]


def test_a_log_that_does_not_replay_raises_the_rules_error() -> None:
    deal = Game.new("gate", deal=1)
    with pytest.raises(RulesError):
        positions(deal, ["zz"], undo_token=UNDO)
    with pytest.raises(ValueError, match="before any was played"):
        positions(deal, [UNDO], undo_token=UNDO)


def test_positions_that_look_the_same_one_after_another_are_one_frame_shown_as_long() -> None:
    deal = Game.new("gate", deal=7)
    moved = deal.copy()
    moved.play(moved.legal_moves()[0])
    animation = animate([deal, deal.copy(), moved])
    frames = frames_of(animation.data)
    assert animation.frames == len(frames) == 2
    assert frames[0][1] == FIRST_FRAME_MS + FRAME_MS


def test_a_long_game_is_shown_by_evenly_spaced_positions_the_deal_and_the_end_among_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = Game.new("gate", deal=3)
    seen = [game.copy()]
    rng = random.Random(3)
    while len(seen) < 12 and random_step(game, rng, build_share=0.8):
        seen.append(game.copy())
    monkeypatch.setattr(replay, "MAX_FRAMES", 4)
    animation = animate(seen)
    frames = frames_of(animation.data)
    assert animation.frames == len(frames) == 4
    assert distance(frames[0][0], drawn(seen[0], animation.size)) < 2
    assert distance(frames[-1][0], drawn(seen[-1], animation.size)) < 2


@pytest.mark.skipif(not features.check("webp"), reason="this Pillow has no WebP")
def test_the_replay_as_webp_is_no_larger_than_the_gif_and_shows_the_same_frames(
    won_game: tuple[list[Game], replay.Animation],
) -> None:
    seen, gif = won_game
    webp = animate(seen, image_format="webp")
    assert Image.open(io.BytesIO(webp.data)).format == "WEBP" and webp.mime_type == "image/webp"
    assert len(webp.data) <= len(gif.data)
    webp_frames, gif_frames = frames_of(webp.data), frames_of(gif.data)
    assert len(webp_frames) == webp.frames == gif.frames == len(seen)
    # Lossless over the GIF's colours: the very same pixels, shown as long.
    for (webp_frame, webp_ms), (gif_frame, gif_ms) in zip(webp_frames, gif_frames, strict=True):
        assert webp_frame.tobytes() == gif_frame.tobytes() and webp_ms == gif_ms


def test_an_unknown_picture_format_or_no_position_is_refused() -> None:
    with pytest.raises(ValueError, match="webp or a gif"):
        animate([Game.new("gate", deal=1)], image_format="png")
    with pytest.raises(ValueError, match="at least one"):
        animate([])


@settings(max_examples=8, deadline=None)
@given(
    variant=st.sampled_from([cls.name for cls in VARIANTS]),
    deal=st.integers(1, 2**32 - 1),
    steps=st.lists(st.booleans(), max_size=12),
)
def test_any_log_of_moves_and_undos_replays_to_the_game_it_was_played_as(
    variant: str, deal: int, steps: list[bool]
) -> None:
    """Each step plays a legal move or takes one back; the replay of the log ends where the game did."""
    start = Game.new(variant, deal=deal)
    game = start.copy()
    rng = random.Random(deal)
    log: list[str] = []
    for undo in steps:
        if undo and game.moves:
            game.undo()
            log.append(UNDO)
        elif game.legal_moves():
            move = rng.choice(game.legal_moves())
            game.play(move)
            log.append(str(move))
    seen = positions(start, log, undo_token=UNDO)
    assert len(seen) == len(log) + 1
    assert seen[0].to_text() == start.to_text()
    assert seen[-1].to_text() == game.to_text()
    animation = animate(seen[:3], scale=0.25)
    assert len(frames_of(animation.data)) == animation.frames
