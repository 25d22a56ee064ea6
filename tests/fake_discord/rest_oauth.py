"""REST routes of Discord's OAuth2 an Activity signs in with: the token endpoint and ``/oauth2/@me``.

What they check is described in :mod:`tests.fake_discord.oauth`.
"""

from __future__ import annotations

import secrets
import time
from datetime import UTC, datetime

from aiohttp import web
from yarl import URL

from tests.fake_discord.oauth import TOKEN_SECONDS, Grant, s256
from tests.fake_discord.payloads import user_payload
from tests.fake_discord.rest_common import API_PREFIX, json_response, state_of

routes = web.RouteTableDef()


def _oauth_error(status: int, error: str, description: str) -> web.Response:
    return json_response({"error": error, "error_description": description}, status=status)


@routes.post(API_PREFIX + "/oauth2/token")
async def token(request: web.Request) -> web.Response:
    """Exchange a code for an access token (``grant_type=authorization_code``, form-encoded)."""
    state = state_of(request)
    if request.content_type != "application/x-www-form-urlencoded":
        return _oauth_error(400, "invalid_request", "Request must be form-encoded.")
    form = await request.post()
    oauth = state.oauth
    oauth.exchanges.append({name: str(value) for name, value in form.items()})
    if form.get("client_id") != str(state.world.application.id) or form.get("client_secret") != oauth.client_secret:
        return _oauth_error(401, "invalid_client", "Invalid client")
    if form.get("grant_type") != "authorization_code":
        return _oauth_error(400, "unsupported_grant_type", "Unsupported grant type")
    grant = oauth.codes.get(str(form.get("code", "")))
    if (grant is None or grant.used or grant.expires_at < time.time()
            or (oauth.checks_application and grant.application_id != state.world.application.id)):
        return _oauth_error(400, "invalid_grant", 'Invalid "code" in request.')
    if grant.redirect_uri is not None and form.get("redirect_uri") != grant.redirect_uri:
        return _oauth_error(400, "invalid_grant", 'Invalid "redirect_uri" in request.')
    verifier = form.get("code_verifier")
    if grant.code_challenge is not None and (not isinstance(verifier, str) or s256(verifier) != grant.code_challenge):
        return _oauth_error(400, "invalid_grant", "Invalid code verifier")
    grant.used = True
    access = secrets.token_urlsafe(24)
    oauth.tokens[access] = Grant(grant.user, grant.application_id, grant.scopes, time.time() + TOKEN_SECONDS)
    return json_response({"access_token": access, "token_type": "Bearer", "expires_in": TOKEN_SECONDS,
                          "refresh_token": secrets.token_urlsafe(24), "scope": " ".join(grant.scopes)})


@routes.get(API_PREFIX + "/oauth2/@me")
async def me(request: web.Request) -> web.Response:
    """Whose a bearer token is: the application it was granted to, its scopes, and (with ``identify``) the user."""
    state = state_of(request)
    header = request.headers.get("Authorization", "")
    grant = state.oauth.tokens.get(header.removeprefix("Bearer ")) if header.startswith("Bearer ") else None
    if grant is None or grant.expires_at < time.time():
        return json_response({"message": "401: Unauthorized", "code": 0}, status=401)
    application = state.world.application
    answer = {
        "application": {"id": str(grant.application_id), "name": application.name, "icon": None,
                        "description": application.description, "type": None, "bot_public": True,
                        "bot_require_code_grant": False, "verify_key": application.verify_key, "flags": 0,
                        "flags_new": "0"},
        "scopes": list(grant.scopes),
        "expires": datetime.fromtimestamp(grant.expires_at, UTC).isoformat(),
    }
    if "identify" in grant.scopes:
        answer["user"] = user_payload(grant.user)
    return json_response(answer)


@routes.get("/oauth2/authorize")
async def authorize(request: web.Request) -> web.Response:
    """Discord's authorisation page, as a browser whose user is logged in meets it: allowed (or denied) at once.

    It checks what a site must send (``response_type=code``, this application's ``client_id``, a
    ``redirect_uri``, scope ``identify``, a ``state``, an S256 challenge) and sends the browser back
    to ``redirect_uri`` with a code and the state, or with ``error=access_denied`` and the state.
    """
    state = state_of(request)
    query = request.query
    oauth = state.oauth
    oauth.asked = dict(query)
    redirect_uri = query.get("redirect_uri", "")
    if (query.get("response_type") != "code" or query.get("client_id") != str(state.world.application.id)
            or not redirect_uri.startswith(("http://", "https://")) or "identify" not in query.get("scope", "").split()
            or query.get("code_challenge_method") != "S256" or not query.get("code_challenge")):
        return web.Response(status=400, text="Invalid OAuth2 request")
    back = URL(redirect_uri)
    if oauth.denies:
        raise web.HTTPFound(back.update_query(error="access_denied", error_description="The resource owner or "
                                              "authorization server denied the request", state=query.get("state", "")))
    if oauth.browser_user is None:
        return web.Response(status=401, text="Log in to Discord first")
    code = oauth.authorize(oauth.browser_user, state.world.application.id, redirect_uri=redirect_uri,
                           code_challenge=query["code_challenge"])
    raise web.HTTPFound(back.update_query(code=code, state=query.get("state", "")))
