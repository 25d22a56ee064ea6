"""The terminal game on a real database: each line a service request, checked against the engine.

Every test plays through :func:`play_in_terminal` with in-memory streams, on a fresh SQLite
file named by ``DATABASE_URL`` (one test also on PostgreSQL). What was stored is read back
through the store, and positions are compared with the rules engine after the same moves.
"""

from __future__ import annotations

import io
import re

import pytest
from sqlalchemy import create_engine, select, update
from sqlalchemy.engine import make_url

from gatebot.locale import translator
from gatebot.render import render_text
from gatebot.rules import Game, GateGame
from gatebot.rules.notation import split_phrases
from gatebot.solver import Verdict, registry, solve
from gatebot.solver.deals import winnable_deals
from gatebot.store import Database, GameRecord, Player, database_url_from_env
from gatebot.terminal import PlayRequest, Screen, play_in_terminal
from gatebot.terminal.guide import help_text
from gatebot.terminal.request import NewGame, parse_new
from tests.lines import LOST_DEAL_10, NO_WIN_DEAL_1, STOCK_OUT_DEAL_1, WIN_DEAL_1


@pytest.fixture(autouse=True)
def sqlite_file(tmp_path, monkeypatch: pytest.MonkeyPatch) -> str:
    """DATABASE_URL names a new SQLite file (and the default location is out of the way too)."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'games.db'}"
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return url


async def run(
    text: str,
    *,
    user: str = "alice",
    deal: int | None = 1,
    variant: str | None = None,
    options: tuple[str, ...] | None = None,
    new: bool = False,
    interactive: bool = False,
    stdin: io.StringIO | None = None,
) -> tuple[int, str, io.StringIO]:
    """One ``gatebot play`` on ``text``: the exit code, everything written, and the input left."""
    stdin = stdin or io.StringIO(text)
    stdout = io.StringIO()
    request = PlayRequest(database_url_from_env(), user, variant=variant, deal=deal, options=options, new=new)
    code = await play_in_terminal(request, stdin, stdout, Screen(interactive=interactive))
    return code, stdout.getvalue(), stdin


async def games(user: str | None = None) -> list[GameRecord]:
    """The stored games, oldest first (of one user, if given)."""
    db = Database(database_url_from_env())
    try:
        async with db.sessions() as session:
            query = select(GameRecord).join(Player).order_by(GameRecord.id)
            if user is not None:
                query = query.where(Player.platform_user_id == user)
            return list(await session.scalars(query))
    finally:
        await db.dispose()


async def active(user: str = "alice") -> GameRecord:
    [record] = [record for record in await games(user) if record.status == "active"]
    return record


def corrupt_logs(log: str = "3f zz") -> None:
    """Overwrite every stored game's log, as a bad manual edit would (synchronous: usable mid-read)."""
    engine = create_engine(make_url(database_url_from_env()).set(drivername="sqlite"))
    with engine.begin() as connection:
        connection.execute(update(GameRecord).values(log=log))
    engine.dispose()


def engine(number: int = 1, *lines: str, variant: str = "gate") -> GateGame:
    """The rules engine's own game after playing ``lines`` on deal ``number``."""
    game = Game.new(variant, deal=number)
    assert isinstance(game, GateGame)
    for line in lines:
        game.play_line(line)
    return game


async def test_piped_moves_are_played_saved_and_each_board_printed() -> None:
    code, out, _ = await run("3f\n76\nd\n")
    expected = engine(1, "3f", "76", "d")
    assert code == 0
    record = await active()
    assert (record.deal, record.log, record.position) == (1, "3f 76 d", expected.to_text())
    assert out.count("score") == 4  # the first board and one after each move
    assert out.endswith(render_text(expected) + "\nPlayed d.\n")
    assert "gate>" not in out


async def test_several_moves_on_one_line() -> None:
    _, out, _ = await run("3f 76 d\n")
    assert (await active()).log == "3f 76 d"
    assert "Played 3f, 76, d." in out


async def test_interactive_input_gets_a_prompt() -> None:
    _, out, _ = await run("d\n", interactive=True)
    assert out.count("gate> ") == 2


