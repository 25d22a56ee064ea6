"""/gate stats, /gate share and /gate forget-me end to end: the real bot over the fake Discord."""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import func, select

from gatebot.render.card import NEVER, THIRDS
from gatebot.store import GameRecord, Player
from tests.bot import test_gatebot
from tests.bot.test_gatebot import Running
from tests.fake_discord import FakeUser, StoredMessage
from tests.lines import WIN_DEAL_1

#: The end-to-end fixture of test_gatebot: a real gatebot on a SQLite file, over the fake Discord.
gatebot = test_gatebot.gatebot


async def win_deal_1(run: Running, user: FakeUser | None = None) -> None:
    await (await run.fake.send_command("gate new", {"deal": 1}, user=user)).response()
    played = await run.fake.send_command("gate move", {"moves": " ".join(WIN_DEAL_1)}, user=user)
    assert "You won!" in (await played.response()).content


async def rows_of(run: Running, user: FakeUser) -> tuple[int, int]:
    """How many player rows and game rows the database keeps for ``user``."""
    async with run.db.sessions() as session:
        players = await session.scalar(
            select(func.count()).select_from(Player).where(Player.platform_user_id == str(user.id))
        )
        games = await session.scalar(
            select(func.count()).select_from(GameRecord).join(Player).where(Player.platform_user_id == str(user.id))
        )
    return players, games


def labelled(message: StoredMessage, label: str) -> str:
    return next(c["custom_id"] for row in message.components for c in row["components"] if c.get("label") == label)


async def test_stats_are_private_and_count_a_finished_game(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    before = await (await fake.send_command("gate stats")).response()
    assert before.ephemeral and before.content == "You haven't played yet: start a game with /gate new."
    await win_deal_1(run)
    mine = await (await fake.send_command("gate stats")).response()
    assert mine.ephemeral
    assert "Gate: 1 game, 1 won (100%)" in mine.content and "streak 1, best 1" in mine.content
    bob = fake.user("bob")
    theirs = await (await fake.send_command("gate stats", {"user": bob})).response()
    assert theirs.ephemeral and theirs.content == "Bob hasn't played yet."
    await (await fake.send_command("gate new", {"deal": 2}, user=bob)).response()
    await (await fake.send_command("gate resign", user=bob)).response()
    theirs = await (await fake.send_command("gate stats", {"user": bob})).response()
    assert theirs.content.startswith("Bob's games:") and "1 game, 0 won (0%)" in theirs.content


async def test_share_posts_a_spoiler_free_card_in_the_channel(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    nothing = await (await fake.send_command("gate share")).response()
    assert nothing.ephemeral and "no finished game" in nothing.content
    await win_deal_1(run)
    shared = await fake.send_command("gate share")
    posted = await shared.response()
    assert posted.type == 4 and not posted.ephemeral
    lines = posted.content.splitlines()
    assert lines[0].startswith("Gate · deal 1 · won 52/52")
    assert [len(line) for line in lines[1:5]] == [13] * 4
    assert all(set(line) <= {*THIRDS} for line in lines[1:5])  # a win: every card went up
    assert NEVER not in posted.content and not any(suit in posted.content for suit in "♣♦♥♠")
    assert f"{len(WIN_DEAL_1)} moves" in lines[5]
    assert any(m.content == posted.content for m in fake.messages(fake.channel)), "posted for everyone"


async def ask_to_forget(run: Running) -> StoredMessage:
    asked = await run.fake.send_command("gate forget-me")
    question = await asked.response()
    assert question.ephemeral and "can't be undone" in question.content
    return asked.original


async def test_forget_me_deletes_only_the_askers_rows(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    alice, bob = fake.user("alice"), fake.user("bob")
    await win_deal_1(run)
    await (await fake.send_command("gate new", {"deal": 2})).response()  # and a game in progress
    await (await fake.send_command("gate new", {"deal": 3}, user=bob)).response()
    assert await rows_of(run, alice) == (1, 2)
    question = await ask_to_forget(run)
    stranger = await (await fake.click(question, labelled(question, "Delete everything"), user=bob)).response()
    assert stranger.ephemeral and "Only the one who asked" in stranger.content
    assert await rows_of(run, alice) == (1, 2)
    done = await (await fake.click(question, labelled(question, "Delete everything"))).response()
    assert done.type == 7 and "deleted" in done.content
    assert await rows_of(run, alice) == (0, 0)
    assert await rows_of(run, bob) == (1, 1)
    after = await (await fake.send_command("gate stats")).response()
    assert after.content == "You haven't played yet: start a game with /gate new."
    assert "no finished game" in (await (await fake.send_command("gate share")).response()).content


async def test_forget_me_cancelled_changes_nothing(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await win_deal_1(run)
    question = await ask_to_forget(run)
    kept = await (await fake.click(question, labelled(question, "Keep my data"))).response()
    assert kept.type == 7 and "Nothing was deleted" in kept.content
    assert await rows_of(run, fake.user("alice")) == (1, 1)
    assert "1 won" in (await (await fake.send_command("gate stats")).response()).content
