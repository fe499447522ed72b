"""Step pictures: the orientation and corner-square steps say what a renderer should draw."""

from __future__ import annotations

import json
import random

import pytest
from pentactic_helpers import new, play_out, uniform

from engines.pentactic import ENGINE
from engines.pentactic.rules import own_board


def _attack_state(mode: str) -> dict:
    """A state where the seat to move places a piece, some way into the game."""
    state = new(mode, "9x7")
    rng = random.Random(5)
    placed = 0
    for _ in range(200):
        seat = ENGINE.pending(state)[0].seat
        verbs = [o.value for o in ENGINE.step(state, seat, []).options]
        if "place" in verbs:
            if placed >= 2:
                return state
            placed += 1
        state, _ = ENGINE.apply(state, seat, uniform(state, seat, rng))
    raise AssertionError("no placement turn reached")


@pytest.mark.parametrize("mode", ["1", "2", "3", "4"])
def test_orientation_and_anchor_steps_carry_matching_pictures(mode: str) -> None:
    state = _attack_state(mode)
    seat = ENGINE.pending(state)[0].seat
    assert ENGINE.step(state, seat, []).picture is None
    pieces = ENGINE.step(state, seat, ["place"])
    assert pieces.picture is None
    for piece in [o.value for o in pieces.options][:3]:
        step = ENGINE.step(state, seat, ["place", piece])
        assert step.picture == {"kind": "orientations", "piece": piece, "seat": seat,
                                "options": [o.value for o in step.options]}
        assert json.loads(json.dumps(step.picture)) == step.picture
        for opt in step.options:
            anchors = ENGINE.step(state, seat, ["place", piece, opt.value])
            assert anchors.picture == {
                "kind": "anchors", "piece": piece, "orientation": int(opt.value), "seat": seat,
                "board": own_board(state, seat)["owner"], "options": [o.value for o in anchors.options]}
            first = anchors.options[0].value
            done = ENGINE.step(state, seat, ["place", piece, opt.value, first])
            assert done.picture is None and done.preview


def test_only_orientation_and_anchor_steps_have_pictures() -> None:
    state = new("1", "8x8")
    _, log = play_out(state, random.Random(3), limit=500)
    verbs = {action[0] for _, action in log}
    assert {"place", "disc"} <= verbs
    for seat, action in log[:12]:
        for i in range(len(action) + 1):
            expected = action[0] == "place" and i in (2, 3)
            assert (ENGINE.step(state, seat, action[:i]).picture is not None) == expected, action[:i]
        state, _ = ENGINE.apply(state, seat, action)
