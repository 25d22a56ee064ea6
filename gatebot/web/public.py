"""Public pages, no sign-in needed: a server challenge's standings, and a finished game's replay viewer.

They show what chat shows anyone, and refuse what chat would refuse, with one sentence:

- ``GET /challenges/<id>``: a challenge named, its state, its rules and its standings
  (:meth:`~gatebot.service.challenges.ChallengeService.standings`, the ranking of
  ``/challenge leaderboard``). While it is open (or not open yet) its deal is never named and no
  attempt links to its replay; once it has closed, the deal is named and each finished attempt
  links to its replay. A player who used forget-me has no rows left, so is on no page.
- ``GET /replay/<game>`` and its frames ``GET /api/replay/<game>``: the replay of a finished
  game, for whoever :meth:`~gatebot.service.replays.Replays.replay` lets watch it, as ``/gate
  replay`` with a game id decides in chat: anyone, for an attempt at a challenge that has
  closed; the visitor's own guest, for their own finished games. Everything else (a game still
  being played, an attempt at a challenge still open, another player's ordinary game, a game
  that doesn't exist or whose player was forgotten) is the same 404 and the same sentence, so a
  refusal says nothing about the game. Each frame is the player's view of that position
  (:func:`gatebot.render.view.replay_view`): no face-down card, no stock order.

Pages are HTML made here, every piece of user text (a challenge's or a player's name) escaped,
in the reader's language (``Accept-Language``); the replay's controls are a plain JavaScript
module (``static/replay.js``), under the same strict CSP as the table.
"""

from __future__ import annotations

import html
import json
from datetime import datetime

from aiohttp import web

from gatebot.locale import Translator
from gatebot.messages import N_, Day, _, n_
from gatebot.render.card import duration
from gatebot.render.replay import frame_steps
from gatebot.render.view import replay_view
from gatebot.service.attempts import when
from gatebot.service.challenges import ChallengeError, ChallengeInfo, ChallengeService, Leaderboard, Standing
from gatebot.service.replays import GameReplay, ReplayRefused, step_line, title_line
from gatebot.store.models import GameStatus
from gatebot.web.api import SERVICE
from gatebot.web.guests import known_guest, reader
from gatebot.web.refusal import Refusal
from gatebot.web.words import script_words

CHALLENGES = web.AppKey("challenges", ChallengeService)
#: Rows on one page of a challenge's standings.
ROWS = 50
#: The one sentence of every refused replay: it says nothing about the game asked for.
NO_REPLAY = N_("There is no replay to show here: a game can be watched once it is over, by its player, "
               "or by anyone once its challenge has closed.")
NO_CHALLENGE = N_("There is no challenge by that number.")
#: The columns a phone leaves out (hints and undos: the moves column counts what they cost).
MINOR = ' class="minor"'
#: The ids a page accepts: positive, within a database integer.
LARGEST_ID = 2**63 - 1

PAGE = """<!doctype html>
<html lang="{lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<meta name="color-scheme" content="light dark">
<title>{title}</title><link rel="stylesheet" href="../static/table.css">{script}</head>
<body class="public" data-words="{words}">
{body}
<footer class="foot"><a href="../">{back}</a></footer>
</body></html>
"""


def _id(request: web.Request, name: str, refusal: str) -> int:
    """The number a page's address names; the page's 404 sentence when it can't be one."""
    number = int(request.match_info[name])
    if not 1 <= number <= LARGEST_ID:
        raise Refusal(404, refusal)
    return number


def _page(language: Translator, title: str, body: str, *, script: str | None = None) -> web.Response:
    """A whole page: ``title`` (plain text, escaped here) and ``body`` (HTML, already escaped)."""
    tag = f'\n<script type="module" src="../static/{script}"></script>' if script else ""
    # The board's words (a card's spoken name...) for the replay's board.js, as the table page has them.
    words = html.escape(json.dumps(script_words(language), ensure_ascii=False, separators=(",", ":")))
    text = PAGE.format(lang=html.escape(language.language), title=html.escape(title), script=tag, body=body,
                       back=html.escape(language.say(_("Play at the table"))), words=words)
    return web.Response(text=text, content_type="text/html", headers={"Cache-Control": "no-store"})


