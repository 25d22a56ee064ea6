"""Hints, the Auto button's endgame, the End game offer and winnable deals, through the service.

The solver runs in a thread pool here (a worker process is slower to start); one test
uses the service's own worker process, as the bot and the terminal do.
"""

import asyncio
import random
import re
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor

import pytest
from sqlalchemy import event

from gatebot.locale import translator
from gatebot.rules import Game
from gatebot.rules.autoplay import autoplay
from gatebot.service import Actor, GameService, ReplyKind, replay
from gatebot.service.history import History
from gatebot.service.stats import Statistics, stats_text
from gatebot.service.thinking import hint_for, solve_text
from gatebot.solver import Verdict, registry, solve
from gatebot.solver.deals import winnable_deals
from gatebot.solver.gate.hint import hint
from gatebot.store import Database, GameRecord, GameStatus
from tests.lines import NEEDS_SOLVER_DEAL_1, NO_WIN_DEAL_1, STOCK_OUT_DEAL_1, WIN_DEAL_1

ALICE = Actor("discord", "1001", "Alice")
BOB = Actor("discord", "1002", "Bob")
NO_WIN = "No win is left from here — 9 cards are home. Type end to finish, or play on."


class Recording(ThreadPoolExecutor):
    """A thread pool that remembers what it was asked to run."""

    def __init__(self) -> None:
        super().__init__(max_workers=1)
        self.calls: list[tuple[object, tuple[object, ...]]] = []

    def submit(self, fn, /, *args, **kwargs) -> Future:
        self.calls.append((fn, args))
        return super().submit(fn, *args, **kwargs)


@pytest.fixture
def solver() -> Iterator[Recording]:
    with Recording() as pool:
        yield pool


async def stored(db: Database, game_id: int) -> GameRecord:
    async with db.sessions() as session:
        record = await session.get(GameRecord, game_id)
        assert record is not None
        return record


async def test_a_hint_is_private_counted_once_per_position_and_plays_nothing(db: Database, solver) -> None:
    service = GameService(db, solver=solver)
    start = await service.new_game(ALICE, deal=1)
    asked = await service.hint(ALICE)
    assert asked.kind is ReplyKind.HINT and asked.private and not asked.ok
    assert asked.suggestion in start.moves
    assert asked.message.startswith("Hint: ") and f"(`{asked.suggestion}`)" in asked.message
    assert asked.played == () and asked.version == start.version
    record = await stored(db, start.game_id)
    assert (record.hint_count, record.version, record.log) == (1, start.version, "")
    assert record.position == start.game.to_text()

    again = await service.hint(ALICE)  # the same position: the same hint, not counted again
    assert again.message == asked.message
    assert (await stored(db, start.game_id)).hint_count == 1
    assert sum(1 for fn, _ in solver.calls if fn is hint_for) == 1

    drawn = await service.act(ALICE, "draw", game_id=start.game_id, expected_version=start.version)
    assert drawn.kind is ReplyKind.BOARD and drawn.played == ("d",)  # the board's buttons were still valid
    await service.hint(ALICE)
    assert (await stored(db, start.game_id)).hint_count == 2
    await service.undo(ALICE)  # back to the first position: asked about already
    await service.hint(ALICE)
    assert (await stored(db, start.game_id)).hint_count == 2


async def test_a_fresh_service_counts_a_new_ask_and_keeps_the_version(db: Database, solver) -> None:
    start = await GameService(db, solver=solver).new_game(ALICE, deal=2)
    await GameService(db, solver=solver).hint(ALICE)
    record = await stored(db, start.game_id)
    assert (record.hint_count, record.version) == (1, start.version)
    moved = await GameService(db, solver=solver).play(ALICE, "d")
    assert moved.version == start.version + 1


async def test_the_hint_button_follows_the_rules_of_the_other_buttons(db: Database, solver) -> None:
    service = GameService(db, solver=solver, new_command="/gate new")
    start = await service.new_game(ALICE, deal=1)
    other = await service.act(BOB, "hint", game_id=start.game_id, expected_version=start.version)
    assert other.kind is ReplyKind.ERROR and other.message == "This is Alice's game: start your own with /gate new."
    await service.play(ALICE, "d")
    old = await service.act(ALICE, "hint", game_id=start.game_id, expected_version=start.version)
    assert old.kind is ReplyKind.STALE
    assert (await stored(db, start.game_id)).hint_count == 0
    assert solver.calls == []
    fresh = await service.act(ALICE, "hint", game_id=start.game_id, expected_version=start.version + 1)
    assert fresh.kind is ReplyKind.HINT
    assert (await stored(db, start.game_id)).hint_count == 1


