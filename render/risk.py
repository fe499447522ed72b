"""Risk board image: the world map in owner colours with army badges, the last battle, and a legend.

A render recolours the cached territory label image with a palette (one lookup for the whole
map), lays the cached static layer over it (sea, borders, routes, continent table: see
:mod:`render.risk_background`), draws the last attack's arrow, lays the cached territory names
over that (so the arrow never hides a name), then draws what a game changes: army badges, HQ
stars, continent holders and the legend band. Only public fields of the view are read, so a
seat's own view (with its ``"you"`` part) renders exactly like the public one.

``overlay`` may hold ``{"highlight": [territory ids]}`` to ring territories (choices on offer).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from i18n import LOCALES, normalize_locale, t
from render.common import (
    INK,
    MUTED,
    NEUTRAL,
    PLAYER_COLORS,
    RGB,
    darken,
    draw_text,
    font,
    lighten,
    mix,
    stamp_text,
    text_color_on,
    text_fit,
    to_png,
)
from render.layers import LayerCache
from render.risk_background import (
    BADGE_R,
    BAND_H,
    PAPER,
    bonus_holder_spot,
    label_index_image,
    name,
    name_layer,
    route_segments,
    static_layer,
)
from render.risk_map import Layout, layout

#: The engine names seat colours; common.PLAYER_COLORS lists the same colours in this order.
COLOR_NAMES = ("red", "yellow", "blue", "green", "purple", "black")
GOLD: RGB = (255, 204, 64)
WHITE: RGB = (255, 255, 255)
SEA_INDEX_COLOR: RGB = (20, 50, 84)
#: Land nobody has claimed yet (owner None while territories are being claimed).
UNCLAIMED: RGB = (222, 214, 192)


def color_of(name_: str | None, seat: int | None = None) -> RGB:
    """A seat's strong colour from its colour name (seat order as the fallback)."""
    if name_ in COLOR_NAMES:
        return PLAYER_COLORS[COLOR_NAMES.index(name_)]
    if isinstance(seat, int) and 0 <= seat < len(PLAYER_COLORS):
        return PLAYER_COLORS[seat]
    return NEUTRAL


def fill_of(strong: RGB) -> RGB:
    """Territory fill: the strong colour a little lighter, so badges and names stand out on it."""
    return lighten(strong, 0.14)


def owner_colors(view: dict[str, Any]) -> dict[int, RGB]:
    """Strong colour per owner value (-1 is neutral)."""
    out = {-1: NEUTRAL}
    for i, p in enumerate(view.get("players", [])):
        seat = p.get("seat", i)
        out[seat] = color_of(p.get("color"), seat)
    return out


def _seat_name(locale: str, names: Sequence[str], seat: int) -> str:
    if 0 <= seat < len(names) and names[seat]:
        return str(names[seat])
    return t(locale, "riskmap.legend.seat", n=seat + 1)


# ---------------------------------------------------------------------------------------------
# Map marks


def marker_outline(seat: int, center: tuple[float, float], hw: float, hh: float) -> list[tuple[float, float]] | None:
    """The outline of a seat's marker (None: a rounded box, a pill or a square), ``hw``/``hh`` being
    the half width/height of the room the number needs. Each seat has its own shape (circle,
    square, hexagon, gem, shield, diamond), so owners can be told apart without relying on colour
    alone; neutral armies get a house (a pentagon pointing up) that no seat shares."""
    x, y = center
    kind = seat % len(COLOR_NAMES) if seat >= 0 else -1
    if kind == -1:   # neutral: a house (pentagon pointing up), a shape no seat uses
        p = hh * 0.55
        return [(x, y - hh - p), (x + hw, y - hh + p * 0.6), (x + hw, y + hh), (x - hw, y + hh),
                (x - hw, y - hh + p * 0.6)]
    if kind == 2:    # hexagon pointing left and right
        p = hh * 0.55
        return [(x - hw - p, y), (x - hw, y - hh), (x + hw, y - hh), (x + hw + p, y), (x + hw, y + hh), (x - hw, y + hh)]
    if kind == 3:    # gem: hexagon pointing up and down
        p = hh * 0.3
        return [(x, y - hh - p), (x + hw, y - hh + p), (x + hw, y + hh - p), (x, y + hh + p), (x - hw, y + hh - p),
                (x - hw, y - hh + p)]
    if kind == 4:    # shield
        return [(x - hw, y - hh), (x + hw, y - hh), (x + hw, y + hh * 0.35), (x, y + hh * 1.3), (x - hw, y + hh * 0.35)]
    if kind == 5:    # diamond
        a, b = hw + hh * 0.75, hh * 1.2
        return [(x, y - b), (x + a, y), (x, y + b), (x - a, y)]
    return None


