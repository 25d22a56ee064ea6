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
from tests.fake_discord.model import DM_APP_PERMISSIONS, USER_APP_PERMISSIONS, FakeChannel, FakeRole, FakeUser
from tests.fake_discord.payloads import channel_payload, member_payload, role_payload, user_payload
from tests.fake_discord.records import StoredMessage, iter_components
from tests.fake_discord.state import FakeState

JSON = dict[str, Any]

STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER = 3, 4, 5, 6, 7, 8, 9, 10
SUBCOMMANDS = (commands.SUBCOMMAND, commands.SUBCOMMAND_GROUP)
#: Interaction contexts: a server, the bot's DM, a private channel (a group DM, or a DM between people).
GUILD, BOT_DM, PRIVATE_CHANNEL = 0, 1, 2
#: Integration types: the app added to a server, or to a user's account.
GUILD_INSTALL, USER_INSTALL = 0, 1
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024  # an unboosted server's upload limit


class InteractionRefused(ValueError):
    """A Discord client would not let a user send this interaction (see ``strict=False``)."""


def context_of(channel: FakeChannel) -> int:
    """The interaction context of a channel: ``GUILD``, ``BOT_DM`` or ``PRIVATE_CHANNEL``."""
    if channel.guild_id is not None:
        return GUILD
    return BOT_DM if channel.is_dm else PRIVATE_CHANNEL


def installs_for(state: FakeState, user: FakeUser, channel: FakeChannel) -> dict[int, int]:
    """The installs that authorise ``user``'s interaction in ``channel``: integration type -> owner id.

    Discord sends these as ``authorizing_integration_owners``: the guild's id for the app added to
    that server (``"0"`` in the bot's DM), the user's id for the app added to their account.
    """
    owners: dict[int, int] = {}
    if channel.guild_id is not None and state.world.bot_is_in(channel):
        owners[GUILD_INSTALL] = channel.guild_id
    if channel.is_dm:
        owners[GUILD_INSTALL] = 0
    if user.id in state.world.user_installs:
        owners[USER_INSTALL] = user.id
    return owners


def envelope(state: FakeState, *, kind: int, data: JSON, user: FakeUser, channel: FakeChannel) -> JSON:
    """The fields every interaction has: ids, token, channel, member or user, permissions, context.

    Raises :class:`InteractionRefused` where no install of the app reaches the user: a group DM
    (the bot is never in one) or a server without the bot, unless the user installed the app.
    """
    world = state.world
    owners = installs_for(state, user, channel)
    if not owners:
        raise InteractionRefused(
            f"{user.username} can't use the app in channel {channel.id}: the bot isn't there and they haven't "
            "installed it (world.install_for_user)"
        )
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
    authorizing = {str(kind): str(owner) for kind, owner in owners.items()}
    if channel.guild_id is None:
        payload.update(
            user=user_payload(user),
            channel=channel_payload(channel),
            app_permissions=str(DM_APP_PERMISSIONS if channel.is_dm else USER_APP_PERMISSIONS),
            authorizing_integration_owners=authorizing,
            context=context_of(channel),
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
        app_permissions=str(guild.permissions(world.bot.id, channel) if world.bot_is_in(channel)
                            else USER_APP_PERMISSIONS),
        authorizing_integration_owners=authorizing,
        context=GUILD,
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
    where: tuple[int, dict[int, int]] | None = None,
) -> JSON:
    """``data`` of a chat-input command: ``path`` is what the user types, e.g. ``"gate move"``.

    ``where`` is the interaction's context and its installs (:func:`context_of`, :func:`installs_for`):
    a Discord client offers a global command only in the contexts and through the installs it declares.
    """
    name, *subpath = path.split()
    command = commands.find(state, name, guild_id=guild_id)
    if command is None and strict:
        synced = sorted(c["name"] for scope in (guild_id, None) for c in state.commands.get(scope, []))
        raise InteractionRefused(f"/{name} is not synced where the user is (synced: {synced}); sync the tree first")
    if command is not None and strict and where is not None:
        _check_reach(command, *where)
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


def _check_reach(command: JSON, context: int, owners: dict[int, int]) -> None:
    """Refuse a global command its declared ``contexts`` or ``integration_types`` keep from here."""
    if "guild_id" in command:
        return  # a guild's own command: only its guild sees it, as a guild install
    contexts = command.get("contexts")
    if contexts is not None and context not in contexts:
        raise InteractionRefused(f"/{command['name']} is not offered in context {context} (contexts {contexts})")
    types = command.get("integration_types") or [GUILD_INSTALL]
    if not set(types) & set(owners):
        raise InteractionRefused(
            f"/{command['name']} is installable as {types}, and the user has only {sorted(owners)} here"
        )


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