async def test_no_game_no_hint(db: Database, solver) -> None:
    reply = await GameService(db, solver=solver).hint(ALICE)
    assert reply.kind is ReplyKind.ERROR and "no game in progress" in reply.message
    assert solver.calls == []


async def test_the_hint_engine_is_given_only_what_the_player_sees(db: Database, solver) -> None:
    service = GameService(db, solver=solver)
    await service.new_game(ALICE, deal=5)
    await service.play(ALICE, "d d")
    expected = Game.new("gate", deal=5)
    expected.play_line("d d")
    await service.hint(ALICE)
    [(fn, args)] = solver.calls
    assert fn is hint_for
    assert args[0] == expected.to_text(hide_stock=True)
    stock_line = expected.to_text().splitlines()[-1]
    assert stock_line.startswith("S: ") and stock_line not in args[0]
    with pytest.raises(ValueError, match="sees"):
        hint_for(expected.to_text())  # the worker refuses a position that shows the stock


def test_two_stock_orders_behind_one_visible_position_get_one_hint() -> None:
    game = Game.new("gate", deal=7)
    game.play_line("d d")
    text = game.to_text()
    lines = text.splitlines()
    stock = lines[-1].split()[1:]
    shuffled = stock[:]
    random.Random(3).shuffle(shuffled)
    assert shuffled != stock
    other = Game.from_text("\n".join([*lines[:-1], "S: " + " ".join(shuffled)]))
    assert other.to_text(hide_stock=True) == game.to_text(hide_stock=True) and other.to_text() != text
    # Budgets the search can't reach, so the answer doesn't depend on the machine's speed.
    first, second = hint(game, seconds=60, samples=4), hint(other, seconds=60, samples=4)
    assert (first.move, first.outlook, first.win_chance) == (second.move, second.outlook, second.win_chance)


async def test_auto_finishes_a_game_the_solver_can_win(db: Database, solver) -> None:
    service = GameService(db, solver=solver)
    start = await service.new_game(ALICE, deal=1)
    before = await service.play(ALICE, " ".join(NEEDS_SOLVER_DEAL_1))
    assert before.game.stock_count == 0 and before.status is GameStatus.ACTIVE
    assert not autoplay(before.game.copy())  # no card is safe: only the solver can finish this
    reply = await service.auto(ALICE)
    assert reply.kind is ReplyKind.BOARD and reply.status is GameStatus.WON
    assert reply.message.startswith("That took ")  # the one win message (the board says "Won!")
    record = await stored(db, start.game_id)
    assert (record.status, record.score) == ("won", 52)
    logged = record.log.split()
    assert logged[: len(NEEDS_SOLVER_DEAL_1)] == list(NEEDS_SOLVER_DEAL_1)
    assert tuple(logged[len(NEEDS_SOLVER_DEAL_1) :]) == reply.played  # every move of the finish is in the log
    assert record.move_count == len(logged)
    assert replay(record).is_won


async def test_auto_before_the_stock_is_out_plays_only_the_safe_cards(db: Database, solver) -> None:
    service = GameService(db, solver=solver)
    await service.new_game(ALICE, deal=1)
    assert (await service.auto(ALICE)).played == ("3f",)
    nothing = await service.auto(ALICE)
    assert nothing.kind is ReplyKind.ERROR and "safely" in nothing.message
    assert solver.calls == []


async def test_the_auto_button_finishes_too(db: Database, solver) -> None:
    service = GameService(db, solver=solver)
    start = await service.new_game(ALICE, deal=1)
    before = await service.play(ALICE, " ".join(WIN_DEAL_1[:-3]))
    reply = await service.act(ALICE, "auto", game_id=start.game_id, expected_version=before.version)
    assert reply.status is GameStatus.WON and reply.played


