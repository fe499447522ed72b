"""Many live matches at once: actions/s, the players' act() latency (p50/p99) and memory.

``--matches`` Risk matches (quick set-up, one person and two AI seats each) are played at the
same time for ``--seconds`` (default 5 minutes): every person is a client that thinks for a
random 0–``--think`` seconds, then answers its request through ``MatchService.act`` (the AI
seats answer in the background, as in the bot); a finished match is replaced by a new one. The
scheduler runs as in the bot. Reported: committed actions per second (people's and AI's),
the latency of the people's act() calls once every match is dealt, and the process's RSS. Run::

    .venv/bin/python bench/bench_live.py [--matches 1000] [--seconds 300] [--think 2]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import resource
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

from bench.bench_memory import rss_mb  # noqa: E402
from engines import registry  # noqa: E402
from service.errors import UserError  # noqa: E402
from service.matches import MatchService  # noqa: E402
from service.scheduler import Scheduler  # noqa: E402
from store import repo  # noqa: E402
from store.db import Store  # noqa: E402


class NullPublisher:
    async def publish(self, match: Any, change: Any) -> None:
        return None

    async def publish_batch(self, match: Any, changes: list[Any]) -> None:
        return None


async def new_match(service: MatchService, user: int) -> int:
    info = await service.create_lobby("risk", host_id=user, host_name=f"P{user}", locale="en",
                                      options={"setup": "quick"}, turn_seconds=300)
    await service.add_ai(info.id, user)
    await service.add_ai(info.id, user)
    return (await service.start(info.id, user)).id


async def player(service: MatchService, user: int, stop: float, think: float, lat: list[float],
                 counts: dict[str, int]) -> None:
    engine = registry.get("risk")
    rng = random.Random(user)
    match_id = await new_match(service, user)
    counts["started"] += 1
    while time.monotonic() < stop:
        await asyncio.sleep(rng.random() * think)
        rids = await service.pending_for_user(match_id, user)
        if not rids:
            info = await service.get(match_id)
            if info.status != "active":
                counts["games"] += 1
                match_id = await new_match(service, user)
            continue
        rec = await repo.get_match(service.store, match_id)
        assert rec is not None and rec.state is not None
        seat = next(r.seat for r in engine.pending(rec.state) if r.id == rids[0])
        action = engine.ai_action(rec.state, seat, rng)
        t0 = time.perf_counter()
        try:
            await service.act(match_id, user, rids[0], action)
        except UserError:  # stale: the turn timed out meanwhile
            counts["stale"] += 1
            continue
        if counts["started"] >= counts["matches"]:  # after the start-up storm (all matches dealt)
            lat.append(time.perf_counter() - t0)
        else:
            counts["warm-up acts"] += 1


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matches", type=int, default=1000)
    ap.add_argument("--seconds", type=float, default=300.0)
    ap.add_argument("--think", type=float, default=2.0, help="most seconds a player thinks")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(Path(tmp) / "live.sqlite3")
        service = MatchService(store, publisher=NullPublisher(), rate_limits=False, ai_in_background=True)
        scheduler = Scheduler(service, interval=1.0)
        scheduler.start()
        lat: list[float] = []
        counts = {"games": 0, "stale": 0, "started": 0, "matches": args.matches, "warm-up acts": 0}
        rss0 = rss_mb()
        t0 = time.monotonic()
        stop = t0 + args.seconds
        before = (await store.fetchone("SELECT COUNT(*) AS n FROM actions"))["n"]
        await asyncio.gather(*(player(service, 1000 + i, stop, args.think, lat, counts)
                               for i in range(args.matches)))
        elapsed = time.monotonic() - t0
        await scheduler.stop()
        await service.drain()
        actions = (await store.fetchone("SELECT COUNT(*) AS n FROM actions"))["n"] - before
        ms = sorted(x * 1000 for x in lat)
        p99 = ms[min(len(ms) - 1, int(0.99 * len(ms)))] if ms else 0.0
        db = sum(f.stat().st_size for f in Path(tmp).iterdir())
        print(f"matches={args.matches} seconds={elapsed:.0f} think<= {args.think}s")
        print(f"actions: {actions} committed ({actions / elapsed:.0f}/s), people's act() {len(ms)}"
              f" ({len(ms) / elapsed:.0f}/s), games finished {counts['games']}, stale {counts['stale']}")
        if ms:
            print(f"act() latency once all matches were dealt ({counts['warm-up acts']} acts before left out):"
                  f" median {statistics.median(ms):.1f} ms  p99 {p99:.1f} ms  max {ms[-1]:.1f} ms")
        print(f"RSS: {rss0:.0f} MB at start, {rss_mb():.0f} MB at the end"
              f" (peak {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB); database {db / 1e6:.1f} MB")
        await store.close()


if __name__ == "__main__":
    asyncio.run(main())
