"""Discord readers' languages: each interaction's locale, and the slash commands' names in it.

Every interaction carries its user's client language (``interaction.locale``); a typed
message carries none, so it is answered in its server's language (``preferred_locale``).
:func:`speaker` gives the :class:`~gatebot.locale.Translator` for an interaction, and the
bot says every sentence through it: a service reply's :class:`~gatebot.messages.Text` by its
message id, the board's words drawn in it (:mod:`gatebot.bot.boards`).

:class:`CatalogueTranslator` is discord.py's :class:`~discord.app_commands.Translator` over
the same catalogues: it names the commands, options and choices (context ``command``) and
describes them in every language gatebot has, so a German client shows ``/gate neu``.
"""

from __future__ import annotations

import functools

import discord
from discord import app_commands

from gatebot.locale import ENGLISH, Translator, language_of, translator

#: Where a string of the command tree is a name (which Discord restricts), not a description.
_NAMES = (
    app_commands.TranslationContextLocation.command_name,
    app_commands.TranslationContextLocation.group_name,
    app_commands.TranslationContextLocation.parameter_name,
    app_commands.TranslationContextLocation.choice_name,
)


def speaker(interaction: discord.Interaction) -> Translator:
    """The translator for the person who made ``interaction``: their Discord client's language."""
    return reader(str(interaction.locale))


@functools.cache
def reader(locale: str | None = None) -> Translator:
    """The translator for a Discord reader of ``locale``: names in its sentences escaped (:func:`escape_name`)."""
    return translator(locale).quoting(escape_name)


def escape_name(name: str) -> str:
    """A name as Discord shows it literally: its markdown and mentions escaped, so it formats and pings nothing."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(name))


def escape_in_code(name: str) -> str:
    """A name inside a code block: no run of backticks that could end the block early."""
    return name.replace("`", "`\u200b")


class CatalogueTranslator(app_commands.Translator):
    """The slash commands' names and descriptions from gatebot's catalogues; English is the code's own."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        """``string`` in ``locale``, or None (Discord then shows the English) when no catalogue has it."""
        if language_of(str(locale)) == ENGLISH:
            return None
        catalogue = translator(str(locale))
        if context.location in _NAMES:
            said = catalogue.pgettext("command", string.message)
        else:
            said = catalogue.gettext(string.message)
        return said if said != string.message else None
