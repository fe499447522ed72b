"""Whole random games: invariants hold after every action, replays are exact, bad input changes nothing."""

from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from risk_testkit import C, check_invariants, new

from engines.base import EngineError
from engines.risk import ENGINE
from engines.risk.engine import random_action

CONFIGS = [("classic", 2, "quick"), ("classic", 5, "classic"), ("neutral", 2, "quick"), ("hq", 3, "classic"),
           ("mission", 6, "quick"), ("hq", 4, "quick"), ("mission", 3, "classic"), ("neutral", 2, "classic")]


def _mixed_game(variant: str, seats: int, setup: str, seed: int, max_rounds: int = 500):
    """Seats alternate between random, easy and normal players; yields (state, seat, action, new_state)."""
    rng = random.Random(seed)
    state = new(seats, variant, setup, seed=seed)
    state["max_rounds"] = max_rounds
    kinds = ["random", "easy", "normal"]
    for _ in range(6000):
        if ENGINE.result(state) is not None:
            return
        req = ENGINE.pending(state)[0]
        kind = kinds[(req.seat + seed) % 3]
        if kind == "random":
            action = random_action(ENGINE, state, req.seat, rng)
        else:
            action = ENGINE.ai_action(state, req.seat, rng, kind)
        new_state, _ = ENGINE.apply(state, req.seat, action)
        yield state, req.seat, action, new_state
        state = new_state
    raise AssertionError("game did not end")


@pytest.mark.parametrize("variant,seats,setup", CONFIGS)
def test_random_games_keep_every_invariant(variant: str, seats: int, setup: str) -> None:
    """Armies ≥ 1 on every owned territory, every territory owned, 44 cards each exactly once,
    JSON round trip, someone always has a request until the game is over."""
    for seed in range(3):
        last = None
        cap = 3 if seed == 2 else 500  # one game per config also ends by the round cap
        for _, _, _, after in _mixed_game(variant, seats, setup, seed, cap):
            check_invariants(after)
            assert ENGINE.pending(after) or ENGINE.result(after) is not None
            last = after
        assert last is not None and ENGINE.result(last) is not None
        assert json.loads(json.dumps(last)) == last


def test_apply_does_not_mutate_its_input() -> None:
    for before, seat, action, _ in _mixed_game("hq", 3, "quick", 4):
        snapshot = copy.deepcopy(before)
        ENGINE.apply(before, seat, action)
        assert before == snapshot


def test_request_ids_are_never_reused_for_a_new_request() -> None:
    issued: dict[str, tuple[int, str]] = {}
    prev_ids: set[str] = set()
    for _, _, _, after in _mixed_game("classic", 4, "quick", 2):
        now = {r.id: (r.seat, r.kind) for r in ENGINE.pending(after)}
        for rid, who in now.items():
            if rid in issued:
                assert rid in prev_ids and issued[rid] == who  # only a still-pending request keeps its id
            issued[rid] = who
        prev_ids = set(now)


def test_replay_from_seed_and_actions_is_identical() -> None:
    log = []
    final = None
    for _, seat, action, after in _mixed_game("mission", 4, "quick", 6):
        log.append((seat, action))
        final = after
    state = new(4, "mission", "quick", seed=6)
    for seat, action in log:
        state, _ = ENGINE.apply(json.loads(json.dumps(state)), seat, action)
    assert state == final


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), cut=st.integers(0, 400), junk=st.lists(st.text(max_size=12), max_size=5),
       who=st.integers(-1, 6))
def test_illegal_actions_raise_and_leave_the_state_unchanged(seed: int, cut: int, junk: list[str], who: int) -> None:
    state = new(3, "classic", "quick", seed=seed)
    for i, (_, _, _, after) in enumerate(_mixed_game("classic", 3, "quick", seed)):
        state = after
        if i >= cut:
            break
    snapshot = copy.deepcopy(state)
    pending = {r.seat for r in ENGINE.pending(state)}
    candidates = [junk, ["attack", "alaska", "japan", "once"], ["place", "atlantis", "3"], ["end", "extra"],
                  ["fortify", C.territories[0], C.territories[0], "1"], ["move", "999"], [],
                  ["place", C.territories[0], "²"], ["move", "-1"], ["place", C.territories[0], "1" * 40]]
    for action in candidates:
        try:
            ENGINE.apply(state, who, action)
        except EngineError:
            pass
        else:
            assert who in pending  # an accepted action must come from a pending seat
        assert state == snapshot
    for seat in range(3):
        if seat not in pending:
            with pytest.raises(EngineError):
                ENGINE.apply(state, seat, ["end"])


@pytest.mark.parametrize("variant,seats,setup", [("classic", 2, "classic"), ("neutral", 2, "classic"),
                                                 ("hq", 3, "quick")])
def test_an_option_marked_commit_always_ends_the_action(variant: str, seats: int, setup: str) -> None:
    """The step UI plays a ``commit`` option at once, without a Confirm: so the path it makes
    must be a whole action with nothing left to choose, and ``apply`` must accept it."""
    seen = 0
    for state, seat, _, _ in _mixed_game(variant, seats, setup, 5, max_rounds=2):
        frontier: list[list[str]] = [[]]
        while frontier:
            path = frontier.pop()
            for option in ENGINE.step(state, seat, path).options:
                nxt = [*path, option.value]
                if option.commit:
                    leaf = ENGINE.step(state, seat, nxt)
                    assert leaf.complete and not leaf.options, nxt
                    seen += 1
                elif len(nxt) < 5:
                    frontier.append(nxt)
    assert seen > 100
