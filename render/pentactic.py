"""Pentactic board image: every board of the view, a header and one tray per player.

The picture has to be read on a phone in a Discord thread, so cells are big (40-80 px), pieces
carry their letter and a dark outline (in modes 2/3 every piece on a board has the owner's colour,
so outlines are what tell neighbouring pieces apart), discs are circles, the last move gets a
white-and-black double outline that shows on any colour, and a placement preview is a hatched,
translucent ghost with a dashed border so nobody mistakes it for a placed piece.

Step pictures (``render_step_picture``) help the phone user with the two blind choices of a
placement: the orientation tiles carry exactly the buttons' labels (↻1…) and the board picture
labels every offered corner square as its button does ("b4"), with a faint example ghost.

Only the view and the step's picture are read (never engine state); every label comes from a
catalog (``render``, or the ``pentactic`` option labels the buttons use).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from PIL import Image, ImageDraw

from engines.pentactic import PIECES, orientations, parse_cell, placement_cells
from i18n import t
from render.common import (
    BACKGROUND,
    INK,
    MUTED,
    RGB,
    darken,
    draw_text,
    lighten,
    outline_color,
    player_color,
    text_color_on,
    text_fit,
    text_width,
    to_png,
)

Cell = tuple[int, int]

EMPTY: RGB = (236, 229, 212)
GRID: RGB = (188, 178, 158)
FRAME: RGB = (120, 110, 95)
HIGHLIGHT: RGB = (255, 255, 255)
PANEL: RGB = (240, 235, 224)
#: A winner's tray on the end screen.
WINNER_FILL: RGB = (255, 228, 150)
WINNER_LINE: RGB = (150, 110, 20)

#: Board colours the PNG palette must keep exact (player colours are always kept).
_KEEP: tuple[RGB, ...] = (EMPTY, GRID, FRAME, HIGHLIGHT, PANEL, WINNER_FILL, WINNER_LINE)

PAD = 24
GAP = 28
MIN_WIDTH = 900
HEADER_H = 92
TRAY_ROW_H = 96
TRAY_GAP = 16


@dataclass(frozen=True)
class Layout:
    """Pixel geometry of one image, derived from the board size and the number of boards."""

    cols: int
    rows: int
    n_boards: int
    per_row: int
    cell: int
    coord: int
    label_h: int

    @property
    def board_w(self) -> int:
        return self.coord + self.cols * self.cell

    @property
    def board_h(self) -> int:
        return self.label_h + self.coord + self.rows * self.cell

    @property
    def grid_rows(self) -> int:
        return math.ceil(self.n_boards / self.per_row)

    @property
    def boards_w(self) -> int:
        return self.per_row * self.board_w + (self.per_row - 1) * GAP

    @property
    def image_w(self) -> int:
        return max(MIN_WIDTH, self.boards_w + 2 * PAD)

    def board_origin(self, index: int, top: int) -> tuple[int, int]:
        """Top-left corner of the cell grid of board ``index`` (below its label and letters)."""
        row, col = divmod(index, self.per_row)
        in_row = min(self.per_row, self.n_boards - row * self.per_row)
        row_w = in_row * self.board_w + (in_row - 1) * GAP
        left = (self.image_w - row_w) // 2
        x = left + col * (self.board_w + GAP) + self.coord
        y = top + row * (self.board_h + GAP) + self.label_h + self.coord
        return x, y


def layout(cols: int, rows: int, n_boards: int) -> Layout:
    """Cells as big as fit: one board ~900 px wide, 2-3 boards per row up to ~1500 px."""
    n = max(1, n_boards)
    per_row = math.ceil(n / math.ceil(n / 3))
    avail = {1: 880, 2: 1180, 3: 1480}[per_row]
    cell = max(40, min(80, (avail - per_row * 40 - (per_row - 1) * GAP) // (per_row * cols)))
    coord = max(26, round(cell * 0.42))
    label_h = 40 if n > 1 else 0
    return Layout(cols, rows, n, per_row, cell, coord, label_h)


# ---------------------------------------------------------------------------------------------
# Shapes


def _normalize(cells: Iterable[Cell]) -> tuple[Cell, ...]:
    cells = list(cells)
    mx = min(x for x, _ in cells)
    my = min(y for _, y in cells)
    return tuple(sorted((x - mx, y - my) for x, y in cells))


def _orientations(piece: str) -> list[list[Cell]]:
    """The engine's orientation table (index ``i`` is orientation token ``str(i)``)."""
    return [[(int(c[0]), int(c[1])) for c in o] for o in orientations(piece)]


