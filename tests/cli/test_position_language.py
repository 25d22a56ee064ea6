"""A position file ``gatebot solve`` can't read is refused in the terminal's language.

A player meets the rules' position errors here: ``gatebot solve FILE`` reads a position in
the text form of docs/rules.md#position-text and, when it is malformed, says why in one sentence that
names the line to fix. In a German terminal that sentence is German through and through; in
a C terminal it is the English it always was.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from gatebot.cli import main
from gatebot.rules import Game

from .test_language import GERMAN, ROOT

#: Words only an English sentence of the position errors has (not a card, a pile letter or an option).
ENGLISH = re.compile(r"(?<![\w-])(Line|line|the|is|has|give|cards?|foundations?|stock|reserve|pile|position|"
                     r"appears|empty|once|twice|not|only|options?)(?![\w-])")


def _with_line(variant: str, label: str, line: str, *options: str) -> str:
    """Deal 1 of ``variant`` (with ``options``) as position text, its ``label:`` line replaced by ``line``."""
    lines = Game.new(variant, deal=1, options=options).to_text().splitlines()
    return "\n".join(line if old.startswith(f"{label}:") else old for old in lines)


CASES = [
    # (position text, a German part of the refusal, the English part it replaces)
    ("gate\nL: 2H\n", "Eine Stellung von Gate hat 14 Zeilen (die Variante, dann L:, R:", "position has 14 lines"),
    ("", "Die Stellung ist leer: Ihre erste Zeile nennt die Variante, etwa 'gate'", "the position is empty"),
    ("spider\n", "Zeile 1: Eine Variante namens 'spider' gibt es nicht", "There is no variant called 'spider'"),
    ("gate draw-one\n", "Zeile 1: Gate hat keine Option 'draw-one': Seine Optionen sind single-moves",
     "line 1: Gate has no option 'draw-one'"),
    (_with_line("gate", "1", "1: 9S ZZ"), "Zeile 1: 'ZZ' ist keine Karte (schreib Karten wie 7H oder TD)",
     "is not a card"),
    (_with_line("gate", "2", "2: 5S 9S"), "Zeile 2: 9S steht schon in Zeile 1: Jede Karte kommt einmal vor",
     "is already on line 1"),
    (_with_line("gate", "W", "W: -"), "Zeile W: '-' steht nur für einen leeren Ablagestapel in der Zeile F:",
     "only marks an empty foundation"),
    (_with_line("gate", "S", "S: ?30"), "Zeile S: Der Talon soll 30 unbekannte Karten halten, aber in den anderen "
     "Zeilen fehlen 34 Karten", "the stock is said to hold 30 unseen cards"),
    (_with_line("canfield", "P", "P: 0"), "Zeile P: Gib die Nummer des Durchgangs an, ab 1", "give the pass number"),
    (_with_line("canfield", "B", "B: X"), "Zeile B: Gib den Grundwert an", "give the base rank"),
    (_with_line("canfield", "2", "2: 3H 9D"), "Zeile 2: 9D kann nicht auf 3H liegen: Die Stapel der Auslage",
     "can't lie on 3H"),
    (_with_line("canfield", "F", "F: QC - - - -"), "Zeile F: Gib die vier obersten Karten der Ablagestapel",
     "give four foundation tops"),
    (_with_line("archway", "A", "A: - AD AH AS"), "Zeile A: Ein Ablagestapel hält immer seine Grundkarte",
     "a foundation always holds its base card"),
    (_with_line("archway", "K", "K: KD KC KH KS"), "Zeile K: KD steht auf dem Platz für Kreuz; die Ablagestapel",
     "is in the clubs place"),
    (_with_line("archway", "4", "4: QC 9D 4H 3D AH 3S JH 6C 8H QS 7C 6H AD"),
     "Zeile 4: AD ist ein drittes Exemplar (die anderen stehen in den Zeilen A und 1)", "is a third copy"),
]


@pytest.mark.parametrize(("text", "german", "english"), CASES)
def test_a_malformed_position_is_refused_in_one_german_sentence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    text: str, german: str, english: str,
) -> None:
    """Each kind of position error, from every variant's reader, is German with no English left."""
    position = tmp_path / "position.txt"
    position.write_text(text, encoding="utf-8")
    monkeypatch.setenv("LANG", GERMAN)
    assert main(["solve", str(position)]) == 2
    out, err = capsys.readouterr()
    said = err.removeprefix(f"gatebot: Die Stellung in '{position}' lässt sich nicht lesen: ")
    assert out == "" and said != err and err.count("\n") == 1, err
    assert german in said and english not in err, err
    assert not ENGLISH.search(said.replace(german, "")) and not ENGLISH.search(german), said
    monkeypatch.setenv("LANG", "C")
    assert main(["solve", str(position)]) == 2
    assert english in capsys.readouterr().err


def test_a_german_terminal_reads_the_refusal_of_a_pasted_position_on_standard_input() -> None:
    """The same through a real process, the position piped in: one German line, nothing solved."""
    env = {**os.environ, "LANG": GERMAN, "PYTHONIOENCODING": "utf-8", "PYTHONPATH": str(ROOT)}
    result = subprocess.run([sys.executable, "-m", "gatebot", "solve", "-"], capture_output=True, text=True,
                            encoding="utf-8", env=env, timeout=60, check=False,
                            input=_with_line("canfield", "P", "P: 9", "draw-one", "passes-1"))
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == ("gatebot: Die Stellung in die Standardeingabe lässt sich nicht lesen: Zeile P: "
                             "Durchgang 9, aber dieses Spiel erlaubt nur einen Durchgang durch den Talon.\n")
