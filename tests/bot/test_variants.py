"""The variant and options parameters come from the rules' registry: a fifth variant changes no signature.

The command tree is read as the bot builds it (the registry given one more variant), and the
options autocomplete and a refused option are seen through the fake Discord.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import discord
import pytest
from discord import app_commands
from hypothesis import given, settings
from hypothesis import strategies as st

import gatebot.rules.variants as registry
from gatebot.bot.client import EXTENSIONS, GateBot
from gatebot.bot.variants import options_autocomplete, rule_options
from gatebot.rules import GateGame, RuleOption
from gatebot.service import GameService
from gatebot.settings import Settings
from gatebot.store import Database
from tests.bot.gatebots import Running

#: Every command that deals a game, with the parameters it has whatever the registry holds.
DEALING = {
    "gate new": {"variant", "deal", "options", "winnable"},
    "challenge-admin create": {"name", "variant", "deal", "winnable", "options", "hours", "starts_in", "hints", "undo"},
    "challenge-admin daily on": {"channel", "variant", "winnable", "hints", "undo", "options"},
}


class Gatekeeper(GateGame):
    """A fifth variant, for the registry only: the command tree must offer it with its options."""

    name = "gatekeeper"
    title = "Gatekeeper"
    rule_options = (RuleOption("locked", "the gate opens once the reserves are empty"),)


async def dealing_commands(tmp_path: Path) -> dict[str, app_commands.Command[Any, ..., Any]]:
    """The bot's commands that deal a game, from a bot whose extensions were imported for this registry."""
    db = Database(f"sqlite+aiosqlite:///{tmp_path}/variants.db")
    service = GameService(db)
    bot = GateBot(Settings(token="x", database_url="sqlite://"), service)
    try:
        await bot.setup_hook()
        return {
            command.qualified_name: command for command in bot.tree.walk_commands()
            if isinstance(command, app_commands.Command) and command.qualified_name in DEALING
        }
    finally:
        for extension in EXTENSIONS:
            await bot.unload_extension(extension)
        service.close()
        await db.dispose()


async def test_the_dealing_commands_offer_every_variant_of_the_registry_with_no_signature_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(registry, "VARIANTS", (*registry.VARIANTS, Gatekeeper))
    for name in [n for n in sys.modules if n.startswith(EXTENSIONS)]:  # the commands are declared at import
        monkeypatch.delitem(sys.modules, name)
    commands = await dealing_commands(tmp_path)
    assert set(commands) == set(DEALING)
    expected = [("Gate", "gate"), ("Little Gate", "little-gate"), ("Canfield", "canfield"), ("Archway", "archway"),
                ("Gatekeeper", "gatekeeper")]
    for path, command in commands.items():
        parameters = {parameter.name: parameter for parameter in command.parameters}
        assert set(parameters) == DEALING[path], path
        assert [(c.name, c.value) for c in parameters["variant"].choices] == expected, path
        assert "Gatekeeper" in parameters["variant"].description
        assert parameters["options"].autocomplete, path


def _typing(variant: str | None) -> discord.Interaction:
    return cast(discord.Interaction, SimpleNamespace(namespace=SimpleNamespace(variant=variant)))


async def test_the_options_autocomplete_reads_the_chosen_variant_from_the_registry(
    monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(registry, "VARIANTS", (*registry.VARIANTS, Gatekeeper))
    offered = await options_autocomplete(_typing("gatekeeper"), "")
    assert [(c.name, c.value) for c in offered] == [("locked — the gate opens once the reserves are empty", "locked")]
    assert [c.value for c in await options_autocomplete(_typing(None), "")] == ["single-moves", "stock-fill"]


@settings(max_examples=60, deadline=None)
@given(variant=st.sampled_from([v.name for v in registry.VARIANTS] + ["nonsense", ""]), typed=st.text(max_size=300))
async def test_the_options_autocomplete_offers_only_the_variants_options_within_discords_limits(
    variant: str, typed: str
) -> None:
    offered = await options_autocomplete(_typing(variant or None), typed)
    assert len(offered) <= 25
    known = {o.name for o in registry.find_variant(variant or "gate").rule_options} if variant != "nonsense" else set()
    for choice in offered:
        assert 1 <= len(choice.name) <= 100 and 1 <= len(choice.value) <= 100
        assert choice.value.split()[-1] in known
        assert choice.name.startswith(choice.value + " — ")


@settings(max_examples=60)
@given(names=st.lists(st.sampled_from(["draw-one", "DRAW_ONE", "passes-2", "kit", "x"]), max_size=5),
       separators=st.lists(st.sampled_from([" ", ",", ", ", "\t", " ,  "]), min_size=5, max_size=5))
def test_options_are_read_whatever_separates_them(names: list[str], separators: list[str]) -> None:
    text = "".join(name + separator for name, separator in zip(names, separators, strict=False))
    wanted = list(dict.fromkeys(name.lower().replace("_", "-") for name in names))
    assert list(rule_options(text)) == wanted


# -- through the fake Discord -------------------------------------------------------------------


async def test_a_variants_options_are_offered_as_they_are_typed(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    typed = await fake.send_autocomplete("gate new", {"variant": "canfield", "options": ""}, focused="options")
    offered = [c["value"] for c in (await typed.response()).choices]
    assert offered == ["draw-one", "passes-1", "passes-2", "partial-moves"]
    assert all(" — " in c["name"] for c in (await typed.response()).choices)

    more = await fake.send_autocomplete("gate new", {"variant": "canfield", "options": "draw-one pa"},
                                        focused="options")
    assert [c["value"] for c in (await more.response()).choices] == [
        "draw-one passes-1", "draw-one passes-2", "draw-one partial-moves"
    ]
    archway = await fake.send_autocomplete("gate new", {"variant": "archway", "options": ""}, focused="options")
    assert [c["value"] for c in (await archway.response()).choices] == ["kit"]


async def test_an_option_the_variant_lacks_gets_one_sentence_and_no_game(gatebot: Callable) -> None:
    run: Running = await gatebot()
    refused = await (await run.fake.send_command("gate new", {"options": "nonsense"})).response()
    assert refused.ephemeral
    assert refused.content == "Gate has no option 'nonsense': its options are single-moves, stock-fill."
    assert await run.games() == []


async def test_several_options_deal_the_variant_with_each(gatebot: Callable) -> None:
    run: Running = await gatebot()
    dealt = await (await run.fake.send_command(
        "gate new", {"variant": "canfield", "deal": 4, "options": "passes-1,draw-one"}
    )).response()
    assert not dealt.ephemeral
    row = await run.game_row()
    assert (row.variant, row.options, row.deal) == ("canfield", "draw-one passes-1", 4)
