"""The buttons under a yes/no question the bot asks one person, before a change that can't be taken back.

Before a game is abandoned, resigned or restarted, or a player's data deleted.

A button's label is fixed where its class is defined, in English; each question is worded
for the one it asks when it is made: :class:`Question` says its buttons' labels (marked with
:func:`~gatebot.messages.N_`) through the translator its caller passes, the asker's.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import discord

from gatebot.bot.errors import on_view_error, reply_privately
from gatebot.bot.language import speaker
from gatebot.locale import Translator, translator
from gatebot.messages import N_, _

#: How long a question waits for its answer, in seconds; then its buttons stop working.
ANSWER_SECONDS = 120


class Question(discord.ui.View):
    """A question's buttons: only the one who asked may answer; anyone else is told so privately.

    The questions are ephemeral, so only the asker sees them in practice; the check is what
    makes that a rule rather than a habit. A failure in a button is logged and apologised for.
    ``language`` is the asker's translator: the buttons read in it (English by default).
    """

    def __init__(self, user_id: str, language: Translator | None = None) -> None:
        super().__init__(timeout=ANSWER_SECONDS)
        self.user_id = user_id
        said = language or translator()
        for item in self.children:
            if isinstance(item, discord.ui.Button) and item.label:
                item.label = said.say(item.label)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if str(interaction.user.id) == self.user_id:
            return True
        await reply_privately(interaction, _("Only the one who asked can answer this."))
        return False

    async def on_error(self, interaction: discord.Interaction, error: Exception, item: discord.ui.Item[Any]) -> None:
        await on_view_error(interaction, error, item)


class ConfirmNewGame(Question):
    """Yes/no before a new game abandons the running one: ``/gate new``, Play again and New deal alike.

    ``deal`` is what the yes does: deal the new game (the service told to abandon the old one)
    and answer ``interaction`` with its board; ``language`` the asker's, for the buttons.
    """

    def __init__(
        self, user_id: str, deal: Callable[[discord.Interaction], Awaitable[None]], language: Translator | None = None
    ) -> None:
        super().__init__(user_id, language)
        self._deal = deal

    @discord.ui.button(label=N_("Start the new game"), style=discord.ButtonStyle.danger)
    async def confirm(self, interaction: discord.Interaction, _button: discord.ui.Button[ConfirmNewGame]) -> None:
        self.stop()
        await interaction.response.edit_message(content=speaker(interaction).say(_("Dealing…")), view=None)
        await self._deal(interaction)

    @discord.ui.button(label=N_("Keep playing"), style=discord.ButtonStyle.secondary)
    async def keep(self, interaction: discord.Interaction, _button: discord.ui.Button[ConfirmNewGame]) -> None:
        self.stop()
        await interaction.response.edit_message(content=speaker(interaction).say(_("Your game goes on.")), view=None)


class ConfirmChange(Question):
    """Yes/no before a change to the running game that can't be taken back: ``/gate resign``, ``/gate restart``.

    ``act`` is what the yes does (the service told it was confirmed), answering the yes's
    interaction with the changed board; a no changes nothing. Subclasses name the buttons.
    """

    #: What the question's message says while the yes is carried out.
    working = N_("Just a moment…")

    def __init__(
        self, user_id: str, act: Callable[[discord.Interaction], Awaitable[None]], language: Translator | None = None
    ) -> None:
        super().__init__(user_id, language)
        self._act = act

    async def confirmed(self, interaction: discord.Interaction) -> None:
        self.stop()
        await interaction.response.edit_message(content=speaker(interaction).say(self.working), view=None)
        await self._act(interaction)

    async def kept(self, interaction: discord.Interaction) -> None:
        self.stop()
        await interaction.response.edit_message(content=speaker(interaction).say(_("Your game goes on.")), view=None)


class ConfirmResign(ConfirmChange):
    """Yes/no before ``/gate resign`` ends the game (or a challenge attempt) with its score as it is."""

    working = N_("Resigning…")

    @discord.ui.button(label=N_("Resign"), style=discord.ButtonStyle.danger)
    async def confirm(self, interaction: discord.Interaction, _button: discord.ui.Button[ConfirmResign]) -> None:
        await self.confirmed(interaction)

    @discord.ui.button(label=N_("Keep playing"), style=discord.ButtonStyle.secondary)
    async def keep(self, interaction: discord.Interaction, _button: discord.ui.Button[ConfirmResign]) -> None:
        await self.kept(interaction)


class ConfirmRestart(ConfirmChange):
    """Yes/no before ``/gate restart`` takes every move back, the deal as it was dealt."""

    working = N_("Starting over…")

    @discord.ui.button(label=N_("Restart the deal"), style=discord.ButtonStyle.danger)
    async def confirm(self, interaction: discord.Interaction, _button: discord.ui.Button[ConfirmRestart]) -> None:
        await self.confirmed(interaction)

    @discord.ui.button(label=N_("Keep playing"), style=discord.ButtonStyle.secondary)
    async def keep(self, interaction: discord.Interaction, _button: discord.ui.Button[ConfirmRestart]) -> None:
        await self.kept(interaction)
