"""The AI: legal moves from its own view only, and clearly stronger than random and easy play."""

from __future__ import annotations

import random

import pytest
from risk_testkit import new, play, position, scramble_hidden

from engines.risk import ENGINE
from engines.risk.engine import random_action


def _win_rate(opponent: str, games: int, variant: str = "classic", seed0: int = 1000) -> float:
    wins = 0
    for g in range(games):
        me = g % 2
        state = new(2, variant, "quick", seed=seed0 + g)
        final, _ = play(ENGINE, state, {me: "normal", 1 - me: opponent}, seed=g)
        wins += final["winners"] == [me]
    return wins / games


def test_normal_beats_random_in_at_least_95_percent_of_1v1_games() -> None:
    """60 games (about 2.5 s), at most 4 lost: an AI that truly wins 99% (400 of 400 measured)
    fails that 1 time in 3,000, one at only 90% passes 1 time in 4; 200 games in the slow tests."""
    assert _win_rate("random", 60) >= 0.93


def test_normal_beats_easy_in_most_1v1_games() -> None:
    """At most 6 of 60 lost: an 80% AI passes 3 times in 100 (400 of 400 measured)."""
    assert _win_rate("easy", 60, seed0=2000) >= 0.9


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["classic", "neutral", "mission", "hq"])
def test_normal_beats_random_and_easy_large_sample(variant: str) -> None:
    assert _win_rate("random", 200, variant, seed0=5000) >= 0.95
    assert _win_rate("easy", 200, variant, seed0=9000) >= 0.8


@pytest.mark.slow
def test_normal_wins_a_fair_share_against_three_easy_players() -> None:
    """A fair share is 25 %; against the greedy easy (issue 23) normal won 25 of these 60."""
    wins = 0
    for g in range(60):
        me = g % 4
        state = new(4, "classic", "quick", seed=300 + g)
        final, _ = play(ENGINE, state, {s: ("normal" if s == me else "easy") for s in range(4)}, seed=g)
        wins += final["winners"] == [me]
    assert wins / 60 >= 0.35


@pytest.mark.parametrize("variant,seats", [("mission", 4), ("hq", 3), ("classic", 3)])
def test_ai_decision_ignores_what_it_cannot_see(variant: str, seats: int) -> None:
    rng = random.Random(5)
    state = new(seats, variant, "quick", seed=21)
    checked = changed = 0
    for _ in range(400):
        if ENGINE.result(state) is not None:
            break
        req = ENGINE.pending(state)[-1]
        for level in ENGINE.ai_levels():
            other = scramble_hidden(state, req.seat, rng)
            changed += other != state
            assert ENGINE.view(other, req.seat) == ENGINE.view(state, req.seat)
            a = ENGINE.ai_action(state, req.seat, random.Random(9), level)
            b = ENGINE.ai_action(other, req.seat, random.Random(9), level)
            assert a == b
        checked += 1
        action = ENGINE.ai_action(state, req.seat, rng) if rng.random() < 0.7 \
            else random_action(ENGINE, state, req.seat, rng)
        state, _ = ENGINE.apply(state, req.seat, action)
    assert checked > 50 and changed > 20


def test_ai_actions_are_always_legal_and_timeouts_too() -> None:
    rng = random.Random(2)
    for variant, seats in (("classic", 3), ("neutral", 2), ("hq", 4), ("mission", 5)):
        state = new(seats, variant, rng.choice(["quick", "classic"]), seed=rng.randint(0, 999))
        for _ in range(3000):
            if ENGINE.result(state) is not None:
                break
            req = ENGINE.pending(state)[0]
            timeout = ENGINE.timeout_action(state, req, rng)
            ENGINE.apply(state, req.seat, timeout)  # must be legal
            action = ENGINE.ai_action(state, req.seat, rng, rng.choice(["normal", "easy"]))
            state, _ = ENGINE.apply(state, req.seat, action)
        assert ENGINE.result(state) is not None


def test_timeout_defaults() -> None:
    """Time-outs: end the phase, put everything on a border, move in the minimum."""

    state = position(2, {"ontario": 1, "japan": 1}, {"quebec": 8, "kamchatka": 3}, dice=[6, 6, 6, 1])
    req = ENGINE.pending(state)[0]
    assert ENGINE.timeout_action(state, req, random.Random(0)) == ["end"]
    state, _ = ENGINE.apply(state, 0, ["attack", "quebec", "ontario", "once"])
    req = ENGINE.pending(state)[0]
    assert req.kind == "occupy" and ENGINE.timeout_action(state, req, random.Random(0)) == ["move", "3"]
    state = position(2, {"japan": 1}, phase="reinforce", reinforcements=7)
    req = ENGINE.pending(state)[0]
    action = ENGINE.timeout_action(state, req, random.Random(0))
    assert action[0] == "place" and action[2] == "7"
    assert action[1] in ("kamchatka", "mongolia")  # the borders of japan
