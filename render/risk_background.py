"""The part of the Risk picture that never changes during a game, drawn once per locale.

It is one RGBA layer laid over the owner-coloured territories: opaque where there is sea (water
colour, graticule, coastal ripples, a compass rose, a halo in each continent's colour so
continents read at a glance whoever owns them) and mostly transparent over land, where it only
adds shading and border lines. Sea routes, continent names and the continent bonus table are on
it too. The territory names are a second cached layer, laid on after the battle arrow. Caching
these layers is what lets a render cost one palette lookup and two composites.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageOps

from i18n import has, t
from render.common import RGB, font
from render.risk_map import Layout, geometry, layout

BAND_H = 200
BADGE_R = 20
SEA_TOP: RGB = (38, 84, 122)
SEA_BOTTOM: RGB = (20, 50, 84)
PAPER: RGB = (246, 242, 232)
COAST: RGB = (16, 28, 40)
LABEL_INK: RGB = (28, 28, 30)
ROUTE: RGB = (236, 242, 248)
#: Continent outlines (at sea and along land borders between continents) and continent names.
CONTINENT_LINE: RGB = (250, 236, 196)
#: Continent bonus table in the empty South Pacific (pixels).
BONUS_BOX = (14, 508, 262, 738)
#: Compass rose in the empty Indian Ocean (pixels).
COMPASS = (1010.0, 630.0)
BONUS_ROW_H = 30
BONUS_TOP = 546


def name(locale: str, kind: str, ident: str) -> str:
    """A catalog name (``risk.territory.*``, ``risk.continent.*`` ...) or a readable stand-in."""
    key = f"risk.{kind}.{ident}"
    return t(locale, key) if has(key, locale) else ident.replace("_", " ").title()


def _solid(size: tuple[int, int], color: RGB, alpha: Image.Image) -> Image.Image:
    layer = Image.new("RGBA", size, color + (0,))
    layer.putalpha(alpha)
    return layer


def _scale(mask: Image.Image, factor: float) -> Image.Image:
    return mask.point(lambda v: min(255, round(v * factor)))


def _sea(lay: Layout) -> Image.Image:
    """Water: a vertical gradient, a faint graticule, ripples along the coasts, continent halos."""
    geo = geometry()
    w, h = lay.size
    grad = Image.linear_gradient("L").resize((w, h))
    sea = ImageOps.colorize(grad, black=SEA_TOP, white=SEA_BOTTOM).convert("RGBA")

    lines = Image.new("L", (w, h), 0)
    d = ImageDraw.Draw(lines)
    step = lay.cell * 4
    for x in range(step // 2, w, step):
        d.line([(x, 0), (x, h)], fill=26, width=1)
    for y in range(step // 2, h, step):
        d.line([(0, y), (w, y)], fill=26, width=1)
    sea = Image.alpha_composite(sea, _solid((w, h), (255, 255, 255), lines))

    sea = Image.alpha_composite(sea, _continent_rings(lay))

    # A soft shadow to the south-east lifts the land off the water.
    shadow = Image.new("L", (w, h), 0)
    shadow.paste(geo.land, (3, 5))
    sea = Image.alpha_composite(sea, _solid((w, h), (4, 12, 24), _scale(
        shadow.filter(ImageFilter.GaussianBlur(5)), 0.55)))

    # Ripples: thin lines at two distances from the shore, like an old sea chart.
    for sigma, lo, hi, strength in ((5.0, 22, 40, 70), (12.0, 18, 26, 45)):
        field = geo.land.filter(ImageFilter.GaussianBlur(sigma))
        ring = field.point(lambda v, lo=lo, hi=hi, s=strength: s if lo <= v <= hi else 0)
        sea = Image.alpha_composite(sea, _solid((w, h), (225, 238, 250), ring.filter(ImageFilter.SMOOTH)))
    sea = Image.alpha_composite(sea, _compass((w, h), COMPASS))
    sea.putalpha(ImageOps.invert(geo.land))
    return sea


def _continent_rings(lay: Layout) -> Image.Image:
    """A line round each continent out at sea, its islands included, so a continent reads as one
    outlined region whoever owns it. One neutral colour for all: the continent tints of the old
    halo and legend reused the players' colours and were read as owners."""
    geo = geometry()
    w, h = lay.size
    rings = Image.new("L", (w, h), 0)
    for i in range(1, len(lay.continents) + 1):
        mask = geo.continents.point(lambda v, i=i: 255 if v == i else 0)
        field = mask.filter(ImageFilter.GaussianBlur(lay.cell * 0.6))
        band = field.point(lambda v: 255 if 9 <= v <= 14 else 0)
        rings = ImageChops.lighter(rings, band)
    rings = rings.filter(ImageFilter.GaussianBlur(0.6))
    return _solid((w, h), CONTINENT_LINE, _scale(rings, 0.8))


