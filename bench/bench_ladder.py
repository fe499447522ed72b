"""The AI level ladder of a game (issue 23): hard over normal, normal over easy, easy over random,
per table size, on a seed range, with 95 % intervals and each level's decision time.

    python3 tasks.py bench ladder GAME [--seats N ...] [--pair A:B ...] [--games N]
                                       [--first SEED] [--option NAME=VALUE ...] [--jobs J]

The rate is ``engines.selfplay``'s per-seat rate (A's share of the wins in a two-player game).
Report only seed ranges that were never used while tuning; every figure line names its range.
Defaults are small so that ``python -m bench`` stays short; the figures in the docs use
``--games 1000``.
"""

from __future__ import annotations

import argparse
import sys
from concurrent.futures import ProcessPoolExecutor

import harness

harness.use_code()

from engines import registry  # noqa: E402
from engines.sanguosha.identity import camps  # noqa: E402
from engines.selfplay import Assign, Ladder, alternate, ladder  # noqa: E402

#: The table sizes each game's ladder is measured at (``--seats`` overrides).
SEATS = {
    "pentactic": [2],
    "risk": [2, 3, 5],
    "kingdoms_battle": [3, 4, 5],
    "jiwu": [2, 3, 4],
    "sanguosha": [5, 8],
}

PAIRS = ["hard:normal", "normal:easy", "easy:random"]

#: A game's own seating of the levels (default ``selfplay.alternate``): 三国杀 seats each camp
#: at one level (``identity.camps``).
ASSIGN: dict[str, Assign] = {"sanguosha": camps}


def _run(args: tuple[str, dict[str, str], int, str, str, list[int]]) -> Ladder:
    game, options, seats, a, b, seeds = args
    return ladder(registry.get(game), options, seats, a, b, seeds, assign=ASSIGN.get(game, alternate))


def _merge(parts: list[Ladder]) -> Ladder:
    total = Ladder(parts[0].a, parts[0].b)
    for part in parts:
        for name in ("games", "unfinished", "seats_a", "seats_b", "wins_a", "wins_b", "games_won_a", "games_won_b"):
            setattr(total, name, getattr(total, name) + getattr(part, name))
        for level, ms in part.decide_ms.items():
            total.decide_ms.setdefault(level, []).extend(ms)
    return total


def measure(game: str, options: dict[str, str], seats: int, pair: str, first: int, games: int, jobs: int) -> Ladder:
    a, b = pair.split(":")
    seeds = list(range(first, first + games))
    chunks = [seeds[i::jobs] for i in range(jobs)]
    if jobs == 1:
        return _run((game, options, seats, a, b, seeds))
    with ProcessPoolExecutor(jobs) as pool:
        return _merge(list(pool.map(_run, [(game, options, seats, a, b, c) for c in chunks])))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", nargs="?", default="pentactic")
    parser.add_argument("--seats", type=int, action="append")
    parser.add_argument("--pair", action="append", help="A:B, e.g. hard:normal (default: the three rungs)")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--first", type=int, default=900_000, help="first seed (default 900000)")
    parser.add_argument("--option", action="append", default=[], help="NAME=VALUE lobby option")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    options = dict(o.split("=", 1) for o in args.option)
    with harness.Session(f"ladder {args.game}"):
        for seats in args.seats or SEATS[args.game]:
            for pair in args.pair or PAIRS:
                tally = measure(args.game, options, seats, pair, args.first, args.games, args.jobs)
                lo, hi = tally.bounds()
                print(f"  {args.game} {seats}p {pair:<12} rate {100 * tally.rate:5.1f} %"
                      f" (95 % {100 * lo:.1f}–{100 * hi:.1f})  games {tally.games}"
                      f" unfinished {tally.unfinished}  seeds {args.first}–{args.first + args.games - 1}"
                      f"  options {options or '{}'}", flush=True)
                for level, ms in sorted(tally.decide_ms.items()):
                    if ms:
                        print(f"      {level:<7} decisions {len(ms):7d}  p99 {harness.pct(ms, 0.99):8.2f} ms  max {max(ms):8.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
