"""Properties over random playouts of many deals, and fuzzing of the move language and the position text."""

import operator
import time
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gatebot.errors import UserError
from gatebot.rules import Game, IllegalMove, Move, NotationError, PositionError, RulesError
from tests.rules.builders import games_in_play

VARIANTS = st.sampled_from([
    ("gate", ()), ("little-gate", ()), ("gate", ("single-moves",)), ("gate", ("stock-fill",)),
])
PLAYOUT = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def cards_in(text: str) -> Counter[str]:
    """Every card the position text shows, foundation tops expanded to the cards under them."""
    counts: Counter[str] = Counter()
    for line in text.splitlines()[1:]:
        label, _, rest = line.partition(":")
        for word in rest.split():
            if label == "F":
                if word != "-":
                    counts.update(r + word[1] for r in "A23456789TJQK"[: "A23456789TJQK".index(word[0]) + 1])
            else:
                counts[word] += 1
    return counts


@PLAYOUT
@given(variant=VARIANTS, deal=st.integers(1, 2**32 - 1), data=st.data())
def test_random_playouts_keep_every_card_once(variant, deal, data) -> None:
    # That every move plays, undoes and reads back is the contract of every variant (tests/test_variants.py).
    name, options = variant
    game = Game.new(name, deal=deal, options=options)
    every_card = Counter({card: 1 for card in cards_in(Game.new("gate", deal=1).to_text())})
    for _ in range(data.draw(st.integers(0, 120), label="length")):
        assert cards_in(game.to_text()) == every_card
        legal = game.legal_moves()
        if not legal:
            break
        game.push(data.draw(st.sampled_from(legal), label="move"))


@PLAYOUT
@given(deal=st.integers(1, 5000), steps=st.integers(0, 80), seed=st.integers(0, 2**16))
def test_validate_accepts_exactly_the_legal_moves(deal: int, steps: int, seed: int) -> None:
    import random

    rng = random.Random(seed)
    game = Game.new("gate", deal=deal)
    for _ in range(steps):
        legal = game.legal_moves()
        if not legal:
            break
        game.push(rng.choice(legal))
    legal = set(game.legal_moves())
    for source in [*"12345678", "l", "r", "w"]:
        for target in [*"12345678", "f"]:
            for count in (None, 1, 2, 3, 4):
                try:
                    accepted = game.validate(Move(source, target, count))
                except IllegalMove as error:
                    assert str(error)
                    continue
                assert accepted in legal


@settings(max_examples=400, deadline=None)
@given(text=st.text(max_size=30) | st.from_regex(r"[0-9lrwfdLRWF >:\-♥♠7hsct]{0,12}", fullmatch=True))
def test_any_text_is_played_or_refused_with_a_rules_error(text: str) -> None:
    game = Game.new("gate", deal=1)
    before = game.to_text()
    try:
        game.play(text)
    except (NotationError, IllegalMove) as error:
        assert str(error)
        assert game.to_text() == before
    result = Game.new("gate", deal=1).play_line(text)
    assert result.error is None or isinstance(result.error, RulesError)


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=400))
def test_any_text_as_a_position_is_read_or_refused_with_a_position_error(text: str) -> None:
    try:
        game = Game.from_text(text)
    except RulesError:
        return
    assert Game.from_text(game.to_text()).to_text() == game.to_text()


#: A run of digits longer than Python's int() reads (4,300), after something that reads as a
#: pile, a count or a hidden-card count, and before the rest of a move.
HUGE_NUMBERS = st.builds(
    lambda head, digit, length, tail: head + digit * length + tail,
    st.sampled_from(["", "3", "35:", "3 > 7 :", "7h 8s :", "7h2:", "fhk:", "r3:", "?", "0", "w"]),
    st.sampled_from("9170"),
    st.integers(4_290, 6_000),
    st.sampled_from(["", "3", "f", ":2", " 7h", " d"]),
)
#: Text of every kind a player might send: any characters (unicode, control characters), the
#: characters moves are made of, huge numbers, and long repetitions of a short piece.
ANY_TEXT = st.one_of(
    st.text(max_size=40),
    st.text(alphabet="0123456789lrwfdpak:>-,; ♥♠♦♣hsctjqT\t\n", max_size=16),
    HUGE_NUMBERS,
    st.builds(operator.mul, st.text(min_size=1, max_size=6), st.integers(1_000, 100_000)),
)


def assert_one_sentence(error: Exception) -> None:
    """A refusal a player can read: a rules error with one short line of text."""
    assert isinstance(error, RulesError) and isinstance(error, UserError)
    message = str(error)
    assert message and "\n" not in message
    assert len(message) <= 300, message[:100]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=games_in_play(), text=ANY_TEXT)
def test_any_text_as_moves_in_any_variant_is_played_or_refused_with_a_rules_error(game: Game, text: str) -> None:
    before = game.to_text()
    board = game.copy()
    try:
        move = board.play(text)
    except RulesError as error:
        assert_one_sentence(error)
        assert board.to_text() == before
    else:
        assert move in game.legal_moves()
    line = game.copy().play_line(text)
    if line.error is not None:
        assert_one_sentence(line.error)
    try:
        token = Move.from_text(text)
    except NotationError as error:
        assert_one_sentence(error)
    else:
        assert str(token) == text


#: Pieces a mutation puts into a position text: cards, marks, huge and foreign numbers, junk.
FRAGMENTS = st.one_of(
    st.sampled_from(["7H", "TD", "10♦", "-", "?", "?3", "?0", "?٣", "٣", "idle", "gate", "canfield", ":", "::"]),
    st.builds(lambda head, length: head + "9" * length, st.sampled_from(["", "?", "P: ", "S: ?", "R: ?"]),
              st.integers(4_290, 5_000)),
    st.text(max_size=12),
)


