""""Sign in with Discord" on the open web: OAuth2's authorization-code flow with ``state`` and PKCE.

Outside Discord the table's page offers **Sign in with Discord** (with DISCORD_CLIENT_ID and
DISCORD_CLIENT_SECRET set, to a guest). ``GET /signin`` sends the browser to Discord's authorisation
page (scope ``identify``) with a fresh ``state`` and a PKCE challenge (S256), made by Authlib; the
state and the code verifier stay in the session (an encrypted cookie), never in an address.
``GET /signin/callback`` takes them out of the session (each is good once), checks the state, and
exchanges the code with the verifier through the Activity's own exchange
(:class:`gatebot.web.activity.DiscordOAuth`: ``/oauth2/token``, then ``/oauth2/@me``, whose
application must be this one; its retries and one-sentence failures). The session is then signed in
to that Discord player as a ``/gate table`` link signs it in (:func:`gatebot.web.guests.sign_in`:
checked against their stored row on every request, so a forget-me ends it).

When the browser's guest and the Discord player both have a game in progress, nothing is chosen for
them: a page asks (two buttons, a form POSTed with the CSRF token). **Keep my Discord game** signs
in and leaves the guest's game stored under the guest (Sign out goes back to it); **Bring this
game over** makes the guest's game the Discord player's, their own game in progress abandoned as a
new deal abandons it (kept in their history with its score). Either way no game is deleted.
``POST /signout`` takes the session back to its guest and the guest's game.
"""

from __future__ import annotations

import hmac
import html
import time

from aiohttp import web
from authlib.common.security import generate_token
from authlib.oauth2.rfc6749.parameters import prepare_grant_uri
from authlib.oauth2.rfc7636 import create_s256_code_challenge

from gatebot.messages import N_, _
from gatebot.service import Actor, GameStatus, Reply
from gatebot.service.links import Link
from gatebot.web.activity import BAD_CODE, MAX_CODE, OAUTH, SignInError
from gatebot.web.guests import (
    DISCORD,
    SERVICE,
    back_to_guest,
    csrf_token,
    guest_behind,
    reader,
    session_of,
    sign_in,
    signed_in_link,
)
from gatebot.web.refusal import Refusal

__all__ = ["PUBLIC_URL", "account", "begin", "callback", "choose", "sign_out"]

#: ``WEB_PUBLIC_URL`` (ending in ``/``), where Discord sends the browser back to; absent: the request's own address.
PUBLIC_URL = web.AppKey("public_url", str)
#: The session's keys for a sign-in under way: its state, its PKCE verifier, and a player waiting for the choice.
_STATE, _VERIFIER, _PENDING = "signin_state", "signin_verifier", "signin_pending"
#: How long the choice between two games waits (seconds) before signing in has to start again.
CHOICE_SECONDS = 600
#: The longest ``state`` read back; ours are 32 characters.
MAX_STATE = 200

NOT_OFFERED = N_("This table doesn't offer signing in with Discord.")
BAD_STATE = N_("That sign-in didn't start on this page, or was finished already, so you aren't signed in: "
               "press Sign in with Discord again.")
REFUSED = N_("You didn't allow the sign-in in Discord, so the table stays a guest's.")
FAILED = N_("Discord didn't sign you in, so the table stays a guest's: press Sign in with Discord again.")
WEB_BAD_CODE = N_("Discord didn't accept that sign-in (it was wrong, expired or used already): press Sign in "
                  "with Discord again.")
NO_CHOICE = N_("There is no sign-in waiting for a choice: press Sign in with Discord again.")
CHOICE_FORGOTTEN = N_("That sign-in no longer works, since everything about you was deleted: press Sign in with "
                      "Discord again.")
SIGNED_IN = N_("The table now shows your Discord game, the same one as in chat.")
SIGNED_IN_OVER_GUEST = N_("The table now shows your Discord game, the same one as in chat; the game you played "
                          "here as a guest stays stored for this browser.")
KEPT_DISCORD = N_("The table now shows your Discord game; the game you played here as a guest stays stored for "
                  "this browser: Sign out goes back to it.")
