"""The scheduler's backlog: ``run_due`` with 2 000 due deadlines across 1 000 Risk matches.

Each match has two human seats and one AI seat on the quick set-up, whose deployment asks every
seat at once; the clock is then moved past the turn, so both humans' deployments time out (2 000
due deadlines) and each time-out is followed by the AI moves it makes owed. The bench times the
rounds until nothing is due any more and reports, per match, when its first change was
published (fairness: no match should wait for all the others). Run::

    .venv/bin/python bench/bench_run_due.py [--matches 1000]

Target (issue 13): 2 000 due deadlines processed in < 5 s.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

# BENCH_ROOT runs this bench against another checkout (bench/compare.py: before/after).
ROOT = Path(os.environ.get("BENCH_ROOT") or Path(__file__).resolve().parent.parent)
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from service.matches import MatchService  # noqa: E402
from store import repo  # noqa: E402
from store.db import Store  # noqa: E402

TURN = 3600


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


class FirstPost:
    """A batch publisher that remembers when each match was first published to after ``arm()``."""

    def __init__(self) -> None:
        self.armed_at: float | None = None
        self.first: dict[int, float] = {}
        self.changes = 0

    def arm(self) -> None:
        self.armed_at = time.perf_counter()

    async def publish(self, match: Any, change: Any) -> None:
        await self.publish_batch(match, [change])

    async def publish_batch(self, match: Any, changes: list[Any]) -> None:
        self.changes += len(changes)
        if self.armed_at is not None and match.id not in self.first:
            self.first[match.id] = time.perf_counter() - self.armed_at


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matches", type=int, default=1000)
    args = ap.parse_args()
    clock = Clock()
    publisher = FirstPost()
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(Path(tmp) / "due.sqlite3")
        service = MatchService(store, publisher=publisher, clock=clock, rate_limits=False)
        t0 = time.perf_counter()
        for i in range(args.matches):
            info = await service.create_lobby("risk", host_id=10_000 + i, host_name=f"H{i}", locale="en",
                                              options={"setup": "quick"}, turn_seconds=TURN)
            await service.join(info.id, 20_000 + i, f"B{i}")
            await service.add_ai(info.id, 10_000 + i)
            await service.start(info.id, 10_000 + i)
        setup = time.perf_counter() - t0
        clock.now += TURN + 1
        due = len(await repo.due_deadlines(store, clock.now, 10 ** 6))
        print(f"matches={args.matches}  due deadlines={due}  (set-up {setup:.1f} s)", flush=True)
        publisher.arm()
        start = time.perf_counter()
        rounds = done = 0
        first_100: float | None = None
        while True:
            n = await service.run_due()
            rounds += 1
            done += n
            if first_100 is None and done >= 100:
                first_100 = time.perf_counter() - start
            left = await repo.due_deadlines(store, clock.now, 1)
            drain = getattr(service, "drain", None)
            if not left and n == 0:
                break
            if not n and drain is not None:
                await drain()
        total = time.perf_counter() - start
        firsts = list(publisher.first.values())
        print(f"run_due: {total:.2f} s for {due} due deadlines ({total / max(1, due) * 1000:.2f} ms an item),"
              f" {rounds} rounds, {done} things done, {publisher.changes} changes published")
        print(f"first 100 things done after {first_100 or 0:.2f} s")
        if firsts:
            print(f"first post per match: median {statistics.median(firsts):.2f} s  p90 {pct(firsts, 0.9):.2f} s"
                  f"  max {max(firsts):.2f} s  ({len(firsts)} matches)")
        await store.close()


if __name__ == "__main__":
    asyncio.run(main())
