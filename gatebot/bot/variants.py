"""The variants and their rule options as slash-command parameters, shared by ``/gate`` and ``/challenge``.

Both come from the rules' registry (:data:`gatebot.rules.VARIANTS`): ``variant`` is a choice of
every variant by its title, and ``options`` one string of the chosen variant's rule options,
separated by spaces or commas, which autocomplete offers as the member types (each name with
its help). A variant added to the registry is offered by every command that deals a game, with
no command's signature changed. An option the variant lacks gets the rules' one sentence
("Gate has no option 'kit': its options are …"), and nothing is dealt.
"""

from __future__ import annotations

import re

import discord
from discord import app_commands

import gatebot.rules.variants as registry
from gatebot.bot.language import speaker
from gatebot.locale import translator
from gatebot.rules import DEFAULT_VARIANT, Game, RulesError, find_variant

#: What the ``options`` parameter says.
OPTIONS_HELP = "The variant's rule options, separated by spaces or commas (start typing to see them)"
#: Discord's most choices an autocomplete may offer, and the longest name or value of one.
MAX_CHOICES, CHOICE_LIMIT = 25, 100
_SEPARATORS = re.compile(r"[\s,]+")


def variant_choices() -> list[app_commands.Choice[str]]:
    """One choice per variant of the registry, in its order: the title shown, the name sent."""
    return [app_commands.Choice(name=variant.title, value=variant.name) for variant in registry.VARIANTS]


def variant_help() -> str:
    """What the ``variant`` parameter says: "Gate, Little Gate, Canfield or Archway"."""
    titles = [variant.title for variant in registry.VARIANTS]
    listed = ", ".join(titles[:-1]) + f" or {titles[-1]}" if len(titles) > 1 else "".join(titles)
    return f"{listed} (default {_variant(DEFAULT_VARIANT).title})"


def chosen_variant(choice: app_commands.Choice[str] | None) -> str:
    """The variant a command's ``variant`` parameter names: the registry's default when left out."""
    return choice.value if choice is not None else DEFAULT_VARIANT


def rule_options(text: str | None) -> tuple[str, ...]:
    """The rule options ``text`` names, separated by spaces or commas, in any case (``draw_one`` is ``draw-one``).

    They are the service's to check against the variant: one the variant lacks gets the rules'
    one sentence (:class:`~gatebot.rules.UnknownVariant`), and nothing is dealt or made.
    """
    return tuple(dict.fromkeys(_names(text or "")))


async def options_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The chosen variant's options (name — help, the help in the member's language) that complete ``options``.

    The names already typed stay in front; the last, unfinished one is what is completed, and
    an option already named isn't offered again.
    """
    try:
        variant = _variant(str(getattr(interaction.namespace, "variant", None) or DEFAULT_VARIANT))
    except RulesError:
        return []
    names = _names(current)
    finished = not current or _SEPARATORS.fullmatch(current[-1]) is not None
    typed = "" if finished or not names else names.pop()
    head = "".join(f"{name} " for name in names)
    # The member's language; a caller that names no locale (a bare namespace) is answered in English.
    say = speaker(interaction) if getattr(interaction, "locale", None) is not None else translator()
    choices = []
    for option in variant.rule_options:
        if option.name in names or not option.name.startswith(typed):
            continue
        value = f"{head}{option.name}"
        if len(value) <= CHOICE_LIMIT:
            choices.append(app_commands.Choice(name=f"{value} — {say.say(option.help)}"[:CHOICE_LIMIT], value=value))
    return choices[:MAX_CHOICES]


def _names(text: str) -> list[str]:
    return [name.lower().replace("_", "-") for name in _SEPARATORS.split(text.strip()) if name]


def _variant(name: str) -> type[Game]:
    """The registry's variant called ``name`` (or found by title or alias), else the rules' refusal."""
    for variant in registry.VARIANTS:
        if variant.name == name:
            return variant
    return find_variant(name)