async def test_a_game_that_can_no_longer_be_won_is_offered_to_end(db: Database, solver) -> None:
    service = GameService(db, solver=solver)
    start = await service.new_game(ALICE, deal=1)
    played = await service.play(ALICE, " ".join(NO_WIN_DEAL_1))
    assert played.status is GameStatus.ACTIVE and played.game.stock_count == 0 and played.moves
    assert "end" not in played.actions and played.message is None
    assert solve(Game.from_text((await stored(db, start.game_id)).position)).verdict is Verdict.LOST

    offer = await service.end_offer(played)
    assert offer is not None and offer.message == NO_WIN
    assert offer.actions[-1] == "end" and offer.version == played.version
    on = await service.play(ALICE, "35")  # played on from a lost position: lost too, offered at once
    assert "end" in on.actions and on.message == NO_WIN and await service.end_offer(on) is None
    undone = await service.undo(ALICE)
    assert undone.message == f"Took back 35. {NO_WIN}" and "end" in undone.actions  # back where it was proved

    shown = await service.show(ALICE)  # stored: the board offers it at once
    assert "end" in shown.actions and shown.message == NO_WIN
    restarted = await GameService(db, solver=solver).show(ALICE)  # another process, or after a restart
    assert "end" in restarted.actions and restarted.message == NO_WIN
    auto = await service.auto(ALICE)
    assert auto.kind is ReplyKind.BOARD and auto.message == NO_WIN and "end" in auto.actions
    record = await stored(db, start.game_id)
    assert record.log.split()[-1] == "u" and record.status == "active"  # auto played nothing

    ended = await service.act(ALICE, "end", game_id=start.game_id, expected_version=auto.version)
    assert ended.status is GameStatus.RESIGNED and ended.message == "You ended the game with a score of 9/52."
    assert (await stored(db, start.game_id)).status == "resigned"


async def test_no_offer_while_a_win_remains(db: Database, solver) -> None:
    service = GameService(db, solver=solver)
    await service.new_game(ALICE, deal=1)
    early = await service.play(ALICE, "3f")
    assert await service.end_offer(early) is None
    assert solver.calls == []  # the stock is not out: nothing to ask the solver
    late = await service.play(ALICE, " ".join(STOCK_OUT_DEAL_1[1:]))
    assert await service.end_offer(late) is None
    [(fn, _)] = solver.calls
    assert fn is solve_text


async def test_hints_at_the_end_say_still_winnable_or_no_win_without_the_line(db: Database, solver) -> None:
    service = GameService(db, solver=solver)
    await service.new_game(ALICE, deal=1)
    await service.play(ALICE, " ".join(STOCK_OUT_DEAL_1))
    winnable = await service.hint(ALICE)
    assert winnable.message.endswith("Still winnable.") and winnable.message.count("`") == 2
    assert "end" not in winnable.actions
    await service.new_game(BOB, deal=1)
    await service.play(BOB, " ".join(NO_WIN_DEAL_1))
    lost = await service.hint(BOB)
    assert lost.message.endswith(NO_WIN) and lost.actions[-1] == "end"


async def test_hints_in_the_services_own_worker_process(db: Database) -> None:
    service = GameService(db)
    try:
        await service.new_game(ALICE, deal=3)
        reply = await service.hint(ALICE)
        assert reply.kind is ReplyKind.HINT and reply.message.startswith("Hint: ")
    finally:
        service.close()
    after = await service.hint(BOB)
    assert after.kind is ReplyKind.ERROR


# -- winnable deals ----------------------------------------------------------------------


def proved_winnable(variant: str, deal: int, options: tuple[str, ...] = ()) -> bool:
    game = Game.new(variant, deal=deal, options=options)
    return solve(game, max_nodes=500_000, max_seconds=20).verdict is Verdict.WINNABLE


async def test_a_winnable_deal_from_the_list(db: Database, solver) -> None:
    service = GameService(db, solver=solver, winnable_tries=0, rng=random.Random(11))
    reply = await service.new_game(ALICE, winnable=True)
    assert reply.kind is ReplyKind.BOARD
    deal = (await stored(db, reply.game_id)).deal
    assert deal in winnable_deals("gate")
    assert proved_winnable("gate", deal)


async def test_a_winnable_deal_checked_on_the_spot(db: Database, solver) -> None:
    assert 10001 not in winnable_deals("gate")  # the list holds deals 1-10000
    service = GameService(db, solver=solver, deal_picker=lambda: 10001)
    reply = await service.new_game(ALICE, winnable=True)
    assert reply.game.deal == 10001 and proved_winnable("gate", 10001)
    with_options = await service.new_game(BOB, winnable=True, options=("single-moves",))
    assert with_options.kind is ReplyKind.ERROR  # 10001 with single moves needs more than the 50,000-node budget
    service = GameService(db, solver=solver, deal_picker=lambda: 1000)
    reply = await service.new_game(BOB, winnable=True, options=("single-moves",))
    assert (reply.game.deal, reply.game.options) == (1000, ("single-moves",))


