"""gatebot's Canfield solver beside Solvitaire, Blake & Gent's, on the same deals.

Solvitaire (github.com/thecharlesblake/Solvitaire) is the solver behind the published record
for Canfield; docs/solver.md says how to build it, and ``--solvitaire`` names the binary. Each of
gatebot's Canfield deals ``--deals`` is written as a Solvitaire deal file for its preset
``canfield-strict`` (see :func:`solvitaire_deal`), and solved by both, deal by deal, each with
``--seconds``: gatebot's solver in a worker process (the one of ``canfield_decided.py``, here
with rules of its own), Solvitaire as one process per deal. Which of the two goes first
alternates, so both see the same load; pin the whole run to one core (``taskset -c 1``), and
both run there.

gatebot's solver plays the rule closest to ``canfield-strict``: the foundations' last rank
(the one below the base) is never built on the tableau (``blocked``), as Solvitaire's
``is_next_legal_card`` never builds it. One difference stays (docs/solver.md): in
``canfield-strict`` no pile moves onto another while a space is open, which can only happen
once the reserve is out (``tableau_space_and_auto_reserve`` in Solvitaire's
``game_state.legal_moves.cpp``); gatebot's Canfield allows it. Every win of gatebot's is replayed
through gatebot's rules, and the table counts the wins whose line makes such a move.
``--solvitaire-spaces`` makes gatebot's solver keep that rule too (the benchmark filters the
solver's moves; it is not an option of the game), to see whether it changes a verdict.

Printed: won, lost and undecided per solver, the decided share, the median time of a decided
deal and over the deals both decided, the search rate (gatebot's positions per second;
Solvitaire's "states searched" per second of its own clock), and the deals both decided
where the verdicts differ. ``--csv`` keeps a row per deal and solver.

``--replay`` instead solves each deal with Solvitaire alone and replays every win it prints
through gatebot's rules, position by position: a check of the deal files, and that Solvitaire
plays no move gatebot's Canfield forbids.

    taskset -c 1 .venv/bin/python benchmarks/canfield_solvitaire.py --deals 1-200 --seconds 5 \\
        --solvitaire /path/to/solvitaire
    .venv/bin/python benchmarks/canfield_solvitaire.py --deals 1-200 --replay --solvitaire /path/to/solvitaire
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from canfield_decided import HERE, Row, Worker, write_csv

from gatebot.analyse import format_deals, parse_deals
from gatebot.rules import Game
from gatebot.rules.canfield import CanfieldGame
from gatebot.rules.cards import Card
from gatebot.rules.errors import IllegalMove
from gatebot.solver.canfield import search
from gatebot.solver.canfield.search import Position, Step

SUITS = "CDHS"
RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
#: Solvitaire's outcomes (``solver::result::type``), as the verdicts gatebot's solver gives.
OUTCOMES = {"solved": "winnable", "unsolvable": "lost", "timed-out": "unresolved",
            "memory-limit-reached": "unresolved", "terminated": "unresolved"}


def canfield(deal: int) -> CanfieldGame:
    """gatebot's Canfield deal ``deal``, as dealt."""
    game = Game.new("canfield", deal=deal)
    assert isinstance(game, CanfieldGame)
    return game


