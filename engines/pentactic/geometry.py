"""Board sizes, cell tokens and precomputed bitboard placement masks.

A board is a Python int with bit ``y * width + x`` set for every occupied square (pieces and
discs alike). Every question the rules, the AI and the solver ask ("does this piece fit
anywhere", "which anchors are legal") becomes a scan of masks computed once per board size.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from engines.pentactic.shapes import PIECES, Cell, orientations, shape
from engines.tokens import ascii_int

#: Option value -> (width, height).
BOARDS: dict[str, tuple[int, int]] = {"8x8": (8, 8), "9x7": (9, 7), "11x6": (11, 6)}
#: Solo mode: discs dealt so that exactly 60 squares stay free.
SOLO_DISCS: dict[str, int] = {"8x8": 4, "9x7": 3, "11x6": 6}
DISCS_PER_PLAYER = 8
PIECE_SIZE = 5


def cell_token(x: int, y: int) -> str:
    """``(1, 3)`` -> ``"b4"``: column letter left to right, row number top to bottom."""
    return f"{chr(ord('a') + x)}{y + 1}"


def parse_cell(token: str, width: int, height: int) -> Cell | None:
    """The inverse of :func:`cell_token`; None for anything that is not a square of the board."""
    # ASCII only: 'İ'.lower() is two characters (ord() then raises) and '²'.isdigit() is true.
    if not isinstance(token, str) or len(token) < 2 or not token.isascii():
        return None
    col, number = token[0].lower(), ascii_int(token[1:])
    if not ("a" <= col <= "z") or number is None or token[1] == "0":
        return None
    x, y = ord(col) - ord("a"), number - 1
    if 0 <= x < width and 0 <= y < height:
        return x, y
    return None


def placement_cells(piece: str, orientation: int, anchor: str, width: int,
                    height: int) -> list[Cell] | None:
    """Squares covered by ``piece`` in ``orientation`` with its bounding box's top-left at
    ``anchor``; None when the piece, orientation or anchor does not exist or it leaves the board.
    Pure geometry: occupancy is not checked (renderers use it for previews)."""
    try:
        cells = shape(piece, int(orientation))
    except (KeyError, IndexError, ValueError, TypeError):
        return None
    at = parse_cell(anchor, width, height)
    if at is None:
        return None
    out = [(at[0] + dx, at[1] + dy) for dx, dy in cells]
    if all(0 <= x < width and 0 <= y < height for x, y in out):
        return out
    return None


@dataclass(frozen=True)
class Placement:
    piece: str
    orientation: int
    x: int
    y: int
    mask: int

    @property
    def anchor(self) -> str:
        return cell_token(self.x, self.y)


@dataclass(frozen=True)
class Geometry:
    """Everything precomputable for one board size."""

    width: int
    height: int
    full: int
    #: piece -> every placement on the empty board.
    placements: dict[str, tuple[Placement, ...]]
    #: piece -> orientation -> placements.
    by_orientation: dict[str, tuple[tuple[Placement, ...], ...]]
    #: square index -> placements (all pieces) whose lowest set bit is that square (for solvers).
    by_low_cell: tuple[tuple[Placement, ...], ...]
    #: square index -> placements (all pieces) covering it.
    covering: tuple[tuple[Placement, ...], ...]
    row_masks: tuple[int, ...]
    col_masks: tuple[int, ...]
    #: every square but the first / last column (a shift by one must not wrap to the next row)
    not_first_col: int
    not_last_col: int

    def neighbours(self, mask: int) -> int:
        """The squares orthogonally next to ``mask`` (and ``mask`` itself), on the board."""
        w = self.width
        return (mask | ((mask << 1) & self.not_first_col) | ((mask >> 1) & self.not_last_col)
                | (mask << w) | (mask >> w)) & self.full

    def bit(self, x: int, y: int) -> int:
        return 1 << (y * self.width + x)

    def cells_mask(self, cells: list[Cell] | tuple[Cell, ...]) -> int:
        m = 0
        for x, y in cells:
            m |= 1 << (y * self.width + x)
        return m

    def mask_cells(self, mask: int) -> list[Cell]:
        out = []
        while mask:
            low = mask & -mask
            i = low.bit_length() - 1
            out.append((i % self.width, i // self.width))
            mask ^= low
        return out

    def fits_anywhere(self, piece: str, occ: int) -> bool:
        """Whether ``piece`` has at least one placement on a board occupied by ``occ``."""
        return any(not (p.mask & occ) for p in self.placements[piece])

    def legal_placements(self, piece: str, occ: int) -> list[Placement]:
        return [p for p in self.placements[piece] if not (p.mask & occ)]


@cache
def geometry(width: int, height: int) -> Geometry:
    full = (1 << (width * height)) - 1
    placements: dict[str, tuple[Placement, ...]] = {}
    by_orientation: dict[str, tuple[tuple[Placement, ...], ...]] = {}
    low: list[list[Placement]] = [[] for _ in range(width * height)]
    cover: list[list[Placement]] = [[] for _ in range(width * height)]
    for piece in PIECES:
        per_o: list[tuple[Placement, ...]] = []
        for o, cells in enumerate(orientations(piece)):
            bw = max(x for x, _ in cells) + 1
            bh = max(y for _, y in cells) + 1
            row: list[Placement] = []
            for ay in range(height - bh + 1):
                for ax in range(width - bw + 1):
                    mask = 0
                    for dx, dy in cells:
                        mask |= 1 << ((ay + dy) * width + ax + dx)
                    pl = Placement(piece, o, ax, ay, mask)
                    row.append(pl)
                    low[(mask & -mask).bit_length() - 1].append(pl)
                    m = mask
                    while m:
                        b = m & -m
                        cover[b.bit_length() - 1].append(pl)
                        m ^= b
            per_o.append(tuple(row))
        by_orientation[piece] = tuple(per_o)
        placements[piece] = tuple(p for o in per_o for p in o)
    rows = tuple(((1 << width) - 1) << (y * width) for y in range(height))
    cols = tuple(sum(1 << (y * width + x) for y in range(height)) for x in range(width))
    return Geometry(width, height, full, placements, by_orientation,
                    tuple(tuple(c) for c in low), tuple(tuple(c) for c in cover), rows, cols,
                    full & ~cols[0], full & ~cols[-1])


@dataclass(frozen=True)
class PlacementIndex:
    """Every placement of every piece on one board size numbered once (pieces in ``PIECES``
    order, then as in ``Geometry.placements``), so a set of placements is one int with a bit per
    placement and "what does covering these squares rule out" is a few ORs. Built once per
    board size; the AI's what-if questions need no per-decision set-up."""

    #: placement number -> placement.
    order: tuple[Placement, ...]
    #: piece -> the bits of its placements.
    piece_bits: dict[str, int]
    #: square index -> the bits of the placements covering it.
    cover: tuple[int, ...]
    #: placement number -> the bits it rules out once placed: itself, the rest of its piece and
    #: every placement overlapping it.
    spent: tuple[int, ...]
    #: id() of a placement of ``Geometry.placements`` (cached per board size, so ids are stable)
    #: -> its number.
    number: dict[int, int]

    def covering(self, mask: int) -> int:
        """The placements overlapping ``mask``."""
        out = 0
        cover = self.cover
        while mask:
            low = mask & -mask
            out |= cover[low.bit_length() - 1]
            mask ^= low
        return out

    def pieces_bits(self, pieces: list[str] | tuple[str, ...]) -> int:
        out = 0
        for p in pieces:
            out |= self.piece_bits[p]
        return out


