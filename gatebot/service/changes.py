"""What a request does to a game and to its row: moves played or taken back, and the game replayed from its log.

A request's change is worked out on a copy of the game (an :data:`Apply`), then turned into
the row's new values (:func:`progress`), which the store writes in one guarded statement
(:func:`gatebot.store.games.save_progress`).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from gatebot.messages import _, message_of, n_
from gatebot.rules import Game, Move, RulesError
from gatebot.rules.autoplay import autoplay
from gatebot.service.advice import join, sentence
from gatebot.service.attempts import AttemptRules
from gatebot.service.lines import MAX_MOVES, too_many_moves
from gatebot.store.games import Progress
from gatebot.store.models import GameRecord, GameStatus

UNDO_TOKEN = "u"
#: What a request does to a game: the tokens it played (``u`` for an undo) and its sentence, if
#: any (what stopped it; for an undo, what was taken back). It is given the attempt's challenge
#: rules, None outside challenges.
Apply = Callable[[Game, AttemptRules | None], tuple[list[str], str | None]]


class GameDamaged(Exception):
    """A stored game that can't be replayed from its deal and log."""


def play_line(text: str) -> Apply:
    """Play a typed line, at most :data:`~gatebot.service.lines.MAX_MOVES` of its moves."""

    def apply(game: Game, _attempt: AttemptRules | None) -> tuple[list[str], str | None]:
        result = game.play_line(text)
        played = [str(move) for move in result.played]
        error = None if result.error is None else sentence(message_of(result.error))
        if len(played) > MAX_MOVES:
            for _ in range(len(played) - MAX_MOVES):
                game.undo()
            played, error = played[:MAX_MOVES], too_many_moves()
        return played, error

    return apply


def undo(count: int) -> Apply:
    """Take back up to ``count`` moves, saying which; in a challenge, none that turned up a stock card."""

    def apply(game: Game, attempt: AttemptRules | None) -> tuple[list[str], str | None]:
        if not game.moves:
            return [], _("There is no move to take back.")
        if attempt is not None and not attempt.undo_allowed:
            return [], attempt.no_undo()
        taken: list[str] = []
        while len(taken) < count and game.moves:
            if attempt is not None and not attempt.can_undo(game):
                return [UNDO_TOKEN] * len(taken), join(took_back(taken) if taken else None, attempt.undo_stops())
            taken.append(str(game.undo()))
        every = len(taken) < count
        return [UNDO_TOKEN] * len(taken), took_back(taken, every=every)

    return apply


def cannot_restart(game: Game, attempt: AttemptRules | None) -> str | None:
    """Why ``game`` can't start over from its deal (a challenge attempt, or no move to take back); None if it can."""
    if attempt is not None:
        return _("An attempt at {name} is played once, from its deal: it can't start over.", name=attempt.name)
    if not game.moves:
        return _("There is no move to take back: the cards are as they were dealt.")
    return None


def restart_question(game: Game) -> str:
    """The question before a game starts over, saying what it costs: every move taken back, as undos."""
    return n_(
        "Restart deal {deal}? You keep the same cards; your {n} move is taken back, counted as an undo.",
        "Restart deal {deal}? You keep the same cards; your {n} moves are taken back, counted as undos.",
        len(game.moves), deal=game.deal,
    )


def restart(game: Game, attempt: AttemptRules | None) -> tuple[list[str], str | None]:
    """Take every move back, the deal as it was dealt: an undo of each (as honest as ``undo`` with that many).

    Refused, with nothing taken back, in a challenge attempt (undo there never goes past a
    seen card, and the deal is played once) and when no move was played.
    """
    refusal = cannot_restart(game, attempt)
    if refusal is not None:
        return [], refusal
    taken = 0
    while game.moves:
        game.undo()
        taken += 1
    return [UNDO_TOKEN] * taken, n_(
        "Back to the deal as it was dealt: {n} move taken back.",
        "Back to the deal as it was dealt: {n} moves taken back.", taken,
    )


def took_back(taken: list[str], *, every: bool = False) -> str:
    """``Took back 3f and d.``: the moves an undo took back, last first (``every``: that was all of them)."""
    if len(taken) == 1:
        named: str = taken[0]
    else:
        named = _("{moves} and {last}", moves=", ".join(taken[:-1]), last=taken[-1])
    if every:
        return _("Took back {moves} (that was every move).", moves=named)
    return _("Took back {moves}.", moves=named)


def auto(game: Game, _attempt: AttemptRules | None) -> tuple[list[str], str | None]:
    """Play every card that can safely go to the foundations."""
    played = [str(move) for move in autoplay(game)]
    return played, None if played else _("No card can go to the foundations safely right now.")


def move_count(game: Game) -> int:
    """The one move count a player reads: the moves of the game's line as it stands.

    A move taken back no longer counts (it is gone from the board's line), and a draw is a
    move like any other. The board's header counts the same (``len(game.moves)``); the win
    sentence, the stored ``move_count`` and so the result card, the statistics and the
    challenge leaderboards all come from here. A challenge that counts undos or hints adds
    one per use for its ranking only (:func:`gatebot.service.attempts.penalty`).
    """
    return len(game.moves)


def status_of(game: Game) -> GameStatus:
    """Won once every card is home, lost once no legal move is left, else still active."""
    if game.is_won:
        return GameStatus.WON
    return GameStatus.ACTIVE if game.has_legal_move() else GameStatus.LOST


def progress(
    log: str, lost: bool, game: Game, tokens: list[str], now: datetime, *, proved: bool = False,
    position: str | None = None,
) -> Progress:
    """The row's new values after ``tokens`` took a game whose log was ``log`` to ``game``.

    A stored proof that no win is left (``lost``) stays through plays (a position played on
    from a lost one is lost too) and goes with an undo; ``proved``: the solver already proved
    the new position lost. ``position`` is ``game.to_text()`` when the caller has it already.
    """
    undos = tokens.count(UNDO_TOKEN)
    return Progress(
        log=f"{log} {' '.join(tokens)}".strip(), position=game.to_text() if position is None else position,
        score=game.score,
        status=status_of(game), move_count=move_count(game), undos=undos,
        proved_lost=(lost and not undos) or proved, now=now,
    )


def finish(record: GameRecord, status: GameStatus, now: datetime) -> None:
    """End a game row now with ``status`` (resigned, abandoned, expired)."""
    record.status = status
    record.finished_at = record.updated_at = now


def replay(record: GameRecord) -> Game:
    """Rebuild a stored game from its variant, options, deal and log; :class:`GameDamaged` if impossible."""
    try:
        game = Game.new(record.variant, deal=record.deal, options=record.options.split())
        for token in record.log.split():
            if token == UNDO_TOKEN:
                game.undo()
            else:
                game.play(Move.from_text(token))
    except (RulesError, ValueError) as error:
        raise GameDamaged(str(error)) from error
    return game


def outcome_message(status: GameStatus, message: str | None, move_count: int, score: str) -> str | None:
    """The reply's line after a change: the error that stopped a line of moves, or how the game ended.

    A game with no move left says so on its board's last line (``Game over: no move left. Score
    12/52.``; the web table in its own words), so its line is only the error, if any: said once. A
    win's line here is a stand-in: the service puts the one win message in its place once the win is
    saved. ``score`` is worded as the board shows it (:func:`~gatebot.service.variants.score_words`).
    """
    if status is GameStatus.WON:
        return _("You won with a score of {score} in {moves} moves.", score=score, moves=move_count)
    return message
