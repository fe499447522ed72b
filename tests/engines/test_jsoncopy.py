"""``engines.jsoncopy.clone``: a deep copy of JSON data, the same copy as before its C-side
shortcuts (a dict copied whole then its containers replaced, a list of scalars sliced)."""

from __future__ import annotations

import json
import random
from typing import Any

from engines.jsoncopy import clone


def _containers(value: Any) -> list[Any]:
    out: list[Any] = []
    if type(value) is dict:
        out.append(value)
        for v in value.values():
            out += _containers(v)
    elif type(value) is list:
        out.append(value)
        for v in value:
            out += _containers(v)
    return out


def _random_json(rng: random.Random, depth: int = 0) -> Any:
    pick = rng.randrange(8 if depth < 4 else 5)
    if pick == 0:
        return rng.randrange(-5, 50)
    if pick == 1:
        return rng.choice(["a", "闪", "", "x" * 3])
    if pick == 2:
        return rng.choice([True, False, None])
    if pick == 3:
        return rng.random()
    if pick == 4:
        return [rng.randrange(9) for _ in range(rng.randrange(4))]
    if pick in (5, 6):
        return {f"k{i}": _random_json(rng, depth + 1) for i in range(rng.randrange(5))}
    return [_random_json(rng, depth + 1) for _ in range(rng.randrange(5))]


def test_a_clone_is_equal_shares_no_container_and_keeps_key_order() -> None:
    rng = random.Random(3)
    for _ in range(300):
        value = {"root": _random_json(rng), "flat": [1, "a", None, 2.5, True], "nested": [[1], {"a": []}]}
        copy = clone(value)
        assert copy == value
        assert json.dumps(copy) == json.dumps(value)  # the same key order everywhere
        theirs = {id(c) for c in _containers(value)}
        assert not theirs & {id(c) for c in _containers(copy)}


def test_changing_the_clone_leaves_the_original() -> None:
    state = {"hand": [1, 2, 3], "seats": [{"hp": 3, "cards": ["a"]}], "flow": {"stack": [{"k": "turn"}]}}
    copy = clone(state)
    copy["hand"].append(4)
    copy["seats"][0]["cards"].append("b")
    copy["seats"][0]["hp"] = 1
    copy["flow"]["stack"].pop()
    assert state == {"hand": [1, 2, 3], "seats": [{"hp": 3, "cards": ["a"]}], "flow": {"stack": [{"k": "turn"}]}}


def test_what_is_not_a_dict_or_list_is_shared_as_before() -> None:
    """Scalars and any other object (a tuple, a set: not JSON, which the store would refuse
    anyway) are the very same object in the copy, as the comprehension-based copy had them."""
    marker = {1, 2}
    pair = (1, [2])
    value = {"s": marker, "t": pair, "l": [marker, 1], "n": 7}
    copy = clone(value)
    assert copy["s"] is marker and copy["t"] is pair and copy["l"][0] is marker
    assert clone(pair) is pair and clone("x") == "x"


def test_clone_sharing_copies_the_shared_lists_one_level_only() -> None:
    from engines.jsoncopy import clone_sharing

    line = {"key": "said", "params": {"who": {"seat": 1}}}
    state = {"a": {"b": [1]}, "log": [line], "n": 3, "other": [{"x": 1}]}
    copy = clone_sharing(state, frozenset({"log"}))
    assert copy == state and list(copy) == list(state)
    assert copy["log"] is not state["log"] and copy["log"][0] is line
    assert copy["other"][0] is not state["other"][0] and copy["a"]["b"] is not state["a"]["b"]
    copy["log"].append({"key": "new"})
    assert state["log"] == [line]
