"""The fast 交战 lists (``board.Reach`` behind ``rules.deployable``, ``kill_targets``,
``general_deploy_slots`` and ``hit_targets``) give exactly the lists of the rule as written
(``board.present_at`` / ``present_in_region`` asked slot by slot, the definitions before the
speed-up), on the boards of real games and on random boards with spies and generals."""

from __future__ import annotations

import random

import pytest
from jiwu_testkit import started

from engines.base import State
from engines.jiwu import ENGINE, ai
from engines.jiwu import board as B
from engines.jiwu import rules as R


def _deployable(state: State, seat: int, region: str | None = None) -> list[str]:
    if state["players"][seat]["supply"] <= 0:
        return []
    anywhere = B.on_board(state, seat) == 0
    return [s for s, occ in state["slots"].items() if occ is None and (not region or B.region_of(s) == region)
            and (anywhere or B.present_at(state, seat, s))]


def _kill_targets(state: State, seat: int, region: str | None = None, spies: bool = True) -> list[str]:
    out = [s for s, occ in state["slots"].items() if occ is not None and occ[0] != seat and not occ[1]
           and (not region or B.region_of(s) == region) and B.present_at(state, seat, s)]
    if spies:
        for r, owners in state["spies"].items():
            if (not region or r == region) and B.present_in_region(state, seat, r):
                out += [f"spy.{r}.{o}" for o in owners if o != seat]
    return out


def _general_slots(state: State, seat: int) -> list[str]:
    return [s for s in state["slots"] if state["slots"][s] is None and B.region_of(s) and B.present_at(state, seat, s)]


def _hit_targets(state: State, seat: int) -> list[str]:
    return [occ[1] for s, occ in state["slots"].items() if occ and occ[1] and occ[0] != seat
            and B.present_at(state, seat, s)]


def _same(state: State) -> int:
    checked = 0
    for seat in range(state["seats"]):
        assert R.deployable(state, seat) == _deployable(state, seat)
        assert R.kill_targets(state, seat) == _kill_targets(state, seat)
        assert R.kill_targets(state, seat, spies=False) == _kill_targets(state, seat, spies=False)
        assert R.general_deploy_slots(state, seat) == _general_slots(state, seat)
        assert R.hit_targets(state, seat) == _hit_targets(state, seat)
        for region in B.regions(state):
            assert R.deployable(state, seat, region) == _deployable(state, seat, region)
            assert R.kill_targets(state, seat, region) == _kill_targets(state, seat, region)
            assert [B.Reach(state, seat).in_region(region)] == [B.present_in_region(state, seat, region)]
        reach = B.Reach(state, seat)
        assert all(reach.at(s) == B.present_at(state, seat, s) for s in state["slots"])
        checked += 1
    return checked


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_fast_lists_match_the_rule_in_real_games(seats: int) -> None:
    """Every 7th state of normal-vs-random games (the random walker spreads its pieces and spies
    where normal would not)."""
    checked = 0
    for seed in range(3):
        state, rng = ENGINE.new_state({}, seats, 500 + seed), random.Random(seed)
        n = 0
        while (pending := ENGINE.pending(state)) and n < 3000:
            seat = pending[0].seat
            move = ai.decide(state, seat, rng) if seat == 0 else ai.random_action(state, seat, rng)
            state, _ = ENGINE.apply(state, seat, move)
            n += 1
            if n % 7 == 0:
                checked += _same(state)
    assert checked > 100


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_fast_lists_match_the_rule_on_random_boards(seats: int) -> None:
    """Boards no game would reach as often: every slot empty, a seat's soldier, a grey soldier
    or a general; spies of any seat anywhere; a seat with nothing on the board."""
    rng = random.Random(seats)
    base = started(seats, 9)
    for _ in range(150):
        state = {**base, "slots": dict(base["slots"]), "spies": {}}
        fill = rng.random()
        for s in state["slots"]:
            roll = rng.random()
            if roll < fill:
                owner = rng.randrange(-1, seats)
                general = f"g{rng.randrange(99)}" if owner >= 0 and rng.random() < 0.1 else ""
                state["slots"][s] = [owner, general]
            else:
                state["slots"][s] = None
        for r in B.regions(state):
            if rng.random() < 0.3:
                state["spies"][r] = rng.sample(range(seats), rng.randint(1, seats))
        _same(state)
