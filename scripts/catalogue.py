"""Keep gatebot's message catalogues in step with the code: extract, update, compile.

    python scripts/catalogue.py

extracts every marked sentence (:mod:`gatebot.messages`' ``_``, ``n_``, ``N_``, ``NP_``, ``NN_`` and
the translations' ``gettext``/``ngettext``/``pgettext``) with Babel, adds the ``/gate``,
``/challenge`` and ``/challenge-admin`` slash commands' names and descriptions (read off the
cogs' classes, context ``command``), writes
the template ``gatebot/locale/gatebot.pot``, merges it into each language's ``gatebot.po``
(new ids come in untranslated, gone ones become obsolete) and compiles each ``gatebot.mo``.
Translate the new entries, run it again to compile, and commit all three.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

if TYPE_CHECKING:
    from discord import app_commands

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "gatebot" / "locale"
TEMPLATE = LOCALE / "gatebot.pot"
KEYWORDS: dict[str, tuple[int | tuple[int, str], ...] | None] = {
    "_": None,
    "N_": None,
    "n_": (1, 2),
    "NP_": ((1, "c"), 2),
    "NN_": (1, 2),
    "gettext": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
}
#: The context of a slash command's, group's, option's or choice's name (a description has none).
COMMAND = "command"


def command_strings() -> Iterator[tuple[str, str | None, str]]:
    """Each name (context ``command``) and description of the slash commands, with the file of its cog.

    Read off the cogs' classes: ``/gate``, ``/challenge`` and ``/challenge-admin``.
    """
    from gatebot.bot.challenges._cog import ChallengeAdmin, Challenges
    from gatebot.bot.games._cog import Games

    for cog, where in (
        (Games, "gatebot/bot/games/_cog.py"),
        (Challenges, "gatebot/bot/challenges/_cog.py"),
        (ChallengeAdmin, "gatebot/bot/challenges/_cog.py"),
    ):
        yield cog.__cog_group_name__, COMMAND, where
        yield str(cog.__cog_group_description__), None, where
        for command in cog.__cog_app_commands__:
            for text, context in _command_strings(command):
                yield text, context, where


def _command_strings(command: app_commands.Command | app_commands.Group) -> Iterator[tuple[str, str | None]]:
    from discord import app_commands

    yield command.name, COMMAND
    yield command.description, None
    if isinstance(command, app_commands.Group):
        for child in command.commands:
            yield from _command_strings(child)
        return
    for parameter in command.parameters:
        yield parameter.name, COMMAND
        if parameter.description and parameter.description != "…":
            yield str(parameter.description), None
        for choice in parameter.choices:
            yield choice.name, COMMAND


def template() -> Catalog:
    """Every message gatebot says, as a template catalogue (no translations)."""
    catalogue = Catalog(project="gatebot", domain="gatebot", fuzzy=False)
    for filename, lineno, message, comments, context in extract_from_dir(
        ROOT / "gatebot",
        method_map=[("**.py", "python")],
        keywords=KEYWORDS,
        comment_tags=("TRANSLATORS:",),
    ):
        catalogue.add(message, None, [(f"gatebot/{filename}", lineno)], auto_comments=comments, context=context)
    for text, context, where in command_strings():
        catalogue.add(text, None, [(where, 0)], context=context)
    return catalogue


def languages() -> list[str]:
    """The languages with a catalogue (a directory under ``gatebot/locale``)."""
    return sorted(path.name for path in LOCALE.iterdir() if (path / "LC_MESSAGES" / "gatebot.po").exists())


def main() -> int:
    fresh = template()
    with TEMPLATE.open("wb") as out:
        write_po(out, fresh, omit_header=False, sort_output=True, width=100)
    for language in languages():
        po_path = LOCALE / language / "LC_MESSAGES" / "gatebot.po"
        with po_path.open("rb") as po:
            catalogue = read_po(po, locale=language)
        catalogue.update(fresh, update_header_comment=False)
        with po_path.open("wb") as out:
            write_po(out, catalogue, sort_output=True, width=100, ignore_obsolete=True)
        with po_path.with_suffix(".mo").open("wb") as mo:
            write_mo(mo, catalogue)
        missing = [m.id for m in catalogue if m.id and (not m.string or m.fuzzy)]
        print(f"{language}: {len(catalogue)} messages, {len(missing)} to translate")
    return 0


if __name__ == "__main__":
    sys.exit(main())
