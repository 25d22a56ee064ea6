"""JSON payloads for the fake's world objects, shaped as Discord's API v10 sends them.

Field sets follow Discord's documentation (User, Guild Member, Role, Channel, Guild, Ready,
Application objects) closely enough that discord.py's parsers (``state.parse_ready``,
``parse_guild_create``, ``Interaction._from_data``, ``Message.__init__``) find every key they
index directly; ids are strings, as on the wire.
"""

from __future__ import annotations

from typing import Any

from tests.fake_discord.model import FakeApplication, FakeChannel, FakeGuild, FakeMember, FakeRole, FakeUser, World

JSON = dict[str, Any]


def user_payload(user: FakeUser) -> JSON:
    """A User object (the public part every other object embeds)."""
    payload: JSON = {
        "id": str(user.id),
        "username": user.username,
        "discriminator": "0",
        "global_name": user.global_name,
        "avatar": user.avatar,
        "avatar_decoration_data": None,
        "collectibles": None,
        "primary_guild": None,
        "public_flags": 0,
        "flags": 0,
    }
    if user.bot:
        payload["bot"] = True
    return payload


def me_payload(user: FakeUser) -> JSON:
    """The bot's own User object as GET /users/@me and READY return it (with private fields)."""
    return {
        **user_payload(user),
        "flags": 0,
        "banner": None,
        "accent_color": None,
        "mfa_enabled": False,
        "locale": "en-US",
        "premium_type": 0,
        "email": None,
        "verified": True,
        "bio": "",
    }


def member_payload(member: FakeMember, *, with_user: bool = True, permissions: int | None = None) -> JSON:
    """A Guild Member object; ``permissions`` is added as interactions carry it."""
    payload: JSON = {
        "roles": [str(role_id) for role_id in member.roles],
        "nick": member.nick,
        "avatar": None,
        "banner": None,
        "joined_at": member.joined_at,
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "pending": False,
        "flags": 0,
        "communication_disabled_until": None,
    }
    if with_user:
        payload["user"] = user_payload(member.user)
    if permissions is not None:
        payload["permissions"] = str(permissions)
    return payload


def role_payload(role: FakeRole) -> JSON:
    """A Role object."""
    payload: JSON = {
        "id": str(role.id),
        "name": role.name,
        "color": 0,
        "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
        "hoist": False,
        "icon": None,
        "unicode_emoji": None,
        "position": role.position,
        "permissions": str(role.permissions),
        "managed": role.managed,
        "mentionable": role.mentionable,
        "flags": 0,
    }
    if role.bot_id is not None:
        payload["tags"] = {"bot_id": str(role.bot_id)}
    return payload


def channel_payload(channel: FakeChannel, *, with_guild_id: bool = True) -> JSON:
    """A Channel object; GUILD_CREATE leaves ``guild_id`` out of the channels it lists."""
    if channel.is_dm or channel.is_group_dm:
        private: JSON = {
            "id": str(channel.id),
            "type": channel.type,
            "last_message_id": None if channel.last_message_id is None else str(channel.last_message_id),
            "flags": 0,
            "recipients": [user_payload(user) for user in channel.recipients],
        }
        if channel.is_group_dm:
            private.update(name=channel.name, icon=None, owner_id=str(channel.owner_id))
        return private
    payload: JSON = {
        "id": str(channel.id),
        "type": channel.type,
        "name": channel.name,
        "position": channel.position,
        "parent_id": None if channel.parent_id is None else str(channel.parent_id),
        "permission_overwrites": [
            {"id": str(o.id), "type": o.type, "allow": str(o.allow), "deny": str(o.deny)} for o in channel.overwrites
        ],
        "flags": 0,
    }
    if channel.type == 0:
        payload.update(
            topic=channel.topic,
            nsfw=channel.nsfw,
            rate_limit_per_user=0,
            last_message_id=None if channel.last_message_id is None else str(channel.last_message_id),
        )
    elif channel.type == 2:
        payload.update(bitrate=64000, user_limit=0, rtc_region=None, nsfw=channel.nsfw, rate_limit_per_user=0)
    if with_guild_id and channel.guild_id is not None:
        payload["guild_id"] = str(channel.guild_id)
    return payload


