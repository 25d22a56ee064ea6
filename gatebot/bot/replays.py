"""Replays on Discord: a finished game stepped through position by position, and its animation.

``/gate replay`` and the Replay button under a finished board open one message: the board at
a step, the line "Step 12 of 119 · <the move played>", and ⏮ ◀ ▶ ⏭ and Animation under it (the
step buttons that would go nowhere disabled). A step button edits that message in place;
Animation posts the whole game as an animated GIF (:func:`gatebot.render.replay.animate`),
drawn in a worker thread once the press is deferred, so the bot keeps answering others.

Every press asks the service again (:meth:`gatebot.service.replays.Replays.replay`): it alone
decides who may watch a game. The step buttons are the replay's owner's, whoever opened it, as
a board's are its player's: anyone else's press is refused privately, and the message stays as
it was. The custom ids carry the game, the step and the owner (``gate:replay:42:12:next:7``),
so the buttons work after a restart and nothing is kept in memory.

An attempt at a challenge still open is a secret until it closes (every position shows the
deal): its replay is shown to its owner alone (ephemeral), names the challenge, never the
deal, and its animation is posted privately too.

A step is drawn by the drawing of a board (:func:`gatebot.bot.boards.game_message`) in the
presser's own style — text, emoji, words or image — so each step shows exactly what the board
showed at that point of the game: never the stock's order, never a face-down card. The image
style uploads one PNG per press, as each move on an image board already does (a palette PNG of
35–65 KB, drawn in a thread): a player who chose pictures gets pictures, and a step costs no
more than a move did.
"""

from __future__ import annotations

import asyncio
import io
from typing import TYPE_CHECKING, Any, ClassVar

import discord
from discord.ui import DynamicItem

from gatebot.bot.actors import interaction_actor
from gatebot.bot.boards import BoardMessage, game_message
from gatebot.bot.errors import expired, log_failure, on_view_error, reply_privately
from gatebot.bot.language import speaker
from gatebot.bot.timely import SAFETY_DEFER, OnTime
from gatebot.errors import UserError
from gatebot.locale import Translator
from gatebot.messages import N_, _, joined
from gatebot.render.boards import DESCRIPTION_LIMIT
from gatebot.render.replay import animate
from gatebot.rules import Game
from gatebot.service import GameService, Preferences
from gatebot.service.replays import GameReplay, step_line, title_line

if TYPE_CHECKING:
    from re import Match

#: A step button: the game, the step it shows when pressed, and which button it is (ids differ in a message).
STEP_ID = r"gate:replay:(?P<game>\d{1,19}):(?P<step>\d{1,9}):(?P<button>first|back|next|last)(?::(?P<owner>\d{1,20}))?"
#: Animation: the game's GIF.
ANIMATION_ID = r"gate:replay:(?P<game>\d{1,19}):gif"
#: The step buttons in their order: key, label.
STEP_BUTTONS = (("first", "⏮"), ("back", "◀"), ("next", "▶"), ("last", "⏭"))
ANIMATION_BUTTON = (N_("Animation"), "🎬")
#: A press whose answer Discord didn't take: nothing is lost, the message's buttons still work.
REPLAY_APOLOGY = N_("Sorry, I couldn't show that just now: please press again.")
#: The animation's description (alt text): what the picture is, then the replay's heading.
ANIMATION_DESCRIPTION = N_("An animation of the game, move by move, from the deal to its end. {title}")
#: A press on someone else's replay.
NOT_YOURS = N_("This replay's buttons are for whoever opened it: open your own with /gate replay.")
class StepButton(DynamicItem[discord.ui.Button[Any]], template=STEP_ID):
    """⏮ ◀ ▶ ⏭ under a replay: shows step ``step`` of game ``game_id`` in the pressed message."""

    screen: ClassVar[ReplayScreen]

    def __init__(
        self, game_id: int, step: int, button: str, owner: int | None = None, *, disabled: bool = False
    ) -> None:
        """``owner``: the Discord user whose replay this is (None on a message from an older gatebot: anyone's)."""
        label = dict(STEP_BUTTONS)[button]
        whose = "" if owner is None else f":{owner}"
        super().__init__(
            discord.ui.Button(
                label=label, style=discord.ButtonStyle.secondary,
                custom_id=f"gate:replay:{game_id}:{step}:{button}{whose}", disabled=disabled,
            ),
            row=0,
        )
        self.game_id, self.step, self.button, self.owner = game_id, step, button, owner

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Match[str], /
    ) -> StepButton:
        owner = match["owner"]
        return cls(int(match["game"]), int(match["step"]), match["button"], None if owner is None else int(owner))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            if self.owner is not None and interaction.user.id != self.owner:
                await reply_privately(interaction, NOT_YOURS)
                return
            await self.screen.step(interaction, self.game_id, self.step)
        except Exception as error:
            await failed(interaction, error, self)


class AnimationButton(DynamicItem[discord.ui.Button[Any]], template=ANIMATION_ID):
    """Animation, under a replay: posts the whole game as an animated GIF."""

    screen: ClassVar[ReplayScreen]

    def __init__(self, game_id: int, *, say: Translator | None = None) -> None:
        label, emoji = ANIMATION_BUTTON
        super().__init__(
            discord.ui.Button(label=say.gettext(label) if say is not None else label, emoji=emoji,
                              style=discord.ButtonStyle.primary,
                              custom_id=f"gate:replay:{game_id}:gif"),
            row=0,
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Match[str], /
    ) -> AnimationButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await self.screen.animation(interaction, self.game_id)
        except Exception as error:
            await failed(interaction, error, self)