async def test_without_a_proof_a_winnable_deal_with_options_is_refused(db: Database, solver) -> None:
    service = GameService(db, solver=solver, deal_picker=lambda: 1001)
    reply = await service.new_game(ALICE, "little-gate", winnable=True, options=("stock-fill",))
    assert reply.kind is ReplyKind.ERROR
    assert reply.message == (
        "I couldn't find a winnable deal of Little Gate with stock-fill just now: try again, or ask for any deal."
    )
    assert (await service.show(ALICE)).kind is ReplyKind.ERROR  # nothing was dealt


async def test_a_winnable_deal_not_found_is_said_in_the_readers_language(db: Database, solver) -> None:
    service = GameService(db, solver=solver, deal_picker=lambda: 1001)
    german = translator("de")
    with_options = await service.new_game(ALICE, "little-gate", winnable=True, options=("stock-fill",))
    assert with_options.kind is ReplyKind.ERROR and with_options.message is not None
    assert german.say(with_options.message) == (
        "Ich konnte gerade kein gewinnbares Spiel von Little Gate mit stock-fill finden: Versuch es noch einmal "
        "oder frag nach irgendeinem Spiel."
    )
    service.advice.winnable_deal = _none_found  # type: ignore[method-assign]
    plain = await service.new_game(ALICE, "canfield", winnable=True)
    assert plain.kind is ReplyKind.ERROR and plain.message is not None
    assert plain.message == "I couldn't find a winnable deal of Canfield just now: try again, or ask for any deal."
    assert german.say(plain.message) == (
        "Ich konnte gerade kein gewinnbares Spiel von Canfield finden: Versuch es noch einmal oder frag nach "
        "irgendeinem Spiel."
    )


async def _none_found(*_args: object) -> None:
    """A search for a winnable deal that finds none."""
    return None


async def test_winnable_asks_before_abandoning_and_takes_no_deal_number(db: Database, solver) -> None:
    service = GameService(db, solver=solver)
    await service.new_game(ALICE, deal=1)
    await service.play(ALICE, "3f")  # a game nothing was played in is replaced by a proven deal without asking
    ask = await service.new_game(ALICE, winnable=True)
    assert ask.kind is ReplyKind.CONFIRM and solver.calls == []  # asked first, before any solving
    both = await service.new_game(ALICE, winnable=True, deal=5, confirm=True)
    assert both.kind is ReplyKind.ERROR and both.message == "Choose a deal number or a winnable deal, not both."
    assert (await service.show(ALICE)).game.deal == 1


async def test_a_proven_deal_replaces_a_deal_nothing_was_played_in_without_asking(db: Database, solver) -> None:
    service = GameService(db, solver=solver, winnable_tries=0)
    first = await service.new_game(ALICE, "little-gate", deal=3)
    assert first.actions[-1] == "winnable" and "About 1 deal in 100 of Little Gate can be won." in first.message
    assert (await service.new_game(ALICE, "little-gate", deal=4)).kind is ReplyKind.CONFIRM  # any other deal asks
    proven = await service.new_game(ALICE, "little-gate", winnable=True)
    assert proven.kind is ReplyKind.BOARD and proven.game.deal in winnable_deals("little-gate")
    assert proven.message.endswith("This deal is proven winnable: the solver found a win.")
    assert "winnable" not in proven.actions
    assert (await stored(db, first.game_id)).status == "abandoned"
    assert "had no move played, so it doesn't count in your statistics." in proven.message


async def test_a_proven_deal_asked_for_in_one_step_keeps_a_win_streak(db: Database, solver) -> None:
    """The unplayed deal it replaces is no game and no loss: statistics and the history leave it out."""
    service = GameService(db, solver=solver, winnable_tries=0)
    await service.new_game(ALICE, deal=1)
    assert (await service.play(ALICE, " ".join(WIN_DEAL_1))).status is GameStatus.WON
    won_id = (await service.show(ALICE)).game_id
    unplayed = await service.new_game(ALICE, deal=2)
    proven = await service.new_game(ALICE, winnable=True)
    assert proven.kind is ReplyKind.BOARD  # at once: deal 2 was never played
    await service.play(ALICE, "d")
    assert (await service.new_game(ALICE, deal=3, confirm=True)).kind is ReplyKind.BOARD  # played, then given up
    found = await Statistics(db).player(ALICE.platform, ALICE.user_id)
    assert found is not None
    said = stats_text(found, own=True)
    assert "Gate: 2 games, 1 won (50%); streak 0, best 1" in said, said
    listed = await History(db).page(ALICE.platform, ALICE.user_id)
    assert [game.game_id for game in listed.games] == [proven.game_id, won_id]  # not the unplayed deal 2
    assert listed.total == 2 and unplayed.game_id not in (proven.game_id, won_id)


