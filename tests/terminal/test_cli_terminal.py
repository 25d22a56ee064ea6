"""``gatebot play`` as a person sees it: a subprocess on piped input, its output read as printed.

Each test runs ``python -m gatebot play`` on its own SQLite file, with ``COLUMNS`` set (or
not) as a terminal's width would be, and reads back what was printed and what was stored.
"""

from __future__ import annotations

import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

from gatebot.render import render_text
from gatebot.rules import Game
from tests.lines import LOST_DEAL_10, WIN_DEAL_1

ROOT = Path(__file__).resolve().parents[2]


def gatebot_play(
    database: Path, *args: str, stdin: str, columns: int | None = None, lang: str = "C.UTF-8"
) -> subprocess.CompletedProcess[str]:
    """One run of gatebot play on ``stdin``, which must end well (exit 0, nothing on stderr).

    The terminal speaks ``lang`` (as ``LANG``; the variables that would win over it are unset).
    """
    env = {**os.environ, "DATABASE_URL": f"sqlite+aiosqlite:///{database}", "PYTHONIOENCODING": "utf-8",
           "PYTHONPATH": str(ROOT), "XDG_DATA_HOME": str(database.parent / "data"), "LANG": lang}
    for variable in ("COLUMNS", "LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        env.pop(variable, None)
    if columns is not None:
        env["COLUMNS"] = str(columns)
    result = subprocess.run([sys.executable, "-m", "gatebot", "play", *args], input=stdin, capture_output=True,
                            text=True, encoding="utf-8", env=env, timeout=60, check=False)
    assert result.returncode == 0 and result.stderr == "", result.stderr
    return result


def stored(database: Path) -> list[tuple[str, str | None, int, str, str]]:
    with sqlite3.connect(database) as connection:
        return connection.execute("SELECT variant, options, deal, status, log FROM games ORDER BY id").fetchall()


def archway_3_after(moves: str) -> Game:
    game = Game.new("archway", deal=3)
    game.play_line(moves)
    return game


def test_a_narrow_terminal_gets_the_compact_board_and_wrapped_messages(tmp_path: Path) -> None:
    out = gatebot_play(tmp_path / "games.db", "--variant", "archway", "--deal", "3", stdin="help\n",
                       columns=50).stdout
    game = Game.new("archway", deal=3)
    assert render_text(game, compact=True) in out
    assert render_text(game) not in out  # its columns are longer than a narrow board's lines
    assert max(map(len, out.splitlines())) <= 50
    help_words = "stop here: your game is saved after every move, and gatebot play resumes it".split()
    assert " ".join(help_words) in " ".join(out.split())  # wrapped, not cut: every word is there


def test_no_discord_markup_and_a_guess_for_a_mistyped_command(tmp_path: Path) -> None:
    typed = {"hlep": "help", "udno": "undo", "stast": "stats", "resing": "resign", "quti": "quit"}
    lines = ["hint", *typed, "left", "xyzzy", "3f"]
    out = gatebot_play(tmp_path / "games.db", "--deal", "1", stdin="\n".join(lines) + "\n").stdout
    assert "`" not in out and "**" not in out
    [hint] = [line for line in out.splitlines() if line.startswith("Hint: ")]
    suggested = hint.rsplit("(", 1)[1].rstrip(")")
    Game.new("gate", deal=1).play_line(suggested)  # the move is named plainly, as one would type it
    for mistyped, meant in typed.items():
        assert f'"{mistyped}" is neither a move nor a command. Did you mean {meant}?' in out
    assert out.count("Did you mean") == len(typed)  # not for a move word (left) nor for a word like no command
    assert "'xyzzy' isn't a move I know" in out
    assert out.count("isn't a move I know") == 1  # a guess is the one sentence said
    assert stored(tmp_path / "games.db")[0][4] == "3f"


def test_after_a_win_its_one_message_and_yes_deals_the_same_variant_again(tmp_path: Path) -> None:
    out = gatebot_play(tmp_path / "games.db", "--deal", "1", stdin=" ".join(WIN_DEAL_1) + "\ny\nd\n").stdout
    # The board's last line says the win, the message under it the rest; nothing sums it up again.
    assert re.search(rf"\nWon! Every card is home\. Score 52/52\.\nThat took \d+:\d\d and {len(WIN_DEAL_1)} moves\. "
                     r"Win streak: 1\. Your first win of Gate\.\nPlay again\? \[y/N\]\n", out), out
    assert "You won" not in out and out.count("52/52.") == 1
    won, again = stored(tmp_path / "games.db")
    assert won[3] == "won" and won[4] == " ".join(WIN_DEAL_1)
    assert again[0] == "gate" and again[3] == "active" and again[4] == "d"  # the next line went to the new game


def test_play_again_keeps_the_variant_and_its_options(tmp_path: Path) -> None:
    out = gatebot_play(tmp_path / "games.db", "--variant", "canfield", "--option", "draw-one", "--deal", "5",
                       stdin="resign\nyes\nyes\n").stdout
    assert "You resigned with a score of 1/52." in out and "You ended the game: " not in out  # the base card is home
    first, again = stored(tmp_path / "games.db")
    assert first[:4] == ("canfield", "draw-one", 5, "resigned")
    assert again[:2] == ("canfield", "draw-one") and again[3] == "active"


def test_anything_but_yes_ends_the_session_after_a_loss(tmp_path: Path) -> None:
    out = gatebot_play(tmp_path / "games.db", "--deal", "10", stdin=" ".join(LOST_DEAL_10) + "\nmaybe\n3f\n").stdout
    # Said once, on the board's last line: no sentence after it says it again.
    assert "\nGame over: no move left. Score 12/52.\nPlay again? [y/N]" in out
    assert "No move was left: " not in out and "No legal move" not in out
    [lost] = stored(tmp_path / "games.db")
    assert lost[3] == "lost"
    assert out.rstrip().endswith("Play again? [y/N]")  # nothing more happened


def test_a_german_terminal_gets_german_boards_refusals_and_hints(tmp_path: Path) -> None:
    out = gatebot_play(tmp_path / "games.db", "--deal", "5", stdin="12\nhint\n", lang="de_DE.UTF-8").stdout
    assert "Gate, Spiel 5, ist ausgeteilt." in out
    assert "Gate · Spiel 5 · 0 Züge · Punkte 0/52" in out
    assert "W   ·· leer" in out and "S   34 Karten · d zieht eine" in out
    # Column 1 holds 9♣, column 2 K♥: the refusal names the cards in German.
    assert "Kreuz-Neun kann nicht auf Herz-König: Darauf passt eine schwarze Dame." in out
    hint = next(line for line in out.splitlines() if line.startswith("Tipp: "))
    assert re.search(r"\b(Kreuz|Karo|Herz|Pik)-[A-ZÄÖÜ]", hint) and " the " not in hint, hint
    english = gatebot_play(tmp_path / "other.db", "--deal", "5", stdin="12\n", lang="en_GB.UTF-8").stdout
    assert "Dealt Gate deal 5." in english and "9♣ can't go on K♥: it takes a black Q." in english


def test_a_german_terminal_gets_its_prompts_refusals_and_summary_in_german(tmp_path: Path) -> None:
    database = tmp_path / "games.db"
    long_word = "x" * 30
    lines = ["d", "hlep", "undo x y", "new foo bar baz", "stats", "card", long_word, "moves", "help", "resign", "j",
             "j", "quit"]
    out = gatebot_play(database, "--deal", "5", stdin="\n".join(lines) + "\n", lang="de_DE.UTF-8").stdout
    assert re.search(r"\nZüge in Gate:\n  d 3f w5 +mehrere Züge in einer Zeile, der Reihe nach gespielt\n", out)  # help
    assert re.search(r"\nBefehle \(die englischen gehen auch\):\n  zurück, u +", out) and "Commands:" not in out
    # moves: each legal move in words, its cards named in full
    assert re.search(r"^  \S+ +(Kreuz|Karo|Herz|Pik)-\S+ von Spalte \d", out, re.MULTILINE), out
    assert "Gespielt: d." in out
    assert "„hlep“ ist weder ein Zug noch ein Befehl. Meintest du help?" in out
    assert "Sag zurück, um einen Zug zurückzunehmen, oder zurück und eine Zahl, etwa zurück 3." in out
    assert "Sag neu für ein zufälliges Spiel" in out
    assert "Deine Spiele: noch keins beendet – starte eins mit neu." in out
    assert "Du hast noch kein beendetes Spiel: Seine Karte erscheint hier, sobald eins endet." in out
    assert "ist zu lang für einen Zug: Züge sind kurz, etwa 3f, w5 oder d." in out
    assert "Erlaubte Züge (" in out
    assert "Du hast mit 0/52 Punkten aufgegeben." in out and "Du hast das Spiel beendet:" not in out
    assert "Noch einmal spielen? [j/N]" in out
    assert out.count("ist ausgeteilt.") == 2, "a German yes (j) deals the next game"
    english = ("Played", "neither a move nor a command", "Say undo", "Say new", "Your games", "You have no",
               "too long to be a move", "Legal moves", "You ended the game", "cards home", "Play again?")
    assert not [sentence for sentence in english if sentence in out], out
    resumed = gatebot_play(database, "--deal", "9", stdin="d\nquit\n", lang="de_DE.UTF-8").stdout
    assert re.search(r"Dein Spiel wird fortgesetzt: Gate, Spiel \d+ \(noch kein Zug gespielt\)\.", resumed), resumed
    assert "Du hast Gate, Spiel 9 verlangt, aber dein laufendes Spiel geht weiter" in resumed
    assert "Resuming" not in resumed and "You asked for" not in resumed


def test_a_german_terminal_gets_archways_and_canfields_refusals_and_hints_in_german(tmp_path: Path) -> None:
    out = gatebot_play(tmp_path / "games.db", "--variant", "archway", "--deal", "3", stdin="d\nzz\nhint\n",
                       lang="de_DE.UTF-8").stdout
    assert "Archway hat keinen Talon: Jede Karte wird zu Beginn offen ausgeteilt" in out
    assert "'zz' ist kein Zug, den ich kenne: schreib Züge wie 3a, 7hk, fhk, 2>4 oder eine Karte wie 7h." in out
    hint = next(line for line in out.splitlines() if line.startswith("Tipp: "))
    assert "aus dem Bogen auf" in hint and "-Ass-Ablagestapel" in hint, hint
    # The position is lost: the hint names the most cards still reachable, more than the 8 home now.
    most = re.search(r"so kommen noch die meisten Karten auf die Ablagestapel \((\d+)\)\. "
                     r"Von hier ist kein Sieg mehr möglich — 8 Karten sind abgelegt\.", hint)
    assert most and 8 < int(most.group(1)) < 104, hint
    assert hint.count("kein Sieg") == 1, hint  # said once, by the outlook
    assert not re.search(r"\b(the|from|onto|foundation|at least)\b", hint), hint
    out = gatebot_play(tmp_path / "canfield.db", "--variant", "canfield", "--deal", "4", stdin="hint\n5h\n",
                       lang="de_DE.UTF-8").stdout
    hint = next(line for line in out.splitlines() if line.startswith("Tipp: "))
    assert "das hält das Spiel in Gang" in hint and "keeps" not in hint, hint  # the first pass is turned through
    # 5♥ is face down: where it lies is told only as far as the player can see.
    assert "Herz-Fünf ist noch nicht im Spiel, sondern liegt verdeckt in der Reserve oder im Talon" in out
    assert "isn't in play yet" not in out


def test_a_german_terminal_prints_the_result_card_in_german(tmp_path: Path) -> None:
    out = gatebot_play(tmp_path / "games.db", "--deal", "1", stdin=" ".join(WIN_DEAL_1) + "\nj\ncard\n",
                       lang="de_DE.UTF-8").stdout
    assert "\nGate · Spiel 1 · gewonnen 52/52\n" in out
    assert "\n🟩 früh · 🟨 Spielmitte · 🟧 spät\n" in out
    assert re.search(rf"\n{len(WIN_DEAL_1)} Züge · keine Tipps · keine Rücknahmen · \d+:\d\d\n", out), out
    assert "deal 1 · won" not in out and "early" not in out


def test_a_german_terminal_gets_the_rules_and_the_move_examples_in_german(tmp_path: Path) -> None:
    out = gatebot_play(tmp_path / "games.db", "--variant", "little-gate", "--option", "stock-fill", "--deal", "5",
                       stdin="rules\n9z\n", lang="de_DE.UTF-8").stdout
    words = " ".join(out.split())
    assert "Little Gate: Lege alle 52 Karten auf die vier Ablagestapel (F)" in words
    assert "Spalten 1-4: abwärts bauen" in words and "Talon S: d legt eine Karte auf den Abwurfstapel W" in words
    assert "die nächste Karte des Talons (stock-fill)" in words, "the option's rule, its name kept"
    assert "schreib Züge wie d, 3f, w5, 3>7, 35:2 oder eine Karte wie 7h" in words
    english = ("put all 52 cards", "Reserves L and R", "build down", "Stock S:", "free space", "game is over",
               "or a card like")
    assert not [sentence for sentence in english if sentence in words], out
    canfield = gatebot_play(tmp_path / "canfield.db", "--variant", "canfield", "--deal", "1", stdin="rules\n",
                            lang="de_DE.UTF-8").stdout
    said = " ".join(canfield.split())
    assert "Canfield: Lege alle 52 Karten" in said and "Reserve R: 13 Karten, verdeckt" in said
    assert "so oft du willst" in said and "as often as you like" not in said


def test_a_german_terminal_is_told_in_german_how_rarely_a_plain_archway_deal_is_won(tmp_path: Path) -> None:
    out = gatebot_play(tmp_path / "games.db", "--variant", "archway", "--deal", "3", stdin="quit\n",
                       lang="de_DE.UTF-8").stdout
    note = ("Etwa 4 von 1.000 Spielen von Archway lassen sich gewinnen. Ein nachweislich gewinnbares Spiel gibt es "
            "mit neu archway gewinnbar; mit neu archway kit ist jedes Spiel gewinnbar.")
    assert note in " ".join(out.split()), out
    assert "About 4" not in out and "in 1,000" not in out and "every deal can be won" not in out


def test_a_new_player_is_told_in_words_where_the_games_are_saved_and_only_once(tmp_path: Path) -> None:
    """The first line on a new machine names the file, as the player would type it; no migration talk."""
    home = tmp_path / "home"
    home.mkdir()
    env = {**os.environ, "HOME": str(home), "PYTHONIOENCODING": "utf-8", "PYTHONPATH": str(ROOT), "LANG": "C.UTF-8"}
    for variable in ("DATABASE_URL", "XDG_DATA_HOME", "COLUMNS", "LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        env.pop(variable, None)

    def play(extra: dict[str, str]) -> str:
        result = subprocess.run([sys.executable, "-m", "gatebot", "play", "--deal", "1"], input="quit\n",
                                capture_output=True, text=True, encoding="utf-8", env={**env, **extra}, timeout=60,
                                check=False)
        assert result.returncode == 0 and result.stderr == "", result.stderr
        return result.stdout

    first = play({})
    assert first.splitlines()[0] == "Your games are saved in ~/.local/share/gatebot/gatebot.db."
    assert (home / ".local" / "share" / "gatebot" / "gatebot.db").is_file()
    assert not re.search(r"[Uu]pgrad|migrat|revision|\b000\d\b", first)
    assert "saved in" not in play({})  # the second time, the game just resumes

    elsewhere = tmp_path / "data"  # a data folder outside the home folder is named in full
    assert play({"XDG_DATA_HOME": str(elsewhere)}).splitlines()[0] == (
        f"Your games are saved in {elsewhere / 'gatebot' / 'gatebot.db'}."
    )
