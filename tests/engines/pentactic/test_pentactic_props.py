"""Property tests over random legal play: invariants, JSON, replay, illegal input, time-outs."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pentactic_helpers import SEATS, new, snapshot, uniform

from engines.base import EngineError
from engines.pentactic import ENGINE, rules
from engines.pentactic.geometry import DISCS_PER_PLAYER
from engines.pentactic.shapes import PIECES

GAMES = st.tuples(st.sampled_from(["1", "2", "3", "4"]), st.sampled_from(["8x8", "9x7", "11x6"]),
                  st.integers(0, 2**32), st.integers(3, 6))
FAST = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _seats(mode: str, n: int) -> int:
    return n if mode == "3" else SEATS[mode]


def check_invariants(state: dict) -> None:
    mode, w, h = state["mode"], state["width"], state["height"]
    for board in state["boards"]:
        seen: set[tuple[int, int]] = set()
        rows, cols = [], []
        for x, y, by in board["discs"]:
            assert 0 <= x < w and 0 <= y < h and (x, y) not in seen
            seen.add((x, y))
            if by is not None:
                assert by != board["owner"], "discs go on an opponent's board"
                rows.append(y)
                cols.append(x)
        if mode != "4":
            assert len(set(rows)) == len(rows) and len(set(cols)) == len(cols), "one disc per row/col"
        for pc in board["pieces"]:
            cells = {tuple(c) for c in pc["cells"]}
            assert len(cells) == 5 and not (cells & seen), "pieces and discs never overlap"
            assert pc["seat"] == board["owner"], "pieces go on their owner's board"
            assert all(0 <= x < w and 0 <= y < h for x, y in cells)
            seen |= cells
    players = state["players"]
    if mode == "1":
        a, d = rules.attacker(state), rules.defender(state)
        placed = len(state["boards"][0]["pieces"])
        discarded_now = 0 if state["phase"] == "discard" else 1
        if state["phase"] != "over":
            assert len(players[a]["pieces"]) + placed + discarded_now == len(PIECES)
            assert players[d]["discs"] + len(state["boards"][0]["discs"]) == DISCS_PER_PLAYER
    else:
        for s, p in enumerate(players):
            placed = sum(1 for b in state["boards"] for pc in b["pieces"] if pc["seat"] == s)
            assert len(p["pieces"]) + placed + len(p["discarded"]) == len(PIECES)
            if mode != "4":
                used = sum(1 for b in state["boards"] for d in b["discs"] if d[2] == s)
                assert p["discs"] + used == DISCS_PER_PLAYER
    view = ENGINE.view(state, None)
    assert json.loads(json.dumps(view)) == view
    for s, vp in enumerate(view["players"]):
        if mode in ("2", "3"):
            assert vp["score"] == len(players[s]["pieces"]) + players[s]["discs"]
        if mode == "4":
            assert vp["score"] == len(players[s]["pieces"])
    if state["phase"] == "over":
        assert not ENGINE.pending(state) and ENGINE.result(state) is not None
    else:
        assert len(ENGINE.pending(state)) == 1 and ENGINE.result(state) is None


def _random_walk(state: dict, seat: int, rng: random.Random) -> list[str]:
    """Tap through step() options the way a phone user would, until the action is complete."""
    path: list[str] = []
    while True:
        step = ENGINE.step(state, seat, path)
        if step.complete and (not step.options or rng.random() < 0.5):
            return path
        assert step.options, f"dead end at {path}"
        path.append(rng.choice(step.options).value)


@FAST
@given(GAMES)
def test_random_legal_play_keeps_invariants(game: tuple[str, str, int, int]) -> None:
    mode, board, seed, n = game
    state = new(mode, board, seats=_seats(mode, n), seed=seed)
    rng = random.Random(seed)
    check_invariants(state)
    ids: set[str] = set()
    for _ in range(400):
        reqs = ENGINE.pending(state)
        if not reqs:
            break
        assert reqs[0].id not in ids, "request ids are never reused"
        ids.add(reqs[0].id)
        seat = reqs[0].seat
        action = _random_walk(state, seat, rng) if rng.random() < 0.7 else \
            uniform(state, seat, rng)
        state, events = ENGINE.apply(state, seat, action)
        assert all(e.msg.key.startswith("pentactic.") for e in events)
        check_invariants(state)
    assert state["phase"] == "over"


@FAST
@given(GAMES)
def test_json_round_trip_and_replay_determinism(game: tuple[str, str, int, int]) -> None:
    mode, board, seed, n = game
    seats = _seats(mode, n)
    state = new(mode, board, seats=seats, seed=seed)
    rng = random.Random(seed)
    log = []
    for _ in range(30):
        reqs = ENGINE.pending(state)
        if not reqs:
            break
        action = uniform(state, reqs[0].seat, rng)
        log.append((reqs[0].seat, action))
        state, _ = ENGINE.apply(json.loads(json.dumps(state)), reqs[0].seat, action)
        assert json.loads(json.dumps(state)) == state
    replay = new(mode, board, seats=seats, seed=seed)
    for seat, action in log:
        replay, _ = ENGINE.apply(replay, seat, action)
    assert snapshot(replay) == snapshot(state)


JUNK = [[], ["pass"], ["place"], ["place", "Q", "0", "a1"], ["place", "F", "99", "a1"],
        ["place", "F", "0", "z9"], ["place", "F", "0", "a1", "extra"], ["disc"], ["disc", "a0"],
        ["disc", "9", "a1"], ["disc", "a1", "b2", "c3"], ["discard", "Q"], ["discard", "7", "F"],
        ["hint", "x"], ["dance"], ["disc", "a01"], ["place", "F", "-1", "a1"]]


@FAST
@given(GAMES, st.integers(0, 60))
def test_illegal_actions_raise_and_leave_state_unchanged(game: tuple[str, str, int, int], moves: int) -> None:
    mode, board, seed, n = game
    state = new(mode, board, seats=_seats(mode, n), seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        reqs = ENGINE.pending(state)
        if not reqs:
            break
        state, _ = ENGINE.apply(state, reqs[0].seat, uniform(state, reqs[0].seat, rng))
    before = snapshot(state)
    reqs = ENGINE.pending(state)
    legal_seat = reqs[0].seat if reqs else 0
    for action in JUNK:
        try:
            ENGINE.apply(state, legal_seat, action)
        except EngineError as err:
            assert err.msg.key.startswith(("pentactic.err.", "core.err."))
        else:
            assert (mode, action) == ("4", ["hint"]), action
        assert snapshot(state) == before
    for seat in range(_seats(mode, n)):
        if seat != legal_seat or not reqs:
            with pytest.raises(EngineError):
                ENGINE.apply(state, seat, uniform(state, legal_seat, rng) if reqs
                             else ["pass"])
            assert snapshot(state) == before


@FAST
@given(GAMES, st.integers(0, 80))
def test_timeout_action_is_legal(game: tuple[str, str, int, int], moves: int) -> None:
    mode, board, seed, n = game
    state = new(mode, board, seats=_seats(mode, n), seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        reqs = ENGINE.pending(state)
        if not reqs:
            return
        state, _ = ENGINE.apply(state, reqs[0].seat, uniform(state, reqs[0].seat, rng))
    for req in ENGINE.pending(state):
        action = ENGINE.timeout_action(state, req, random.Random(1))
        new_state, _ = ENGINE.apply(state, req.seat, action)
        assert new_state["seq"] == state["seq"] + 1