def _grow(points: list[tuple[float, float]], center: tuple[float, float], by: float, hh: float) -> list[tuple[float, float]]:
    k = (hh + by) / hh
    return [(center[0] + (px - center[0]) * k, center[1] + (py - center[1]) * k) for px, py in points]


def draw_marker(d: ImageDraw.ImageDraw, seat: int, center: tuple[float, float], hw: float, hh: float, fill: RGB,
                rim: RGB = WHITE, edge: RGB = (20, 20, 24)) -> None:
    """A seat's marker shape: ``fill`` inside a ``rim`` line and a thin dark ``edge``."""
    x, y = center
    shape = marker_outline(seat, center, hw, hh)
    if shape is None:
        r = hh if seat < 0 or seat % len(COLOR_NAMES) != 1 else hh * 0.3
        half = max(hw, r)
        d.rounded_rectangle((x - half - 2, y - hh - 2, x + half + 2, y + hh + 2), radius=r + 2, fill=edge)
        d.rounded_rectangle((x - half, y - hh, x + half, y + hh), radius=r, fill=rim)
        d.rounded_rectangle((x - half + 2, y - hh + 2, x + half - 2, y + hh - 2), radius=max(0.0, r - 2), fill=fill)
        return
    d.polygon(_grow(shape, center, 2, hh), fill=edge)
    d.polygon(shape, fill=rim)
    d.polygon(_grow(shape, center, -2, hh), fill=fill)


#: Army numbers: bold, 32 px at full size, so the digits stay ~9 px tall when Discord shows the
#: 1440 px picture 550 px wide (tests/render/test_digit_height.py measures it).
ARMY_SIZE = 32


def army_font_size(armies: int) -> int:
    """The pixel size of an army number (three digits are a little smaller to keep badges compact)."""
    return ARMY_SIZE if armies < 100 else ARMY_SIZE - 4


def _badge(d: ImageDraw.ImageDraw, center: tuple[float, float], armies: int, seat: int, strong: RGB) -> None:
    """The army count in the owner's marker shape. The digits carry a thin outline in the opposite
    ink, so they stay legible where anti-aliasing blurs them into the marker at chat size."""
    x, y = center
    text = str(armies)
    f = font(army_font_size(armies), True)
    tw = f.getlength(text)
    kind = seat % len(COLOR_NAMES) if seat >= 0 else -1
    if kind == 0:
        hw = max(BADGE_R, tw / 2 + 6)
    elif kind == 2:
        hw = max(BADGE_R - 7, tw / 2 + 1)
    elif kind == 5:
        hw = max(BADGE_R - 8, tw / 2)
    else:
        hw = max(BADGE_R - 2, tw / 2 + 5)
    hh = BADGE_R if kind != 4 else BADGE_R - 2
    dy = -3 if kind == 4 else (2 if kind == -1 else 0)
    draw_marker(d, seat, (x, y + dy), hw, hh, strong)
    ink = text_color_on(strong)
    halo = (20, 20, 24) if ink == WHITE else (255, 255, 255)
    # Centre the digits' own box (not the font's line box, which sits them ~3 px low).
    _, top, _, bottom = f.getbbox(text, anchor="ls")
    stamp_text(d, (x, y + dy - (top + bottom) / 2), text, f, ink, "ms", 2, halo)


def _star(d: ImageDraw.ImageDraw, center: tuple[float, float], r: float, fill: RGB | None, outline: RGB,
          width: int = 2) -> None:
    x, y = center
    pts = []
    for i in range(10):
        rad = r if i % 2 == 0 else r * 0.45
        a = -math.pi / 2 + i * math.pi / 5
        pts.append((x + rad * math.cos(a), y + rad * math.sin(a)))
    d.polygon(pts, fill=fill, outline=outline, width=width)


HQ_RING = BADGE_R + 11


