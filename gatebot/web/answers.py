"""A service reply as the web table's JSON: the player's view, the sentence said in their language, and its status.

The view is :func:`gatebot.render.view.board_view`'s, so nothing the player can't see is in it.
A refused move answers 422 and a move from an out-of-date page 409, each with the board as it
is now, so the page redraws what is stored: nothing lost, nothing played twice.
"""

from __future__ import annotations

from typing import Any

from aiohttp import web

from gatebot.locale import Translator
from gatebot.render.view import board_view
from gatebot.service import Reply, ReplyKind

#: The HTTP status of each kind of reply.
STATUS = {
    ReplyKind.BOARD: 200,
    ReplyKind.HINT: 200,
    ReplyKind.CONFIRM: 200,
    ReplyKind.STALE: 409,
    ReplyKind.ERROR: 422,
}


def payload(reply: Reply, language: Translator) -> dict[str, Any]:
    """What the page is told of ``reply``: its kind, its sentence, the view and the player's drawing preferences."""
    data: dict[str, Any] = {
        "kind": reply.kind.value,
        "message": language.say(reply.message) if reply.message else None,
        "saved": reply.saved,
        "view": view_of(reply),
    }
    if reply.suggestion is not None:
        data["suggestion"] = reply.suggestion
    if reply.preferences is not None:
        data["four_colour"] = reply.preferences.four_colour
    if reply.kind in (ReplyKind.STALE, ReplyKind.ERROR):
        data["error"] = data["message"]
    return data


def view_of(reply: Reply) -> dict[str, Any] | None:
    """The board of ``reply`` as its player sees it, or None when it carries no game."""
    if reply.game is None or reply.status is None:
        return None
    view = board_view(reply.game, version=reply.version, status=reply.status.value, actions=reply.actions,
                      label=reply.label)
    # The stored game's id (its own player's, as in `replay --game N`): with the version, it orders the
    # views a page receives, since a later deal always has a larger id.
    view["game"] = reply.game_id
    return view


def answer(reply: Reply, language: Translator) -> web.Response:
    """The JSON response to a request the service answered with ``reply``."""
    return web.json_response(payload(reply, language), status=STATUS[reply.kind])
