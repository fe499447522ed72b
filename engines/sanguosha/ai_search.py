"""The hard AI's search (issue 23): on a play-phase choice between good cards, play each of the
best few out in a few determinized worlds and keep the one that ends this seat's turn best.

A *world* is the table as this seat sees it with every hidden part dealt anew: the cards it
cannot see (the deck and the other hands) are shuffled from their sorted set, so the world never
depends on where they really lie, and the hidden roles are drawn one seat after another by the
seat's own role estimate (``Mind.p``), so a seat that looked rebel is most often a rebel there.
The same worlds judge every candidate (common random numbers), and every seat in a world,
this one included after the candidate, plays normal's policy until this seat's turn ends.
A finished turn is scored from the world's own roles (``_worth``): the HP, cards and lives of
this seat's side against the other side's, the lord counting double; the renegade, which has
no side, its own against every other seat's but the lord's (``_weight``).

Only the state's public part and this seat's own cards reach a world (the determinization test
in ``test_sgs_levels.py`` scrambles everything hidden and expects the same move).
"""

from __future__ import annotations

import random
from typing import Any

from engines.flow import Flow
from engines.jsoncopy import clone
from engines.sanguosha.ai_mind import HIDDEN, Mind
from engines.sanguosha.rules import ROLE_NAMES

State = dict[str, Any]

#: Candidates compared (normal's best few by its own score), worlds per candidate, and the
#: longest rollout (asks answered) before the turn is scored anyway.
TOP = 3
WORLDS = 3
HORIZON = 30
#: What a hand card, a piece of equipment, a 乐不思蜀 waiting in the judge zone (a lost turn,
#: counted against its holder) and a death weigh against one HP in a finished turn's score.
CARD = 0.3
EQUIP = 0.5
LEBU = 1.5
DEATH = 3.0
#: What another seat's strength (the lord's aside) weighs against the renegade's own.
RIVAL = 0.3

LETTER = {name: letter for letter, name in ROLE_NAMES.items()}


def world(state: State, seat: int, mind: Mind, rng: random.Random) -> State:
    """``state`` with the hidden part dealt anew from what ``seat`` may know."""
    out = clone(state)
    players = out["players"]
    others = [p for i, p in enumerate(players) if i != seat]
    pool = sorted(out["deck"] + [c for p in others for c in p["hand"]])
    rng.shuffle(pool)
    for p in others:
        k = len(p["hand"])
        p["hand"], pool = pool[:k], pool[k:]
    out["deck"] = pool
    left = dict(mind.left)
    for s in sorted(mind.unknown):
        if s == seat:
            continue
        roles = [r for r in HIDDEN if left[r] > 0]
        weights = [mind.p[s][r] + 1e-6 for r in roles]
        r = rng.choices(roles, weights)[0]
        left[r] -= 1
        players[s]["role"] = LETTER[r]
    out["rng"] = rng.getrandbits(63)  # judgements and reshuffles to come are unknown too
    return out


def _side(mine: str, theirs: str) -> float:
    """+1 for a seat on ``mine``'s side, −1 for one against it (the renegade half an enemy of
    the lord's side), 0 otherwise."""
    if mine in ("Z", "C"):
        return 1.0 if theirs in ("Z", "C") else -1.0 if theirs == "F" else -0.5
    if mine == "F":
        return 1.0 if theirs == "F" else -1.0 if theirs in ("Z", "C") else 0.0
    return 0.0


def _weight(roles: list[str], seat: int, other: int) -> float:
    """How much ``other``'s strength counts for ``seat`` (the lord double). The renegade has no
    side: it must outlive every seat but the lord, so its own strength counts for it and every
    other seat's (the lord's aside) against it by :data:`RIVAL`; the lord's death while others
    live is already a lost game in the score."""
    if roles[seat] == "N":
        return 1.0 if other == seat else 0.0 if roles[other] == "Z" else -RIVAL
    return _side(roles[seat], roles[other]) * (2.0 if roles[other] == "Z" else 1.0)


def _seat_worth(p: dict[str, Any]) -> float:
    gear = sum(1 for e in p["equip"].values() if e)
    lebu = sum(1 for j in p["judge"] if j[1] == "lebu")
    return p["hp"] + CARD * len(p["hand"]) + EQUIP * gear - LEBU * lebu


def _worth(state: State, seat: int) -> float:
    won = state["winners"]
    if won is not None:
        return 100.0 if seat in won else -100.0
    roles = [p["role"] for p in state["players"]]
    total = 0.0
    for i, p in enumerate(state["players"]):
        w = _weight(roles, seat, i)
        if w:
            total += w * (_seat_worth(p) if p["alive"] else -DEATH)
    return total


def rollout(engine: Any, state: State, seat: int, path: list[str], rng: random.Random) -> float:
    """Play ``path`` for ``seat`` in a world, then normal's policy for everybody until this
    seat's turn is over; the finished turn's worth to ``seat``."""
    from engines.sanguosha import ai

    st, _ = engine.apply(state, seat, path)
    turn = state["turn"]
    for _ in range(HORIZON):
        if st["winners"] is not None or st["turn"] != turn:
            break
        asks = Flow.asks(st)
        if not asks:
            break
        a = asks[0]
        st, _ = engine.apply(st, a.seat, ai.decide(st, a.seat, rng))
    return _worth(st, seat)


def best(engine: Any, state: State, seat: int, mind: Mind, cands: list[list[str]],
         rng: random.Random) -> list[str]:
    """The candidate whose rollouts end the turn best on average (ties: the earlier one,
    normal's order)."""
    worlds = [world(state, seat, mind, rng) for _ in range(WORLDS)]
    seeds = [rng.getrandbits(32) for _ in worlds]
    scored = []
    for i, path in enumerate(cands):
        total = sum(rollout(engine, w, seat, path, random.Random(sd)) for w, sd in zip(worlds, seeds, strict=True))
        scored.append((total / len(worlds), -i))
    return cands[-max(scored)[1]]
