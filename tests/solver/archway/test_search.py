"""The Archway solver and hints against the rules engine: wins replay there, pruning changes no verdict."""

from __future__ import annotations

import random

import pytest

from gatebot.rules import Game
from gatebot.rules.cards import CARD_TEXT
from gatebot.solver import registry
from gatebot.solver.archway.search import _behind, hint, positions_behind, solve, solve_position
from gatebot.solver.results import Outlook, Verdict

DONE_OTHERS_A = "KC KD {} KS"
DONE_OTHERS_K = "AC AD {} AS"


def hearts_position(ace: str, king: str, arch: str, columns: list[str], *, kit: bool = False) -> Game:
    """A position where clubs, diamonds and spades are complete and the hearts are still out."""
    text = "\n".join(
        [
            "archway kit" if kit else "archway",
            "A: " + DONE_OTHERS_A.format(ace),
            "K: " + DONE_OTHERS_K.format(king),
            "P: " + arch,
            *(f"{i + 1}: {column}" for i, column in enumerate(columns)),
        ]
    )
    return Game.from_text(text)


ARCH = "5H 8H 9H TH JH QH KH"
#: The 6♥ and 7♥ the foundations want lie under cards that can't go up, and there is no space.
STUCK = ["6H 4H", "6H 3H", "7H 2H", "7H AH"]
#: The same cards, the wanted ones on top.
FREE = ["4H 6H", "3H 6H", "2H 7H", "AH 7H"]


def replay(game: Game, line: tuple) -> Game:
    board = Game.from_text(game.to_text())
    for move in line:
        board.play(str(move))
    return board


def test_an_obvious_win_is_found_and_replays() -> None:
    game = hearts_position("5H", "8H", ARCH, FREE)
    found = solve(game, max_nodes=10_000, max_seconds=5)
    assert found.verdict is Verdict.WINNABLE
    assert replay(game, found.line).is_won


def test_an_obvious_loss_is_proved() -> None:
    game = hearts_position("5H", "8H", ARCH, STUCK)
    assert not game.legal_moves()
    found = solve(game, max_nodes=10_000, max_seconds=5)
    assert found.verdict is Verdict.LOST
    assert found.line == ()


def test_a_loss_with_moves_left_is_proved() -> None:
    # Each 6♥ and 7♥ lies under two cards that can't go up, and there is one space.
    game = hearts_position("5H", "8H", "8H 9H TH JH QH KH", ["6H 4H 3H", "6H 2H AH", "7H 7H 5H", ""])
    assert game.legal_moves()
    assert solve(game, max_nodes=100_000, max_seconds=5).verdict is Verdict.LOST
    assert solve_position(game, max_nodes=1_000_000, max_seconds=10, prune=False).verdict is Verdict.LOST


def test_kit_turns_the_stuck_position_into_a_win() -> None:
    stuck = hearts_position("5H", "8H", ARCH, STUCK)
    kit = hearts_position("5H", "8H", ARCH, STUCK, kit=True)
    assert solve(stuck, max_nodes=10_000, max_seconds=5).verdict is Verdict.LOST
    found = solve(kit, max_nodes=10_000, max_seconds=5)
    assert found.verdict is Verdict.WINNABLE
    assert any(move.target == "p" for move in found.line)  # putting a card back is what wins
    assert replay(kit, found.line).is_won


def test_a_finished_game() -> None:
    won = Game.from_text("archway\nA: KC KD KH KS\nK: AC AD AH AS\nP:\n1:\n2:\n3:\n4:")
    found = solve(won, max_nodes=10, max_seconds=1)
    assert (found.verdict, found.line) == (Verdict.WINNABLE, ())
    assert hint(won, seconds=0.2, behind=None).move is None
    lost = hearts_position("5H", "8H", ARCH, STUCK)
    given = hint(lost, seconds=0.2, behind=None)
    assert given.move is None
    assert given.outlook is Outlook.LOST


@pytest.mark.parametrize("deal", [1, 2, 3])
def test_kit_deals_are_won_and_the_line_replays_on_a_fresh_deal(deal: int) -> None:
    game = Game.new("archway", deal=deal, options=("kit",))
    found = solve(game, max_nodes=100_000, max_seconds=10)
    assert found.verdict is Verdict.WINNABLE
    fresh = Game.new("archway", deal=deal, options=("kit",))
    for move in found.line:
        fresh.play(move)
    assert fresh.is_won


@pytest.mark.parametrize("deal", [3, 14, 18])
def test_quick_deals_are_proved_lost(deal: int) -> None:
    game = Game.new("archway", deal=deal)
    assert solve(game, max_nodes=50_000, max_seconds=10).verdict is Verdict.LOST


