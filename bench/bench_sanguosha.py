"""三国杀 engine speed: whole 8-player beginner AI games, and per-action apply / AI decision time;
table picture render time and PNG size (target: < 60 ms, < 300 KB).

Run::

    .venv/bin/python -m bench.bench_sanguosha [--games N] [--seats N] [--render-games N]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engines.sanguosha import ENGINE  # noqa: E402


def _pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def run(games: int, seats: int) -> None:
    totals, decide, apply_t, actions, turns, sizes = [], [], [], [], [], []
    for g in range(games):
        rng = random.Random(g)
        state = ENGINE.new_state({"heroes": "beginner"}, seats, 1000 + g)
        start = time.perf_counter()
        n = 0
        while ENGINE.result(state) is None:
            req = ENGINE.pending(state)[0]
            t0 = time.perf_counter()
            action = ENGINE.ai_action(state, req.seat, rng, "normal", req)
            t1 = time.perf_counter()
            state, _ = ENGINE.apply(state, req.seat, action, req)
            t2 = time.perf_counter()
            decide.append(t1 - t0)
            apply_t.append(t2 - t1)
            n += 1
            if n % 50 == 0:
                sizes.append(len(json.dumps(state)))
        totals.append(time.perf_counter() - start)
        actions.append(n)
        turns.append(state["turns"])
    ms = 1000
    print(f"{games} games of {seats} beginner AIs")
    print(f"  game: mean {statistics.mean(totals):.3f} s, max {max(totals):.3f} s; "
          f"actions mean {statistics.mean(actions):.0f}, turns mean {statistics.mean(turns):.0f}")
    print(f"  apply: mean {statistics.mean(apply_t) * ms:.3f} ms, p99 {_pct(apply_t, 0.99) * ms:.3f} ms")
    print(f"  ai decision: mean {statistics.mean(decide) * ms:.3f} ms, p99 {_pct(decide, 0.99) * ms:.3f} ms")
    print(f"  state JSON: mean {statistics.mean(sizes) / 1024:.1f} KiB, max {max(sizes) / 1024:.1f} KiB")


NAMES = ["Alice", "Bob 🐉", "陳小明", "Dmitri Ivanovich", "Eve", "王大力", "Zoë", "Łukasz", "佐藤", "Hank"]


def run_render(games: int, seat_counts: tuple[int, ...] = (5, 8, 10), every: int = 25) -> None:
    """Render the public table every ``every`` actions of AI games (and at the end), in zh-TW
    (the most glyph-heavy locale), and report time and PNG size."""
    from render import render_board

    render_board(ENGINE.view(ENGINE.new_state({}, 8, 1), None), "zh-TW", NAMES)  # warm fonts
    for seats in seat_counts:
        times, sizes = [], []
        for g in range(games):
            rng = random.Random(g)
            state = ENGINE.new_state({"heroes": "beginner"}, seats, 2000 + g)
            n = 0
            while True:
                over = ENGINE.result(state) is not None
                if n % every == 0 or over:
                    view = ENGINE.view(state, None)
                    t0 = time.perf_counter()
                    png = render_board(view, "zh-TW", NAMES[:seats])
                    times.append(time.perf_counter() - t0)
                    sizes.append(len(png))
                if over:
                    break
                req = ENGINE.pending(state)[0]
                state, _ = ENGINE.apply(state, req.seat, ENGINE.ai_action(state, req.seat, rng, "normal", req))
                n += 1
        ms = 1000
        print(f"table render, {seats} seats, {len(times)} images: median {statistics.median(times) * ms:.1f} ms, "
              f"p99 {_pct(times, 0.99) * ms:.1f} ms, max {max(times) * ms:.1f} ms; "
              f"PNG median {statistics.median(sizes) / 1024:.1f} KB, max {max(sizes) / 1024:.1f} KB "
              f"(target < 60 ms, < 300 KB)")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seats", type=int, default=8)
    parser.add_argument("--render-games", type=int, default=3, help="AI games whose tables are rendered (0: skip)")
    args = parser.parse_args()
    run(args.games, args.seats)
    if args.render_games:
        run_render(args.render_games)


if __name__ == "__main__":
    main()
