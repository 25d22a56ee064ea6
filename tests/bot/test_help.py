"""Help: the text and the README name only real slash commands, and every one; every command and
parameter says what it is; ``/gate help`` is an overview with a menu of sections within Discord's limits."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import discord
from discord import app_commands

from gatebot.bot.client import GateBot
from gatebot.bot.help import HELP, OVERVIEW, SECTIONS
from gatebot.locale import translator
from gatebot.service import GameService
from gatebot.settings import Settings
from gatebot.store import Database
from tests.bot.gatebots import Running

README = Path(__file__).resolve().parents[2] / "README.md"
#: "/gate new", "/challenge-admin daily on", "/gate forget-me": a group and one or two words.
MENTION = re.compile(r"(?<![\w/])/(gate|challenge-admin|challenge)((?: [a-z][a-z-]*){1,2})")
#: The same in any language: a German command name may hold "ü" ("/gate zurück").
ANY_MENTION = re.compile(
    r"(?<![\w/])/(gate|challenge-admin|challenge|herausforderung-admin|herausforderung)((?: [^\W\d_][\w-]*){1,2})"
)


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


async def test_every_command_group_and_parameter_says_what_it_is_in_at_most_100_characters(tmp_path: Path) -> None:
    db = Database(f"sqlite+aiosqlite:///{tmp_path}/help.db")
    service = GameService(db)
    bot = GateBot(Settings(token="x", database_url="sqlite://"), service)
    try:
        await bot.setup_hook()
        described: dict[str, str] = {}
        for command in bot.tree.walk_commands():
            described[f"/{command.qualified_name}"] = str(command.description)
            if isinstance(command, app_commands.Command):
                for parameter in command.parameters:
                    described[f"/{command.qualified_name} {parameter.name}:"] = str(parameter.description)
    finally:
        service.close()
        await db.dispose()
    assert "/gate new deal:" in described and "/challenge-admin daily" in described
    # discord.py's placeholder for a missing description is an ellipsis.
    missing = [name for name, text in described.items() if not text.strip(" .…")]
    assert missing == [], f"no description: {missing}"
    long = {name: len(text) for name, text in described.items() if len(text) > 100}
    assert long == {}, f"longer than Discord's 100 characters: {long}"


SECTION_LABELS = ["Playing", "Moves", "Hints", "Challenges", "Settings"]


def menu_of(components: list[dict]) -> dict:
    [menu] = [c for row in components for c in row["components"] if c["type"] == 3]
    return menu


async def test_help_is_a_short_overview_with_a_menu_of_sections_each_within_a_message(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    asked = await fake.send_command("gate help")
    overview = await asked.response()
    assert overview.ephemeral and "/gate new" in overview.content
    assert len(overview.content) < 600
    menu = menu_of(overview.components)
    assert [option["label"] for option in menu["options"]] == SECTION_LABELS
    assert all(0 < len(option.get("description", "")) <= 100 for option in menu["options"])
    assert asked.original is not None
    seen: dict[str, str] = {}
    for option in menu["options"]:
        chosen = await fake.select(fake.message(asked.original.id), menu["custom_id"], [option["value"]])
        page = await chosen.response()
        assert page.type == 7, "the section replaces the overview in the same private message"
        shown = fake.message(asked.original.id)
        assert 0 < len(shown.content) <= 2000 and shown.content != overview.content
        assert [o["value"] for o in menu_of(shown.components)["options"] if o.get("default")] == [option["value"]]
        seen[option["label"]] = shown.content
    assert len(set(seen.values())) == len(SECTION_LABELS)
    assert "`3f`" in seen["Moves"] and "/challenge play" in seen["Challenges"]
    assert "/gate settings" in seen["Settings"] and "/gate hint" in seen["Hints"]


async def test_the_help_menu_still_answers_after_a_restart(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    asked = await fake.send_command("gate help")
    menu = menu_of((await asked.response()).components)
    await run.bot.close()
    await gatebot()
    assert asked.original is not None
    chosen = await fake.select(fake.message(asked.original.id), menu["custom_id"], ["hints"])
    assert (await chosen.response()).type == 7
    assert "/gate hint" in fake.message(asked.original.id).content


async def test_the_german_help_names_real_commands_as_a_german_client_shows_them(tmp_path: Path) -> None:
    known = await registered_commands(tmp_path)
    de = translator("de")
    german = {" ".join(de.pgettext("command", part) for part in name.split()) for name in known}
    pages = [de.say(OVERVIEW), *(de.say(text) for *_, text in SECTIONS)]
    assert pages[0].startswith("**Gate mit gatebot spielen**") and len(pages[0]) < 600
    assert all(0 < len(page) <= 2000 for page in pages)  # each one Discord message
    assert [de.say(label) for _, label, _, _ in SECTIONS] == [
        "Spielen", "Züge", "Tipps", "Herausforderungen", "Einstellungen"
    ]
    named = set().union(*(mentioned(page, german, ANY_MENTION) for page in pages))
    assert {"gate neu", "gate zurück", "gate tipp", "herausforderung spielen"} <= named
    assert named <= german, f"the German help names commands the bot lacks: {sorted(named - german)}"


async def test_a_german_player_gets_the_help_and_its_menu_in_german(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    bob = fake.user("bob")
    bob.locale = "de"
    asked = await fake.send_command("gate help", user=bob)
    overview = await asked.response()
    assert overview.content.startswith("**Gate mit gatebot spielen**")
    menu = menu_of(overview.components)
    assert [option["label"] for option in menu["options"]][:2] == ["Spielen", "Züge"]
    assert asked.original is not None
    chosen = await fake.select(fake.message(asked.original.id), menu["custom_id"], ["hints"], user=bob)
    await chosen.response()
    assert "/gate tipp" in fake.message(asked.original.id).content


async def test_rules_are_paragraphs_discord_wraps_itself_with_no_markup_to_misread(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await (await fake.send_command("gate new", {"variant": "little-gate", "deal": 2})).response()
    rules = await (await fake.send_command("gate rules")).response()
    assert rules.ephemeral and "```" not in rules.content
    paragraphs = rules.content.split("\n\n")
    assert len(paragraphs) >= 5 and all("\n" not in paragraph for paragraph in paragraphs)  # none broken by hand
    assert paragraphs[0].startswith("Little Gate: ") and "Columns 1-4" in rules.content
    assert discord.utils.escape_markdown(rules.content) == rules.content  # no * _ ~ | ` > that Discord would format
