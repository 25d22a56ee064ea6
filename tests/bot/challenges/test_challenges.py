"""Server challenges end to end: the real bot, real discord.py, a real SQLite file, the fake Discord, a fake clock."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import Any

import pytest
from sqlalchemy import func, select

from gatebot.bot.challenges._schedule import Scheduler
from gatebot.rules import Game
from gatebot.service.challenges import Announcement, Happening
from gatebot.store import DailySchedule, GameRecord, Player
from tests.bot.gatebots import Clock, Running, resign
from tests.bot.test_gatebot import ending_components
from tests.fake_discord import FakeChannel, FakeDiscord, Overwrite, Permission, StoredMessage
from tests.lines import WIN_DEAL_1


@pytest.fixture
def clock() -> Clock:
    return Clock(datetime(2025, 1, 5, 12, 0, tzinfo=UTC))


@pytest.fixture
def service_options() -> dict[str, Any]:
    return {"hint_seconds": 0.3}


def play_button(message: StoredMessage) -> str:
    return next(cid for cid in message.custom_ids() if cid.startswith("challenge:play:"))


def labelled(message: StoredMessage, label: str) -> str:
    return next(c["custom_id"] for row in message.components for c in row["components"] if c.get("label") == label)


def posts(fake: FakeDiscord, channel: FakeChannel) -> list[StoredMessage]:
    """What the bot posted in ``channel`` by itself (not as an answer to an interaction)."""
    return [message for message in fake.messages(channel) if message.origin == "bot"]


async def eventually(check: Callable[[], Awaitable[bool]], what: str, timeout: float = 5.0) -> None:
    """Wait until ``check()`` (which may read the database) is true: for what the bot does after answering."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not await check():
        if loop.time() > deadline:
            raise TimeoutError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


async def recorded(run: Running, announcement: StoredMessage) -> None:
    """Wait until the database knows ``announcement`` as its challenge's announcement."""

    async def known() -> bool:
        return any(row.announcement_id == announcement.id for row in await run.challenges())

    await eventually(known, f"announcement {announcement.id} to be recorded")


async def create(run: Running, **options: object) -> StoredMessage:
    """Alice makes a challenge here; its public announcement, once recorded."""
    made = await run.fake.send_command("challenge-admin create", options)
    answer = await made.response()
    assert answer.type == 4 and not answer.ephemeral, answer.content
    assert made.original is not None
    await recorded(run, made.original)
    return made.original


# -- making and playing ---------------------------------------------------------------------


