"""Application commands as Discord stores them: validation, ids kept across syncs, defaults filled in.

A bulk overwrite (PUT, what ``CommandTree.sync`` sends) replaces a scope's commands; a command
keeps its id when one of the same name and type existed, as on Discord. Validation covers the
mistakes Discord rejects with 400 Invalid Form Body (50035), with errors keyed by index and
field, which discord.py's ``CommandSyncFailure`` maps back to the offending command.
"""

from __future__ import annotations

import re
from typing import Any

from tests.fake_discord.state import FakeState

JSON = dict[str, Any]

NAME = re.compile(r"^[-_'\w]{1,32}$")
MAX_COMMANDS = 100
MAX_OPTIONS = 25
SUBCOMMAND, SUBCOMMAND_GROUP = 1, 2
CHAT_INPUT = 1


def validate(command: JSON) -> JSON | None:
    """The ``errors`` object for one command (Discord's nested ``_errors`` form), or None if valid."""
    kind = command.get("type", CHAT_INPUT)
    name = command.get("name") or ""
    if not NAME.match(name) or (kind == CHAT_INPUT and name != name.lower()):
        return _field("name", "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
    description = command.get("description") or ""
    if kind == CHAT_INPUT and not 1 <= len(description) <= 100:
        return _field("description", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
    if kind != CHAT_INPUT and description:
        return _field("description", "APPLICATION_COMMAND_INVALID_DESCRIPTION", "Description must be empty")
    return _validate_options(command.get("options") or [])


def _validate_options(options: list[JSON]) -> JSON | None:
    if len(options) > MAX_OPTIONS:
        return _field("options", "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_OPTIONS} or fewer in length.")
    seen_optional = False
    names: set[str] = set()
    for index, option in enumerate(options):
        problem: JSON | None = None
        name = option.get("name") or ""
        if not NAME.match(name) or name != name.lower():
            problem = _field("name", "APPLICATION_COMMAND_INVALID_NAME", "Option name is invalid")
        elif name in names:
            problem = _field("name", "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS", "Option names must be unique")
        elif not 1 <= len(option.get("description") or "") <= 100:
            problem = _field("description", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
        elif option.get("type") in (SUBCOMMAND, SUBCOMMAND_GROUP):
            problem = _validate_options(option.get("options") or [])
        elif option.get("required") and seen_optional:
            problem = _field(
                "required",
                "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                "Required options must be placed before non-required options",
            )
        elif option.get("autocomplete") and option.get("choices"):
            problem = _field(
                "autocomplete", "AUTOCOMPLETE_AND_CHOICES_ERROR", "Autocomplete cannot be set with choices"
            )
        elif len(option.get("choices") or []) > MAX_OPTIONS:
            problem = _field("choices", "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_OPTIONS} or fewer in length.")
        if problem is not None:
            return {"options": {str(index): problem}}
        names.add(name)
        seen_optional = seen_optional or not option.get("required")
    return None


def _field(name: str, code: str, message: str) -> JSON:
    return {name: {"_errors": [{"code": code, "message": message}]}}


def _permissions_text(value: int | str | None) -> str | None:
    """A permission set as Discord returns it: a decimal string (a bot may send it as a number)."""
    return None if value is None else str(value)


def stored(state: FakeState, command: JSON, *, guild_id: int | None, existing: list[JSON]) -> JSON:
    """``command`` as Discord returns it: id (kept if the name and type existed), version, defaults."""
    kind = command.get("type", CHAT_INPUT)
    previous = next((c for c in existing if c["name"] == command["name"] and c["type"] == kind), None)
    result: JSON = {
        "id": previous["id"] if previous else str(state.world.ids()),
        "application_id": str(state.world.application.id),
        "version": str(state.world.ids()),
        "type": kind,
        "name": command["name"],
        "description": command.get("description") or "",
        "default_member_permissions": _permissions_text(command.get("default_member_permissions")),
        "nsfw": bool(command.get("nsfw", False)),
        "name_localizations": command.get("name_localizations"),
        "description_localizations": command.get("description_localizations"),
        "options": command.get("options") or [],
    }
    if guild_id is None:
        result["dm_permission"] = command.get("dm_permission", True)
        result["contexts"] = command.get("contexts")
        result["integration_types"] = command.get("integration_types") or [0]
    else:
        result["guild_id"] = str(guild_id)
    return result


def overwrite(state: FakeState, commands: list[JSON], *, guild_id: int | None) -> tuple[list[JSON] | None, JSON | None]:
    """Replace a scope's commands: (stored commands, None), or (None, errors) if any is invalid."""
    if len(commands) > MAX_COMMANDS:
        return None, {
            "_errors": [{"code": "BASE_TYPE_MAX_LENGTH", "message": f"Must be {MAX_COMMANDS} or fewer in length."}]
        }
    errors = {str(i): problem for i, command in enumerate(commands) if (problem := validate(command)) is not None}
    if errors:
        return None, errors
    existing = state.commands.get(guild_id, [])
    result = [stored(state, command, guild_id=guild_id, existing=existing) for command in commands]
    state.commands[guild_id] = result
    return result, None


def find(state: FakeState, name: str, *, guild_id: int | None, kind: int = CHAT_INPUT) -> JSON | None:
    """The synced command called ``name`` that a user in ``guild_id`` sees (guild's first, then global)."""
    scopes = [guild_id, None] if guild_id is not None else [None]
    for scope in scopes:
        for command in state.commands.get(scope, []):
            if command["name"] == name and command["type"] == kind:
                return command
    return None