def guild_create_payload(guild: FakeGuild, *, bot: FakeUser, all_members: bool) -> JSON:
    """The GUILD_CREATE payload for ``guild``.

    Without the GUILD_MEMBERS intent Discord lists only the bot's own member (and members in
    voice), so ``all_members`` is that intent; ``member_count`` is always the true count.
    """
    members = guild.members.values() if all_members else [guild.members[bot.id]]
    return {
        "id": str(guild.id),
        "name": guild.name,
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "banner": None,
        "description": None,
        "owner_id": str(guild.owner_id),
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "mfa_level": 0,
        "nsfw_level": 0,
        "nsfw": False,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "premium_progress_bar_enabled": False,
        "preferred_locale": guild.preferred_locale,
        "features": [],
        "system_channel_id": None if not guild.text_channels else str(guild.text_channels[0].id),
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "public_updates_channel_id": None,
        "safety_alerts_channel_id": None,
        "vanity_url_code": None,
        "application_id": None,
        "max_members": 500000,
        "max_video_channel_users": 25,
        "max_stage_video_channel_users": 50,
        "incidents_data": None,
        "roles": [role_payload(role) for role in guild.roles],
        "emojis": [],
        "stickers": [],
        "channels": [channel_payload(channel, with_guild_id=False) for channel in guild.channels],
        "threads": [],
        "members": [member_payload(member) for member in members],
        "member_count": len(guild.members),
        "presences": [],
        "voice_states": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
        "embedded_activities": [],
        "joined_at": guild.members[bot.id].joined_at,
        "large": False,
        "lazy": True,
        "unavailable": False,
    }


def ready_payload(
    world: World, *, session_id: str, resume_url: str, guilds: list[FakeGuild], shard: list[int] | None
) -> JSON:
    """The READY payload: the bot user, its guilds (as unavailable, filled in by GUILD_CREATE later)."""
    payload: JSON = {
        "v": 10,
        "user": me_payload(world.bot),
        "user_settings": {},
        "guilds": [{"id": str(guild.id), "unavailable": True} for guild in guilds],
        "relationships": [],
        "private_channels": [],
        "presences": [],
        "guild_join_requests": [],
        "session_id": session_id,
        "session_type": "normal",
        "resume_gateway_url": resume_url,
        "geo_ordered_rtc_regions": ["local"],
        "application": {"id": str(world.application.id), "flags": world.application.flags},
        "auth": {},
        "_trace": ['["fake-discord-gateway",{"micros":0}]'],
    }
    if shard is not None:
        payload["shard"] = shard
    return payload


def application_payload(app: FakeApplication, bot: FakeUser) -> JSON:
    """GET /applications/@me: the bot's application (no interactions endpoint, so events come by gateway)."""
    return {
        "id": str(app.id),
        "name": app.name,
        "icon": None,
        "description": app.description,
        "summary": "",
        "type": None,
        "bot": user_payload(bot),
        "bot_public": True,
        "bot_require_code_grant": False,
        "verify_key": app.verify_key,
        "owner": user_payload(app.owner),
        "team": None,
        "flags": app.flags,
        "flags_new": str(app.flags),
        "hook": True,
        "is_monetized": False,
        "interactions_endpoint_url": None,
        "redirect_uris": [],
        "tags": [],
        "approximate_guild_count": 1,
        "approximate_user_install_count": 0,
        "approximate_user_authorization_count": 0,
        "role_connections_verification_url": None,
        "explicit_content_filter": 0,
        "eligible_oauth2_scopes": ["bot", "applications.commands"],
        "integration_types_config": {"0": {}},
    }
