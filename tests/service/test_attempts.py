"""The rules of one challenge attempt: what undo may take back, when the attempt is over, what a rule costs."""

from datetime import UTC, datetime, timedelta

import pytest

from gatebot.rules import Game
from gatebot.service.attempts import AttemptRules, penalty
from gatebot.store import Challenge, Rule

from ..rules.builders import position

CLOSES = datetime(2026, 12, 2, 0, 0, tzinfo=UTC)


def rules(*, hints: Rule = Rule.ALLOWED, undo: Rule = Rule.ALLOWED) -> AttemptRules:
    return AttemptRules(7, "Friday cup", hints, undo, CLOSES)


def dealt(line: str = "") -> Game:
    game = Game.new("gate", deal=1)
    if line:
        result = game.play_line(line)
        assert result.error is None, result.error
    return game


def test_nothing_to_take_back_at_the_start() -> None:
    assert not rules().can_undo(dealt())


def test_a_move_can_be_taken_back_but_a_draw_cannot() -> None:
    assert rules().can_undo(dealt("3f"))
    assert not rules().can_undo(dealt("d"))
    assert not rules().can_undo(dealt("3f d"))


def test_moves_after_the_last_draw_can_be_taken_back_down_to_the_draw() -> None:
    game = dealt("3f d 45")
    assert rules().can_undo(game)
    game.undo()  # 45 is taken back: the draw is the last move again
    assert not rules().can_undo(game)


def test_a_column_filled_from_the_stock_cannot_be_taken_back() -> None:
    listed = position(columns={3: "AC", 5: "8H"}, stock="2D 9S")
    game = Game.from_text("\n".join(["gate stock-fill", *listed.to_text().splitlines()[1:]]))
    game.play_line("3f")  # column 3 empties with no reserve or waste card: the stock fills it
    assert game.last_move_showed_stock
    assert not rules().can_undo(game)
    plain = position(columns={3: "AC", 5: "8H"}, stock="2D 9S")  # without stock-fill the column stays empty
    plain.play_line("3f")
    assert rules().can_undo(plain)


def test_undo_forbidden_takes_nothing_back() -> None:
    forbidden = rules(undo=Rule.FORBIDDEN)
    assert not forbidden.undo_allowed
    assert not forbidden.can_undo(dealt("3f"))
    assert rules(undo=Rule.COUNTED).can_undo(dealt("3f"))
    assert rules(undo=Rule.COUNTED).undo_allowed


def test_hints_are_allowed_unless_forbidden() -> None:
    assert rules(hints=Rule.ALLOWED).hints_allowed
    assert rules(hints=Rule.COUNTED).hints_allowed
    assert not rules(hints=Rule.FORBIDDEN).hints_allowed


def test_an_attempt_is_closed_from_its_closing_time_on() -> None:
    attempt = rules()
    assert not attempt.closed(CLOSES - timedelta(microseconds=1))
    assert attempt.closed(CLOSES)
    assert attempt.closed(CLOSES + timedelta(days=3))


def test_rules_are_read_from_a_challenge_row() -> None:
    row = Challenge(id=12, name="Daily 1 Dec 2026", variant="archway", hints="forbidden", undo="counted",
                    closes_at=CLOSES)
    assert AttemptRules.of(row) == AttemptRules(12, "Daily 1 Dec 2026", Rule.FORBIDDEN, Rule.COUNTED, CLOSES, "archway")


def test_every_archway_move_can_be_taken_back_and_its_rules_say_nothing_of_draws() -> None:
    arch = AttemptRules(7, "Arch cup", Rule.ALLOWED, Rule.COUNTED, CLOSES, "archway")
    game = Game.new("archway", deal=1)
    game.play_line("2ca qck")
    assert arch.can_undo(game)
    now = CLOSES - timedelta(hours=3)
    assert arch.began(now) == "Your attempt at Arch cup has begun: hints allowed, undo counted, closes in 3 hours."
    canfield = AttemptRules(7, "Demon cup", Rule.ALLOWED, Rule.COUNTED, CLOSES, "canfield")
    assert "undo counted (never past a draw)" in canfield.began(now)
    turned = Game.new("canfield", deal=1)
    turned.play_line("d")
    assert not canfield.can_undo(turned)  # the first pass showed stock cards


@pytest.mark.parametrize(
    "sentence",
    [
        rules().no_hints(),
        rules().no_undo(),
        rules().undo_stops(),
        rules().has_closed(17),
        rules().played_already(),
    ],
    ids=["no_hints", "no_undo", "undo_stops", "has_closed", "played_already"],
)
def test_each_refusal_is_one_sentence_naming_the_challenge(sentence: str) -> None:
    assert "Friday cup" in sentence
    assert "\n" not in sentence and sentence.endswith(".")
    assert sentence[:-1].count(". ") == 0


def test_the_closing_sentence_gives_the_score() -> None:
    assert "17" in rules().has_closed(17)


@pytest.mark.parametrize(
    ("hints", "undo", "expected"),
    [
        (Rule.ALLOWED, Rule.ALLOWED, 0),
        (Rule.COUNTED, Rule.ALLOWED, 2),
        (Rule.ALLOWED, Rule.COUNTED, 3),
        (Rule.COUNTED, Rule.COUNTED, 5),
        (Rule.FORBIDDEN, Rule.COUNTED, 3),
        (Rule.COUNTED, Rule.FORBIDDEN, 2),
    ],
)
def test_the_penalty_is_one_move_per_counted_hint_or_undo(hints: Rule, undo: Rule, expected: int) -> None:
    assert penalty(hints, undo, 2, 3) == expected


def test_the_penalty_takes_the_stored_strings_too() -> None:
    assert penalty("counted", "counted", 1, 1) == 2
    assert penalty("allowed", "forbidden", 4, 4) == 0
