"""The web table's one error boundary: every failure becomes a page or a JSON answer of one sentence.

In this order: a :class:`~gatebot.web.guard.Refusal` (a check said no) and a
:class:`~gatebot.errors.UserError` (bad input) are said as they are, in the reader's language;
an HTTP error aiohttp raised (a 404, a 405, a body over the size limit) gets the sentence for
its status; anything else is logged with its traceback and answered with a short apology. No
traceback, exception text or internal name ever reaches the browser. Under ``/api/`` the answer
is ``{"error": "<sentence>"}``, elsewhere a small HTML page that says what to do.
"""

from __future__ import annotations

import html
import logging

from aiohttp import web
from aiohttp.typedefs import Handler
from aiohttp_session import SESSION_KEY, STORAGE_KEY

from gatebot.errors import UserError
from gatebot.messages import N_, message_of
from gatebot.web.guests import reader
from gatebot.web.refusal import Refusal

log = logging.getLogger(__name__)

#: What each HTTP error says, by status; others say :data:`APOLOGY`.
SENTENCES = {
    400: N_("That request couldn't be read: reload the page and try again."),
    404: N_("There is nothing here: the table is at the start page."),
    405: N_("That page can't be used that way: go back to the table."),
    413: N_("That request is too large: a move is only a few characters."),
    415: N_("Send the request as JSON (Content-Type: application/json)."),
}
APOLOGY = N_("Something went wrong on our side and nothing was changed: please try again in a moment.")
PAGE = """<!doctype html>
<html lang="{lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>gatebot</title><link rel="stylesheet" href="/static/table.css"></head>
<body class="error-page"><main><h1>{status}</h1><p>{sentence}</p><p><a href="/">{back}</a></p></main></body></html>
"""
BACK = N_("Back to the table")


def failure(request: web.Request, status: int, message: str) -> web.Response:
    """The answer to a failed request: ``message`` said in the reader's language, as JSON or a page."""
    language = reader(request)
    sentence = language.say(message)
    if request.path.startswith("/api/"):
        return web.json_response({"error": sentence}, status=status)
    page = PAGE.format(lang=html.escape(language.language), status=status, sentence=html.escape(sentence),
                       back=html.escape(language.say(BACK)))
    return web.Response(text=page, status=status, content_type="text/html")


@web.middleware
async def error_boundary(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Turn whatever a handler raises into one sentence for its reader (see the module's order)."""
    try:
        return await handler(request)
    except Refusal as refusal:
        response = failure(request, refusal.status, refusal.message)
        session, storage = request.get(SESSION_KEY), request.get(STORAGE_KEY)
        if refusal.save_session and session is not None and storage is not None:
            await storage.save_session(request, response, session)
        return response
    except UserError as error:
        return failure(request, 400, message_of(error))
    except web.HTTPException as error:
        if error.status < 400:
            raise
        return failure(request, error.status, SENTENCES.get(error.status, APOLOGY))
    except Exception:
        log.exception("the web request %s %s failed", request.method, request.path)
        return failure(request, 500, APOLOGY)