@cache
def tray_shape(piece: str) -> tuple[Cell, ...]:
    """The orientation drawn in trays: as flat as possible, wider than tall, then a fixed pick.

    Chosen by a rule over the set of orientations (not by index) so the picture stays the same
    if the engine ever reorders its table.
    """
    shapes = [_normalize(o) for o in _orientations(piece)]

    def key(s: tuple[Cell, ...]) -> tuple[int, int, tuple[Cell, ...]]:
        w = max(x for x, _ in s) + 1
        h = max(y for _, y in s) + 1
        return h, -w, s

    return min(shapes, key=key)


# ---------------------------------------------------------------------------------------------
# Drawing helpers


def _edges(cells: Iterable[Cell]) -> list[tuple[Cell, Cell]]:
    """Unit edges (in cell-corner coordinates) on the outline of a set of cells."""
    cs = set(cells)
    out: list[tuple[Cell, Cell]] = []
    for x, y in cs:
        if (x, y - 1) not in cs:
            out.append(((x, y), (x + 1, y)))
        if (x, y + 1) not in cs:
            out.append(((x, y + 1), (x + 1, y + 1)))
        if (x - 1, y) not in cs:
            out.append(((x, y), (x, y + 1)))
        if (x + 1, y) not in cs:
            out.append(((x + 1, y), (x + 1, y + 1)))
    return out


def _band(draw: ImageDraw.ImageDraw, cells: Iterable[Cell], ox: int, oy: int, size: int,
          color: RGB, width: int, offset: int = 0) -> None:
    """Paint a band ``width`` px wide, ``offset`` px inside the outline of ``cells``.

    Built per cell from strips along missing neighbours plus the joins at inner (concave)
    corners, so corners neither overshoot nor leave notches (centred strokes do both).
    """
    cs = set(cells)
    a, b = offset, offset + width - 1
    for x, y in cs:
        x0, y0 = ox + x * size, oy + y * size
        x1, y1 = x0 + size - 1, y0 + size - 1
        up, down = (x, y - 1) not in cs, (x, y + 1) not in cs
        left, right = (x - 1, y) not in cs, (x + 1, y) not in cs
        lo_x, hi_x = (x0 + a if left else x0), (x1 - a if right else x1)
        lo_y, hi_y = (y0 + a if up else y0), (y1 - a if down else y1)
        if up:
            draw.rectangle((lo_x, y0 + a, hi_x, y0 + b), fill=color)
        if down:
            draw.rectangle((lo_x, y1 - b, hi_x, y1 - a), fill=color)
        if left:
            draw.rectangle((x0 + a, lo_y, x0 + b, hi_y), fill=color)
        if right:
            draw.rectangle((x1 - b, lo_y, x1 - a, hi_y), fill=color)
        for dx, dy in ((-1, -1), (1, -1), (-1, 1), (1, 1)):
            if (x + dx, y) in cs and (x, y + dy) in cs and (x + dx, y + dy) not in cs:
                cx = x0 if dx < 0 else x1
                cy = y0 if dy < 0 else y1
                sx, sy = -dx, -dy  # pointing into this cell
                xa, xb = sorted((cx + sx * a, cx + sx * b))
                xe = sorted((cx, cx + sx * b))
                ya, yb = sorted((cy + sy * a, cy + sy * b))
                ye = sorted((cy, cy + sy * b))
                draw.rectangle((xe[0], ya, xe[1], yb), fill=color)
                draw.rectangle((xa, ye[0], xb, ye[1]), fill=color)


