"""Shared helpers for the Pentactic tests (unique module name: tests have no packages)."""

from __future__ import annotations

import json
import random
from typing import Any

from engines.pentactic import ENGINE
from engines.pentactic.board import board_masks, geo

SEATS = {"1": 2, "2": 2, "3": 4, "4": 1}


def new(mode: str, board: str = "8x8", seats: int | None = None, seed: int = 7, **opts: str) -> dict:
    return ENGINE.new_state({"mode": mode, "board": board, **opts}, seats or SEATS[mode], seed)


def act(state: dict, action: list[str], seat: int | None = None) -> tuple[dict, list]:
    if seat is None:
        seat = ENGINE.pending(state)[0].seat
    return ENGINE.apply(state, seat, action)


def play_out(state: dict, rng: random.Random, levels: dict[int, str] | None = None,
             check: Any = None, limit: int = 500) -> tuple[dict, list[tuple[int, list[str]]]]:
    """Play AI moves to the end; returns the final state and the (seat, action) log."""
    log = []
    for _ in range(limit):
        reqs = ENGINE.pending(state)
        if not reqs:
            return state, log
        seat = reqs[0].seat
        action = ENGINE.ai_action(state, seat, rng, (levels or {}).get(seat, "easy"))
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