def _hq_marks(d: ImageDraw.ImageDraw, lay: Layout, view: dict[str, Any], colors: dict[int, RGB]) -> None:
    """A large ring round each public headquarters' army badge and a star chip on it: gold while
    its owner holds it, in the old owner's colour once somebody took it. Drawn under the badges;
    the dark edges keep the ring visible on every owner colour (a small gold star on yellow land
    could not be seen at chat size)."""
    terr = view.get("territories", {})
    for p in view.get("players", []):
        hq = p.get("hq")
        if hq not in lay.anchors:
            continue
        x, y = lay.px(lay.anchors[hq])
        held = terr.get(hq, {}).get("owner") == p["seat"]
        mark = GOLD if held else colors.get(p["seat"], NEUTRAL)
        r = HQ_RING
        d.ellipse((x - r - 4, y - r - 4, x + r + 4, y + r + 4), outline=(16, 16, 20), width=10)
        d.ellipse((x - r - 1, y - r - 1, x + r + 1, y + r + 1), outline=mark, width=4)
        sx, sy = x + r * 0.72, y - r * 0.72
        d.ellipse((sx - 13, sy - 13, sx + 13, sy + 13), fill=(16, 16, 20), outline=WHITE, width=2)
        _star(d, (sx, sy), 10, mark, mark, 1)


def _curve(a: tuple[float, float], b: tuple[float, float], bend: float = 0.18) -> list[tuple[float, float]]:
    """A gentle arc from ``a`` to ``b`` (quadratic Bézier bent to the left of the direction)."""
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    dx, dy = b[0] - a[0], b[1] - a[1]
    cx, cy = mx - dy * bend, my + dx * bend
    n = 24
    return [((1 - s) ** 2 * a[0] + 2 * (1 - s) * s * cx + s * s * b[0],
             (1 - s) ** 2 * a[1] + 2 * (1 - s) * s * cy + s * s * b[1]) for s in (i / n for i in range(n + 1))]


def _trim(points: list[tuple[float, float]], start: float, end: float) -> list[tuple[float, float]]:
    """The polyline without its first ``start`` and last ``end`` pixels (measured along it)."""

    def cut_front(pts: list[tuple[float, float]], amount: float) -> list[tuple[float, float]]:
        while len(pts) >= 2 and amount > 0:
            seg = math.dist(pts[0], pts[1])
            if seg > amount:
                f = amount / seg
                return [(pts[0][0] + (pts[1][0] - pts[0][0]) * f, pts[0][1] + (pts[1][1] - pts[0][1]) * f)] + pts[1:]
            amount -= seg
            pts = pts[1:]
        return pts

    total = sum(math.dist(a, b) for a, b in zip(points, points[1:], strict=False))
    if total <= start + end + 4:
        return [points[0], points[-1]]
    out = cut_front(list(points), start)
    return cut_front(out[::-1], end)[::-1]


def _arrow(d: ImageDraw.ImageDraw, pts: list[tuple[float, float]], color: RGB, head: bool) -> None:
    """A thick arrow along ``pts``: the owner's colour in a white and a dark rim, so it shows on any
    land or sea; ``head`` ends it in a point at the last point."""
    length, half = 24.0, 12.0
    body = _trim(pts, 0, length - 3) if head else pts
    for width, fill in ((13, (16, 16, 20)), (9, WHITE), (5, color)):
        d.line(body, fill=fill, width=width, joint="curve")
    if not head:
        return
    tip = pts[-1]
    back = _trim(pts, 0, length)[-1]
    ang = math.atan2(tip[1] - back[1], tip[0] - back[0])
    ux, uy = math.cos(ang), math.sin(ang)
    base = (tip[0] - ux * length, tip[1] - uy * length)
    tri = [tip, (base[0] - uy * half, base[1] + ux * half), (base[0] + uy * half, base[1] - ux * half)]
    sides = [math.dist(tri[1], tri[2]), math.dist(tri[0], tri[2]), math.dist(tri[0], tri[1])]
    per = sum(sides)
    inc = (sum(s * p[0] for s, p in zip(sides, tri, strict=True)) / per,
           sum(s * p[1] for s, p in zip(sides, tri, strict=True)) / per)
    area = abs((tri[1][0] - tri[0][0]) * (tri[2][1] - tri[0][1]) - (tri[2][0] - tri[0][0]) * (tri[1][1] - tri[0][1])) / 2
    r = 2 * area / per
    for grow, fill in ((5.0, (16, 16, 20)), (2.5, WHITE), (0.0, color)):
        k = (r + grow) / r
        d.polygon([(inc[0] + (x - inc[0]) * k, inc[1] + (y - inc[1]) * k) for x, y in tri], fill=fill)


