"""Shared helpers for the Risk tests: build exact positions and play whole games."""

from __future__ import annotations

import json
import random
from typing import Any

from engines.base import Engine, State
from engines.risk import ENGINE, rules
from engines.risk import requests as risk_requests
from engines.risk.data import content
from engines.risk.engine import random_action

C = content()


def new(seats: int = 2, variant: str = "classic", setup: str = "quick", seed: int = 1) -> State:
    return ENGINE.new_state({"variant": variant, "setup": setup}, seats, seed)


def position(seats: int, owners: dict[str, int], armies: dict[str, int] | None = None, *,
             default_owner: int = 0, turn: int = 0, phase: str = "attack", variant: str = "classic",
             reinforcements: int = 0, pools: dict[str, int] | None = None,
             dice: list[int] | None = None) -> State:
    """A play-phase state with the given ownership; unspecified territories go to ``default_owner``
    with 1 army (so tests read like the seed's examples)."""
    state = new(seats, variant)
    state["phase"] = phase
    state["round"] = 1
    state["turn"] = turn
    state["first"] = 0
    state["hidden"] = {}
    state["neutral_to_place"] = 0
    for p in state["players"]:
        p["to_place"] = 0
    for t in C.territories:
        state["owner"][t] = owners.get(t, default_owner)
        state["armies"][t] = (armies or {}).get(t, 1)
    state["reinforcements"] = reinforcements
    state["bonus_pools"] = dict(pools or {})
    state["dice_queue"] = list(dice or [])
    for s, p in enumerate(state["players"]):
        p["alive"] = any(o == s for o in state["owner"].values())
    risk_requests.refresh(state, None)
    return state


def act(state: State, seat: int, *action: str) -> tuple[State, list]:
    return ENGINE.apply(state, seat, list(action))


def card_census(state: State) -> list[str]:
    out = list(state["deck"]) + list(state["discard"]) + list(state["hq_aside"])
    for p in state["players"]:
        out += p["cards"]
    return sorted(out)


def check_invariants(state: State) -> None:
    for t in C.territories:
        owner = state["owner"][t]
        if state["phase"] != "setup_claim":
            assert owner is not None, t
        if owner is not None:
            assert state["armies"][t] >= 1, (t, state["armies"][t])
        assert state["armies"][t] >= 0
    assert card_census(state) == sorted(C.card_ids)
    assert json.loads(json.dumps(state)) == state
    for s, p in enumerate(state["players"]):
        if state["phase"] in rules.PLAY_PHASES or state["phase"] == "over":
            assert p["alive"] == (rules.territory_count(state, s) > 0)
    pools = state.get("bonus_pools") or {}
    assert state["reinforcements"] >= 0
    if state["phase"] != "reinforce":
        assert pools == {}, "continent-bonus armies left unplaced"
    for cont, n in pools.items():
        assert 0 < n <= C.bonus[cont], (cont, n)
        assert cont in rules.continents_held(state, state["turn"]), cont


def play(engine: Engine, state: State, players: dict[int, str], seed: int,
         max_actions: int = 20000, check: bool = False) -> tuple[State, list[tuple[int, list[str]]]]:
    """Play to the end; ``players`` maps seat -> 'normal' | 'easy' | 'random'."""
    rng = random.Random(seed)
    log = []
    for _ in range(max_actions):
        if engine.result(state) is not None:
            return state, log
        req = engine.pending(state)[0]
        level = players.get(req.seat, "normal")
        if level == "random":
            action = random_action(engine, state, req.seat, rng)
        else:
            action = engine.ai_action(state, req.seat, rng, level)
        state, _ = engine.apply(state, req.seat, action)
        log.append((req.seat, action))
        if check:
            check_invariants(state)
    raise AssertionError("game did not finish")


def any_of(d: dict[str, Any]) -> Any:
    return next(iter(d))


def scramble_hidden(state: dict, seat: int, rng: random.Random) -> dict:
    """Change everything ``seat`` cannot know: which cards others hold (not how many), the deck's
    order, their missions, secret placements and HQ choices, and the dice to come (the RNG)."""
    other = [s for s in range(state["seats"]) if s != seat]
    state = json.loads(json.dumps(state))
    pool = list(state["deck"])
    sizes = {s: len(state["players"][s]["cards"]) for s in other}
    for s in other:
        pool += state["players"][s]["cards"]
        state["players"][s]["cards"] = []
    rng.shuffle(pool)
    for s in other:
        n = sizes[s]
        state["players"][s]["cards"] = pool[:n]
        pool = pool[n:]
        if state["players"][s]["mission"]:
            state["players"][s]["mission"] = rng.choice(list(C.mission_ids))
        if str(s) in state["hidden"]:
            mine = [t for t in C.territories if state["owner"][t] == s]
            state["hidden"][str(s)] = {rng.choice(mine): sum(state["hidden"][str(s)].values())}
        if str(s) in state["hq_choice"]:
            state["hq_choice"][str(s)] = rng.choice([t for t in C.territories if state["owner"][t] == s])
    state["deck"] = pool
    state["rng"] = rng.getrandbits(64)
    return state
