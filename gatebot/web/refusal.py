"""A request refused: an HTTP status and the one sentence to say, raised by a check or a handler.

:mod:`gatebot.web.errors` turns it into a page or a JSON answer in the reader's language. Kept
apart from :mod:`gatebot.web.guard` so that who the visitor is (:mod:`gatebot.web.guests`) can
refuse a request too.
"""

from __future__ import annotations


class Refusal(Exception):
    """A request refused before (or by) its handler: an HTTP status and the one sentence to say.

    ``save_session``: the session was changed on the way (a sign-in that ended), and the
    refusal's answer carries it, so the next request sees the change.
    """

    def __init__(self, status: int, message: str, *, save_session: bool = False) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.save_session = save_session