async def failed(interaction: discord.Interaction, error: Exception, item: discord.ui.Item[Any]) -> None:
    """A replay press that went wrong: a refusal's sentence, or the failure logged and a short apology.

    A replay changes nothing, so the apology only asks for the press again.
    """
    if isinstance(error, UserError) or expired(error):
        await on_view_error(interaction, error, item)
        return
    log_failure(error, "replay component %s for user %s in channel %s",
                getattr(item, "custom_id", item), interaction.user.id, interaction.channel_id)
    await reply_privately(interaction, REPLAY_APOLOGY)


class ReplayScreen:
    """Opens replays, steps them and posts their animations, for whoever the service lets watch.

    Its buttons are classes bound to it (:attr:`items`, for ``add_dynamic_items``), so a
    press reaches this bot's service through the class, not through ``interaction.client``.
    """

    def __init__(self, service: GameService, *, safety_defer: float = SAFETY_DEFER) -> None:
        """``safety_defer``: seconds before a replay still being drawn is acknowledged."""
        self.service = service
        self.safety_defer = safety_defer
        screen = self

        class ScreenStep(StepButton, template=STEP_ID):
            pass

        class ScreenAnimation(AnimationButton, template=ANIMATION_ID):
            pass

        ScreenStep.screen = ScreenAnimation.screen = screen
        self.step_button: type[StepButton] = ScreenStep
        self.animation_button: type[AnimationButton] = ScreenAnimation

    @property
    def items(self) -> tuple[type[DynamicItem[Any]], ...]:
        """The classes of the replay's buttons, to register with ``add_dynamic_items``."""
        return (self.step_button, self.animation_button)

    async def open(self, interaction: discord.Interaction, game_id: int | None) -> None:
        """``/gate replay`` or a board's Replay button: the game at step 0 as a new message.

        ``game_id`` None is the asker's last finished game. A refusal
        (:class:`~gatebot.service.replays.ReplayRefused`) is raised for the caller's error
        boundary, which says it privately.
        """
        actor = interaction_actor(interaction)
        say = speaker(interaction)
        async with OnTime(interaction, after=self.safety_defer) as answer:
            replay = await self.service.replays.replay(actor, game_id)
            message = await self.message(replay, 0, await self._style(interaction), say, owner=interaction.user.id)
            if replay.secret is None:
                await answer.send(message.content, view=message.view, file=message.file, embed=message.embed)
                return
            note = say.say(_("Your replay of {challenge} is private until the challenge closes.",
                             challenge=replay.secret))
            await answer.send_privately(
                message.content, note=note, view=message.view, file=message.file, embed=message.embed
            )

    async def step(self, interaction: discord.Interaction, game_id: int, step: int) -> None:
        """A step button: the pressed message shows step ``step`` (kept within the game), edited in place."""
        async with OnTime(interaction, after=self.safety_defer, edits=True) as answer:
            replay = await self.service.replays.replay(interaction_actor(interaction), game_id)
            message = await self.message(
                replay, step, await self._style(interaction), speaker(interaction), owner=interaction.user.id
            )
            await answer.update(**message.edit_kwargs())

    async def animation(self, interaction: discord.Interaction, game_id: int) -> None:
        """Animation: the press deferred at once, the GIF drawn in a worker thread, then posted here.

        A refusal follows the deferred press privately; the picture is for the channel, or for
        its owner alone while the game's challenge is open (drawn naming the challenge, not the deal).
        """
        await interaction.response.defer()
        replay = await self.service.replays.replay(interaction_actor(interaction), game_id)
        drawn = await asyncio.to_thread(animate, replay.positions, language=speaker(interaction), label=replay.secret)
        say = speaker(interaction)
        alt = say.say(_(ANIMATION_DESCRIPTION, title=say.say(title_line(replay))))[:DESCRIPTION_LIMIT]
        picture = discord.File(
            io.BytesIO(drawn.data), filename=f"gate-replay-{replay.game_id}.{drawn.extension}", description=alt
        )
        await interaction.followup.send(say.say(title_line(replay)), file=picture, ephemeral=replay.secret is not None)

    async def message(
        self, replay: GameReplay, step: int, style: Preferences, say: Translator | None = None,
        *, owner: int | None = None,
    ) -> BoardMessage:
        """The replay at ``step`` (clamped to its steps), drawn in ``style`` (a player's preferences).

        Its heading, step line and Animation button are in ``say``'s language (English by default);
        its step buttons answer ``owner`` alone (the Discord user it was opened for).
        """
        last = len(replay.positions) - 1
        step = max(0, min(step, last))
        view = discord.ui.View(timeout=None)
        targets = {"first": 0, "back": max(0, step - 1), "next": min(last, step + 1), "last": last}
        for button, _label in STEP_BUTTONS:
            stays = targets[button] == step
            view.add_item(self.step_button(replay.game_id, targets[button], button, owner, disabled=stays))
        view.add_item(self.animation_button(replay.game_id, say=say))
        game: Game = replay.positions[step]
        line = joined(title_line(replay), step_line(replay, step), sep="\n")
        return await game_message(game, style, line, view, language=say, label=replay.secret)

    async def _style(self, interaction: discord.Interaction) -> Preferences:
        """How the presser likes boards drawn."""
        return await self.service.preferences(interaction_actor(interaction))
