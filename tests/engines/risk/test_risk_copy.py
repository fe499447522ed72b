"""``apply`` works on ``rules.copy_state``: a copy that shares nothing a move can edit."""

from __future__ import annotations

import json
import random

from engines.risk import ENGINE, rules


def _mid_game(variant: str) -> dict:
    state = ENGINE.new_state({"variant": variant, "setup": "quick"}, 4, 21)
    rng = random.Random(21)
    for _ in range(250):
        if ENGINE.result(state) is not None:
            break
        seat = ENGINE.pending(state)[0].seat
        state, _ = ENGINE.apply(state, seat, ENGINE.ai_action(state, seat, rng))
    return state


def _containers(value: object, path: str = "") -> list[tuple[str, object]]:
    out: list[tuple[str, object]] = []
    if isinstance(value, dict):
        out.append((path, value))
        for k, v in value.items():
            out += _containers(v, f"{path}/{k}")
    elif isinstance(value, list):
        out.append((path, value))
        for i, v in enumerate(value):
            out += _containers(v, f"{path}/{i}")
    return out


def test_copy_is_equal_in_the_same_key_order_and_shares_only_write_once_records() -> None:
    for variant in ("classic", "mission", "hq"):
        state = _mid_game(variant)
        state["hidden"] = {"1": {"alaska": 2}}  # a secret deployment, nested two levels
        copy = rules.copy_state(state)
        assert json.dumps(copy) == json.dumps(state)
        originals = {path: id(obj) for path, obj in _containers(state)}
        for path, obj in _containers(copy):
            if path.startswith(("/turn_summary/", "/last_battle/", "/first_rolls/")):
                continue  # records written once and replaced, never edited: shared on purpose
            assert originals.get(path) != id(obj), f"{variant}: {path or '/'} is shared"


def test_a_move_leaves_its_input_state_untouched() -> None:
    state = _mid_game("mission")
    before = json.dumps(state)
    rng = random.Random(5)
    for _ in range(60):
        if ENGINE.result(state) is not None:
            break
        seat = ENGINE.pending(state)[0].seat
        new, _ = ENGINE.apply(state, seat, ENGINE.ai_action(state, seat, rng))
        assert json.dumps(state) == before
        state, before = new, json.dumps(new)