BROUGHT_OVER = N_("The game you played here is now your Discord game, in chat too; your previous Discord game "
                  "was abandoned, and stays in your history.")
SIGNED_OUT = N_("You are signed out: the table shows this browser's guest game.")
SIGN_IN_BUTTON = N_("Sign in with Discord")
SIGN_OUT_BUTTON = N_("Sign out")
CHOICE_TITLE = N_("Which game do you want to play?")
CHOICE_GUEST = N_("Here, as a guest: {game}, score {score}.")
CHOICE_DISCORD = N_("As {name} in Discord: {game}, score {score}.")
KEEP_DISCORD = N_("Keep my Discord game")
KEEP_DISCORD_NOTE = N_("The guest game stays stored for this browser.")
BRING_OVER = N_("Bring this game over")
BRING_OVER_NOTE = N_("Your Discord game is abandoned, as a new deal abandons it, and stays in your history.")

CHOICE_PAGE = """<!doctype html>
<html lang="{lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>gatebot</title><link rel="stylesheet" href="../static/table.css"></head>
<body class="error-page"><main><h1>{title}</h1><p>{guest}</p><p>{discord}</p>
<form method="post" action="choice"><input type="hidden" name="csrf" value="{csrf}">
<p><button type="submit" name="keep" value="discord">{keep}</button> {keep_note}</p>
<p><button type="submit" name="keep" value="guest">{bring}</button> {bring_note}</p>
</form></main></body></html>
"""


def _redirect_uri(request: web.Request) -> str:
    """Where Discord sends the browser back: ``<WEB_PUBLIC_URL>signin/callback`` (the address registered with it)."""
    base = request.app.get(PUBLIC_URL) or str(request.url.with_path("/").with_query(None))
    return base.rstrip("/") + "/signin/callback"


async def begin(request: web.Request) -> web.Response:
    """``GET /signin``: off to Discord's authorisation page, with a new state and PKCE challenge kept for the answer."""
    oauth = request.app.get(OAUTH)
    if oauth is None:
        raise Refusal(404, NOT_OFFERED)
    session = await session_of(request)
    state, verifier = generate_token(32), generate_token(64)
    session[_STATE], session[_VERIFIER] = state, verifier
    session.pop(_PENDING, None)
    url = prepare_grant_uri(
        oauth.settings.authorize_url, oauth.settings.client_id, "code", redirect_uri=_redirect_uri(request),
        scope="identify", state=state, code_challenge=create_s256_code_challenge(verifier),
        code_challenge_method="S256",
    )
    raise web.HTTPSeeOther(url)


async def callback(request: web.Request) -> web.Response:
    """``GET /signin/callback?code&state``: Discord's answer; sign in, or ask which game to keep, or one sentence."""
    oauth = request.app.get(OAUTH)
    if oauth is None:
        raise Refusal(404, NOT_OFFERED)
    session = await session_of(request)
    expected, verifier = session.pop(_STATE, None), session.pop(_VERIFIER, None)
    state = request.query.get("state", "")
    if (not isinstance(expected, str) or not isinstance(verifier, str) or not state or len(state) > MAX_STATE
            or not hmac.compare_digest(state.encode(), expected.encode())):
        raise Refusal(400, BAD_STATE, save_session=True)
    if "error" in request.query:
        if request.query["error"] == "access_denied":
            raise Refusal(403, REFUSED, save_session=True)
        raise Refusal(400, FAILED, save_session=True)
    code = request.query.get("code", "")
    if not 0 < len(code) <= MAX_CODE or not code.isascii() or not code.isprintable():
        raise Refusal(400, FAILED, save_session=True)
    try:
        _token, user = await oauth.sign_in(code, redirect_uri=_redirect_uri(request), code_verifier=verifier)
    except SignInError as error:
        raise Refusal(error.status, WEB_BAD_CODE if error.message == BAD_CODE else error.message,
                      save_session=True) from None
    service = request.app[SERVICE]
    player = Actor(DISCORD, user.id, user.name)
    link = Link(user.id, await service.sign_in(player), user.name)
    had = await guest_behind(request)
    guest_game = None if had is None or had.platform == DISCORD else await service.show(had)
    if guest_game is not None and guest_game.status is GameStatus.ACTIVE and guest_game.game is not None:
        own = await service.show(player)
        if own.status is GameStatus.ACTIVE and own.game is not None:
            session[_PENDING] = [link.user_id, link.player_id, link.name, time.time()]
            language = reader(request)
            guest_line = language.say(_(CHOICE_GUEST, game=_named(guest_game), score=guest_game.game.score))
            discord_line = language.say(_(CHOICE_DISCORD, name=user.name, game=_named(own), score=own.game.score))
            page = CHOICE_PAGE.format(
                lang=html.escape(language.language), title=html.escape(language.say(CHOICE_TITLE)),
                guest=html.escape(guest_line), discord=html.escape(discord_line),
                csrf=html.escape(await csrf_token(request)),
                keep=html.escape(language.say(KEEP_DISCORD)), keep_note=html.escape(language.say(KEEP_DISCORD_NOTE)),
                bring=html.escape(language.say(BRING_OVER)), bring_note=html.escape(language.say(BRING_OVER_NOTE)),
            )
            return web.Response(text=page, content_type="text/html", headers={"Cache-Control": "no-store"})
    kept = guest_game is not None and guest_game.game is not None
    await sign_in(request, link, notice=SIGNED_IN_OVER_GUEST if kept else SIGNED_IN)
    raise web.HTTPSeeOther(request.app.router["table"].url_for())


