"""The help text and the README name only slash commands the bot really has, and name them all."""

from __future__ import annotations

import re
from pathlib import Path

from discord import app_commands

from gatebot.bot.client import GateBot
from gatebot.bot.help import HELP
from gatebot.locale import translator
from gatebot.service import GameService
from gatebot.settings import Settings
from gatebot.store import Database

README = Path(__file__).resolve().parents[2] / "README.md"
#: "/gate new", "/challenge-admin daily on", "/gate forget-me": a group and one or two words.
MENTION = re.compile(r"(?<![\w/])/(gate|challenge-admin|challenge)((?: [a-z][a-z-]*){1,2})")
#: The same in any language: a German command name may hold "ü" ("/gate zurück").
ANY_MENTION = re.compile(r"(?<![\w/])/(gate|challenge-admin|challenge)((?: [^\W\d_][\w-]*){1,2})")


async def registered_commands(tmp_path: Path) -> set[str]:
    """Every slash command's full name (``challenge-admin daily on``), from the bot's own command tree."""
    db = Database(f"sqlite+aiosqlite:///{tmp_path}/help.db")
    service = GameService(db)
    bot = GateBot(Settings(token="x", database_url="sqlite://"), service)
    try:
        await bot.setup_hook()
        names = set()
        for command in bot.tree.walk_commands():
            if isinstance(command, app_commands.Command):
                names.add(command.qualified_name)
        return names
    finally:
        service.close()
        await db.dispose()


def mentioned(text: str, known: set[str], pattern: re.Pattern[str] = MENTION) -> set[str]:
    """The commands a text mentions: the longest known name at each mention, else the mention itself."""
    found = set()
    for group, words in pattern.findall(text):
        parts = [group, *words.split()]
        names = [" ".join(parts[:n]) for n in range(len(parts), 1, -1)]
        found.add(next((name for name in names if name in known), names[-1]))
    return found


async def test_the_help_names_only_real_commands(tmp_path: Path) -> None:
    known = await registered_commands(tmp_path)
    assert {"gate new", "challenge-admin create", "challenge-admin daily on", "challenge daily"} <= known
    assert mentioned(HELP, known) <= known


async def test_the_readme_names_only_real_commands_and_every_one_of_them(tmp_path: Path) -> None:
    known = await registered_commands(tmp_path)
    named = mentioned(README.read_text(encoding="utf-8"), known)
    assert named <= known, f"the README names commands the bot lacks: {sorted(named - known)}"
    assert known <= named, f"the README never names: {sorted(known - named)}"


async def test_the_german_help_names_real_commands_as_a_german_client_shows_them(tmp_path: Path) -> None:
    known = await registered_commands(tmp_path)
    de = translator("de")
    german = {" ".join(de.pgettext("command", part) for part in name.split()) for name in known}
    text = de.say(HELP)
    assert text.startswith("**Gate mit gatebot spielen**") and len(text) <= 2000  # one Discord message
    named = mentioned(text, german, ANY_MENTION)
    assert {"gate neu", "gate zurück", "gate tipp", "challenge play"} <= named
    assert named <= german, f"the German help names commands the bot lacks: {sorted(named - german)}"
