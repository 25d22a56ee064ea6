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
#: An Activity's entry-point command, and its handlers: the app's own, or Discord launching the Activity.
PRIMARY_ENTRY_POINT = 4
APP_HANDLER, DISCORD_LAUNCH_ACTIVITY = 1, 2


def validate(command: JSON) -> JSON | None:
    """The ``errors`` object for one command (Discord's nested ``_errors`` form), or None if valid."""
    kind = command.get("type", CHAT_INPUT)
    name = command.get("name") or ""
    if not NAME.match(name) or (kind in (CHAT_INPUT, PRIMARY_ENTRY_POINT) and name != name.lower()):
        return _field("name", "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
    description = command.get("description") or ""
    if kind in (CHAT_INPUT, PRIMARY_ENTRY_POINT) and not 1 <= len(description) <= 100:
        return _field("description", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
    if kind == PRIMARY_ENTRY_POINT and command.get("handler") not in (APP_HANDLER, DISCORD_LAUNCH_ACTIVITY):
        return _field("handler", "BASE_TYPE_CHOICES", "Value must be one of {1, 2}.")
    if kind == PRIMARY_ENTRY_POINT and command.get("options"):
        return _field("options", "BASE_TYPE_MAX_LENGTH", "Must be 0 or fewer in length.")
    if kind not in (CHAT_INPUT, PRIMARY_ENTRY_POINT) and description:
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
    if kind == PRIMARY_ENTRY_POINT:
        result["handler"] = command["handler"]
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
    entry_points = [command for command in commands if command.get("type") == PRIMARY_ENTRY_POINT]
    if entry_points and guild_id is not None:
        return None, {"_errors": [{"code": "APPLICATION_COMMAND_PRIMARY_ENTRY_POINT_GLOBAL_ONLY",
                                   "message": "Entry point commands can only be global"}]}
    if len(entry_points) > 1:
        return None, {"_errors": [{"code": "APPLICATION_COMMAND_TOO_MANY_PRIMARY_ENTRY_POINTS",
                                   "message": "An application can have only one entry point command"}]}
    if not entry_points and any(command["type"] == PRIMARY_ENTRY_POINT for command in existing):
        return None, ENTRY_POINT_REMOVED
    result = [stored(state, command, guild_id=guild_id, existing=existing) for command in commands]
    state.commands[guild_id] = result
    return result, None


#: Discord's refusal of a bulk overwrite that would remove the app's entry point (a code of its own, not 50035).
ENTRY_POINT_REMOVED: JSON = {"code": 50240, "message": "You cannot remove this app's Entry Point command in a bulk "
                             "update operation. Please include the Entry Point command in your update request "
                             "or delete it separately."}


def add_default_entry_point(state: FakeState) -> None:
    """The entry point Discord makes when Activities are enabled: ``launch``, Discord launching the Activity."""
    default = {"name": "launch", "description": "Launch the Activity", "type": PRIMARY_ENTRY_POINT,
               "handler": DISCORD_LAUNCH_ACTIVITY, "integration_types": [0, 1], "contexts": [0, 1, 2]}
    existing = state.commands.get(None, [])
    state.commands[None] = [*existing, stored(state, default, guild_id=None, existing=existing)]


def find(state: FakeState, name: str, *, guild_id: int | None, kind: int = CHAT_INPUT) -> JSON | None:
    """The synced command called ``name`` that a user in ``guild_id`` sees (guild's first, then global)."""
    scopes = [guild_id, None] if guild_id is not None else [None]
    for scope in scopes:
        for command in state.commands.get(scope, []):
            if command["name"] == name and command["type"] == kind:
                return command
    return None
