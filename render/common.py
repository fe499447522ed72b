"""What every board renderer shares: player colours, text that never shows tofu, and PNG output.

Colours follow the pieces of the physical games (red, yellow, blue, green, purple, black) and are
drawn as named (a seat called Red is red, not orange). The shades were chosen with a simulation of
protanopia, deuteranopia and tritanopia (Machado et al. 2009): every pair of seat colours and the
neutral grey stay clearly apart under each (tests/render/test_palette.py keeps it so); renderers
still never rely on colour alone (letters, names and marker shapes go with it).
Text goes through :mod:`render.fonts` so characters our font lacks fall back instead of drawing
boxes, and every text helper takes a pixel size rather than a font so callers cannot forget that.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from render.fonts import font, styled_runs

__all__ = [
    "BACKGROUND", "INK", "MUTED", "NEUTRAL", "PLAYER_COLORS", "RGB", "darken", "draw_text",
    "draw_text_centered", "font", "lighten", "mix", "outline_color", "player_color", "stamp_text", "text_color_on",
    "text_fit",
    "text_width", "to_png",
]

RGB = tuple[int, int, int]

#: Seat colours in seat order: red, yellow, blue, green, purple, black. Checked under simulated
#: colour blindness (minimum CIELAB distance of any pair, neutral included: 50 with normal vision,
#: 26 protanopia, 24 deuteranopia, 26 tritanopia; the Okabe–Ito shades used before fell to 7).
PLAYER_COLORS: list[RGB] = [
    (190, 35, 25),    # red
    (245, 228, 50),   # yellow
    (30, 125, 225),   # blue
    (20, 190, 90),    # green
    (115, 30, 150),   # purple
    (30, 30, 30),     # black
]
#: Things nobody owns (Risk's neutral armies, solo-mode discs).
NEUTRAL: RGB = (165, 165, 165)
BACKGROUND: RGB = (250, 247, 240)
INK: RGB = (30, 30, 30)
MUTED: RGB = (110, 110, 110)


def player_color(seat: int | None) -> RGB:
    """The colour of ``seat``; anything that is not a seat index is neutral grey."""
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(PLAYER_COLORS):
        return PLAYER_COLORS[seat]
    return NEUTRAL


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """``a`` moved a fraction ``t`` towards ``b``."""
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t),
            round(a[2] + (b[2] - a[2]) * t))


def darken(color: RGB, t: float = 0.4) -> RGB:
    return mix(color, (0, 0, 0), t)


def lighten(color: RGB, t: float = 0.5) -> RGB:
    return mix(color, (255, 255, 255), t)


def _luminance(color: RGB) -> float:
    def lin(c: int) -> float:
        s = c / 255
        return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4
    r, g, b = (lin(c) for c in color)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def text_color_on(color: RGB) -> RGB:
    """Black or white, whichever contrasts more with ``color`` (WCAG relative luminance)."""
    lum = _luminance(color)
    return INK if (lum + 0.05) / 0.05 >= 1.05 / (lum + 0.05) else (255, 255, 255)


def outline_color(color: RGB) -> RGB:
    """The stroke that separates shapes of ``color``: darker, or lighter for near-black fills
    (a darker edge on black pieces would vanish)."""
    return lighten(color, 0.4) if _luminance(color) < 0.05 else darken(color, 0.55)


#: Whether :func:`stamp_text` reuses rendered glyph masks (tests turn it off to get the reference).
TEXT_CACHE = True


@lru_cache(maxsize=8192)
def _laid_out(text: str, size: int, bold: bool) -> tuple[tuple[Any, ...], tuple[float, ...], float]:
    """``text``'s runs, each run's advance and the total (pure in its arguments, so cached: a board
    measures the same names and numbers on every render)."""
    parts = tuple(styled_runs(text, size, bold))
    widths = tuple(r.font.getlength(r.text) for r in parts)
    return parts, widths, sum(widths)


def text_width(text: str, size: int, bold: bool = False) -> float:
    """Advance width in pixels of ``text`` as :func:`draw_text` would draw it."""
    return _laid_out(text, size, bold)[2]


@lru_cache(maxsize=4096)
def _mask(face: ImageFont.FreeTypeFont, text: str, stroke: float, anchor: str, ink: int,
          start: tuple[float, float]) -> tuple[Any, tuple[int, int]]:
    return face.getmask2(text, "L", None, None, None, stroke, anchor, ink, start, stroke_filled=True)


def stamp_text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, face: ImageFont.FreeTypeFont,
               fill: RGB | tuple[int, int, int, int], anchor: str = "la", stroke_width: float = 0,
               stroke_fill: RGB | tuple[int, int, int, int] | None = None) -> None:
    """``draw.text`` for one line, with the rendered glyph masks cached.

    Rendering glyphs was most of a board's text cost, and boards draw the same names and numbers
    at the same spots again and again. This does what Pillow's ``ImageDraw.text`` does for one
    line (the same mask at the same sub-pixel start, stroke first), so the pixels are identical;
    anything else (several lines, a non-L font mode) goes to Pillow.
    """
    if not TEXT_CACHE or "\n" in text or draw.fontmode != "L" or not isinstance(face, ImageFont.FreeTypeFont):
        draw.text(xy, text, font=face, fill=fill, anchor=anchor, stroke_width=stroke_width,
                  stroke_fill=stroke_fill if stroke_width else None)
        return
    ink = draw.draw.draw_ink(fill)
    x, y = xy
    start = (math.modf(x)[0], math.modf(y)[0])
    inks = [(draw.draw.draw_ink(stroke_fill) if stroke_fill is not None else ink, stroke_width)] if stroke_width else []
    if not inks or inks[0][0] != ink:
        inks.append((ink, 0))
    for one_ink, stroke in inks:
        mask, offset = _mask(face, text, stroke, anchor, one_ink, start)
        draw.draw.draw_bitmap((int(x) + offset[0], int(y) + offset[1]), mask, one_ink)


def draw_text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int,
              fill: RGB | tuple[int, int, int, int], bold: bool = False, anchor: str = "la") -> float:
    """Draw one line of ``text``; returns its width.

    ``anchor`` is Pillow's two-letter anchor restricted to horizontal ``l``/``m``/``r`` and
    vertical ``a`` (top of the line), ``m`` (middle), ``s`` (baseline), ``d`` (bottom). Vertical
    placement uses our main font's metrics for every run, so mixed-font text shares a baseline.
    """
    parts, widths, width = _laid_out(text, size, bold)
    ascent, descent = font(size, bold).getmetrics()
    x, y = xy
    h, v = anchor[0], anchor[1]
    x -= {"l": 0.0, "m": width / 2, "r": width}[h]
    baseline = {"a": y + ascent, "m": y + (ascent - descent) / 2, "s": y, "d": y - descent}[v]
    for part, advance in zip(parts, widths, strict=True):
        # A run the Bold subset lacks is drawn with the Regular face and a stroke (render.fonts).
        stamp_text(draw, (x, baseline), part.text, part.font, fill, "ls", part.stroke, fill if part.stroke else None)
        x += advance
    return width


def text_fit(text: str, max_width: float, size: int, bold: bool = False,
             min_size: int = 10) -> tuple[str, int]:
    """The largest size (down to ``min_size``) at which ``text`` fits ``max_width``.

    If even ``min_size`` is too wide the text is cut and ends with an ellipsis, so a long player
    name can never push a layout apart. Names are user input of any length: the cut is a binary
    search over prefix lengths and the sizes are only tried while ``min_size`` fits, so fitting
    costs O(n log n) measured characters, not the O(n²) of dropping one character at a time (an
    800-character name took seconds per image).
    """
    if text_width(text, min_size, bold) > max_width:
        return _cut_to_width(text, max_width, min_size, bold), min_size
    for s in range(size, min_size, -1):
        if text_width(text, s, bold) <= max_width:
            return text, s
    return text, min_size


def _cut_to_width(text: str, max_width: float, size: int, bold: bool) -> str:
    """The longest prefix of ``text`` that fits with an ellipsis after it ("" when none does)."""
    lo, hi = 0, len(text)  # invariant: prefix lo fits (or lo == 0), prefix hi + 1 does not
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if text_width(text[:mid] + "…", size, bold) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo] + "…" if lo else ""


def draw_text_centered(draw: ImageDraw.ImageDraw, box: Sequence[float], text: str, size: int,
                       fill: RGB | tuple[int, int, int, int], bold: bool = False,
                       min_size: int | None = None) -> int:
    """Draw ``text`` centred in ``box`` (x0, y0, x1, y1), shrunk to fit its width; returns the size used."""
    x0, y0, x1, y1 = box
    fitted, used = text_fit(text, x1 - x0, size, bold, min_size if min_size is not None else size)
    draw_text(draw, ((x0 + x1) / 2, (y0 + y1) / 2), fitted, used, fill, bold, anchor="mm")
    return used


#: Colours every palette keeps exactly, whatever the sampling below happens to see.
BASE_PALETTE: list[RGB] = list(dict.fromkeys(
    [*PLAYER_COLORS, *(outline_color(c) for c in PLAYER_COLORS), NEUTRAL, outline_color(NEUTRAL),
     BACKGROUND, INK, MUTED, (255, 255, 255), (0, 0, 0)]))


def _palette_image(colors: Sequence[RGB]) -> Image.Image:
    flat = [c for rgb in colors for c in rgb]
    pal = Image.new("P", (1, 1))
    pal.putpalette(flat + [0] * (768 - len(flat)))
    return pal


#: zlib level for board PNGs, picked by measurement (bench/bench_png.py): on a Risk board level 3
#: encodes in 9 ms against 13 ms at level 4 for 8 % more bytes (178 KB against 165 KB), on
#: Pentactic boards 6-8 ms against 10-12 ms for 7-9 % more; levels 1-2 save under 2 ms more and
#: cost another 6-13 %, level 6 and up double the time for 8-20 % fewer bytes.
PNG_LEVEL = 3


@lru_cache(maxsize=8)
def _near_fixed(fixed: tuple[RGB, ...]) -> frozenset[RGB]:
    """Every colour within 6 (per channel) of a fixed palette colour, built once per palette so
    the sampled palette is filtered with one set lookup per colour."""
    span = range(-6, 7)
    return frozenset((r + dr, g + dg, b + db) for r, g, b in fixed for dr in span for dg in span for db in span)


def to_png(img: Image.Image, colors: int = 256, keep: Sequence[RGB] = (), compress_level: int = PNG_LEVEL) -> bytes:
    """Encode ``img`` as a small PNG.

    Board images are flat colours plus anti-aliased text edges, so a 256-colour palette without
    dithering looks the same and is 2-4x smaller than RGB. An image with at most ``colors``
    colours is converted exactly. Otherwise the palette is ``BASE_PALETTE`` + ``keep`` (so thin
    lines in player colours never shift) filled up by an octree over a 1/9 pixel sample, then
    the whole image is mapped to it: ~3x faster than quantizing every pixel, as good to the eye.
    """
    if img.mode not in ("RGB", "P", "L"):
        img = img.convert("RGB")
    if img.mode == "RGB":
        exact = img.getcolors(colors)
        if exact is not None:
            img = img.quantize(palette=_palette_image([rgb for _, rgb in exact]), dither=Image.Dither.NONE)
        else:
            fixed = tuple(dict.fromkeys([*BASE_PALETTE, *keep]))[: colors // 2]
            w, h = img.size
            sample = img.resize((max(1, w // 3), max(1, h // 3)), Image.Resampling.NEAREST) if w * h > 90_000 else img
            octree = sample.quantize(colors - len(fixed), method=Image.Quantize.FASTOCTREE,
                                     dither=Image.Dither.NONE)
            flat = octree.getpalette() or []
            found = [(flat[i], flat[i + 1], flat[i + 2]) for i in range(0, len(flat) - 2, 3)]
            # Pillow maps pixels through a cache of 4x4x4 colour boxes; a sampled shade next to a
            # fixed colour could win that box, so such near-duplicates are dropped.
            near = _near_fixed(fixed)
            found = [c for c in found if c not in near]
            palette = list(dict.fromkeys([*fixed, *found]))[:colors]
            img = img.quantize(palette=_palette_image(palette), dither=Image.Dither.NONE)
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=compress_level)
    return buf.getvalue()
