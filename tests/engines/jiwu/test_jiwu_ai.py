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
        levels = ["random"] * seats
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


def test_ai_ignores_other_seats_secrets() -> None:
    """Scrambling every other seat's hand, deck, discard and 计策 (and the decks' order) leaves
    the AI's decision unchanged: it decides from public facts and its own cards only."""
    import random

    from jiwu_testkit import new

    rng = random.Random(3)
    state = new(3, 3)
    for _ in range(120):
        if ENGINE.result(state):
            break
        req = ENGINE.pending(state)[0]
        scrambled = {**state, "players": [dict(p) for p in state["players"]]}
        mix = random.Random(len(state["cards"]))
        for s, p in enumerate(scrambled["players"]):
            if s == req.seat:
                continue
            pool = p["hand"] + p["deck"] + p["discard"]
            mix.shuffle(pool)
            n, d = len(p["hand"]), len(p["deck"])
            p["hand"], p["deck"], p["discard"] = pool[:n], pool[n:n + d], pool[n + d:]
        scrambled["market_deck"] = mix.sample(state["market_deck"], len(state["market_deck"]))
        seed = rng.random()
        mine = ENGINE.ai_action(state, req.seat, random.Random(seed))
        assert ENGINE.ai_action(scrambled, req.seat, random.Random(seed)) == mine
        state, _ = ENGINE.apply(state, req.seat, mine)
