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

#: Board colours the PNG palette must keep exact (player colours are always kept).
_KEEP: tuple[RGB, ...] = (EMPTY, GRID, FRAME, HIGHLIGHT, PANEL)

PAD = 24
GAP = 28
MIN_WIDTH = 900
HEADER_H = 92
TRAY_ROW_H = 96


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
    for piece in board.get("pieces", []):
        cells = _cells(piece.get("cells", []))
        if not cells:
            continue
        color = player_color(piece.get("seat"))
        for x, y in cells:
            draw.rectangle((ox + x * cell, oy + y * cell, ox + (x + 1) * cell, oy + (y + 1) * cell), fill=color)
        _band(draw, cells, ox, oy, cell, outline_color(color), stroke + 1)
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
        d.rectangle((lx + x * cell, ly + y * cell, lx + (x + 1) * cell, ly + (y + 1) * cell), fill=(*color, round(120 * strength)))
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


def _tray(draw: ImageDraw.ImageDraw, player: dict[str, Any], locale: str, names: Sequence[str],
          top: int, width: int, to_move: set[int], discs: bool = True, pieces: bool = True) -> None:
    seat = player.get("seat")
    color = player_color(seat)
    left, right = PAD, width - PAD
    draw.rounded_rectangle((left, top, right, top + TRAY_ROW_H - 8), radius=10, fill=PANEL,
                           outline=INK if seat in to_move else (215, 208, 195), width=3 if seat in to_move else 1)
    # Line 1: swatch, name, role / passed, scores on the right.
    sw = 26
    draw.rounded_rectangle((left + 12, top + 10, left + 12 + sw, top + 10 + sw), radius=5, fill=color,
                           outline=outline_color(color), width=2)
    score_bits = []
    if player.get("score") is not None:
        score_bits.append(t(locale, "render.pentactic.score", score=player["score"]))
    if player.get("total") is not None:
        score_bits.append(t(locale, "render.pentactic.total", total=player["total"]))
    score_text = " · ".join(score_bits)
    score_w = text_width(score_text, 20, bold=True) if score_text else 0
    if score_text:
        draw_text(draw, (right - 14, top + 10 + sw / 2), score_text, 20, INK, bold=True, anchor="rm")
    tags = []
    if player.get("role"):
        tags.append(t(locale, f"render.pentactic.role.{player['role']}"))
    if player.get("passed"):
        tags.append(t(locale, "render.pentactic.passed"))
    tag_text = f"({_join(locale, tags)})" if tags else ""
    tag_w = text_width(tag_text, 18) + 10 if tag_text else 0
    name_x = left + 12 + sw + 10
    name_room = right - 14 - score_w - 20 - tag_w - name_x
    name, size = text_fit(_name(names, seat, locale), max(40, name_room), 22, bold=True, min_size=14)
    nw = draw_text(draw, (name_x, top + 10 + sw / 2), name, size, INK, bold=True, anchor="lm")
    if tag_text:
        draw_text(draw, (name_x + nw + 10, top + 10 + sw / 2), tag_text, 18, MUTED, anchor="lm")

    # Line 2: the twelve piece slots, then discs left.
    disc_text = t(locale, "render.pentactic.discs_left", count=player.get("discs_left", 0))
    disc_w = text_width(disc_text, 18) + 34 if discs else 0
    row_y = top + 46
    avail = right - left - 24 - disc_w - 16
    total_cells = sum(max(cx for cx, _ in tray_shape(p)) + 1 for p in PIECES)
    gap = 10
    s = max(6, min(15, int((avail - gap * (len(PIECES) - 1)) // total_cells)))
    left_set = set(player.get("pieces_left") or [])
    discarded = set(player.get("discarded") or [])
    x = left + 12
    for p in PIECES if pieces else ():
        state = "left" if p in left_set else "discarded" if p in discarded else "placed"
        x += _tray_piece(draw, p, x, row_y + (42 - 3 * s) / 2, s, color, state) + gap
    if not discs:
        return
    dx = right - 14 - disc_w + 12
    cy = row_y + 21
    draw.ellipse((dx - 11, cy - 11, dx + 11, cy + 11), fill=color, outline=outline_color(color), width=2)
    draw_text(draw, (dx + 20, cy), disc_text, 18, INK, anchor="lm")


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
    height = trays_top + len(players) * TRAY_ROW_H + PAD - 8

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
    for i, player in enumerate(players):
        _tray(draw, player, locale, names, trays_top + i * TRAY_ROW_H, width, to_move,
              discs=view.get("mode") != "4",
              # A mode-1 defender holds no pieces this round: twelve empty slots would only confuse.
              pieces=not (view.get("mode") == "1" and player.get("role") == "defender"))
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
    _draw_ghost(img, {"cells": ghost_cells, "piece": piece, "seat": seat}, lay, ox, oy, strength=0.45)
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
        mx, my = round(cell * 0.12), round(cell * 0.27)
        chosen = token == example
        draw.rounded_rectangle((x0 + mx, y0 + my, x0 + cell - mx, y0 + cell - my), radius=round(cell * 0.12),
                               fill=CHIP, outline=darken(color, 0.3) if chosen else INK,
                               width=max(3, cell // 16) if chosen else 2)
        label = t(locale, "pentactic.opt.cell", cell=token)
        draw_text(draw, (x0 + cell / 2, y0 + cell / 2), label, round(cell * 0.34), INK, bold=True, anchor="mm")
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
