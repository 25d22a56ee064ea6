"""Deciding a full position: verdicts, winning lines, budgets, and agreement with a naive search."""

from __future__ import annotations

import dataclasses
import functools
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gatebot.rules import Game, GateGame, Move
from gatebot.rules.cards import CARD_TEXT
from gatebot.solver import registry
from gatebot.solver.gate.search import DEFAULT_DOMINANCES, NO_DOMINANCES, Dominances, Search
from gatebot.solver.gate.solve import line_moves, solve, without_returns
from gatebot.solver.results import Verdict
from tests.lines import NO_WIN_DEAL_1, STOCK_OUT_DEAL_1
from tests.rules.builders import position

# -- helpers --------------------------------------------------------------------------

#: The default rules but the ``column_chains`` cut, which fires wherever ``buried_waste`` does (and
#: so switches it off) and would hide what the rules before it change.
WITHOUT_CHAINS = dataclasses.replace(DEFAULT_DOMINANCES, column_chains=False)



def gate(game: Game) -> GateGame:
    assert isinstance(game, GateGame)
    return game


def with_options(game: Game, *options: str) -> GateGame:
    """The same position played with ``options`` (the first line of the text names them)."""
    first, *rest = game.to_text().splitlines()
    return gate(Game.from_text("\n".join([" ".join([first.split()[0], *options]), *rest])))


def played(variant: str, deal: int, tokens: list[str], options: tuple[str, ...] = ()) -> GateGame:
    game = gate(Game.new(variant, deal=deal, options=options))
    for token in tokens:
        game.play(token)
    return game


def assert_line_wins(start: GateGame, line: tuple) -> None:
    """Replay ``line`` through the rules engine from a copy of ``start``: every move legal, and it wins."""
    board = Game.from_text(start.to_text())
    for number, move in enumerate(line, start=1):
        assert move in board.legal_moves(), f"move {number} ({move}) is not legal in\n{board.to_text()}"
        board.play(move)
    assert board.is_won, f"the line ends in\n{board.to_text()}"


def brute_force(game: GateGame, limit: int = 25_000) -> bool | None:
    """Whether ``game`` can be won, by trying every legal move: no pruning, no ordering, no cleverness.

    Depth-first over ``legal_moves()`` with ``push``/``undo``; a position (its whole text,
    columns in place) is entered once. None when more than ``limit`` positions would be needed.
    """
    board = game.copy()
    if board.is_won:
        return True
    seen = {board.to_text()}
    stack = [iter(board.legal_moves())]
    while stack:
        move = next(stack[-1], None)
        if move is None:
            stack.pop()
            if stack:
                board.undo()
            continue
        board.push(move)
        if board.is_won:
            return True
        text = board.to_text()
        if text in seen:
            board.undo()
            continue
        if len(seen) >= limit:
            return None
        seen.add(text)
        stack.append(iter(board.legal_moves()))
    return False


def position_text(variant: str, options: tuple[str, ...], piles: dict[str, list[int]], found: list[int]) -> str:
    """Position text (docs/rules.md#position-text) from card indices; ``piles`` keys: L R W S and 1..n."""
    count = 4 if variant == "little-gate" else 8

    def line(label: str) -> str:
        return f"{label}:" + "".join(" " + CARD_TEXT[c] for c in piles.get(label, []))

    tops = " ".join(CARD_TEXT[(k - 1) * 4 + suit] if k else "-" for suit, k in enumerate(found))
    lines = [
        " ".join((variant, *options)),
        line("L"),
        line("R"),
        f"F: {tops}",
        *(line(str(i)) for i in range(1, count + 1)),
        line("W"),
        line("S"),
    ]
    return "\n".join(lines)


