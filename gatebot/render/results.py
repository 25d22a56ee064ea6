"""A player's results of one variant as figures to draw: each recent game's cards home, and how often each score came.

This module only holds the numbers (:class:`ResultsChart`) and the sums a picture and its
alt text share (:func:`rolling_rate`, :func:`bins`); the drawing is
:mod:`gatebot.render.results_image`, imported only where a picture is asked for, so neither
Pillow's drawing of it nor its fonts load on the way of a move.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

#: How many of the latest games the picture shows one by one.
RECENT_GAMES = 100
#: How many games the win rate drawn over the recent games looks back on.
ROLLING = 10
#: How many of the latest games a chart keeps: the ones shown, and those the first one's win rate looks back on.
KEPT_GAMES = RECENT_GAMES + ROLLING - 1
#: How many bars the score distribution has below a full deck (a full deck, a win, gets its own).
SCORE_BARS = 13


@dataclass(frozen=True, slots=True)
class ResultsChart:
    """One variant's finished games, as the statistics picture shows them.

    ``recent`` is the latest games' (won, cards home), oldest first: at most :data:`KEPT_GAMES`, of
    which the last :data:`RECENT_GAMES` are drawn and the ones before only count in the first
    bars' win rate. ``scores[n]`` is how many of all ``games`` ended with ``n`` cards home (``n``
    from 0 to ``total``).
    """

    title: str
    total: int
    games: int
    wins: int
    recent: tuple[tuple[bool, int], ...]
    scores: tuple[int, ...]

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def shown(self) -> tuple[tuple[bool, int], ...]:
        """The games drawn one by one: the last :data:`RECENT_GAMES`."""
        return self.recent[-RECENT_GAMES:]

    def shown_rates(self) -> list[float]:
        """The win rate at each game drawn, looking back on up to :data:`ROLLING` games (earlier ones too)."""
        return rolling_rate(self.recent)[-len(self.shown):] if self.shown else []


def rolling_rate(recent: Sequence[tuple[bool, int]], window: int = ROLLING) -> list[float]:
    """The share of wins among each game and the up to ``window - 1`` games before it."""
    rates = []
    won = 0
    for index, (win, _score) in enumerate(recent):
        won += win
        if index >= window:
            won -= recent[index - window][0]
        rates.append(won / min(index + 1, window))
    return rates


def bin_width(total: int) -> int:
    """Cards per bar of the distribution: a full deck's scores below it in :data:`SCORE_BARS` bars."""
    return max(1, -(-total // SCORE_BARS))


def bins(chart: ResultsChart) -> list[int]:
    """The distribution's bars: games per :func:`bin_width` cards home below a full deck, then games with all home."""
    width = bin_width(chart.total)
    counts = [0] * -(-chart.total // width)
    for score, count in enumerate(chart.scores[: chart.total]):
        counts[score // width] += count
    return [*counts, chart.scores[chart.total] if len(chart.scores) > chart.total else 0]
