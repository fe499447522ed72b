"""鬪三國 pictures: the tile map with its troops, and the placement step pictures.

Everything is drawn from ``view(state, None)``: the only secret of the game is the order of the
tile stack, and the view carries just its length, so shuffling the stack cannot change a byte.

Tiles are drawn the way the rules read them: green 平原 plains, tan 城池 city segments with a dark
wall line where a city meets the plain, and brown 拒馬 barricades (a thick line with crosses) from
the edge they sit on to the wall or to the other barricades, so the plain regions they cut apart
are visibly apart. A tile face depends only on its type, rotation and pixel size, so faces are
drawn once (2x supersampled, then shrunk for clean edges) and cached; a board is pasted faces plus
troops and city marks, which keeps a 70-tile board well under the 100 ms budget.

Troops use the seat's colour AND its marker shape (render.risk's per-colour shapes, checked for
colour-blind players), so a seat is never told by colour alone; an alert troop stands (tall
marker), a fortified one lies (wide marker with a bar across). Completed cities get a ring and a
light tint in the owner's colour (grey when idle) and a badge with their value in points.

The map is cropped to the used cells (plus the offered spots in a step picture) and tiles are
scaled to fit a fixed width, so the picture grows with the game and a 70-tile board still fits.
Scores are bold 28 px on a 1000 px picture: >= 9 px tall when Discord shows it 550 px wide.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from engines.kingdoms_battle.data import Face, tiles
from i18n import t
from render.common import (
    BACKGROUND,
    INK,
    MUTED,
    NEUTRAL,
    RGB,
    darken,
    draw_text,
    draw_text_centered,
    lighten,
    outline_color,
    text_color_on,
    text_fit,
    to_png,
)
from render.kingdoms_battle_text import seat_name
from render.layers import LayerCache
from render.risk import COLOR_NAMES, color_of, marker_outline

Point = tuple[float, float]

WIDTH = 1000
MARGIN = 12
#: Largest and smallest tile edge in pixels; the board shrinks tiles to fit, never below MIN_TILE.
MAX_TILE = 150
MIN_TILE = 40
#: The tile sizes a board picture uses: the largest that fits. Few sizes, so the faces drawn at
#: them serve every match (drawn once, by :func:`prepare` at start-up) instead of a whole new set
#: each time a growing map shrinks its tiles by a pixel or two (that cost 20-80 ms a picture).
TILE_STEPS = (150, 132, 116, 102, 90, 80, 70, 62, 54, 48, 44, 40)
MAX_BOARD_H = 1400
HEADER_H = 44
ROW_H = 40
#: Bold score digits: 28 px at 1000 px wide stay >= 9 px tall at 550 px (tests/render).
SCORE_SIZE = 28
TEXT_SIZE = 20
SMALL_SIZE = 17

PLAIN: RGB = (156, 199, 112)
PLAIN_EDGE: RGB = (120, 160, 86)
CITY: RGB = (222, 186, 128)
WALL: RGB = (112, 66, 34)
BARRICADE: RGB = (92, 52, 24)
EMPTY_SPACE: RGB = (255, 255, 255)
SPOT: RGB = (255, 214, 80)
HIGHLIGHT: RGB = (255, 140, 0)
#: Colours the PNG palette keeps exactly (terrain and spot marks never shift shade).
KEEP = (PLAIN, PLAIN_EDGE, CITY, WALL, BARRICADE, SPOT, HIGHLIGHT)

CENTER: Point = (0.5, 0.5)
CORNERS: tuple[Point, ...] = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))  # TL TR BR BL
MIDS: tuple[Point, ...] = ((0.5, 0.0), (1.0, 0.5), (0.5, 1.0), (0.0, 0.5))  # N E S W
INWARD: tuple[Point, ...] = ((0.0, 1.0), (-1.0, 0.0), (0.0, -1.0), (1.0, 0.0))
STEP = ((0, -1), (1, 0), (0, 1), (-1, 0))
#: How far a wall curve's control point leans from the tile centre into the gap it closes, by
#: the number of sides in the gap (1: through the centre, 2: into the corner, 3: a shallow cap).
LEAN = {1: 0.0, 2: 0.5, 3: 0.32}


# --------------------------------------------------------------------------- tile geometry (unit square)

def _mix(a: Point, b: Point, k: float) -> Point:
    return (a[0] + (b[0] - a[0]) * k, a[1] + (b[1] - a[1]) * k)


def _bezier(a: Point, c: Point, b: Point, n: int = 14) -> list[Point]:
    out = []
    for i in range(1, n):
        s = i / n
        out.append(((1 - s) ** 2 * a[0] + 2 * (1 - s) * s * c[0] + s * s * b[0],
                    (1 - s) ** 2 * a[1] + 2 * (1 - s) * s * c[1] + s * s * b[1]))
    return out


def _gap_mid(gap: list[int]) -> Point:
    """The middle of a run of sides along the perimeter: a side's midpoint or a corner."""
    if len(gap) % 2:
        return MIDS[gap[len(gap) // 2]]
    return CORNERS[gap[len(gap) // 2]]


@lru_cache(maxsize=256)
def segment_shapes(ttype: int, rot: int) -> tuple[tuple[tuple[Point, ...], tuple[tuple[Point, ...], ...]], ...]:
    """Per city segment of a face: its outline polygon and its wall curves (where it meets
    plain), in unit coordinates. A gap between the segment's sides is closed by a curve whose
    bend depends on the gap's length; when another city segment of the tile lies in the gap
    the curve bends away from it, so two corner cities on one tile never overlap."""
    face = _face(ttype, rot)
    out = []
    for s, sides in enumerate(face.cities):
        own = set(sides)
        if len(own) == 4:
            out.append((CORNERS, ()))
            continue
        others = {x for i, c in enumerate(face.cities) if i != s for x in c}
        start = next(i for i in range(4) if i in own and (i - 1) % 4 not in own)
        poly: list[Point] = []
        walls: list[tuple[Point, ...]] = []
        i = start
        while True:
            while i in own:  # a run of own sides: the perimeter from corner i to corner i + 1
                poly.append(CORNERS[i])
                i = (i + 1) % 4
            gap = []
            while i not in own:
                gap.append(i)
                i = (i + 1) % 4
            a, b = CORNERS[gap[0]], CORNERS[i]
            mid = _gap_mid(gap)
            ctrl = _mix(CENTER, mid, -0.3) if others & set(gap) else _mix(CENTER, mid, LEAN[len(gap)])
            curve = [a, *_bezier(a, ctrl, b), b]
            poly += curve[:-1]
            walls.append(tuple(curve))
            if i == start:
                break
        out.append((tuple(poly), tuple(walls)))
    return tuple(out)


def _centroid(poly: Sequence[Point]) -> Point:
    area = cx = cy = 0.0
    for (x0, y0), (x1, y1) in zip(poly, [*poly[1:], poly[0]], strict=True):
        cross = x0 * y1 - x1 * y0
        area += cross
        cx += (x0 + x1) * cross
        cy += (y0 + y1) * cross
    if abs(area) < 1e-9:
        return CENTER
    return (cx / (3 * area), cy / (3 * area))


@lru_cache(maxsize=256)
def space_points(ttype: int, rot: int) -> tuple[Point, ...]:
    """Where each garrison space of a face sits (unit coordinates). A one-sided cap holds its
    spaces a fixed depth in from its edge (side by side when two); bigger segments at their
    centroid, two spaces spread across it."""
    face = _face(ttype, rot)
    shapes = segment_shapes(ttype, rot)
    out: list[Point] = []
    for k, seg in enumerate(face.spaces):
        same = [j for j, s in enumerate(face.spaces) if s == seg]
        sides = face.cities[seg]
        if len(sides) == 1:
            side = sides[0]
            base = (MIDS[side][0] + INWARD[side][0] * 0.17, MIDS[side][1] + INWARD[side][1] * 0.17)
            along = (INWARD[side][1], INWARD[side][0])
        else:
            base = _centroid(shapes[seg][0])
            dx, dy = base[0] - 0.5, base[1] - 0.5
            norm = math.hypot(dx, dy)
            along = (1.0, 0.0) if norm < 0.05 else (-dy / norm, dx / norm)
        if len(same) == 2:
            sign = -1 if same.index(k) == 0 else 1
            base = (base[0] + along[0] * 0.17 * sign, base[1] + along[1] * 0.17 * sign)
        out.append(base)
    return tuple(out)


def _barricade_paths(face: Face, shapes: Any) -> list[list[Point]]:
    """Each barricade runs from its edge to the tile centre; a lone barricade carries on to the
    nearest city segment (it ends at the wall, splitting the plain on its way)."""
    bars = [i for i, ch in enumerate(face.edges) if ch == "B"]
    paths = []
    for side in bars:
        path = [MIDS[side], CENTER]
        if len(bars) == 1:
            targets = [_centroid(p) for p, _w in shapes]
            path.append(min(targets, key=lambda p: math.dist(p, CENTER)))
        paths.append(path)
    return paths


def _face(ttype: int, rot: int) -> Face:
    face = tiles().types[ttype].face(rot)
    if face is None:  # a rotation that looks like an earlier one: the engine stores the first
        face = tiles().types[ttype].faces[0]
    return face


# --------------------------------------------------------------------------- tile faces

#: Faces kept: every (type, rotation) at every TILE_STEPS size (~1 050, ~25 MB) and the step pictures'.
@lru_cache(maxsize=1400)
def tile_face(ttype: int, rot: int, size: int) -> Image.Image:
    """One tile drawn at ``size`` px (drawn at 2x and shrunk, so walls and crosses are smooth)."""
    ss = size * 2
    img = Image.new("RGB", (ss, ss), PLAIN)
    d = ImageDraw.Draw(img)
    face = _face(ttype, rot)
    shapes = segment_shapes(ttype, rot)

    def px(p: Point) -> Point:
        return (p[0] * ss, p[1] * ss)
    bar_w = max(4, round(ss * 0.06))
    for path in _barricade_paths(face, shapes):
        pts = [px(p) for p in path]
        d.line(pts, fill=BARRICADE, width=bar_w, joint="curve")
        for a, b in zip(pts, pts[1:], strict=False):
            length = math.dist(a, b)
            steps = max(1, int(length / (ss * 0.14)))
            ux, uy = (b[0] - a[0]) / (length or 1), (b[1] - a[1]) / (length or 1)
            arm = ss * 0.05
            for k in range(steps):
                cx, cy = _mix(a, b, (k + 0.5) / steps)
                for sx, sy in ((ux + uy, uy - ux), (ux - uy, uy + ux)):
                    d.line([(cx - sx * arm, cy - sy * arm), (cx + sx * arm, cy + sy * arm)],
                           fill=BARRICADE, width=max(2, bar_w // 2))
    wall_w = max(3, round(ss * 0.035))
    for poly, walls in shapes:
        d.polygon([px(p) for p in poly], fill=CITY)
        for wall in walls:
            d.line([px(p) for p in wall], fill=WALL, width=wall_w, joint="curve")
    d.rectangle((0, 0, ss - 1, ss - 1), outline=PLAIN_EDGE, width=2)
    return img.resize((size, size), Image.Resampling.LANCZOS)


# --------------------------------------------------------------------------- layout

class Grid:
    """Cell -> pixel mapping for a crop of the map: ``x0``/``y0`` the top-left cell. The tile
    size is the largest that fits (of ``steps`` when given)."""

    def __init__(self, cells: Sequence[tuple[int, int]], width: int, max_h: int, top: int,
                 max_tile: int = MAX_TILE, steps: Sequence[int] = ()) -> None:
        xs = [c[0] for c in cells]
        ys = [c[1] for c in cells]
        self.x0, self.y0 = min(xs), min(ys)
        self.cols, self.rows = max(xs) - self.x0 + 1, max(ys) - self.y0 + 1
        fit = min((width - 2 * MARGIN) / self.cols, max_h / self.rows, max_tile)
        self.size = max(MIN_TILE, max((s for s in steps if s <= fit), default=int(fit)))
        self.left = (width - self.cols * self.size) // 2
        self.top = top
        self.height = self.rows * self.size

    def origin(self, x: int, y: int) -> tuple[int, int]:
        return (self.left + (x - self.x0) * self.size, self.top + (y - self.y0) * self.size)

    def point(self, x: int, y: int, p: Point) -> Point:
        ox, oy = self.origin(x, y)
        return (ox + p[0] * self.size, oy + p[1] * self.size)


def _seat_color(view: dict[str, Any], seat: int | None) -> tuple[RGB, int]:
    """A seat's colour and the marker-shape index that goes with that colour."""
    if seat is None or not 0 <= seat < len(view["players"]):
        return NEUTRAL, -1
    name = view["players"][seat].get("color")
    return color_of(name, seat), COLOR_NAMES.index(name) if name in COLOR_NAMES else seat


def troop(d: ImageDraw.ImageDraw, view: dict[str, Any], seat: int, state: str, at: Point, size: float) -> None:
    """A troop: standing (tall) when alert, lying (wide, a bar across) when fortified."""
    color, shape = _seat_color(view, seat)
    if state == "f":
        hw, hh = size * 0.13, size * 0.065
    else:
        hw, hh = size * 0.06, size * 0.12
    x, y = at
    unit = marker_outline(shape, (0.0, 0.0), 1.0, 1.0)
    layers = ((2, (20, 20, 24)), (0, (255, 255, 255)), (-2, color))
    if unit is None:
        # round and square seats: a pill or a box with the troop's own aspect
        r = min(hw, hh) * (0.3 if shape == 1 else 1.0)
        for grow, fill in layers:
            d.rounded_rectangle((x - hw - grow, y - hh - grow, x + hw + grow, y + hh + grow),
                                radius=max(0.0, r + grow), fill=fill)
    else:
        # the seat's shape stretched to the troop's box, so every shape stands or lies alike
        xs, ys = [p[0] for p in unit], [p[1] for p in unit]
        cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
        bw, bh = (max(xs) - min(xs)) / 2, (max(ys) - min(ys)) / 2
        for grow, fill in layers:
            sx, sy = (hw + grow) / bw, (hh + grow) / bh
            d.polygon([(x + (px - cx) * sx, y + (py - cy) * sy) for px, py in unit], fill=fill)
    if state == "f":
        d.line([(x - hw * 0.75, y), (x + hw * 0.75, y)], fill=outline_color(color), width=max(2, round(size * 0.025)))


def _empty_space(d: ImageDraw.ImageDraw, at: Point, size: float, ring: RGB = INK) -> None:
    r = size * 0.055
    d.ellipse((at[0] - r, at[1] - r, at[0] + r, at[1] + r), fill=EMPTY_SPACE, outline=ring, width=max(1, round(size / 50)))


def _draw_tiles(img: Image.Image, grid: Grid, placed: Sequence[Sequence[int]]) -> None:
    for ttype, x, y, rot in placed:
        img.paste(tile_face(ttype, rot, grid.size), grid.origin(x, y))


def _seg_polys(view: dict[str, Any], grid: Grid, segs: Sequence[str]) -> list[list[Point]]:
    out = []
    placed = view["tiles"]
    for key in segs:
        idx, s = (int(p) for p in key.split("."))
        ttype, x, y, rot = placed[idx]
        out.append([grid.point(x, y, p) for p in segment_shapes(ttype, rot)[s][0]])
    return out


Box = tuple[int, int, int, int]
#: One seat colour's completed cities as masks: (colour, [(box in the picture, tint mask, ring
#: mask)]), the boxes disjoint and round the cities only: masking the whole box of cities far
#: apart would blend mostly empty mask.
Marks = tuple[RGB, list[tuple[Box, Image.Image, Image.Image]]]
#: (picture size, tile size, pixel of cell (0, 0), colour, the cities' segments as (type, x, y,
#: rotation, segment) per city) -> Marks, kept for the next picture of the same crop. (Masks are
#: not moved to another crop: their points are the whole render's floats, which a shift by whole
#: pixels does not reproduce to the last bit.)
_MARKS: LayerCache[tuple[Any, ...], Marks] = LayerCache(32)


def _city_groups(view: dict[str, Any]) -> tuple[dict[RGB, list[tuple[tuple[int, int, int, int, int], ...]]],
                                                 list[dict[str, Any]]]:
    """The completed cities by owner colour (in the order colours first appear) as segment keys,
    and the completed cities themselves."""
    by_color: dict[RGB, list[tuple[tuple[int, int, int, int, int], ...]]] = {}
    done = []
    placed = view["tiles"]
    for city in view["cities"]:
        if not city["done"]:
            continue
        done.append(city)
        color = _seat_color(view, city["owner"])[0]
        segs = []
        for key in city["segs"]:
            idx, s = (int(p) for p in key.split("."))
            ttype, x, y, rot = placed[idx]
            segs.append((ttype, x, y, rot, s))
        by_color.setdefault(color, []).append(tuple(segs))
    return by_color, done


def _marks(size: tuple[int, int], grid: Grid, color: RGB,
           cities: tuple[tuple[tuple[int, int, int, int, int], ...], ...]) -> Marks:
    """The tint and ring masks of one colour's completed cities on a picture of ``size`` (cached).
    Masks only as big as this colour's cities (plus the ring): full-size masks cost 7 ms each."""
    key = (size, grid.size, grid.origin(0, 0), color, cities)
    for k, found in _MARKS.entries() if LAYER_CACHE else ():
        if k == key:
            return found
    ring_w = max(4, grid.size // 14)
    polys = [[[grid.point(x, y, p) for p in segment_shapes(ttype, rot)[s][0]] for ttype, x, y, rot, s in city]
             for city in cities]
    xs = [p[0] for city in polys for poly in city for p in poly]
    ys = [p[1] for city in polys for poly in city for p in poly]
    x0, y0 = max(0, int(min(xs)) - ring_w - 2), max(0, int(min(ys)) - ring_w - 2)
    x1, y1 = min(size[0], int(max(xs)) + ring_w + 3), min(size[1], int(max(ys)) + ring_w + 3)
    tint = Image.new("L", (x1 - x0, y1 - y0), 0)
    ring = Image.new("L", tint.size, 0)
    dt, dr = ImageDraw.Draw(tint), ImageDraw.Draw(ring)
    local = [[[(x - x0, y - y0) for x, y in poly] for poly in city] for city in polys]
    for city_polys in local:
        for poly in city_polys:
            dr.line([*poly, poly[0]], fill=255, width=ring_w * 2, joint="curve")
    for city_polys in local:
        for poly in city_polys:
            dr.polygon(poly, fill=0)
            dt.polygon(poly, fill=95)
    boxes = []
    for city in polys:
        cx = [p[0] for poly in city for p in poly]
        cy = [p[1] for poly in city for p in poly]
        boxes.append((max(x0, int(min(cx)) - ring_w - 2), max(y0, int(min(cy)) - ring_w - 2),
                      min(x1, int(max(cx)) + ring_w + 3), min(y1, int(max(cy)) + ring_w + 3)))
    pieces = []
    for bx in _disjoint(boxes):
        inner = (bx[0] - x0, bx[1] - y0, bx[2] - x0, bx[3] - y0)
        pieces.append((bx, tint.crop(inner), ring.crop(inner)))
    found = (color, pieces)
    if LAYER_CACHE:
        _MARKS.put(key, found)
    return found


def _disjoint(boxes: list[Box]) -> list[Box]:
    """Boxes covering the same pixels and more, none overlapping another (overlapping ones are
    merged into their bounding box until none overlap)."""
    out: list[Box] = []
    for box in boxes:
        while True:
            hit = next((o for o in out if o[0] < box[2] and box[0] < o[2] and o[1] < box[3] and box[1] < o[3]), None)
            if hit is None:
                break
            out.remove(hit)
            box = (min(box[0], hit[0]), min(box[1], hit[1]), max(box[2], hit[2]), max(box[3], hit[3]))
        out.append(box)
    return out


def _apply_marks(img: Image.Image, marks: Sequence[Marks], clip: Box | None = None) -> None:
    """Tint and ring the cities of ``marks`` on ``img``, colour after colour (only inside ``clip``)."""
    for color, pieces in marks:
        for box, tint, ring in pieces:
            if clip is not None:
                x0, y0 = max(box[0], clip[0]), max(box[1], clip[1])
                x1, y1 = min(box[2], clip[2]), min(box[3], clip[3])
                if x0 >= x1 or y0 >= y1:
                    continue
                inner = (x0 - box[0], y0 - box[1], x1 - box[0], y1 - box[1])
                tint, ring, box = tint.crop(inner), ring.crop(inner), (x0, y0, x1, y1)
            img.paste(color, box, tint)
            img.paste(color, box, ring)


def _all_marks(size: tuple[int, int], grid: Grid, view: dict[str, Any]) -> list[Marks]:
    return [_marks(size, grid, color, tuple(cities)) for color, cities in _city_groups(view)[0].items()]


def _city_marks(img: Image.Image, view: dict[str, Any], grid: Grid) -> list[tuple[Point, RGB, int]]:
    """Tint and ring every completed city in its owner's colour (grey: idle); returns where each
    city's value badge goes. All cities of one colour share one mask, so the cost does not grow
    with the number of cities; the masks are kept for the next picture of this crop."""
    _apply_marks(img, _all_marks(img.size, grid, view))
    return _badges(view, grid)


def _badges(view: dict[str, Any], grid: Grid) -> list[tuple[Point, RGB, int]]:
    return [(_badge_point(view, grid, city), _seat_color(view, city["owner"])[0], city["value"])
            for city in _city_groups(view)[1]]


def _badge_point(view: dict[str, Any], grid: Grid, city: dict[str, Any]) -> Point:
    """A spot inside the city away from its garrison spaces: on an edge two of its tiles share,
    a quarter along it; a one-tile city uses its segment's centre."""
    tiles_at = {(view["tiles"][i][1], view["tiles"][i][2]): i for i in city["tiles"]}
    for i in city["tiles"]:
        _t, x, y, _r = view["tiles"][i]
        for side in (1, 2):
            dx, dy = STEP[side]
            if (x + dx, y + dy) in tiles_at:
                a, b = CORNERS[side], CORNERS[(side + 1) % 4]
                return grid.point(x, y, _mix(a, b, 0.2))
    ttype, x, y, rot = view["tiles"][city["tiles"][0]]
    seg = int(city["segs"][0].split(".")[1])
    return grid.point(x, y, _centroid(segment_shapes(ttype, rot)[seg][0]))


def _badge(d: ImageDraw.ImageDraw, at: Point, color: RGB, value: int, size: float) -> None:
    r = max(11.0, size * 0.12)
    d.ellipse((at[0] - r - 2, at[1] - r - 2, at[0] + r + 2, at[1] + r + 2), fill=(255, 255, 255))
    d.ellipse((at[0] - r, at[1] - r, at[0] + r, at[1] + r), fill=color, outline=INK, width=1)
    draw_text(d, at, str(value), max(12, round(r * 1.5)), text_color_on(color), bold=True, anchor="mm")


def _draw_troops(d: ImageDraw.ImageDraw, view: dict[str, Any], grid: Grid) -> None:
    troops = view["troops"]
    for idx, (ttype, x, y, rot) in enumerate(view["tiles"]):
        for k, p in enumerate(space_points(ttype, rot)):
            at = grid.point(x, y, p)
            held = troops.get(f"{idx}.{k}")
            if held is None:
                _empty_space(d, at, grid.size)
            else:
                troop(d, view, held[0], held[1], at, grid.size)


def _used_cells(view: dict[str, Any]) -> list[tuple[int, int]]:
    return [(x, y) for _t, x, y, _r in view["tiles"]]


# --------------------------------------------------------------------------- legend

def _die(d: ImageDraw.ImageDraw, x: float, y: float, value: int, hit: bool) -> float:
    """A die as a square with its number; hits (5–6) filled dark so they read without colour."""
    s = 26
    d.rounded_rectangle((x, y, x + s, y + s), radius=5, fill=INK if hit else (255, 255, 255), outline=INK, width=2)
    draw_text(d, (x + s / 2, y + s / 2), str(value), 18, (255, 255, 255) if hit else INK, bold=True, anchor="mm")
    return s + 4


def _legend(d: ImageDraw.ImageDraw, view: dict[str, Any], locale: str, names: Sequence[str], top: int) -> int:
    """Header (turn or result, tiles left) then one row per player; returns the height used."""
    y = top
    over = view["phase"] == "over"
    if over:
        winners = view.get("winners") or []
        who = ", ".join(seat_name(view, locale, names, s) for s in winners)
        head = t(locale, "kingdoms_battle.render.over", players=who)
    else:
        head = t(locale, "kingdoms_battle.render.turn", player=seat_name(view, locale, names, view["turn"]))
    left = t(locale, "kingdoms_battle.render.left", n=view["stack"])
    lw = draw_text(d, (WIDTH - MARGIN, y + HEADER_H / 2), left, TEXT_SIZE, INK, bold=True, anchor="rm")
    text, size = text_fit(head, WIDTH - 3 * MARGIN - lw, TEXT_SIZE, True, 14)
    draw_text(d, (MARGIN, y + HEADER_H / 2), text, size, INK, bold=True, anchor="lm")
    y += HEADER_H
    for p in view["players"]:
        seat = p["seat"]
        color, _shape = _seat_color(view, seat)
        mid = y + ROW_H / 2
        if seat == view.get("asked") or (over and seat in (view.get("winners") or [])):
            d.rectangle((MARGIN - 6, y + 2, WIDTH - MARGIN + 6, y + ROW_H - 2), fill=lighten(color, 0.8))
        troop(d, view, seat, "a", (MARGIN + 12, mid), 130)
        draw_text(d, (MARGIN + 52, mid), str(p["score"]), SCORE_SIZE, INK, bold=True, anchor="mm")
        name, size = text_fit(seat_name(view, locale, names, seat), 330, TEXT_SIZE, True, 14)
        draw_text(d, (MARGIN + 80, mid), name, size, darken(color, 0.25) if color[1] > 200 else color,
                  bold=True, anchor="lm")
        info = t(locale, "kingdoms_battle.render.row", supply=p["supply"], cards=p["cards"], plots=len(p["plots"]))
        draw_text(d, (WIDTH - MARGIN, mid), info, SMALL_SIZE, MUTED, anchor="rm")
        y += ROW_H
    dice = view.get("dice")
    if dice:
        y += 4
        key = "kingdoms_battle.render.civil" if dice["kind"] == "civil" else "kingdoms_battle.render.war"
        label = t(locale, key, round=dice["round"])
        x = MARGIN + draw_text(d, (MARGIN, y + 15), label, SMALL_SIZE, INK, anchor="lm") + 10
        for seat, rolls in ((dice["a"], dice["da"]), (dice["d"], dice["dd"])):
            troop(d, view, seat, "a", (x + 6, y + 15), 110)
            x += 22
            for v in rolls:
                x += _die(d, x, y + 2, v, v >= 5)
            x += 18
        y += 34
    return y - top


def _legend_height(view: dict[str, Any]) -> int:
    return HEADER_H + ROW_H * len(view["players"]) + (38 if view.get("dice") else 0) + 8


# --------------------------------------------------------------------------- pictures

#: Tile maps kept (the tiles pasted on the background, ~3 MB each): the last pictures of a few
#: matches. Key: (picture size, tile size, pixel of cell (0, 0), the tiles placed).
_MAPS: LayerCache[tuple[tuple[int, int], int, tuple[int, int], tuple[tuple[int, ...], ...]], Image.Image] = \
    LayerCache(8)
#: Whether render_image starts from cached layers (tests turn it off to get the reference).
LAYER_CACHE = True


def _tile_map(size: tuple[int, int], grid: Grid, placed: Sequence[Sequence[int]]) -> Image.Image:
    """The background with the tiles pasted (shared: copy it before drawing). A cached map of the
    same tile size whose tiles began this list is moved by whole pixels to this crop and gets the
    tiles placed since; anything else is drawn whole."""
    tiles_now = tuple(tuple(tl) for tl in placed)
    corner = grid.origin(0, 0)
    best: tuple[int, tuple[int, int], Image.Image] | None = None
    for (csize, tsize, ccorner, ctiles), img in _MAPS.entries():
        if tsize == grid.size and len(ctiles) <= len(tiles_now) and tiles_now[:len(ctiles)] == ctiles \
                and (best is None or len(ctiles) > best[0]):
            best = (len(ctiles), ccorner, img)
            if (csize, ccorner, len(ctiles)) == (size, corner, len(tiles_now)):
                return img
    if best is None:
        out = Image.new("RGB", size, BACKGROUND)
        _draw_tiles(out, grid, tiles_now)
    else:
        n, ccorner, cached = best
        if ccorner == corner and cached.size == size:
            out = cached.copy()
        else:
            out = Image.new("RGB", size, BACKGROUND)
            out.paste(cached, (corner[0] - ccorner[0], corner[1] - ccorner[1]))
        _draw_tiles(out, grid, tiles_now[n:])
    _MAPS.put((size, grid.size, corner, tiles_now), out)
    return out


#: Tile maps with their city marks, kept as :data:`_MAPS` (key: its key and the marks' key).
_MARKED: LayerCache[tuple[Any, ...], Image.Image] = LayerCache(8)


def _marked_map(size: tuple[int, int], grid: Grid, view: dict[str, Any]) -> Image.Image:
    """The tiles with the completed cities marked (shared: copy it). A cached one of the same crop
    and marks whose tiles began this list gets the tiles placed since, and the marks over just
    their cells (as if marked after them); anything else is marked over :func:`_tile_map`."""
    tiles_now = tuple(tuple(tl) for tl in view["tiles"])
    corner = grid.origin(0, 0)
    groups = tuple((color, tuple(cities)) for color, cities in _city_groups(view)[0].items())
    best: tuple[int, Image.Image] | None = None
    for (csize, tsize, ccorner, ctiles, cgroups), img in _MARKED.entries():
        if (csize, tsize, ccorner, cgroups) == (size, grid.size, corner, groups) \
                and len(ctiles) <= len(tiles_now) and tiles_now[:len(ctiles)] == ctiles \
                and (best is None or len(ctiles) > best[0]):
            best = (len(ctiles), img)
    marks = [_marks(size, grid, color, cities) for color, cities in groups]
    if best is not None and best[0] == len(tiles_now):
        return best[1]
    if best is None:
        out = _tile_map(size, grid, tiles_now).copy()
        _apply_marks(out, marks)
    else:
        out = best[1].copy()
        for tl in tiles_now[best[0]:]:
            _draw_tiles(out, grid, [tl])
            ox, oy = grid.origin(tl[1], tl[2])
            _apply_marks(out, marks, (ox, oy, ox + grid.size, oy + grid.size))
    _MARKED.put((size, grid.size, corner, tiles_now, groups), out)
    return out


def render_image(view: dict[str, Any], locale: str, names: Sequence[str]) -> Image.Image:
    """The picture, drawn over the cached tile map and city marks (see :data:`LAYER_CACHE`)."""
    if not LAYER_CACHE:
        return render_image_reference(view, locale, names)
    legend_h = _legend_height(view)
    grid = Grid(_used_cells(view), WIDTH, MAX_BOARD_H, legend_h + MARGIN, steps=TILE_STEPS)
    size = (WIDTH, grid.top + grid.height + MARGIN)
    img = _marked_map(size, grid, view).copy()
    return _finish(img, view, locale, names, grid, _badges(view, grid))


def render_image_reference(view: dict[str, Any], locale: str, names: Sequence[str]) -> Image.Image:
    """The same picture drawn whole, without cached layers: what the cached path must equal pixel
    for pixel (tests/render/test_kingdoms_battle_render.py)."""
    legend_h = _legend_height(view)
    grid = Grid(_used_cells(view), WIDTH, MAX_BOARD_H, legend_h + MARGIN, steps=TILE_STEPS)
    img = Image.new("RGB", (WIDTH, grid.top + grid.height + MARGIN), BACKGROUND)
    _draw_tiles(img, grid, view["tiles"])
    return _finish(img, view, locale, names, grid, _city_marks(img, view, grid))


def _finish(img: Image.Image, view: dict[str, Any], locale: str, names: Sequence[str], grid: Grid,
            badges: list[tuple[Point, RGB, int]]) -> Image.Image:
    """Everything over the marked tiles: troops, city badges, the legend."""
    d = ImageDraw.Draw(img)
    _draw_troops(d, view, grid)
    for at, color, value in badges:
        _badge(d, at, color, value, grid.size)
    _legend(d, view, locale, names, 0)
    return img


def render(view: dict[str, Any], locale: str, names: list[str], overlay: dict[str, Any] | None = None) -> bytes:
    return to_png(render_image(view, locale, names), keep=KEEP)


def _spots_picture(view: dict[str, Any], picture: dict[str, Any], locale: str) -> Image.Image:
    """The board with every legal spot numbered like the buttons, and the drawn tile beside a
    caption (in its unturned position)."""
    spots = [tuple(s) for s in picture["spots"]]
    head_h = 120
    grid = Grid(_used_cells(view) + spots, WIDTH, MAX_BOARD_H, head_h + MARGIN, 120, TILE_STEPS)
    img = Image.new("RGB", (WIDTH, grid.top + grid.height + MARGIN), BACKGROUND)
    _draw_tiles(img, grid, view["tiles"])
    _city_marks(img, view, grid)
    d = ImageDraw.Draw(img)
    _draw_troops(d, view, grid)
    for n, (x, y) in enumerate(spots, 1):
        ox, oy = grid.origin(x, y)
        s = grid.size
        d.rectangle((ox + 2, oy + 2, ox + s - 3, oy + s - 3), fill=SPOT, outline=HIGHLIGHT, width=3)
        draw_text_centered(d, (ox, oy, ox + s, oy + s), str(n), max(16, min(44, s // 2)), INK, bold=True, min_size=12)
    img.paste(tile_face(picture["tile"], 0, 100), (MARGIN, MARGIN))
    caption = t(locale, "kingdoms_battle.render.spots", tile=picture["tile"], n=len(spots))
    text, size = text_fit(caption, WIDTH - 140 - MARGIN, 24, True, 14)
    draw_text(d, (MARGIN + 120, MARGIN + 50), text, size, INK, bold=True, anchor="lm")
    return img


def _neighbourhood(view: dict[str, Any], cell: tuple[int, int]) -> list[list[int]]:
    x0, y0 = cell
    return [list(tl) for tl in view["tiles"] if abs(tl[1] - x0) <= 1 and abs(tl[2] - y0) <= 1]


def _panel(view: dict[str, Any], picture: dict[str, Any], rot: int, tile_px: int,
           chosen: Sequence[str] = (), current: int | None = None) -> Image.Image:
    """The 3x3 cells around the spot with the drawn tile turned ``rot``; its spaces numbered
    (garrison step) with the troops chosen so far."""
    x0, y0 = picture["cell"]
    side = tile_px * 3
    img = Image.new("RGB", (side, side), BACKGROUND)
    grid = Grid([(x0 - 1, y0 - 1), (x0 + 1, y0 + 1)], side + 2 * MARGIN, side, 0, tile_px)
    grid.left = 0
    near = _neighbourhood(view, (x0, y0))
    _draw_tiles(img, grid, near)
    _draw_tiles(img, grid, [[picture["tile"], x0, y0, rot]])
    d = ImageDraw.Draw(img)
    ox, oy = grid.origin(x0, y0)
    d.rectangle((ox, oy, ox + tile_px - 1, oy + tile_px - 1), outline=HIGHLIGHT, width=4)
    if current is not None:
        seat = view.get("asked")
        for k, p in enumerate(space_points(picture["tile"], rot)):
            at = grid.point(x0, y0, p)
            if k < len(chosen) and chosen[k] in ("a", "f") and seat is not None:
                troop(d, view, seat, chosen[k], at, tile_px)
                continue
            r = tile_px * 0.11
            ring = HIGHLIGHT if k == current else INK
            d.ellipse((at[0] - r, at[1] - r, at[0] + r, at[1] + r), fill=(255, 255, 255), outline=ring,
                      width=4 if k == current else 2)
            draw_text(d, at, str(k + 1), max(14, round(r * 1.3)), INK, bold=True, anchor="mm")
    return img


def _rotations_picture(view: dict[str, Any], picture: dict[str, Any], locale: str) -> Image.Image:
    """One panel per legal rotation at the chosen spot, labelled like the buttons (0°, 90°...)."""
    rots = list(picture["rots"])
    per_row = min(len(rots), 2)
    tile_px = 140 if per_row == 2 else 180
    side = tile_px * 3
    label_h = 40
    rows = math.ceil(len(rots) / per_row)
    width = max(WIDTH // 2, per_row * (side + MARGIN) + MARGIN)
    img = Image.new("RGB", (width, rows * (side + label_h + MARGIN) + MARGIN), BACKGROUND)
    d = ImageDraw.Draw(img)
    for i, rot in enumerate(rots):
        x = MARGIN + (i % per_row) * (side + MARGIN)
        y = MARGIN + (i // per_row) * (side + label_h + MARGIN)
        label = t(locale, "kingdoms_battle.opt.rot", deg=90 * rot)
        draw_text(d, (x + side / 2, y + label_h / 2), label, 30, INK, bold=True, anchor="mm")
        img.paste(_panel(view, picture, rot, tile_px), (x, y + label_h))
    return img


def _garrison_picture(view: dict[str, Any], picture: dict[str, Any], locale: str) -> Image.Image:
    tile_px = 180
    side = tile_px * 3
    label_h = 48
    img = Image.new("RGB", (side + 2 * MARGIN, side + label_h + 2 * MARGIN), BACKGROUND)
    d = ImageDraw.Draw(img)
    label = t(locale, "kingdoms_battle.prompt.garrison", n=picture["space"] + 1,
              of=len(space_points(picture["tile"], picture["rot"])))
    text, size = text_fit(label, side, 28, True, 14)
    draw_text(d, (MARGIN + side / 2, MARGIN + label_h / 2), text, size, INK, bold=True, anchor="mm")
    img.paste(_panel(view, picture, picture["rot"], tile_px, picture.get("chosen", []), picture["space"]),
              (MARGIN, MARGIN + label_h))
    return img


def render_step_picture(view: dict[str, Any], picture: dict[str, Any], locale: str,
                        names: Sequence[str]) -> bytes | None:
    """The placement help pictures the engine asks for (see engines/kingdoms_battle/choices.py)."""
    draw = {"spots": _spots_picture, "rotations": _rotations_picture, "garrison": _garrison_picture}.get(
        picture.get("kind", ""))
    if draw is None:
        return None
    return to_png(draw(view, picture, locale), keep=KEEP)


def prepare() -> None:
    """Draw every tile face at every board size now (~0.7 s, in the bot's warm-up thread), so
    no picture waits for a face."""
    for size in TILE_STEPS:
        for ttype, kind in tiles().types.items():
            for rot in range(4):
                if kind.face(rot) is not None:  # the rotations the engine stores
                    tile_face(ttype, rot, size)