def battle_path(lay: Layout, frm: str, to: str) -> list[list[tuple[float, float]]]:
    """The drawn pieces of the attack arrow: an arc, or two straight halves when the attack
    follows a route that wraps round the map edge (Alaska–Kamchatka)."""
    w = float(lay.size[0])
    edge_routes = {(a, b): edge for a, b, _, edge in route_segments(lay) if edge[0] in (0.0, w)}
    if (frm, to) in edge_routes and (to, frm) in edge_routes:
        return [[lay.px(lay.anchors[frm]), edge_routes[(frm, to)]],
                [edge_routes[(to, frm)], lay.px(lay.anchors[to])]]
    return [_curve(lay.px(lay.anchors[frm]), lay.px(lay.anchors[to]))]


def _last_battle(d: ImageDraw.ImageDraw, lay: Layout, view: dict[str, Any], colors: dict[int, RGB]) -> None:
    lb = view.get("last_battle")
    if not lb or lb.get("from") not in lay.anchors or lb.get("to") not in lay.anchors:
        return
    terr = view.get("territories", {})
    attacker = terr.get(lb["from"], {}).get("owner", -1)
    color = colors.get(attacker, NEUTRAL)
    pieces = battle_path(lay, lb["from"], lb["to"])
    for i, pts in enumerate(pieces):
        start = BADGE_R + 6 if i == 0 else 0
        end = BADGE_R + 8 if i == len(pieces) - 1 else 0
        _arrow(d, _trim(pts, start, end), color, head=i == len(pieces) - 1)
    if lb.get("conquered"):
        x, y = lay.px(lay.anchors[lb["to"]])
        r = BADGE_R + 7
        d.ellipse((x - r - 2, y - r - 2, x + r + 2, y + r + 2), outline=(16, 16, 20), width=7)
        d.ellipse((x - r, y - r, x + r, y + r), outline=GOLD, width=3)


def _highlights(d: ImageDraw.ImageDraw, lay: Layout, overlay: dict[str, Any] | None) -> None:
    for tid in (overlay or {}).get("highlight", []) or []:
        if tid in lay.anchors:
            x, y = lay.px(lay.anchors[tid])
            r = BADGE_R + 5
            d.ellipse((x - r, y - r, x + r, y + r), outline=WHITE, width=3)


def _continent_holders(d: ImageDraw.ImageDraw, lay: Layout, view: dict[str, Any], colors: dict[int, RGB]) -> None:
    terr = view.get("territories", {})
    for i, (_, spec) in enumerate(lay.continents.items()):
        owners = {terr.get(tid, {}).get("owner") for tid in spec["territories"]}
        owner = owners.pop() if len(owners) == 1 else None
        if isinstance(owner, int) and owner >= 0:
            x, y = bonus_holder_spot(i)
            draw_marker(d, owner, (x, y), 6, 8, colors.get(owner, NEUTRAL))


# ---------------------------------------------------------------------------------------------
# Legend band

