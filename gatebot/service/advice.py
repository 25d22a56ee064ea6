"""What the service says about a game's prospects: a hint in a sentence or two, the end-game offer."""

from __future__ import annotations

from gatebot.rules import Game, describe_move
from gatebot.solver import Hint, Outlook


def hint_message(game: Game, found: Hint, end_prompt: str) -> str:
    """The hint as a player reads it: the move, its token and why, then how the game looks after it.

    ``Hint: play A♦ from column 3 to the foundation (`3f`). It won 10 of 12 imagined
    shuffles of the stock.`` ``end_prompt`` says how this front end ends a game
    (``Press End game to finish``), for the sentence of a game that can no longer be won.
    """
    if found.move is None:
        if found.outlook is Outlook.LOST and game.has_legal_move():
            return no_win_message(game.score, end_prompt)
        return sentence(found.reason)
    move = found.move
    lead, why = _lead_and_why(found.reason, describe_move(game, move), draw=move.is_draw)
    first = f"Hint: {lead} (`{move}`)" + (f": {why}" if why else "") + "."
    outlook = _outlook(game, found, end_prompt)
    return f"{first} {outlook}" if outlook else first


def no_win_message(score: int, end_prompt: str) -> str:
    """The offer to end a game that can no longer be won, with its score.

    ``No win is left from here — 31 cards are home. Press End game to finish, or play on.``
    """
    return f"No win is left from here — {cards_home(score)}. {end_prompt}, or play on."


def cards_home(score: int) -> str:
    """``31 cards are home``, ``1 card is home``, ``no card is home``."""
    if score == 0:
        return "no card is home"
    return "1 card is home" if score == 1 else f"{score} cards are home"


def _outlook(game: Game, found: Hint, end_prompt: str) -> str:
    if found.outlook is Outlook.WINNABLE:
        return "Still winnable."
    if found.outlook is Outlook.LOST:
        return no_win_message(game.score, end_prompt)
    if found.outlook is Outlook.UNKNOWN:
        return "Every card is known, but I couldn't settle in time whether a win is left."
    if found.win_chance is None or found.samples <= 0:
        return ""
    won = round(found.win_chance * found.samples)
    return f"It won {won} of {found.samples} imagined {game.unseen_words}."


def _lead_and_why(reason: str, described: str, *, draw: bool) -> tuple[str, str]:
    """The hint's reason split into the move in words and why it helps (``Put A♦ up: it empties …``).

    The move part defaults to the move's plain description when the reason doesn't start
    with one of its own.
    """
    plain = "draw from the stock" if draw else f"play {described}"
    text = reason.strip().rstrip(".")
    head, colon, why = text.partition(": ")
    if not colon:
        head, why = text, ""
    if head.lower() in (described.lower(), plain.lower()) or not colon:
        lead = plain
        if head.lower() not in (described.lower(), plain.lower()):
            why = _lower_first(head)
    else:
        lead = _lower_first(head)
    return lead, why.strip()


def _lower_first(text: str) -> str:
    """``Put A♦ up`` → ``put A♦ up``; a card name (``A♦ from …``) keeps its capital."""
    if len(text) > 1 and text[0].isupper() and text[1].islower():
        return text[0].lower() + text[1:]
    return text


def sentence(text: str) -> str:
    """``text`` with a capital first letter and a full stop."""
    text = text.strip()
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."