def end_game(
    rng: random.Random, variant: str, options: tuple[str, ...], keep: int, *, deal: int | None = None, stop: int = 0
) -> GateGame:
    """A deal (random unless given) played at random until ``stop`` cards are left to draw, then cut down.

    All but ``keep`` cards are put up: the lowest cards of randomly chosen suits go onto their
    foundations wherever they lie, the stock's too; a column emptied that way is filled as the
    rules fill it.
    """
    if deal is None:
        deal = rng.randint(1, 2**32 - 1)
    game = gate(Game.new(variant, deal=deal, options=options))
    while game.stock_count > stop:
        legal = game.legal_moves()
        builds = [move for move in legal if not move.is_draw]
        game.push(rng.choice(builds) if builds and rng.random() < 0.7 else rng.choice(legal))
    raw = game.raw()
    found = list(raw.foundations)
    while 52 - sum(found) > keep:
        found[rng.choice([suit for suit in range(4) if found[suit] < 13])] += 1

    def kept(cards: tuple[int, ...]) -> list[int]:
        return [card for card in cards if card >> 2 >= found[card & 3]]

    left, right, waste, stock = kept(raw.reserves[0]), kept(raw.reserves[1]), kept(raw.waste), kept(raw.stock)
    columns = [kept(column) for column in raw.columns]
    for column in columns:
        if not column:
            if left or right:
                column.append((left if len(left) >= len(right) else right).pop())
            elif waste:
                column.append(waste.pop())
    piles = {"L": left, "R": right, "W": waste, "S": stock[::-1], **{str(i + 1): c for i, c in enumerate(columns)}}
    return gate(Game.from_text(position_text(variant, options, piles, found)))


def scattered(rng: random.Random, variant: str, options: tuple[str, ...], off: int) -> GateGame:
    """``off`` cards (the highest of random suits) dealt at random onto the table, sometimes 2 to a stock."""
    count = 4 if variant == "little-gate" else 8
    found = [13] * 4
    for _ in range(off):
        found[rng.choice([suit for suit in range(4) if found[suit]])] -= 1
    loose = [card for card in range(52) if card >> 2 >= found[card & 3]]
    rng.shuffle(loose)
    piles: dict[str, list[int]] = {name: [] for name in ("L", "R", "W", "S", *map(str, range(1, count + 1)))}
    if rng.random() < 0.25:
        piles["S"], loose = loose[:2], loose[2:]
    for card in loose:
        name = rng.choice(["L", "R", "W", *map(str, range(1, count + 1))])
        if name in "LR" and len(piles[name]) == 5:
            name = "1"
        piles[name].append(card)
    return gate(Game.from_text(position_text(variant, options, piles, found)))


EACH_RULE_OFF = {
    f"no-{field.name}": dataclasses.replace(DEFAULT_DOMINANCES, **{field.name: False})
    for field in dataclasses.fields(Dominances)
}
SETTINGS = {"default": DEFAULT_DOMINANCES, "none": NO_DOMINANCES, **EACH_RULE_OFF}
KINDS = {
    "gate": ("gate", ()),
    "gate-single": ("gate", ("single-moves",)),
    "little": ("little-gate", ()),
    "little-single": ("little-gate", ("single-moves",)),
}


SAMPLE = 30


@functools.cache
def judged_positions(kind: str) -> tuple[tuple[str, bool], ...]:
    """Small end games of one kind, each with the naive search's verdict (position text, won)."""
    variant, options = KINDS[kind]
    rng = random.Random(f"solver-agreement-{kind}")
    judged = []
    attempts = 0
    while len(judged) < SAMPLE:
        attempts += 1
        assert attempts < 200, "too many positions were too big for the naive search"
        if attempts % 4:
            keep = rng.randint(16, 26) if variant == "little-gate" else rng.randint(34, 46)
            game = end_game(rng, variant, options, keep)
        else:
            game = scattered(rng, variant, options, rng.randint(8, 14))
        won = brute_force(game)
        if won is not None:
            judged.append((game.to_text(), won))
    return tuple(judged)


# -- whole deals ----------------------------------------------------------------------


@pytest.mark.parametrize("deal", [1, 2, 617])
def test_a_winnable_deal_comes_with_a_line_that_wins_it_by_the_rules(deal):
    found = solve(Game.new("gate", deal=deal))
    assert found.verdict is Verdict.WINNABLE
    assert found.decided
    assert found.nodes > 0
    assert found.seconds >= 0
    fresh = gate(Game.new("gate", deal=deal))
    for number, move in enumerate(found.line, start=1):
        assert move in fresh.legal_moves(), f"move {number} ({move}) of deal {deal} is not legal"
        fresh.play(move)
    assert fresh.is_won


def test_solving_leaves_the_game_untouched():
    game = played("gate", 1, STOCK_OUT_DEAL_1[:20])
    before, history = game.to_text(), game.moves
    solve(game)
    assert game.to_text() == before
    assert game.moves == history


