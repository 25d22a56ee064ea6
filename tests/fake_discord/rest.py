"""The aiohttp application: REST under /api/v10, the gateway websocket, uploaded files.

A middleware records every API request before its handler runs (method, path, query, headers,
JSON or multipart body with file bytes, arrival time) and its answer after, and checks the bot
token where Discord does, and answers with an armed failure instead where a test asked for one
(:mod:`tests.fake_discord.faults`). A catch-all route answers anything the fake does not serve with
Discord's ``404: Not Found`` body and leaves ``route`` None on the record, so a test can assert
the bot made no call the fake does not know (``FakeDiscord.unexpected_requests``).
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable

from aiohttp import web

from tests.fake_discord import faults
from tests.fake_discord.gateway import GATEWAY_PATH, RESUME_PATH, Gateway
from tests.fake_discord.records import RecordedRequest
from tests.fake_discord.referee import Violation
from tests.fake_discord.rest_app import GATEWAY_KEY
from tests.fake_discord.rest_app import routes as app_routes
from tests.fake_discord.rest_channels import routes as channel_routes
from tests.fake_discord.rest_common import API_PREFIX, RECORD, STATE, error, form_error, read_body, state_of
from tests.fake_discord.rest_interactions import routes as interaction_routes
from tests.fake_discord.rest_oauth import routes as oauth_routes
from tests.fake_discord.state import FakeState

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

#: API paths that take no bot token (interaction callbacks and webhooks use their own token; OAuth2, a client's
#: secret or a bearer token).
UNAUTHENTICATED = (API_PREFIX + "/interactions/", API_PREFIX + "/webhooks/", API_PREFIX + "/oauth2/token",
                   API_PREFIX + "/oauth2/@me")
#: Discord's API description has no token endpoint: the fake checks that request itself (tests.fake_discord.oauth).
UNDESCRIBED = ("/oauth2/token",)
SHOWN_HEADERS = ("Authorization", "Content-Type", "Host", "User-Agent", "X-Audit-Log-Reason")


async def unknown_route(request: web.Request) -> web.Response:
    """Anything the fake does not serve: Discord's plain 404."""
    return error(404, 0, "404: Not Found")


@web.middleware
async def record_requests(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Record an API request and its answer; refuse a wrong or missing bot token with 401."""
    if not request.path.startswith(API_PREFIX + "/"):
        return await handler(request)
    state = state_of(request)
    received_at = time.perf_counter()
    body, files = await read_body(request)
    resource = request.match_info.route.resource
    template = None if resource is None or request.match_info.handler is unknown_route else resource.canonical
    recorded = RecordedRequest(
        method=request.method,
        path=request.path.removeprefix(API_PREFIX),
        query=dict(request.query),
        headers={name: request.headers[name] for name in SHOWN_HEADERS if name in request.headers},
        json=body,
        files=files,
        received_at=received_at,
        route=None if template is None else f"{request.method} {template.removeprefix(API_PREFIX)}",
    )
    state.requests.append(recorded)
    request[RECORD] = recorded
    authorized = request.headers.get("Authorization") == f"Bot {state.token}"
    open_route = request.path.startswith(UNAUTHENTICATED) or request.path == API_PREFIX + "/gateway"
    content_type = request.content_type if body is not None or files else ""
    if recorded.path in UNDESCRIBED:
        operation, problems = None, []
    else:
        operation, problems = state.referee.check_request(
            recorded.method, recorded.path, recorded.query, content_type, body, [file.field for file in files]
        )
    fault = None if problems else state.faults.take(recorded.route)
    if not authorized and not open_route:
        response: web.StreamResponse = error(401, 0, "401: Unauthorized")
    elif problems:
        response = rejection(problems)
    elif fault is not None:
        served = await handler(request) if fault.processed or fault.status == 0 else None
        response = await faults.apply(fault, request, served if isinstance(served, web.Response) else None)
    else:
        response = await handler(request)
    recorded.status = response.status
    if isinstance(response, web.Response) and response.content_type == "application/json" and response.body:
        recorded.response = json.loads(bytes(response.body))  # type: ignore[arg-type]
    if operation is not None and isinstance(response, web.Response) and not (fault is not None and fault.drop):
        state.referee.check_response(operation, recorded.method, recorded.path, response.status, recorded.response)
    state.changes.notify()
    return response


def rejection(problems: list[Violation]) -> web.Response:
    """Discord's answer to a request its API description rejects: 404 for no such route, else 400 50035."""
    first = problems[0]
    if first.operation is None:
        return error(404, 0, "404: Not Found")
    where = first.where.split(" ")[-1].removeprefix("$").removeprefix(".")
    field = where.replace("[", ".").replace("]", "") or "_"
    return form_error(field, "BASE_TYPE_INVALID", first.message)


def build_app(state: FakeState, gateway: Gateway, *, gateway_url: str) -> web.Application:
    """The fake Discord's aiohttp application; ``gateway_url`` is what GET /gateway/bot advertises."""
    app = web.Application(middlewares=[record_requests], client_max_size=64 * 1024 * 1024)
    app[STATE] = state
    app[GATEWAY_KEY] = gateway_url
    app.add_routes(app_routes)
    app.add_routes(channel_routes)
    app.add_routes(interaction_routes)
    app.add_routes(oauth_routes)
    app.router.add_get(GATEWAY_PATH, gateway.handle)
    app.router.add_get(RESUME_PATH, gateway.handle)
    app.router.add_route("*", API_PREFIX + "/{tail:.*}", unknown_route)
    app.on_shutdown.append(_close_gateway(gateway))
    return app


def _close_gateway(gateway: Gateway) -> Callable[[web.Application], Awaitable[None]]:
    async def close(_app: web.Application) -> None:
        await gateway.close_all()

    return close
