"""A running gatebot for end-to-end tests: the bot, its database and the fake Discord it talks to."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import cast

from sqlalchemy import select

from gatebot.bot.challenges._schedule import Scheduler
from gatebot.bot.client import GateBot
from gatebot.rules import Game
from gatebot.store import Challenge, Database, GameRecord
from tests.fake_discord import FakeChannel, FakeDiscord, FakeUser, StoredMessage
from tests.fake_discord.handles import InteractionHandle


class Clock:
    """The time the service goes by: set ``now`` to make time pass."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


@dataclass
class Running:
    """One started gatebot (the ``gatebot`` fixture makes them) and what it stored."""

    bot: GateBot
    db: Database
    fake: FakeDiscord

    @property
    def scheduler(self) -> Scheduler:
        """The challenge scheduler, which the ``/challenge`` cog owns."""
        # Each load of an extension imports its modules afresh (discord.py drops them on unload), so
        # the cog of a bot started after another is no instance of the class this module imported.
        scheduler = getattr(self.bot.get_cog("Challenges"), "scheduler", None)
        assert scheduler is not None, "the /challenge cog is not loaded"
        return cast(Scheduler, scheduler)

    async def game_row(self) -> GameRecord:
        """The newest game."""
        async with self.db.sessions() as session:
            return (await session.scalars(select(GameRecord).order_by(GameRecord.id.desc()))).first()

    async def position(self) -> Game:
        """The newest game's stored position."""
        return Game.from_text((await self.game_row()).position)

    async def games(self) -> list[GameRecord]:
        async with self.db.sessions() as session:
            return list(await session.scalars(select(GameRecord).order_by(GameRecord.id)))

    async def challenges(self) -> list[Challenge]:
        async with self.db.sessions() as session:
            return list(await session.scalars(select(Challenge).order_by(Challenge.id)))


async def told_privately(handle: InteractionHandle, timeout: float = 20) -> str:
    """The private sentence a press or command was answered with, at once or after a deferral (asserted private)."""
    callback = await handle.response(timeout=timeout)
    if callback.type == 4:
        assert callback.ephemeral, f"answered in public: {callback.content!r}"
        return callback.content or ""
    await handle.settled(timeout=timeout)
    said = handle.followups[0] if handle.followups else handle.original
    assert said is not None and said.ephemeral, f"callback type {callback.type} was not followed privately"
    return said.content


async def shown(handle: InteractionHandle, timeout: float = 20) -> StoredMessage:
    """The message a person ends up seeing for a command: its answer, or the message that took a deferral's place.

    Discord's 3 seconds still hold (the fake refuses a later first answer), but on a loaded
    machine the bot may rightly defer first: a test about what is shown must not depend on which.
    """
    callback = await handle.response(timeout=timeout)
    if callback.type == 5:
        return await handle.original_edited(timeout=timeout)
    message = handle.original
    assert message is not None, f"callback type {callback.type} showed no message"
    return message


def button(message: StoredMessage | None, label: str) -> str:
    """The custom id of the button labelled ``label`` on ``message``."""
    assert message is not None
    [found] = [c["custom_id"] for row in message.components for c in row["components"] if c.get("label") == label]
    return found


async def confirmed(
    fake: FakeDiscord, command: str, yes: str, *, user: FakeUser | None = None, channel: FakeChannel | None = None
) -> StoredMessage:
    """Run ``command`` (``gate resign``, ``gate restart``), which asks first, and press ``yes``: its answer.

    The question is private, and only its answer's first message (the board, or the short
    line beside a board edited in place) says the change is done.
    """
    asked = await fake.send_command(command, user=user, channel=channel)
    assert (await asked.response()).ephemeral
    pressed = await fake.click(asked.original, button(asked.original, yes), user=user)
    assert (await pressed.response()).type == 7  # the question is replaced: its buttons go
    return await pressed.followup(0, timeout=20)


async def resign(
    fake: FakeDiscord, *, user: FakeUser | None = None, channel: FakeChannel | None = None
) -> StoredMessage:
    """``/gate resign`` and its Resign button: the answer that the game is over."""
    return await confirmed(fake, "gate resign", "Resign", user=user, channel=channel)
