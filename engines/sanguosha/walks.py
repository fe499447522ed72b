"""The token walk of one state, worked out once for the AI's decision and ``apply``'s check.

Why: the AI walks :func:`choices.step` for its options and the path it picks, and ``apply`` then
walks every prefix of that action again to validate it — the same steps of the same state, and
in the play phase each costs a target check per hand card (``rules.can_target``, distances,
modifiers). The service always applies an AI's action to the very state object it was decided
on, so the steps the AI worked out are kept beside that object (one slot per thread, for the
last state asked) and ``apply`` reads them instead of walking again.

A step is a function of the state, the seat and the path, and a state is never changed in place
(``engines.base.Engine.apply`` returns a new one), so a kept step is the step. The slot holds the
state object itself, so its ``id`` cannot be reused while the steps are kept; a decision starts
a new memo and ``apply`` empties the slot, so steps live from one decision to its move only.
"""

from __future__ import annotations

import threading
from typing import Any

from engines.base import Step
from engines.sanguosha import choices, judged

State = dict[str, Any]


class Memo(dict[tuple[str, ...], Step]):
    """The steps of one walk by path, and the target checks its steps judged (``judged.py``)."""

    def __init__(self) -> None:
        super().__init__()
        self.checks: judged.Checks = {}

_slot = threading.local()


def begin(state: State, seat: int) -> Memo:
    """A new memo for a decision of ``seat`` in ``state``, kept in this thread's slot for the
    ``apply`` of its move (a decision always starts afresh: nothing outlives one move)."""
    steps = Memo()
    _slot.held = (state, seat, steps)
    return steps


def kept(state: State, seat: int) -> Memo:
    """The steps kept for ``seat`` in this very ``state`` object (empty for any other)."""
    held = getattr(_slot, "held", None)
    if held is None or held[0] is not state or held[1] != seat:
        return Memo()
    found: Memo = held[2]
    return found


def step(state: State, seat: int, path: list[str], steps: Memo) -> Step:
    """``choices.step(state, seat, path)``, from ``steps`` when worked out before."""
    key = tuple(path)
    found = steps.get(key)
    if found is None:
        with judged.over(state, steps.checks):
            found = steps[key] = choices.step(state, seat, list(path))
    return found


def validate(state: State, seat: int, action: list[str]) -> None:
    """``choices.validate`` over the steps kept for this state and seat; empties the slot (the
    move makes a new state)."""
    steps = kept(state, seat)
    _slot.held = None
    choices.validate(state, seat, action, lambda path: step(state, seat, path, steps))