def _compass(size: tuple[int, int], center: tuple[float, float], r: float = 52) -> Image.Image:
    """An eight-point compass rose, the old sea chart's signature, drawn faintly in an empty ocean."""
    layer = Image.new("RGBA", size, (0, 0, 0, 0))
    d = ImageDraw.Draw(layer)
    cx, cy = center
    light, dark = (236, 242, 250, 150), (150, 176, 204, 120)
    d.ellipse((cx - r * 0.72, cy - r * 0.72, cx + r * 0.72, cy + r * 0.72), outline=(220, 232, 246, 90), width=2)
    d.ellipse((cx - r * 0.62, cy - r * 0.62, cx + r * 0.62, cy + r * 0.62), outline=(220, 232, 246, 60), width=1)
    for k in range(8):
        a = k * math.pi / 4 - math.pi / 2
        length = r if k % 2 == 0 else r * 0.55
        tip = (cx + math.cos(a) * length, cy + math.sin(a) * length)
        side = r * (0.16 if k % 2 == 0 else 0.11)
        left = (cx + math.cos(a - math.pi / 2) * side, cy + math.sin(a - math.pi / 2) * side)
        right = (cx + math.cos(a + math.pi / 2) * side, cy + math.sin(a + math.pi / 2) * side)
        d.polygon([(cx, cy), left, tip], fill=light)
        d.polygon([(cx, cy), right, tip], fill=dark)
    d.text((cx, cy - r - 4), "N", font=font(14, True), fill=(236, 242, 250, 170), anchor="md")
    return layer


def _dashes(draw: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float], fill: int,
            width: int, dash: float = 7.0, gap: float = 6.0) -> None:
    length = math.dist(a, b)
    if length == 0:
        return
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    pos = 0.0
    while pos < length:
        end = min(pos + dash, length)
        draw.line([(a[0] + ux * pos, a[1] + uy * pos), (a[0] + ux * end, a[1] + uy * end)],
                  fill=fill, width=width)
        pos = end + gap


def route_segments(lay: Layout) -> list[tuple[str, str, tuple[float, float], tuple[float, float]]]:
    """Each sea route as drawn: (a, b, start, end) in pixels; a wrapping route gives two halves."""
    w, _ = lay.size
    out = []
    for link in lay.sea_links:
        start, end = lay.px(link["from"]), lay.px(link["to"])
        if link["wrap"]:
            out.append((link["a"], link["b"], start, (0.0, start[1])))
            out.append((link["b"], link["a"], end, (float(w), end[1])))
        else:
            out.append((link["a"], link["b"], start, end))
    return out


def _routes(lay: Layout) -> Image.Image:
    """Dashed sea routes, kept only over water so they start at the coasts."""
    geo = geometry()
    w, h = lay.size
    shadow = Image.new("L", (w, h), 0)
    dash = Image.new("L", (w, h), 0)
    ds, dd = ImageDraw.Draw(shadow), ImageDraw.Draw(dash)
    for _, _, a, b in route_segments(lay):
        _dashes(ds, a, b, 150, 5)
        _dashes(dd, a, b, 235, 2)
        if b[0] in (0.0, float(w)):
            # An arrowhead at the map edge says "this route continues on the other side".
            sx = 1 if b[0] > a[0] else -1
            tip = (b[0] - sx * 3, b[1])
            head = [tip, (tip[0] - sx * 11, tip[1] - 7), (tip[0] - sx * 11, tip[1] + 7)]
            ds.polygon(head, fill=150)
            dd.polygon([(tip[0] - sx * 2, tip[1]), (tip[0] - sx * 10, tip[1] - 5),
                        (tip[0] - sx * 10, tip[1] + 5)], fill=235)
    sea = ImageOps.invert(geo.land)
    layer = _solid((w, h), (8, 20, 34), ImageChops.multiply(shadow, sea))
    return Image.alpha_composite(layer, _solid((w, h), ROUTE, ImageChops.multiply(dash, sea)))


