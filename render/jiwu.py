"""极武三国 pictures: the board with the market row (thread posts) and a seat's own hand (DM panel).

Everything the thread shows is drawn from ``view(state, None)``: hands, 计策 cards, decks and
discard piles are only counted there, so two games that differ only in hidden cards give the same
bytes (tests/render/test_jiwu_render.py). :func:`render_hand` reads the seat's own ``view["you"]``
and is sent to that seat only.

The board is our design (data/jiwu/board.json, docs/rules/jiwu.md); the seed gives no positions,
so the region boxes sit where the places lie on a map of Han China (west left, the Yangtze low)
in :data:`POS`. Roads are lines between boxes with their path slots spaced along them; regions
closed at this player count are drawn faded and dashed, as the rule book's dashed areas. A region
box shows its name, its end-game 功勋, its slots (soldiers in the seat's colour AND marker shape,
grey houses for neutral soldiers, generals with a gold rim), the spies at it along its lower edge,
a gold "城" tag when it carries a 城池卡 (filled with the holder's colour and shape once held),
and black start regions in black.

Every number read at a glance (功勋, supply, costs) is bold >= 24 px on a 1000 px picture, so it
stays >= 9 px tall when Discord shows it 550 px wide (tests/render/test_digit_height.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from engines.jiwu.data import board, card
from i18n import t
from render.common import (
    BACKGROUND,
    INK,
    MUTED,
    NEUTRAL,
    RGB,
    darken,
    draw_text,
    lighten,
    text_color_on,
    text_fit,
    text_width,
    to_png,
)
from render.jiwu_text import card_name, card_text, seat_name
from render.layers import LayerCache
from render.risk import COLOR_NAMES, color_of, draw_marker

Box = tuple[float, float, float, float]
Point = tuple[float, float]

WIDTH = 1000
MARGIN = 12
HEADER_H = 42
ROW_H = 40
BOARD_H = 880
BOX_W, BOX_H = 128, 66
SLOT_R = 11
SLOT_STEP = 24
#: Bold sizes of the numbers read at a glance (>= 9 px tall at 550 px wide).
SCORE_SIZE = 28
VP_SIZE = 24
COST_SIZE = 26
NAME_SIZE = 19
TEXT_SIZE = 20
SMALL_SIZE = 18

PAPER: RGB = (238, 226, 196)
ROAD: RGB = (150, 112, 70)
BOX_FILL: RGB = (255, 251, 240)
BOX_EDGE: RGB = (120, 96, 60)
START_FILL: RGB = (34, 34, 34)
CLOSED: RGB = (214, 205, 182)
GOLD: RGB = (222, 168, 30)
EMPTY: RGB = (255, 255, 255)
WATER: RGB = (120, 170, 215)
ASPECT_COLOR: dict[str, RGB] = {"wu": (200, 70, 55), "zhi": (60, 115, 205), "tong": (215, 165, 35),
                                "qi": (70, 150, 90), "": (150, 140, 120)}
KEEP = (PAPER, ROAD, BOX_FILL, BOX_EDGE, START_FILL, CLOSED, GOLD, WATER, *ASPECT_COLOR.values())

#: Region box centres on the board (x, y in a WIDTH x BOARD_H frame), roughly where the places lie.
POS: dict[str, Point] = {
    "wuwei": (70, 60), "tianshui": (72, 285), "changan": (228, 170), "hanzhong": (215, 360),
    "chengdu": (75, 500), "yongan": (240, 600), "nanzhong": (75, 810),
    "yecheng": (610, 56), "beihai": (920, 60), "luoyang": (428, 132), "guandu": (755, 165),
    "chenliu": (590, 240), "wancheng": (365, 300), "xuchang": (525, 375), "xiapi": (905, 265),
    "runan": (690, 420), "shouchun": (880, 440), "xiangyang": (395, 490), "jiangling": (430, 655),
    "changsha": (500, 815), "hefei": (920, 580), "lujiang": (740, 560), "chaisang": (700, 720),
    "jianye": (905, 710), "wujun": (930, 838), "kuaiji": (770, 838),
}


def _r(locale: str, key: str, **params: Any) -> str:
    return t(locale, f"jiwu.render.{key}", **params)


def seat_color(view: dict[str, Any], seat: int | None) -> tuple[RGB, int]:
    """A seat's colour and the marker shape that goes with that colour (neutral: grey house)."""
    players = view.get("players", [])
    if seat is None or not isinstance(seat, int) or not 0 <= seat < len(players):
        return NEUTRAL, -1
    name = players[seat].get("color", "")
    return color_of(name, seat), COLOR_NAMES.index(name) if name in COLOR_NAMES else seat


