"""Replays: a match is its seed plus its action log, so any stored state can be rebuilt and checked.

Used for match exports (bug reports) and integrity checks. ``["resign"]`` rows (source "system")
are replayed through the engine's ``resign`` when it has one and skipped otherwise, mirroring
what ``MatchService.resign`` did. An export names the edition the match started at; a system
``["upgrade", from, to]`` row (``MatchService.upgrade_matches``) upgrades the state at that point
and goes on with that edition's engine, as the bot did.
"""

from __future__ import annotations

from typing import Any

from engines import registry
from engines.base import State, upgrade_state
from service.reaction import engine_options


def replay(export: dict[str, Any]) -> State:
    """The state after the export's actions, from ``new_state(options, seats, seed)``."""
    latest = registry.get(export["game"])
    engine = latest.replay_engine(int(export.get("edition", 1)))
    state = engine.new_state(engine_options(export["options"]), len(export["seats"]), int(export["seed"]))
    for entry in export["actions"]:
        if entry["source"] == "system" and entry["action"][:1] == ["upgrade"]:
            before, after = int(entry["action"][1]), int(entry["action"][2])
            state = upgrade_state(latest, state, before, to=after)
            engine = latest.replay_engine(after)
            continue
        if entry["source"] == "system" and entry["action"] == ["resign"]:
            resign = getattr(engine, "resign", None)
            if callable(resign):
                state, _ = resign(state, entry["seat"])
            continue
        state, _ = engine.apply(state, entry["seat"], list(entry["action"]))
    return state