def legend_row_h(rows: int) -> int:
    """Height of one legend row: as tall as the band allows (up to 34 px), so with few players the
    names and counts are drawn larger and stay readable when the picture is shown 550 px wide."""
    return min(34, (BAND_H - 40) // max(1, rows))


COLS = {"swatch": 36, "name": 56, "territories": 470, "armies": 570, "cards": 650, "notes": 680}
STATUS_X = 930


def _players(d: ImageDraw.ImageDraw, top: int, view: dict[str, Any], locale: str, names: Sequence[str],
             colors: dict[int, RGB], lay: Layout) -> None:
    head = top + 10
    rows: list[dict[str, Any]] = [dict(p) for p in view.get("players", [])]
    columns = [("player", COLS["name"], "la"), ("territories", COLS["territories"], "ra"),
               ("armies", COLS["armies"], "ra"), ("cards", COLS["cards"], "ra")]
    if any(not p.get("alive", True) or p.get("hq") or p.get("hqs_captured") for p in rows):
        columns.append(("notes", COLS["notes"] + 12, "la"))
    for key, x, anchor in columns:
        draw_text(d, (x, head), t(locale, f"riskmap.legend.{key}"), 14, MUTED, anchor=anchor)
    terr = view.get("territories", {})
    neutral = [v for v in terr.values() if v.get("owner") == -1]
    if neutral:
        rows.append({"seat": -1, "territories": len(neutral), "armies": sum(v["armies"] for v in neutral),
                     "cards": None, "alive": True})
    over = view.get("phase") == "over" or bool(view.get("winners"))
    winners = set(view.get("winners") or [])
    row_h = legend_row_h(len(rows))
    text_size = min(22, row_h - 6)
    for i, p in enumerate(rows):
        y = top + 34 + i * row_h
        cy = y + row_h / 2
        seat = p["seat"]
        strong = colors.get(seat, NEUTRAL)
        alive = p.get("alive", True)
        if over and seat in winners:
            # The end screen's first question is who won: the winners' rows are gold.
            d.rounded_rectangle((10, y + 1, 900, y + row_h - 1), radius=6, fill=mix(PAPER, GOLD, 0.6),
                                outline=darken(GOLD, 0.45), width=2)
        elif seat == view.get("turn") and seat >= 0 and not over:
            d.rounded_rectangle((10, y + 1, 900, y + row_h - 1), radius=6, fill=mix(PAPER, strong, 0.22))
            d.polygon([(11, cy - 6), (19, cy), (11, cy + 6)], fill=darken(strong, 0.2))
        draw_marker(d, seat, (COLS["swatch"], cy), 7, 9, strong, rim=WHITE, edge=INK)
        ink = INK if alive else MUTED
        label = t(locale, "riskmap.legend.neutral") if seat < 0 else _seat_name(locale, names, seat)
        label, size = text_fit(label, COLS["territories"] - COLS["name"] - 90, text_size, bold=True, min_size=12)
        width = draw_text(d, (COLS["name"], cy), label, size, ink, bold=True, anchor="lm")
        if not alive:
            d.line([(COLS["name"], cy + 1), (COLS["name"] + width, cy + 1)], fill=MUTED, width=2)
        for key in ("territories", "armies", "cards"):
            value = p.get(key)
            if isinstance(value, list | tuple | dict):
                value = len(value)  # only ever a count: a hand must not reach the picture
            if isinstance(value, int):
                draw_text(d, (COLS[key], cy), str(value), text_size, ink, anchor="rm")
        notes = []
        if not alive:
            notes.append(t(locale, "riskmap.legend.out"))
        hq = p.get("hq")
        held = hq in lay.anchors and terr.get(hq, {}).get("owner") == seat
        if hq in lay.anchors:
            notes.append(t(locale, "riskmap.legend.hq" if held else "riskmap.legend.hq_lost",
                           name=name(locale, "territory", hq)))
        if p.get("hqs_captured"):
            notes.append(t(locale, "riskmap.legend.hqs_captured", n=len(p["hqs_captured"])))
        if notes:
            x = COLS["notes"] + 12
            if hq in lay.anchors:
                # The same star as on the map: gold while held, the owner's colour once lost.
                _star(d, (x + 7, cy), 8, GOLD if held else strong, darken(GOLD, 0.45) if held else INK, 1)
                x += 16
            text, size = text_fit(" · ".join(notes), 900 - x - 8, 14, min_size=11)
            draw_text(d, (x, cy), text, size, ink, anchor="lm")


def _die(d: ImageDraw.ImageDraw, x: float, y: float, value: int, red: bool) -> None:
    s = 24
    face = (200, 40, 40) if red else (250, 250, 250)
    pip = WHITE if red else INK
    d.rounded_rectangle((x, y, x + s, y + s), radius=5, fill=face, outline=(40, 40, 40), width=1)
    spots = {1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)], 4: [(0, 0), (2, 0), (0, 2), (2, 2)],
             5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)], 6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)]}
    for gx, gy in spots.get(value, []):
        cx, cy = x + 6 + gx * 6, y + 6 + gy * 6
        d.ellipse((cx - 2.2, cy - 2.2, cx + 2.2, cy + 2.2), fill=pip)


