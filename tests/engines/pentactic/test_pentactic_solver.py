"""The exact solver against known pentomino counts, and its guarantees."""

from __future__ import annotations

import pytest

from engines.pentactic.geometry import geometry
from engines.pentactic.shapes import PIECES
from engines.pentactic.solver import SearchLimit, count_solutions, solve

CENTRE = [(3, 3), (4, 3), (3, 4), (4, 4)]


def _assert_cover(width: int, height: int, occ: int, solution: list, spare: int = 0) -> None:
    g = geometry(width, height)
    assert sorted(p.piece for p in solution) == sorted(PIECES)
    covered = 0
    for p in solution:
        assert not (p.mask & covered) and not (p.mask & occ)
        assert p.mask in {q.mask for q in g.placements[p.piece]}
        covered |= p.mask
    assert (g.full & ~(covered | occ)).bit_count() == spare


def test_three_by_twenty_has_two_solutions_up_to_symmetry() -> None:
    # 2 distinct solutions; a rectangle has 4 symmetries and no solution is symmetric: 8 raw.
    assert count_solutions(3, 20, 0, PIECES) == 8


def test_eight_by_eight_with_centre_hole_is_solved() -> None:
    g = geometry(8, 8)
    hole = g.cells_mask(CENTRE)
    sol = solve(8, 8, hole, PIECES, spare=0)
    assert sol is not None
    _assert_cover(8, 8, hole, sol)


def test_packing_with_spare_squares() -> None:
    g = geometry(8, 8)
    sol = solve(8, 8, 0, PIECES)  # 64 squares, 60 covered, 4 spare
    assert sol is not None
    _assert_cover(8, 8, 0, sol, spare=4)
    assert solve(8, 8, g.full, ["X"]) is None


def test_impossible_layout_is_proved_quickly() -> None:
    g = geometry(8, 8)
    # (0, 0) is walled off by two discs: 59 squares left can never be covered exactly.
    occ = g.cells_mask([(1, 0), (0, 1), (5, 5), (6, 6)])
    assert solve(8, 8, occ, PIECES, spare=0, node_limit=50) is None


def test_node_limit_means_unknown_not_impossible() -> None:
    with pytest.raises(SearchLimit):
        solve(10, 6, 0, PIECES, spare=0, node_limit=5)
    assert solve(3, 20, 0, PIECES, spare=0) is not None


@pytest.mark.slow
def test_eight_by_eight_centre_hole_has_65_solutions_up_to_symmetry() -> None:
    """Count with the X pinned to one octant: off-diagonal X gives 1 of 8 images, diagonal X 2."""
    g = geometry(8, 8)
    hole = g.cells_mask(CENTRE)
    xs = [p for p in g.placements["X"] if p.x + 1 < 4 and p.y + 1 < 4]
    off = count_solutions(8, 8, hole, PIECES, restrict={"X": [p.mask for p in xs if p.x < p.y]})
    diag = count_solutions(8, 8, hole, PIECES, restrict={"X": [p.mask for p in xs if p.x == p.y]})
    assert diag % 2 == 0
    assert off + diag // 2 == 65
    assert 8 * off + 4 * diag == 520


def test_solo_fallback_layouts_are_solvable() -> None:
    """The never-expected fallback of the solvable deal must itself be a solvable layout."""
    from engines.pentactic.deal import _fallback
    from engines.pentactic.geometry import BOARDS, SOLO_DISCS

    for size, (w, h) in BOARDS.items():
        cells = _fallback(w, h, SOLO_DISCS[size])
        assert len(set(cells)) == SOLO_DISCS[size]