def test_a_won_game_is_winnable_with_nothing_left_to_play():
    game = position(foundations="KC KD KH KS")
    assert game.is_won
    found = solve(gate(game))
    assert found.verdict is Verdict.WINNABLE
    assert found.line == ()


# -- lost positions -------------------------------------------------------------------


def test_a_position_lost_by_construction_is_lost():
    # Clubs stop at 7♣; the 8♣ every other club waits for lies on the waste under the K♣.
    # A King leaves the waste only for its foundation (after the Q♣, which waits for the 8♣)
    # or for a free space, and no column can ever empty: the 9♣, 10♣, J♣ and Q♣ cannot go up
    # before the 8♣ and have no red card to go onto (every red card is home), and putting the
    # K♠ up, the only legal move, leaves the 9♣ in column 1.
    game = gate(position(
        variant="little-gate",
        foundations="7C KD KH QS",
        columns={1: "9C KS", 2: "TC", 3: "JC", 4: "QC"},
        waste="8C KC",
    ))
    assert game.stock_count == 0
    assert [str(move) for move in game.legal_moves()] == ["1f"]
    assert brute_force(game) is False
    for dominances in (DEFAULT_DOMINANCES, NO_DOMINANCES):
        found = solve(game, dominances=dominances)
        assert found.verdict is Verdict.LOST
        assert found.line == ()
        assert found.decided


def test_a_lost_end_game_of_deal_1_is_lost():
    # Deal 1 played at random until the stock is out; the naive search agrees that no win is left.
    game = played("gate", 1, NO_WIN_DEAL_1)
    assert game.stock_count == 0 and game.legal_moves()
    assert brute_force(game, limit=200_000) is False
    found = solve(game)
    assert found.verdict is Verdict.LOST
    assert found.line == ()


# -- budgets --------------------------------------------------------------------------


@pytest.mark.parametrize("max_nodes", [1, 2])
@pytest.mark.parametrize(("variant", "deal"), [("gate", 2), ("little-gate", 6)])
def test_a_tiny_budget_leaves_the_deal_unresolved_never_lost(variant, deal, max_nodes):
    # Gate deal 2 is winnable, Little Gate deal 6 lost; neither is decided in one or two positions.
    found = solve(Game.new(variant, deal=deal), max_nodes=max_nodes)
    assert found.verdict is Verdict.UNRESOLVED
    assert not found.decided
    assert found.line == ()
    assert found.nodes <= max_nodes


def test_no_time_leaves_a_long_search_unresolved():
    # Little Gate deal 5 needs thousands of positions; the clock is looked at every 1,024.
    found = solve(Game.new("little-gate", deal=5), max_seconds=0.0)
    assert found.verdict is Verdict.UNRESOLVED
    assert found.line == ()


def test_a_budget_big_enough_decides_the_deal_a_tiny_one_did_not():
    game = Game.new("little-gate", deal=6)
    assert solve(game, max_nodes=2).verdict is Verdict.UNRESOLVED
    assert solve(game, max_nodes=200_000).verdict is Verdict.LOST


# -- what the solver may be given -----------------------------------------------------


def test_a_hidden_stock_cannot_be_solved():
    hidden = Game.from_text(Game.new("gate", deal=1).to_text(hide_stock=True))
    with pytest.raises(ValueError, match="stock"):
        solve(gate(hidden))
    small = position(columns={1: "KS", 2: "QH"}, stock="2D 9C", hidden_stock=True)
    assert small.to_text().splitlines()[-1].startswith("S: ?")
    with pytest.raises(ValueError):
        solve(gate(small))


def test_a_hidden_stock_that_is_out_is_solved():
    game = played("gate", 1, STOCK_OUT_DEAL_1)
    shown = gate(Game.from_text(game.to_text(hide_stock=True)))
    assert shown.stock_count == 0
    found = solve(shown)
    assert found.verdict is Verdict.WINNABLE
    assert_line_wins(game, found.line)


# -- agreement with the naive search --------------------------------------------------


@pytest.mark.parametrize("kind", list(KINDS))
def test_the_sample_holds_won_and_lost_end_games(kind):
    verdicts = [won for _, won in judged_positions(kind)]
    assert len(verdicts) == SAMPLE
    assert verdicts.count(True) >= 3 and verdicts.count(False) >= 3, verdicts


