"""INTERACTION_CREATE payloads, built the way Discord builds them from what a user did.

A slash command's options are typed from the command the bot synced (so ``{"count": 3}``
becomes an INTEGER option only if the bot declared it so), subcommands and groups are nested
as Discord nests them, and users, channels and roles given as options are put in ``resolved``.
By default the builder refuses what a Discord client would not let a user do: an unsynced
command, an unknown or missing required option, a value outside the declared choices, or a
click on a component the message does not have (or has disabled); ``strict=False`` skips that.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

from tests.fake_discord import commands
from tests.fake_discord.model import DM_APP_PERMISSIONS, FakeChannel, FakeRole, FakeUser
from tests.fake_discord.payloads import channel_payload, member_payload, role_payload, user_payload
from tests.fake_discord.records import StoredMessage, iter_components
from tests.fake_discord.state import FakeState

JSON = dict[str, Any]

STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER = 3, 4, 5, 6, 7, 8, 9, 10
SUBCOMMANDS = (commands.SUBCOMMAND, commands.SUBCOMMAND_GROUP)
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024  # an unboosted server's upload limit


class InteractionRefused(ValueError):
    """A Discord client would not let a user send this interaction (see ``strict=False``)."""


def envelope(state: FakeState, *, kind: int, data: JSON, user: FakeUser, channel: FakeChannel) -> JSON:
    """The fields every interaction has: ids, token, channel, member or user, permissions, context."""
    world = state.world
    payload: JSON = {
        "id": str(world.ids()),
        "application_id": str(world.application.id),
        "type": kind,
        "data": data,
        "token": "fake-" + secrets.token_urlsafe(48),
        "version": 1,
        "channel_id": str(channel.id),
        "locale": user.locale,
        "entitlements": [],
        "entitlement_sku_ids": [],
        "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
    }
    if channel.guild_id is None:
        payload.update(
            user=user_payload(user),
            channel=channel_payload(channel),
            app_permissions=str(DM_APP_PERMISSIONS),
            authorizing_integration_owners={"0": "0"},
            context=1,  # BOT_DM
        )
        return payload
    guild = world.guild(channel.guild_id)
    assert guild is not None
    member = guild.members.get(user.id)
    if member is None:
        raise InteractionRefused(f"{user.username} is not a member of {guild.name!r}")
    permissions = guild.permissions(user.id, channel)
    payload.update(
        guild_id=str(guild.id),
        guild={"id": str(guild.id), "locale": guild.preferred_locale, "features": []},
        guild_locale=guild.preferred_locale,
        member=member_payload(member, permissions=permissions),
        channel={**channel_payload(channel), "permissions": str(permissions)},
        app_permissions=str(guild.permissions(world.bot.id, channel)),
        authorizing_integration_owners={"0": str(guild.id)},
        context=0,  # GUILD
    )
    return payload


def command_data(
    state: FakeState,
    path: str,
    options: Mapping[str, Any],
    *,
    guild_id: int | None,
    focused: str | None = None,
    strict: bool = True,
) -> JSON:
    """``data`` of a chat-input command: ``path`` is what the user types, e.g. ``"gate move"``."""
    name, *subpath = path.split()
    command = commands.find(state, name, guild_id=guild_id)
    if command is None and strict:
        synced = sorted(c["name"] for scope in (guild_id, None) for c in state.commands.get(scope, []))
        raise InteractionRefused(f"/{name} is not synced where the user is (synced: {synced}); sync the tree first")
    data: JSON = {"id": command["id"] if command else str(state.world.ids()), "name": name, "type": 1}
    if command is not None and "guild_id" in command:
        data["guild_id"] = command["guild_id"]
    definitions: list[JSON] = command["options"] if command else []
    container = data
    for depth, part in enumerate(subpath):
        definition = next((d for d in definitions if d["name"] == part and d["type"] in SUBCOMMANDS), None)
        if definition is None and strict:
            raise InteractionRefused(f"/{name} has no subcommand {part!r}")
        kind = definition["type"] if definition else (commands.SUBCOMMAND if depth == len(subpath) - 1 else 2)
        nested: JSON = {"type": kind, "name": part, "options": []}
        container.setdefault("options", []).append(nested)
        container, definitions = nested, (definition or {}).get("options", [])
    resolved: JSON = {}
    values = [
        _option(state, key, value, definitions, resolved, guild_id=guild_id, focused=key == focused, strict=strict)
        for key, value in options.items()
    ]
    if strict and focused is None:
        missing = [d["name"] for d in definitions if d.get("required") and d["name"] not in options]
        if missing:
            raise InteractionRefused(f"/{path} needs option(s) {missing}")
    if values or container is data:
        container["options"] = values
    if resolved:
        data["resolved"] = resolved
    return data


def _option(
    state: FakeState,
    key: str,
    value: Any,
    definitions: list[JSON],
    resolved: JSON,
    *,
    guild_id: int | None,
    focused: bool,
    strict: bool,
) -> JSON:
    """One option: typed by its definition (or the Python value), checked, and resolved."""
    definition = next((d for d in definitions if d["name"] == key and d["type"] not in SUBCOMMANDS), None)
    if definition is None and strict:
        raise InteractionRefused(f"no option {key!r} (declared: {[d['name'] for d in definitions]})")
    kind = definition["type"] if definition else _infer_type(value)
    if focused:
        return {"type": kind, "name": key, "value": str(value), "focused": True}
    if kind in (USER, CHANNEL, ROLE, MENTIONABLE):
        return {"type": kind, "name": key, "value": _resolve(state, value, resolved, guild_id=guild_id)}
    converted = {STRING: str, INTEGER: int, NUMBER: float, BOOLEAN: bool}.get(kind, lambda v: v)(value)
    if strict and definition is not None:
        _check_value(key, converted, definition)
    return {"type": kind, "name": key, "value": converted}


def _infer_type(value: Any) -> int:
    if isinstance(value, bool):
        return BOOLEAN
    if isinstance(value, int):
        return INTEGER
    if isinstance(value, float):
        return NUMBER
    if isinstance(value, FakeUser):
        return USER
    if isinstance(value, FakeChannel):
        return CHANNEL
    if isinstance(value, FakeRole):
        return ROLE
    return STRING


def _check_value(key: str, value: Any, definition: JSON) -> None:
    """What the Discord client enforces: declared choices, min/max value and length."""
    choices = definition.get("choices")
    if choices and value not in [choice["value"] for choice in choices]:
        raise InteractionRefused(f"{value!r} is not a choice of option {key!r}")
    low, high = definition.get("min_value"), definition.get("max_value")
    if (low is not None and value < low) or (high is not None and value > high):
        raise InteractionRefused(f"{value!r} is outside [{low}, {high}] for option {key!r}")
    if isinstance(value, str):
        short, long = definition.get("min_length"), definition.get("max_length")
        if (short is not None and len(value) < short) or (long is not None and len(value) > long):
            raise InteractionRefused(f"{value!r} has a bad length for option {key!r}")


def _resolve(state: FakeState, value: Any, resolved: JSON, *, guild_id: int | None) -> str:
    """Put a user, channel or role option into ``resolved`` and return its id."""
    guild = None if guild_id is None else state.world.guild(guild_id)
    if isinstance(value, FakeUser):
        resolved.setdefault("users", {})[str(value.id)] = user_payload(value)
        if guild is not None and value.id in guild.members:
            member = member_payload(guild.members[value.id], with_user=False, permissions=guild.permissions(value.id))
            resolved.setdefault("members", {})[str(value.id)] = member
        return str(value.id)
    if isinstance(value, FakeChannel):
        entry = {**channel_payload(value), "permissions": str(_bot_permissions_in(state, value))}
        resolved.setdefault("channels", {})[str(value.id)] = entry
        return str(value.id)
    if isinstance(value, FakeRole):
        resolved.setdefault("roles", {})[str(value.id)] = role_payload(value)
        return str(value.id)
    raise InteractionRefused(f"give a FakeUser, FakeChannel or FakeRole for this option, not {value!r}")


def _bot_permissions_in(state: FakeState, channel: FakeChannel) -> int:
    """The bot's permissions in ``channel`` (resolved channels carry the invoker's; close enough)."""
    guild = None if channel.guild_id is None else state.world.guild(channel.guild_id)
    return DM_APP_PERMISSIONS if guild is None else guild.permissions(state.world.bot.id, channel)


def component_data(message: StoredMessage, custom_id: str, values: list[str] | None, *, strict: bool) -> JSON:
    """``data`` of a click on a button (no ``values``) or a choice in a select, checked against the message."""
    component = next((c for c in iter_components(message.components) if c.get("custom_id") == custom_id), None)
    if strict:
        if component is None:
            raise InteractionRefused(
                f"message {message.id} has no component {custom_id!r} (has {message.custom_ids()})"
            )
        if component.get("disabled"):
            raise InteractionRefused(f"component {custom_id!r} is disabled")
        if component["type"] == 2 and values is not None:
            raise InteractionRefused(f"{custom_id!r} is a button: click it without values")
        if component["type"] != 2:
            _check_select(component, values or [])
    kind = component["type"] if component else (2 if values is None else 3)
    data: JSON = {"custom_id": custom_id, "component_type": kind}
    if kind != 2:
        data["values"] = list(values or [])
    return data


def _check_select(component: JSON, values: list[str]) -> None:
    low, high = component.get("min_values", 1), component.get("max_values", 1)
    if not low <= len(values) <= high:
        raise InteractionRefused(f"select {component['custom_id']!r} takes {low}..{high} values, not {len(values)}")
    if component["type"] == 3:
        offered = [option["value"] for option in component.get("options", [])]
        unknown = [value for value in values if value not in offered]
        if unknown:
            raise InteractionRefused(f"select {component['custom_id']!r} offers {offered}, not {unknown}")
