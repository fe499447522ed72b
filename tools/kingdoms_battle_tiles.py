"""Draw the 鬪三國 tile set (every type, unturned) to ``docs/rules/kingdoms_battle_tiles.png``.

A design aid for docs/rules/kingdoms_battle.md, not the game's board renderer: cities are tan
with a dark wall, plains green, barricades dark red lines, garrison spaces white rings numbered
by city segment. Run ``.venv/bin/python tools/kingdoms_battle_tiles.py`` after editing
data/kingdoms_battle/tiles.json.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engines.kingdoms_battle.data import Face, tiles  # noqa: E402

CELL = 120
PAD = 18
LABEL = 22
PLAIN = (156, 196, 102)
CITY = (222, 190, 130)
WALL = (92, 64, 40)
BARRICADE = (150, 30, 30)


def _side_poly(side: int, depth: float, x0: int, y0: int) -> list[tuple[float, float]]:
    """Trapezoid from ``side`` inwards to ``depth`` (fraction of the tile)."""
    s, d = CELL, CELL * depth
    polys = {
        0: [(0, 0), (s, 0), (s - d, d), (d, d)],
        1: [(s, 0), (s, s), (s - d, s - d), (s - d, d)],
        2: [(s, s), (0, s), (d, s - d), (s - d, s - d)],
        3: [(0, s), (0, 0), (d, d), (d, s - d)],
    }
    return [(x0 + x, y0 + y) for x, y in polys[side]]


def _mid(side: int, x0: int, y0: int, frac: float) -> tuple[float, float]:
    """A point on the line from ``side``'s midpoint (frac 0) to the centre (frac 0.5) and on."""
    c = CELL / 2
    dx, dy = ((0, -1), (1, 0), (0, 1), (-1, 0))[side]
    return x0 + c + dx * c * (1 - 2 * frac), y0 + c + dy * c * (1 - 2 * frac)


CORNERS = ((0, 0), (1, 0), (1, 1), (0, 1))  # NW, NE, SE, SW: side i runs from corner i to i+1


def _segment_poly(sides: tuple[int, ...], x0: int, y0: int) -> tuple[list[tuple[float, float]], tuple[float, float]]:
    """The city area of one segment and where its garrison spaces go."""
    s = CELL
    if len(sides) == 1:
        poly = _side_poly(sides[0], 0.3, x0, y0)
        return poly, _mid(sides[0], x0, y0, 0.13)
    if len(sides) == 2 and (sides[1] - sides[0]) % 4 in (1, 3):
        a, b = (sides[0], sides[1]) if (sides[1] - sides[0]) % 4 == 1 else (sides[1], sides[0])
        shared = CORNERS[b]
        pts = [CORNERS[a], shared, CORNERS[(b + 1) % 4]]
        inner = (0.5 + (shared[0] - 0.5) * 0.25, 0.5 + (shared[1] - 0.5) * 0.25)
        poly = [(x0 + x * s, y0 + y * s) for x, y in [*pts, inner]]
        spot = (x0 + (0.5 + (shared[0] - 0.5) * 0.55) * s, y0 + (0.5 + (shared[1] - 0.5) * 0.55) * s)
        return poly, spot
    return [], (x0 + s / 2, y0 + s / 2)


def draw_face(img: ImageDraw.ImageDraw, face: Face, x0: int, y0: int) -> None:
    img.rectangle([x0, y0, x0 + CELL, y0 + CELL], fill=PLAIN, outline=(60, 60, 60))
    bars = [i for i, ch in enumerate(face.edges) if ch == "B"]
    for side in bars:  # drawn first: a city drawn over a barricade's end ends it at the wall
        end = 0.5 if len(bars) > 1 else 0.72
        img.line([_mid(side, x0, y0, 0), _mid(side, x0, y0, end)], fill=BARRICADE, width=6)
    centres = []
    for sides in face.cities:
        poly, spot = _segment_poly(sides, x0, y0)
        if poly:
            img.polygon(poly, fill=CITY, outline=WALL)
        else:  # three or four sides, or a bridge: arms to the centre and a centre block
            for side in sides:
                img.polygon(_side_poly(side, 0.5, x0, y0), fill=CITY)
            q = CELL * 0.25
            img.rectangle([x0 + q, y0 + q, x0 + CELL - q, y0 + CELL - q], fill=CITY)
        centres.append(spot)
    font = ImageFont.load_default()
    for k, seg in enumerate(face.spaces):
        cx, cy = centres[seg]
        n = face.spaces.count(seg)
        if n > 1:
            cx += (face.spaces[:k].count(seg) - (n - 1) / 2) * 22
        img.ellipse([cx - 8, cy - 8, cx + 8, cy + 8], fill="white", outline=WALL, width=2)
        img.text((cx - 3, cy - 6), str(seg + 1), fill=WALL, font=font)


def main() -> None:
    ts = tiles()
    cols = 5
    rows = (len(ts.types) + cols - 1) // cols
    w = cols * (CELL + PAD) + PAD
    h = rows * (CELL + PAD + LABEL) + PAD
    image = Image.new("RGB", (w, h), "white")
    img = ImageDraw.Draw(image)
    font = ImageFont.load_default()
    for i, (tid, tt) in enumerate(sorted(ts.types.items())):
        x0 = PAD + (i % cols) * (CELL + PAD)
        y0 = PAD + (i // cols) * (CELL + PAD + LABEL)
        label = f"type {tid} x{tt.count} {tt.faces[0].edges}" + (" start" if tid == ts.start_type else "")
        img.text((x0, y0), label, fill="black", font=font)
        draw_face(img, tt.faces[0], x0, y0 + LABEL - 4)
    out = ROOT / "docs" / "rules" / "kingdoms_battle_tiles.png"
    out.parent.mkdir(parents=True, exist_ok=True)
    image.save(out, optimize=True)
    print(out, image.size)


if __name__ == "__main__":
    main()