@pytest.mark.parametrize("setting", list(SETTINGS))
@pytest.mark.parametrize("kind", list(KINDS))
def test_every_pruning_rule_keeps_the_naive_searchs_verdict(kind, setting):
    dominances = SETTINGS[setting]
    for text, won in judged_positions(kind):
        game = gate(Game.from_text(text))
        found = solve(game, dominances=dominances, max_nodes=200_000, max_seconds=20.0)
        expected = Verdict.WINNABLE if won else Verdict.LOST
        assert found.verdict is expected, f"{setting}: {found.verdict} for\n{text}"
        if won:
            assert_line_wins(game, found.line)
        else:
            assert found.line == ()


@pytest.mark.parametrize("deal", [5, 6, 37])
def test_pruning_keeps_the_verdict_of_little_gate_deals(deal):
    # Both settings decide these lost deals within a second or so; most other early deals
    # take the unpruned search far longer.
    game = Game.new("little-gate", deal=deal)
    pruned = solve(game)
    plain = solve(game, dominances=NO_DOMINANCES)
    assert pruned.decided and plain.decided
    assert pruned.verdict is plain.verdict is Verdict.LOST


# -- counterexamples to the pruning rules ---------------------------------------------

# 4♥ is not safe to put up: the black 3s are not both home (3♠ is in column 2), and the 3♠
# with the 2♦ on it has to move onto the 4♥ so that the A♦ under them can go up; the other
# red 4 is buried, the 2♦ has no black 3 to go onto (3♣ is home), and no column can empty.
UNSAFE_FOUR = dict(
    variant="little-gate",
    foundations="3C - 3H 2S",
    columns={1: "KC 4H", 2: "4D AD 3S 2D", 3: "KH", 4: "KS"},
    waste=" ".join(reversed(["3D", "4C", "4S", *(r + s for r in "56789TJQ" for s in "CDHS"), "KD"])),
)

# Single moves: the J♠ has to leave the Q♥ for the Q♦ (its twin) before the 10♦ can follow
# it, which empties column 3 and pulls the K♠ then the Q♠ from the waste; the Q♥ is used
# only after that (it goes up once the J♥ has come up off the waste), not at once.
SPLIT_THEN_WAIT = dict(
    variant="little-gate",
    foundations="KC 8D TH TS",
    columns={1: "9D QH JS", 2: "QD", 3: "TD", 4: "KH"},
    waste="KD JD JH QS KS",
)


def test_the_counterexample_positions_are_winnable_by_the_naive_search_and_unpruned_solver():
    for game in (gate(position(**UNSAFE_FOUR)), with_options(position(**SPLIT_THEN_WAIT), "single-moves")):
        assert brute_force(game) is True
        found = solve(game, dominances=NO_DOMINANCES)
        assert found.verdict is Verdict.WINNABLE
        assert_line_wins(game, found.line)


def test_a_card_still_needed_as_a_parent_is_not_forced_up():
    assert solve(gate(position(**UNSAFE_FOUR))).verdict is Verdict.WINNABLE


def test_a_split_whose_parent_is_used_later_is_searched_in_single_moves():
    game = with_options(position(**SPLIT_THEN_WAIT), "single-moves")
    assert solve(game).verdict is Verdict.WINNABLE


# -- winning lines without detours ----------------------------------------------------


def positions_along(start: GateGame, line: tuple) -> list[str]:
    """The position text before each move of ``line`` and after the last, every move checked legal."""
    board = Game.from_text(start.to_text())
    texts = [board.to_text()]
    for move in line:
        assert move in board.legal_moves(), f"{move} is not legal in\n{board.to_text()}"
        board.play(move)
        texts.append(board.to_text())
    assert board.is_won, f"the line ends in\n{board.to_text()}"
    return texts


@functools.cache
def searched_line(deal: int) -> tuple:
    """The search's own winning line for a Gate deal, before anything is cut out of it."""
    game = gate(Game.new("gate", deal=deal))
    search = Search(game)
    assert search.run(20_000, 5.0)
    return line_moves(game, search.path)


def shuttles(game: GateGame) -> list[tuple[Move, Move]]:
    """Column-to-column moves of ``game`` that cause no fill, each with the move taking the run back."""
    found = []
    for move in game.legal_moves():
        if not (move.source.isdigit() and move.target.isdigit()):
            continue
        board = game.copy()
        board.play(move)
        if not board.raw().columns[int(move.source) - 1]:
            continue  # the column emptied and was filled: the position can't come back
        back = [m for m in board.legal_moves() if m.source == move.target and m.target == move.source]
        for reverse in back:
            again = board.copy()
            again.play(reverse)
            if again.to_text() == game.to_text():
                found.append((move, reverse))
    return found


