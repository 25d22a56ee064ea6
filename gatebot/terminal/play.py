"""The terminal game loop: read a line, hand it to the game service, show its reply, repeat.

Nothing here changes a game. Every move, undo, resignation and new deal is a request to
:class:`~gatebot.service.GameService`, which saves it before it answers, and the board
drawn is always the reply's game, so what the player sees is what is stored: quitting,
Ctrl-C or the end of piped input loses nothing. A line that is not a command goes to the
move language, so everything a player may type in chat works here too.
"""

from __future__ import annotations

import difflib
import re
from typing import TextIO

from gatebot.digits import parse_whole
from gatebot.errors import UserError
from gatebot.locale.commands import command_of, words_for
from gatebot.messages import N_, Text, _, joined, message_of
from gatebot.render import render_spoken, render_text
from gatebot.render.card import render_card
from gatebot.rules import Game, describe_move
from gatebot.rules.notation import split_phrases
from gatebot.service import Actor, GameService, Reply, ReplyKind
from gatebot.service.history import History, history_text
from gatebot.service.stats import Statistics, stats_text
from gatebot.store.models import GameStatus
from gatebot.terminal.console import LineReader
from gatebot.terminal.guide import help_text, rules_said
from gatebot.terminal.notes import fill_notes
from gatebot.terminal.request import Screen, parse_new
from gatebot.terminal.text import plain, wrap

_QUIT = frozenset({"quit", "exit", "q"})
_UNDO = frozenset({"undo", "u"})
_HELP = frozenset({"help", "h", "?"})
_RESTART = frozenset({"restart"})
#: A yes, in English or German (the prompt asks in the terminal's language).
_YES = frozenset({"yes", "y", "ja", "j"})
_ENDED = frozenset({GameStatus.WON, GameStatus.LOST, GameStatus.RESIGNED})
#: The commands the first tip lists, in the terminal's language (German: hilfe, tipp, zurück, neu…).
# TRANSLATORS: the terminal's commands, as a player types them: use the words gatebot/locale/commands.py reads.
_COMMANDS = _("help, moves, hint, undo, restart, new, resign, stats, games, card, quit")
#: The words a mistyped command is compared with, in every language (the one-letter ones are too short to guess).
_COMMAND_WORDS = words_for({"quit", "exit", "undo", "help", "rules", "moves", "board", "resign", "hint", "stats",
                            "games", "card", "auto", "new", "end", "restart"})
_WORD = re.compile(r"[^\W\d_]{3,}")  # a word of letters, umlauts too
_AGAIN = N_("Play again? [y/N] ")
_NO_GAME = N_("You have no game in progress: start one with new.")


def watch(game: int) -> str:
    """How to replay a game by its number, as typed in the terminal: the last line of a page of games."""
    return _("Watch one again: gatebot replay --game {game}", game=game)