@cache
def placement_index(width: int, height: int) -> PlacementIndex:
    g = geometry(width, height)
    order = tuple(pl for p in PIECES for pl in g.placements[p])
    cover = [0] * (width * height)
    piece_bits = dict.fromkeys(PIECES, 0)
    for i, pl in enumerate(order):
        piece_bits[pl.piece] |= 1 << i
        m = pl.mask
        while m:
            b = m & -m
            cover[b.bit_length() - 1] |= 1 << i
            m ^= b
    index = PlacementIndex(order, piece_bits, tuple(cover), (), {})
    spent = tuple(piece_bits[pl.piece] | index.covering(pl.mask) for pl in order)
    return PlacementIndex(order, piece_bits, tuple(cover), spent, {id(pl): i for i, pl in enumerate(order)})


def nth_bit(bits: int, k: int) -> int:
    """The index of the ``k``-th (from 0) lowest set bit of ``bits``: the ``k``-th item of the
    set in increasing order, found by halving instead of walking ``k`` bits."""
    shift = 0
    while k > 8:
        half = bits.bit_length() >> 1
        low = bits & ((1 << half) - 1)
        c = low.bit_count()
        if k < c:
            bits = low
        else:
            k -= c
            bits >>= half
            shift += half
    while k:
        bits &= bits - 1
        k -= 1
    return shift + (bits & -bits).bit_length() - 1


def disc_cells(g: Geometry, occ: int, discs: int) -> int:
    """Mask of squares where a disc may go: empty, and no disc already in its row or column.

    ``occ`` is everything on the board, ``discs`` only the discs (whoever placed them)."""
    banned = occ
    for rm in g.row_masks:
        if discs & rm:
            banned |= rm
    for cm in g.col_masks:
        if discs & cm:
            banned |= cm
    return g.full & ~banned
