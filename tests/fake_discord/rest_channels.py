"""REST routes for channels: messages (create, fetch, edit, delete), reactions, typing, DMs, files.

Guild channel calls are checked against the bot's permissions in that channel (roles and
overwrites), so a test can take SEND_MESSAGES away and see the bot cope with 403 Missing
Permissions (50013), as it would on a real server. Where the bot is not a member — a group DM,
or a server it was never added to, reached through a user install — every channel call is 403
Missing Access (50001): there it can only answer interactions.
"""

from __future__ import annotations

from aiohttp import web

from tests.fake_discord.model import ChannelType, FakeChannel, Permission
from tests.fake_discord.payloads import channel_payload
from tests.fake_discord.records import StoredMessage
from tests.fake_discord.rest_common import (
    API_PREFIX,
    body_of,
    check_message_body,
    error,
    form_error,
    json_response,
    missing_permissions,
    no_content,
    not_found,
    record_of,
    state_of,
)
from tests.fake_discord.state import FakeState

routes = web.RouteTableDef()

CHANNEL = API_PREFIX + "/channels/{channel_id:\\d+}"
MESSAGE = CHANNEL + "/messages/{message_id:\\d+}"
OWN_REACTION = MESSAGE + "/reactions/{emoji}/@me"


def _bot_can(state: FakeState, channel: FakeChannel, needed: int) -> bool:
    """Whether the bot has every permission in ``needed`` in ``channel``: always in its DMs, never in a group DM."""
    if channel.guild_id is None:
        return state.world.bot_is_in(channel)
    guild = state.world.guild(channel.guild_id)
    if guild is None:
        return False
    return state.world.bot.id in guild.members and guild.permissions(state.world.bot.id, channel) & needed == needed


def _channel(request: web.Request, needed: int = Permission.VIEW_CHANNEL) -> FakeChannel | web.Response:
    """The route's channel, or the error Discord gives: 404 Unknown Channel, 403 Missing Access/Permissions."""
    state = state_of(request)
    channel = state.world.channel(int(request.match_info["channel_id"]))
    if channel is None:
        return not_found("Channel", 10003)
    if not _bot_can(state, channel, Permission.VIEW_CHANNEL):
        return error(403, 50001, "Missing Access")
    if not _bot_can(state, channel, needed):
        return missing_permissions()
    return channel


def _message(request: web.Request, channel: FakeChannel) -> StoredMessage | web.Response:
    """The route's message in ``channel``, or 404 Unknown Message (10008)."""
    message = state_of(request).messages.get(int(request.match_info["message_id"]))
    if message is None or message.deleted or message.channel_id != channel.id or message.ephemeral:
        return not_found("Message", 10008)
    return message


@routes.get(CHANNEL)
async def get_channel(request: web.Request) -> web.Response:
    """One channel (``fetch_channel``)."""
    channel = _channel(request)
    return channel if isinstance(channel, web.Response) else json_response(channel_payload(channel))


@routes.post(CHANNEL + "/messages")
async def create_message(request: web.Request) -> web.Response:
    """Send a message (``Messageable.send``); JSON or multipart with files."""
    state = state_of(request)
    body, files = body_of(request), record_of(request).files
    needed = Permission.VIEW_CHANNEL | Permission.SEND_MESSAGES
    if files:
        needed |= Permission.ATTACH_FILES
    if body.get("message_reference"):
        needed |= Permission.READ_MESSAGE_HISTORY
    channel = _channel(request, needed)
    if isinstance(channel, web.Response):
        return channel
    if channel.type not in (ChannelType.GUILD_TEXT, ChannelType.DM, ChannelType.GUILD_VOICE):
        return error(400, 50008, "Cannot send messages in a non-text channel")
    if channel.is_dm and any(user.bot for user in channel.recipients):
        return error(403, 50007, "Cannot send messages to this user")
    problem = check_message_body(body, files)
    if problem is not None:
        return problem
    reference = body.get("message_reference") or {}
    if reference.get("message_id") and int(reference["message_id"]) not in state.messages:
        if reference.get("fail_if_not_exists", True):
            return form_error("message_reference", "MESSAGE_REFERENCE_UNKNOWN_MESSAGE", "Unknown message")
        body = {key: value for key, value in body.items() if key != "message_reference"}
    message = state.create_message(channel, body, files, author=state.world.bot, origin="bot")
    await state.announce("MESSAGE_CREATE", message)
    return json_response(message.payload)