class TerminalGame:
    """One player at the terminal: turns each line into a service request and shows the reply.

    ``variant`` and ``options`` are what ``new`` deals when no game is on the board (one
    was set aside as unreadable); otherwise ``new`` deals the variant being played.
    ``statistics`` answers ``stats`` and ``card`` (default: read from the service's database).
    """

    def __init__(self, service: GameService, actor: Actor, reader: LineReader, stdout: TextIO,
                 screen: Screen, *, variant: str, options: tuple[str, ...],
                 statistics: Statistics | None = None) -> None:
        self.service = service
        self.statistics = statistics or Statistics(service.database, clock=service.now)
        self.actor = actor
        self.reader = reader
        self.stdout = stdout
        self.screen = screen
        self.variant = variant
        self.options = options
        #: The last game a reply showed: what ``moves`` and ``rules`` read, and what the next
        #: reply is compared with to tell which card filled a column. None with no game.
        self.game: Game | None = None
        #: How the last game shown ended (won, lost, resigned), or None while it goes on.
        self.ended: GameStatus | None = None

    async def run(self, first: Reply) -> int:
        """Show ``first``'s board, then play lines until the player quits or input ends.

        When a game ends its result is summed up and the player asked whether to play again:
        yes deals a new game of the same variant and options, anything else ends the session.
        Returns the exit code, 0.
        """
        self.game = first.game
        if self.game is not None:
            self.draw(self.game)
        if first.status in _ENDED:
            return 0
        if self.screen.interactive:
            self.say(self.tip())
        while True:
            line = self.reader.read(self._prompt())
            if line is None:
                return 0
            try:
                if not await self.handle(line.strip()) and (self.ended is None or not await self.play_again()):
                    return 0
            except UserError as error:  # the service refused the line as a whole (a full disk): nothing changed
                self.say(message_of(error))

    def tip(self) -> str:
        """The first words a player sees at the prompt: moves of the game being played, then the commands."""
        if self.game is None:
            return _("Type new for a game, or {commands}.", commands=_COMMANDS)
        return _("Type a move ({examples}), or {commands}.", examples=type(self.game).move_examples, commands=_COMMANDS)

    async def play_again(self) -> bool:
        """Ask to play again; True when a new game of its kind is on the board.

        The ended game was said just above, once: its board's last line (won, or no move left, with
        the score) and the reply's message (a win's time, moves and streak; a resignation's score).
        """
        again = self.screen.language.say(_AGAIN)
        if self.screen.interactive:
            answer = self.reader.read(again)
        else:
            self.say(again.rstrip())
            answer = self.reader.read("")
        if answer is None or answer.strip().lower() not in _YES:
            return False
        return await self.new([])

    async def handle(self, line: str) -> bool:
        """Carry out one line; False when the session ends (the player quit, or the game is over)."""
        words = line.lower().split()
        if not words:
            return True
        typed, args = words[0], words[1:]
        command = command_of(typed)  # hilfe, tipp, zurück, neu… are read as help, hint, undo, new…
        if command in _UNDO:
            return await self.undo(args)
        if command == "new":
            return await self.new(args)
        if command == "games":
            return await self.show_games(args)
        if not args and _WORD.fullmatch(typed) and typed not in _COMMAND_WORDS and not self._is_move(line):
            guess = difflib.get_close_matches(typed, _COMMAND_WORDS, n=1, cutoff=0.7)
            if guess:
                self.say(_('"{word}" is neither a move nor a command. Did you mean {guess}?',
                           word=typed, guess=guess[0]))
                return True
        if not args:
            if command in _QUIT:
                return False
            if command in _HELP:
                self.show(help_text(self.game, self.screen.language, self.screen.width))
                return True
            if command == "rules":
                if self.game is None:
                    self.say(_NO_GAME)
                else:
                    self.show(rules_said(self.game, self.screen.language, self.screen.width))
                return True
            if command == "moves":
                self.list_moves()
                return True
            if command == "board":
                return await self.answer(await self.service.show(self.actor))
            if command == "resign":
                return await self.resign()
            if command in _RESTART:
                return await self.restart()
            if command == "end":
                return await self.answer(await self.service.act(self.actor, "end"))
            if command == "hint":
                return await self.hint()
            if command == "stats":
                return await self.show_stats()
            if command == "card":
                return await self.show_card()
            if command == "auto":
                return await self.answer(await self.service.auto(self.actor), before=self.game)
        return await self.answer(await self.service.play(self.actor, line), before=self.game)

    async def undo(self, args: list[str]) -> bool:
        """Take back one move, or as many as asked (all there are, if that is fewer)."""
        wanted = 1 if not args else parse_whole(args[0]) if len(args) == 1 else None
        if not wanted:  # not a number, more than one word, or 0
            self.say(_("Say undo to take back one move, or undo and a number, like undo 3."))
            return True
        return await self.answer(await self.service.undo(self.actor, wanted))  # it says what was taken back

    async def hint(self) -> bool:
        """Say the hint for the game as it stands; nothing is played."""
        reply = await self.service.hint(self.actor)
        self.say(reply.message or _("I have no hint for you right now."))
        return True

    async def show_stats(self) -> bool:
        """Print the player's statistics: each variant's games, wins and streaks."""
        found = await self.statistics.player(self.actor.platform, self.actor.user_id)
        self.say(_("You haven't played yet.") if found is None else stats_text(found, own=True))
        return True

    async def show_games(self, args: list[str]) -> bool:
        """Print a page of the player's finished games, newest first, with the numbers ``replay --game`` takes."""
        page = 1 if not args else parse_whole(args[0]) if len(args) == 1 else None
        if not page:  # not a number, more than one word, or 0
            self.say(_("Say games for your latest finished games, or games and a page, like games 2."))
            return True
        found = await History(self.service.database, clock=self.service.now).page(
            self.actor.platform, self.actor.user_id, page)
        self.say(history_text(found, watch=watch, empty=_("You have no finished games yet: start one with new.")))
        return True

    async def show_card(self) -> bool:
        """Print the result card of the player's last finished game, as /gate share posts it."""
        card = await self.statistics.latest_result(self.actor.platform, self.actor.user_id)
        self.say(_("You have no finished game yet: its card appears here once one ends.") if card is None
                 else render_card(card, self.screen.language))
        return True

    async def new(self, args: list[str]) -> bool:
        """Deal a new game, after a yes if one is running.

        ``new`` (a random deal of the variant being played), ``new 617`` for that deal,
        ``new winnable``, and a variant with its options first: ``new archway kit``.
        """
        asked = parse_new([command_of(word) if command_of(word) == "winnable" else word for word in args])
        if asked is None:
            self.say(_("Say new for a random deal, new and a deal number, like new 617, new winnable, "
                       "or a variant and its options first, like new archway kit or new canfield draw-one 617."))
            return True
        deal, winnable = asked.deal, asked.winnable
        if self.game is not None:
            variant, options = self.game.name, self.game.options
        else:
            variant, options = self.variant, self.options
        variant = asked.variant or variant
        options = asked.options if asked.options is not None else options
        reply = await self.service.new_game(self.actor, variant, deal=deal, options=options, winnable=winnable)
        if reply.kind is ReplyKind.CONFIRM:
            yes = self.ask(reply.message or _("Start a new game and abandon the one in progress?"))
            if not yes:
                return yes is not None  # a no goes on; the end of input ends the session
            reply = await self.service.new_game(self.actor, variant, deal=deal, options=options, confirm=True,
                                                winnable=winnable)
        return await self.answer(reply)

    async def resign(self) -> bool:
        """End the game now, keeping its score, after a yes (the service words the question)."""
        reply = await self.service.resign(self.actor, confirm=False)
        if reply.kind is ReplyKind.CONFIRM:
            yes = self.ask(reply.message or _("Resign this game?"))
            if not yes:
                return yes is not None  # a no goes on; the end of input ends the session
            reply = await self.service.resign(self.actor)
        return await self.answer(reply)

    async def restart(self) -> bool:
        """Start the game over from its deal, after a yes: the same cards, every move taken back."""
        reply = await self.service.restart(self.actor)
        if reply.kind is ReplyKind.CONFIRM:
            yes = self.ask(reply.message or _("Restart this deal?"))
            if not yes:
                return yes is not None  # a no goes on; the end of input ends the session
            reply = await self.service.restart(self.actor, confirm=True)
        return await self.answer(reply)

    def ask(self, question: str) -> bool | None:
        """Put a yes/no question: True for a yes, False for anything else, None at the end of input.

        A no is answered that nothing changed.
        """
        self.say(question)
        answer = self.reader.read(self.screen.language.say(_("yes or no? ")))
        if answer is None:
            return None
        if answer.strip().lower() not in _YES:
            self.say(_("You keep your game: nothing has changed."))
            return False
        return True

    async def answer(self, reply: Reply, *, before: Game | None = None) -> bool:
        """Show a reply: the board, what was played and filled, its message; False if the game ended.

        A refusal shows only its sentence, since nothing changed. A refusal without a game
        (none in progress, or it was set aside as unreadable) is followed by asking the
        service what there is now, so ``moves`` and ``rules`` never describe a game that is
        gone.
        """
        game = reply.game
        self.ended = None
        if reply.kind is ReplyKind.ERROR or game is None:
            self.say(reply.message or _("That didn't work, and nothing was changed."))
            if game is None:
                current = await self.service.show(self.actor)
                game = current.game if current.ok and current.status is GameStatus.ACTIVE else None
            self.game = game
            return True
        ended = reply.status in _ENDED
        if ended:
            self.ended = reply.status
        # Once the game is over its board and message say how it ended: no note on a column emptied
        # by the last moves comes between them, and what was played is said before the board.
        notes = fill_notes(before, reply.played, game) if before is not None and reply.played and not ended else []
        self.game = game
        if reply.played and ended:
            self.say(_("Played {moves}.", moves=", ".join(reply.played)))
        self.draw(game)
        if reply.played and not ended:
            self.say(_("Played {moves}.", moves=", ".join(reply.played)))
        for note in notes:
            self.say(note)
        if reply.message:
            after_moves = reply.played and reply.status is GameStatus.ACTIVE
            self.say(_("Then: {message}", message=reply.message) if after_moves else reply.message)
        offer = await self.service.end_offer(reply)
        if offer is not None and offer.message:
            self.say(added(offer.message, reply.message))  # the reply's own message was said just above
        return not ended

    def list_moves(self) -> None:
        """Every legal move: its token, then the move in words."""
        if self.game is None:
            self.say(_NO_GAME)
            return
        moves = self.game.legal_moves()
        if not moves:
            self.say(_("No legal move is left."))
            return
        width = max(len(str(move)) for move in moves)
        self.say(_("Legal moves ({n}):", n=len(moves)))
        for move in moves:
            self.say(joined(f"  {str(move).ljust(width)} ", describe_move(self.game, move)))

    def draw(self, game: Game) -> None:
        """The board, as drawn for this screen (compact on a narrow one; in words for a screen reader)."""
        if self.screen.words:
            self.say("\n" + render_spoken(game, self.screen.language))
            return
        board = render_text(game, compact=self.screen.compact, colour=self.screen.colour,
                            language=self.screen.language)
        self.stdout.write("\n" + board + "\n")
        self.stdout.flush()

    def show(self, text: str) -> None:
        """Write text already in the terminal's language and fitted to its width (the help, the rules) as it is."""
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def say(self, text: str) -> None:
        """Write a message for the terminal in its language: Discord's markup taken out, wrapped to its width."""
        self.stdout.write(wrap(plain(self.screen.language.say(text)), self.screen.width) + "\n")
        self.stdout.flush()

    def _is_move(self, line: str) -> bool:
        """Whether ``line`` reads as a move in the move language (legal now or not)."""
        try:
            list(split_phrases(line, type(self.game) if self.game is not None else None))
        except UserError:
            return False
        return True

    def _prompt(self) -> str:
        return f"{self.game.name if self.game is not None else 'gatebot'}> "


def added(whole: str, said: str | None) -> str:
    """What ``whole`` (built as ``joined(said, more)``) adds to ``said``, already said; all of it otherwise."""
    if said and isinstance(whole, Text) and whole.parts is not None and len(whole.parts) > 1 and whole.parts[0] == said:
        return joined(*whole.parts[1:], sep=whole.sep)
    return whole
