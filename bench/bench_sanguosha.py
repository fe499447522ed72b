"""三国杀 engine speed: whole 8-player beginner AI games, and per-action apply / AI decision time.

Run::

    .venv/bin/python -m bench.bench_sanguosha [--games N] [--seats N]
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


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seats", type=int, default=8)
    args = parser.parse_args()
    run(args.games, args.seats)


if __name__ == "__main__":
    main()
