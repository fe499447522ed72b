"""Draw the 鬪三國 tile set (every type, unturned) to ``docs/rules/kingdoms_battle_tiles.png``.

It uses the board renderer's own tile faces (``render.kingdoms_battle.tile_face``) and garrison
space positions, so the rules page shows the tiles exactly as players see them; the numbers in
the white rings are the city segment of each garrison space. Run
``.venv/bin/python tools/kingdoms_battle_tiles.py`` after editing data/kingdoms_battle/tiles.json.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image, ImageDraw

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engines.kingdoms_battle.data import tiles  # noqa: E402
from render.common import BACKGROUND, INK, draw_text, to_png  # noqa: E402
from render.kingdoms_battle import space_points, tile_face  # noqa: E402

CELL = 120
PAD = 18
LABEL = 26


def main() -> None:
    ts = tiles()
    cols = 5
    rows = (len(ts.types) + cols - 1) // cols
    w = cols * (CELL + PAD) + PAD
    h = rows * (CELL + PAD + LABEL) + PAD
    image = Image.new("RGB", (w, h), BACKGROUND)
    d = ImageDraw.Draw(image)
    for i, (tid, tt) in enumerate(sorted(ts.types.items())):
        x0 = PAD + (i % cols) * (CELL + PAD)
        y0 = PAD + (i // cols) * (CELL + PAD + LABEL)
        face = tt.faces[0]
        label = f"{tid} ×{tt.count} {face.edges}" + (" start" if tid == ts.start_type else "")
        draw_text(d, (x0, y0), label, 15, INK, bold=True)
        top = y0 + LABEL - 4
        image.paste(tile_face(tid, 0, CELL), (x0, top))
        for k, (px, py) in enumerate(space_points(tid, 0)):
            cx, cy = x0 + px * CELL, top + py * CELL
            d.ellipse([cx - 10, cy - 10, cx + 10, cy + 10], fill="white", outline=INK, width=2)
            draw_text(d, (cx, cy), str(face.spaces[k] + 1), 14, INK, bold=True, anchor="mm")
    out = ROOT / "docs" / "rules" / "kingdoms_battle_tiles.png"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(to_png(image))
    print(out, image.size)


if __name__ == "__main__":
    main()
