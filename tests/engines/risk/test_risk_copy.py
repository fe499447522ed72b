"""``apply`` works on ``rules.copy_state``: a copy that shares what a move does not edit in place."""

from __future__ import annotations

import json
import random

from risk_testkit import position

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


def test_copy_is_equal_in_the_same_key_order_and_copies_only_the_tables_most_moves_change() -> None:
    for variant in ("classic", "mission", "hq"):
        state = _mid_game(variant)
        state["hidden"] = {"1": {"alaska": 2}}  # a secret deployment, nested two levels
        copy = rules.copy_state(state)
        assert json.dumps(copy) == json.dumps(state)
        for key in ("owner", "armies", "players"):
            assert copy[key] is not state[key] and copy[key] == state[key]
        # Player records and every other table are shared until a move changes them in place
        # (player_to_edit, table_to_edit) or replaces them.
        assert all(a is b for a, b in zip(copy["players"], state["players"], strict=True))
        for key, value in state.items():
            if isinstance(value, (dict, list)) and key not in ("owner", "armies", "players"):
                assert copy[key] is value, key


def test_an_unknown_entry_is_copied_deeply() -> None:
    state = _mid_game("classic")
    state["future"] = {"a": [1, {"b": 2}]}
    copy = rules.copy_state(state)
    assert copy["future"] == state["future"] and list(copy) == list(state)
    assert copy["future"] is not state["future"] and copy["future"]["a"][1] is not state["future"]["a"][1]


def test_a_changed_player_record_or_table_is_the_copy_own() -> None:
    state = _mid_game("mission")
    before = json.dumps(state)
    copy = rules.copy_state(state)
    own = rules.player_to_edit(copy, 2)
    own["cards"].append("wild_1")
    own["alive"] = not own["alive"]
    assert copy["players"][2] is own and state["players"][2] is not own
    for key in ("deck", "discard", "hq_aside", "dice_queue", "turn_summary"):
        rules.table_to_edit(copy, key).append("x")
    for key in ("hq_holder", "hq_choice", "bonus_pools"):
        rules.table_to_edit(copy, key)["x"] = 1
    rules.table_to_edit(copy, "hidden").setdefault("1", {})["alaska"] = 3
    assert json.dumps(state) == before


def test_fixed_dice_are_used_up_in_the_copy_only() -> None:
    """Rules tests fix a game's dice (``dice_queue``); a move takes them from its own copy."""
    state = position(2, {"ontario": 1, "japan": 1}, {"quebec": 8, "kamchatka": 3}, dice=[6, 6, 6, 1])
    before = json.dumps(state)
    new, _ = ENGINE.apply(state, 0, ["attack", "quebec", "ontario", "once"])
    assert json.dumps(state) == before and new["dice_queue"] == []


def test_a_move_leaves_its_input_state_untouched() -> None:
    """Whole games from the deal (set-up placements, HQ choices, trades, card draws, eliminations
    with card hand-over), easy and normal AIs, and time-outs."""
    kinds = {"draw": 0, "trade": 0, "eliminated": 0, "hq_reveal": 0, "place_one": 0}
    for variant, setup, seats in (("mission", "quick", 6), ("classic", "classic", 4), ("hq", "classic", 3),
                                  ("neutral", "classic", 2)):
        state = ENGINE.new_state({"variant": variant, "setup": setup}, seats, 17)
        before = json.dumps(state)
        rng = random.Random(5)
        while ENGINE.result(state) is None:
            req = ENGINE.pending(state)[0]
            action = ENGINE.ai_action(state, req.seat, rng, "easy" if req.seat % 2 else "normal")
            ENGINE.apply(state, req.seat, ENGINE.timeout_action(state, req, rng))
            assert json.dumps(state) == before
            new, events = ENGINE.apply(state, req.seat, action)
            assert json.dumps(state) == before
            for e in events:
                for k in kinds:
                    kinds[k] += e.msg.key == f"risk.ev.{k}"
            state, before = new, json.dumps(new)
    assert all(kinds.values()), kinds
