"""Shared helpers for the Pentactic tests (unique module name: tests have no packages)."""

from __future__ import annotations

import json
import random
from typing import Any

from engines.pentactic import ENGINE, ai
from engines.pentactic.board import board_masks, geo

SEATS = {"1": 2, "2": 2, "3": 4, "4": 1}


def new(mode: str, board: str = "8x8", seats: int | None = None, seed: int = 7, **opts: str) -> dict:
    return ENGINE.new_state({"mode": mode, "board": board, **opts}, seats or SEATS[mode], seed)


def act(state: dict, action: list[str], seat: int | None = None) -> tuple[dict, list]:
    if seat is None:
        seat = ENGINE.pending(state)[0].seat
    return ENGINE.apply(state, seat, action)


def ai_move(state: dict, seat: int, rng: random.Random, level: str) -> list[str]:
    """The engine's AI at ``level``, or (``"uniform"``, never offered in a lobby) the uniformly
    random player the rule tests explore with."""
    return ai.choose(state, seat, rng, level) if level == ai.UNIFORM else ENGINE.ai_action(state, seat, rng, level)


def uniform(state: dict, seat: int, rng: random.Random) -> list[str]:
    """A uniformly random legal action (what "easy" was before the AI levels of issue 23)."""
    return ai.choose(state, seat, rng, ai.UNIFORM)


def play_out(state: dict, rng: random.Random, levels: dict[int, str] | None = None,
             check: Any = None, limit: int = 500) -> tuple[dict, list[tuple[int, list[str]]]]:
    """Play AI moves (uniform where ``levels`` names none) to the end; returns the final state and the (seat, action) log."""
    log = []
    for _ in range(limit):
        reqs = ENGINE.pending(state)
        if not reqs:
            return state, log
        seat = reqs[0].seat
        action = ai_move(state, seat, rng, (levels or {}).get(seat, ai.UNIFORM))
        state, _ = ENGINE.apply(state, seat, action)
        log.append((seat, action))
        if check:
            check(state)
    raise AssertionError("game did not end")


def snapshot(state: dict) -> str:
    return json.dumps(state, sort_keys=True)


def occupied(state: dict, owner: int) -> int:
    from engines.pentactic.rules import board_of

    return board_masks(geo(state), board_of(state, owner))[0]
