"""The slash commands as the bot syncs them to Discord: every option explained."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from tests.bot.gatebots import Running

#: What discord.py sends for an option nobody described.
PLACEHOLDER = "…"
SUBCOMMAND, SUBCOMMAND_GROUP = 1, 2


def leaves(command: dict[str, Any], path: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every option of every (sub)command under ``command``, with the command's full name."""
    name = f"{path} {command['name']}".strip()
    for option in command.get("options") or []:
        if option["type"] in (SUBCOMMAND, SUBCOMMAND_GROUP):
            yield from leaves(option, name)
        else:
            yield name, option


async def test_every_option_of_every_command_has_a_description(gatebot: Callable) -> None:
    run: Running = await gatebot()
    synced = run.fake.commands(run.fake.guild)
    options = [(name, option) for command in synced for name, option in leaves(command)]
    assert {"gate undo", "gate new", "challenge leaderboard"} <= {name for name, _ in options}
    undescribed = [
        f"/{name} {option['name']}" for name, option in options
        if not option.get("description", "").strip() or option["description"] == PLACEHOLDER
    ]
    assert undescribed == []
