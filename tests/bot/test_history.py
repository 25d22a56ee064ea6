"""/gate stats's picture and /gate games's pages end to end: the real bot over the fake Discord."""

from __future__ import annotations

import io
from collections.abc import Callable
from datetime import timedelta

from PIL import Image
from sqlalchemy import select

from gatebot.store import GameRecord
from tests.bot.gatebots import Running
from tests.bot.test_stats_commands import labelled, win_deal_1
from tests.fake_discord import StoredMessage


def buttons(message: StoredMessage) -> dict[str, dict]:
    """The message's buttons by label."""
    return {c.get("label"): c for row in message.components for c in row["components"]}


async def more_games(run: Running, count: int) -> list[int]:
    """``count`` more finished games like the player's first (a loss each, 10 cards home), a minute apart."""
    async with run.db.sessions() as session, session.begin():
        first = await session.scalar(select(GameRecord).order_by(GameRecord.id).limit(1))
        assert first is not None and first.finished_at is not None
        added = [
            GameRecord(player_id=first.player_id, variant="gate", deal=100 + n, log="", position=first.position,
                       status="lost", score=10, move_count=n, started_at=first.started_at,
                       finished_at=first.finished_at + timedelta(minutes=n + 1))
            for n in range(count)
        ]
        session.add_all(added)
    return [game.id for game in added]


async def test_stats_attach_a_picture_described_in_words_and_open_the_history(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await win_deal_1(run)
    asked = await fake.send_command("gate stats")
    await asked.settled()
    mine = asked.original
    assert mine is not None and mine.ephemeral and "Gate: 1 game, 1 won (100%)" in mine.content
    [attachment] = mine.attachments
    assert attachment["filename"] == "stats.png"
    assert attachment["description"].startswith("Statistics picture of Gate: 1 game, 1 won (100%).")
    data = mine.file("stats.png").data
    assert len(data) < 40_000
    with Image.open(io.BytesIO(data)) as picture:
        assert picture.format == "PNG" and picture.width == 640 and 600 <= picture.height <= 900
    opened = await fake.click(mine, labelled(mine, "Your games"))
    await opened.settled()
    listed = opened.followups[0] if opened.followups else opened.original
    assert listed is not None and listed.ephemeral
    [game] = await game_ids(run)
    assert f"#{game} · Gate deal 1 · won 52/52 · " in listed.content
    assert f"/gate replay game:{game}" in listed.content
    replayed = await fake.send_command("gate replay", {"game": game})
    await replayed.settled()
    assert replayed.original is not None and f"Replay of game #{game}:" in replayed.original.content
    # Someone else's statistics come with the picture but without the button to their games.
    bob = fake.user("bob")
    theirs = await fake.send_command("gate stats", {"user": fake.user("alice")}, user=bob)
    await theirs.settled()
    shown = theirs.original
    assert shown is not None and shown.ephemeral and shown.attachments
    assert "Your games" not in buttons(shown)
    # A German client gets the words, the alt text and the picture in German.
    fake.user("alice").locale = "de"
    german = await fake.send_command("gate stats")
    await german.settled()
    told = german.original
    assert told is not None and told.content.startswith("Deine Spiele:")
    [attachment] = told.attachments
    assert attachment["description"].startswith("Statistikbild von Gate: 1 Spiel, 1 gewonnen (100\u00a0%).")
    assert told.file("stats.png").data != data
    assert "Deine Spiele" in buttons(told)


async def game_ids(run: Running) -> list[int]:
    async with run.db.sessions() as session:
        return list(await session.scalars(select(GameRecord.id).order_by(GameRecord.id)))


async def test_games_pages_are_the_owners_alone(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await win_deal_1(run)
    added = await more_games(run, 12)
    asked = await fake.send_command("gate games")
    await asked.settled()
    first = asked.original
    assert first is not None and first.ephemeral
    assert "page 1 of 2, 13 in all" in first.content
    lines = [line for line in first.content.splitlines() if line.startswith("#")]
    assert [int(line[1:].split()[0]) for line in lines] == added[::-1][:10], "newest first, ten a page"
    assert buttons(first)["◀"].get("disabled") and not buttons(first)["▶"].get("disabled")
    # Another player's press is refused privately, and the list stays as it was.
    bob = fake.user("bob")
    refused = await fake.click(first, buttons(first)["▶"]["custom_id"], user=bob)
    told = await refused.response()
    assert told.ephemeral and "for whoever opened it" in told.content
    assert fake.message(first.id).content == first.content
    turned = await fake.click(first, buttons(first)["▶"]["custom_id"])
    await turned.settled()
    second = fake.message(first.id)
    assert "page 2 of 2" in second.content
    assert [int(line[1:].split()[0]) for line in second.content.splitlines() if line.startswith("#")] == [
        *added[::-1][10:], (await game_ids(run))[0]]
    assert buttons(second)["▶"].get("disabled")
    # Bob's own list is his: he has none.
    his = await (await fake.send_command("gate games", user=bob)).response()
    assert his.ephemeral and his.content.startswith("You have no finished games yet")


async def test_a_player_shares_their_picture_once_and_only_they_can(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await win_deal_1(run)
    asked = await fake.send_command("gate stats")
    await asked.settled()
    mine = asked.original
    assert mine is not None
    share = buttons(mine)["Share picture"]["custom_id"]
    bob = fake.user("bob")
    refused = await (await fake.click(mine, share, user=bob)).response()
    assert refused.ephemeral and refused.content == "Only whoever asked for these statistics can share them."
    pressed = await fake.click(mine, share)
    await pressed.settled()
    posted = pressed.original
    assert posted is not None and not posted.ephemeral and posted.content == "Alice's Gate games:"
    [attachment] = posted.attachments
    assert attachment["description"].startswith("Statistics picture of Gate: 1 game, 1 won (100%).")
    assert any(m.id == posted.id for m in fake.messages(fake.channel)), "posted for everyone"
    again = await (await fake.click(mine, share)).response()
    assert again.ephemeral and "a moment ago" in again.content
    assert sum(1 for m in fake.messages(fake.channel) if m.attachments and not m.ephemeral) == 1
