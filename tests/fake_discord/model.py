"""The fake's world: users, guilds, roles, channels and the application, plus snowflakes and permissions.

These are plain dataclasses a test can build or tweak before the bot connects (add a channel,
change a role's permissions, add a permission overwrite). They know nothing about the wire:
:mod:`tests.fake_discord.payloads` turns them into the JSON Discord sends.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import UTC, datetime

#: Discord's epoch (2015-01-01T00:00:00Z) in milliseconds: snowflakes count from here.
DISCORD_EPOCH_MS = 1_420_070_400_000


class Snowflakes:
    """Makes ids shaped like Discord's: creation time in the top bits, strictly increasing.

    Real-looking ids matter because discord.py derives ``created_at`` from them and sorts by them.
    """

    def __init__(self) -> None:
        self._last = 0

    def __call__(self) -> int:
        stamp = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        self._last = max(self._last + 1, stamp)
        return self._last


def iso_now() -> str:
    """The current time as Discord writes timestamps (ISO 8601 with microseconds and an offset)."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


class Permission:
    """Permission bits the fake uses (a subset of Discord's; see discord.Permissions for all)."""

    CREATE_INSTANT_INVITE = 1 << 0
    ADMINISTRATOR = 1 << 3
    ADD_REACTIONS = 1 << 6
    VIEW_CHANNEL = 1 << 10
    SEND_MESSAGES = 1 << 11
    MANAGE_MESSAGES = 1 << 13
    EMBED_LINKS = 1 << 14
    ATTACH_FILES = 1 << 15
    READ_MESSAGE_HISTORY = 1 << 16
    MENTION_EVERYONE = 1 << 17
    USE_EXTERNAL_EMOJIS = 1 << 18
    CONNECT = 1 << 20
    SPEAK = 1 << 21
    CHANGE_NICKNAME = 1 << 26
    USE_APPLICATION_COMMANDS = 1 << 31
    SEND_MESSAGES_IN_THREADS = 1 << 38
    USE_EXTERNAL_APPS = 1 << 50
    #: Every permission bit Discord currently defines (bits 0-51 are enough for the fake's checks).
    ALL = (1 << 52) - 1


#: What @everyone may do in a freshly created server (close to Discord's default).
EVERYONE_DEFAULT = (
    Permission.CREATE_INSTANT_INVITE
    | Permission.ADD_REACTIONS
    | Permission.VIEW_CHANNEL
    | Permission.SEND_MESSAGES
    | Permission.EMBED_LINKS
    | Permission.ATTACH_FILES
    | Permission.READ_MESSAGE_HISTORY
    | Permission.MENTION_EVERYONE
    | Permission.USE_EXTERNAL_EMOJIS
    | Permission.CONNECT
    | Permission.SPEAK
    | Permission.CHANGE_NICKNAME
    | Permission.USE_APPLICATION_COMMANDS
    | Permission.SEND_MESSAGES_IN_THREADS
    | Permission.USE_EXTERNAL_APPS
)

#: What a user-installed app may do where it is not a member (a group DM, a server without the bot), as
#: such an interaction's ``app_permissions`` says: only what an answer to the interaction can carry.
USER_APP_PERMISSIONS = (
    Permission.EMBED_LINKS
    | Permission.ATTACH_FILES
    | Permission.MENTION_EVERYONE
    | Permission.USE_EXTERNAL_EMOJIS
)

#: What an app may do in a DM with a user, as sent in a DM interaction's ``app_permissions``.
DM_APP_PERMISSIONS = (
    Permission.ADD_REACTIONS
    | Permission.VIEW_CHANNEL
    | Permission.SEND_MESSAGES
    | Permission.EMBED_LINKS
    | Permission.ATTACH_FILES
    | Permission.READ_MESSAGE_HISTORY
    | Permission.MENTION_EVERYONE
    | Permission.USE_EXTERNAL_EMOJIS
    | Permission.USE_APPLICATION_COMMANDS
    | Permission.USE_EXTERNAL_APPS
)


class ChannelType:
    """Discord's channel type numbers the fake knows."""

    GUILD_TEXT = 0
    DM = 1
    GUILD_VOICE = 2
    GROUP_DM = 3
    GUILD_CATEGORY = 4


@dataclass
class FakeUser:
    """A Discord user (a person, or the bot itself when ``bot`` is true)."""

    id: int
    username: str
    global_name: str | None = None
    bot: bool = False
    avatar: str | None = None
    #: The language their Discord client is set to, sent with each of their interactions.
    locale: str = "en-US"

    @property
    def mention(self) -> str:
        """How a message mentions this user (``<@id>``), as the Discord client writes it."""
        return f"<@{self.id}>"


