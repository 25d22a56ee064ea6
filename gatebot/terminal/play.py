"""The terminal game loop: read a line, play it or answer it, show the board, repeat.

Streams are passed in, so tests drive a whole game with ``io.StringIO`` and the CLI passes
``sys.stdin`` and ``sys.stdout``. A line that is not a command goes to the move language
(:meth:`Game.play_line`), so everything a player may type in chat works here too.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from typing import TextIO

from gatebot.render import render_text
from gatebot.rules import GateGame, Move, describe_move
from gatebot.terminal.guide import HELP_TEXT, rules_text

_QUIT = frozenset({"quit", "exit", "q"})
_UNDO = frozenset({"undo", "u"})
_TIP = "Type a move (d, 3f, w5, 37), or help, moves, undo, quit."


def run_game(game: GateGame, stdin: TextIO, stdout: TextIO, *, interactive: bool, colour: bool,
             compact: bool) -> int:
    """Play ``game`` with a person on ``stdin``/``stdout`` until it ends, they quit or input ends.

    ``interactive`` shows a prompt (for a terminal); piped input gets the boards and
    messages without prompts. ``game`` is played in place. Returns the exit code, 0.
    """
    session = _Session(game, stdout, colour=colour, compact=compact)
    session.show_board()
    if session.finished():
        return 0
    if interactive:
        session.say(_TIP)
    for line in _read_lines(stdin, stdout, f"{game.name}> " if interactive else ""):
        if not session.handle(line.strip()):
            break
        if session.finished():
            break
    return 0


class _Session:
    """One game at the terminal: the commands and how their results are written."""

    def __init__(self, game: GateGame, stdout: TextIO, *, colour: bool, compact: bool) -> None:
        self.game = game
        self.stdout = stdout
        self.colour = colour
        self.compact = compact

    def say(self, text: str) -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def show_board(self) -> None:
        self.say("\n" + render_text(self.game, compact=self.compact, colour=self.colour))

    def handle(self, line: str) -> bool:
        """Carry out one line; False when the player wants to stop."""
        if not line:
            return True
        words = line.lower().split()
        command = words[0] if len(words) == 1 else ""
        if command in _QUIT:
            return False
        if words[0] in _UNDO:
            self.undo(words[1:])
        elif command in ("help", "h", "?"):
            self.say(HELP_TEXT)
        elif command == "rules":
            self.say(rules_text(self.game))
        elif command == "moves":
            self.list_moves()
        elif command == "board":
            self.show_board()
        else:
            self.play(line)
        return True

    def play(self, line: str) -> None:
        """Play a line of moves, then show the board, what was played, any fills and any error."""
        shadow = self.game.copy()  # replays the moves one by one to see each automatic fill
        result = self.game.play_line(line)
        notes = []
        for move in result.played:
            before = shadow.copy()
            shadow.push(move)
            note = fill_note(before, shadow, move)
            if note and not self.game.is_won:
                notes.append(note)
        self.show_board()
        if result.played:
            self.say("Played " + ", ".join(map(str, result.played)) + ".")
        for note in notes:
            self.say(note)
        if result.error is not None:
            reason = _sentence(str(result.error))
            self.say(f"Then: {reason}" if result.played else reason)

    def undo(self, args: list[str]) -> None:
        """Take back one move, or as many as asked (all there are, if that is fewer)."""
        if len(args) > 1 or (args and not (args[0].isdigit() and int(args[0]) > 0)):
            self.say("Say undo to take back one move, or undo and a number, like undo 3.")
            return
        wanted = int(args[0]) if args else 1
        taken = [self.game.undo() for _ in range(min(wanted, len(self.game.moves)))]
        if not taken:
            self.say("There is no move to take back.")
            return
        self.show_board()
        short = " (that was every move)" if len(taken) < wanted else ""
        self.say("Took back " + ", ".join(map(str, taken)) + short + ".")

    def list_moves(self) -> None:
        """Every legal move: its token, then the move in words."""
        moves = self.game.legal_moves()
        if not moves:
            self.say("No legal move is left.")
            return
        width = max(len(str(move)) for move in moves)
        self.say(f"Legal moves ({len(moves)}):")
        for move in moves:
            self.say(f"  {str(move).ljust(width)}  {describe_move(self.game, move)}")

    def finished(self) -> bool:
        """If the game is over, say how it ended and return True."""
        outcome = self.game.outcome()
        if outcome is None:
            return False
        deal = "this position" if self.game.deal is None else f"deal {self.game.deal}"
        count = len(self.game.moves)
        if outcome.won:
            self.say(f"You won {deal} in {count} move{'s' if count != 1 else ''}: score 52/52.")
        else:
            self.say(f"No legal move is left, so {deal} ends here with score {outcome.score}/52.")
        return True


def fill_note(before: GateGame, after: GateGame, move: Move) -> str | None:
    """Say what happened to the column ``move`` emptied, if it emptied one (RULES.md §3 fill).

    The fill is automatic and easy to miss on a redrawn board, so the player is told which
    card came from where, or that the column is now a free space.
    """
    if not move.source.isdigit():
        return None
    index = int(move.source) - 1
    was, now = before.columns[index], after.columns[index]
    if now and now == was[: len(now)]:
        return None
    if not now:
        return f"Column {move.source} is a free space now: any card or run may go there."
    card = now[0]
    left, right = before.reserves
    if left and card == left[-1]:
        origin = "the left reserve"
    elif right and card == right[-1]:
        origin = "the right reserve"
    elif before.waste and card == before.waste[-1]:
        origin = "the waste"
    else:
        origin = "the stock"
    return f"{card.pretty} from {origin} fills column {move.source}."


def _sentence(text: str) -> str:
    """An error message as a sentence: a capital first and a full stop last."""
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def _read_lines(stdin: TextIO, stdout: TextIO, prompt: str) -> Iterator[str]:
    """Yield input lines until end of input, showing ``prompt`` before each read.

    On the real terminal this uses :func:`input`, which gives line editing and history
    when :mod:`readline` is available.
    """
    console = prompt and stdin is sys.stdin and stdout is sys.stdout
    if console:
        with contextlib.suppress(ImportError):
            import readline  # noqa: F401  (imported for its side effect on input())
    while True:
        if console:
            try:
                yield input(prompt)
            except EOFError:
                stdout.write("\n")
                return
            continue
        if prompt:
            stdout.write(prompt)
            stdout.flush()
        line = stdin.readline()
        if not line:
            if prompt:
                stdout.write("\n")
            return
        yield line