def _dashed_outline(draw: ImageDraw.ImageDraw, cells: Iterable[Cell], ox: float, oy: float,
                    size: float, color: RGB, width: int) -> None:
    dash = max(6, size / 6)
    for (x0, y0), (x1, y1) in _edges(cells):
        px0, py0, px1, py1 = ox + x0 * size, oy + y0 * size, ox + x1 * size, oy + y1 * size
        length = abs(px1 - px0) + abs(py1 - py0)
        steps = max(1, int(length // (2 * dash)))
        for i in range(steps + 1):
            a = i * 2 * dash
            b = min(length, a + dash)
            if a >= length:
                break
            if py0 == py1:
                draw.line((px0 + a, py0, px0 + b, py0), fill=color, width=width)
            else:
                draw.line((px0, py0 + a, px0, py0 + b), fill=color, width=width)


def _label_cell(cells: Sequence[Cell]) -> Cell:
    """The square nearest the piece's centre of mass, where its letter goes."""
    cx = sum(x for x, _ in cells) / len(cells)
    cy = sum(y for _, y in cells) / len(cells)
    return min(cells, key=lambda c: ((c[0] - cx) ** 2 + (c[1] - cy) ** 2, c[1], c[0]))


def _cells(raw: Iterable[Sequence[int]]) -> list[Cell]:
    return [(int(c[0]), int(c[1])) for c in raw]


def _name(names: Sequence[str], seat: Any, locale: str) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names) and names[seat]:
        return str(names[seat])
    n = seat + 1 if isinstance(seat, int) else "?"
    return t(locale, "render.common.seat", n=n)


def _join(locale: str, items: Iterable[str]) -> str:
    return t(locale, "render.common.list_sep").join(items)


# ---------------------------------------------------------------------------------------------
# Board


def piece_gap(cell: int) -> int:
    """Pixels of empty board kept inside a piece's outline (half the gap between two pieces)."""
    return max(2, cell // 20)


@lru_cache(maxsize=16)
def _empty_board(cols: int, rows: int, cell: int, coord: int) -> Image.Image:
    """The empty grid with its coordinates; drawn once per size and pasted for every board."""
    img = Image.new("RGB", (coord + cols * cell + 2, coord + rows * cell + 2), BACKGROUND)
    d = ImageDraw.Draw(img)
    ox, oy = coord, coord
    d.rectangle((ox, oy, ox + cols * cell, oy + rows * cell), fill=EMPTY)
    for i in range(cols + 1):
        d.line((ox + i * cell, oy, ox + i * cell, oy + rows * cell), fill=GRID, width=1)
    for j in range(rows + 1):
        d.line((ox, oy + j * cell, ox + cols * cell, oy + j * cell), fill=GRID, width=1)
    d.rectangle((ox - 1, oy - 1, ox + cols * cell + 1, oy + rows * cell + 1), outline=FRAME, width=2)
    size = max(14, round(coord * 0.62))
    for i in range(cols):
        draw_text(d, (ox + (i + 0.5) * cell, coord / 2), chr(ord("a") + i), size, MUTED, anchor="mm")
    for j in range(rows):
        draw_text(d, (coord / 2, oy + (j + 0.5) * cell), str(j + 1), size, MUTED, anchor="mm")
    return img


def _draw_board(img: Image.Image, draw: ImageDraw.ImageDraw, board: dict[str, Any], lay: Layout,
                ox: int, oy: int, last: dict[str, Any] | None) -> None:
    cell = lay.cell
    img.paste(_empty_board(lay.cols, lay.rows, cell, lay.coord), (ox - lay.coord, oy - lay.coord))
    stroke = max(2, cell // 22)
    inset = piece_gap(cell)
    for piece in board.get("pieces", []):
        cells = _cells(piece.get("cells", []))
        if not cells:
            continue
        color = player_color(piece.get("seat"))
        for x, y in cells:
            draw.rectangle((ox + x * cell, oy + y * cell, ox + (x + 1) * cell, oy + (y + 1) * cell), fill=color)
        # Each piece is inset from its outline, so two pieces of one colour side by side (every
        # piece on a mode 2/3 board is the owner's) keep a strip of empty board between them.
        _band(draw, cells, ox, oy, cell, EMPTY, inset)
        _band(draw, cells, ox, oy, cell, outline_color(color), stroke + 1, offset=inset)
        lx, ly = _label_cell(cells)
        draw_text(draw, (ox + (lx + 0.5) * cell, oy + (ly + 0.5) * cell), str(piece.get("piece", "?")),
                  round(cell * 0.5), text_color_on(color), bold=True, anchor="mm")
    r = cell * 0.34
    for disc in board.get("discs", []):
        x, y = _cells([disc.get("cell", (0, 0))])[0]
        color = player_color(disc.get("by"))
        cx, cy = ox + (x + 0.5) * cell, oy + (y + 0.5) * cell
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=color, outline=outline_color(color), width=stroke + 1)
        inner = r * 0.45
        draw.ellipse((cx - inner, cy - inner, cx + inner, cy + inner), outline=lighten(color, 0.45), width=stroke)
    if last and last.get("board") == board.get("owner"):
        cells = _cells(last.get("cells", []))
        w = max(3, cell // 14)
        _band(draw, cells, ox, oy, cell, INK, w + 4)
        _band(draw, cells, ox, oy, cell, HIGHLIGHT, w, offset=2)


def _draw_ghost(img: Image.Image, overlay: dict[str, Any], lay: Layout, ox: int, oy: int,
                strength: float = 1.0) -> None:
    """A translucent hatched piece with a dashed border: a proposal, not a placed piece.

    ``strength`` below 1 makes it fainter (the anchor picture's example must not hide the
    labels of the squares under it)."""
    cells = [c for c in _cells(overlay.get("cells", [])) if 0 <= c[0] < lay.cols and 0 <= c[1] < lay.rows]
    if not cells:
        return
    cell = lay.cell
    color = player_color(overlay.get("seat"))
    x0 = min(x for x, _ in cells)
    y0 = min(y for _, y in cells)
    x1 = max(x for x, _ in cells) + 1
    y1 = max(y for _, y in cells) + 1
    box = (ox + x0 * cell, oy + y0 * cell, ox + x1 * cell + 1, oy + y1 * cell + 1)
    layer = Image.new("RGBA", (box[2] - box[0], box[3] - box[1]), (0, 0, 0, 0))
    d = ImageDraw.Draw(layer)
    lx, ly = -x0 * cell, -y0 * cell
    for x, y in cells:
        d.rectangle((lx + x * cell, ly + y * cell, lx + (x + 1) * cell, ly + (y + 1) * cell), fill=(*color, round(165 * strength)))
    # Diagonal hatching clipped to the piece by masking afterwards.
    hatch = Image.new("L", layer.size, 0)
    hd = ImageDraw.Draw(hatch)
    step = max(8, cell // 5)
    for k in range(-layer.size[1], layer.size[0], step):
        hd.line((k, layer.size[1], k + layer.size[1], 0), fill=round(170 * strength), width=max(2, cell // 24))
    shape_mask = Image.new("L", layer.size, 0)
    md = ImageDraw.Draw(shape_mask)
    for x, y in cells:
        md.rectangle((lx + x * cell, ly + y * cell, lx + (x + 1) * cell, ly + (y + 1) * cell), fill=255)
    hatch = Image.composite(hatch, Image.new("L", layer.size, 0), shape_mask)
    layer.paste(Image.new("RGBA", layer.size, (*darken(color, 0.5), 255)), (0, 0), hatch)
    # A white band under the dashes keeps the border visible on dark and same-colour pieces.
    _band(d, cells, lx, ly, cell, (255, 255, 255, round(255 * strength)), max(3, cell // 16) + 2)
    _dashed_outline(d, cells, lx, ly, cell, INK, max(3, cell // 16))
    lc = _label_cell(cells)
    draw_text(d, (lx + (lc[0] + 0.5) * cell, ly + (lc[1] + 0.5) * cell), str(overlay.get("piece", "")),
              round(cell * 0.5), (*INK, 230), bold=True, anchor="mm")
    base = img.crop(box).convert("RGBA")
    img.paste(Image.alpha_composite(base, layer).convert("RGB"), box[:2])


# ---------------------------------------------------------------------------------------------
# Header and trays


def _header(draw: ImageDraw.ImageDraw, view: dict[str, Any], locale: str, names: Sequence[str],
            width: int, note: str | None) -> None:
    title = t(locale, "render.pentactic.title")
    mode = t(locale, f"render.pentactic.mode.{view.get('mode', '')}")
    parts = [title, mode]
    if view.get("mode") == "1" and view.get("round"):
        parts.append(t(locale, "render.pentactic.round", round=view["round"]))
    line1 = " · ".join(parts)
    fitted, size = text_fit(line1, width - 2 * PAD, 32, bold=True, min_size=18)
    draw_text(draw, (PAD, 14), fitted, size, INK, bold=True)

    phase = view.get("phase", "")
    if phase == "over":
        winners = view.get("winners") or []
        status = (t(locale, "render.pentactic.winners", names=_join(locale, (_name(names, s, locale) for s in winners)))
                  if winners else t(locale, "render.pentactic.no_winner"))
        line2 = status
    else:
        movers = _join(locale, (_name(names, s, locale) for s in view.get("to_move") or []))
        line2 = t(locale, f"render.pentactic.phase.{phase}")
        if movers:
            line2 += " — " + t(locale, "render.pentactic.to_move", names=movers)
    if note:
        line2 += " — " + t(locale, note)
    fitted, size = text_fit(line2, width - 2 * PAD, 24, min_size=14)
    draw_text(draw, (PAD, 56), fitted, size, INK)


def _tray_piece(draw: ImageDraw.ImageDraw, piece: str, x: float, y: float, s: int, color: RGB,
                state: str) -> float:
    """One small piece drawing at (x, y); ``state`` is left / discarded / placed. Returns its width."""
    cells = tray_shape(piece)
    w = max(cx for cx, _ in cells) + 1
    h = max(cy for _, cy in cells) + 1
    top = y + (3 - h) * s / 2
    if state == "left":
        fill, line = color, outline_color(color)
    elif state == "discarded":
        fill, line = (215, 210, 200), (150, 145, 135)
    else:
        fill, line = None, (205, 198, 185)
    for cx, cy in cells:
        rect = (x + cx * s, top + cy * s, x + (cx + 1) * s, top + (cy + 1) * s)
        draw.rectangle(rect, fill=fill, outline=line, width=1)
    if state == "discarded":
        draw.line((x, top + h * s, x + w * s, top), fill=(120, 115, 105), width=2)
        draw.line((x, top, x + w * s, top + h * s), fill=(120, 115, 105), width=2)
    return w * s


def score_size(width: int) -> int:
    """Pixel size of the tray scores: Discord shows the image ~550 px wide, so the wider the image,
    the larger the digits must be drawn to stay ~9 px tall there."""
    return max(20, min(34, round(width * 0.0225)))


def tray_columns(width: int, players: int) -> int:
    """Trays side by side when the image is wide (the boards make it so with 2+ boards)."""
    return 2 if width >= 1150 and players >= 2 else 1


def tray_box(index: int, players: int, width: int, top: int) -> tuple[int, int, int, int]:
    """Pixel box of the ``index``-th player's tray (trays fill rows left to right)."""
    cols = tray_columns(width, players)
    row, col = divmod(index, cols)
    col_w = (width - 2 * PAD - (cols - 1) * TRAY_GAP) / cols
    x0 = round(PAD + col * (col_w + TRAY_GAP))
    y0 = top + row * TRAY_ROW_H
    return x0, y0, round(x0 + col_w), y0 + TRAY_ROW_H - 8


def _round_scores(view: dict[str, Any], seat: Any, locale: str) -> str:
    """Mode 1: the points ``seat`` scored in each round it attacked ("R1 17 · R3 12")."""
    bits = [t(locale, "render.pentactic.round_score", round=r.get("round"), score=r.get("score"))
            for r in view.get("round_results") or [] if r.get("attacker") == seat]
    return t(locale, "render.pentactic.rounds", scores=" · ".join(bits)) if bits else ""


def _tray(draw: ImageDraw.ImageDraw, player: dict[str, Any], locale: str, names: Sequence[str],
          box: tuple[int, int, int, int], to_move: set[int], discs: bool = True, pieces: bool = True,
          winner: bool = False, rounds: str = "", big: int = 20) -> None:
    seat = player.get("seat")
    color = player_color(seat)
    left, top, right, bottom = box
    if winner:
        # The end screen's first question is who won: the winners' trays are gold.
        fill, line, width = WINNER_FILL, WINNER_LINE, 4
    elif seat in to_move:
        fill, line, width = PANEL, INK, 3
    else:
        fill, line, width = PANEL, (215, 208, 195), 1
    draw.rounded_rectangle((left, top, right, bottom), radius=10, fill=fill, outline=line, width=width)
    # Line 1: swatch, name, role / passed; discs left and the score on the right.
    sw = 26
    mid = top + 10 + sw / 2
    draw.rounded_rectangle((left + 12, top + 10, left + 12 + sw, top + 10 + sw), radius=5, fill=color,
                           outline=outline_color(color), width=2)
    score_bits = []
    if player.get("score") is not None:
        score_bits.append(t(locale, "render.pentactic.score", score=player["score"]))
    if player.get("total") is not None:
        score_bits.append(t(locale, "render.pentactic.total", total=player["total"]))
    score_text = " · ".join(score_bits)
    x_right = right - 14
    if score_text:
        x_right -= draw_text(draw, (x_right, mid + 2), score_text, big, INK, bold=True, anchor="rm") + 18
    if discs:
        disc_text = t(locale, "render.pentactic.discs_left", count=player.get("discs_left", 0))
        x_right -= draw_text(draw, (x_right, mid), disc_text, 18, INK, anchor="rm") + 8
        draw.ellipse((x_right - 20, mid - 10, x_right, mid + 10), fill=color, outline=outline_color(color), width=2)
        x_right -= 34
    tags = []
    if winner:
        tags.append(t(locale, "render.pentactic.winner_tag"))
    if player.get("role"):
        tags.append(t(locale, f"render.pentactic.role.{player['role']}"))
    if player.get("passed"):
        tags.append(t(locale, "render.pentactic.passed"))
    tag_text = f"({_join(locale, tags)})" if tags else ""
    tag_w = text_width(tag_text, 18) + 10 if tag_text else 0
    name_x = left + 12 + sw + 10
    name_room = x_right - tag_w - name_x
    name, size = text_fit(_name(names, seat, locale), max(40, name_room), 22, bold=True, min_size=14)
    nw = draw_text(draw, (name_x, mid), name, size, INK, bold=True, anchor="lm")
    if tag_text:
        draw_text(draw, (name_x + nw + 10, mid), tag_text, 18, MUTED, anchor="lm")

    # Line 2: the twelve piece slots, or (mode 1, where pieces are moot) the scores per round.
    row_y = top + 46
    if not pieces:
        if rounds:
            fitted, size = text_fit(rounds, right - left - 24, big, bold=True, min_size=14)
            draw_text(draw, (left + 12, row_y + 21), fitted, size, INK, bold=True, anchor="lm")
        return
    avail = right - left - 24
    total_cells = sum(max(cx for cx, _ in tray_shape(p)) + 1 for p in PIECES)
    gap = 8
    s = max(6, min(15, int((avail - gap * (len(PIECES) - 1)) // total_cells)))
    left_set = set(player.get("pieces_left") or [])
    discarded = set(player.get("discarded") or [])
    x = left + 12
    for p in PIECES:
        state = "left" if p in left_set else "discarded" if p in discarded else "placed"
        x += _tray_piece(draw, p, x, row_y + (42 - 3 * s) / 2, s, color, state) + gap


# ---------------------------------------------------------------------------------------------
# Entry points


def overlay_from_path(view: dict[str, Any], path: Sequence[str]) -> dict[str, Any] | None:
    """The ghost for an action path such as ``["place", "F", "3", "b4"]`` (None for anything else).

    The Discord layer knows nothing of Pentactic and passes ``{"path": [...]}`` as the overlay;
    the seat placing is the one to move, on its own board (mode 1 has a single board). Cells
    come from the engine's ``placement_cells`` so orientation numbers mean what they mean there.
    """
    if len(path) < 4 or path[0] != "place":
        return None
    boards = _boards(view)
    movers = view.get("to_move") or []
    seat = movers[0] if len(movers) == 1 else None
    owner = boards[0].get("owner") if len(boards) == 1 else seat
    orientation = int(path[2]) if str(path[2]).isdigit() else -1
    cells = placement_cells(str(path[1]), orientation, str(path[3]),
                            int(view.get("width", 8)), int(view.get("height", 8)))
    if cells is None or owner is None:
        return None
    return {"board": owner, "cells": [list(c) for c in cells], "piece": str(path[1]),
            "seat": seat if seat is not None else owner}


def _boards(view: dict[str, Any]) -> list[dict[str, Any]]:
    return list(view.get("boards") or [{"owner": 0, "discs": [], "pieces": []}])


def cell_box(view: dict[str, Any], owner: int, cell: Sequence[int]) -> tuple[int, int, int, int]:
    """Pixel box (x0, y0, x1, y1) of square ``cell`` of ``owner``'s board in :func:`compose`'s image.

    For tests and for anyone annotating the picture afterwards.
    """
    boards = _boards(view)
    index = next(i for i, b in enumerate(boards) if b.get("owner") == owner)
    lay = layout(int(view.get("width", 8)), int(view.get("height", 8)), len(boards))
    ox, oy = lay.board_origin(index, HEADER_H)
    x, y = int(cell[0]), int(cell[1])
    return ox + x * lay.cell, oy + y * lay.cell, ox + (x + 1) * lay.cell, oy + (y + 1) * lay.cell


def compose(view: dict[str, Any], locale: str, names: Sequence[str],
            overlay: dict[str, Any] | None = None) -> Image.Image:
    """The image as a Pillow RGB image (tests and benchmarks inspect pixels here)."""
    cols = int(view.get("width", 8))
    rows = int(view.get("height", 8))
    boards = _boards(view)
    players = sorted(view.get("players") or [], key=lambda p: p.get("seat", 0))
    lay = layout(cols, rows, len(boards))
    width = lay.image_w
    boards_top = HEADER_H
    boards_h = lay.grid_rows * lay.board_h + (lay.grid_rows - 1) * GAP
    trays_top = boards_top + boards_h + GAP
    tray_rows = math.ceil(len(players) / tray_columns(width, len(players))) if players else 0
    height = trays_top + tray_rows * TRAY_ROW_H + PAD - 8

    img = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(img)
    if overlay and "path" in overlay and "cells" not in overlay:
        overlay = overlay_from_path(view, overlay["path"])
    ghost = overlay
    note = "render.pentactic.preview" if overlay else None
    hint = view.get("hint")
    if ghost is None and isinstance(hint, dict) and hint.get("cells"):
        # A solo-mode hint is drawn like a preview: a suggestion nobody has placed.
        ghost = {"board": boards[0].get("owner"), "cells": hint["cells"], "piece": hint.get("piece", ""),
                 "seat": boards[0].get("owner")}
        note = "render.pentactic.hint"
    _header(draw, view, locale, names, width, note)

    last = view.get("last")
    for index, board in enumerate(boards):
        ox, oy = lay.board_origin(index, boards_top)
        if lay.label_h:
            owner = board.get("owner")
            color = player_color(owner)
            ly = oy - lay.coord - lay.label_h
            draw.rounded_rectangle((ox, ly + 8, ox + 22, ly + 30), radius=4, fill=color,
                                   outline=outline_color(color), width=2)
            label, size = text_fit(_name(names, owner, locale), lay.cols * lay.cell - 32, 24, bold=True,
                                   min_size=14)
            draw_text(draw, (ox + 32, ly + 19), label, size, INK, bold=True, anchor="lm")
        _draw_board(img, draw, board, lay, ox, oy, last)
        if ghost and ghost.get("board") == board.get("owner"):
            _draw_ghost(img, ghost, lay, ox, oy)

    to_move = set(view.get("to_move") or [])
    over = view.get("phase") == "over"
    winners = set(view.get("winners") or []) if over else set()
    mode1 = view.get("mode") == "1"
    big = score_size(width)
    for i, player in enumerate(players):
        seat = player.get("seat")
        _tray(draw, player, locale, names, tray_box(i, len(players), width, trays_top), to_move,
              discs=view.get("mode") != "4",
              # Mode 1: a defender holds no pieces this round and at the end pieces are moot, so
              # that row shows the player's score in each round instead of twelve empty slots.
              pieces=not (mode1 and (over or player.get("role") == "defender")),
              winner=seat in winners, rounds=_round_scores(view, seat, locale) if mode1 else "", big=big)
    return img


def render(view: dict[str, Any], locale: str, names: list[str],
           overlay: dict[str, Any] | None = None) -> bytes:
    """The PNG bytes for ``view`` (see ``render.render_board``)."""
    return to_png(compose(view, locale, names, overlay), keep=_KEEP)


# ---------------------------------------------------------------------------------------------
# Step pictures: what the orientation and corner-square buttons mean, drawn next to them

TILE_COLS = 4
TILE_W = 200
TILE_LABEL_H = 64
TILE_CELL = 32
TILE_LABEL_SIZE = 40
TILE_H = TILE_LABEL_H + 5 * TILE_CELL + 24
STEP_HEADER_H = 64
#: The chip behind each legal corner square's label in the anchor picture.
CHIP: RGB = (255, 255, 255)


def orientation_tile_box(index: int, count: int) -> tuple[int, int, int, int]:
    """Pixel box of the ``index``-th offered orientation's tile in the orientation picture."""
    row, col = divmod(index, min(TILE_COLS, max(1, count)))
    x0 = PAD + col * (TILE_W + GAP)
    y0 = STEP_HEADER_H + row * (TILE_H + GAP)
    return x0, y0, x0 + TILE_W, y0 + TILE_H


def compose_orientations(picture: dict[str, Any], locale: str) -> Image.Image | None:
    """Every offered orientation, big, in the seat's colour, under the button's own label (↻n)."""
    piece = str(picture.get("piece", ""))
    try:
        table = _orientations(piece)
        offered = [int(o) for o in picture.get("options") or []]
        shapes = [table[o] for o in offered]
    except (KeyError, IndexError, TypeError, ValueError):
        return None
    if not shapes:
        return None
    cols = min(TILE_COLS, len(shapes))
    rows = math.ceil(len(shapes) / cols)
    width = 2 * PAD + cols * TILE_W + (cols - 1) * GAP
    height = STEP_HEADER_H + rows * TILE_H + (rows - 1) * GAP + PAD
    img = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(img)
    title, size = text_fit(t(locale, "pentactic.prompt.orientation", piece=piece), width - 2 * PAD, 30,
                           bold=True, min_size=16)
    draw_text(draw, (PAD, STEP_HEADER_H / 2 - 4), title, size, INK, bold=True, anchor="lm")
    color = player_color(picture.get("seat"))
    for i, (o, cells) in enumerate(zip(offered, shapes, strict=True)):
        x0, y0, x1, y1 = orientation_tile_box(i, len(shapes))
        draw.rounded_rectangle((x0, y0, x1, y1), radius=12, fill=PANEL, outline=(215, 208, 195), width=2)
        # Exactly the button's label, so "↻4" on the picture is "↻4" on the button.
        label = t(locale, "pentactic.opt.orientation", n=o + 1)
        draw_text(draw, ((x0 + x1) / 2, y0 + TILE_LABEL_H / 2 + 2), label, TILE_LABEL_SIZE, INK, bold=True,
                  anchor="mm")
        w = max(x for x, _ in cells) + 1
        h = max(y for _, y in cells) + 1
        px = round((x0 + x1 - w * TILE_CELL) / 2)
        py = round(y0 + TILE_LABEL_H + (TILE_H - TILE_LABEL_H - 8 - h * TILE_CELL) / 2)
        for cx, cy in cells:
            draw.rectangle((px + cx * TILE_CELL, py + cy * TILE_CELL, px + (cx + 1) * TILE_CELL - 1,
                            py + (cy + 1) * TILE_CELL - 1), fill=color, outline=lighten(color, 0.35))
        _band(draw, cells, px, py, TILE_CELL, outline_color(color), 3)
    return img


def step_cell_box(view: dict[str, Any], cell: Sequence[int]) -> tuple[int, int, int, int]:
    """Pixel box of square ``cell`` in the anchor picture (one board, below a short header)."""
    lay = layout(int(view.get("width", 8)), int(view.get("height", 8)), 1)
    ox, oy = lay.board_origin(0, STEP_HEADER_H + 36)
    x, y = int(cell[0]), int(cell[1])
    return ox + x * lay.cell, oy + y * lay.cell, ox + (x + 1) * lay.cell, oy + (y + 1) * lay.cell


def chip_box(x0: float, y0: float, width: float, height: float) -> tuple[float, float, float, float]:
    """The label chip of a corner square whose top-left pixel is (x0, y0)."""
    return x0 + 2, y0 + 2, x0 + 2 + width, y0 + 2 + height


def _example_anchor(anchors: list[tuple[str, list[Cell]]], cols: int, rows: int) -> tuple[str, list[Cell]]:
    """The anchor whose piece lies nearest the board's centre: its ghost hides the fewest labels
    at the edges and is the easiest to relate to its corner square."""
    def dist(item: tuple[str, list[Cell]]) -> tuple[float, int]:
        cells = item[1]
        mx = sum(x + 0.5 for x, _ in cells) / len(cells) - cols / 2
        my = sum(y + 0.5 for _, y in cells) / len(cells) - rows / 2
        return mx * mx + my * my, anchors.index(item)
    return min(anchors, key=dist)


def compose_anchors(view: dict[str, Any], picture: dict[str, Any], locale: str,
                    names: Sequence[str]) -> Image.Image | None:
    """The board with every offered corner square labelled as its button is, and a faint ghost
    of the piece at one of them so the meaning of "corner of the piece's box" is visible."""
    cols, rows = int(view.get("width", 8)), int(view.get("height", 8))
    board = next((b for b in _boards(view) if b.get("owner") == picture.get("board")), None)
    piece = str(picture.get("piece", ""))
    anchors: list[tuple[str, list[Cell]]] = []
    for token in picture.get("options") or []:
        cells = placement_cells(piece, int(picture.get("orientation", -1)), str(token), cols, rows)
        if cells is not None:
            anchors.append((str(token), cells))
    if board is None or not anchors:
        return None
    lay = layout(cols, rows, 1)
    top = STEP_HEADER_H + 36
    img = Image.new("RGB", (lay.image_w, top + lay.board_h + PAD), BACKGROUND)
    draw = ImageDraw.Draw(img)
    seat = picture.get("seat")
    example, ghost_cells = _example_anchor(anchors, cols, rows)
    title = " ".join((t(locale, "pentactic.prompt.anchor", piece=piece),
                      t(locale, "pentactic.opt.orientation", n=int(picture.get("orientation", 0)) + 1)))
    fitted, size = text_fit(title, lay.image_w - 2 * PAD, 30, bold=True, min_size=16)
    draw_text(draw, (PAD, STEP_HEADER_H / 2 - 4), fitted, size, INK, bold=True, anchor="lm")
    note = t(locale, "render.pentactic.anchors_note", cell=t(locale, "pentactic.opt.cell", cell=example),
             board=_name(names, board.get("owner"), locale))
    fitted, size = text_fit(note, lay.image_w - 2 * PAD, 22, min_size=13)
    draw_text(draw, (PAD, STEP_HEADER_H + 8), fitted, size, MUTED, anchor="lm")
    ox, oy = lay.board_origin(0, top)
    _draw_board(img, draw, board, lay, ox, oy, None)
    _draw_ghost(img, {"cells": ghost_cells, "piece": piece, "seat": seat}, lay, ox, oy, strength=0.7)
    draw = ImageDraw.Draw(img)
    cell = lay.cell
    color = player_color(seat)
    # The example's box, from its corner square: what "top-left corner of the box" means.
    bx1 = max(x for x, _ in ghost_cells) + 1
    by1 = max(y for _, y in ghost_cells) + 1
    ax, ay = parse_cell(example, cols, rows) or (0, 0)
    draw.rectangle((ox + ax * cell, oy + ay * cell, ox + bx1 * cell, oy + by1 * cell),
                   outline=darken(color, 0.3), width=2)
    for token, _ in anchors:
        x, y = parse_cell(token, cols, rows) or (0, 0)  # placement_cells accepted it: never None
        x0, y0 = ox + x * cell, oy + y * cell
        # The chip sits in the square's top-left corner, the corner of the piece's box that the
        # choice names, and leaves most of the square (and the ghost) visible.
        chosen = token == example
        label = t(locale, "pentactic.opt.cell", cell=token)
        size = round(cell * 0.3)
        cw = min(cell - 4, text_width(label, size, bold=True) + round(cell * 0.14))
        ch = round(cell * 0.44)
        box = chip_box(x0, y0, cw, ch)
        draw.rounded_rectangle(box, radius=round(cell * 0.1), fill=CHIP, outline=darken(color, 0.3) if chosen else INK,
                               width=max(3, cell // 16) if chosen else 2)
        draw_text(draw, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), label, size, INK, bold=True, anchor="mm")
    return img


def render_step_picture(view: dict[str, Any], picture: dict[str, Any], locale: str,
                        names: Sequence[str]) -> bytes | None:
    """The PNG for a Pentactic ``Step.picture`` (see ``render.render_step_picture``); None for a
    picture this renderer does not know, so a front-end just sends the buttons."""
    kind = picture.get("kind")
    if kind == "orientations":
        img = compose_orientations(picture, locale)
    elif kind == "anchors":
        img = compose_anchors(view, picture, locale, names)
    else:
        return None
    return None if img is None else to_png(img, keep=_KEEP + (CHIP,))
