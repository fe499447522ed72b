"""The 极武三国 AI builds a deck and fights for regions: it beats the random walker (issue: ≥ 90 %)
and plays complete legal games against itself."""

from __future__ import annotations

import pytest
from jiwu_testkit import play_out

from engines.jiwu import ENGINE


def _win_rate(games: int) -> float:
    wins = 0
    for seed in range(games):
        seats = 2 + seed % 3
        levels = ["easy"] * seats
        me = seed % seats
        levels[me] = "normal"
        wins += me in play_out(seats, seed, levels)["winners"]
    return wins / games


def test_ai_beats_random() -> None:
    assert _win_rate(12) >= 0.9


@pytest.mark.slow
def test_ai_beats_random_often() -> None:
    assert _win_rate(90) >= 0.9


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_ai_self_play_finishes(seats: int) -> None:
    state = play_out(seats, 40 + seats, ["normal"] * seats)
    result = ENGINE.result(state)
    assert result is not None and len(result.winners) == 1
    assert state["end_reason"] in ("soldiers", "market")
