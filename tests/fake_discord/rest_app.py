"""REST routes about the bot and its application: users, gateway discovery, app info, commands."""

from __future__ import annotations

from aiohttp import web

from tests.fake_discord import commands
from tests.fake_discord.payloads import application_payload, me_payload, member_payload, user_payload
from tests.fake_discord.rest_common import (
    API_PREFIX,
    body_of,
    error,
    json_response,
    no_content,
    not_found,
    record_of,
    state_of,
)

routes = web.RouteTableDef()
GATEWAY_KEY = web.AppKey("fake_discord_gateway_url", str)


@routes.get(API_PREFIX + "/users/@me")
async def get_me(request: web.Request) -> web.Response:
    """The bot user (discord.py's login: ``static_login``)."""
    return json_response(me_payload(state_of(request).world.bot))


@routes.get(API_PREFIX + "/users/{user_id:\\d+}")
async def get_user(request: web.Request) -> web.Response:
    """Any user the fake knows (``fetch_user``)."""
    user = state_of(request).world.users.get(int(request.match_info["user_id"]))
    return not_found("User", 10013) if user is None else json_response(user_payload(user))


@routes.get(API_PREFIX + "/gateway")
async def get_gateway(request: web.Request) -> web.Response:
    """The gateway URL (no authentication needed, as on Discord)."""
    return json_response({"url": request.app[GATEWAY_KEY]})


@routes.get(API_PREFIX + "/gateway/bot")
async def get_gateway_bot(request: web.Request) -> web.Response:
    """The gateway URL, recommended shard count and session start limits (``get_bot_gateway``)."""
    limit = {"total": 1000, "remaining": 999, "reset_after": 14_400_000, "max_concurrency": 1}
    return json_response({"url": request.app[GATEWAY_KEY], "shards": 1, "session_start_limit": limit})


@routes.get(API_PREFIX + "/applications/@me")
@routes.get(API_PREFIX + "/oauth2/applications/@me")
async def get_application(request: web.Request) -> web.Response:
    """The bot's application (discord.py's login reads its id and flags from here)."""
    world = state_of(request).world
    return json_response(application_payload(world.application, world.bot))


@routes.get(API_PREFIX + "/guilds/{guild_id:\\d+}/members/{user_id:\\d+}")
async def get_member(request: web.Request) -> web.Response:
    """A guild member (``fetch_member``)."""
    guild = state_of(request).world.guild(int(request.match_info["guild_id"]))
    if guild is None:
        return not_found("Guild", 10004)
    member = guild.members.get(int(request.match_info["user_id"]))
    return not_found("Member", 10007) if member is None else json_response(member_payload(member))


def _scope(request: web.Request) -> int | web.Response | None:
    """The command scope of a commands route: a guild id, None for global, or an error response."""
    state = state_of(request)
    if int(request.match_info["app_id"]) != state.world.application.id:
        return error(403, 20012, "You are not authorized to perform this action on this application")
    guild_id = request.match_info.get("guild_id")
    if guild_id is None:
        return None
    if state.world.guild(int(guild_id)) is None:
        return error(403, 50001, "Missing Access")
    return int(guild_id)


GLOBAL = API_PREFIX + "/applications/{app_id:\\d+}/commands"
GUILD = API_PREFIX + "/applications/{app_id:\\d+}/guilds/{guild_id:\\d+}/commands"


@routes.put(GLOBAL)
@routes.put(GUILD)
async def put_commands(request: web.Request) -> web.Response:
    """Bulk overwrite (``CommandTree.sync``): store, validate, and echo back with ids."""
    scope = _scope(request)
    if isinstance(scope, web.Response):
        return scope
    body = record_of(request).json
    if not isinstance(body, list):
        return error(
            400, 50035, "Invalid Form Body", {"_errors": [{"code": "BASE_TYPE_ARRAY", "message": "Must be an array."}]}
        )
    result, errors = commands.overwrite(state_of(request), body, guild_id=scope)
    if errors is commands.ENTRY_POINT_REMOVED:
        return error(400, 50240, str(errors["message"]))
    if errors is not None:
        return error(400, 50035, "Invalid Form Body", errors)
    state_of(request).changes.notify()
    return json_response(result)


@routes.get(GLOBAL)
@routes.get(GUILD)
async def get_commands(request: web.Request) -> web.Response:
    """The scope's commands (``CommandTree.fetch_commands``)."""
    scope = _scope(request)
    if isinstance(scope, web.Response):
        return scope
    return json_response(state_of(request).commands.get(scope, []))


@routes.post(GLOBAL)
@routes.post(GUILD)
async def post_command(request: web.Request) -> web.Response:
    """Create or update one command by name (201 when new)."""
    scope = _scope(request)
    if isinstance(scope, web.Response):
        return scope
    state = state_of(request)
    body = body_of(request)
    problem = commands.validate(body)
    if problem is not None:
        return error(400, 50035, "Invalid Form Body", problem)
    existing = state.commands.setdefault(scope, [])
    command = commands.stored(state, body, guild_id=scope, existing=existing)
    is_new = all(c["id"] != command["id"] for c in existing)
    state.commands[scope] = [c for c in existing if c["id"] != command["id"]] + [command]
    return json_response(command, status=201 if is_new else 200)


@routes.get(GLOBAL + "/{command_id:\\d+}")
@routes.get(GUILD + "/{command_id:\\d+}")
@routes.delete(GLOBAL + "/{command_id:\\d+}")
@routes.delete(GUILD + "/{command_id:\\d+}")
async def one_command(request: web.Request) -> web.Response:
    """Fetch or delete one command by id."""
    scope = _scope(request)
    if isinstance(scope, web.Response):
        return scope
    state = state_of(request)
    existing = state.commands.get(scope, [])
    command = next((c for c in existing if c["id"] == request.match_info["command_id"]), None)
    if command is None:
        return not_found("application command", 10063)
    if request.method == "DELETE":
        state.commands[scope] = [c for c in existing if c is not command]
        return no_content(request)
    return json_response(command)