async def test_quitting_and_running_again_resumes_the_exact_position() -> None:
    await run("3f\nd\nq\n76\n")
    code, out, _ = await run("", deal=None)
    expected = engine(1, "3f", "d")
    assert code == 0
    assert "Resuming" in out and "deal 1" in out
    assert out.count("score") == 1 and render_text(expected) in out
    await run("76\n", deal=None)
    expected.play("76")
    record = await active()
    assert (record.log, record.position) == ("3f d 76", expected.to_text())
    assert len(await games()) == 1


async def test_users_have_separate_games() -> None:
    await run("3f\n", user="alice", deal=1)
    await run("d\n", user="bob", deal=2)
    _, out, _ = await run("", user="alice", deal=None)
    assert render_text(engine(1, "3f")) in out
    alice, bob = await active("alice"), await active("bob")
    assert (alice.deal, alice.log, bob.deal, bob.log) == (1, "3f", 2, "d")
    assert bob.position == engine(2, "d").to_text()


async def test_new_abandons_the_running_game_and_deals_the_one_asked_for() -> None:
    await run("3f\n")
    _, out, _ = await run("d\n", deal=2, new=True)
    old, fresh = await games()
    assert (old.deal, old.status, old.score, old.log) == (1, "abandoned", 1, "3f")
    assert (fresh.deal, fresh.status, fresh.log) == (2, "active", "d")
    assert "abandoned" in out and render_text(engine(2, "d")) in out


@pytest.mark.parametrize(
    "asked",
    [{"deal": 2}, {"variant": "little-gate"}, {"options": ("single-moves",)}],
    ids=["deal", "variant", "option"],
)
async def test_asking_for_another_game_keeps_the_running_one_and_says_how(asked: dict) -> None:
    await run("3f\n")
    _, out, _ = await run("d\n", **{"deal": None, **asked})
    [record] = await games()
    assert (record.deal, record.variant, record.options, record.log) == (1, "gate", "", "3f d")
    notice = [line for line in out.splitlines() if "--new" in line]
    assert len(notice) == 1 and notice[0].endswith(".")


async def test_asking_for_the_running_game_resumes_it_without_a_notice() -> None:
    await run("3f\n")
    _, out, _ = await run("", deal=1, variant="gate")
    assert "Resuming" in out and "--new" not in out


async def test_without_a_game_a_random_deal_is_dealt_and_named() -> None:
    _, out, _ = await run("", deal=None)
    record = await active()
    assert f"deal {record.deal}" in out and f"--deal {record.deal}" in out
    assert render_text(engine(record.deal)) in out


async def test_undo_goes_through_the_service_and_is_stored() -> None:
    _, out, _ = await run("3f\n76\nd\nundo\n")
    record = await active()
    assert record.position == engine(1, "3f", "76").to_text()
    assert (record.log, record.undo_count) == ("3f 76 d u", 1)
    assert "Took back d." in out

    _, out, _ = await run("undo 3\n", deal=None)
    record = await active()
    assert record.position == engine(1).to_text() and record.undo_count == 3
    assert "Took back 76 and 3f (that was every move)." in out

    _, out, _ = await run("3f\nu 5\nu\n", deal=None)
    assert (await active()).position == engine(1).to_text()
    assert "no move to take back" in out


async def test_undo_with_a_bad_count_changes_nothing() -> None:
    _, out, _ = await run("3f\nundo x\nundo 0\n")
    assert (await active()).log == "3f"
    assert out.count("undo 3") == 2


async def test_numbers_of_thousands_of_digits_are_refused_in_a_sentence() -> None:
    """``int()`` refuses more than 4,300 digits with a ValueError; the player gets the usual sentences."""
    huge = "9" * 4301
    code, out, _ = await run(f"3f\nundo {huge}\nundo {'0' * 4301}\nnew {huge}\n")
    assert code == 0
    assert out.count("undo 3") == 2 and "new 617" in out
    assert (await active()).log == "3f"