@routes.get(CHANNEL + "/messages")
async def list_messages(request: web.Request) -> web.Response:
    """Channel history, newest first (``history()``): ``limit``, ``before``, ``after``."""
    channel = _channel(request, Permission.VIEW_CHANNEL | Permission.READ_MESSAGE_HISTORY)
    if isinstance(channel, web.Response):
        return channel
    found = [m for m in state_of(request).channel_messages(channel.id) if not m.ephemeral]
    if "before" in request.query:
        found = [m for m in found if m.id < int(request.query["before"])]
    if "after" in request.query:
        found = [m for m in found if m.id > int(request.query["after"])]
        found = found[: int(request.query.get("limit", 50))]
    found = list(reversed(found))[: int(request.query.get("limit", 50))]
    return json_response([m.payload for m in found])


@routes.get(MESSAGE)
async def get_message(request: web.Request) -> web.Response:
    """One message (``fetch_message``)."""
    channel = _channel(request, Permission.VIEW_CHANNEL | Permission.READ_MESSAGE_HISTORY)
    if isinstance(channel, web.Response):
        return channel
    message = _message(request, channel)
    return message if isinstance(message, web.Response) else json_response(message.payload)


@routes.patch(MESSAGE)
async def edit_message(request: web.Request) -> web.Response:
    """Edit one of the bot's messages (``Message.edit``)."""
    channel = _channel(request)
    if isinstance(channel, web.Response):
        return channel
    message = _message(request, channel)
    if isinstance(message, web.Response):
        return message
    state = state_of(request)
    if int(message.payload["author"]["id"]) != state.world.bot.id:
        return error(403, 50005, "Cannot edit a message authored by another user")
    body, files = body_of(request), record_of(request).files
    problem = check_message_body(body, files, creating=False)
    if problem is not None:
        return problem
    state.edit_message(message, body, files)
    await state.announce("MESSAGE_UPDATE", message)
    return json_response(message.payload)


@routes.delete(MESSAGE)
async def delete_message(request: web.Request) -> web.Response:
    """Delete a message: the bot's own, or anyone's with MANAGE_MESSAGES."""
    channel = _channel(request)
    if isinstance(channel, web.Response):
        return channel
    message = _message(request, channel)
    if isinstance(message, web.Response):
        return message
    state = state_of(request)
    own = int(message.payload["author"]["id"]) == state.world.bot.id
    if not own and not _bot_can(state, channel, Permission.MANAGE_MESSAGES):
        return missing_permissions()
    state.delete_message(message)
    await state.announce("MESSAGE_DELETE", message)
    return no_content(request)


@routes.put(OWN_REACTION)
@routes.delete(OWN_REACTION)
async def own_reaction(request: web.Request) -> web.Response:
    """Add or remove the bot's reaction (``Message.add_reaction``); emoji is ``name`` or ``name:id``."""
    needed = Permission.VIEW_CHANNEL | Permission.READ_MESSAGE_HISTORY
    if request.method == "PUT":
        needed |= Permission.ADD_REACTIONS
    channel = _channel(request, needed)
    if isinstance(channel, web.Response):
        return channel
    message = _message(request, channel)
    if isinstance(message, web.Response):
        return message
    state = state_of(request)
    emoji = request.match_info["emoji"]
    if request.method == "PUT":
        state.add_reaction(message, emoji)
    else:
        state.remove_reaction(message, emoji)
    return no_content(request)


@routes.post(CHANNEL + "/typing")
async def typing(request: web.Request) -> web.Response:
    """Typing indicator (``async with channel.typing()``)."""
    channel = _channel(request, Permission.VIEW_CHANNEL | Permission.SEND_MESSAGES)
    return channel if isinstance(channel, web.Response) else no_content(request)


@routes.post(API_PREFIX + "/users/@me/channels")
async def create_dm(request: web.Request) -> web.Response:
    """Open (or reuse) the DM channel with a user (``User.create_dm``)."""
    state = state_of(request)
    recipient = body_of(request).get("recipient_id")
    user = state.world.users.get(int(recipient)) if str(recipient).isdigit() else None
    if user is None:
        return form_error("recipient_id", "NUMBER_TYPE_COERCE", f'Value "{recipient}" is not snowflake.')
    return json_response(channel_payload(state.world.dm_channel(user)))


@routes.get("/attachments/{channel_id:\\d+}/{attachment_id:\\d+}/{filename}")
async def attachment(request: web.Request) -> web.Response:
    """An uploaded file's bytes, at the URL its attachment object gives (``Attachment.read``)."""
    attachment_id = int(request.match_info["attachment_id"])
    for message in state_of(request).messages.values():
        file = message.files.get(attachment_id)
        if file is not None:
            return web.Response(body=file.data, content_type=file.content_type or "application/octet-stream")
    return web.Response(status=404)
