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


def test_a_walks_target_checks_are_judged_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The play phase's steps ask the same target checks for every card of a name, and the AI's
    walk and ``apply``'s check ask them again for the same state: within one walk each
    (user, target, card) ``targetable`` fold, each distance and attack range of the decided
    state is worked out once."""
    from engines.sanguosha import rules

    folds: list[tuple[str, tuple[Any, ...]]] = []
    real = rules.fold
    decided: list[dict[str, Any]] = []

    def fold(state: dict[str, Any], quantity: str, value: Any, **args: Any) -> Any:
        if quantity in ("targetable", "distance", "attack_range") and state is decided[0]:
            folds.append((quantity, tuple(sorted(args.items()))))
        return real(state, quantity, value, **args)

    monkeypatch.setattr(rules, "fold", fold)
    plays = 0
    for state, req, rng in games(5, range(3)):
        if req.kind != "play":
            continue
        folds.clear()
        decided[:] = [state]  # (the move's own resolution judges its new state afresh)
        action = ENGINE.ai_action(state, req.seat, rng, request=req)
        ENGINE.apply(state, req.seat, action, request=req)
        assert len(folds) == len(set(folds)), action  # none judged twice in one walk
        plays += bool(folds)
    assert plays > 20


def test_target_checks_kept_for_one_state_object_only() -> None:
    """Outside a walk, or for another state object (an equal copy, a reading copy), the checks
    are judged afresh: what is kept is never read for a state it was not judged on."""
    from engines.sanguosha import judged, rules

    state = ENGINE.new_state({}, 5, 7)
    checks: judged.Checks = {}
    with judged.over(state, checks):
        assert rules.distance(state, 0, 2) == rules.distance(state, 0, 2)
        assert ("d", 0, 2) in checks
        checks[("d", 0, 2)] = 99  # a planted answer is read for this very object only
        assert rules.distance(state, 0, 2) == 99
        assert rules.distance(json.loads(json.dumps(state)), 0, 2) != 99
    assert rules.distance(state, 0, 2) != 99  # outside the walk


@pytest.mark.parametrize("options", [{}, {"mode": "hegemony"}])
def test_apply_leaves_its_input_as_it_was_and_shares_only_the_said_lines(options: dict[str, str]) -> None:
    """``apply`` copies the state but shares the turn log's lines with its input
    (``jsoncopy.clone_sharing``: they were a third of the copy): safe only while no rule changes
    a line once said. Every input of seeded games (identity mode and 国战) is the same JSON
    after ``apply`` as before it, and the new state holds the very line objects it shared."""
    seats = 5
    shared = 0
    for seed in range(3):
        state = ENGINE.new_state(options, seats, 700 + seed)
        rng = random.Random(seed)
        for _ in range(300):
            if ENGINE.result(state) is not None:
                break
            req = ENGINE.pending(state)[0]
            action = ENGINE.ai_action(state, req.seat, rng, request=req)
            before = json.dumps(state, ensure_ascii=False)
            new, _ = ENGINE.apply(state, req.seat, action, request=req)
            assert json.dumps(state, ensure_ascii=False) == before
            assert new["log"] is not state["log"]
            mine = {id(line) for line in state["log"]}
            shared += sum(id(line) in mine for line in new["log"])
            state = new
    assert shared > 1000
