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


#: Shared on purpose: records written once and then replaced, never edited (battle records, the
#: first-player rolls), the request table (``requests.refresh`` builds a new one after every
#: move) and player records (a move that changes one copies it first: ``rules.player_to_edit``).
_SHARED = ("/turn_summary/", "/last_battle/", "/first_rolls/", "/req_ids", "/players/")


def test_copy_is_equal_in_the_same_key_order_and_shares_only_what_is_never_edited_in_place() -> None:
    for variant in ("classic", "mission", "hq"):
        state = _mid_game(variant)
        state["hidden"] = {"1": {"alaska": 2}}  # a secret deployment, nested two levels
        copy = rules.copy_state(state)
        assert json.dumps(copy) == json.dumps(state)
        originals = {path: id(obj) for path, obj in _containers(state)}
        for path, obj in _containers(copy):
            if path.startswith(_SHARED):
                continue
            assert originals.get(path) != id(obj), f"{variant}: {path or '/'} is shared"
        assert copy["players"] is not state["players"]
        assert all(a is b for a, b in zip(copy["players"], state["players"], strict=True))


def test_a_changed_player_record_is_the_copy_own() -> None:
    state = _mid_game("mission")
    copy = rules.copy_state(state)
    own = rules.player_to_edit(copy, 2)
    own["cards"].append("wild_1")
    own["alive"] = not own["alive"]
    assert copy["players"][2] is own and state["players"][2] is not own
    assert json.dumps(state) == json.dumps(_mid_game("mission"))


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