# -- a challenge's standings -----------------------------------------------------------------


async def challenge_page(request: web.Request) -> web.Response:
    """``GET /challenges/<id>``: a challenge's standings; the deal and replays only once it has closed."""
    number = _id(request, "challenge", NO_CHALLENGE)
    page = request.query.get("page", "1")
    shown = int(page) - 1 if page.isdigit() and len(page) < 7 else 0
    challenges = request.app[CHALLENGES]
    try:
        board = await challenges.standings(number, page=shown, size=ROWS)
    except ChallengeError:
        raise Refusal(404, NO_CHALLENGE) from None
    language = reader(request)
    info = board.challenge
    body = _standings(board, challenges.now(), language)
    return _page(language, f"{info.name} · gatebot", body)


def _state(info: ChallengeInfo, now: datetime) -> tuple[str, str]:
    """What is said of a challenge's game and its state: the deal only once it has closed."""
    if info.is_closed(now):
        game = _("{game} deal {deal}", game=info.title, deal=info.deal)
        return game, _("closed {when}", when=Day.of(info.closed_at or info.closes_at))
    if info.is_upcoming(now):
        return info.title, _("not open yet: it opens {when}", when=when(info.opens_at, now))
    return info.title, _("open, closes {when}", when=when(info.closes_at, now))


def _standings(board: Leaderboard, now: datetime, language: Translator) -> str:
    say = language.say
    info = board.challenge
    closed = info.is_closed(now)
    game, state = _state(info, now)
    e = html.escape
    which = say(_("challenge {number}", number=info.id))
    parts = [
        '<header class="bar">',
        f"<h1>{e(info.name)}</h1>",
        f'<p class="facts">{e(which)} · {e(say(game))} · {e(say(info.rules_line))} · '
        f'<span id="state">{e(say(state))}</span></p>',
        "</header>",
        '<main class="public-main">',
    ]
    if not board.total:
        nobody = _("Nobody played it.") if closed else _("Nobody has played it yet.")
        parts.append(f"<p>{e(say(nobody))}</p>")
    else:
        heads = [_("Rank"), _("Player"), _("Result"), _("Moves"), _("Hints"), _("Undos"), _("Time")]
        if closed:
            heads.append(_("Replay"))
        caption = n_("Standings ({n} player)", "Standings ({n} players)", board.total)
        # A phone's narrow screen scrolls the table sideways (a region the keyboard reaches) and drops hints and undos.
        parts.append(f'<div class="scroll" role="region" tabindex="0" aria-label="{e(say(caption))}">'
                     f'<table class="standings"><caption>{e(say(caption))}</caption><thead><tr>')
        parts.extend(f'<th scope="col"{MINOR if index in (4, 5) else ""}>{e(say(head))}</th>'
                     for index, head in enumerate(heads))
        parts.append("</tr></thead><tbody>")
        parts.extend(_row(standing, closed, language) for standing in board.standings)
        parts.append("</tbody></table></div>")
        if board.pages > 1:
            parts.append(_pages(board, language))
    parts.append("</main>")
    return "\n".join(parts)


def _row(standing: Standing, closed: bool, language: Translator) -> str:
    """One attempt: its rank, its player's name (escaped), its result, counts and time; its replay once closed."""
    say = language.say
    cards = n_("{n} card home", "{n} cards home", standing.score)
    if standing.won:
        result = _("won")
    elif standing.playing:
        result = _("playing, {cards}", cards=cards)
    elif standing.status is GameStatus.EXPIRED:
        result = _("{cards} (time ran out)", cards=cards)
    else:
        result = cards
    moves = str(standing.moves)
    if standing.ranked_moves != standing.moves:
        moves += " " + say(_("(+{n} counted)", n=standing.ranked_moves - standing.moves))
    cells = [str(standing.rank), html.escape(standing.name), html.escape(say(result)), html.escape(moves),
             str(standing.hints), str(standing.undos), duration(standing.seconds)]
    if closed:
        link = ""
        if standing.game_id is not None and standing.status.finished:
            label, watch = say(_("Replay of {name}'s attempt", name=standing.name)), say(_("Watch"))
            link = f'<a href="../replay/{standing.game_id}" aria-label="{html.escape(label)}">{html.escape(watch)}</a>'
        cells.append(link)
    first, *rest = cells
    rest_cells = "".join(f"<td{MINOR if index in (3, 4) else ''}>{cell}</td>" for index, cell in enumerate(rest))
    return f'<tr><th scope="row">{first}</th>{rest_cells}</tr>'


