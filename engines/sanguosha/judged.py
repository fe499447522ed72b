"""Target checks judged once per token walk (issue 22).

Why: a play-phase step asks, for every hand card, whether each living seat may be targeted
(``rules.can_target``), how far it is (``rules.distance``) and how far the user reaches
(``rules.attack_range``) — each a fold through every modifier of the game's flow — and the AI
walks several steps of the same state in one decision (its options, the path it picks, then
``apply``'s check over the same walk: ``walks.py``). The answers are the same for the same state
object: a step is a function of the state, and a state is never changed in place. So while a
walk's step is worked out (:func:`over`), the three checks are kept in the walk's own dict,
valid for that very state object only (a reading copy such as ``rules.without_equipped``'s is
another object and is judged afresh), and they live as long as the walk's memo: one decision
and the ``apply`` of its move.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

Checks = dict[tuple[Any, ...], Any]

_on = threading.local()


@contextmanager
def over(state: dict[str, Any], checks: Checks) -> Iterator[None]:
    """Keep the target checks of ``state`` (this very object) in ``checks`` for the block."""
    before = getattr(_on, "held", None)
    _on.held = (state, checks)
    try:
        yield
    finally:
        _on.held = before


def kept(state: dict[str, Any]) -> Checks | None:
    """The checks kept for ``state`` now, or None outside :func:`over` of this very object."""
    held = getattr(_on, "held", None)
    if held is None or held[0] is not state:
        return None
    found: Checks = held[1]
    return found
