"""The buttons under a yes/no question the bot asks one person (before abandoning a game, or deleting data)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import discord

from gatebot.bot.errors import on_view_error, reply_privately

#: How long a question waits for its answer, in seconds; then its buttons stop working.
ANSWER_SECONDS = 120


class Question(discord.ui.View):
    """A question's buttons: only the one who asked may answer; anyone else is told so privately.

    The questions are ephemeral, so only the asker sees them in practice; the check is what
    makes that a rule rather than a habit. A failure in a button is logged and apologised for.
    """

    def __init__(self, user_id: str) -> None:
        super().__init__(timeout=ANSWER_SECONDS)
        self.user_id = user_id

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if str(interaction.user.id) == self.user_id:
            return True
        await reply_privately(interaction, "Only the one who asked can answer this.")
        return False

    async def on_error(self, interaction: discord.Interaction, error: Exception, item: discord.ui.Item[Any]) -> None:
        await on_view_error(interaction, error, item)


class ConfirmNewGame(Question):
    """Yes/no before a new game abandons the running one: ``/gate new``, Play again and New deal alike.

    ``deal`` is what the yes does: deal the new game (the service told to abandon the old one)
    and answer ``interaction`` with its board.
    """

    def __init__(self, user_id: str, deal: Callable[[discord.Interaction], Awaitable[None]]) -> None:
        super().__init__(user_id)
        self._deal = deal

    @discord.ui.button(label="Start the new game", style=discord.ButtonStyle.danger)
    async def confirm(self, interaction: discord.Interaction, _button: discord.ui.Button[ConfirmNewGame]) -> None:
        self.stop()
        await interaction.response.edit_message(content="Dealing…", view=None)
        await self._deal(interaction)

    @discord.ui.button(label="Keep playing", style=discord.ButtonStyle.secondary)
    async def keep(self, interaction: discord.Interaction, _button: discord.ui.Button[ConfirmNewGame]) -> None:
        self.stop()
        await interaction.response.edit_message(content="Your game goes on.", view=None)
