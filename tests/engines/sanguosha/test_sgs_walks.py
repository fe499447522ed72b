"""``apply`` checks an AI's move over the steps the AI worked out for that very state
(``engines/sanguosha/walks.py``) instead of walking the token tree again, and copies the state
as plain JSON (``engines.jsoncopy.clone``): both must leave every decision and every refusal as
it was."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from engines.base import EngineError
from engines.sanguosha import choices, walks
from engines.sanguosha.engine import SanguoshaEngine

ENGINE = SanguoshaEngine()


def games(seats: int, seeds: range, steps: int = 400) -> Any:
    """(state, request, rng) at every step of seeded all-AI games."""
    for seed in seeds:
        state = ENGINE.new_state({}, seats, 900 + seed)
        rng = random.Random(seed)
        for _ in range(steps):
            if ENGINE.result(state) is not None:
                break
            req = ENGINE.pending(state)[0]
            yield state, req, rng
            action = ENGINE.ai_action(state, req.seat, rng, request=req)
            state, _ = ENGINE.apply(state, req.seat, action, request=req)


def test_an_ai_move_is_checked_over_the_steps_the_ai_worked_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """The play phase's first step judges every hand card's targets; the AI has worked it out,
    and ``apply`` walked it (and every longer prefix) again. Now a step ``apply`` needs is
    walked only if the AI did not (a discard is chosen from the hand, not from the steps)."""
    walked: list[tuple[int, tuple[str, ...]]] = []
    real = choices.step

    def step(state: dict[str, Any], seat: int, path: list[str]) -> Any:
        walked.append((seat, tuple(path)))
        return real(state, seat, path)

    monkeypatch.setattr(choices, "step", step)
    plays = 0
    for state, req, rng in games(5, range(3)):
        walked.clear()  # (the previous move, made by games())
        action = ENGINE.ai_action(state, req.seat, rng, request=req)
        ENGINE.apply(state, req.seat, action, request=req)
        assert len(walked) == len(set(walked)), (req.kind, action)  # no step walked twice
        plays += req.kind == "play" and action != ["end"]
    assert plays > 20


def test_steps_worked_out_for_one_move_vouch_for_no_other() -> None:
    """The kept steps are those of one state and seat, and only until the move is applied: a
    different action, another seat, an equal copy of the state or a second apply on the same
    state are checked as before."""
    checked = 0
    for state, req, rng in games(4, range(2), steps=200):
        if req.kind != "play":
            continue
        action = ENGINE.ai_action(state, req.seat, rng, request=req)
        with pytest.raises(EngineError):
            ENGINE.apply(state, req.seat, [*action, "nonsense"], request=req)
        other = (req.seat + 1) % 4
        ENGINE.ai_action(state, req.seat, rng, request=req)
        with pytest.raises(EngineError):
            ENGINE.apply(state, other, action)
        ENGINE.ai_action(state, req.seat, rng, request=req)
        ENGINE.apply(json.loads(json.dumps(state)), req.seat, action, request=req)
        assert walks.kept(state, req.seat) == {}  # applied to another object: nothing kept
        checked += 1
    assert checked > 10


def test_the_state_stays_plain_json() -> None:
    """``apply`` copies its input with ``jsoncopy.clone``, not through JSON text: that is the same
    copy only while a state holds nothing but JSON types (no tuples, no int keys), which the
    store needs anyway."""
    def plain(value: Any) -> bool:
        if type(value) is dict:
            return all(type(k) is str and plain(v) for k, v in value.items())
        if type(value) is list:
            return all(plain(v) for v in value)
        return type(value) in (str, int, float, bool, type(None))

    for state, _, _ in games(6, range(3), steps=600):
        assert plain(state)