@settings(max_examples=12, deadline=None, derandomize=True)
@given(deal=st.sampled_from([1, 2, 3, 12, 46, 52]), data=st.data())
def test_a_line_with_detours_cut_out_still_wins_is_no_longer_and_visits_no_position_twice(deal, data):
    game = gate(Game.new("gate", deal=deal))
    line = list(searched_line(deal))
    # Now and then a run shuttled to another column and back, where the line allows one.
    for _ in range(data.draw(st.integers(0, 3), label="detours")):
        at = data.draw(st.integers(0, len(line) - 1), label="at")
        board = game.copy()
        for move in line[:at]:
            board.play(move)
        options = shuttles(board)
        if options:
            there, back = data.draw(st.sampled_from(options), label="shuttle")
            line[at:at] = [there, back]
    cut = without_returns(game, tuple(line))
    texts = positions_along(game, cut)
    assert len(texts) == len(set(texts)), "a position comes twice"
    assert len(cut) <= len(line)
    assert len(cut) <= len(searched_line(deal))  # every shuttle added went again


def test_a_move_and_its_inverse_are_cut_out_of_a_line():
    game = gate(Game.new("gate", deal=12))
    line = searched_line(12)
    for at in range(len(line)):
        board = game.copy()
        for move in line[:at]:
            board.play(move)
        if options := shuttles(board):
            break
    else:
        pytest.fail("deal 12's line has no place where a run can go over and back")
    there, back = options[0]
    texts = positions_along(game, line)
    assert len(texts) == len(set(texts))  # the search's line itself has no detour here
    detoured = (*line[:at], there, back, *line[at:])
    assert without_returns(game, detoured) == line


def test_the_solvers_line_for_deal_46_passes_no_position_twice():
    # The search's own line for deal 46 comes back to a position three times on its way.
    game = gate(Game.new("gate", deal=46))
    raw = positions_along(game, searched_line(46))
    assert len(raw) > len(set(raw))
    found = registry.solve(game, max_nodes=20_000, max_seconds=5.0)
    assert found.verdict is Verdict.WINNABLE
    texts = positions_along(game, found.line)
    assert len(texts) == len(set(texts))
    assert len(found.line) < len(searched_line(46))


# -- against the verdicts of the search before its later pruning rules ------------------

OLD_VERDICTS = Path(__file__).with_name("old_verdicts.txt")


def old_verdicts() -> dict[tuple[str, int], tuple[str, int]]:
    """``(variant, deal) -> (verdict, nodes)`` from ``old_verdicts.txt``."""
    rows = [line.split() for line in OLD_VERDICTS.read_text().splitlines() if not line.startswith("#")]
    return {(variant, int(deal)): (verdict, int(nodes)) for variant, deal, verdict, nodes in rows}


def test_the_old_verdicts_file_holds_both_variants_and_every_kind_of_verdict():
    rows = old_verdicts()
    assert len(rows) == 500
    assert {verdict for verdict, _ in rows.values()} == {"winnable", "lost", "unresolved"}


def test_no_verdict_contradicts_the_old_search_and_every_win_replays():
    """The cheap deals of ``old_verdicts.txt`` (all 300 are in benchmarks/gate_verdicts.py's check).

    Gate deals 1-60, the Little Gate deals the old search decided within 3,000 nodes and
    Little Gate's one winnable deal: each is decided again, the same way, and each win
    replays through the rules engine.
    """
    rows = old_verdicts()
    chosen = [key for key, (verdict, nodes) in rows.items()
              if (key[0] == "gate" and key[1] <= 60) or (verdict != "unresolved" and nodes < 3_000)
              or (key[0] == "little-gate" and verdict == "winnable")]
    assert len(chosen) > 80
    for variant, deal in chosen:
        game = gate(Game.new(variant, deal=deal))
        found = solve(game, max_nodes=150_000, max_seconds=600)
        assert found.verdict.value == rows[variant, deal][0], (variant, deal)
        if found.verdict is Verdict.WINNABLE:
            assert_line_wins(game, found.line)