async def test_resigning_ends_the_game_and_is_stored() -> None:
    code, out, rest = await run("3f\nresign\nyes\nno\nd\n")
    [record] = await games()
    assert code == 0 and (record.status, record.score, record.log) == ("resigned", 1, "3f")
    assert rest.read() == "d\n"  # after the game ends, only the answer to play again is read
    assert "resigned" in out.lower()
    await run("", deal=2)
    assert (await active()).deal == 2  # the next run deals a new game


async def test_new_asks_first_and_no_keeps_the_game() -> None:
    _, out, _ = await run("3f\nnew 2\nno\nd\n")
    [record] = await games()
    assert (record.deal, record.log, record.status) == (1, "3f d", "active")
    assert "abandon" in out


async def test_new_with_yes_abandons_and_deals() -> None:
    _, out, _ = await run("3f\nnew 2\ny\nd\n")
    old, fresh = await games()
    assert (old.status, old.log) == ("abandoned", "3f")
    assert (fresh.deal, fresh.log, fresh.status) == (2, "d", "active")
    assert render_text(engine(2, "d")) in out


async def test_new_without_a_number_deals_a_random_deal_of_the_same_variant() -> None:
    await run("new\nyes\n", deal=3, variant="little-gate", options=("single-moves",))
    old, fresh = await games()
    assert old.status == "abandoned"
    assert (fresh.variant, fresh.options, fresh.status) == ("little-gate", "single-moves", "active")


async def test_new_with_a_bad_deal_changes_nothing() -> None:
    _, out, _ = await run("new 0\nnew x y\n")
    assert len(await games()) == 1
    assert out.count("new 617") == 2


async def test_end_of_input_while_asked_to_confirm_keeps_the_game() -> None:
    code, out, _ = await run("new 2\n")
    [record] = await games()
    assert code == 0 and record.status == "active"
    assert "You have a game of Gate in progress (deal 1, score 0/52): start a new one and abandon it?" in out


async def test_a_damaged_saved_game_is_reported_in_one_sentence_and_a_new_one_dealt() -> None:
    await run("3f\n")
    corrupt_logs()
    code, out, _ = await run("d\n", deal=5)
    damaged, fresh = await games()
    assert code == 0
    assert (damaged.status, damaged.log) == ("quarantined", "3f zz") and damaged.problem
    assert (fresh.deal, fresh.status, fresh.log) == (5, "active", "d")
    reports = [line for line in out.splitlines() if "deal 1" in line]
    assert len(reports) == 1 and reports[0].endswith(".")


class Scripted(io.StringIO):
    """Input that runs ``hook`` when a given line is about to be read (to change the database mid-game)."""

    def __init__(self, text: str, hook_at: int, hook) -> None:
        super().__init__(text)
        self.reads = 0
        self.hook_at = hook_at
        self.hook = hook

    def readline(self, size: int | None = -1) -> str:
        self.reads += 1
        if self.reads == self.hook_at:
            self.hook()
        return super().readline(size)


async def test_a_game_damaged_mid_session_is_set_aside_and_new_deals_at_once() -> None:
    stdin = Scripted("3f\nd\nmoves\nnew 5\nd\n", hook_at=2, hook=corrupt_logs)
    code, out, _ = await run("", stdin=stdin)
    damaged, fresh = await games()
    assert code == 0
    assert (damaged.status, damaged.log) == ("quarantined", "3f zz")
    assert (fresh.deal, fresh.log) == (5, "d")  # no confirmation was asked: nothing was running
    assert "Legal moves" not in out  # `moves` knows the old game is gone


async def test_illegal_move_prints_the_reason_and_changes_nothing() -> None:
    await run("")
    version = (await active()).version
    _, out, _ = await run("15\n", deal=None)
    refused = engine(1).play_line("15")
    assert refused.error is not None and not refused.played
    assert str(refused.error)[1:] in out  # the engine's reason (its first letter may be capitalised)
    record = await active()
    assert (record.log, record.version) == ("", version)