def _land_lines(lay: Layout) -> Image.Image:
    """Inner shading along every border, then border, continent and coast lines."""
    geo = geometry()
    w, h = lay.size
    rim = ImageChops.lighter(geo.borders, geo.coast).filter(ImageFilter.GaussianBlur(4))
    layer = _solid((w, h), (0, 0, 0), ImageChops.multiply(_scale(rim, 0.55), geo.land))
    layer = Image.alpha_composite(layer, _solid((w, h), (20, 20, 24), _scale(geo.borders, 0.55)))
    # Where two continents meet on land: a thick light line between dark edges, the same colour
    # as the continent rings at sea, so each continent is outlined all round.
    wide = geo.continent_borders.filter(ImageFilter.MaxFilter(7)).filter(ImageFilter.GaussianBlur(0.6))
    layer = Image.alpha_composite(layer, _solid((w, h), (14, 14, 18), _scale(wide, 0.95)))
    core = geo.continent_borders.filter(ImageFilter.MaxFilter(3)).filter(ImageFilter.GaussianBlur(0.5))
    layer = Image.alpha_composite(layer, _solid((w, h), CONTINENT_LINE, core))
    coast = geo.coast.filter(ImageFilter.GaussianBlur(0.7))
    return Image.alpha_composite(layer, _solid((w, h), COAST, _scale(coast, 1.6)))


@dataclass(frozen=True)
class LabelBox:
    """Where a territory name was put (tests and the renderer avoid drawing over it)."""

    tid: str
    lines: tuple[str, ...]
    xy: tuple[float, float]


def label_lines(text: str, max_width: float, size: int) -> list[str]:
    """One line if it fits, else the most balanced split at a space (CJK names are short)."""
    f = font(size, True)
    if f.getlength(text) <= max_width or " " not in text:
        return [text]
    words = text.split(" ")
    best: list[str] = [text]
    best_w = math.inf
    for i in range(1, len(words)):
        lines = [" ".join(words[:i]), " ".join(words[i:])]
        width = max(f.getlength(s) for s in lines)
        if width < best_w:
            best, best_w = lines, width
    return best


def _territory_width(lay: Layout, tid: str) -> float:
    row = round(lay.anchors[tid][1] - 0.5)
    ch = next(c for c, v in lay.key.items() if v == tid)
    return lay.grid[row].count(ch) * lay.cell


def label_size(locale: str) -> int:
    return 12 if locale == "en" else 13


def _labels(lay: Layout, locale: str, size: tuple[int, int]) -> tuple[Image.Image, Image.Image]:
    """Masks of the territory names (text, and a halo that keeps it readable on any colour)."""
    text = Image.new("L", size, 0)
    halo = Image.new("L", size, 0)
    dt, dh = ImageDraw.Draw(text), ImageDraw.Draw(halo)
    fs = label_size(locale)
    f = font(fs, True)
    line_h = fs + 2
    for tid in lay.territories:
        label = name(locale, "territory", tid)
        lines = label_lines(label, min(max(_territory_width(lay, tid) * 0.9, 70.0), 118.0), fs)
        ax, ay = lay.px(lay.anchors[tid])
        side = lay.label_side[tid]
        top = ay - BADGE_R - 2 - line_h * len(lines) if side == "above" else ay + BADGE_R + 1
        for i, line in enumerate(lines):
            y = top + i * line_h
            dh.text((ax, y), line, font=f, fill=255, anchor="ma", stroke_width=3, stroke_fill=255)
            dt.text((ax, y), line, font=f, fill=255, anchor="ma")
    return text, halo.filter(ImageFilter.GaussianBlur(0.8))