def with_a_stock(rng: random.Random, off: int) -> GateGame:
    """A Little Gate position with ``off`` cards loose (the highest of random suits), 2-6 of the lowest in the stock.

    With the lowest cards still to come, much of the table can't go up before a draw: the
    kind of position where the draw is forced.
    """
    found = [13] * 4
    for _ in range(off):
        found[rng.choice([suit for suit in range(4) if found[suit]])] -= 1
    loose = [card for card in range(52) if card >> 2 >= found[card & 3]]
    stock = rng.randint(2, 6)
    piles: dict[str, list[int]] = {name: [] for name in ("L", "R", "W", "1", "2", "3", "4")}
    piles["S"], loose = loose[:stock], loose[stock:]  # loose is lowest first
    rng.shuffle(piles["S"])
    rng.shuffle(loose)
    for number, card in enumerate(loose):
        name = str(number + 1) if number < 4 else rng.choice(["L", "R", "W", "W", "1", "2", "3", "4"])
        piles[name].append(card)
    return gate(Game.from_text(position_text("little-gate", (), piles, found)))


def test_forcing_the_draw_keeps_the_naive_searchs_verdict_with_cards_in_the_stock():
    """Small positions with a stock, where the draw rule changes what is searched: same verdict as the naive search."""
    rng = random.Random("stuck-draw")
    off = dataclasses.replace(WITHOUT_CHAINS, stuck_draw=False)
    verdicts = []
    for _ in range(300):
        game = with_a_stock(rng, rng.randint(14, 18))
        pruned = solve(game, dominances=WITHOUT_CHAINS, max_nodes=50_000, max_seconds=20.0)
        if pruned.nodes == solve(game, dominances=off, max_nodes=50_000, max_seconds=20.0).nodes:
            continue  # the rule made no difference here
        won = brute_force(game)
        if won is None:
            continue
        assert pruned.verdict is (Verdict.WINNABLE if won else Verdict.LOST), game.to_text()
        verdicts.append(won)
    assert len(verdicts) >= 5 and True in verdicts and False in verdicts, verdicts


# -- a bottom part of the waste that can never come out --------------------------------

LOST_LITTLE_GATE_DEALS = (1, 2, 4, 5, 8)


def lost_deal_end_game(rng: random.Random, keep: int) -> GateGame:
    """A lost Little Gate deal played at random until three cards or fewer are left to draw, then cut down.

    All but ``keep`` cards are put up: the lowest cards of randomly chosen suits go up wherever
    they lie, the stock's too; a column emptied that way is filled as the rules fill it. What is
    left is the end game of a lost deal, small enough for the naive search, with the waste the
    random line piled up.
    """
    deal = rng.choice(LOST_LITTLE_GATE_DEALS)
    return end_game(rng, "little-gate", (), keep, deal=deal, stop=rng.randint(0, 3))


def test_the_buried_waste_cut_keeps_the_naive_searchs_verdict_on_lost_deals_end_games():
    """End games of lost Little Gate deals where the cut fires: the naive search's verdict, and the same without it."""
    rng = random.Random("buried-waste")
    off = dataclasses.replace(WITHOUT_CHAINS, buried_waste=False)
    at_the_start = []
    verdicts = []
    for _ in range(200):
        game = lost_deal_end_game(rng, rng.randint(14, 22))
        pruned = solve(game, dominances=WITHOUT_CHAINS, max_nodes=50_000, max_seconds=20.0)
        unpruned = solve(game, dominances=off, max_nodes=50_000, max_seconds=20.0)
        fires = Search(game, WITHOUT_CHAINS)._waste_is_buried()
        if not fires and pruned.nodes == unpruned.nodes:
            continue  # the cut made no difference here
        won = brute_force(game)
        if won is None:
            continue
        expected = Verdict.WINNABLE if won else Verdict.LOST
        assert pruned.verdict is unpruned.verdict is expected, game.to_text()
        assert solve(game, dominances=NO_DOMINANCES, max_nodes=50_000, max_seconds=20.0).verdict is expected
        if fires:
            assert not won and pruned.nodes == 1, game.to_text()  # lost where it is entered
            at_the_start.append(game.stock_count)
        verdicts.append(won)
    assert len(at_the_start) >= 10 and any(at_the_start) and 0 in at_the_start, at_the_start
    assert True in verdicts, "the cut should also have fired inside some winnable end game"


