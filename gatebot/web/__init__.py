"""The web table: gatebot played in a browser, over the same service as the bot and the terminal.

A front end beside :mod:`gatebot.bot` and :mod:`gatebot.terminal` (it never imports the bot):
:func:`~gatebot.web.app.build_app` makes the aiohttp application, :mod:`gatebot.web.serve` runs
it, alone (``gatebot web``) or on the bot's loop (``gatebot run`` with WEB_PORT). The page
itself is ``static/``: plain HTML, CSS and JavaScript modules, no build step.
"""

from gatebot.web.app import build_app
from gatebot.web.serve import cookie_key, serve_alone, start

__all__ = ["build_app", "cookie_key", "serve_alone", "start"]
