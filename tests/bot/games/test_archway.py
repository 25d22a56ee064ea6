"""/gate new variant:Archway over the fake Discord: the deal says it is almost surely lost, and how to win.

The note under a plain Archway board names two slash commands; each is run here as a player
would type it, and each deals a game that can be won.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from gatebot.rules import find_variant
from gatebot.solver.deals import winnable_deals
from tests.bot.gatebots import Running, resign

#: A plain Archway deal the solver proves lost at once (tests/service/test_archway_deals.py).
LOST_DEAL = 3


@pytest.fixture
def service_options() -> dict[str, Any]:
    """Random deals are deal 3, and winnable deals come straight from the shipped list."""
    return {"deal_picker": lambda: LOST_DEAL, "winnable_tries": 0}


def as_typed(command: str) -> tuple[str, dict[str, Any]]:
    """A slash command as written in a message (``/gate new variant:Archway options:kit``): its path and options."""
    assert command.startswith("/gate new ")
    options: dict[str, Any] = {}
    for word in command.removeprefix("/gate new ").split():
        name, value = word.split(":", 1)
        options[name] = {"variant": find_variant, "winnable": lambda v: v == "True"}.get(name, str)(value)
    if "variant" in options:
        options["variant"] = options["variant"].name  # the choice's value behind the title shown
    return "gate new", options


async def test_a_plain_archway_deal_names_the_slash_commands_that_deal_a_win(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    dealt = await (await fake.send_command("gate new", {"variant": "archway"})).response()
    assert not dealt.ephemeral and "```\nArchway\ndeal 3 · " in dealt.content
    found = re.search(r"About 4 deals in 1,000 of Archway can be won\. "
                      r"For a deal proven winnable, use (/gate new .+?); "
                      r"with (/gate new .+?), every deal can be won\.(?:\n|$)", dealt.content)
    assert found is not None, dealt.content
    winnable_command, kit_command = found.groups()
    assert kit_command == "/gate new variant:Archway options:kit"

    assert winnable_command == "/gate new variant:Archway winnable:True"
    await resign(fake)  # alice may deal again without being asked
    for username, command in [("bob", kit_command), ("alice", winnable_command)]:
        path, options = as_typed(command)
        board = await (await fake.send_command(path, options, user=fake.user(username))).response()
        assert not board.ephemeral and "Dealt Archway deal " in board.content
        assert "can be won" not in board.content  # a game that can be won gets no note
    _, kit, proven = await run.games()
    assert (kit.variant, kit.options, kit.deal) == ("archway", "kit", LOST_DEAL)
    assert (proven.variant, proven.options) == ("archway", "") and proven.deal in winnable_deals("archway")
