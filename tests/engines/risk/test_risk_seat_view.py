"""The AI's lazy view (``views.SeatView``, with lazy player rows and ``you``) is the seat's view,
entry for entry and in the same order, and read-only."""

from __future__ import annotations

import json
import random

import pytest
from risk_testkit import new

from engines.risk import ENGINE, ai, ai_easy, views


def _states(variant: str, seats: int, setup: str, seed: int, moves: int = 400) -> list[dict]:
    """States along one AI game, the set-up included (secret placements, HQ choices)."""
    state = new(seats, variant, setup, seed=seed)
    rng = random.Random(seed)
    out = [state]
    for _ in range(moves):
        if ENGINE.result(state) is not None:
            break
        req = ENGINE.pending(state)[-1]
        state, _ = ENGINE.apply(state, req.seat, ENGINE.ai_action(state, req.seat, rng))
        out.append(state)
    return out


@pytest.mark.parametrize("variant,seats,setup", [("classic", 6, "quick"), ("mission", 4, "quick"),
                                                 ("hq", 3, "quick"), ("neutral", 2, "classic")])
def test_seat_view_equals_the_built_view_in_every_entry_and_order(variant: str, seats: int, setup: str) -> None:
    states = _states(variant, seats, setup, seed=31)
    assert states[-1]["phase"] == "over" or len(states) > 300
    for i, state in enumerate(states):
        if i % 3:
            continue
        for seat in (None, -1, *range(seats), seats):
            built = views.build(state, seat)
            lazy = views.SeatView(state, seat)
            assert list(lazy) == list(built) and len(lazy) == len(built)
            assert json.dumps(views.plain(lazy)) == json.dumps(built)
            assert views.plain(lazy) == built
            assert ("you" in lazy) == ("you" in built)
            # Read in another order, entries are still the built ones (each computed once).
            for key in reversed(list(built)):
                assert lazy[key] == built[key]
                assert lazy[key] is lazy[key]
            # Rows and "you" read entry by entry, in another order, before anything else.
            fresh = views.SeatView(state, seat)
            for i, row in enumerate(built["players"]):
                for key in reversed(list(row)):
                    assert fresh["players"][i][key] == row[key], (i, key)
            if "you" in built:
                fresh = views.SeatView(state, seat)
                assert {k: fresh["you"][k] for k in reversed(list(built["you"]))} == built["you"]


def test_seat_view_tables_are_the_public_board_and_cannot_be_written() -> None:
    state = _states("mission", 4, "quick", seed=8, moves=2)[0]
    assert state["phase"] == "setup_place" and state["hidden"] == {}
    state, _ = ENGINE.apply(state, 0, ["place", next(t for t, o in state["owner"].items() if o == 0), "3"])
    assert state["hidden"]  # a secret placement, which the board tables must not show
    lazy = views.SeatView(state, 0)
    built = views.build(state, 0)
    assert dict(lazy.owners) == {t: v["owner"] for t, v in built["territories"].items()}
    assert dict(lazy.army_counts) == {t: v["armies"] for t, v in built["territories"].items()}
    with pytest.raises(TypeError):
        lazy.army_counts["alaska"] = 99  # type: ignore[index]
    with pytest.raises(TypeError):
        lazy.owners["alaska"] = 1  # type: ignore[index]


def test_ai_decides_the_same_from_a_built_view_and_a_lazy_one() -> None:
    for variant, seats in (("classic", 5), ("mission", 6), ("hq", 4)):
        for state in _states(variant, seats, "quick", seed=12)[::4]:
            if ENGINE.result(state) is not None:
                continue
            for req in ENGINE.pending(state):
                for decide in (ai.decide, ai_easy.decide):
                    a = decide(views.build(state, req.seat), random.Random(3))
                    b = decide(views.SeatView(state, req.seat), random.Random(3))
                    assert a == b
                assert ai.timeout(views.build(state, req.seat)) == ai.timeout(views.SeatView(state, req.seat))