def _status(d: ImageDraw.ImageDraw, top: int, view: dict[str, Any], locale: str, names: Sequence[str],
            colors: dict[int, RGB], width: int) -> None:
    x = STATUS_X
    maxw = width - x - 16
    d.line([(x - 18, top + 10), (x - 18, top + BAND_H - 14)], fill=(210, 204, 190), width=2)
    y = top + 12
    phase = str(view.get("phase") or "")
    winners = view.get("winners")
    if phase == "over" or winners:
        who = ", ".join(_seat_name(locale, names, s) for s in (winners or []))
        text = t(locale, "riskmap.status.winners", names=who) if who else t(locale, "riskmap.status.game_over")
        text, size = text_fit(text, maxw, 22, bold=True, min_size=14)
        draw_text(d, (x, y), text, size, INK, bold=True)
    else:
        seat = view.get("turn", -1)
        who = _seat_name(locale, names, seat) if isinstance(seat, int) and seat >= 0 else ""
        text = t(locale, "riskmap.status.turn", phase=name(locale, "phase", phase), player=who)
        if isinstance(seat, int):
            draw_marker(d, seat, (x + 11, y + 14), 6, 8, colors.get(seat, NEUTRAL), rim=WHITE, edge=INK)
        text, size = text_fit(text, maxw - 30, 20, bold=True, min_size=13)
        draw_text(d, (x + 30, y), text, size, INK, bold=True)
    y += 34
    rnd = view.get("round")
    parts = [t(locale, "riskmap.status.round", round=rnd)] if isinstance(rnd, int) and rnd > 0 else []
    if phase == "reinforce" and view.get("reinforcements_left"):
        parts.append(t(locale, "riskmap.status.reinforcements", n=view["reinforcements_left"]))
    elif phase.startswith("setup"):
        turn = view.get("turn")
        players = view.get("players", [])
        if isinstance(turn, int) and 0 <= turn < len(players) and players[turn].get("to_place"):
            parts.append(t(locale, "riskmap.status.reinforcements", n=players[turn]["to_place"]))
    text, size = text_fit(" · ".join(parts), maxw, 16, min_size=12)
    draw_text(d, (x, y), text, size, INK)
    y += 26
    if "next_trade_value" in view and phase != "over" and not winners:
        # Only while cards can still be traded: on the end screen it is noise.
        draw_text(d, (x, y), t(locale, "riskmap.status.next_trade", n=view["next_trade_value"]), 16, INK)
        y += 30
    lb = view.get("last_battle")
    if lb and lb.get("from") and lb.get("to"):
        text = t(locale, "riskmap.status.battle", **{"from": name(locale, "territory", lb["from"]),
                                                       "to": name(locale, "territory", lb["to"])})
        text, size = text_fit(text, maxw, 15, min_size=11)
        draw_text(d, (x, y), text, size, INK)
        y += 24
        dx = x
        for v in lb.get("att_dice", []):
            _die(d, dx, y, int(v), True)
            dx += 28
        dx += 10
        draw_text(d, (dx, y + 12), "vs", 13, MUTED, anchor="lm")
        dx += 24
        for v in lb.get("def_dice", []):
            _die(d, dx, y, int(v), False)
            dx += 28
        dx += 12
        loss = t(locale, "riskmap.status.losses", att=lb.get("att_loss", 0), **{"def": lb.get("def_loss", 0)})
        if lb.get("conquered"):
            loss += "  " + t(locale, "riskmap.status.conquered")
        loss, size = text_fit(loss, width - dx - 12, 14, min_size=10)
        draw_text(d, (dx, y + 12), loss, size, INK, bold=bool(lb.get("conquered")), anchor="lm")
        y += 32
    fights = view.get("turn_summary") or []
    if fights and phase != "over":
        text = t(locale, "riskmap.status.turn_battles", attacks=len(fights),
                 conquered=sum(1 for f in fights if f.get("conquered")),
                 att=sum(int(f.get("att_loss", 0)) for f in fights),
                 **{"def": sum(int(f.get("def_loss", 0)) for f in fights)})
        text, size = text_fit(text, maxw, 14, min_size=10)
        draw_text(d, (x, y), text, size, MUTED)


# ---------------------------------------------------------------------------------------------


