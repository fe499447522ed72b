"""Pentactic speed: engine apply, AI decisions (easy/normal, attacker/defender), exact solver.

The AI budget is < 200 ms per decision on the project machine. Run::

    .venv/bin/python -m bench.bench_pentactic [--games N]
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

from engines.pentactic import ENGINE, PIECES  # noqa: E402
from engines.pentactic.geometry import BOARDS, SOLO_DISCS, geometry  # noqa: E402
from engines.pentactic.solver import solve  # noqa: E402


def _ms(values: list[float]) -> str:
    if not values:
        return "n/a"
    values = sorted(values)
    p95 = values[min(len(values) - 1, int(0.95 * len(values)))]
    return (f"median {statistics.median(values) * 1000:7.2f} ms  p95 {p95 * 1000:7.2f} ms  "
            f"max {values[-1] * 1000:7.2f} ms  (n={len(values)})")


def bench_games(games: int) -> None:
    apply_t: list[float] = []
    decide: dict[tuple[str, str], list[float]] = {}
    for g in range(games):
        board = list(BOARDS)[g % 3]
        state = ENGINE.new_state({"mode": "2", "board": board}, 2, 500 + g)
        rng = random.Random(g)
        levels = {g % 2: "normal", 1 - g % 2: "easy"}
        while ENGINE.pending(state):
            req = ENGINE.pending(state)[0]
            level = levels[req.seat]
            phase = state["phase"]
            t0 = time.perf_counter()
            action = ENGINE.ai_action(state, req.seat, rng, level)
            t1 = time.perf_counter()
            state, _ = ENGINE.apply(state, req.seat, action)
            t2 = time.perf_counter()
            role = {"attack": "attacker", "defend": "defender"}.get(phase, phase)
            decide.setdefault((level, role), []).append(t1 - t0)
            apply_t.append(t2 - t1)
    print(f"mode 2, {games} games (normal vs easy, all three boards)")
    print(f"  engine apply            {_ms(apply_t)}")
    for (level, role), values in sorted(decide.items()):
        print(f"  AI {level:6s} {role:9s}   {_ms(values)}")


def bench_normal_selfplay(games: int) -> None:
    decide: dict[str, list[float]] = {}
    for g in range(games):
        state = ENGINE.new_state({"mode": "1", "board": list(BOARDS)[g % 3]}, 2, 900 + g)
        rng = random.Random(g)
        while ENGINE.pending(state):
            req = ENGINE.pending(state)[0]
            phase = state["phase"]
            t0 = time.perf_counter()
            action = ENGINE.ai_action(state, req.seat, rng, "normal")
            decide.setdefault(phase, []).append(time.perf_counter() - t0)
            state, _ = ENGINE.apply(state, req.seat, action)
    print(f"mode 1, {games} games normal vs normal")
    for phase, values in sorted(decide.items()):
        print(f"  AI normal {phase:9s}      {_ms(values)}")


def bench_solver(deals: int) -> None:
    for size, (w, h) in BOARDS.items():
        new_t, solve_t = [], []
        for seed in range(deals):
            t0 = time.perf_counter()
            state = ENGINE.new_state({"mode": "4", "board": size, "deal": "solvable"}, 1, seed)
            t1 = time.perf_counter()
            g = geometry(w, h)
            occ = g.cells_mask([(x, y) for x, y, _ in state["boards"][0]["discs"]])
            assert len(state["boards"][0]["discs"]) == SOLO_DISCS[size]
            sol = solve(w, h, occ, PIECES, spare=0)
            t2 = time.perf_counter()
            assert sol is not None
            new_t.append(t1 - t0)
            solve_t.append(t2 - t1)
        print(f"solo {size:5s} solvable deal   {_ms(new_t)}")
        print(f"solo {size:5s} solve the deal  {_ms(solve_t)}")
    t0 = time.perf_counter()
    g = geometry(8, 8)
    solve(8, 8, g.cells_mask([(3, 3), (4, 3), (3, 4), (4, 4)]), PIECES, spare=0)
    print(f"8x8 minus centre, first solution: {(time.perf_counter() - t0) * 1000:.1f} ms")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--deals", type=int, default=10)
    args = parser.parse_args(argv)
    bench_games(args.games)
    bench_normal_selfplay(max(1, args.games // 3))
    bench_solver(args.deals)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