async def test_a_line_that_fails_part_way_keeps_the_moves_before_and_says_so() -> None:
    _, out, _ = await run("3f 37 d\n")
    refused = engine(1).play_line("3f 37 d")
    assert [str(move) for move in refused.played] == ["3f"]
    assert (await active()).log == "3f"
    assert "Played 3f." in out
    assert any(line.startswith("Then: ") and str(refused.error)[1:] in line for line in out.splitlines())


async def test_ambiguous_input_lists_the_choices() -> None:
    _, out, _ = await run("3\n")
    moves = [str(move) for move in engine(1).legal_moves() if move.source == "3"]
    assert len(moves) > 1
    assert all(f"({move})" in out for move in moves)
    assert (await active()).log == ""


async def test_an_automatic_fill_is_reported() -> None:
    filler = engine(1).reserves[0][-1]  # the reserves are level, so the left one fills
    _, out, _ = await run("3f\n")
    assert engine(1, "3f").columns[2] == (filler,)
    assert f"{filler.pretty} from the left reserve fills column 3" in out


async def test_a_column_left_empty_is_reported_as_a_free_space() -> None:
    game = engine(1)
    before: list[str] = []
    for token in WIN_DEAL_1:  # up to the first move that leaves a column empty
        game.play(token)
        if token[0].isdigit() and not game.columns[int(token[0]) - 1]:
            break
        before.append(token)
    else:
        pytest.fail("the winning line never leaves a column empty")
    _, out, _ = await run(" ".join(before) + "\n" + token + "\n")
    assert (await active()).position == game.to_text()
    assert f"Column {token[0]} is a free space" in out


async def test_winning_ends_the_game_and_is_stored() -> None:
    assert engine(1, " ".join(WIN_DEAL_1)).is_won
    *most, last = WIN_DEAL_1
    code, out, rest = await run(" ".join(most) + "\n" + last + "\nno\nd\n")
    [record] = await games()
    assert code == 0 and (record.status, record.score) == ("won", 52)
    assert "Won! Every card is home. Score 52/52." in out  # the board's last line
    assert f"{len(WIN_DEAL_1)} moves. Win streak: 1. Your first win of Gate." in out  # the service's win message
    assert rest.read() == "d\n"  # after the game ends, only the answer to play again is read


async def test_a_game_with_no_legal_move_left_ends() -> None:
    dead = engine(10, " ".join(LOST_DEAL_10))
    assert not dead.legal_moves() and not dead.is_won
    code, out, rest = await run(" ".join(LOST_DEAL_10) + "\nno\nd\n", deal=10)
    [record] = await games()
    assert code == 0 and (record.status, record.score) == ("lost", dead.score)
    assert f"Game over: no move left. Score {dead.score}/52." in out  # the board's last line, said once
    assert "No legal move" not in out
    assert rest.read() == "d\n"


async def test_quit_stops_reading() -> None:
    for word in ("q", "quit", "exit"):
        code, _, rest = await run(f"{word}\n3f\n")
        assert code == 0 and rest.read() == "3f\n"
    assert (await active()).log == ""


async def test_end_of_input_and_blank_lines_end_quietly() -> None:
    code, out, _ = await run("\n   \n")
    assert code == 0
    assert out.count("score") == 1
    assert "error" not in out.lower()


async def test_moves_lists_every_legal_move_in_words() -> None:
    _, out, _ = await run("moves\n")
    for move in engine(1).legal_moves():
        line = next(line for line in out.splitlines() if line.split()[:1] == [str(move)])
        assert line.strip() != str(move)  # a description follows the token
    assert (await active()).log == ""


async def test_board_reprints_the_stored_position() -> None:
    _, out, _ = await run("3f\nboard\n")
    assert out.count(render_text(engine(1, "3f"))) == 2


async def test_rules_match_the_variant() -> None:
    _, out, _ = await run("rules\n", deal=2, variant="little-gate")
    assert "Columns 1-4" in out and "no redeal" in out
    _, out, _ = await run("rules\n", user="bob", deal=2)
    assert "Columns 1-8" in out