@dataclass
class FakeRole:
    """A guild role; the @everyone role has the guild's id."""

    id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False
    mentionable: bool = False
    bot_id: int | None = None  # set on the role Discord creates for a bot when it joins


@dataclass
class Overwrite:
    """A channel permission overwrite for a role (``type`` 0) or a member (``type`` 1)."""

    id: int
    type: int
    allow: int = 0
    deny: int = 0


@dataclass
class FakeChannel:
    """A guild channel (text, voice, category), a DM channel or a group DM (``recipients`` set, no guild).

    A group DM's ``recipients`` are its people; the bot is never one of them (bots cannot join group
    DMs), so it reaches one only through interactions of a user who installed the app.
    """

    id: int
    name: str | None
    type: int = ChannelType.GUILD_TEXT
    guild_id: int | None = None
    position: int = 0
    topic: str | None = None
    parent_id: int | None = None
    nsfw: bool = False
    overwrites: list[Overwrite] = field(default_factory=list)
    recipients: list[FakeUser] = field(default_factory=list)
    last_message_id: int | None = None

    owner_id: int | None = None  # a group DM's owner

    @property
    def is_dm(self) -> bool:
        """Whether this is a DM channel (no guild)."""
        return self.type == ChannelType.DM

    @property
    def is_group_dm(self) -> bool:
        """Whether this is a group DM (people only, no guild, no bot)."""
        return self.type == ChannelType.GROUP_DM


@dataclass
class FakeMember:
    """A user's membership of a guild."""

    user: FakeUser
    roles: list[int] = field(default_factory=list)
    nick: str | None = None
    joined_at: str = field(default_factory=iso_now)


@dataclass
class FakeGuild:
    """A guild the bot is in: roles (``roles[0]`` is @everyone), channels and members by user id."""

    id: int
    name: str
    owner_id: int
    roles: list[FakeRole] = field(default_factory=list)
    channels: list[FakeChannel] = field(default_factory=list)
    members: dict[int, FakeMember] = field(default_factory=dict)
    preferred_locale: str = "en-US"

    @property
    def everyone(self) -> FakeRole:
        """The @everyone role (id equal to the guild's)."""
        return next(role for role in self.roles if role.id == self.id)

    def channel(self, name_or_id: str | int) -> FakeChannel:
        """The channel with this name or id (KeyError if there is none)."""
        for channel in self.channels:
            if name_or_id in (channel.id, channel.name):
                return channel
        raise KeyError(f"guild {self.name!r} has no channel {name_or_id!r}")

    @property
    def text_channels(self) -> list[FakeChannel]:
        """The guild's text channels, by position."""
        found = [channel for channel in self.channels if channel.type == ChannelType.GUILD_TEXT]
        return sorted(found, key=lambda channel: channel.position)

    def role(self, role_id: int) -> FakeRole:
        """The role with this id (KeyError if there is none)."""
        for role in self.roles:
            if role.id == role_id:
                return role
        raise KeyError(f"guild {self.name!r} has no role {role_id}")

    def permissions(self, user_id: int, channel: FakeChannel | None = None) -> int:
        """A member's permissions, in ``channel`` if given, computed the way Discord documents it.

        Base permissions are @everyone's plus the member's roles' (all of them for the owner or an
        administrator); in a channel, overwrites apply in order: @everyone, the member's roles
        (all denies, then all allows), then the member's own.
        """
        if user_id == self.owner_id:
            return Permission.ALL
        member = self.members.get(user_id)
        role_ids = [] if member is None else member.roles
        base = self.everyone.permissions
        for role_id in role_ids:
            base |= self.role(role_id).permissions
        if base & Permission.ADMINISTRATOR:
            return Permission.ALL
        if channel is None:
            return base
        by_target = {(overwrite.type, overwrite.id): overwrite for overwrite in channel.overwrites}
        everyone = by_target.get((0, self.id))
        if everyone is not None:
            base = (base & ~everyone.deny) | everyone.allow
        deny = allow = 0
        for role_id in role_ids:
            overwrite = by_target.get((0, role_id))
            if overwrite is not None:
                deny |= overwrite.deny
                allow |= overwrite.allow
        base = (base & ~deny) | allow
        own = by_target.get((1, user_id))
        if own is not None:
            base = (base & ~own.deny) | own.allow
        return base


@dataclass
class FakeApplication:
    """The bot's application: its id (equal to the bot user's, as for every modern app) and owner."""

    id: int
    name: str
    owner: FakeUser
    description: str = "A bot under test"
    flags: int = 0
    verify_key: str = "0" * 64