@st.composite
def mutated_positions(draw: st.DrawFn) -> str:
    """A valid position text (full or as its player sees it) with a few lines or words changed."""
    game = draw(games_in_play())
    lines = game.to_text(hide_stock=draw(st.booleans(), label="view")).splitlines()
    for _ in range(draw(st.integers(1, 3), label="mutations")):
        i = draw(st.integers(0, len(lines) - 1), label="line")
        words = lines[i].split(" ")
        kind = draw(st.sampled_from(["replace word", "insert", "delete line", "duplicate line", "swap lines",
                                     "move word", "long line"]))
        if kind == "replace word":
            words[draw(st.integers(0, len(words) - 1))] = draw(FRAGMENTS)
            lines[i] = " ".join(words)
        elif kind == "insert":
            at = draw(st.integers(0, len(lines[i])))
            lines[i] = lines[i][:at] + draw(FRAGMENTS) + lines[i][at:]
        elif kind == "delete line" and len(lines) > 1:
            del lines[i]
        elif kind == "duplicate line":
            lines.insert(i, lines[i])
        elif kind == "swap lines":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif kind == "move word" and len(words) > 1:
            word = words.pop(draw(st.integers(1, len(words) - 1)))
            lines[i] = " ".join(words)
            j = draw(st.integers(0, len(lines) - 1))
            lines[j] = f"{lines[j]} {word}"
        elif kind == "long line":
            lines[i] += f" {words[-1][:3] or '7H'}" * 2_000
    return "\n".join(lines)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=mutated_positions() | HUGE_NUMBERS | ANY_TEXT)
def test_any_position_text_is_read_or_refused_with_a_rules_error(text: str) -> None:
    try:
        game = Game.from_text(text)
    except RulesError as error:
        assert_one_sentence(error)
        return
    assert Game.from_text(game.to_text()).to_text() == game.to_text()
    assert Game.from_text(game.to_text(hide_stock=True)).to_text(hide_stock=True) == game.to_text(hide_stock=True)
    game.legal_moves()


MEGABYTE = 1_000_000
LONG_LINES = {
    "one word": "x" * MEGABYTE,
    "digits": "7" * MEGABYTE,
    "draws": "d " * (MEGABYTE // 2),
    "columns": "3 " * (MEGABYTE // 2),
    "moves": "3>7 " * (MEGABYTE // 4),
    "card pairs": "7h 8s " * (MEGABYTE // 6),
    "arrows": ">" * MEGABYTE,
}


@pytest.mark.parametrize(("variant", "options"), [("gate", ()), ("little-gate", ()), ("canfield", ()), ("archway", ())])
def test_a_megabyte_of_moves_is_refused_at_once(variant: str, options: tuple[str, ...]) -> None:
    for shape, text in LONG_LINES.items():
        started = time.perf_counter()
        with pytest.raises(NotationError) as refused:
            Game.new(variant, deal=5, options=options).play(text)
        assert_one_sentence(refused.value)
        line = Game.new(variant, deal=5, options=options).play_line(text)
        assert isinstance(line.error, NotationError) and not line.played
        with pytest.raises(NotationError):
            Move.from_text(text)
        assert time.perf_counter() - started < 0.5, shape


@pytest.mark.parametrize("variant", ["gate", "little-gate", "canfield", "archway"])
def test_a_megabyte_of_position_text_is_refused_at_once(variant: str) -> None:
    lines = Game.new(variant, deal=5).to_text().splitlines()
    for text in ("\n".join([lines[0], lines[1] + " 7H" * (MEGABYTE // 3), *lines[2:]]),
                 "\n".join([*lines, *lines[1:2] * (MEGABYTE // len(lines[1]))]),
                 f"{variant} {'x' * MEGABYTE}"):
        started = time.perf_counter()
        with pytest.raises(PositionError) as refused:
            Game.from_text(text)
        assert_one_sentence(refused.value)
        assert time.perf_counter() - started < 0.5


def test_leading_zeros_of_a_huge_number_do_not_count() -> None:
    game = Game.new("gate", deal=1)
    assert game.copy().play("0" * 5_000 + "3 f") == Move.from_text("3f")
    assert game.copy().play("3f:" + "0" * 5_000 + "1") == Move.from_text("3f")


def test_a_number_too_long_for_any_pile_or_count_is_notation() -> None:
    game = Game.new("gate", deal=1)
    for text in ("9" * 5_000, "3f:" + "9" * 5_000, "35:" + "1" * 4_301, "1234 f"):
        with pytest.raises(NotationError, match="too big a number for a move"):
            game.play(text)
    with pytest.raises(IllegalMove, match="Column 123 doesn't exist"):
        game.play("123 f")


def test_a_hidden_count_or_pass_number_too_long_is_refused_by_line() -> None:
    gate = Game.new("gate", deal=1).to_text(hide_stock=True)
    assert Game.from_text(gate.replace("S: ?34", "S: ?" + "0" * 5_000 + "34")).to_text(hide_stock=True) == gate
    with pytest.raises(PositionError, match=r"^Line S: 9+… is too big a number"):
        Game.from_text(gate.replace("S: ?34", "S: ?" + "9" * 5_000))
    canfield = Game.new("canfield", deal=1).to_text(hide_stock=True)
    for old, new in (("P: 1", "P: " + "9" * 5_000), ("R: ?12", "R: ?" + "9" * 5_000)):
        with pytest.raises(PositionError, match=rf"^Line {new[0]}: 9+… is too big a number"):
            Game.from_text(canfield.replace(old, new))
    with pytest.raises(PositionError, match=r"^Line P: give the pass number"):
        Game.from_text(canfield.replace("P: 1", "P: ٣"))
