"""Properties over random playouts of many deals, and fuzzing of the move language."""

from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gatebot.rules import Game, IllegalMove, Move, NotationError, RulesError

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
def test_random_playouts_keep_every_invariant(variant, deal, data) -> None:
    name, options = variant
    game = Game.new(name, deal=deal, options=options)
    for _ in range(data.draw(st.integers(0, 120), label="length")):
        text = game.to_text()
        assert cards_in(text) == Counter({card: 1 for card in cards_in(Game.new("gate", deal=1).to_text())})
        assert Game.from_text(text).to_text() == text
        legal = game.legal_moves()
        assert len(set(legal)) == len(legal)
        if not legal:
            assert game.is_over
            break
        move = data.draw(st.sampled_from(legal), label="move")
        played = game.play(str(move))
        assert played == move
        assert game.to_text() != text
        assert game.undo() == move
        assert game.to_text() == text
        game.play(move)
    assert game.is_over == (game.is_won or not game.legal_moves())


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
