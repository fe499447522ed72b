"""Exact packing search on bitboards: solo deals, hints and AI look-ahead.

The search always fills the lowest empty square, either with a remaining piece whose lowest
square it is or (while the spare budget lasts) by leaving it empty. With a budget of 0 this is
the classic exact-cover search. After every placement the empty regions touching the new piece
are flood-filled: a closed region smaller than a piece is spare for good, and a closed region
whose size is not a multiple of five needs at least that many spare squares, which prunes most
dead ends long before the board fills up.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache

from engines.pentactic.geometry import PIECE_SIZE, Geometry, Placement, geometry
from engines.pentactic.shapes import PIECES

_INDEX = {p: i for i, p in enumerate(PIECES)}
#: Closed regions larger than this are not measured (they are almost never the problem).
_REGION_BOUND = 24


class SearchLimit(Exception):
    """The node budget ran out before the question was answered."""


@dataclass(frozen=True)
class _Tables:
    full: int
    width: int
    not_first_col: int
    not_last_col: int
    #: square -> ((piece bit, mask, placement), ...) for placements whose lowest square it is.
    low: tuple[tuple[tuple[int, int, Placement], ...], ...]


@cache
def _tables(width: int, height: int) -> _Tables:
    g = geometry(width, height)
    low = tuple(tuple((1 << _INDEX[p.piece], p.mask, p) for p in cell) for cell in g.by_low_cell)
    return _Tables(g.full, width, g.not_first_col, g.not_last_col, low)


@dataclass
class _Run:
    t: _Tables
    limit: int | None
    stop_at: int | None
    allowed: dict[int, frozenset[int]]
    nodes: int = 0
    found: list[list[Placement]] = field(default_factory=list)
    count: int = 0


def _close_regions(t: _Tables, occ: int, placed: int, budget: int) -> tuple[int, int] | None:
    """Account for empty regions the new piece may have cut off; None when that is hopeless.

    (The flood fill is written out inline: this is the solver's innermost loop.)"""
    w, nf, nl = t.width, t.not_first_col, t.not_last_col
    free = t.full & ~occ
    around = (((placed >> 1) & nl) | ((placed << 1) & nf) | (placed >> w) | (placed << w)) & free
    need = 0
    while around:
        reg = around & -around
        closed = False
        while True:
            grow = (reg | ((reg >> 1) & nl) | ((reg << 1) & nf) | (reg >> w) | (reg << w)) & free
            if grow == reg:
                closed = True
                break
            reg = grow
            if reg.bit_count() > _REGION_BOUND:
                break
        around &= ~reg
        if not closed:
            continue
        size = reg.bit_count()
        if size < PIECE_SIZE:
            budget -= size
            if budget < 0:
                return None
            occ |= reg
            free &= ~reg
        else:
            need += size % PIECE_SIZE
    if need > budget:
        return None
    return occ, budget


def _search(run: _Run, occ: int, rem: int, budget: int, path: list[Placement]) -> bool:
    """Returns True to stop the whole search."""
    run.nodes += 1
    if run.limit is not None and run.nodes > run.limit:
        raise SearchLimit
    if not rem:
        run.count += 1
        if len(run.found) < (run.stop_at or 1):
            run.found.append(list(path))
        return run.stop_at is not None and run.count >= run.stop_at
    t = run.t
    free = t.full & ~occ
    if not free:
        return False
    low = free & -free
    for pbit, mask, pl in t.low[low.bit_length() - 1]:
        if not (pbit & rem) or (mask & occ):
            continue
        allowed = run.allowed.get(pbit)
        if allowed is not None and mask not in allowed:
            continue
        nxt = _close_regions(t, occ | mask, mask, budget)
        if nxt is None:
            continue
        path.append(pl)
        if _search(run, nxt[0], rem & ~pbit, nxt[1], path):
            return True
        path.pop()
    if budget > 0:
        nxt = _close_regions(t, occ | low, low, budget - 1)
        if nxt is not None and _search(run, nxt[0], rem, nxt[1], path):
            return True
    return False


def _prepare(g: Geometry, occ: int, pieces: Iterable[str], spare: int | None) -> tuple[int, int]:
    rem = 0
    for p in pieces:
        rem |= 1 << _INDEX[p]
    free = (g.full & ~occ).bit_count()
    budget = free - PIECE_SIZE * rem.bit_count() if spare is None else spare
    return rem, budget


def solve(width: int, height: int, occ: int, pieces: Iterable[str], *, spare: int | None = None,
          node_limit: int | None = None) -> list[Placement] | None:
    """One way to place all ``pieces`` on the empty squares of ``occ``, or None if there is none.

    ``spare`` is how many empty squares may stay uncovered (default: all the excess, i.e. any
    packing; 0 with exactly 5 squares per piece is exact cover). Raises SearchLimit after
    ``node_limit`` nodes, so "unknown" is never mistaken for "impossible".
    """
    g = geometry(width, height)
    rem, budget = _prepare(g, occ, pieces, spare)
    if budget < 0:
        return None
    run = _Run(_tables(width, height), node_limit, 1, {})
    _search(run, occ & g.full, rem, budget, [])
    return run.found[0] if run.found else None


def count_solutions(width: int, height: int, occ: int, pieces: Iterable[str], *,
                    restrict: dict[str, Iterable[int]] | None = None,
                    node_limit: int | None = None) -> int:
    """How many exact covers there are (raw, symmetric copies counted separately).

    ``restrict`` limits a piece to the given placement masks, the usual way to count solutions up
    to symmetry (pin the X pentomino to one region of the board)."""
    g = geometry(width, height)
    rem, budget = _prepare(g, occ, pieces, 0)
    free = (g.full & ~occ).bit_count()
    if free != PIECE_SIZE * rem.bit_count():
        return 0
    allowed = {1 << _INDEX[p]: frozenset(ms) for p, ms in (restrict or {}).items()}
    run = _Run(_tables(width, height), node_limit, None, allowed)
    _search(run, occ & g.full, rem, budget, [])
    return run.count