#: Map bases kept (all locales, most recent first): a few matches rendered in turn hit them, and
#: each is 5.6 MB, so the cache stays at about 34 MB however many matches a process hosts.
BASE_CACHE_SIZE = 6
#: Past this many territories of a different colour a base is rebuilt whole instead of patched:
#: never, as measured (bench/bench_click.py): a territory's patch costs ~0.2 ms, so patching all
#: 42 (~9 ms) still beats composing the map whole (~13 ms).
PATCH_LIMIT = 42
_bases: LayerCache[tuple[str, tuple[RGB, ...]], Image.Image] = LayerCache(BASE_CACHE_SIZE)


def _fills(lay: Layout, view: dict[str, Any], colors: dict[int, RGB]) -> tuple[RGB, ...]:
    """Every territory's fill colour in label order: all a map base depends on, besides the locale."""
    terr = view.get("territories", {})
    out = []
    for tid in lay.territories:
        owner = terr.get(tid, {}).get("owner")
        out.append(UNCLAIMED if owner is None else fill_of(colors.get(owner, NEUTRAL)))
    return tuple(out)


def _palette(fills: tuple[RGB, ...]) -> list[int]:
    pal = list(SEA_INDEX_COLOR)
    for rgb in fills:
        pal += rgb
    return pal + [0] * (768 - len(pal))


@lru_cache(maxsize=1)
def territory_boxes() -> tuple[tuple[int, int, int, int], ...]:
    """The pixel box of each territory's label (label order), to redraw one territory alone."""
    labels = label_index_image()
    boxes = []
    for k in range(1, len(layout().territories) + 1):
        boxes.append(labels.point(lambda v, k=k: 255 if v == k else 0).getbbox() or (0, 0, 1, 1))
    return tuple(boxes)


def _under_names(locale: str, fills: tuple[RGB, ...], box: tuple[int, int, int, int]) -> Image.Image:
    """The map inside ``box`` before the territory names: the recoloured labels under the static
    layer (RGBA). A whole-map call is the old per-render composite."""
    labels = label_index_image().crop(box)
    labels.putpalette(_palette(fills))
    return Image.alpha_composite(labels.convert("RGBA"), static_layer(locale).crop(box))


def _with_names(locale: str, region: Image.Image, box: tuple[int, int, int, int]) -> Image.Image:
    """``region`` (the map inside ``box``, RGBA) with the territory names laid over it, as RGB."""
    names_img, nbox = name_layer(locale)
    x0, y0 = max(box[0], nbox[0]), max(box[1], nbox[1])
    x1, y1 = min(box[2], nbox[2]), min(box[3], nbox[3])
    if x0 < x1 and y0 < y1:
        region.alpha_composite(names_img, (x0 - box[0], y0 - box[1]),
                               (x0 - nbox[0], y0 - nbox[1], x1 - nbox[0], y1 - nbox[1]))
    return region.convert("RGB")


def map_base(locale: str, fills: tuple[RGB, ...]) -> Image.Image:
    """The map with owner colours and names, without anything a turn adds (shared: copy it).

    This composite of the whole picture was the largest cost of a render. A game changes a few
    owners between two pictures, so the base of the same locale with the fewest different
    territories is patched (each changed territory's box recomposed exactly as the whole would
    be); a base far from every cached one is composed whole.
    """
    cached = [(key[1], img) for key, img in _bases.entries() if key[0] == locale]
    best: tuple[list[int], Image.Image] | None = None
    for key, img in cached:
        diff = [i for i, (a, b) in enumerate(zip(key, fills, strict=True)) if a != b]
        if len(diff) <= PATCH_LIMIT and (best is None or len(diff) < len(best[0])):
            best = (diff, img)
        if not diff:
            break
    size = static_layer(locale).size
    if best is not None and not best[0]:
        base = best[1]
    elif best is None:
        whole = (0, 0, *size)
        base = _with_names(locale, _under_names(locale, fills, whole), whole)
    else:
        base = best[1].copy()
        boxes = territory_boxes()
        for i in best[0]:
            box = boxes[i]
            base.paste(_with_names(locale, _under_names(locale, fills, box), box), box[:2])
    _bases.put((locale, fills), base)
    return base


