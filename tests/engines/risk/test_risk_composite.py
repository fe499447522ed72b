"""Composite actions (``engines.risk.composite``) and the normal level that sends them
(``engines.risk.ai_turn``): the AI sends its decisions up to the next dice as one action, and
the games are the same games as the single-step normal AI's (the ``reference`` level).

The proof plays each seeded game twice in lockstep: once at the normal level (composites), once
with the normal seats at the reference level, one single step at a time, each applied as its own
move. Every single step a composite played must be the step the reference AI decides there, the
state after a composite must equal the single-step game's state after its last step (request
ids included), its events must be those steps' events in order, and the results must match.
"""

from __future__ import annotations

import json
import random

import pytest

from engines.base import EngineError
from engines.risk import ENGINE, composite
from engines.risk.data import content
from engines.risk.engine import REFERENCE

C = content()

#: (variant, set-up, levels by seat): every variant, both set-ups, every level.
GAMES = (
    ("classic", "quick", ("normal",) * 5),
    ("classic", "quick", ("normal",) * 6),
    ("classic", "classic", ("normal", "easy", "normal", "easy", "normal")),
    ("mission", "quick", ("normal", "easy", "normal", "normal", "easy")),
    ("mission", "quick", ("normal",) * 4),
    ("mission", "classic", ("easy", "normal", "normal")),
    ("hq", "quick", ("normal", "normal", "easy", "normal", "normal")),
    ("hq", "classic", ("normal", "easy", "normal", "normal")),
    ("neutral", "quick", ("normal", "easy")),
    ("neutral", "classic", ("hard", "normal")),
    ("classic", "quick", ("hard", "easy", "normal")),
    # (seed 5: a "18 territories with 2+ armies" mission won by a placement, nothing joined after it)
    ("mission", "quick", ("normal",) * 4),
)
#: Games played from another seed than 8100 + their index (the dice generator's seed is the index).
SEEDS = {len(GAMES) - 1: (5, 5)}


def _dump(state: dict) -> str:
    return json.dumps(state)


def _single(level: str) -> str:
    return REFERENCE if level == "normal" else level


@pytest.mark.parametrize("g", range(len(GAMES)))
def test_composite_games_are_the_single_step_games(g: int) -> None:
    variant, setup, levels = GAMES[g]
    seed, draw = SEEDS.get(g, (8100 + g, g))
    single = composed = ENGINE.new_state({"variant": variant, "setup": setup}, len(levels), seed)
    rng_single, rng_composed = random.Random(draw), random.Random(draw)
    moves = steps_played = 0
    while ENGINE.result(composed) is None:
        seat = ENGINE.pending(composed)[0].seat
        action = ENGINE.ai_action(composed, seat, rng_composed, levels[seat])
        composed, events, steps = ENGINE.apply_steps(composed, seat, action)
        moves += 1
        expected_events = []
        for step in steps:
            assert ENGINE.pending(single)[0].seat == seat
            decided = ENGINE.ai_action(single, seat, rng_single, _single(levels[seat]))
            assert decided == step, (steps_played, action)
            single, step_events = ENGINE.apply(single, seat, decided)
            expected_events += step_events
            steps_played += 1
        assert _dump(composed) == _dump(single), (steps_played, action)
        assert events == expected_events
    if g in SEEDS:
        assert composed["players"][composed["winners"][0]]["mission"] == "territories_18_two"
    assert ENGINE.result(single) == ENGINE.result(composed)
    assert moves < steps_played  # the point: fewer moves for the same game


def _play_until(pred, seed: int = 8200) -> tuple[dict, random.Random]:
    """A 3-AI classic game played single-step until ``pred(state)``."""
    rng = random.Random(seed)
    state = ENGINE.new_state({"variant": "classic", "setup": "quick"}, 3, seed)
    while not pred(state):
        seat = ENGINE.pending(state)[0].seat
        state, _ = ENGINE.apply(state, seat, ENGINE.ai_action(state, seat, rng, REFERENCE))
    return state, rng


def _reinforcing(state: dict) -> bool:
    return state["phase"] == "reinforce" and state["round"] >= 2 and not state["bonus_pools"] \
        and state["reinforcements"] >= 3


def test_an_illegal_part_rejects_the_whole_action() -> None:
    state, _ = _play_until(_reinforcing)
    seat = state["turn"]
    mine = [t for t, o in state["owner"].items() if o == seat]
    before = _dump(state)
    left = state["reinforcements"]
    # The first part is legal; the second asks for more than is left.
    bad = composite.join([["place", mine[0], "1"], ["place", mine[1], str(left)]])
    with pytest.raises(EngineError):
        ENGINE.apply(state, seat, bad)
    # Placing everything leaves the reinforcement phase: a further placement is not legal there.
    with pytest.raises(EngineError):
        ENGINE.apply(state, seat, composite.join([["place", mine[0], str(left)], ["place", mine[1], "1"]]))
    for broken in (["place", mine[0], "1", "then"], ["then", "place", mine[0], "1"]):
        with pytest.raises(EngineError):
            ENGINE.apply(state, seat, broken)
    assert _dump(state) == before
    # The same placements one by one are legal, and so is their composite.
    ok = composite.join([["place", mine[0], "1"], ["place", mine[1], str(left - 1)]])
    single, _ = ENGINE.apply(state, seat, ["place", mine[0], "1"])
    single, _ = ENGINE.apply(single, seat, ["place", mine[1], str(left - 1)])
    assert _dump(ENGINE.apply(state, seat, ok)[0]) == _dump(single)


