"""What the bot says when asked for help or the rules (ephemeral, within Discord's limits).

``/gate help`` is a short overview with a menu of sections (Playing, Moves, Hints, Challenges,
Settings) rather than one wall of text: a player finds the one part they came for, and each
part stays well within a message's 2,000 characters. Every text is said in the asker's
language; the German names the commands as a German client shows them.
"""

from __future__ import annotations

from re import Match
from typing import Any, cast

import discord
from discord.ui import DynamicItem

from gatebot.bot.language import speaker
from gatebot.locale import Translator
from gatebot.messages import ENGLISH, N_
from gatebot.render import rules_paragraphs
from gatebot.rules import DEFAULT_VARIANT, Game

#: What ``/gate help`` opens with: where to start, and the menu of sections under it.
OVERVIEW = N_("""\
**Playing Gate with gatebot**
`/gate new` deals a game; play it with the buttons and the move menu under your board. \
`/gate rules` explains the game you play, and `/gate hint` suggests a move.
Add me to your account to play in any DM or group DM too; challenges are played in servers.
Pick a section below for more.""")

#: The sections of ``/gate help``, in the menu's order: (key, label, one line for the menu, the text).
SECTIONS: tuple[tuple[str, str, str, str], ...] = (
    ("playing", N_("Playing"), N_("Dealing, playing, ending and looking back on a game"), N_("""\
**Playing**
`/gate new` deals a game (a random deal, `deal:` a number everyone can replay, or `winnable:` one I proved \
can be won). `variant:` Gate, Little Gate, Canfield or Archway, and `options:` its rules \
(start typing to see them: `draw-one passes-2` for Canfield, `kit` for Archway); `/gate rules` explains \
the game you play.
Play with the buttons and the move menu under your board, with `/gate move`, or by typing moves: \
in a DM, by mentioning me (`@Gate 3f w5`), or by replying to your board. In a group DM, or a server I \
wasn't added to, only the slash commands and the buttons reach me.
`/gate undo`, `/gate restart` (the same deal from its start), `/gate auto` (safe cards to the foundations), \
`/gate board`, `/gate resign`, `/gate rules`.
**You:** `/gate stats` (yours or a member's, with a picture), `/gate games` (your finished games and \
their numbers), `/gate share` or a finished board's Share button \
(a spoiler-free card of your game), `/gate replay` (watch a finished game again), \
`/gate forget-me` (deletes everything stored about you).""")),
    ("moves", N_("Moves"), N_("The move notation: d, 3f, w5, 37 and the rest"), N_("""\
**Moves:** `d` draw · `3f` column 3 to its foundation · `w5` waste onto column 5 · `37` column 3 onto 7 \
· `35:2` two cards onto a free space · `l2`/`r2` a reserve's top · `7h` a card by name · `7h 8s` 7♥ onto 8♠ \
· several at once: `d 3f w5`. Canfield: `r3` its reserve onto pile 3. Archway: `2ca` 2♣ from the arch to its \
Ace foundation · `3k` column 3 to its King foundation · `7h2` 7♥ into the space in column 2 · `fhk` reversing.
`/gate move` lists the legal moves as you type; `/gate undo` takes moves back.""")),
    ("hints", N_("Hints"), N_("Hints, Auto and the End-game offer"), N_("""\
**Stuck?** `/gate hint`, the Hint button or `@Gate hint` suggests a move (nothing is played), shown only \
to you. Once no card is hidden (Gate's stock is out), Auto finishes a game I can prove won, and I offer \
End game when no win is left (for each variant my solver plays; I say so when it doesn't yet).""")),
    ("challenges", N_("Challenges"), N_("One deal the whole server plays, once each"), N_("""\
**Challenges:** everyone in the server plays the same deal, once: `/challenge play` (or the Play button), \
`/challenge leaderboard`, `/challenge list`, `/challenge daily`. Members with Manage Server make them \
(`/challenge-admin create`) or switch on a daily one (`/challenge-admin daily on`). Challenges live in \
servers that added me, not in DMs.""")),
    ("settings", N_("Settings"), N_("How your boards are drawn"), N_("""\
**Settings:** `/gate settings` chooses how your boards are drawn: `style:` text, emoji or image boards, \
or words for screen readers; `compact:` the narrow board that fits a phone (the default; an image is then \
the phone picture, with large cards; false for the wide one); `four_colour:` green clubs and blue diamonds. \
Your choice follows you to every server and DM.""")),
)

#: Every help text, overview first (for checks that it names only real commands).
HELP = "\n\n".join((OVERVIEW, *(text for *_, text in SECTIONS)))


def help_page(key: str | None, say: Translator) -> str:
    """The help text of section ``key`` in ``say``'s language; the overview for None or a key no section has."""
    return say.say(next((text for name, _, _, text in SECTIONS if name == key), OVERVIEW))


def rules_for(game: Game | None, say: Translator | None = None) -> str:
    """The rules of the player's game (its variant and options), or of plain Gate, in ``say``'s language.

    A paragraph a rule, unbroken: Discord wraps them to the reader's screen, a phone's or a desktop's.
    """
    shown = game if game is not None else Game.new(DEFAULT_VARIANT, deal=1)
    language = say if say is not None else ENGLISH
    return "\n\n".join(rules_paragraphs(shown, language=language))


#: The help menu's custom id: the section chosen travels in the select's values, so it works after a restart.
HELP_MENU_ID = "gate:help"


class HelpMenu(DynamicItem[discord.ui.Select[Any]], template=HELP_MENU_ID):
    """The menu of help sections under ``/gate help``; choosing one shows it in the same private message."""

    def __init__(self, chosen: str | None = None, say: Translator | None = None) -> None:
        words = say.say if say is not None else str
        super().__init__(
            discord.ui.Select(
                custom_id=HELP_MENU_ID,
                placeholder=words(N_("More about…")),
                options=[
                    discord.SelectOption(label=words(label), value=key, description=words(line), default=key == chosen)
                    for key, label, line, _ in SECTIONS
                ],
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Match[str], /
    ) -> HelpMenu:
        return cls()

    async def callback(self, interaction: discord.Interaction) -> None:
        raw = cast("dict[str, Any]", interaction.data or {}).get("values")
        key = str(raw[0]) if isinstance(raw, list) and raw else None
        say = speaker(interaction)
        await interaction.response.edit_message(content=help_page(key, say), view=help_view(say, key))


def help_view(say: Translator, chosen: str | None = None) -> discord.ui.View:
    """The menu under a help message in ``say``'s language, with ``chosen`` (a section's key) shown as picked."""
    view = discord.ui.View(timeout=None)
    view.add_item(HelpMenu(chosen, say))
    return view
