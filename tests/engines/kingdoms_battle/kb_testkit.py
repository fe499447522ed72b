"""Shared helpers for the 鬪三國 tests: exact maps, troops, fixed dice and whole games.

Map pieces used by many tests (edges N E S W; the start tile, type 8, is ``CPBP`` at 0,0):
- ``small_city``: start + type 11 turned 180° at (0,-1): a closed 2-tile city "0.0".
- ``twin_cities``: that city plus a second one east of it (type 11 at (1,0), type 11 turned at
  (1,-1)), the two joined by the plain between them.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from engines.base import State
from engines.kingdoms_battle import ENGINE, ai, board
from engines.kingdoms_battle import rules as R
from engines.kingdoms_battle.engine import _refresh


def new(seats: int = 3, seed: int = 1) -> State:
    return ENGINE.new_state({}, seats, seed)


def put(state: State, ttype: int, x: int, y: int, rot: int = 0) -> int:
    assert board.fits(state, board.tiles().types[ttype].face(rot), x, y), (ttype, x, y, rot)
    return board.place(state, ttype, x, y, rot)


def close(state: State) -> None:
    """Mark every walled-in city complete (a test set-up, no civil war)."""
    for city in state["cities"].values():
        if city["open"] == 0:
            city["done"] = True


def troop(state: State, space: str, seat: int, st: str = "a") -> None:
    state["troops"][space] = [seat, st]
    state["players"][seat]["supply"] -= 1


def ready(state: State, turn: int = 0, phase: str = "action", drawn: int | None = None) -> State:
    state["turn"] = turn
    state["phase"] = phase
    state["drawn"] = drawn
    _refresh(state)
    return state


def small_city(state: State, cap: int = 11) -> str:
    put(state, cap, 0, -1, 2)
    close(state)
    return "0.0"


def twin_cities(state: State, cap: int = 11) -> tuple[str, str]:
    """Two closed small cities joined by plain: "0.0" (start + cap) and "2.0" (east)."""
    a = small_city(state, cap)
    b = str(put(state, 11, 1, 0, 0)) + ".0"
    put(state, 11, 1, -1, 2)
    close(state)
    assert state["seg_city"][b] == b and state["cities"][b]["done"]
    return a, b


def act(state: State, seat: int, *tokens: str) -> tuple[State, list[Any]]:
    return ENGINE.apply(state, seat, list(tokens))


@pytest.fixture
def dice(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[list[int]]]:
    """Queue the throws the rules will make, in order; each item is one call of ``roll``."""
    queue: list[list[int]] = []

    def fixed(state: State, count: int) -> list[int]:
        assert queue, "the rules threw more dice than the test fixed"
        throw = queue.pop(0)
        assert len(throw) == count, (throw, count)
        return throw

    monkeypatch.setattr(R, "roll", fixed)
    yield queue
    assert not queue, f"dice left unthrown: {queue}"


def conservation(state: State) -> None:
    """8 troops per player, always somewhere; 72 tiles, always somewhere."""
    for s, p in enumerate(state["players"]):
        on_map = sum(1 for t in state["troops"].values() if t[0] == s)
        in_field = state["war"]["n"] if state["war"] and state["war"]["att"] == s else 0
        assert p["supply"] + on_map + in_field == R.TROOPS, (s, p, on_map, in_field)
        assert p["supply"] >= 0
    tiles = len(state["tiles"]) + len(state["stack"]) + state["stats"]["discarded"] + (state["drawn"] is not None)
    assert tiles == 72


def play(seed: int, levels: list[str], check: bool = False, limit: int = 2000) -> State:
    """A whole game between the given AI levels ("easy", "normal", "hard", or "random": the
    random walker the levels are measured against)."""
    state = new(len(levels), seed)
    rng = random.Random(seed)
    for _ in range(limit):
        if ENGINE.result(state):
            return state
        req = ENGINE.pending(state)[0]
        if levels[req.seat] == "random":
            action = ai.random_action(state, req.seat, rng)
        else:
            action = ENGINE.ai_action(state, req.seat, rng, levels[req.seat])
        state, _ = ENGINE.apply(state, req.seat, action)
        if check:
            conservation(state)
    raise AssertionError("game did not end")
