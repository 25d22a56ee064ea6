"""The terminal loop, driven through in-memory streams and checked against the engine."""

from __future__ import annotations

import io

import pytest

from gatebot.render import render_text
from gatebot.rules import Game, GateGame
from gatebot.rules.notation import split_phrases
from gatebot.terminal import run_game
from gatebot.terminal.guide import HELP_TEXT


def deal(number: int = 1, variant: str = "gate") -> GateGame:
    game = Game.new(variant, deal=number)
    assert isinstance(game, GateGame)
    return game


def position(text: str) -> GateGame:
    game = Game.from_text(text)
    assert isinstance(game, GateGame)
    return game


def run(game: GateGame, text: str, *, interactive: bool = False) -> tuple[int, str, io.StringIO]:
    """Play ``text`` as input; return the exit code, everything written, and the input left."""
    stdin, stdout = io.StringIO(text), io.StringIO()
    code = run_game(game, stdin, stdout, interactive=interactive, colour=False, compact=False)
    return code, stdout.getvalue(), stdin


def played(number: int, *lines: str) -> GateGame:
    """The engine's own game after playing ``lines`` on deal ``number``."""
    game = deal(number)
    for line in lines:
        game.play_line(line)
    return game


# One move from a win: the king of clubs waits in column 1.
ONE_FROM_WON = "gate\nL:\nR:\nF: QC KD KH KS\n1: KC\n" + "".join(f"{i}:\n" for i in range(2, 9)) + "W:\nS:"
# Four kings on top, nothing free, nothing to draw: no legal move.
DEAD = "little-gate\nL:\nR:\nF: 9C 9D 9H 9S\n" + "".join(
    f"{i}: T{suit} J{suit} Q{suit} K{suit}\n" for i, suit in enumerate("CDHS", start=1)
) + "W:\nS:"


def test_piped_moves_are_played_and_each_board_is_printed() -> None:
    game = deal(1)
    code, out, _ = run(game, "3f\n76\nd\n")
    expected = played(1, "3f", "76", "d")
    assert code == 0
    assert game.to_text() == expected.to_text()
    assert out.count("score") == 4  # the first board and one after each move
    assert out.endswith(render_text(expected) + "\nPlayed d.\n")
    assert "gate>" not in out


def test_several_moves_on_one_line() -> None:
    game = deal(1)
    run(game, "3f 76 d\n")
    assert [str(move) for move in game.moves] == ["3f", "76", "d"]


def test_interactive_input_gets_a_prompt() -> None:
    _, out, _ = run(deal(1), "d\n", interactive=True)
    assert out.count("gate> ") == 2


def test_undo_restores_the_position() -> None:
    game = deal(1)
    run(game, "3f\n76\nd\nundo\n")
    assert game.to_text() == played(1, "3f", "76").to_text()

    game = deal(1)
    run(game, "3f\n76\nd\nundo 3\n")
    assert game.to_text() == deal(1).to_text() and game.moves == ()

    game = deal(1)
    _, out, _ = run(game, "3f\nu 5\nu\n")
    assert game.to_text() == deal(1).to_text()
    assert "no move to take back" in out


def test_undo_with_a_bad_count_changes_nothing() -> None:
    game = deal(1)
    _, out, _ = run(game, "3f\nundo x\nundo 0\n")
    assert [str(move) for move in game.moves] == ["3f"]
    assert out.count("undo 3") == 2


def test_illegal_move_prints_the_reason_and_changes_nothing() -> None:
    game = deal(1)
    _, out, _ = run(game, "15\n")
    engine = deal(1).play_line("15")
    assert engine.error is not None and not engine.played
    assert str(engine.error)[1:] in out  # the engine's reason (its first letter may be capitalised)
    assert game.to_text() == deal(1).to_text() and game.moves == ()


def test_a_line_that_fails_part_way_keeps_the_moves_before_and_says_so() -> None:
    game = deal(1)
    _, out, _ = run(game, "3f 37 d\n")
    engine = deal(1).play_line("3f 37 d")
    assert [str(move) for move in game.moves] == [str(move) for move in engine.played] == ["3f"]
    assert "Played 3f." in out
    assert f"Then: {engine.error}" in out


def test_ambiguous_input_lists_the_choices() -> None:
    game = deal(1)
    _, out, _ = run(game, "3\n")
    moves = [str(move) for move in deal(1).legal_moves() if move.source == "3"]
    assert len(moves) > 1
    assert all(f"({move})" in out for move in moves)
    assert game.moves == ()


def test_an_automatic_fill_is_reported() -> None:
    before = deal(1)
    filler = before.reserves[0][-1]  # the reserves are level, so the left one fills
    game = deal(1)
    _, out, _ = run(game, "3f\n")
    assert game.columns[2] == (filler,)
    assert f"{filler.pretty} from the left reserve fills column 3" in out


def test_a_column_left_empty_is_reported_as_a_free_space() -> None:
    game = position("little-gate\nL:\nR:\nF: JC KD KH KS\n1: QC\n2: KC\n3:\n4:\nW:\nS:")
    _, out, _ = run(game, "1f\n")
    assert game.columns[0] == ()
    assert "Column 1 is a free space" in out


def test_quit_stops_reading() -> None:
    for word in ("q", "quit", "exit"):
        game = deal(1)
        code, _, rest = run(game, f"{word}\n3f\n")
        assert code == 0 and game.moves == () and rest.read() == "3f\n"


def test_end_of_input_and_blank_lines_end_quietly() -> None:
    code, out, _ = run(deal(1), "\n   \n")
    assert code == 0
    assert out.count("score") == 1
    assert "error" not in out.lower()


def test_winning_ends_the_game_with_the_score() -> None:
    game = position(ONE_FROM_WON)
    code, out, rest = run(game, "1f\nd\n")
    assert code == 0 and game.is_won
    assert "You won" in out and "52/52" in out
    assert rest.read() == "d\n"  # nothing is read after the game ends


def test_a_game_with_no_legal_move_ends_at_once() -> None:
    game = position(DEAD)
    code, out, rest = run(game, "1f\n")
    assert code == 0
    assert "No legal move" in out and "36/52" in out
    assert rest.read() == "1f\n"


def test_moves_lists_every_legal_move_in_words() -> None:
    game = deal(1)
    _, out, _ = run(game, "moves\n")
    for move in game.legal_moves():
        line = next(line for line in out.splitlines() if line.split()[:1] == [str(move)])
        assert line.strip() != str(move)  # a description follows the token
    assert game.moves == ()


def test_board_reprints_the_position() -> None:
    _, out, _ = run(deal(1), "board\n")
    assert out.count(render_text(deal(1))) == 2


def test_rules_match_the_variant() -> None:
    _, out, _ = run(deal(2, "little-gate"), "rules\n")
    assert "Columns 1-4" in out and "no redeal" in out
    _, out, _ = run(deal(2), "rules\n")
    assert "Columns 1-8" in out


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


def test_help_lists_the_commands() -> None:
    _, out, _ = run(deal(1), "help\n")
    for word in ("undo", "moves", "board", "rules", "quit", "d 3f w5"):
        assert word in out
