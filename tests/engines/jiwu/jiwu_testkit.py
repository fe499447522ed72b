"""Shared helpers for the 极武三国 tests: a game past set-up, an empty board, cards put in hand,
resources given, and whole games played by a chosen AI."""

from __future__ import annotations

import random
from typing import Any

from engines.base import State
from engines.jiwu import ENGINE, ai
from engines.jiwu import rules as R
from engines.jiwu.data import card
from engines.jiwu.engine import _refresh


def new(seats: int = 2, seed: int = 1) -> State:
    return ENGINE.new_state({}, seats, seed)


def started(seats: int = 2, seed: int = 1) -> State:
    """A game in its first turn: every seat placed its first soldier in the first free start region."""
    state = new(seats, seed)
    while state["phase"] == "setup":
        seat = state["turn"]
        state, _ = ENGINE.apply(state, seat, ["start", R.start_regions(state, seat)[0]])
    return state


def empty(seats: int = 2, seed: int = 1) -> State:
    """A started game with nothing on the board (no neutral, no first soldiers), seat 0 to play."""
    state = started(seats, seed)
    for s, occ in state["slots"].items():
        if occ is not None and occ[0] >= 0:
            state["players"][occ[0]]["supply"] += 1
        state["slots"][s] = None
    state["cities"] = dict.fromkeys(state["cities"])
    _refresh(state)
    return state


def hand(state: State, seat: int, *card_ids: str) -> list[str]:
    """Give ``seat`` new card instances of ``card_ids`` in hand (registered like real cards)."""
    out = []
    for c in card_ids:
        iid = f"t{len(state['cards'])}"
        state["cards"][iid] = c
        state["players"][seat]["hand"].append(iid)
        out.append(iid)
    _refresh(state)
    return out


def general_on(state: State, seat: int, cid: str, slot: str) -> str:
    """A general of ``seat`` standing on ``slot`` (its card instance id)."""
    (g,) = hand(state, seat, cid)
    state["players"][seat]["hand"].remove(g)
    state["players"][seat]["generals"][g] = {"hp": card(cid).general.force, "slot": slot, "moved": False}  # type: ignore[union-attr]
    state["slots"][slot] = [seat, g]
    _refresh(state)
    return g


def put(state: State, slot: str, seat: int) -> None:
    state["slots"][slot] = [seat, ""]
    if seat >= 0:
        state["players"][seat]["supply"] -= 1


def give(state: State, seat: int, power: int = 0, gold: int = 0) -> None:
    state["players"][seat]["power"] += power
    state["players"][seat]["gold"] += gold
    _refresh(state)


def act(state: State, seat: int, *tokens: str) -> tuple[State, list[Any]]:
    return ENGINE.apply(state, seat, list(tokens))


def ai_move(state: State, seat: int, rng: random.Random, level: str) -> list[str]:
    """The move of an AI ``level``, or of the uniform random walker for ``random`` (the
    baseline, which is no level a lobby offers)."""
    if level == "random":
        return ai.random_action(state, seat, rng)
    return ENGINE.ai_action(state, seat, rng, level)


def play_out(seats: int, seed: int, levels: list[str]) -> State:
    rng = random.Random(seed)
    state = new(seats, seed)
    while not ENGINE.result(state):
        req = ENGINE.pending(state)[0]
        state, _ = ENGINE.apply(state, req.seat, ai_move(state, req.seat, rng, levels[req.seat]))
    return state


def face_to_face(state: State) -> tuple[str, str]:
    """Clear the board and make it seat 0's turn with 吕布 at 洛阳 beside seat 1's 刘备 at 许昌, so
    ``move <吕布> xuchang`` starts a duel; returns the two generals' card instances. Used by the
    duel tests of the service, the hidden-information test and the end-to-end test too."""
    from engines.jiwu.data import card

    for s in state["slots"]:
        state["slots"][s] = None
    state["phase"], state["turn"], state["queue"] = "main", 0, []
    gens = []
    for seat, cid, slot in ((0, "lvbu", "luoyang.0"), (1, "liubei", "xuchang.0")):
        iid = f"t{len(state['cards'])}"
        state["cards"][iid] = cid
        state["players"][seat]["generals"][iid] = {"hp": card(cid).general.force, "slot": slot, "moved": False}
        state["slots"][slot] = [seat, iid]
        gens.append(iid)
    _refresh(state)
    return gens[0], gens[1]
