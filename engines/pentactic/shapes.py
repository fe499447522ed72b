"""The twelve free pentominoes and their fixed orientations.

Orientation numbers are part of the action vocabulary (``["place", "F", "3", "b4"]``) and of saved
action logs, so they must never change: they are generated in one fixed transform order from the
drawings below and deduplicated keeping the first occurrence.
"""

from __future__ import annotations

from functools import cache

Cell = tuple[int, int]

#: Conventional names, in the order trays and menus list them.
PIECES: tuple[str, ...] = ("F", "I", "L", "N", "P", "T", "U", "V", "W", "X", "Y", "Z")

# Drawings with x to the right and y downwards; '#' is a square of the piece.
_DRAWINGS: dict[str, str] = {
    "F": ".##|##.|.#.",
    "I": "#####",
    "L": "#.|#.|#.|##",
    "N": ".#|.#|##|#.",
    "P": "##|##|#.",
    "T": "###|.#.|.#.",
    "U": "#.#|###",
    "V": "#..|#..|###",
    "W": "#..|##.|.##",
    "X": ".#.|###|.#.",
    "Y": ".#|##|.#|.#",
    "Z": "##.|.#.|.##",
}


def _parse(drawing: str) -> list[Cell]:
    return [(x, y) for y, row in enumerate(drawing.split("|")) for x, ch in enumerate(row) if ch == "#"]


def _normalize(cells: list[Cell]) -> tuple[Cell, ...]:
    """Shift so the bounding box starts at (0, 0); sort by row then column so equal shapes compare equal."""
    mx = min(x for x, _ in cells)
    my = min(y for _, y in cells)
    return tuple(sorted(((x - mx, y - my) for x, y in cells), key=lambda c: (c[1], c[0])))


def _transform(cells: list[Cell], t: int) -> list[Cell]:
    """Transform number ``t`` (0..7): mirror first when ``t >= 4``, then ``t % 4`` clockwise quarter turns."""
    out = [(-x, y) for x, y in cells] if t >= 4 else list(cells)
    for _ in range(t % 4):
        out = [(-y, x) for x, y in out]
    return out


@cache
def _orientations(piece: str) -> tuple[tuple[Cell, ...], ...]:
    base = _parse(_DRAWINGS[piece])
    seen: list[tuple[Cell, ...]] = []
    for t in range(8):
        shape = _normalize(_transform(base, t))
        if shape not in seen:
            seen.append(shape)
    return tuple(seen)


def orientations(piece: str) -> list[list[Cell]]:
    """All distinct orientations of ``piece``; index ``i`` is orientation token ``str(i)``.

    Each orientation is a list of (x, y) offsets from the top-left corner of its bounding box,
    which is the placement anchor (that corner may be a square the piece does not cover).
    Raises KeyError for an unknown piece name.
    """
    return [list(shape) for shape in _orientations(piece)]


def orientation_count(piece: str) -> int:
    return len(_orientations(piece))


def shape(piece: str, orientation: int) -> tuple[Cell, ...]:
    """One orientation as an immutable tuple (IndexError/KeyError when it does not exist)."""
    if orientation < 0:
        raise IndexError(orientation)
    return _orientations(piece)[orientation]
