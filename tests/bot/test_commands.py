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


async def test_only_the_admin_commands_default_to_manage_server_and_still_check_it(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    synced = {command["name"]: command for command in fake.commands(fake.guild)}
    manage_guild = str(1 << 5)  # Discord's MANAGE_GUILD bit (a string in its JSON; discord.py sends the number)
    assert str(synced["challenge-admin"]["default_member_permissions"]) == manage_guild
    assert {option["name"] for option in synced["challenge-admin"]["options"]} == {
        "create", "end", "forget-server", "daily"
    }
    assert {name for name, command in synced.items() if command["default_member_permissions"] is not None} == {
        "challenge-admin"
    }
    assert {"gate", "challenge"} <= set(synced)
    assert {option["name"] for option in synced["challenge"]["options"]} == {"list", "play", "leaderboard", "daily"}

    # A member the server let through (Integrations) without Manage Server is still refused.
    refused = await (await fake.send_command("challenge-admin create", {"deal": 3}, user=fake.user("bob"))).response()
    assert refused.ephemeral
    assert refused.content == "Only members with the Manage Server permission can create challenges."
    assert await run.challenges() == []
    status = await (await fake.send_command("challenge daily", user=fake.user("bob"))).response()
    assert status.ephemeral and status.content.startswith("The daily challenge is off")
