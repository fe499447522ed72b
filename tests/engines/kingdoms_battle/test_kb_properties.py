"""Random legal play to the end: troops and tiles are conserved, the state is plain JSON that
replays from its log, apply never mutates its input, and every message the engine speaks is in
the catalogs."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from kb_testkit import conservation, new

from engines.base import Msg
from engines.kingdoms_battle import ENGINE
from i18n import catalog


def _keys(value: Any, out: set[str]) -> None:
    if isinstance(value, Msg):
        out.add(value.key)
        _keys(value.params, out)
    elif isinstance(value, dict):
        if "key" in value and isinstance(value["key"], str) and value["key"]:
            out.add(value["key"])
        for v in value.values():
            _keys(v, out)


def _random_game(seats: int, seed: int) -> tuple[dict, list[tuple[int, list[str]]], set[str]]:
    state = new(seats, seed)
    rng = random.Random(seed)
    log: list[tuple[int, list[str]]] = []
    keys: set[str] = set()
    while not ENGINE.result(state):
        req = ENGINE.pending(state)[0]
        keys.add(req.prompt.key)
        level = "random" if rng.random() < 0.7 else "normal"
        path: list[str] = []
        while True:  # walk the tree as a front-end would, collecting every label
            step = ENGINE.step(state, req.seat, path)
            keys.add(step.prompt.key)
            for o in step.options:
                _keys(o.label, keys)
            if step.complete and not step.options:
                break
            if level == "random":
                if step.complete and rng.random() < 0.5:
                    break
                path.append(rng.choice(step.options).value)
            else:
                path = ENGINE.ai_action(state, req.seat, rng)
                break
        prev, snapshot = state, copy.deepcopy(state)
        state, events = ENGINE.apply(prev, req.seat, path)
        assert prev == snapshot  # apply worked on a copy
        for e in events:
            _keys(e.msg, keys)
        log.append((req.seat, path))
        conservation(state)
    return state, log, keys


@pytest.mark.parametrize("seats, seed", [(3, 1), (3, 2), (4, 3), (4, 4), (5, 5), (5, 6)])
def test_random_legal_games_conserve_troops_and_tiles_and_replay(seats: int, seed: int) -> None:
    state, log, keys = _random_game(seats, seed)
    result = ENGINE.result(state)
    assert result is not None and result.winners
    assert state["end_reason"] in ("points", "tiles")
    assert json.loads(json.dumps(state)) == state
    replay = new(seats, seed)
    for seat, path in log:
        replay, _ = ENGINE.apply(replay, seat, path)
    assert replay == state
    en = catalog("en")
    missing = sorted(k for k in keys if k not in en and not k.startswith("core."))
    assert not missing, missing


def test_apply_leaves_its_input_alone() -> None:
    state = new(3, 9)
    frozen = copy.deepcopy(state)
    ENGINE.apply(state, 0, ["expand"])
    assert state == frozen


def test_view_is_public_and_json() -> None:
    state = new(4, 2)
    view = ENGINE.view(state, None)
    assert ENGINE.view(state, 1) == view
    assert "stack" in view and isinstance(view["stack"], int)  # the order stays secret
    assert json.loads(json.dumps(view)) == view
    assert ENGINE.describe(view)