def random_position(rng: random.Random, out: int, *, kit: bool) -> Game:
    """A random position with ``out`` cards off the foundations, spread over the columns and the arch."""
    while True:
        up, down = [], []
        for _ in range(4):
            total = rng.choice([26, 26, 26, *range(2, 27)])
            ace = rng.randint(max(1, total - 13), min(13, total - 1))
            up.append(ace)
            down.append(total - ace)
        if 104 - sum(up) - sum(down) == out:
            break
    cards = [
        rank * 4 + suit
        for suit in range(4)
        for rank in range(13)
        for _ in range(2 - (rank < up[suit]) - (rank >= 13 - down[suit]))
    ]
    rng.shuffle(cards)
    split = rng.randint(0, len(cards))
    columns: list[list[int]] = [[], [], [], []]
    for card in cards[:split]:
        columns[rng.randrange(4)].append(card)
    lines = [
        "archway kit" if kit else "archway",
        "A: " + " ".join(CARD_TEXT[(up[s] - 1) * 4 + s] for s in range(4)),
        "K: " + " ".join(CARD_TEXT[(13 - down[s]) * 4 + s] for s in range(4)),
        "P: " + " ".join(CARD_TEXT[c] for c in cards[split:]),
        *(f"{i + 1}: " + " ".join(CARD_TEXT[c] for c in column) for i, column in enumerate(columns)),
    ]
    return Game.from_text("\n".join(lines))


def test_pruning_changes_no_verdict() -> None:
    """The pruned search and the bare rules (every reversing move, every move into a space) agree."""
    rng = random.Random(7)
    verdicts = set()
    for _ in range(120):
        game = random_position(rng, rng.randint(6, 18), kit=rng.random() < 0.15)
        pruned = solve_position(game, max_nodes=200_000, max_seconds=10)
        bare = solve_position(game, max_nodes=200_000, max_seconds=10, prune=False)
        if pruned.decided and bare.decided:
            assert pruned.verdict is bare.verdict, game.to_text()
            verdicts.add(pruned.verdict)
        if pruned.verdict is Verdict.WINNABLE:
            assert replay(game, pruned.line).is_won
    assert verdicts == {Verdict.WINNABLE, Verdict.LOST}


def test_following_hints_wins() -> None:
    for game in (hearts_position("5H", "8H", ARCH, FREE), Game.new("archway", deal=5, options=("kit",))):
        for _ in range(400):
            if game.is_won:
                break
            given = hint(game, seconds=2.0, behind=None)
            assert given.outlook is Outlook.WINNABLE
            assert given.move in game.legal_moves()
            assert given.reason
            game.play(given.move)
        assert game.is_won


def test_a_hint_on_a_lost_game_puts_a_card_up_or_says_so() -> None:
    game = Game.new("archway", deal=3)
    given = hint(game, seconds=2.0, behind=None)
    assert given.outlook is Outlook.LOST
    assert given.move is not None and given.move.target in ("a", "k")
    assert given.move in game.legal_moves()


def test_hints_lead_away_from_positions_behind() -> None:
    # With kit, A♥ played from the arch into the space can go straight back: a win, but a circle.
    before = hearts_position("5H", "8H", "AH " + ARCH, ["6H 4H", "6H 3H", "7H 7H 2H", ""], kit=True)
    game = Game.from_text(before.to_text())
    game.play("ah4")
    assert positions_behind(game) == (before.to_text(),)
    naive = hint(game, seconds=2.0, behind=[])
    assert str(naive.move) == "4p"  # the shortest column first: back where the game was
    given = hint(game, seconds=2.0, behind=None)
    assert given.outlook is Outlook.WINNABLE
    assert given.move is not None and str(given.move) != "4p"
    assert given.move in game.legal_moves()


def test_positions_behind_kept_parsed_give_the_hints_they_give_parsed_afresh() -> None:
    game = Game.new("archway", deal=5, options=("kit",))
    previous: tuple[str, ...] = ()
    for _ in range(45):
        behind = positions_behind(game)
        kept = hint(game, seconds=5.0, behind=behind)  # all but the newest position parsed for the last hint
        assert _behind.cache_info().hits >= len(set(behind) & set(previous))
        previous = behind
        _behind.cache_clear()
        fresh = hint(game, seconds=5.0, behind=behind)
        assert (kept.move, str(kept.reason), kept.outlook) == (fresh.move, str(fresh.reason), fresh.outlook)
        assert kept.move is not None
        game.play(kept.move)
    assert len(previous) == 40


def test_positions_behind_are_the_last_forty_most_recent_first() -> None:
    game = Game.new("archway", deal=5, options=("kit",))
    texts = [game.to_text()]
    for _ in range(45):
        game.play(hint(game, seconds=1.0, behind=()).move)
        texts.append(game.to_text())
    behind = positions_behind(game)
    assert len(behind) == 40
    assert list(behind) == texts[-2::-1][:40]


def test_the_family_door_knows_archway() -> None:
    game = Game.new("archway", deal=3)
    assert registry.thinks_about(game)
    assert game.hidden_count == 0
    assert registry.solve(game, max_nodes=50_000, max_seconds=10).verdict is Verdict.LOST
    assert registry.positions_behind(game) == ()


@pytest.mark.parametrize("deal", [957, 969])
def test_winnable_deals_replay_on_a_fresh_deal(deal: int) -> None:
    found = solve(Game.new("archway", deal=deal), max_nodes=200_000, max_seconds=20)
    assert found.verdict is Verdict.WINNABLE
    fresh = Game.new("archway", deal=deal)
    for move in found.line:
        fresh.play(move)
    assert fresh.is_won
