"""Dealing Archway through the service: a plain deal says how rarely it is won, and winnable deals don't repeat soon.

Nearly every plain Archway deal is lost before the first move, so the deal's message says how
often one can be won and names the commands that deal a game that can be, in the words of the
front end it was dealt from; a proven deal says it is one. Winnable Archway comes from a short
list of proven deals: a player is dealt each of them before any comes back.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from gatebot.bot.games.wording import slash_deal_command
from gatebot.rules import Game
from gatebot.service import Actor, GameService, ReplyKind
from gatebot.solver import Verdict, solve
from gatebot.solver.deals import winnable_deals
from gatebot.store import Database

ALICE = Actor("terminal", "alice", "Alice")
BOB = Actor("terminal", "bob", "Bob")

#: A plain Archway deal the shipped list doesn't hold (the solver proves it lost).
LOST_DEAL = 3


@pytest.fixture
def solver() -> Iterator[ThreadPoolExecutor]:
    with ThreadPoolExecutor(max_workers=1) as pool:
        yield pool


def test_the_lost_deal_used_here_is_really_lost() -> None:
    assert LOST_DEAL not in winnable_deals("archway")
    found = solve(Game.new("archway", deal=LOST_DEAL), max_nodes=10_000, max_seconds=10)
    assert found.verdict is Verdict.LOST


async def test_a_plain_archway_deal_says_it_is_almost_surely_lost_and_how_to_win(db: Database) -> None:
    service = GameService(db, deal_picker=lambda: LOST_DEAL)
    dealt = await service.new_game(ALICE, "archway")
    assert dealt.kind is ReplyKind.BOARD and dealt.game is not None and dealt.game.deal == LOST_DEAL
    assert dealt.message is not None
    note = dealt.message
    assert note.startswith("Dealt Archway deal 3. ")
    assert "About 4 deals in 1,000 of Archway can be won." in note  # docs/figures.md: 4 of 979 decided deals
    assert "new archway kit" in note and "new archway winnable" in note
    assert note.count(". ") == 2 and note.endswith(".")  # the deal's line, then two short sentences
    assert dealt.actions[-1] == "winnable"  # a front end may offer a proven deal in one press
    by_number = await service.new_game(ALICE, "archway", deal=LOST_DEAL, confirm=True)
    assert by_number.message is not None and "new archway kit" in by_number.message


async def test_the_note_names_the_front_ends_own_commands(db: Database) -> None:
    service = GameService(db, new_command="/gate new", deal_command=slash_deal_command, deal_picker=lambda: LOST_DEAL)
    dealt = await service.new_game(ALICE, "archway")
    assert dealt.message is not None
    assert "/gate new variant:Archway options:kit" in dealt.message
    assert "/gate new variant:Archway winnable:True" in dealt.message
    assert "new archway" not in dealt.message


async def test_games_that_can_be_won_get_no_note_and_proven_ones_say_so(
    db: Database, solver: ThreadPoolExecutor
) -> None:
    service = GameService(db, solver=solver, winnable_tries=0, deal_picker=lambda: LOST_DEAL)
    kit = await service.new_game(Actor("terminal", "kit", "Kit"), "archway", options=("kit",))
    assert kit.message == "Dealt Archway deal 3."  # with kit every deal can be won
    proven = await service.new_game(Actor("terminal", "proven", "Proven"), "archway", winnable=True)
    assert proven.game is not None and proven.message == (
        f"Dealt Archway deal {proven.game.deal}. This deal is proven winnable: the solver found a win.")
    assert "winnable" not in proven.actions
    listed = winnable_deals("archway")[0]
    asked = await service.new_game(Actor("terminal", "listed", "Listed"), "archway", deal=listed)
    assert asked.message == f"Dealt Archway deal {listed}. This deal is proven winnable: the solver found a win."
    gate = await service.new_game(BOB, "gate")
    assert gate.message == "Dealt Gate deal 3."


async def test_winnable_archway_deals_every_listed_deal_before_one_comes_back(
    db: Database, solver: ThreadPoolExecutor
) -> None:
    listed = winnable_deals("archway")
    service = GameService(db, solver=solver, winnable_tries=0, rng=random.Random(3))
    dealt = []
    for _ in range(len(listed) + 2):
        reply = await service.new_game(ALICE, "archway", winnable=True, confirm=True)
        assert reply.kind is ReplyKind.BOARD and reply.game is not None
        dealt.append(reply.game.deal)
    assert sorted(dealt[: len(listed)]) == sorted(listed)  # each once, before any repeat
    assert dealt[len(listed):] == dealt[:2]  # then again from the one dealt longest ago
    other = await service.new_game(BOB, "archway", winnable=True)  # another player's history is their own
    assert other.game is not None and other.game.deal in listed
    again = await service.new_game(ALICE, "archway", winnable=True, confirm=True)
    assert again.game is not None and again.game.deal == dealt[2]