def _dirty_box(lay: Layout, view: dict[str, Any], overlay: dict[str, Any] | None,
               size: tuple[int, int]) -> tuple[int, int, int, int] | None:
    """A box holding everything drawn under the territory names (highlight rings, the battle
    arrow), or None when there is nothing. Generous: it only bounds what is redrawn."""
    points: list[tuple[float, float]] = []
    for tid in (overlay or {}).get("highlight", []) or []:
        if tid in lay.anchors:
            points.append(lay.px(lay.anchors[tid]))
    lb = view.get("last_battle")
    if lb and lb.get("from") in lay.anchors and lb.get("to") in lay.anchors:
        for piece in battle_path(lay, lb["from"], lb["to"]):
            points.extend(piece)
    if not points:
        return None
    pad = BADGE_R + 40
    x0 = max(0, int(min(x for x, _ in points)) - pad)
    y0 = max(0, int(min(y for _, y in points)) - pad)
    x1 = min(size[0], int(max(x for x, _ in points)) + pad + 1)
    y1 = min(size[1], int(max(y for _, y in points)) + pad + 1)
    return (x0, y0, x1, y1) if x0 < x1 and y0 < y1 else None


def render_image(view: dict[str, Any], locale: str, names: Sequence[str],
                 overlay: dict[str, Any] | None = None) -> Image.Image:
    """The picture as a Pillow image (RGB); :func:`render` encodes it.

    Drawn over a cached :func:`map_base`; the highlight rings and the battle arrow go under the
    names, so only their box is recomposed (map, marks, names) instead of the whole picture.
    """
    lay = layout()
    locale = normalize_locale(locale)
    colors = owner_colors(view)
    fills = _fills(lay, view, colors)
    img = map_base(locale, fills).copy()
    d = ImageDraw.Draw(img)
    box = _dirty_box(lay, view, overlay, img.size)
    if box is not None:
        under = _under_names(locale, fills, box)
        img.paste(under.convert("RGB"), box[:2])
        _highlights(d, lay, overlay)
        _last_battle(d, lay, view, colors)
        img.paste(_with_names(locale, img.crop(box).convert("RGBA"), box), box[:2])
    _foreground(d, lay, view, locale, names, colors)
    return img


def _foreground(d: ImageDraw.ImageDraw, lay: Any, view: dict[str, Any], locale: str, names: Sequence[str],
                colors: dict[int, RGB]) -> None:
    """What is drawn over the map whichever way it was composed: HQ rings, army badges,
    continent holders, the player list and the status panel."""
    terr = view.get("territories", {})
    _hq_marks(d, lay, view, colors)
    for tid in lay.territories:
        info = terr.get(tid)
        if info is None or info.get("owner") is None:
            continue
        owner = info.get("owner", -1)
        _badge(d, lay.px(lay.anchors[tid]), int(info.get("armies", 0)), owner, colors.get(owner, NEUTRAL))
    _continent_holders(d, lay, view, colors)
    top = lay.size[1] + 4
    _players(d, top, view, locale, names, colors, lay)
    _status(d, top, view, locale, names, colors, lay.size[0])


def render_image_reference(view: dict[str, Any], locale: str, names: Sequence[str],
                           overlay: dict[str, Any] | None = None) -> Image.Image:
    """The same picture composed whole, without any cached base: the reference the cached path
    must equal pixel for pixel (tests/render/test_risk_render_cache.py)."""
    lay = layout()
    locale = normalize_locale(locale)
    colors = owner_colors(view)
    whole = (0, 0, *static_layer(locale).size)
    img = _under_names(locale, _fills(lay, view, colors), whole)
    d = ImageDraw.Draw(img)
    _highlights(d, lay, overlay)
    _last_battle(d, lay, view, colors)
    names_img, box = name_layer(locale)
    img.alpha_composite(names_img, box[:2])
    _foreground(ImageDraw.Draw(img), lay, view, locale, names, colors)
    return img.convert("RGB")


def prepare(locales: Sequence[str] = LOCALES) -> None:
    """Build the cached map layers now (about a second) instead of on the first render."""
    for loc in locales:
        static_layer(normalize_locale(loc))
        name_layer(normalize_locale(loc))
    label_index_image()
    territory_boxes()  # ~30 ms the first time a base is patched


def render(view: dict[str, Any], locale: str, names: list[str], overlay: dict[str, Any] | None = None) -> bytes:
    """The Risk board as a PNG (see the module docstring for what is drawn)."""
    return to_png(render_image(view, locale, names, overlay))
