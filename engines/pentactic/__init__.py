"""Pentactic (戰術棋): pentomino placement against blocking discs, four modes, AI and solver."""

from engines.pentactic.engine import ENGINE, PentacticEngine
from engines.pentactic.geometry import BOARDS, cell_token, parse_cell, placement_cells
from engines.pentactic.shapes import PIECES, orientations

__all__ = ["BOARDS", "ENGINE", "PIECES", "PentacticEngine", "cell_token", "orientations", "parse_cell",
           "placement_cells"]
