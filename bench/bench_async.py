"""Asynchronous play at the pace of people who look at Discord a few times a day (issue 19), over
many seeds: the simulation of ``tests/service/async_sim.py`` (people look in 3 times a day at
random moments and answer what is pending; AI seats and the service do the rest at the service's
own deadlines; default settings, one-day turns, "auto" reaction time) for the 8-seat 三国杀 table
(4 people, 4 AI), a 4-seat one and a 2-seat 极武三国 game. Prints per table the median and the
range over the seeds of: simulated days, the share of person-asking windows closed by standing
answers alone, the longest window wait, and notifications per person per day. Run::

    .venv/bin/python -m bench async [--seeds N] [--base SEED]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(os.environ.get("BENCH_ROOT") or Path(__file__).resolve().parent.parent)
for extra in (ROOT, ROOT / "tests" / "service"):
    if str(extra) not in sys.path:
        sys.path.insert(0, str(extra))

from async_sim import simulate  # noqa: E402

from store.db import Store  # noqa: E402

PEOPLE = [101, 202, 303, 404]
TABLES = (("三国杀 8 seats (4 people, 4 AI)", "sanguosha", PEOPLE, 4, None),
          ("三国杀 4 seats (2 people, 2 AI)", "sanguosha", PEOPLE[:2], 2, None),
          ("极武三国 2 seats (2 people)", "jiwu", PEOPLE[:2], 0, {PEOPLE[0]: {"duel": "atk,par,brk"}}))


def _span(values: list[float], fmt: str) -> str:
    return f"{format(statistics.median(values), fmt)} ({format(min(values), fmt)}–{format(max(values), fmt)})"


async def run(seeds: int, base: int) -> None:
    print(f"seeds {base}–{base + seeds - 1}; median (min–max) over the seeds")
    print("| table | finished | days | windows asking a person | closed by standing answers | longest wait (h) "
          "| notifications per person per day (max) |")
    print("|---|---|---|---|---|---|---|")
    for label, game, humans, ai, standing in TABLES:
        reports = []
        for seed in range(base, base + seeds):
            with tempfile.TemporaryDirectory() as tmp:
                store = await Store.open(Path(tmp) / "sim.sqlite3")
                try:
                    reports.append(await simulate(store, game, humans, ai, seed=seed, standing=standing))
                finally:
                    await store.close()
        finished = sum(r.finished for r in reports)
        print(f"| {label} | {finished}/{len(reports)} | {_span([r.days for r in reports], '.1f')} | "
              f"{_span([r.windows for r in reports], '.0f')} | {_span([100 * r.standing_share for r in reports], '.0f')} % | "
              f"{_span([r.longest_window / 3600 for r in reports], '.2f')} | "
              f"{_span([max(r.per_day(u) for u in r.notifications) for r in reports], '.1f')} |", flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--base", type=int, default=100)
    args = ap.parse_args(argv)
    asyncio.run(run(args.seeds, args.base))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