async def test_two_members_play_a_challenge_and_are_ranked(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    bob = fake.user("bob")
    await (await fake.send_command("gate new", {"deal": 2})).response()  # alice has a game running
    announcement = await create(run, name="Friday Gate", deal=1, hints="counted", undo="counted")
    assert "**Friday Gate** is open!" in announcement.content
    assert "hints counted, undo counted (never past a draw)" in announcement.content
    assert "<t:" in announcement.content and "nobody has played yet" in announcement.content
    assert "deal" not in announcement.content.lower(), "the deal stays secret while the challenge is open"
    [row] = await run.challenges()
    assert (row.name, row.deal, row.announcement_id, row.channel_id) == (
        "Friday Gate", 1, announcement.id, fake.channel.id
    )

    asked = await fake.click(announcement, play_button(announcement))
    question = await asked.response()
    assert question.ephemeral and "abandon" in question.content
    yes = await fake.click(asked.original, labelled(asked.original, "Start my attempt"))
    assert (await yes.response()).type == 7
    board = await yes.followup(0)
    assert "Your attempt at Friday Gate has begun" in board.content
    assert "Your previous game (deal 2) had no move played, so it doesn't count in your statistics." in board.content
    await (await fake.send_command("gate move", {"moves": " ".join(WIN_DEAL_1)})).response()
    assert (await run.games())[-1].status == "won"

    started = await fake.send_command("challenge play", user=bob)
    assert (await started.response()).type == 4
    await (await fake.send_command("gate move", {"moves": "3f 45"}, user=bob)).response()
    await (await fake.send_command("gate undo", user=bob)).response()
    await (await fake.send_command("gate hint", user=bob)).original_edited()
    await fake.wait_for(lambda: "2 have played" in fake.message(announcement.id).content or None,
                        what="the announcement's count of players")

    shown = await (await fake.send_command("challenge leaderboard", {"challenge": row.id}, user=bob)).response()
    assert not shown.ephemeral
    header, first, second, total = shown.content.splitlines()
    assert "Friday Gate" in header and "deal" not in header
    assert first.startswith("` 1.` **Alice** — 🏆 won") and f"{len(WIN_DEAL_1)} moves" in first
    assert second.startswith("` 2.` **Bob** — ⏳ playing, 1 card home")
    assert "(+2 counted)" in second and "1 hint" in second and "1 undo" in second
    assert total == "2 have played."

    await resign(fake, user=bob)
    ended = await fake.send_command("challenge-admin end", {"challenge": row.id})
    final = await ended.response()
    assert not final.ephemeral and "has closed: Gate deal 1" in final.content
    assert "` 1.` **Alice** — 🏆 won" in final.content and "` 2.` **Bob** — 1 card home" in final.content
    retired = await fake.wait_for(lambda: None if fake.message(announcement.id).custom_ids()
                                  else fake.message(announcement.id), what="the Play button removed")
    assert "🔒 **Friday Gate** (challenge 1) closed <t:" in retired.content


async def test_a_second_attempt_is_refused_and_changes_nothing(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    announcement = await create(run, name="Once", deal=1)
    first = await fake.click(announcement, play_button(announcement))
    assert (await first.response()).type == 4
    await resign(fake)
    before = [(game.id, game.status, game.version) for game in await run.games()]
    again = await fake.click(fake.message(announcement.id), play_button(announcement))
    refused = await again.response()
    assert refused.ephemeral
    assert refused.content == (
        "You have already played Once: one attempt each, so see its results with /challenge leaderboard."
    )
    command = await fake.send_command("challenge play", {"challenge": (await run.challenges())[0].id})
    assert (await command.response()).content == refused.content
    assert [(game.id, game.status, game.version) for game in await run.games()] == before


async def test_only_members_with_manage_server_make_and_end_challenges(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    bob = fake.user("bob")
    made = await fake.send_command("challenge-admin create", {"name": "Bob's", "deal": 3}, user=bob)
    refused = await made.response()
    assert refused.ephemeral
    assert refused.content == "Only members with the Manage Server permission can create challenges."
    assert await run.challenges() == []
    daily = await (await fake.send_command("challenge-admin daily on", {"channel": fake.channel}, user=bob)).response()
    assert daily.ephemeral and "Manage Server" in daily.content
    announcement = await create(run, deal=3)
    [row] = await run.challenges()
    assert "**Challenge 1**" in announcement.content
    end = await (await fake.send_command("challenge-admin end", {"challenge": row.id}, user=bob)).response()
    assert end.ephemeral and end.content == "Only members with the Manage Server permission can end challenges."
    assert (await run.challenges())[0].closed_at is None
    missing = await (await fake.send_command("challenge-admin end", {"challenge": row.id + 7})).response()
    assert missing.ephemeral and missing.content.startswith(f"This server has no challenge number {row.id + 7}")


async def test_list_and_autocomplete_name_the_challenges(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await create(run, name="Morning", deal=4, hours=2)
    await create(run, name="Evening", variant="little-gate", options="single-moves", hints="forbidden")
    morning, evening = await run.challenges()
    await (await fake.send_command("challenge-admin end", {"challenge": morning.id})).response()
    listed = await (await fake.send_command("challenge list", user=fake.user("bob"))).response()
    assert listed.ephemeral
    assert "**Open challenges**" in listed.content and "**Recently closed**" in listed.content
    assert "Evening** — Little Gate (single-moves) · hints forbidden" in listed.content
    assert "Morning** — Gate deal 4" in listed.content
    asked = await fake.send_autocomplete("challenge leaderboard", {"challenge": ""}, focused="challenge")
    choices = (await asked.response()).choices
    assert [choice["value"] for choice in choices] == [evening.id, morning.id]
    asked = await fake.send_autocomplete("challenge play", {"challenge": ""}, focused="challenge")
    assert [choice["value"] for choice in (await asked.response()).choices] == [evening.id]


async def test_a_winnable_challenge_is_announced_after_the_solver_thinks(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    made = await fake.send_command("challenge-admin create", {"winnable": True})
    deferred = await made.response()
    assert deferred.type == 5 and deferred.ephemeral and deferred.latency < 1
    announcement = await made.followup(0, timeout=10)
    assert "is open!" in announcement.content and not announcement.ephemeral
    await recorded(run, announcement)
    assert "found a winnable deal" in (await made.original_edited()).content


# -- time passing ---------------------------------------------------------------------------


async def test_the_daily_challenge_rolls_over_at_midnight_exactly_once(gatebot: Callable, clock: Clock) -> None:
    clock.now = datetime(2025, 1, 5, 23, 59, 30, tzinfo=UTC)
    run: Running = await gatebot()
    fake = run.fake
    games = fake.guild.channel("games")
    on = await (
        await fake.send_command("challenge-admin daily on", {"channel": games, "hints": "forbidden"})
    ).response()
    assert on.ephemeral and f"<#{games.id}>" in on.content and "within a minute" in on.content
    assert "00:00 UTC" in on.content
    assert [a.happening for a in await run.scheduler.run_once()] == [Happening.OPENED]
    [today] = posts(fake, games)
    assert "**Daily 5 Jan 2025** is open!" in today.content and "hints forbidden" in today.content
    assert (await run.challenges())[0].announcement_id == today.id

    bob = fake.user("bob")
    pressed = await fake.click(today, play_button(today), user=bob)
    assert (await pressed.response()).type == 4
    moved = await (await fake.send_command("gate move", {"moves": "d"}, user=bob, channel=games)).response()
    assert moved.content.startswith("Played d")
    assert await run.scheduler.run_once() == []

    clock.now = datetime(2025, 1, 6, 0, 0, 30, tzinfo=UTC)
    happened = [a.happening for a in await run.scheduler.run_once()]
    assert happened == [Happening.CLOSED, Happening.OPENED]
    assert await run.scheduler.run_once() == []
    first, final, tomorrow = posts(fake, games)
    assert first.id == today.id
    assert "**Daily 5 Jan 2025** (challenge 1) has closed" in final.content
    assert "` 1.` **Bob** — 0 cards home (time ran out) · 1 move · 0 hints" in final.content
    assert "Final standings (1 player):" in final.content
    assert "**Daily 6 Jan 2025** is open!" in tomorrow.content and play_button(tomorrow)
    assert not fake.message(today.id).custom_ids() and "closed" in fake.message(today.id).content
    bobs = (await run.games())[-1]
    assert (bobs.status, bobs.log) == ("expired", "d")

    await run.bot.close()
    again: Running = await gatebot()
    assert await again.scheduler.run_once() == []
    assert [message.id for message in posts(fake, games)] == [today.id, final.id, tomorrow.id]
    pressed = await fake.click(tomorrow, play_button(tomorrow), user=bob)  # the button outlives the restart
    assert (await pressed.response()).type == 4
    status = await (await fake.send_command("challenge daily")).response()
    assert status.ephemeral and "The daily challenge is on" in status.content
    off = await (await fake.send_command("challenge-admin daily off")).response()
    assert off.ephemeral and off.content.startswith("The daily challenge is off")
    assert not fake.unexpected_requests


async def test_a_failed_post_is_logged_and_the_next_one_still_goes_out(
    gatebot: Callable, clock: Clock, caplog: pytest.LogCaptureFixture
) -> None:
    run: Running = await gatebot()
    fake = run.fake
    games = fake.guild.channel("games")
    await (await fake.send_command("challenge-admin daily on", {"channel": games})).response()
    fake.guild.channels.remove(games)  # the channel is deleted before the daily challenge opens
    announced = await run.scheduler.run_once()
    assert [a.happening for a in announced] == [Happening.OPENED]
    assert "could not announce" in caplog.text
    announcement = await create(run, deal=9, hours=1)
    clock.now += timedelta(hours=2)
    assert [a.happening for a in await run.scheduler.run_once()] == [Happening.CLOSED]
    assert any("has closed" in message.content for message in posts(fake, fake.channel))
    assert not fake.message(announcement.id).custom_ids()


async def test_the_scheduler_goes_on_after_failures_and_stops_cleanly() -> None:
    class Service:
        ticks = 0

        async def tick(self) -> list[Announcement]:
            self.ticks += 1
            if self.ticks == 1:
                raise RuntimeError("the database is down")
            return [SimpleNamespace(happening=Happening.OPENED, challenge=SimpleNamespace(id=n, guild_id=1))
                    for n in (1, 2)]  # type: ignore[misc]

    class Herald:
        posted = 0

        async def announce(self, announcement: object) -> None:
            self.posted += 1
            if self.posted % 2:
                raise RuntimeError("the channel is gone")

    service, herald = Service(), Herald()
    scheduler = Scheduler(service, herald, every=0.01)  # type: ignore[arg-type]
    scheduler.start()
    await scheduler.started()
    while service.ticks < 3:
        await asyncio.sleep(0.01)
    await scheduler.stop()
    ticks = service.ticks
    await asyncio.sleep(0.05)
    assert service.ticks == ticks and herald.posted >= 4, "every announcement is tried, and the loop stopped"
    scheduler.start()
    await asyncio.sleep(0.05)
    assert service.ticks == ticks, "a stopped scheduler stays stopped"


async def test_leaving_a_server_switches_its_daily_challenge_off(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await (await fake.send_command("challenge-admin daily on", {"channel": fake.channel})).response()
    await fake.gateway.dispatch("GUILD_DELETE", {"id": str(fake.guild.id)}, fake.guild.id)

    async def enabled() -> bool:
        async with run.db.sessions() as session:
            return bool((await session.get(DailySchedule, fake.guild.id)).enabled)

    async def disabled() -> bool:
        return not await enabled()

    await eventually(disabled, "the daily challenge switched off")


# -- leaderboards ---------------------------------------------------------------------------


async def add_attempts(run: Running, challenge_id: int, count: int) -> None:
    """``count`` finished attempts by new players: player 0 won, the others lost with falling scores."""
    position = Game.new("gate", deal=5).to_text()
    start = datetime(2025, 1, 5, 12, 0, tzinfo=UTC)
    async with run.db.sessions() as session, session.begin():
        for index in range(count):
            player = Player(platform="discord", platform_user_id=str(900 + index), display_name=f"Player {index:02}")
            session.add(player)
            await session.flush()
            session.add(GameRecord(
                player_id=player.id, variant="gate", deal=5, position=position, challenge_id=challenge_id,
                status="won" if index == 0 else "lost", score=52 if index == 0 else 40 - index,
                move_count=100 + index, started_at=start, finished_at=start + timedelta(minutes=5, seconds=index),
                guild_id=run.fake.guild.id,
            ))


async def test_leaderboards_turn_their_pages_with_buttons(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await create(run, name="Crowded", deal=5)
    [row] = await run.challenges()
    await add_attempts(run, row.id, 12)
    asked = await fake.send_command("challenge leaderboard")
    first = await asked.response()
    assert "Page 1 of 2 · 12 have played" in first.content
    assert sum(line.startswith("`") for line in first.content.splitlines()) == 10
    assert "Player 09" in first.content and "Player 10" not in first.content
    message = asked.original
    back, forward = message.custom_ids()
    assert (back, forward) == (f"challenge:page:c:{row.id}:0", f"challenge:page:c:{row.id}:1")
    turned = await fake.click(message, forward, user=fake.user("bob"))
    second = await turned.response()
    assert second.type == 7 and "Page 2 of 2" in second.content
    assert "`11.` **Player 10** — 30 cards home · 110 moves · 0 hints · 0 undos · 5:10" in second.content
    message = fake.message(message.id)
    turned = await fake.click(message, labelled(message, "◀"))
    assert "Page 1 of 2" in (await turned.response()).content

    await (await fake.send_command("challenge-admin end", {"challenge": row.id})).response()
    board = await fake.send_command("challenge leaderboard", {"all_time": True})
    shown = await board.response()
    assert "All-time challenge leaderboard" in shown.content and "Page 1 of 2 · 12 players" in shown.content
    assert "` 1.` **Player 00** — 1 win of 1 played (100%) · best streak 1" in shown.content
    turned = await fake.click(board.original, f"challenge:page:s:{fake.guild.id}:1")
    assert "Page 2 of 2" in (await turned.response()).content


# -- forgetting a server --------------------------------------------------------------------


async def test_a_count_update_under_way_can_t_show_a_removed_challenge_as_open(
    gatebot: Callable, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A player's press redraws the announcement with its count while an admin removes the challenge.

    The count update has read the challenge (still open) and not yet sent its edit when the
    removal comes: the removal's notice must still be what the announcement says in the end.
    """
    run: Running = await gatebot()
    fake = run.fake
    announcement = await create(run, name="Open", deal=6)
    herald = run.bot.get_cog("Challenges").herald  # type: ignore[union-attr]
    removed, reading = asyncio.Event(), asyncio.Event()
    read = herald.challenges.get

    async def read_then_wait(guild_id: int, challenge_id: int) -> Any:
        info = await read(guild_id, challenge_id)
        editing = herald._editing.get(challenge_id)
        if editing is not None and editing.locked() and not reading.is_set():  # the update's own read
            reading.set()
            await removed.wait()
        return info

    monkeypatch.setattr(herald.challenges, "get", read_then_wait)
    await (await fake.click(announcement, play_button(announcement), user=fake.user("bob"))).response()
    await asyncio.wait_for(reading.wait(), 10)
    asked = await fake.send_command("challenge-admin forget-server")
    await asked.response()
    await fake.click(asked.original, labelled(asked.original, "Delete the challenges"))
    while await run.challenges():
        await asyncio.sleep(0.01)
    removed.set()  # the update goes on, with what it read before the removal
    edits = "PATCH /channels/{channel_id}/messages/{message_id}"
    await fake.wait_for(lambda: len(fake.requests_to(edits)) >= 2 or None, what="the update's and the notice's edits")
    await asyncio.sleep(0.05)
    shown = fake.message(announcement.id)
    assert "was removed" in shown.content and "is open" not in shown.content, shown.content
    assert not shown.custom_ids()


async def test_forget_server_asks_then_deletes_the_servers_challenges(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    bob = fake.user("bob")
    open_one = await create(run, name="Open", deal=6)
    await create(run, name="Done", deal=7)
    done = (await run.challenges())[1]
    await (await fake.send_command("challenge-admin end", {"challenge": done.id})).response()
    await (await fake.click(open_one, play_button(open_one), user=bob)).response()
    await (await fake.send_command("challenge-admin daily on", {"channel": fake.channel})).response()
    refused = await (await fake.send_command("challenge-admin forget-server", user=bob)).response()
    assert refused.ephemeral and "Manage Server" in refused.content

    asked = await fake.send_command("challenge-admin forget-server")
    question = await asked.response()
    assert question.ephemeral and "can't be undone" in question.content
    assert len(await run.challenges()) == 2, "nothing is deleted before the yes"
    yes = await fake.click(asked.original, labelled(asked.original, "Delete the challenges"))
    answer = await yes.response()
    assert answer.type == 7 and answer.content.startswith("Done: 2 challenges deleted")
    assert await run.challenges() == []
    async with run.db.sessions() as session:
        assert await session.get(DailySchedule, fake.guild.id) is None
        attempts = await session.scalar(select(func.count()).select_from(GameRecord))
    assert attempts == 1 and (await run.games())[0].challenge_id is None, "bob keeps his game"
    await fake.wait_for(lambda: not fake.message(open_one.id).custom_ids() or None, what="the Play button removed")
    assert "was removed" in fake.message(open_one.id).content


async def test_a_challenge_made_to_open_later_is_announced_then_and_its_boards_end_with_it(
    gatebot: Callable, clock: Clock
) -> None:
    run: Running = await gatebot()
    fake = run.fake
    bob = fake.user("bob")
    made = await fake.send_command("challenge-admin create", {"name": "Later", "deal": 1, "starts_in": 2, "hours": 1})
    notice = await made.response()
    assert notice.type == 4 and not notice.ephemeral
    assert "📅 **Later** (challenge 1) opens <t:" in notice.content and "deal 1" not in notice.content
    assert made.original is not None and not made.original.custom_ids(), "no Play button before it opens"
    [row] = await run.challenges()
    assert row.announcement_id is None
    early = await (await fake.send_command("challenge play", user=bob)).response()
    assert early.ephemeral and early.content == "No challenge is open yet: Later opens in 2 hours."
    assert await run.scheduler.run_once() == []

    clock.now += timedelta(hours=2)
    assert [a.happening for a in await run.scheduler.run_once()] == [Happening.OPENED]
    [announcement] = posts(fake, fake.channel)
    assert "**Later** is open!" in announcement.content
    await recorded(run, announcement)
    pressed = await fake.click(announcement, play_button(announcement), user=bob)
    assert (await pressed.response()).type == 4
    board = pressed.original
    assert board is not None and any(cid.startswith("gate:draw:") for cid in board.custom_ids())
    assert (await (await fake.send_command("gate move", {"moves": "3f"}, user=bob)).response()).ephemeral

    clock.now += timedelta(hours=1)
    assert [a.happening for a in await run.scheduler.run_once()] == [Happening.CLOSED]
    ended = await fake.wait_for(
        lambda: fake.message(board.id) if "has closed" in fake.message(board.id).content else None,
        what="Bob's board redrawn when the challenge closed",
    )
    assert "Later has closed, so your attempt ended with a score of 1/52." in ended.content
    enabled = [c["custom_id"] for r in ended.components for c in r["components"] if not c.get("disabled")]
    assert enabled == ending_components((await run.games())[-1].id)
    late = await (await fake.send_command("gate move", {"moves": "d"}, user=bob)).response()
    assert late.ephemeral and late.content == "Later has closed, so your attempt ended with a score of 1/52."


async def test_the_daily_challenge_needs_a_channel_the_bot_can_post_in(gatebot: Callable, fake: FakeDiscord) -> None:
    games = fake.guild.channel("games")
    bot_role = next(role for role in fake.guild.roles if role.bot_id == fake.bot.id)
    games.overwrites.append(Overwrite(id=bot_role.id, type=0, deny=Permission.SEND_MESSAGES))
    run: Running = await gatebot()  # the bot learns the channel's overwrites as it connects
    refused = await (await fake.send_command("challenge-admin daily on", {"channel": games})).response()
    assert refused.ephemeral
    assert refused.content == (
        f"I can't post in <#{games.id}>: let me see it and send messages there, or choose another channel."
    )
    async with run.db.sessions() as session:
        assert await session.scalar(select(func.count()).select_from(DailySchedule)) == 0
    allowed = await (await fake.send_command("challenge-admin daily on", {"channel": fake.channel})).response()
    assert allowed.ephemeral and allowed.content.startswith("The daily challenge is on")


async def test_a_canfield_challenge_with_its_options_is_played_and_ranked(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    bob = fake.user("bob")
    announcement = await create(run, name="Demon Night", variant="canfield", deal=1, options="passes-2, draw-one",
                                undo="forbidden")
    assert "Canfield (draw-one, passes-2) · hints allowed, undo forbidden" in announcement.content
    [row] = await run.challenges()
    assert (row.variant, row.options, row.deal) == ("canfield", "draw-one passes-2", 1)

    started = await fake.click(announcement, play_button(announcement))
    board = await started.response()
    assert "Your attempt at Demon Night has begun" in board.content
    line = "d d wf d d d d d d d d wf"  # two cards up: a score of 3 with the first card's
    await (await fake.send_command("gate move", {"moves": line})).response()
    expected = Game.new("canfield", deal=1, options=("draw-one", "passes-2"))
    expected.play_line(line)
    assert (await run.position()).to_text() == expected.to_text() and expected.score == 3
    refused = await (await fake.send_command("gate undo")).response()
    assert refused.content == "Undo is off in Demon Night: every move stands."

    await (await fake.send_command("challenge play", user=bob)).response()
    await (await fake.send_command("gate move", {"moves": "d"}, user=bob)).response()
    shown = await (await fake.send_command("challenge leaderboard", {"challenge": row.id})).response()
    header, first, second, total = shown.content.splitlines()
    assert "Demon Night" in header and "deal" not in header
    assert first.startswith("` 1.` **Alice** — ⏳ playing, 3 cards home")
    assert second.startswith("` 2.` **Bob** — ⏳ playing, 1 card home")
    assert total == "2 have played."


async def test_a_challenge_refuses_an_option_its_variant_lacks(gatebot: Callable) -> None:
    run: Running = await gatebot()
    made = await run.fake.send_command("challenge-admin create", {"variant": "gate", "options": "kit"})
    refused = await made.response()
    assert refused.ephemeral
    assert refused.content == "Gate has no option 'kit': its options are single-moves, stock-fill."
    assert await run.challenges() == []
