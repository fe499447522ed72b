"""PNG encoding of board pictures: time and bytes per zlib level, to pick ``render.common.PNG_LEVEL``.

Each picture is quantized once (as ``render.common.to_png`` does), then saved at every level.
Run::

    .venv/bin/python bench/bench_png.py [--repeat N]
"""

from __future__ import annotations

import argparse
import io
import os
import random
import statistics
import sys
import time
from pathlib import Path

# BENCH_ROOT runs this bench against another checkout (bench/compare.py: before/after).
sys.path.insert(0, os.environ.get("BENCH_ROOT") or str(Path(__file__).resolve().parent.parent))

from PIL import Image  # noqa: E402

from render.common import to_png  # noqa: E402

NAMES = ["Alice", "Bob 🐉", "陳小明", "Łukasz", "王大力", "Zoë"]
LEVELS = (1, 2, 3, 4, 6, 9)


def _pictures() -> list[tuple[str, Image.Image]]:
    from engines.pentactic import ENGINE as PENTACTIC
    from engines.risk import ENGINE as RISK
    from render import pentactic, risk

    out = []
    state = RISK.new_state({"variant": "hq", "setup": "quick"}, 5, 7)
    rng = random.Random(7)
    for _ in range(300):
        if not RISK.pending(state):
            break
        seat = RISK.pending(state)[0].seat
        state, _ = RISK.apply(state, seat, RISK.ai_action(state, seat, rng))
    out.append(("risk hq 5p", risk.render_image(RISK.view(state, None), "zh-TW", NAMES)))
    for board in ("8x8", "11x6"):
        state = PENTACTIC.new_state({"mode": "3", "board": board}, 4, 7)
        rng = random.Random(7)
        for _ in range(8):
            if not PENTACTIC.pending(state):
                break
            seat = PENTACTIC.pending(state)[0].seat
            state, _ = PENTACTIC.apply(state, seat, PENTACTIC.ai_action(state, seat, rng))
        out.append((f"pentactic {board}", pentactic.compose(PENTACTIC.view(state, None), "zh-TW", NAMES)))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args(argv)
    for label, img in _pictures():
        quantized = Image.open(io.BytesIO(to_png(img, compress_level=0)))
        quantized.load()
        print(f"{label} ({img.size[0]}x{img.size[1]})")
        for level in LEVELS:
            times = []
            data = b""
            for _ in range(args.repeat):
                buf = io.BytesIO()
                t0 = time.perf_counter()
                quantized.save(buf, format="PNG", compress_level=level)
                times.append(time.perf_counter() - t0)
                data = buf.getvalue()
            print(f"  level {level}: {statistics.median(times) * 1000:6.1f} ms  {len(data) / 1024:6.1f} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