async def test_on_each_database_kind_a_fresh_database_is_migrated_and_games_resume(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DATABASE_URL", database_url)
    _, out, _ = await run("3f\nd\n")
    assert "Upgraded" not in out and "revision" not in out  # how it was migrated is for the log
    told = "Your games are saved in" in out
    assert told == database_url.startswith("sqlite")  # a file is named; a server's address is its operator's
    _, out, _ = await run("76\n", deal=None)
    assert "saved in" not in out and "Resuming" in out
    record = await active()
    assert (record.log, record.position) == ("3f d 76", engine(1, "3f", "d", "76").to_text())


HELP_EXAMPLES = {
    # a canonical form: the other spellings the help promises mean the same move
    "3f": ["3 f", "3 up", "3 home"],
    "37": ["3 7", "3>7", "3-7", "3 to 7", "3 onto 7"],
    "w5": ["W5", "waste 5"],
    "l5": ["left to 5"],
    "35:2": ["3 5:2"],
    "d": ["draw"],
    "7h 8s": ["7h>8s", "7h on 8s", "move 7h onto 8s"],
    "7h f": ["7h up", "7h home"],
    "10d": ["td"],
}


#: The help of plain Gate, as a terminal of no fixed width prints it (each entry on one line).
HELP_TEXT = help_text(Game.new("gate", deal=1), translator("en"), None)


def reading(text: str) -> list[tuple[object, ...]]:
    """What the real parser makes of ``text``, position aside."""
    return [(p.draw, p.source, p.target, p.count) for p in split_phrases(text)]


@pytest.mark.parametrize(("canonical", "aliases"), HELP_EXAMPLES.items())
def test_help_examples_read_as_the_move_they_claim(canonical: str, aliases: list[str]) -> None:
    assert canonical in HELP_TEXT
    for alias in aliases:
        assert alias in HELP_TEXT
        assert reading(alias) == reading(canonical), alias


def test_help_example_line_is_three_moves() -> None:
    assert "d 3f w5" in HELP_TEXT
    assert reading("d 3f w5") == reading("d") + reading("3f") + reading("w5")


async def test_help_lists_the_commands() -> None:
    _, out, _ = await run("help\n")
    for word in ("undo", "moves", "board", "rules", "quit", "resign", "new 617", "d 3f w5", "hint", "auto",
                 "end", "new winnable"):
        assert word in out


async def test_hint_prints_one_hint_and_plays_nothing() -> None:
    _, out, _ = await run("hint\nhint\n")
    hints = [line for line in out.splitlines() if line.startswith("Hint: ")]
    assert len(hints) == 2 and hints[0] == hints[1]
    assert out.count("score") == 1  # no board redrawn: nothing changed
    record = await active()
    assert (record.log, record.hint_count) == ("", 1)


async def test_auto_finishes_a_game_the_solver_can_win() -> None:
    code, out, _ = await run(" ".join(STOCK_OUT_DEAL_1) + "\nauto\n")
    [record] = await games()
    assert code == 0 and (record.status, record.score) == ("won", 52)
    assert out.count("Every card is home") == 1 and "Win streak: 1." in out


async def test_a_game_that_can_no_longer_be_won_is_offered_to_end() -> None:
    code, out, rest = await run(" ".join(NO_WIN_DEAL_1) + "\nend\nno\nd\n")
    assert "No win is left from here — 9 cards are home. Type end to finish, or play on." in out
    [record] = await games()
    assert code == 0 and (record.status, record.score) == ("resigned", 9)
    assert "You ended the game with a score of 9/52." in out
    assert rest.read() == "d\n"


async def test_new_winnable_deals_a_deal_the_solver_wins() -> None:
    _, out, _ = await run("new winnable\nyes\n")
    old, fresh = await games()
    assert old.status == "abandoned" and fresh.status == "active"
    assert fresh.deal in winnable_deals("gate") or solve(
        Game.new("gate", deal=fresh.deal), max_nodes=2_000_000, max_seconds=30
    ).verdict is Verdict.WINNABLE
    _, out, _ = await run("new winnable 5\n", deal=None)
    assert "new winnable" in out and len(await games()) == 2


async def test_canfield_is_played_undone_and_listed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry._SOLVERS, "canfield", None)
    code, out, _ = await run("r3 32 d\nundo\nmoves\nhint\n", variant="canfield")
    assert code == 0
    game = Game.new("canfield", deal=1)
    game.play_line("r3 32")
    assert out.count(render_text(game)) == 1  # after the undo
    assert "Legal moves (2):" in out
    assert "Hints don't exist for Canfield yet." in out
    record = await active()
    assert (record.variant, record.log) == ("canfield", "r3 32 d u")