async def test_a_hint_from_memory_notices_a_move_made_by_another_process(db: Database, solver: Recording) -> None:
    """The first look for a hint is the game this process last saw; another process's move is caught at the count."""
    here = GameService(db, solver=solver)
    there = GameService(db, solver=solver)  # a second process on the same database
    await here.new_game(ALICE, deal=1)
    await here.play(ALICE, "3f")  # `here` remembers the game after 3f
    moved = await there.play(ALICE, "45")
    assert moved.played == ("45",)
    reply = await here.hint(ALICE)
    assert reply.kind is ReplyKind.HINT
    expected = Game.new("gate", deal=1)
    expected.play_line("3f 45")
    asked = [args[0] for fn, args in solver.calls if fn is hint_for]
    assert asked[-1] == expected.to_text(hide_stock=True), "the hint is for the game as it is now"
    assert reply.game is not None and reply.game.to_text() == expected.to_text()
    assert (await stored(db, reply.game_id)).hint_count == 1


async def test_a_hint_from_memory_costs_one_statement_that_checks_the_stored_version(
    db: Database, solver: Recording
) -> None:
    """A hint about the remembered game reads nothing first: the count's guarded write, or one read, checks it.

    A player pressing Hint again and again costs one statement about the game a press, not two.
    """
    service = GameService(db, solver=solver)
    start = await service.new_game(ALICE, deal=1)
    statements: list[str] = []

    def note(_conn: object, _cursor: object, statement: str, *_args: object) -> None:
        if re.search(r"\bgames\b", statement):  # the game's statements (a player's settings may be read too)
            statements.append(statement.split(None, 1)[0].upper())

    event.listen(db.engine.sync_engine, "before_cursor_execute", note)
    try:
        first = await service.hint(ALICE)  # a new position: its count, guarded by the version, is the check
        assert first.kind is ReplyKind.HINT and first.version == start.version
        assert statements == ["UPDATE"]
        statements.clear()
        again = await service.hint(ALICE)  # counted already: one read of the stored version
        assert again.message == first.message
        assert statements == ["SELECT"]
    finally:
        event.remove(db.engine.sync_engine, "before_cursor_execute", note)
    assert (await stored(db, start.game_id)).hint_count == 1


async def until(condition: Callable[[], bool]) -> None:
    """Let the other tasks run (database threads included) until ``condition`` holds."""
    for _ in range(5000):
        if condition():
            return
        await asyncio.sleep(0.002)
    raise AssertionError("the condition never held")


def visible_after(deal: int, line: str = "") -> str:
    game = Game.new("gate", deal=deal)
    if line:
        game.play_line(line)
    return game.to_text(hide_stock=True)


async def test_a_player_pressing_hint_without_pause_waits_their_turn_and_nobody_else_does(
    db: Database, solver: Recording
) -> None:
    """Hints that cost work come two at once here, then one each two seconds: Alice's third waits, Bob's doesn't.

    Every press is answered once, and Alice's presses about one position share one search and one count.
    """
    service = GameService(db, solver=solver, hint_pace=(2, 0.5))
    alice = await service.new_game(ALICE, deal=1)
    bob = await service.new_game(BOB, deal=2)
    assert (await service.hint(ALICE)).kind is ReplyKind.HINT
    await service.play(ALICE, "d")
    assert (await service.hint(ALICE)).kind is ReplyKind.HINT  # two at once: neither waited
    await service.play(ALICE, "d")
    presses = [asyncio.ensure_future(service.hint(ALICE)) for _ in range(8)]
    await asyncio.sleep(0.2)  # Alice's presses are waiting their turn by now
    assert (await service.hint(BOB)).kind is ReplyKind.HINT
    answers = await asyncio.wait_for(asyncio.gather(*presses), timeout=30)
    assert all(answer.kind is ReplyKind.HINT and answer.message == answers[0].message for answer in answers)
    asked = [args[0] for fn, args in solver.calls if fn is hint_for]
    # Bob asked last but didn't wait for Alice's turn.
    assert asked == [visible_after(1), visible_after(1, "d"), visible_after(2), visible_after(1, "d d")]
    assert (await stored(db, alice.game_id)).hint_count == 3
    assert (await stored(db, bob.game_id)).hint_count == 1