def _ink_of(color: RGB) -> RGB:
    """Seat colour as text on a light ground (yellow darkened so it reads)."""
    return darken(color, 0.3) if color[0] > 200 and color[1] > 200 else color


def piece(d: ImageDraw.ImageDraw, view: dict[str, Any], seat: int | None, at: Point, r: float,
          general: bool = False) -> None:
    """A soldier: the seat's marker shape in its colour; neutral ones are grey houses; a general
    is the same marker, larger, with a gold rim."""
    color, shape = seat_color(view, seat)
    rim = GOLD if general else (255, 255, 255)
    grow = 1.25 if general else 1.0
    draw_marker(d, shape, at, r * 0.68 * grow, r * 0.68 * grow, color, rim=rim)


# --------------------------------------------------------------------------- wrapping

def _tokens(text: str) -> list[str]:
    """Words for wrapping: latin words keep their trailing space, each CJK character stands alone."""
    out: list[str] = []
    word = ""
    for ch in text:
        if ord(ch) >= 0x2E80:
            if word:
                out.append(word)
                word = ""
            out.append(ch)
        elif ch == " ":
            out.append(word + " ")
            word = ""
        else:
            word += ch
    if word:
        out.append(word)
    return out


def wrap(text: str, width: float, size: int, max_lines: int, min_size: int = 13,
         bold: bool = False) -> tuple[list[str], int]:
    """``text`` in at most ``max_lines`` lines of ``width``, at the largest size down to
    ``min_size`` where it fits; past that the last line ends with an ellipsis."""
    words = _tokens(text)
    for s in range(size, min_size - 1, -1):
        lines: list[str] = []
        cur = ""
        for w in words:
            if cur and text_width((cur + w).rstrip(), s, bold) > width:
                lines.append(cur.rstrip())
                cur = w.lstrip() if w.strip() else ""
            else:
                cur += w
        if cur.strip():
            lines.append(cur.rstrip())
        if len(lines) <= max_lines:
            return lines, s
    kept = lines[:max_lines]
    rest = "".join(lines[max_lines - 1:])
    kept[-1] = text_fit(rest, width, min_size, bold, min_size)[0]
    return kept, min_size


# --------------------------------------------------------------------------- board geometry

def _box(region: str, top: float) -> Box:
    x, y = POS[region]
    return (x - BOX_W / 2, top + y - BOX_H / 2, x + BOX_W / 2, top + y + BOX_H / 2)


