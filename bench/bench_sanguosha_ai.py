"""三国杀 AI strength and speed: the AI side against random players in every role, illegal
actions, game length, AI decision time (median, p99) and a full 8-player AI game.

For each role R and each player count, two matches are played per seed:

- ``ai`` — every seat whose role belongs to R's side (lord+loyalists, rebels, renegade) is the
  AI, every other seat plays uniformly random legal moves;
- ``random`` — the same seats swapped (R's side random, the others AI), so the figure says how
  often the AI beats a random team from the other chair as well.

The baseline (everyone random) gives each side's natural win rate. Every AI action is checked by
``choices.validate`` before it is applied (an illegal one is counted, then replaced).

Run::

    .venv/bin/python -m bench.bench_sanguosha_ai [--games N] [--seats 5 8] [--all-ai-games N] [--timing-games N] [--heroes standard]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engines.base import EngineError  # noqa: E402
from engines.sanguosha import ENGINE, ai, choices  # noqa: E402
from engines.sanguosha.engine import random_action  # noqa: E402

State = dict[str, Any]
#: A player: (state, seat, rng) -> action.
Player = Callable[[State, int, random.Random], list[str]]

SIDE_OF = {"Z": "lord", "C": "lord", "F": "rebel", "N": "renegade"}
#: Match options of every game (``--heroes``); the default is the engine's (standard heroes).
OPTIONS: dict[str, str] = {}


def ai_player(state: State, seat: int, rng: random.Random) -> list[str]:
    return ENGINE.ai_action(state, seat, rng)


def random_player(state: State, seat: int, rng: random.Random) -> list[str]:
    return random_action(ENGINE, state, seat, rng)


def play(n: int, seed: int, who: Callable[[State, int], Player], cap: int = 30000,
         stats: dict[str, Any] | None = None) -> State:
    """One game; ``who(state, seat)`` says which player moves that seat. Counts illegal AI
    actions, AI decision times and actions in ``stats``."""
    state = ENGINE.new_state(dict(OPTIONS), n, seed)
    rng = random.Random(seed)
    steps = 0
    while ENGINE.result(state) is None:
        req = ENGINE.pending(state)[0]
        player = who(state, req.seat)
        t0 = time.perf_counter()
        action = player(state, req.seat, rng)
        if stats is not None and player is ai_player:
            stats["decide"].append(time.perf_counter() - t0)
            try:
                choices.validate(state, req.seat, action)
            except EngineError:
                stats["illegal"] += 1
                action = random_player(state, req.seat, rng)
        state, _ = ENGINE.apply(state, req.seat, action)
        steps += 1
        if steps >= cap:
            raise RuntimeError(f"game {n}p seed {seed} does not end")
    if stats is not None:
        stats["actions"] += steps
    return state


def side_won(state: State, side: str) -> bool:
    won = ENGINE.result(state).winners
    return any(SIDE_OF[state["players"][s]["role"]] == side for s in won)


def win_rate(n: int, side: str, games: int, ai_side: bool, seed0: int = 0,
             ai: Player = ai_player, stats: dict[str, Any] | None = None) -> float:
    """How often ``side`` wins when it is played by ``ai`` (``ai_side``) or by random players
    against ``ai`` everywhere else."""
    wins = 0
    for g in range(games):
        def who(state: State, seat: int) -> Player:
            mine = SIDE_OF[state["players"][seat]["role"]] == side
            return ai if mine == ai_side else random_player
        state = play(n, seed0 + g, who, stats=stats)
        wins += side_won(state, side)
        if stats is not None:
            stats["rounds"].append(state["round"])
            if state["round"] > stats.get("longest", (0,))[0]:
                stats["longest"] = (state["round"], n, side, "ai" if ai_side else "random", seed0 + g)
    return wins / games


def _pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def strength(games: int, seat_counts: list[int]) -> dict[str, Any]:
    stats: dict[str, Any] = {"decide": [], "illegal": 0, "actions": 0, "rounds": []}
    print(f"side win rates over {games} seeded games each (AI side / random side vs AI / all random)")
    for n in seat_counts:
        sides = sorted({SIDE_OF[r] for r in _roles(n)}, key=["lord", "rebel", "renegade"].index)
        for side in sides:
            ai = win_rate(n, side, games, True, 7000, stats=stats)
            rnd = win_rate(n, side, games, False, 7000, stats=stats)
            base = win_rate(n, side, games, True, 7000, ai=random_player)
            print(f"  {n:>2}p {side:<8}: AI {ai:5.0%}   random vs AI {rnd:5.0%}   all random {base:5.0%}")
    d = stats["decide"]
    print(f"illegal AI actions: {stats['illegal']} of {len(d)}; rounds per game: median "
          f"{statistics.median(stats['rounds'])}, max {max(stats['rounds'])} "
          f"(rounds, seats, side, side played by, seed: {stats.get('longest')})")
    return stats


def _roles(n: int) -> str:
    from engines.sanguosha.rules import ROLES

    return ROLES[n]


def all_ai(games: int, seat_counts: list[int]) -> None:
    """Everyone the AI: which side wins how often, and how many rounds a game lasts."""
    print(f"all-AI games ({games} each): side wins, rounds median / max")
    for n in seat_counts:
        wins = {"lord": 0, "rebel": 0, "renegade": 0}
        rounds = []
        for g in range(games):
            state = play(n, 5000 + g, lambda s, seat: ai_player)
            won = ENGINE.result(state).winners
            wins[SIDE_OF[state["players"][won[0]]["role"]]] += 1
            rounds.append(state["round"])
        share = "  ".join(f"{k} {v / games:4.0%}" for k, v in wins.items())
        print(f"  {n:>2}p: {share}; rounds {statistics.median(rounds)} / {max(rounds)}")


def timing(games: int, seats: int = 8) -> None:
    stats: dict[str, Any] = {"decide": [], "illegal": 0, "actions": 0, "rounds": []}
    totals, rounds = [], []
    for g in range(games):
        t0 = time.perf_counter()
        state = play(seats, 9000 + g, lambda s, seat: ai_player, stats=stats)
        totals.append(time.perf_counter() - t0)
        rounds.append(state["round"])
    d = stats["decide"]
    ms = 1000
    print(f"{games} full {seats}-player AI games: time median {statistics.median(totals):.2f} s, "
          f"max {max(totals):.2f} s; rounds median {statistics.median(rounds)}, max {max(rounds)}; "
          f"illegal {stats['illegal']}")
    print(f"  AI decision: median {statistics.median(d) * ms:.3f} ms, p99 {_pct(d, 0.99) * ms:.3f} ms, "
          f"max {max(d) * ms:.1f} ms over {len(d)} decisions")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seats", type=int, nargs="*", default=[2, 4, 5, 8])
    parser.add_argument("--all-ai-games", type=int, default=50)
    parser.add_argument("--timing-games", type=int, default=20)
    parser.add_argument("--heroes", default="", help="heroes option: standard (the engine's default) or beginner")
    args = parser.parse_args()
    ai.STRICT = True  # a hint's error is a failure here, not a silent fallback
    if args.heroes:
        OPTIONS["heroes"] = args.heroes
    if args.games:
        strength(args.games, args.seats)
    if args.all_ai_games:
        all_ai(args.all_ai_games, args.seats)
    if args.timing_games:
        timing(args.timing_games)


if __name__ == "__main__":
    main()
