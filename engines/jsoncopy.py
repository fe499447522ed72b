"""A deep copy of plain JSON data, for engines that change a copy of their state.

Game states are JSON (dicts with str keys, lists, str, int, float, bool, None): that is what the
store keeps. ``copy.deepcopy`` handles any object graph and pays for it (a memo of every object,
a dispatch per value); this copies only the containers and shares the scalars without a call,
~3-5x faster on our states (a 鬪三國 state: 0.16 ms against 0.49 ms).
"""

from __future__ import annotations

from typing import Any

_ATOMS = (str, int, bool, float, type(None))


def clone(value: Any) -> Any:
    """Deep copy of plain JSON data. Scalars are shared without a call: a state is mostly flat
    ``str -> int`` tables, and recursing into each of their values would cost more than the copy."""
    if type(value) is dict:
        return {k: v if type(v) in _ATOMS else clone(v) for k, v in value.items()}
    if type(value) is list:
        return [v if type(v) in _ATOMS else clone(v) for v in value]
    return value
