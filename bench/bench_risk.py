"""Risk engine speed: whole 6-AI games, AI decision time and engine step/apply time.

Targets: a 6-player game of normal AIs start to finish well under 2 s. Run::

    .venv/bin/python -m bench.bench_risk [--games N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engines.risk import ENGINE  # noqa: E402


def _pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def run(games: int, variant: str, seats: int) -> None:
    totals, decide, apply_t, step_t, rounds, actions = [], [], [], [], [], []
    for g in range(games):
        rng = random.Random(g)
        state = ENGINE.new_state({"variant": variant, "setup": "quick"}, seats, 1000 + g)
        start = time.perf_counter()
        n = 0
        while ENGINE.result(state) is None:
            req = ENGINE.pending(state)[0]
            t0 = time.perf_counter()
            action = ENGINE.ai_action(state, req.seat, rng, "normal")
            t1 = time.perf_counter()
            ENGINE.step(state, req.seat, action[:1])
            t2 = time.perf_counter()
            state, _ = ENGINE.apply(state, req.seat, action)
            t3 = time.perf_counter()
            decide.append(t1 - t0)
            step_t.append(t2 - t1)
            apply_t.append(t3 - t2)
            n += 1
        totals.append(time.perf_counter() - start)
        rounds.append(state["round"])
        actions.append(n)
    ms = 1000.0
    print(f"{variant} {seats} players, {games} games of normal AIs (quick set-up)")
    print(f"  game time      median {statistics.median(totals):.3f} s   max {max(totals):.3f} s")
    print(f"  rounds/game    median {statistics.median(rounds)}   actions/game median {statistics.median(actions)}")
    print(f"  AI decision    median {statistics.median(decide) * ms:.3f} ms   p99 {_pct(decide, 0.99) * ms:.3f} ms")
    print(f"  engine apply   median {statistics.median(apply_t) * ms:.3f} ms   p99 {_pct(apply_t, 0.99) * ms:.3f} ms")
    print(f"  engine step    median {statistics.median(step_t) * ms:.3f} ms   p99 {_pct(step_t, 0.99) * ms:.3f} ms")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10)
    args = parser.parse_args(argv)
    run(args.games, "classic", 6)
    run(max(1, args.games // 2), "mission", 6)
    return 0


if __name__ == "__main__":
    sys.exit(main())
