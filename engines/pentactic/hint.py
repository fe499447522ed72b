"""Solo hints: one placement after which the remaining pieces can still fill the board."""

from __future__ import annotations

from typing import Any

from engines.pentactic import rules
from engines.pentactic.geometry import Placement
from engines.pentactic.solver import SearchLimit, solve

#: About a second at worst; beyond it the hint says "not sure" rather than keep the match waiting.
HINT_NODES = 100_000


def find_hint(state: dict[str, Any]) -> tuple[str, Placement | None]:
    """("ok", placement) | ("unsolvable", None) | ("unknown", None)."""
    occ = rules.occupancy(state, 0)
    pieces = state["players"][0]["pieces"]
    try:
        sol = solve(state["width"], state["height"], occ, pieces, spare=0, node_limit=HINT_NODES)
    except SearchLimit:
        return "unknown", None
    if not sol:
        return "unsolvable", None
    return "ok", sol[0]
