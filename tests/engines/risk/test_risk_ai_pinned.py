"""The normal AI's decisions are pinned: seeded whole games of every variant, both set-ups,
hashed move by move with each final state. A speed-up of the AI or the rules (issue 22) must
leave every decision, every die and every state as they were, so the AI's strength cannot drift
unnoticed; a change meant to alter play updates the pin on purpose (and says so).

Two pins: the ``reference`` level (the normal AI one single step at a time; hard's rollout
policy) keeps the hash taken at 4e08d04, before issue 22's Risk work; the ``normal`` level sends
the same decisions joined into composite actions (issue 22's seventh round,
``engines.risk.ai_turn``), so its actions, and only they, hash differently: the same number of
single steps and the same final states (``test_risk_composite.py`` checks that move by move)."""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from engines.risk import ENGINE
from engines.risk.engine import REFERENCE

#: (variant, seats) of the pinned games; the last uses the classic set-up (claims one by one).
GAMES = (("classic", 5), ("classic", 5), ("mission", 5), ("hq", 4), ("neutral", 2), ("classic", 6))
PINNED = {REFERENCE: (5795, "1353444348f55dbb"), "normal": (2804, "22200460cc68afcf")}


@pytest.mark.parametrize("level", sorted(PINNED))
def test_normal_ai_games_are_pinned(level: str) -> None:
    h, n = hashlib.sha256(), 0
    for g, (variant, seats) in enumerate(GAMES):
        rng = random.Random(g)
        setup = "classic" if g == len(GAMES) - 1 else "quick"
        state = ENGINE.new_state({"variant": variant, "setup": setup}, seats, 7000 + g)
        while ENGINE.result(state) is None:
            seat = ENGINE.pending(state)[0].seat
            action = ENGINE.ai_action(state, seat, rng, level)
            h.update(json.dumps(action).encode())
            n += 1
            state, _ = ENGINE.apply(state, seat, action)
        h.update(json.dumps(state).encode())
    assert (n, h.hexdigest()[:16]) == PINNED[level]