@dataclass
class World:
    """Everything the fake knows that is not traffic: the bot, its application, users and guilds."""

    bot: FakeUser
    application: FakeApplication
    users: dict[int, FakeUser] = field(default_factory=dict)
    guilds: list[FakeGuild] = field(default_factory=list)
    dm_channels: dict[int, FakeChannel] = field(default_factory=dict)  # by the other user's id
    group_dms: list[FakeChannel] = field(default_factory=list)
    #: Users who added the app to their account (a user install, integration type 1).
    user_installs: set[int] = field(default_factory=set)
    ids: Snowflakes = field(default_factory=Snowflakes)

    def channel(self, channel_id: int) -> FakeChannel | None:
        """A guild channel, DM or group DM by id, or None."""
        for guild in self.guilds:
            for channel in guild.channels:
                if channel.id == channel_id:
                    return channel
        private = [*self.dm_channels.values(), *self.group_dms]
        return next((channel for channel in private if channel.id == channel_id), None)

    def bot_is_in(self, channel: FakeChannel) -> bool:
        """Whether the bot is a member where ``channel`` is: its guild, or a DM with it (never a group DM)."""
        if channel.guild_id is None:
            return channel.is_dm
        guild = self.guild(channel.guild_id)
        return guild is not None and self.bot.id in guild.members

    def install_for_user(self, user: FakeUser) -> None:
        """``user`` adds the app to their account, so its user-installable commands follow them everywhere."""
        self.user_installs.add(user.id)

    def add_group_dm(self, owner: FakeUser, *others: FakeUser, name: str | None = None) -> FakeChannel:
        """A group DM of ``owner`` and ``others`` (people; the bot cannot be added to one)."""
        channel = FakeChannel(
            id=self.ids(), name=name, type=ChannelType.GROUP_DM, recipients=[owner, *others], owner_id=owner.id
        )
        self.group_dms.append(channel)
        return channel

    def guild(self, guild_id: int) -> FakeGuild | None:
        """A guild by id, or None."""
        return next((guild for guild in self.guilds if guild.id == guild_id), None)

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        """The DM channel between the bot and ``user``, created on first use (as Discord does)."""
        channel = self.dm_channels.get(user.id)
        if channel is None:
            channel = FakeChannel(id=self.ids(), name=None, type=ChannelType.DM, recipients=[user])
            self.dm_channels[user.id] = channel
        return channel

    def add_user(self, username: str, *, bot: bool = False) -> FakeUser:
        """A new user known to the fake (not yet a member of any guild)."""
        user = FakeUser(id=self.ids(), username=username, global_name=username.title(), bot=bot)
        self.users[user.id] = user
        return user

    def add_guild(
        self, name: str, *, owner: FakeUser, channels: tuple[str, ...] = ("general",), with_bot: bool = True
    ) -> FakeGuild:
        """A new guild owned by ``owner`` with text channels, @everyone, and the bot as a member.

        The bot gets its managed role (named after it, with ``tags.bot_id``), as when a bot is
        invited; ``owner`` becomes a member too. ``with_bot=False`` is a server that never added
        the bot: its members reach the app only through their own installs, and the bot is
        told nothing of it (no GUILD_CREATE, no messages) and may call nothing there.
        """
        guild_id = self.ids()
        everyone = FakeRole(id=guild_id, name="@everyone", permissions=EVERYONE_DEFAULT)
        bot_role = FakeRole(
            id=self.ids(),
            name=self.bot.username,
            permissions=EVERYONE_DEFAULT,
            position=1,
            managed=True,
            bot_id=self.bot.id,
        )
        guild = FakeGuild(id=guild_id, name=name, owner_id=owner.id, roles=[everyone, bot_role])
        for position, channel_name in enumerate(channels):
            guild.channels.append(FakeChannel(id=self.ids(), name=channel_name, guild_id=guild_id, position=position))
        guild.members[owner.id] = FakeMember(user=owner)
        if with_bot:
            guild.members[self.bot.id] = FakeMember(user=self.bot, roles=[bot_role.id])
        self.guilds.append(guild)
        return guild

    @classmethod
    def default(cls, *, bot_name: str = "GateBot") -> World:
        """A bot, two people (alice owns "Test Guild", bob is a member) and channels #general and #games."""
        ids = Snowflakes()
        owner = FakeUser(id=ids(), username="alice", global_name="Alice")
        bot_id = ids()
        bot = FakeUser(id=bot_id, username=bot_name.lower(), global_name=None, bot=True)
        world = cls(bot=bot, application=FakeApplication(id=bot_id, name=bot_name, owner=owner), ids=ids)
        world.users.update({owner.id: owner, bot.id: bot})
        guild = world.add_guild("Test Guild", owner=owner, channels=("general", "games"))
        bob = world.add_user("bob")
        guild.members[bob.id] = FakeMember(user=bob)
        return world