def card_name(card: int) -> str:
    """Solvitaire's name for a card index (``rank * 4 + suit``, suits C D H S): ``AC``, ``10D``, ``KS``."""
    return RANK_NAMES[card // 4] + SUITS[card % 4]


def solvitaire_deal(game: CanfieldGame) -> dict[str, list[Any]]:
    """A Canfield deal as Solvitaire's deal JSON for ``canfield-strict``.

    Solvitaire's parser (``deal_parser.cpp``) places each list's cards in order, so the last
    one is a pile's top — the reserve's top card too — and it turns the stock from the back of
    its list, one card at a time onto the waste, as gatebot turns ``raw().stock`` (next card
    last): the list is gatebot's stock as it lies, and reversed it is the order the cards are
    turned. The one foundation card is the base, which Solvitaire reads from it.
    """
    raw = game.raw()
    if sum(raw.foundations) != 1 or raw.waste or any(len(pile) != 1 for pile in raw.piles):
        raise ValueError("only a deal as dealt, before its first move, is written for Solvitaire")
    suit = raw.foundations.index(1)
    return {
        "tableau piles": [[card_name(card) for card in pile] for pile in raw.piles],
        "foundations": [card_name(raw.base * 4 + suit)],
        "reserve": [card_name(card) for card in raw.reserve],
        "stock": [card_name(card) for card in raw.stock],
    }


def parse_classify(output: str) -> tuple[str, float, int]:
    """Solvitaire's ``--classify`` line as (verdict, seconds, states searched).

    The line is ``, OUTCOME, MILLISECONDS, STATES, UNIQUE STATES, …, OUTCOME``
    (``solver::print_result_csv``).
    """
    for line in output.splitlines():
        if line.startswith(", "):
            fields = [field.strip() for field in line[2:].split(",")]
            return OUTCOMES[fields[0]], int(fields[1]) / 1000, int(fields[2])
    raise ValueError(f"no result line in Solvitaire's output: {output!r}")


class Solvitaire:
    """Runs the Solvitaire binary at ``path`` on deal files it writes in ``directory``."""

    name = "Solvitaire"

    def __init__(self, path: Path, directory: Path) -> None:
        self.path, self.directory = path, directory

    def run(self, game: CanfieldGame, seconds: float, *options: str) -> str:
        """Solvitaire's output for ``game`` (a deal as dealt), solved as ``canfield-strict`` in ``seconds``.

        Streamliners stay off (``none``, the default outside ``--solvability``): they are
        unsound, and every verdict here must be a proof.
        """
        file = self.directory / f"canfield-{game.deal}.json"
        file.write_text(json.dumps(solvitaire_deal(game)))
        command = [str(self.path), "--type", "canfield-strict", *options, "--streamliners", "none",
                   "--timeout", str(round(seconds * 1000)), str(file)]
        done = subprocess.run(command, capture_output=True, text=True, timeout=seconds + 60, check=False)
        if done.returncode != 0 or "[error]" in done.stderr:
            raise SystemExit(f"Solvitaire failed on deal {game.deal}: {done.stderr.strip() or done.returncode}")
        return done.stdout

    def solve(self, deal: int, seconds: float) -> Row:
        verdict, took, states = parse_classify(self.run(canfield(deal), seconds, "--classify"))
        return Row(self.name, deal, verdict, states, took)


#: A position as both solvers' outputs can be compared: the foundations' top cards, the piles
#: (sorted: Solvitaire may keep them in another order), the reserve bottom to top, and the cards
#: of the talon (Solvitaire turns the waste over as soon as the stock is out, gatebot when asked).
State = tuple[frozenset[str], tuple[tuple[str, ...], ...], tuple[str, ...], frozenset[str]]


def printed_states(output: str) -> list[State]:
    """The positions of the winning line Solvitaire prints without ``--classify`` (``print_solution``).

    Each position is printed in sections (``state_printer.cpp``): the foundations' tops in a row,
    then the tableau piles, the reserve, and the stock beside the waste, each column bottom to top,
    cards spelt ``10D``, an empty pile ``[]``. A space filled from the reserve is a move of its own
    there; gatebot fills it as part of the move that empties it, so those positions are left out.
    """
    if "Solution:" not in output:
        raise ValueError("Solvitaire printed no winning line")
    states = []
    for block in output.split("Solution:", 1)[1].split("=" * 35):
        sections: dict[str, list[list[str]]] = {}
        name = ""
        for line in block.splitlines():
            if line.startswith("--- "):
                name = line[4:].split(" ")[0]
                sections[name] = []
            elif name and line.strip():
                sections[name].append([_gatebot_text(cell) for cell in line.split("\t")])
        if not sections:
            continue
        columns: list[list[str]] = [[], [], [], []]
        for row in sections["Tableau"]:
            for column, cell in zip(columns, row, strict=False):
                if cell:
                    column.append(cell)
        reserve = tuple(row[0] for row in sections["Reserve"] if row[0])
        piles = tuple(sorted(tuple(column) for column in columns))
        if reserve and () in piles:
            continue
        foundations = frozenset(cell for cell in sections["Foundations"][0] if cell)
        talon = frozenset(cell for row in sections["Stock"] for cell in row if cell)
        states.append((foundations, piles, reserve, talon))
    return states


def _gatebot_text(cell: str) -> str:
    """A card as Solvitaire prints it, in gatebot's position text (``10D`` is ``TD``); "" for none."""
    cell = cell.strip()
    if cell in ("", "[]"):
        return ""
    return "T" + cell[2:] if cell.startswith("10") else cell


def state_of(game: CanfieldGame) -> State:
    """gatebot's position as a :data:`State`."""
    raw = game.raw()
    foundations = frozenset(str(card) for card in game.foundations if card is not None)
    piles = tuple(sorted(tuple(str(card) for card in pile) for pile in game.piles))
    talon = frozenset(str(Card.from_index(card)) for card in (*raw.stock, *raw.waste))
    return foundations, piles, tuple(str(card) for card in game.reserve), talon


def replay(game: CanfieldGame, states: list[State]) -> tuple[list[str], CanfieldGame]:
    """gatebot's moves that go through Solvitaire's ``states`` from ``game``, and the game they leave.

    Between two positions Solvitaire makes one move, turning the talon first if it needs to:
    each of gatebot's moves is tried after 0, 1, 2 … turns, the fewest turns first, until one
    reaches the next position. Raises ValueError, naming the position, when none does: a move
    Solvitaire's rules allow and gatebot's don't. ``game`` itself stays as it is.
    """
    if state_of(game) != states[0]:
        raise ValueError("Solvitaire's deal is not gatebot's")
    played: list[str] = []
    raw = game.raw()
    cycle = 2 * (len(raw.stock) + len(raw.waste)) + 2
    for number, target in enumerate(states[1:], 1):
        if state_of(game) == target:
            continue
        found: CanfieldGame | None = None
        turned = game.copy()
        for turns in range(cycle):
            for move in turned.legal_moves():
                trial = turned.copy()
                trial.play(str(move))
                if not move.is_draw and state_of(trial) == target:
                    found = trial
                    played += ["d"] * turns + [str(move)]
                    break
            if found is not None or not any(move.is_draw for move in turned.legal_moves()):
                break
            turned.play("d")
        if found is None:
            raise ValueError(f"no move of gatebot's reaches Solvitaire's position {number} from\n{game.to_text()}")
        game = found
    return played, game


def strict_spaces(moves: Callable[..., list[Step]]) -> Callable[..., list[Step]]:
    """``moves`` without pile moves while a space is open (the reserve out): ``canfield-strict``'s rule."""

    def strict(position: Position, *, safe: bool = True) -> list[Step]:
        found = moves(position, safe=safe)
        if position.reserve or all(position.piles):
            return found
        return [step for step in found if step[0] != "p"]

    return strict


def work() -> int:
    """The worker: reads ``deal seconds nodes strict`` lines, answers each with a JSON line.

    gatebot's solver with the foundations' last rank never built, and with ``strict`` 1
    Solvitaire's spaces rule too. A win's line is replayed through gatebot's rules (``replayed``),
    and ``space_moves`` counts its pile moves made while a space was open.
    """
    print(json.dumps({"file": search.__file__, "compiled": search.COMPILED}), flush=True)
    free_moves = search.moves
    for line in sys.stdin:
        deal, seconds, nodes, strict = line.split()
        game = canfield(int(deal))
        start = search.position_of(game)
        start = replace(start, blocked=(start.base - 1) % search.RANKS)
        search.moves = strict_spaces(free_moves) if strict == "1" else free_moves
        # The spaces rule is a filter on the Python search's moves: the compiled one doesn't know it.
        result = search.solve(start, max_seconds=float(seconds), max_nodes=int(nodes), compiled=strict != "1")
        replayed, space_moves = False, 0
        if result.verdict is search.Verdict.WINNABLE:
            try:
                for token in search.tokens(result.line):
                    raw = game.raw()
                    if token.isdigit() and not raw.reserve and not all(raw.piles):
                        space_moves += 1
                    game.play(token)
                replayed = game.is_won
            except IllegalMove:
                replayed = False
        answer = {"verdict": result.verdict.value, "nodes": result.nodes, "seconds": result.seconds,
                  "replayed": replayed, "space_moves": space_moves}
        print(json.dumps(answer), flush=True)
    return 0


@dataclass(frozen=True, slots=True)
class Win:
    """What gatebot's worker says of a won line besides the row."""

    deal: int
    replayed: bool
    space_moves: int


def median_time(rows: list[Row], deals: set[int] | None = None) -> str:
    """The median time of the decided deals among ``rows`` (only ``deals``, if given)."""
    times = [row.seconds for row in rows if row.verdict != "unresolved" and (deals is None or row.deal in deals)]
    return f"{statistics.median(times):.3f} s" if times else "-"


def table(rows: dict[str, list[Row]], unit: dict[str, str]) -> list[str]:
    """The Markdown table of both solvers' figures.

    Solvitaire counts its time in whole milliseconds, so its medians of quick deals are coarse;
    the total over the deals both decided is the steadier comparison.
    """
    decided = [{row.deal for row in found if row.verdict != "unresolved"} for found in rows.values()]
    both = set.intersection(*decided)
    lines = ["| solver | won | lost | undecided | decided | median time, decided deals "
             f"| median time, the {len(both)} deals both decided | total time, those deals | search rate |",
             "|---|---|---|---|---|---|---|---|---|"]
    for name, found in rows.items():
        won = sum(row.verdict == "winnable" for row in found)
        lost = sum(row.verdict == "lost" for row in found)
        speed = sum(row.nodes for row in found) / max(1e-9, sum(row.seconds for row in found))
        total = sum(row.seconds for row in found if row.deal in both)
        lines.append(f"| {name} | {won} | {lost} | {len(found) - won - lost} "
                     f"| {100 * (won + lost) / max(1, len(found)):.1f}% | {median_time(found)} "
                     f"| {median_time(found, both)} | {total:.1f} s | {speed:,.0f} {unit[name]}/s |")
    return lines


def replay_wins(binary: Path, deals: list[int], seconds: float) -> int:
    """Solve ``deals`` with Solvitaire and replay each winning line it prints through gatebot's rules.

    A check of the deal files and of the rules both solvers play: every win must replay.
    """
    failed = 0
    with tempfile.TemporaryDirectory(prefix="canfield-solvitaire-") as directory:
        solvitaire = Solvitaire(binary, Path(directory))
        for deal in deals:
            game = canfield(deal)
            output = solvitaire.run(game, seconds)
            if "Solution:" not in output:
                outcome = next((line for line in output.splitlines() if line.startswith("Solution Type:")), "?")
                print(f"deal {deal}: no win ({outcome.removeprefix('Solution Type: ')})")
                continue
            try:
                moves, end = replay(game, printed_states(output))
                if not end.is_won:
                    raise ValueError("the line ends before the game is won")
            except ValueError as error:
                failed += 1
                print(f"deal {deal}: Solvitaire's win does not replay: {error}")
            else:
                print(f"deal {deal}: Solvitaire's win replays through gatebot's rules in {len(moves)} moves")
    return 1 if failed else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", default="1-200", help="deal numbers: 1-200, or 1-10,20")
    parser.add_argument("--seconds", type=float, default=5.0, help="time budget per deal and solver")
    parser.add_argument("--nodes", type=int, default=100_000_000, help="gatebot's node budget per deal")
    parser.add_argument("--solvitaire", type=Path, help="the Solvitaire binary (required)")
    parser.add_argument("--solvitaire-spaces", action="store_true",
                        help="gatebot's solver moves no pile while a space is open, as canfield-strict")
    parser.add_argument("--csv", type=Path, help="write solver,deal,verdict,nodes,seconds rows here")
    parser.add_argument("--replay", action="store_true",
                        help="instead: replay each of Solvitaire's wins through gatebot's rules")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        return work()
    if args.solvitaire is None:
        parser.error("--solvitaire PATH names the Solvitaire binary")
    deals = parse_deals(args.deals)
    if args.replay:
        return replay_wins(args.solvitaire.resolve(), deals, args.seconds)
    gatebot = Worker("gatebot", HERE, Path(__file__).resolve())
    print(f"gatebot: {gatebot.file}", file=sys.stderr)
    rows: dict[str, list[Row]] = {"gatebot": [], "Solvitaire": []}
    wins: list[Win] = []
    strict = "1" if args.solvitaire_spaces else "0"
    began = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="canfield-solvitaire-") as directory:
        solvitaire = Solvitaire(args.solvitaire.resolve(), Path(directory))
        for index, deal in enumerate(deals):
            for name in ("gatebot", "Solvitaire") if index % 2 == 0 else ("Solvitaire", "gatebot"):
                if name == "gatebot":
                    answer = gatebot.ask(f"{deal} {args.seconds} {args.nodes} {strict}")
                    row = Row("gatebot", deal, answer["verdict"], answer["nodes"], answer["seconds"])
                    if row.verdict == "winnable":
                        wins.append(Win(deal, answer["replayed"], answer["space_moves"]))
                else:
                    row = solvitaire.solve(deal, args.seconds)
                rows[name].append(row)
                print(f"deal {deal} {name}: {row.verdict} {row.nodes} {row.seconds:.3f} s", file=sys.stderr)
    gatebot.close()
    if args.csv:
        write_csv(args.csv, rows)
    rules = "no pile moved while a space is open" if args.solvitaire_spaces else "piles moved while a space is open"
    search_kind = "Python" if args.solvitaire_spaces or not gatebot.compiled else "compiled"
    print(f"Canfield deals {format_deals(deals)}, {args.seconds:g} s a deal and solver; gatebot's {search_kind}"
          f" solver with the last rank never built on the tableau, {rules}")
    print("\n".join(table(rows, {"gatebot": "positions", "Solvitaire": "states"})))
    pairs = zip(rows["gatebot"], rows["Solvitaire"], strict=True)
    differ = [(ours.deal, ours.verdict, theirs.verdict) for ours, theirs in pairs
              if "unresolved" not in (ours.verdict, theirs.verdict) and ours.verdict != theirs.verdict]
    print(f"verdicts that differ on deals both decided (deal, gatebot, Solvitaire): {differ or 'none'}")
    unreplayed = [win.deal for win in wins if not win.replayed]
    print(f"gatebot's wins replayed through gatebot's rules: {len(wins) - len(unreplayed)} of {len(wins)}"
          f"{f' (not: {unreplayed})' if unreplayed else ''}")
    spaced = [win.deal for win in wins if win.space_moves]
    print(f"gatebot's wins whose line moves a pile onto a pile while a space is open: {len(spaced)} of {len(wins)}"
          f" {spaced}")
    print(f"{time.perf_counter() - began:.0f} s in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
