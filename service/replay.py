"""Replays: a match is its seed plus its action log, so any stored state can be rebuilt and checked.

Used for match exports (bug reports) and integrity checks. ``["resign"]`` rows (source "system")
are replayed through the engine's ``resign`` when it has one and skipped otherwise, mirroring
what ``MatchService.resign`` did.
"""

from __future__ import annotations

from typing import Any

from engines import registry
from engines.base import State


def replay(export: dict[str, Any]) -> State:
    """The state after the export's actions, from ``new_state(options, seats, seed)``."""
    engine = registry.get(export["game"])
    state = engine.new_state(dict(export["options"]), len(export["seats"]), int(export["seed"]))
    resign = getattr(engine, "resign", None)
    for entry in export["actions"]:
        if entry["source"] == "system" and entry["action"] == ["resign"]:
            if callable(resign):
                state, _ = resign(state, entry["seat"])
            continue
        state, _ = engine.apply(state, entry["seat"], list(entry["action"]))
    return state