def _named(reply: Reply) -> str:
    """A game in progress as the choice names it: its variant and deal (an open challenge's attempt: its label)."""
    assert reply.game is not None
    return f"{reply.game.title}, {reply.label}" if reply.label else f"{reply.game.title} {reply.game.deal}"


async def choose(request: web.Request) -> web.Response:
    """``POST /signin/choice`` (``keep=discord`` or ``keep=guest``, with the CSRF token): sign in, that game shown."""
    form = await request.post()
    session = await session_of(request)
    pending = session.pop(_PENDING, None)
    if (not isinstance(pending, list) or len(pending) != 4 or not isinstance(pending[0], str)
            or not isinstance(pending[1], int) or not isinstance(pending[2], str)
            or not isinstance(pending[3], (int, float)) or time.time() - pending[3] > CHOICE_SECONDS):
        raise Refusal(400, NO_CHOICE, save_session=True)
    keep = form.get("keep")
    if keep not in ("discord", "guest"):
        session[_PENDING] = pending
        raise Refusal(400, NO_CHOICE, save_session=True)
    link = Link(pending[0], pending[1], pending[2])
    service = request.app[SERVICE]
    player = Actor(DISCORD, link.user_id, link.name)
    if await service.player_id(player) != link.player_id:
        raise Refusal(410, CHOICE_FORGOTTEN, save_session=True)
    notice = KEPT_DISCORD
    if keep == "guest":
        had = await guest_behind(request)
        if had is not None and had.platform != DISCORD and await service.bring_over(had, player):
            notice = BROUGHT_OVER
        else:
            notice = SIGNED_IN
    await sign_in(request, link, notice=notice)
    raise web.HTTPSeeOther(request.app.router["table"].url_for())


async def sign_out(request: web.Request) -> web.Response:
    """``POST /signout`` (a form with the CSRF token): back to this browser's guest and the guest's game."""
    await back_to_guest(request, notice=SIGNED_OUT)
    raise web.HTTPSeeOther(request.app.router["table"].url_for())


async def account(request: web.Request, token: str) -> str:
    """The page's sign-in control, as HTML: Sign out when signed in, else Sign in with Discord when offered."""
    language = reader(request)
    if await signed_in_link(request) is not None:
        return (f'<form method="post" action="signout" class="account"><input type="hidden" name="csrf" '
                f'value="{html.escape(token)}"><button type="submit" class="quiet">'
                f'{html.escape(language.say(SIGN_OUT_BUTTON))}</button></form>')
    if OAUTH in request.app:
        return f'<a class="account" href="signin">{html.escape(language.say(SIGN_IN_BUTTON))}</a>'
    return ""
