"""Reading the plain-data boards of a game state as bitboards, and the legal-move queries.

State keeps boards as JSON lists (what the view and the action log need); these helpers turn
them into masks on demand, which costs microseconds and keeps a single source of truth.
"""

from __future__ import annotations

from typing import Any

from engines.pentactic.geometry import Geometry, disc_cells, geometry

Board = dict[str, Any]


def geo(state: dict[str, Any]) -> Geometry:
    return geometry(state["width"], state["height"])


def board_masks(g: Geometry, board: Board) -> tuple[int, int]:
    """(everything occupied, discs only) of one board."""
    discs = 0
    for x, y, _by in board["discs"]:
        discs |= g.bit(x, y)
    occ = discs
    for pc in board["pieces"]:
        occ |= g.cells_mask(pc["cells"])
    return occ, discs


def legal_disc_mask(g: Geometry, board: Board) -> int:
    occ, discs = board_masks(g, board)
    return disc_cells(g, occ, discs)


def fitting_pieces(g: Geometry, board: Board, pieces: list[str]) -> list[str]:
    """The pieces from ``pieces`` that still have a place on ``board``."""
    occ, _ = board_masks(g, board)
    return [p for p in pieces if g.fits_anywhere(p, occ)]


def can_place_any(g: Geometry, board: Board, pieces: list[str]) -> bool:
    occ, _ = board_masks(g, board)
    return any(g.fits_anywhere(p, occ) for p in pieces)