def _continent_names(lay: Layout, locale: str, size: tuple[int, int]) -> Image.Image:
    layer = Image.new("RGBA", size, (0, 0, 0, 0))
    mask = Image.new("L", size, 0)
    d = ImageDraw.Draw(mask)
    f = font(15, True)
    for cid, spec in lay.continents.items():
        text = name(locale, "continent", cid)
        text = " ".join(text.upper()) if text.isascii() else " ".join(text)
        x, y = lay.px(spec["label"])
        d.text((x, y), text, font=f, fill=255, anchor="mm")
        glyphs = mask.copy()
        mask.paste(0, (0, 0) + size)
        layer = Image.alpha_composite(layer, _solid(size, CONTINENT_LINE, glyphs))
    return layer


def _bonus_table(lay: Layout, locale: str, size: tuple[int, int]) -> Image.Image:
    """The classic board's continent table: swatch, name, bonus (holders are drawn per render)."""
    layer = Image.new("RGBA", size, (0, 0, 0, 0))
    d = ImageDraw.Draw(layer)
    x0, y0, x1, _ = BONUS_BOX
    d.rounded_rectangle(BONUS_BOX, radius=10, fill=(10, 26, 44, 215), outline=(190, 210, 228, 230), width=2)
    d.text(((x0 + x1) / 2, y0 + 12), t(locale, "riskmap.legend.continents"), font=font(15, True),
           fill=(240, 244, 248, 255), anchor="ma")
    for i, (cid, spec) in enumerate(lay.continents.items()):
        y = BONUS_TOP + i * BONUS_ROW_H
        d.text((x0 + 16, y + 13), name(locale, "continent", cid), font=font(16), fill=(235, 240, 246, 255),
               anchor="lm")
        d.text((x1 - 42, y + 13), f"+{spec['bonus']}", font=font(15, True), fill=(255, 222, 120, 255),
               anchor="rm")
    return layer


def bonus_holder_spot(index: int) -> tuple[float, float]:
    """Centre of the holder chip of the ``index``-th continent row."""
    return BONUS_BOX[2] - 22, BONUS_TOP + index * BONUS_ROW_H + 13


@lru_cache(maxsize=4)
def static_layer(locale: str) -> Image.Image:
    """The cached overlay (map plus the blank legend band below it) for one locale, without the
    territory names (see :func:`name_layer`)."""
    lay = layout()
    w, h = lay.size
    size = (w, h + BAND_H)
    img = Image.new("RGBA", size, PAPER + (255,))
    img.paste(_sea(lay), (0, 0))
    over = Image.new("RGBA", size, (0, 0, 0, 0))
    over.paste(Image.alpha_composite(_land_lines(lay), _routes(lay)), (0, 0))
    img = Image.alpha_composite(img, over)
    img = Image.alpha_composite(img, _continent_names(lay, locale, size))
    img = Image.alpha_composite(img, _bonus_table(lay, locale, size))
    d = ImageDraw.Draw(img)
    d.rectangle((0, h, w, h + 3), fill=(40, 52, 66, 255))
    return img


@lru_cache(maxsize=4)
def name_layer(locale: str) -> tuple[Image.Image, tuple[int, int, int, int]]:
    """The territory names with their halo, and the box they occupy.

    Kept apart from :func:`static_layer` so a render can lay them over the battle arrow: a name
    stays readable and the arrow seems to pass beneath it.
    """
    lay = layout()
    w, h = lay.size
    size = (w, h + BAND_H)
    text, halo = _labels(lay, locale, size)
    img = _solid(size, (255, 255, 255), _scale(halo, 0.8))
    img = Image.alpha_composite(img, _solid(size, LABEL_INK, text))
    box = img.getbbox() or (0, 0, 1, 1)
    return img.crop(box), box


@lru_cache(maxsize=1)
def label_index_image() -> Image.Image:
    """The territory label image padded with the (sea-valued) legend band, as a palette image."""
    lay = layout()
    w, h = lay.size
    full = Image.new("L", (w, h + BAND_H), 0)
    full.paste(geometry().labels, (0, 0))
    return full
