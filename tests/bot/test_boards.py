"""Every board message stays within Discord's limits, over random games in every style."""

from __future__ import annotations

import random

import pytest

from gatebot.bot.boards import board_message
from gatebot.bot.views import board_components
from gatebot.rules import Game, GateGame
from gatebot.service import Preferences, Reply, ReplyKind
from gatebot.store import GameStatus

LONG_NOTE = "Column 9 doesn't exist: Gate has columns 1–8. " * 3
#: Drawn, never pressed: nothing answers these components.
COMPONENTS = board_components(None, None)  # type: ignore[arg-type]


def replies(seed: int, games: int = 40) -> list[Reply]:
    rng = random.Random(seed)
    out = []
    for n in range(games):
        variant = rng.choice(["gate", "little-gate"])
        game = Game.new(variant, deal=rng.randint(1, 2**32 - 1), options=rng.choice([(), ("single-moves",)]))
        assert isinstance(game, GateGame)
        for _ in range(rng.randint(0, 250)):
            legal = game.legal_moves()
            if not legal:
                break
            game.push(rng.choice(legal))
        status = GameStatus.ACTIVE if game.legal_moves() else GameStatus.LOST
        moves = tuple(str(m) for m in game.legal_moves()) if status is GameStatus.ACTIVE else ()
        out.append(Reply(ReplyKind.BOARD, LONG_NOTE if n % 2 else None, game.copy(), n + 1, len(game.moves) + 1,
                         status, (), ("draw", "undo", "resign"), moves))
    return out


@pytest.mark.parametrize("style", ["text", "emoji"])
@pytest.mark.parametrize("compact", [False, True])
async def test_text_and_emoji_boards_fit_a_message(style: str, compact: bool) -> None:
    for reply in replies(seed=len(style) * 2 + compact):
        board = await board_message(reply, Preferences(style, compact), COMPONENTS)
        assert board.content is not None and 0 < len(board.content) <= 2000
        check_components(board.view, reply)


async def test_image_boards_fit_an_embed() -> None:
    for reply in replies(seed=5, games=4):
        board = await board_message(reply, Preferences("image", False), COMPONENTS)
        assert board.file is not None and board.embed is not None
        assert len(board.embed.description or "") <= 4096
        check_components(board.view, reply)


def check_components(view, reply: Reply) -> None:
    assert view is not None
    items = view.children
    assert len(items) <= 25
    rows = {item.row for item in items}
    assert len(rows) <= 5
    for item in items:
        assert len(item.custom_id) <= 100
        options = getattr(getattr(item, "item", item), "options", None)
        if options is not None:
            assert 1 <= len(options) <= 25
            assert all(len(option.label) <= 100 for option in options)
    has_menu = any(getattr(item, "custom_id", "").startswith("gate:move:") for item in items)
    assert has_menu == (reply.status is GameStatus.ACTIVE and 0 < len(reply.moves) <= 25)
