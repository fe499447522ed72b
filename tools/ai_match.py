"""An export of a match the AI plays on every seat, without a store: what the replay bench and
tests replay (``service.replay``), as ``/match export`` would have written it."""

from __future__ import annotations

import json
import random
from typing import Any

from engines import registry
from engines.base import State
from service.core import with_request


def ai_export(slug: str, seed: int, moves: int, seats: int | None = None,
              options: dict[str, str] | None = None) -> tuple[dict[str, Any], list[State]]:
    """Up to ``moves`` AI moves of ``slug`` (fewer when the game ends) as an export, and the
    state after each (index 0: the start)."""
    engine = registry.get(slug)
    opts = engine.normalize_options(dict(options or {}))
    low, _ = engine.seat_range(opts)
    n = seats or max(2, low)
    state = engine.new_state(opts, n, seed)
    states, actions = [state], []
    rng = random.Random(seed)
    for version in range(1, moves + 1):
        pending = engine.pending(state)
        if not pending or engine.result(state) is not None:
            break
        req = pending[0]
        action = list(with_request(engine.ai_action, req)(state, req.seat, rng))
        state, _ = with_request(engine.apply, req)(state, req.seat, action)
        states.append(state)
        actions.append({"version": version, "seat": req.seat, "action": action, "source": "ai", "created_at": 0.0})
    export = {"format": 1, "game": slug, "edition": engine.edition, "options": opts, "seed": seed,
              "status": "finished" if engine.result(state) is not None else "active",
              "seats": [{"seat": i, "name": f"P{i + 1}", "ai_level": "normal", "human": False, "resigned": False}
                        for i in range(n)], "actions": actions}
    return json.loads(json.dumps(export)), states
