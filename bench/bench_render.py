"""Pentactic render time and PNG size, mid-game and end-game, for every board size and mode, and
act + view + PNG per move (target, issue 13: p99 < 30 ms).

The views come from real games the engine's AI plays against itself (fixed seeds), so the boards
look like what players will see. Run::

    .venv/bin/python bench/bench_render.py [--repeat N] [--save DIR] [--locale zh-TW]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402

harness.use_code()

from engines.pentactic import BOARDS, ENGINE  # noqa: E402
from render import pentactic  # noqa: E402

NAMES = ["Alice", "Bob 🐉", "陳小明", "Łukasz", "王大力", "Zoë"]
MODES = (("1", 2), ("2", 2), ("3", 4), ("3", 6), ("4", 1))


def game_views(mode: str, board: str, seats: int, seed: int = 7) -> dict[str, dict[str, Any]]:
    """Public views half-way through and at the end of one AI-vs-AI game."""
    state = ENGINE.new_state({"mode": mode, "board": board}, seats, seed)
    rng = random.Random(seed)
    history = [ENGINE.view(state, None)]
    while pending := ENGINE.pending(state):
        seat = pending[0].seat
        state, _ = ENGINE.apply(state, seat, ENGINE.ai_action(state, seat, rng))
        history.append(ENGINE.view(state, None))
    return {"mid": history[len(history) // 2], "end": history[-1]}


def act_view_png(locale: str) -> tuple[list[float], list[int]]:
    """Milliseconds and bytes of apply + public view + PNG for every move of AI games on every
    board and mode (the AI's thinking is not counted: a human's click arrives as an action)."""
    times: list[float] = []
    sizes: list[int] = []
    for board in BOARDS:
        for mode, seats in MODES:
            state = ENGINE.new_state({"mode": mode, "board": board}, seats, 3)
            rng = random.Random(3)
            while pending := ENGINE.pending(state):
                seat = pending[0].seat
                action = ENGINE.ai_action(state, seat, rng)
                t0 = time.perf_counter()
                state, _ = ENGINE.apply(state, seat, action)
                png = pentactic.render(ENGINE.view(state, None), locale, NAMES)
                times.append((time.perf_counter() - t0) * 1000)
                sizes.append(len(png))
    return times, sizes


def measure(view: dict[str, Any], locale: str, repeat: int) -> tuple[float, int, tuple[int, int]]:
    """Median milliseconds, PNG bytes and pixel size of one view."""
    times = []
    png = b""
    for _ in range(repeat):
        t0 = time.perf_counter()
        png = pentactic.render(view, locale, NAMES)
        times.append(time.perf_counter() - t0)
    size = pentactic.compose(view, locale, NAMES).size
    return statistics.median(times) * 1000, len(png), size


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=10)
    ap.add_argument("--save", type=Path, help="write every PNG into this folder")
    ap.add_argument("--locale", default="zh-TW")
    args = ap.parse_args(argv)
    with harness.Session("render") as s:
        return _run(s, args)


def _run(s: harness.Session, args: argparse.Namespace) -> int:
    pentactic.render(game_views("1", "8x8", 2)["mid"], args.locale, NAMES)  # warm fonts and caches
    print(f"{'mode':>4} {'board':>5} {'seats':>5} {'stage':>5} {'pixels':>10} {'ms':>6} {'KB':>6}")
    worst = 0.0
    slowest = 0.0
    for board in BOARDS:
        for mode, seats in MODES:
            for stage, view in game_views(mode, board, seats).items():
                ms, nbytes, (w, h) = measure(view, args.locale, args.repeat)
                worst = max(worst, nbytes / 1024)
                slowest = max(slowest, ms)
                print(f"{mode:>4} {board:>5} {seats:>5} {stage:>5} {w:>4}x{h:<5} {ms:6.1f} {nbytes / 1024:6.1f}")
                if args.save:
                    args.save.mkdir(parents=True, exist_ok=True)
                    name = f"pentactic_m{mode}_{board}_{seats}p_{stage}.png"
                    (args.save / name).write_bytes(pentactic.render(view, args.locale, NAMES))
    s.figure("picture, slowest median", slowest, "ms")
    s.figure("largest PNG", worst, "KB")
    times, sizes = act_view_png(args.locale)
    s.series("apply + view + PNG", times, note="every move of AI games, all boards and modes")
    s.figure("PNG median", statistics.median(sizes) / 1024, "KB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