@pytest.mark.parametrize("rule", [["move"], ["move", "1", "1"], ["move", "0", "0", "1"], ["move", "1", "1", "0"],
                                  ["move", "x", "1", "1"], ["move", "1", "1", "1", "1"]])
def test_a_bad_move_in_rule_is_refused(rule: list[str]) -> None:
    state, _ = _play_until(lambda s: s["phase"] == "attack" and s["round"] >= 2)
    seat = state["turn"]
    attack = ENGINE.ai_action(state, seat, random.Random(0), REFERENCE)
    assert attack[0] == "attack"
    before = _dump(state)
    with pytest.raises(EngineError):
        ENGINE.apply(state, seat, attack + rule)
    assert _dump(state) == before


def test_an_attack_may_only_be_the_last_part() -> None:
    """Its dice end what can be decided beforehand: a part after an attack is refused even where
    it would be legal after the roll (one roll cannot take 3 defenders, so "end" would be)."""
    state, _ = _play_until(lambda s: s["phase"] == "attack" and s["round"] >= 2)
    seat, owner, armies = state["turn"], state["owner"], state["armies"]
    src, dst = next((t, n) for t in C.territories if owner[t] == seat and armies[t] >= 2
                    for n in C.adjacent[t] if owner[n] != seat and armies[n] >= 3)
    before = _dump(state)
    with pytest.raises(EngineError):
        ENGINE.apply(state, seat, ["attack", src, dst, "once", "then", "end"])
    assert _dump(state) == before


def test_the_move_in_rule_applies_only_to_a_conquest() -> None:
    """An attack with a rule is the plain attack, followed by the move-in only when the
    territory fell with more than the minimum free to move."""
    state, rng = _play_until(lambda s: s["phase"] == "attack" and s["round"] >= 2)
    seen = set()
    for _ in range(400):
        if ENGINE.result(state) is not None:
            break
        seat = ENGINE.pending(state)[0].seat
        action = ENGINE.ai_action(state, seat, rng)
        if action[0] == "attack" and composite.RULE in action:
            head = action[:action.index(composite.RULE)]
            plain, plain_events = ENGINE.apply(state, seat, head)
            new, events, steps = ENGINE.apply_steps(state, seat, action)
            if plain["phase"] != "occupy":
                seen.add("no move-in")
                assert steps == [head] and _dump(new) == _dump(plain) and events == plain_events
            else:
                seen.add("move-in")
                occ = plain["occupy"]
                assert steps[:1] == [head] and steps[1][0] == "move"
                assert occ["min"] <= int(steps[1][1]) <= occ["max"]
            state = new
        else:
            state, _ = ENGINE.apply(state, seat, action)
    assert seen == {"no move-in", "move-in"}


def test_move_in_is_the_normal_ai_split() -> None:
    """``move_in`` clamps the weighted share to what may move, leaving the floor on each side
    where the armies allow, and all-forward when the source side weighs nothing."""
    assert composite.move_in(10, 3, 9, (1, 1, 1)) == 5
    assert composite.move_in(10, 3, 9, (5, 0, 1)) == 9
    assert composite.move_in(10, 3, 9, (5, 0, 2)) == 8
    assert composite.move_in(10, 3, 9, (0, 1, 1)) == 3
    assert composite.move_in(4, 1, 3, (0, 1, 2)) == 2
    assert composite.move_in(3, 2, 2, (1, 1, 2)) == 2


def test_an_ai_action_fits_what_a_person_may_send() -> None:
    """The service refuses actions longer than ``MAX_ACTION_TOKENS`` from people; the AI's
    composites stay inside the same bound (``composite.MAX_TOKENS``)."""
    from service.matches import MAX_ACTION_TOKENS
    assert composite.MAX_TOKENS == MAX_ACTION_TOKENS
    for seed in range(3):
        rng = random.Random(seed)
        state = ENGINE.new_state({"variant": "mission", "setup": "quick"}, 6, 8300 + seed)
        while ENGINE.result(state) is None:
            seat = ENGINE.pending(state)[0].seat
            action = ENGINE.ai_action(state, seat, rng)
            assert len(action) <= composite.MAX_TOKENS
            state, _ = ENGINE.apply(state, seat, action)
