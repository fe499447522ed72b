"""Carry out a validated action (``choices.validate`` has accepted the whole path)."""

from __future__ import annotations

from engines.base import Event, State
from engines.jiwu import choices
from engines.jiwu import rules as R
from engines.jiwu.rules import DEPLOY_COST, KILL_COST


def execute(state: State, seat: int, path: list[str]) -> list[Event]:
    phase = state["phase"]
    if phase == "setup":
        return R.place_start(state, seat, path[1])
    if phase == "duel":
        events = R.duel_pick(state, seat, path[0])
    elif phase == "effect":
        events = R.answer(state, seat, path[0])
    else:
        events = _turn(state, seat, path)
        if state["phase"] == "over":
            return events
    events += R.update_cities(state)
    turn = int(state["turn"])
    if choices.only_end(state, turn):  # the turn ends when no action is left
        events += R.end_turn(state, turn)
    return events


def _turn(state: State, seat: int, path: list[str]) -> list[Event]:
    verb = path[0]
    p = state["players"][seat]
    if verb == "end":
        return R.end_turn(state, seat)
    if verb == "play":
        return R.play_card(state, seat, path[1])
    if verb == "all":  # plain cards need no choice, so each resolves at once
        return [e for iid in choices.plain_cards(state, seat) for e in R.play_card(state, seat, iid)]
    if verb == "plan":
        return R.play_plan(state, seat, path[1])
    if verb == "buy":
        return R.buy(state, seat, path[1])
    if verb == "deploy":
        p["power"] -= DEPLOY_COST
        return R.deploy(state, seat, path[1])
    if verb == "kill":
        p["power"] -= KILL_COST
        return R.kill(state, seat, path[1])
    if verb == "hit":
        p["power"] -= KILL_COST
        return R.hurt(state, seat, path[1], 1)
    if verb == "general":
        p["power"] -= DEPLOY_COST
        return R.field_general(state, seat, path[1], path[2])
    assert verb == "move"
    return R.move_general(state, seat, path[1], path[2])