async def test_new_names_another_variant_with_its_options() -> None:
    code, out, _ = await run("new archway kit 3\nyes\n2ca 3p\nd\nnew canfield draw-one passes-2\ny\nnew 5\ny\n")
    assert code == 0
    first, arch, canfield, fifth = await games()
    assert (first.variant, first.status) == ("gate", "abandoned")
    assert (arch.variant, arch.options, arch.deal, arch.status) == ("archway", "kit", 3, "abandoned")
    game = Game.new("archway", deal=3, options=("kit",))
    played = game.play_line("2ca 3p")
    assert arch.log == " ".join(str(move) for move in played.played)
    assert render_text(Game.new("archway", deal=3, options=("kit",))) in out
    assert "Archway has no stock: every card is dealt face up at the start, so there is nothing to draw." in out
    assert (canfield.variant, canfield.options, canfield.status) == ("canfield", "draw-one passes-2", "abandoned")
    # new with a deal alone keeps the variant and options being played
    assert (fifth.variant, fifth.options, fifth.deal, fifth.status) == ("canfield", "draw-one passes-2", 5, "active")


async def test_new_with_an_option_its_variant_lacks_changes_nothing() -> None:
    _, out, _ = await run("new gate kit\nnew archway 0\nnew kit archway\n")
    assert "Gate has no option 'kit': its options are single-moves, stock-fill." in out
    assert out.count("new archway kit") == 2  # the last two are not what new reads: it says how to ask
    assert len(await games()) == 1


def test_the_words_after_new() -> None:
    assert parse_new([]) == NewGame()
    assert parse_new(["617"]) == NewGame(deal=617)
    assert parse_new(["winnable"]) == NewGame(winnable=True)
    assert parse_new(["archway"]) == NewGame("archway", ())
    assert parse_new(["archway", "kit", "winnable"]) == NewGame("archway", ("kit",), winnable=True)
    assert parse_new(["draw-one", "9"]) == NewGame(None, ("draw-one",), 9)
    for words in (["winnable", "5"], ["5", "kit"], ["kit", "archway"], ["archway", "gate"], ["x"], ["0"]):
        assert parse_new(words) is None, words


def test_new_reads_a_variant_by_its_title_or_an_alias_in_any_case() -> None:
    assert parse_new(["Little", "Gate", "7"]) == NewGame("little-gate", (), 7)
    assert parse_new(["LITTLE"]) == NewGame("little-gate", ())
    assert parse_new(["Demon", "draw-one"]) == NewGame("canfield", ("draw-one",))
    assert parse_new(["little", "gate", "gate"]) is None


async def test_a_plain_archway_deal_names_the_commands_that_deal_a_win_and_they_do() -> None:
    _, out, _ = await run("", deal=3, variant="archway")  # deal 3 is lost from the start
    found = re.search(r"About 4 deals in 1,000 of Archway can be won\. For a deal proven winnable, use (new .+?); "
                      r"with (new .+?), every deal can be won\.$", out, re.MULTILINE)
    assert found is not None, out
    winnable_command, kit_command = found.groups()
    assert parse_new(winnable_command.split()[1:]) == NewGame("archway", (), None, winnable=True)
    _, out, _ = await run(f"{kit_command}\nyes\n", deal=None)
    plain, kit = await games()
    assert (plain.variant, plain.options, plain.status) == ("archway", "", "abandoned")
    assert (kit.variant, kit.options, kit.status) == ("archway", "kit", "active")
    assert "can be won" not in out  # every kit deal can be won: no note
