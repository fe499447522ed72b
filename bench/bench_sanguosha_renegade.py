"""Why a lone 三国杀 AI renegade loses: the AI plays the renegade seat, random players the rest
(as in ``bench_sanguosha_ai.win_rate``), and every game is sorted into

- won;
- lost with the renegade dead (how many others were still alive when it died, and the cause
  and source role of its fatal damage);
- lost with the renegade alive: the lord died first (how many others were alive, and the cause
  and source role of the lord's fatal damage);

plus the HP the renegade lost and dealt, by cause (杀, 决斗, 南蛮入侵, 闪电 …) and by the other
seat's role; damage dealt to the lord is split into before and in the final 1-v-1.

The cause comes from the engine's ``damage`` frame (its ``via``), read by wrapping the frame
handler for the run only (restored afterwards); decisions are untouched.

Run::

    .venv/bin/python -m bench.bench_sanguosha_renegade [--games 100] [--seats 8 10] [--heroes standard]
        [--seed 7000] [--jobs 2] [--level normal]

``--level`` is the AI level at the renegade seat (easy, normal, hard); a seeded game plays the
same random moves under every level until the renegade's first different decision, so two
levels on the same seeds are a paired comparison. The win rate is printed with its 95 %
interval (Wilson) and the renegade seat's decision times (p99, max; wall time).

A lever worth a few points needs ~1 000 games per cell to see (the standard error of one cell
is ~1.6 points at 1 000 games); ``--jobs 2`` plays them in two processes (~100 s per 1 000
games at 8 seats on this machine).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from multiprocessing import Pool
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import harness  # noqa: E402
from bench.bench_sanguosha_ai import OPTIONS, random_player  # noqa: E402
from engines.sanguosha import ENGINE, ai, frames  # noqa: E402

State = dict[str, Any]

#: The AI level at the renegade seat (``--level``).
LEVEL = {"level": "normal"}


def ai_player(state: State, seat: int, rng: random.Random) -> list[str]:
    return ENGINE.ai_action(state, seat, rng, LEVEL["level"])


def game(n: int, seed: int, times: list[float] | None = None) -> Counter[str]:
    """One seeded game at ``n`` seats (same seeds as the win-rate test and bench): its outcome,
    the cause of the renegade's or the lord's fatal damage, and HP lost and dealt by cause;
    the renegade seat's decision times (seconds) go to ``times``."""
    out: Counter[str] = Counter()
    handler = frames.FLOW.kinds["damage"]
    last: dict[int, str] = {}
    state = ENGINE.new_state(dict(OPTIONS), n, seed)
    rens = [i for i, p in enumerate(state["players"]) if p["role"] == "N"]

    def role(state: State, seat: int | None) -> str:
        return "-" if seat is None else state["players"][seat]["role"]

    def watched(ctx: Any, f: dict[str, Any]) -> None:
        stage = f["st"]
        state = ctx.state
        dst = f["dst"]
        before = state["players"][dst]["hp"]
        handler(ctx, f)
        lost = before - state["players"][dst]["hp"]
        if stage != "inflicted" or lost <= 0:
            return
        src = f["src"]
        last[dst] = f"{f['via']} from {role(state, src)}"
        if dst in rens:
            out[f"HP lost: {f['via']} from {role(state, src)}"] += lost
        elif src in rens:
            final = dst == state["lord"] and sum(p["alive"] for p in state["players"]) == 2
            out[f"HP dealt: {f['via']} to {role(state, dst)}{' (final 1-v-1)' if final else ''}"] += lost

    frames.FLOW.kinds["damage"] = watched
    try:
        rng = random.Random(seed)
        died_with: int | None = None
        killed_by = "?"
        while ENGINE.result(state) is None:
            seat = ENGINE.pending(state)[0].seat
            player = ai_player if seat in rens else random_player
            t0 = time.perf_counter()
            action = player(state, seat, rng)
            if times is not None and player is ai_player:
                times.append(time.perf_counter() - t0)
            state, _ = ENGINE.apply(state, seat, action)
            if died_with is None and not any(state["players"][r]["alive"] for r in rens):
                died_with = sum(p["alive"] for p in state["players"])
                killed_by = last.get(rens[-1], "?")
    finally:
        frames.FLOW.kinds["damage"] = handler
    won = ENGINE.result(state).winners
    if any(s in rens for s in won):
        out["game: won"] += 1
    elif died_with is not None:
        out["game: lost, renegade dead"] += 1
        out[f"  renegade died with {died_with} others alive"] += 1
        out[f"  renegade's fatal damage: {killed_by}"] += 1
    else:
        out["game: lost, lord died first"] += 1
        out[f"  lord died with {sum(p['alive'] for p in state['players'])} others alive"] += 1
        out[f"  lord's fatal damage: {last.get(state['lord'], '?')}"] += 1
    return out


def _game(args: tuple[int, int, dict[str, str], str]) -> tuple[Counter[str], list[float]]:
    n, seed, options, level = args
    ai.STRICT = True
    OPTIONS.clear()
    OPTIONS.update(options)
    LEVEL["level"] = level
    times: list[float] = []
    return game(n, seed, times), times


def breakdown(n: int, games: int, seed0: int = 7000, jobs: int = 1,
              times: list[float] | None = None) -> Counter[str]:
    """Outcome and damage counters summed over ``games`` seeded games at ``n`` seats, played in
    ``jobs`` processes (the figures do not depend on ``jobs``: every game has its own seed);
    the renegade seat's decision times go to ``times``."""
    work = [(n, seed0 + g, dict(OPTIONS), LEVEL["level"]) for g in range(games)]
    if jobs > 1:
        with Pool(jobs) as pool:
            parts = pool.map(_game, work, chunksize=20)
    else:
        parts = [_game(w) for w in work]
    out: Counter[str] = Counter()
    for part, took in parts:
        out.update(part)
        if times is not None:
            times.extend(took)
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seats", type=int, nargs="*", default=[8, 10])
    parser.add_argument("--heroes", default="")
    parser.add_argument("--seed", type=int, default=7000, help="first seed (game g uses seed + g)")
    parser.add_argument("--jobs", type=int, default=1, help="processes to play the games in")
    parser.add_argument("--level", default="normal", choices=ENGINE.ai_levels(),
                        help="the AI level at the renegade seat")
    args = parser.parse_args()
    ai.STRICT = True
    LEVEL["level"] = args.level
    if args.heroes:
        OPTIONS["heroes"] = args.heroes
    for n in args.seats:
        times: list[float] = []
        counts = breakdown(n, args.games, args.seed, args.jobs, times)
        low, high = harness.wilson_bounds(counts["game: won"], args.games)
        ms = [t * 1000 for t in times]
        print(f"{n} seats, {args.games} games (seeds {args.seed}–{args.seed + args.games - 1}), "
              f"{args.level} AI renegade vs random players: won {counts['game: won'] / args.games:.1%} "
              f"(95 % interval {low:.1%}–{high:.1%}); renegade decisions {len(ms)}, "
              f"p99 {harness.pct(ms, 0.99):.2f} ms, max {max(ms, default=float('nan')):.2f} ms")
        for key, count in sorted(counts.items()):
            print(f"  {key}: {count}")


if __name__ == "__main__":
    main()
