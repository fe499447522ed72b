"""三国杀 国战 (hegemony mode): the AI against random players, all-AI games at 4, 8 and 12 seats,
AI decision time and a full 8-seat AI game on the engine alone (issue 20's figures).

- **AI vs random** — even seats are the AI, odd seats play uniformly random legal moves (at 4, 6
  and 8 seats); a game counts for the AI when a winning seat is an AI seat (the same seats all
  random give the base rate of "a winner sits on an even seat"), and the per-seat win rate of AI
  and random seats; then one AI seat among random players (seeds 705000 + i): how often it wins.
- **All AI** — every seat the AI: each game must end (a cap of 30 000 actions fails the bench);
  rounds median / p99 and wall time per game.
- **Decisions** — every AI decision's time, p99 over all the games above.

Seeds: 700000 + i for the AI-vs-random games, 710000 + i for the all-AI games — never used while
the AI was tuned (tuning used 1–99). Run::

    python3 tasks.py bench hegemony [--games N] [--all-ai-games N]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402

harness.use_code()

from engines.sanguosha import ENGINE, ai  # noqa: E402
from engines.sanguosha.engine import random_action  # noqa: E402

State = dict[str, Any]
OPTIONS = {"mode": "hegemony"}
CAP = 30000


def play(n: int, seed: int, ai_seat: Any, decide_ms: list[float]) -> tuple[State, int]:
    state = ENGINE.new_state(dict(OPTIONS), n, seed)
    rng = random.Random(seed)
    steps = 0
    while ENGINE.result(state) is None:
        req = ENGINE.pending(state)[0]
        if ai_seat(req.seat):
            t0 = time.perf_counter()
            action = ENGINE.ai_action(state, req.seat, rng, "normal", req)
            decide_ms.append((time.perf_counter() - t0) * 1000)
        else:
            action = random_action(ENGINE, state, req.seat, rng)
        state, _ = ENGINE.apply(state, req.seat, action, req)
        steps += 1
        if steps >= CAP:
            raise RuntimeError(f"{n} seats, seed {seed}: no end after {CAP} actions")
    return state, steps


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=100, help="AI-vs-random games per seat count")
    ap.add_argument("--all-ai-games", type=int, default=30, help="all-AI games per seat count")
    args = ap.parse_args()
    ai.STRICT = True  # a hint's error fails the bench instead of falling back
    decide_ms: list[float] = []
    with harness.Session("hegemony") as s:
        for n in (4, 6, 8):
            won = base = 0
            seat_wins = {True: 0, False: 0}
            for i in range(args.games):
                state, _ = play(n, 700000 + i, lambda seat: seat % 2 == 0, decide_ms)
                won += any(w % 2 == 0 for w in state["winners"])
                for w in state["winners"]:
                    seat_wins[w % 2 == 0] += 1
                state, _ = play(n, 700000 + i, lambda seat: False, [])
                base += any(w % 2 == 0 for w in state["winners"])
            s.figure(f"AI vs random {n} seats: AI seat wins", 100 * won / args.games, "%",
                     note=f"95% {harness.wilson(won, args.games)}; all random {100 * base / args.games:.1f} %")
            seats = args.games * (n // 2)
            s.figure(f"AI vs random {n} seats: per-seat win rate, AI", 100 * seat_wins[True] / seats, "%",
                     note=f"random seats {100 * seat_wins[False] / seats:.1f} %")
        for n in (4, 8):  # one AI seat among random players: its win rate against its fair share
            won = 0
            for i in range(args.games):
                state, _ = play(n, 705000 + i, lambda seat: seat == 0, decide_ms)
                won += 0 in state["winners"]
            s.figure(f"one AI among {n - 1} random: AI seat wins", 100 * won / args.games, "%",
                     note=f"95% {harness.wilson(won, args.games)}")
        for n in (4, 8, 12):
            rounds: list[float] = []
            walls: list[float] = []
            for i in range(args.all_ai_games):
                t0 = time.perf_counter()
                state, _ = play(n, 710000 + i, lambda seat: True, decide_ms)
                walls.append((time.perf_counter() - t0) * 1000)
                rounds.append(float(state["round"]))
            s.series(f"all-AI {n} seats: rounds", rounds, unit="rounds", quantiles=("median", "p99"))
            s.series(f"all-AI {n} seats: game", walls, quantiles=("median", "p99"))
        s.series("AI decision", decide_ms, quantiles=("median", "p99", "max"))


if __name__ == "__main__":
    main()