def spades_only(free_space: bool) -> GateGame:
    """Only the spades left, so no spade can be built onto a card; the A♠ lies under the 6♠ in the waste.

    With every column held by a spade above the A♠, and the 5♠ on a gatepost, the 6♠ could leave
    only as a fill from the waste, after the 5♠ had filled a column, and no column can empty: lost.
    With column 4 a free space instead, the 6♠ is moved there by hand and everything goes up.
    """
    columns = {1: "2S", 2: "3S", 3: "4S", 4: "" if free_space else "7S"}
    return gate(position(variant="little-gate", foundations="KC KD KH -", columns=columns, left="5S",
                         waste="AS 6S", stock="" if free_space else "8S"))


def test_a_waste_card_that_can_leave_only_as_a_fill_makes_the_position_lost_at_once():
    game = spades_only(free_space=False)
    assert game.stock_count == 6  # the cut doesn't wait for the stock to run out
    assert brute_force(game) is False
    found = solve(game)
    assert found.verdict is Verdict.LOST and found.nodes == 1
    assert solve(game, dominances=WITHOUT_CHAINS).nodes == 1  # the buried_waste cut alone
    off = dataclasses.replace(WITHOUT_CHAINS, buried_waste=False)
    assert solve(game, dominances=off).nodes > 1


def assert_the_cut_holds_back_from_a_win(game: GateGame) -> None:
    """The cut doesn't fire on ``game``, which the naive search wins, and the search finds a winning line."""
    assert not Search(game)._waste_is_buried()
    assert brute_force(game) is True
    found = solve(game)
    assert found.verdict is Verdict.WINNABLE
    assert_line_wins(game, found.line)


def test_a_free_space_beside_the_waste_keeps_the_cut_from_firing():
    game = spades_only(free_space=True)
    assert_the_cut_holds_back_from_a_win(game)


def test_buried_cards_on_the_table_and_the_gateposts_alone_prove_nothing():
    # Every spade left is buried under the A♠ (their parents are red, all up), the columns and
    # the gatepost hold five of them, and the A♠ lies in the waste: but no card above it has to
    # leave as a fill, and once the K♥ is up the A♠ goes up too.
    game = gate(position(variant="little-gate", foundations="KC KD QH -",
                         columns={1: "2S", 2: "3S", 3: "4S", 4: "5S"}, left="6S", waste="AS KH"))
    assert_the_cut_holds_back_from_a_win(game)


def test_the_buried_waste_cut_is_tried_on_little_gates_four_columns_not_on_gates_eight():
    little = Search(Game.new("little-gate", deal=4), WITHOUT_CHAINS)
    assert little.dominances.buried_waste
    assert not Search(Game.new("gate", deal=4), WITHOUT_CHAINS).dominances.buried_waste
    # With the column_chains cut on (the default) it is off: that cut fires wherever it does.
    assert not Search(Game.new("little-gate", deal=4)).dominances.buried_waste
    # On Little Gate it shortens a proof of loss; asked off, the search is the longer one.
    cut, whole = solve(Game.new("little-gate", deal=4), dominances=WITHOUT_CHAINS), solve(
        Game.new("little-gate", deal=4), dominances=dataclasses.replace(WITHOUT_CHAINS, buried_waste=False)
    )
    assert cut.verdict is whole.verdict is Verdict.LOST
    assert cut.nodes * 10 < whole.nodes


# -- cards that can never leave their places, each waiting on another --------------------------


def chains_end_game(rng: random.Random, index: int) -> GateGame:
    """An end game of four kinds in turn: a lost Little Gate deal's, a Little Gate or Gate deal's, single moves."""
    kind = index % 4
    if kind == 0:
        return lost_deal_end_game(rng, rng.randint(14, 22))
    if kind == 1:
        return end_game(rng, "little-gate", (), rng.randint(12, 18), stop=rng.randint(0, 3))
    if kind == 2:
        return end_game(rng, "gate", (), rng.randint(14, 20), stop=rng.randint(0, 2))
    return end_game(rng, "little-gate", ("single-moves",), rng.randint(12, 16), stop=rng.randint(0, 3))