def _pages(board: Leaderboard, language: Translator) -> str:
    said = {key: html.escape(language.say(words)) for key, words in (
        ("prev", _("Previous page")), ("next", _("Next page")), ("pages", _("Pages")),
        ("here", _("Page {page} of {pages}", page=board.page + 1, pages=board.pages)))}
    links = []
    if board.page > 0:
        links.append(f'<a href="?page={board.page}" rel="prev">{said["prev"]}</a>')
    links.append(said["here"])
    if board.page + 1 < board.pages:
        links.append(f'<a href="?page={board.page + 2}" rel="next">{said["next"]}</a>')
    return f'<nav class="pages" aria-label="{said["pages"]}">' + " · ".join(links) + "</nav>"


# -- a finished game's replay ----------------------------------------------------------------


async def _replay(request: web.Request) -> GameReplay:
    """The replay the visitor may watch, or the one 404 sentence (whatever the reason)."""
    number = _id(request, "game", NO_REPLAY)
    try:
        replay = await request.app[SERVICE].replays.replay(await known_guest(request), number)
    except ReplayRefused:
        raise Refusal(404, NO_REPLAY) from None
    if replay.secret is not None:  # an attempt at a challenge still open: its deal is nobody's to see here
        raise Refusal(404, NO_REPLAY)
    return replay


async def replay_page(request: web.Request) -> web.Response:
    """``GET /replay/<game>``: the viewer's page (its frames come from ``/api/replay/<game>``)."""
    replay = await _replay(request)
    language = reader(request)
    say = language.say
    e = html.escape
    labels = {"first": _("First step"), "back": _("Step back"), "play": _("Play"), "pause": _("Pause"),
              "next": _("Step forward"), "last": _("Last step"), "board": _("The table at this step"),
              "controls": _("Replay"), "step": _("Step"), "title": title_line(replay)}
    said = {key: e(say(label)) for key, label in labels.items()}
    body = f"""<header class="bar"><h1 id="title">{said['title']}</h1></header>
<main class="public-main" id="replay" data-game="{replay.game_id}" data-play="{said['play']}" \
data-pause="{said['pause']}">
  <div id="board" class="board" role="group" aria-label="{said['board']}"></div>
  <p id="step" class="message" role="status" aria-live="polite"></p>
  <div class="replay-controls" role="group" aria-label="{said['controls']}">
    <button type="button" id="first" aria-label="{said['first']}" title="{said['first']} (Home)">|◀</button>
    <button type="button" id="back" aria-label="{said['back']}" title="{said['back']} (←)">◀</button>
    <button type="button" id="play" class="wide" title="{said['play']} (Space)">{said['play']}</button>
    <button type="button" id="next" aria-label="{said['next']}" title="{said['next']} (→)">▶</button>
    <button type="button" id="last" aria-label="{said['last']}" title="{said['last']} (End)">▶|</button>
    <label class="scrub">{said['step']} <input type="range" id="scrub" min="0" max="0" value="0"></label>
  </div>
</main>"""
    return _page(language, say(title_line(replay)), body, script="replay.js")


async def replay_frames(request: web.Request) -> web.Response:
    """``GET /api/replay/<game>``: the replay's frames, each the player's view then, with its step in words."""
    replay = await _replay(request)
    language = reader(request)
    steps = frame_steps(len(replay.positions))
    data = replay_view(replay.positions, steps, status=replay.status.value)
    for frame in data["frames"]:
        frame["line"] = language.say(step_line(replay, frame["step"]))
    data["game"] = replay.game_id
    data["heading"] = language.say(title_line(replay))
    response = web.json_response(data, headers={"Cache-Control": "no-store"})
    response.enable_compression()
    return response

