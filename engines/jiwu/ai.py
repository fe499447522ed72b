"""The 极武三国 AI: a greedy scorer over the legal actions, plus the random walker baseline."""

from __future__ import annotations

import random

from engines.base import Action, State
from engines.jiwu import choices


def random_action(state: State, seat: int, rng: random.Random) -> Action:
    """Walk the action tree choosing uniformly at each step (ends the turn 1 time in 8)."""
    path: list[str] = []
    while True:
        node = choices.tree(state, seat, path)
        if node.complete and (not node.options or rng.random() < 0.5):
            return path
        opts = [o.value for o in node.options]
        if not path and state["phase"] == "main" and len(opts) > 1 and rng.random() >= 0.125:
            opts = [o for o in opts if o != "end"]
        path.append(rng.choice(opts))


def decide(state: State, seat: int, rng: random.Random) -> Action:
    return random_action(state, seat, rng)