def test_the_column_chains_cut_keeps_the_naive_searchs_verdict_on_end_games():
    """End games where the cut fires or changes the search: the naive search's verdict, with it, without, alone."""
    rng = random.Random("column-chains")
    off = dataclasses.replace(DEFAULT_DOMINANCES, column_chains=False)
    alone = dataclasses.replace(NO_DOMINANCES, column_chains=True)
    at_the_start = []
    verdicts = []
    for index in range(120):
        game = chains_end_game(rng, index)
        runs = [solve(game, dominances=rules, max_nodes=50_000, max_seconds=20.0)
                for rules in (DEFAULT_DOMINANCES, off, alone, NO_DOMINANCES)]
        fires = Search(game, compiled=False)._columns_are_chained()
        if not fires and runs[0].nodes == runs[1].nodes and runs[2].nodes == runs[3].nodes:
            continue  # the cut made no difference here
        won = brute_force(game)
        if won is None:
            continue
        expected = Verdict.WINNABLE if won else Verdict.LOST
        assert [run.verdict for run in runs] == [expected] * 4, game.to_text()
        if fires:
            assert not won and runs[0].nodes == runs[2].nodes == 1, game.to_text()  # lost where it is entered
            at_the_start.append(game.stock_count)
        verdicts.append(won)
    assert len(at_the_start) >= 10 and any(at_the_start) and 0 in at_the_start, at_the_start
    assert True in verdicts, "the cut should also have fired inside some winnable end game"


def test_the_column_chains_cut_holds_the_buried_waste_cut_and_more():
    """Wherever ``buried_waste`` fires, so does ``column_chains``; and it fires where that one doesn't."""
    rng = random.Random("chains-and-buried")
    buried = chained = 0
    for index in range(200):
        search = Search(chains_end_game(rng, index), compiled=False)
        if search._waste_is_buried():
            buried += 1
            assert search._columns_are_chained()
        chained += search._columns_are_chained()
    assert buried >= 10 and chained > buried, (buried, chained)


#: Gate with the clubs up and the Sixes of the red suits: the A♠ lies in the waste under the 5♠, and
#: the 7♦ and 7♥ under it too. The columns can't empty: the 2♠ and 3♠ can't go up nor onto a card;
#: the 8♥ waits for the 7♥, and for a black Nine to show, but the 9♠ keeps the 8♦ on it for good
#: (the 8♦ waits for the 7♦, and its other parent, the 9♣, is up); the Queens and Kings wait for the
#: Sevens and for the K♠, in the waste. The J♠ can only go from one red Queen to the other.
CHAINED = dict(
    foundations="KC 6D 6H -",
    columns={1: "2S", 2: "3S", 3: "8H", 4: "9S 8D", 5: "QH JS", 6: "QD", 7: "KH", 8: "KD"},
    waste="4S 6S 7S 8S TS QS KS 9D TD JD 9H TH JH 7D 7H AS 5S",
    stock="",
    rest="waste",
)


def test_cards_that_can_only_wait_on_each_other_make_the_position_lost_at_once():
    game = gate(position(**CHAINED))  # type: ignore[arg-type]
    search = Search(game, compiled=False)
    assert search._columns_are_chained()
    assert brute_force(game) is False
    found = solve(game)
    assert found.verdict is Verdict.LOST and found.nodes == 1
    alone = dataclasses.replace(NO_DOMINANCES, column_chains=True)
    assert solve(game, dominances=alone).nodes == 1
    assert solve(game, dominances=NO_DOMINANCES).nodes > 1  # the J♠ goes to the Q♦ first


def test_a_card_with_a_card_on_it_for_good_can_still_carry_it_away():
    # The 8♠ stays on the 9♥ (the A♠ is in the waste, and the 8♠'s other parent, the 9♦, is up), but
    # the 9♥ can still move, carrying the 8♠, onto the 10♠: column 1 empties and the 4♠ fills it, the
    # A♠ goes up, and the spades follow. Counting a card that has a card on it for good as unable to
    # move would call this lost.
    game = gate(position(variant="little-gate", foundations="KC KD 8H -",
                         columns={1: "9H 8S", 2: "JH TS", 3: "2S", 4: "3S"},
                         waste="KH QH TH KS QS JS 9S 7S 6S 5S AS 4S", stock="", rest="waste"))
    assert not Search(game, compiled=False)._columns_are_chained()
    assert brute_force(game) is True
    found = solve(game)
    assert found.verdict is Verdict.WINNABLE
    assert_line_wins(game, found.line)


def test_the_hints_search_without_the_column_chains_cut():
    from gatebot.solver.gate.hint import HINT_DOMINANCES

    assert DEFAULT_DOMINANCES.column_chains and not HINT_DOMINANCES.column_chains