def _exit(a: Point, b: Point, pad: float) -> float:
    """How far along a→b (0..1) the segment leaves the box centred on ``a`` (plus ``pad``)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    tx = (BOX_W / 2 + pad) / abs(dx) if dx else 9.0
    ty = (BOX_H / 2 + pad) / abs(dy) if dy else 9.0
    return min(tx, ty, 0.5)


@lru_cache(maxsize=4)
def path_points(top: float) -> dict[str, tuple[Point, Point, tuple[Point, ...]]]:
    """Per path: its two end points (box centres) and its slots' centres, spaced evenly along the
    stretch of road between the two boxes (slot 0 nearest the ``a`` end, as in the engine)."""
    out = {}
    for pid, p in board().paths.items():
        a = (POS[p.a][0], POS[p.a][1] + top)
        b = (POS[p.b][0], POS[p.b][1] + top)
        t0 = _exit(a, b, 0)
        t1 = 1 - _exit(b, a, 0)
        length = ((b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2) ** 0.5
        # slots 26 px apart (closer only on a short road), centred on the stretch between boxes
        step = min(26 / length, (t1 - t0) / (p.slots + 0.6)) if p.slots else 0.0
        mid = (t0 + t1) / 2
        pts = tuple((a[0] + (b[0] - a[0]) * tt, a[1] + (b[1] - a[1]) * tt)
                    for tt in (mid + (i - (p.slots - 1) / 2) * step for i in range(p.slots)))
        out[pid] = (a, b, pts)
    return out


def slot_points(region: str, top: float) -> list[Point]:
    n = board().regions[region].slots
    x, y = POS[region]
    x0 = x - (n - 1) * SLOT_STEP / 2
    return [(x0 + i * SLOT_STEP, top + y + 12) for i in range(n)]


def _dashed(d: ImageDraw.ImageDraw, a: Point, b: Point, fill: RGB, width: int, dash: float = 9) -> None:
    length = max(1.0, ((b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2) ** 0.5)
    n = int(length // dash)
    for i in range(0, n, 2):
        s, e = i / n, min(1.0, (i + 1) / n)
        d.line([(a[0] + (b[0] - a[0]) * s, a[1] + (b[1] - a[1]) * s),
                (a[0] + (b[0] - a[0]) * e, a[1] + (b[1] - a[1]) * e)], fill=fill, width=width)


def _dashed_box(d: ImageDraw.ImageDraw, box: Box, fill: RGB) -> None:
    x0, y0, x1, y1 = box
    for a, b in (((x0, y0), (x1, y0)), ((x1, y0), (x1, y1)), ((x1, y1), (x0, y1)), ((x0, y1), (x0, y0))):
        _dashed(d, a, b, fill, 2, 7)


def _open_regions(view: dict[str, Any]) -> set[str]:
    return {s.split(".", 1)[0] for s in view["slots"] if s.split(".", 1)[0] in board().regions}


def _general_card(view: dict[str, Any], seat: int, iid: str) -> str:
    for p in view["players"]:
        if p["seat"] == seat and iid in p["generals"]:
            return str(p["generals"][iid]["card"])
    return ""


def _draw_board(img: Image.Image, view: dict[str, Any], locale: str, top: int) -> None:
    """Paper, river and roads (one cached layer per open regions and header height), the road
    slots, then region by region its box (a cached sprite pasted through its own footprint, or
    drawn) with its slots, spies and 城池卡 tag: the order of the picture drawn whole, so the pixels
    are the same (tests/render/test_jiwu_render.py)."""
    open_ = frozenset(_open_regions(view))
    d = ImageDraw.Draw(img)
    if LAYER_CACHE:
        img.paste(_ground(open_, top), (0, top))
    else:
        _draw_ground(d, open_, top)
    b = board()
    paths = path_points(top)
    for pid, p in b.paths.items():
        if not (p.a in open_ and p.b in open_):
            continue
        for i, at in enumerate(paths[pid][2]):
            _slot(d, view, f"{pid}.{i}", at)
    for rid, r in b.regions.items():
        if LAYER_CACHE:
            sprite, mask, at = _box_sprite(locale, rid, rid in open_, top)
            img.paste(sprite, at, mask)
        else:
            _draw_box(d, locale, rid, rid in open_, top)
        if rid not in open_:
            continue
        box = _box(rid, top)
        for i, at in enumerate(slot_points(rid, top)):
            _slot(d, view, f"{rid}.{i}", at)
        spies = view["spies"].get(rid, [])
        for k, seat in enumerate(spies):
            sx = box[0] + 12 + k * 17
            color, shape = seat_color(view, seat)
            draw_marker(d, shape, (sx, box[3]), 5, 5, color, rim=(255, 255, 255), edge=INK)
        if r.city:
            _city_tag(d, view, locale, (box[0] - 6, box[1] - 18), view["cities"].get(rid), r.city)


#: Whether pictures start from cached layers, sprites and card faces (tests turn it off to get
#: the picture drawn whole).
LAYER_CACHE = True
#: Paper, river and roads per (open regions, header height): ~2.6 MB each; a process needs one
#: per player count.
_GROUNDS: LayerCache[tuple[frozenset[str], int], Image.Image] = LayerCache(4)


def _ground(open_: frozenset[str], top: int) -> Image.Image:
    """The board's paper, river and roads, drawn at their place in a picture (so
    the pixels are those of a picture drawn whole) and cached."""
    key = (open_, top)
    for k, img in _GROUNDS.entries():
        if k == key:
            return img
    canvas = Image.new("RGB", (WIDTH, top + BOARD_H + 1), BACKGROUND)  # the paper's box takes BOARD_H + 1 rows
    _draw_ground(ImageDraw.Draw(canvas), open_, top)
    ground = canvas.crop((0, top, WIDTH, top + BOARD_H + 1))
    _GROUNDS.put(key, ground)
    return ground


def _draw_ground(d: ImageDraw.ImageDraw, open_: frozenset[str], top: int) -> None:
    d.rectangle((0, top, WIDTH, top + BOARD_H), fill=PAPER)
    # The Yangtze, under everything: a hint of geography, drawn as a soft band.
    river = [(250, 640), (330, 600), (470, 655), (620, 690), (740, 660), (850, 620), (1000, 640)]
    d.line([(x, y + top) for x, y in river], fill=lighten(WATER, 0.35), width=14, joint="curve")
    paths = path_points(top)
    for pid, p in board().paths.items():
        a, e, _pts = paths[pid]
        if p.a in open_ and p.b in open_:
            d.line([a, e], fill=ROAD, width=5)
        else:
            _dashed(d, a, e, CLOSED, 4)


def _draw_box(d: ImageDraw.ImageDraw, locale: str, rid: str, is_open: bool, top: int,
              footprint: bool = False) -> None:
    """A region's box: name and 功勋 badge, or faded and dashed when closed at this player count.
    ``footprint`` draws the pixels it covers in white instead (the box is opaque there)."""
    box = _box(rid, top)
    r = board().regions[rid]
    name = t(locale, f"jiwu_names.region.{rid}")
    if not is_open:
        d.rounded_rectangle(box, radius=8, fill=255 if footprint else lighten(CLOSED, 0.3))
        _dashed_box(d, box, 255 if footprint else darken(CLOSED, 0.2))  # type: ignore[arg-type]
        if not footprint:
            fitted, size = text_fit(name, BOX_W - 12, NAME_SIZE, True, 12)
            draw_text(d, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), fitted, size, darken(CLOSED, 0.3),
                      True, "mm")
        return
    fill = START_FILL if r.start else BOX_FILL
    ink = (255, 255, 255) if r.start else INK
    edge = GOLD if r.city else BOX_EDGE
    if footprint:
        d.rounded_rectangle(box, radius=8, fill=255, outline=255, width=4 if r.city else 2)
        return
    d.rounded_rectangle(box, radius=8, fill=fill, outline=edge, width=4 if r.city else 2)
    badge = VP_SIZE + 4
    fitted, size = text_fit(name, BOX_W - badge - 12, NAME_SIZE, True, 12)
    draw_text(d, (box[0] + 7, box[1] + 16), fitted, size, ink, True, "lm")
    # End-game 功勋 in a round badge, top right.
    cx, cy = box[2] - badge / 2 - 3, box[1] + 16
    d.ellipse((cx - badge / 2, cy - badge / 2, cx + badge / 2, cy + badge / 2), fill=ink)
    draw_text(d, (cx, cy), str(r.vp), VP_SIZE - 2, fill, True, "mm")


@lru_cache(maxsize=4 * 26 * 6)
def _box_sprite(locale: str, rid: str, is_open: bool, top: int) -> tuple[Image.Image, Image.Image, tuple[int, int]]:
    """A region's box drawn at its place, cut out with the mask of the pixels it covers, and where
    it goes: pasted through the mask it gives the pixels of drawing it there."""
    box = _box(rid, top)
    bounds = (int(box[0]) - 4, int(box[1]) - 4, int(box[2]) + 5, int(box[3]) + 5)
    canvas = Image.new("RGB", (WIDTH, top + BOARD_H), BACKGROUND)
    _draw_box(ImageDraw.Draw(canvas), locale, rid, is_open, top)
    mask = Image.new("L", canvas.size, 0)
    _draw_box(ImageDraw.Draw(mask), locale, rid, is_open, top, footprint=True)
    return canvas.crop(bounds), mask.crop(bounds), bounds[:2]


def _slot(d: ImageDraw.ImageDraw, view: dict[str, Any], slot: str, at: Point) -> None:
    occ = view["slots"].get(slot)
    if occ is None:
        d.ellipse((at[0] - SLOT_R, at[1] - SLOT_R, at[0] + SLOT_R, at[1] + SLOT_R), fill=EMPTY, outline=BOX_EDGE,
                  width=2)
        return
    owner, general = int(occ[0]), occ[1]
    piece(d, view, owner if owner >= 0 else None, at, SLOT_R + 1, general=bool(general))


def _city_tag(d: ImageDraw.ImageDraw, view: dict[str, Any], locale: str, at: Point, holder: int | None,
              vp: int) -> None:
    text = _r(locale, "city", n=vp)
    w = text_width(text, 15, True) + 12 + (16 if holder is not None else 0)
    x, y = at
    fill, _ = seat_color(view, holder) if holder is not None else (GOLD, -1)
    d.rounded_rectangle((x, y, x + w, y + 22), radius=6, fill=fill, outline=darken(GOLD, 0.4), width=2)
    tx = x + 6
    if holder is not None:
        color, shape = seat_color(view, holder)
        draw_marker(d, shape, (tx + 6, y + 11), 5, 5, color, rim=(255, 255, 255))
        tx += 16
    draw_text(d, (tx, y + 11), text, 15, text_color_on(fill), True, "lm")


# --------------------------------------------------------------------------- header

def _vp(p: dict[str, Any]) -> int:
    return int(sum(p["vp"].values()))


def _header(d: ImageDraw.ImageDraw, view: dict[str, Any], locale: str, names: Sequence[str]) -> float:
    """Whose turn (or the result), then one row per player; returns the height used."""
    y = 0.0
    over = view["phase"] == "over"
    if over:
        who = ", ".join(seat_name(view, locale, names, s) for s in view.get("winners") or [])
        head = _r(locale, "over", players=who)
    elif view["phase"] == "duel" and view.get("duel"):
        duel = view["duel"]
        head = _r(locale, "duel", round=duel["round"])
    elif view["phase"] == "setup":
        head = _r(locale, "setup", player=seat_name(view, locale, names, view["turn"]))
    else:
        head = _r(locale, "turn", player=seat_name(view, locale, names, view["turn"]))
    right = _r(locale, "deck", n=view["market_deck"])
    rw = draw_text(d, (WIDTH - MARGIN, y + HEADER_H / 2), right, TEXT_SIZE, INK, True, "rm")
    text, size = text_fit(head, WIDTH - 3 * MARGIN - rw, TEXT_SIZE + 2, True, 14)
    draw_text(d, (MARGIN, y + HEADER_H / 2), text, size, INK, True, "lm")
    y += HEADER_H
    asked = set(view.get("asked") or [])
    scores = view.get("scores") or {}
    for p in view["players"]:
        seat = p["seat"]
        color, _ = seat_color(view, seat)
        mid = y + ROW_H / 2
        if (not over and seat in asked) or (over and seat in (view.get("winners") or [])):
            d.rectangle((MARGIN - 6, y + 2, WIDTH - MARGIN + 6, y + ROW_H - 2), fill=lighten(color, 0.78))
        piece(d, view, seat, (MARGIN + 12, mid), 14)
        score = scores.get(str(seat), scores.get(seat)) if over and scores else _vp(p)
        draw_text(d, (MARGIN + 56, mid), str(score), SCORE_SIZE, INK, True, "mm")
        name, size = text_fit(seat_name(view, locale, names, seat), 260, TEXT_SIZE, True, 14)
        draw_text(d, (MARGIN + 86, mid), name, size, _ink_of(color), True, "lm")
        gens = " ".join(f"{card_name(locale, g['card'])}{g['hp']}" for g in p["generals"].values())
        info = _r(locale, "row", supply=p["supply"], spies=p["spies"], hand=p["hand"], deck=p["deck"],
                  power=p["power"], gold=p["gold"])
        if gens:
            info = f"{gens} · {info}"
        fitted, fs = text_fit(info, WIDTH - MARGIN - 360, SMALL_SIZE, False, 12)
        draw_text(d, (WIDTH - MARGIN, mid), fitted, fs, MUTED, False, "rm")
        y += ROW_H
    return y + 4


def _header_height(view: dict[str, Any]) -> int:
    return HEADER_H + ROW_H * len(view["players"]) + 4


# --------------------------------------------------------------------------- cards

def card_face(d: ImageDraw.ImageDraw, box: Box, cid: str, locale: str, text_size: int = SMALL_SIZE,
              lines: int = 3) -> None:
    """A card: aspect strip (colour and name), name, cost in a gold coin, the effect text, and for
    a general its 武力值 (the soldiers it brings)."""
    x0, y0, x1, y1 = box
    c = card(cid)
    color = ASPECT_COLOR.get(c.aspect, ASPECT_COLOR[""])
    d.rounded_rectangle(box, radius=8, fill=(255, 255, 255), outline=darken(color, 0.2), width=2)
    d.rounded_rectangle((x0 + 2, y0 + 2, x0 + 10, y1 - 2), radius=3, fill=color)
    coin = COST_SIZE + 8
    cx, cy = x1 - coin / 2 - 6, y0 + coin / 2 + 5
    if c.kind in ("market", "supply"):
        d.ellipse((cx - coin / 2, cy - coin / 2, cx + coin / 2, cy + coin / 2), fill=GOLD,
                  outline=darken(GOLD, 0.4), width=2)
        draw_text(d, (cx, cy), str(c.cost), COST_SIZE - 4, INK, True, "mm")
    name = card_name(locale, cid)
    right = x1 - (coin + 10 if c.kind in ("market", "supply") else 6)
    fitted, size = text_fit(name, right - x0 - 16, NAME_SIZE + 1, True, 13)
    draw_text(d, (x0 + 16, y0 + 18), fitted, size, INK, True, "lm")
    tag = t(locale, f"jiwu_names.aspect.{c.aspect}") if c.aspect else _r(locale, f"kind.{c.kind}")
    if c.general is not None:
        tag = _r(locale, "general", aspect=tag, force=c.general.force)
    draw_text(d, (x0 + 16, y0 + 40), tag, 15, darken(color, 0.35), True, "lm")
    text_lines, ts = wrap(card_text(locale, cid), x1 - x0 - 24, text_size, lines, 12)
    ty = y0 + 52
    for line in text_lines:
        draw_text(d, (x0 + 16, ty), line, ts, INK, False, "la")
        ty += ts + 3


MARKET_COLS = 3
MARKET_CARD_H = 124
MARKET_TITLE_H = 34


@lru_cache(maxsize=256)
def _card_image(cid: str, locale: str, w: float, h: int) -> Image.Image:
    """A market card as :func:`card_face` draws it on the background, at the origin (the market
    pastes it where it goes: a card sits on whole pixels, so the pixels are the same)."""
    img = Image.new("RGB", (int(w) + 2, h + 2), BACKGROUND)
    card_face(ImageDraw.Draw(img), (0, 0, w, h), cid, locale)
    return img


def _market_height(view: dict[str, Any]) -> int:
    rows = max(1, -(-len(view["market"]) // MARKET_COLS))
    return MARKET_TITLE_H + rows * (MARKET_CARD_H + 8) + 4


def _market(img: Image.Image, d: ImageDraw.ImageDraw, view: dict[str, Any], locale: str, top: float) -> None:
    piles = view["piles"]
    title = _r(locale, "market", n=view["market_deck"], jiangnan=piles.get("jiangnan", 0),
               tieqi=piles.get("tieqi", 0), canbing=piles.get("canbing", 0))
    fitted, size = text_fit(title, WIDTH - 2 * MARGIN, TEXT_SIZE, True, 13)
    draw_text(d, (MARGIN, top + MARKET_TITLE_H / 2), fitted, size, INK, True, "lm")
    w = (WIDTH - 2 * MARGIN - (MARKET_COLS - 1) * 8) / MARKET_COLS
    for i, c in enumerate(view["market"]):
        r, k = divmod(i, MARKET_COLS)
        x = MARGIN + k * (w + 8)
        y = top + MARKET_TITLE_H + r * (MARKET_CARD_H + 8)
        if LAYER_CACHE and x == int(x) and y == int(y):
            img.paste(_card_image(c["card"], locale, w, MARKET_CARD_H), (int(x), int(y)))
        else:
            card_face(d, (x, y, x + w, y + MARKET_CARD_H), c["card"], locale)


# --------------------------------------------------------------------------- pictures

def compose(view: dict[str, Any], locale: str, names: Sequence[str]) -> Image.Image:
    head = _header_height(view)
    height = head + BOARD_H + _market_height(view) + MARGIN
    img = Image.new("RGB", (WIDTH, height), BACKGROUND)
    _draw_board(img, view, locale, head)
    d = ImageDraw.Draw(img)
    _header(d, view, locale, names)
    _market(img, d, view, locale, head + BOARD_H + 4)
    return img


def render(view: dict[str, Any], locale: str, names: Sequence[str], overlay: dict[str, Any] | None = None) -> bytes:
    """The public board, players and market row as PNG. Reads only public fields."""
    return to_png(compose(view, locale, names), keep=KEEP)


HAND_W = 550
HAND_CARD_H = 118
HAND_COLS = 2


def compose_hand(view: dict[str, Any], locale: str) -> Image.Image:
    """The seat's own hand and 计策 cards with this turn's might and silver, for its DM panel.
    Private: only for the owner of ``view["you"]``."""
    you = view.get("you") or {}
    seat = you.get("seat")
    me = next((p for p in view.get("players", []) if p.get("seat") == seat), None) or {}
    hand = [c["card"] for c in you.get("hand") or []]
    plans = [c["card"] for c in you.get("plans") or []]
    sections = [(_r(locale, "hand", n=len(hand)), hand, [])]
    if plans:
        sections.append((_r(locale, "plans", n=len(plans)), plans, []))
    head = _r(locale, "purse", power=me.get("power", 0), gold=me.get("gold", 0), deck=me.get("deck", 0),
              discard=me.get("discard", 0))
    return _card_grid(view, locale, head, sections)


def _card_grid(view: dict[str, Any], locale: str, head: str,
               sections: list[tuple[str, list[str], list[str]]]) -> Image.Image:
    """A 550 px picture: a bold head line, then titled sections of card faces two by two; each
    card may carry a note under it (a supply pile's count)."""
    height = 10 + 34
    for _title, cids, _notes in sections:
        rows = max(1, -(-len(cids) // HAND_COLS))
        height += 30 + rows * (HAND_CARD_H + 6)
    img = Image.new("RGB", (HAND_W, height + 6), BACKGROUND)
    d = ImageDraw.Draw(img)
    fitted, size = text_fit(head, HAND_W - 20, TEXT_SIZE, True, 13)
    draw_text(d, (10, 27), fitted, size, INK, True, "lm")
    y = 44.0
    w = (HAND_W - 20 - (HAND_COLS - 1) * 8) / HAND_COLS
    for title, cids, notes in sections:
        draw_text(d, (10, y + 15), title, SMALL_SIZE + 1, INK, True, "lm")
        y += 30
        if not cids:
            draw_text(d, (HAND_W / 2, y + HAND_CARD_H / 2), _r(locale, "no_cards"), 16, MUTED, False, "mm")
        for i, cid in enumerate(cids):
            r, k = divmod(i, HAND_COLS)
            cx = 10 + k * (w + 8)
            cy = y + r * (HAND_CARD_H + 6)
            card_face(d, (cx, cy, cx + w, cy + HAND_CARD_H), cid, locale, 16, 4)
            if i < len(notes) and notes[i]:
                draw_text(d, (cx + w - 8, cy + HAND_CARD_H - 8), notes[i], 15, MUTED, True, "rd")
        y += max(1, -(-len(cids) // HAND_COLS)) * (HAND_CARD_H + 6)
    return img


def compose_market(view: dict[str, Any], locale: str) -> Image.Image:
    """The market row and the two supply piles one may recruit from, with the asking seat's
    silver (the recruit step's picture: the buttons name the cards, this shows what they do).
    Public information only, plus the seat's own silver."""
    seat = (view.get("you") or {}).get("seat")
    me = next((p for p in view.get("players", []) if p.get("seat") == seat), None) or {}
    piles = view["piles"]
    head = _r(locale, "recruit", gold=me.get("gold", 0), n=view["market_deck"])
    supply = [p for p in ("jiangnan", "tieqi") if piles.get(p)]
    return _card_grid(view, locale, head, [
        (_r(locale, "market_row"), [c["card"] for c in view["market"]], []),
        (_r(locale, "supply"), supply, [_r(locale, "left", n=piles[p]) for p in supply]),
    ])


def render_hand(view: dict[str, Any], locale: str) -> bytes:
    """The PNG of a seat's own hand and 计策 cards (send it to that seat only)."""
    return to_png(compose_hand(view, locale), keep=KEEP)


def render_step_picture(view: dict[str, Any], picture: dict[str, Any], locale: str,
                        names: Sequence[str]) -> bytes | None:
    """``{"kind": "hand"}`` draws the asking seat's hand (the view must be that seat's);
    ``{"kind": "market"}`` the market row and supply piles for the recruit step."""
    if picture.get("kind") == "hand" and view.get("you"):
        return render_hand(view, locale)
    if picture.get("kind") == "market":
        return to_png(compose_market(view, locale), keep=KEEP)
    return None
