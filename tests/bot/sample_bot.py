"""A small discord.py bot that exercises what gatebot will: slash commands, views, files, mentions.

It stands in for the real bot while that is unwritten, so the fake's tests cover every kind of
traffic gatebot needs: a ``/ping`` command with a string option and autocomplete, a deferred
command with follow-ups, a board with buttons whose custom ids carry data (``DynamicItem``) and
a select, a PNG upload, and replies to mentions. It records what it received for assertions.
"""

from __future__ import annotations

import asyncio
import io
import struct
import zlib
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

WORDS = ["hello", "help", "helium", "world"]


def tiny_png(width: int = 3, height: int = 2) -> bytes:
    """A valid grey PNG of the given size (no imaging library needed)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    rows = b"".join(b"\x00" + b"\x80" * width for _ in range(height))
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


class MoveButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"gate:move:(?P<card>\d+)"):
    """A button whose custom id carries a card number; answers privately (ephemeral)."""

    def __init__(self, card: int) -> None:
        super().__init__(discord.ui.Button(label=f"Move {card}", custom_id=f"gate:move:{card}"))
        self.card = card

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: Any, /
    ) -> MoveButton:
        return cls(int(match["card"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"moved {self.card}", ephemeral=True)


class BumpButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"gate:bump:(?P<count>\d+)"):
    """A button that edits the message it is on (callback type 7), carrying a counter in its id."""

    def __init__(self, count: int) -> None:
        super().__init__(discord.ui.Button(label=f"Bump {count}", custom_id=f"gate:bump:{count}"))
        self.count = count

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: Any, /
    ) -> BumpButton:
        return cls(int(match["count"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.edit_message(content=f"count {self.count + 1}", view=board_view(self.count + 1))


class PickSelect(discord.ui.Select[Any]):
    """A select menu; answers with the values picked."""

    def __init__(self) -> None:
        options = [discord.SelectOption(label=name.upper(), value=name) for name in ("a", "b", "c")]
        super().__init__(custom_id="gate:pick", options=options, min_values=1, max_values=2)

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("picked " + ",".join(self.values))


def board_view(count: int) -> discord.ui.View:
    """The board's components: two data-carrying buttons and a select."""
    view = discord.ui.View(timeout=60)
    view.add_item(MoveButton(7))
    view.add_item(BumpButton(count))
    view.add_item(PickSelect())
    return view


class SampleBot(commands.Bot):
    """The bot under test; ``messages`` and ``interactions`` are what its handlers received."""

    def __init__(self, *, intents: discord.Intents | None = None, **options: Any) -> None:
        super().__init__(
            command_prefix="!", intents=intents or discord.Intents.default(), guild_ready_timeout=0.05, **options
        )
        self.messages: list[discord.Message] = []
        self.interactions: list[discord.Interaction] = []
        self.errors: list[BaseException] = []
        self.tree.on_error = self.on_tree_error  # type: ignore[method-assign]
        self.tree.add_command(ping)
        self.tree.add_command(slow)
        self.tree.add_command(board)
        self.tree.add_command(upload)
        self.tree.add_command(game)

    async def setup_hook(self) -> None:
        self.add_dynamic_items(MoveButton, BumpButton)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        self.interactions.append(interaction)

    async def on_tree_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        self.errors.append(error)

    async def on_message(self, message: discord.Message) -> None:
        if message.author == self.user:
            return
        self.messages.append(message)
        if self.user is not None and self.user in message.mentions:
            await message.reply(f"you said: {message.content}", file=discord.File(io.BytesIO(tiny_png()), "reply.png"))


@app_commands.command(description="Answer pong")
@app_commands.describe(text="What to echo")
async def ping(interaction: discord.Interaction, text: str) -> None:
    """Reply ``pong <text>`` (in a guild or a DM)."""
    where = "dm" if interaction.guild is None else interaction.guild.name
    await interaction.response.send_message(f"pong {text} ({where})")


@ping.autocomplete("text")
async def ping_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Words starting with what the user typed."""
    return [app_commands.Choice(name=word, value=word) for word in WORDS if word.startswith(current)]


@app_commands.command(description="Think, then answer in steps")
async def slow(interaction: discord.Interaction) -> None:
    """Defer, send a follow-up, then edit the original response."""
    await interaction.response.defer(thinking=True)
    await asyncio.sleep(0)
    await interaction.followup.send("step 1")
    await interaction.edit_original_response(content="done")


@app_commands.command(description="Show a board with buttons")
async def board(interaction: discord.Interaction) -> None:
    """A message with buttons and a select."""
    await interaction.response.send_message("count 1", view=board_view(1))


@app_commands.command(description="Send a picture")
async def upload(interaction: discord.Interaction) -> None:
    """An image sent as a file (multipart callback)."""
    picture = discord.File(io.BytesIO(tiny_png()), filename="board.png", description="the board")
    await interaction.response.send_message("here", file=picture)


game = app_commands.Group(name="game", description="Play a game")
game_settings = app_commands.Group(name="settings", description="Change settings", parent=game)


@game.command(name="new", description="Deal a new game")
@app_commands.describe(seed="Deal number", opponent="Who to challenge")
async def game_new(
    interaction: discord.Interaction, seed: app_commands.Range[int, 1, 1000], opponent: discord.Member | None = None
) -> None:
    """A subcommand with an integer option and a resolved member option."""
    against = "" if opponent is None else f" vs {opponent.name}"
    await interaction.response.send_message(f"deal {seed}{against}")


@game_settings.command(name="theme", description="Pick a theme")
@app_commands.choices(
    name=[app_commands.Choice(name="Dark", value="dark"), app_commands.Choice(name="Light", value="light")]
)
async def game_theme(interaction: discord.Interaction, name: app_commands.Choice[str]) -> None:
    """A subcommand in a subcommand group, with declared choices."""
    await interaction.response.send_message(f"theme {name.value}")