async def test_a_hint_asked_again_about_a_counted_position_never_waits(db: Database, solver: Recording) -> None:
    """It costs no search and no write; and one player's pace is nobody else's."""
    service = GameService(db, solver=solver, hint_pace=(1, 1 / 60))  # one at once, then one a minute
    await service.new_game(ALICE, deal=1)
    await service.new_game(BOB, deal=2)
    first = await service.hint(ALICE)
    for _ in range(3):  # a press that waited its turn would take a minute
        again = await asyncio.wait_for(service.hint(ALICE), timeout=30)
        assert again.kind is ReplyKind.HINT and again.message == first.message
    assert (await asyncio.wait_for(service.hint(BOB), timeout=30)).kind is ReplyKind.HINT


async def test_a_hints_count_right_after_a_move_goes_before_the_writes_of_someone_moving_all_the_time(
    db: Database, solver: Recording
) -> None:
    """SQLite's one writer: Bob's move and his hint's count are his only writes, so the count waits behind nobody.

    Alice has moved ten times just now; when the writer comes free with her next move and
    Bob's count waiting, Bob's goes first though his move was the latest write of all.
    """
    if not db.is_sqlite:
        pytest.skip("PostgreSQL takes writes at once: nobody waits for a turn")
    service = GameService(db, solver=solver)
    await service.new_game(ALICE, deal=1)
    await service.new_game(BOB, deal=2)
    for _ in range(10):
        await service.play(ALICE, "d")
    await service.play(BOB, "d")
    writes: list[str] = []

    def note(_conn: object, _cursor: object, statement: str, *_args: object) -> None:
        if statement.lstrip().upper().startswith("UPDATE GAMES"):
            writes.append("count" if "hint_count" in statement and " log=" not in statement else "move")

    event.listen(db.engine.sync_engine, "before_cursor_execute", note)
    try:
        async with db.writer("someone else"):
            alice = asyncio.ensure_future(service.play(ALICE, "d"))
            await until(lambda: db.writers_waiting == 1)
            bob = asyncio.ensure_future(service.hint(BOB))
            await until(lambda: db.writers_waiting == 2)
        moved, hinted = await asyncio.wait_for(asyncio.gather(alice, bob), timeout=30)
    finally:
        event.remove(db.engine.sync_engine, "before_cursor_execute", note)
    assert moved.played == ("d",) and hinted.kind is ReplyKind.HINT
    assert writes == ["count", "move"]


@pytest.mark.parametrize(("variant", "deal"), [("gate", 3), ("little-gate", 5), ("archway", 957)])
async def test_a_kept_hint_is_always_the_hint_of_the_position_the_game_is_at(
    db: Database, solver, variant: str, deal: int
) -> None:
    """Plays and undos in a seeded random order, a hint after each: the engine's own for that very position.

    The service keeps hints by position (Archway deal 957 can be won, and most plays lose it): a
    kept hint may never answer for another position than the one shown.
    """
    service = GameService(db, solver=solver, hint_seconds=5.0, hint_pace=None)
    reply = await service.new_game(ALICE, variant, deal=deal)
    rng = random.Random(deal)
    undos = hints = 0
    for _ in range(30):
        if reply.game.moves and rng.random() < 0.4:
            reply = await service.undo(ALICE)
            undos += 1
        else:
            reply = await service.play(ALICE, rng.choice(reply.moves))
        if reply.status is not GameStatus.ACTIVE or not reply.moves:
            break
        asked = await service.hint(ALICE)
        game = reply.game
        fresh = hint_for(game.to_text(hide_stock=True), 5.0, registry.positions_behind(game))
        assert asked.kind is ReplyKind.HINT and asked.suggestion == (None if fresh.move is None else str(fresh.move))
        hints += 1
    asked = [args for fn, args in solver.calls if fn is hint_for]
    assert undos >= 5 and len(asked) < hints  # some hints came from what was kept
