"""Memory with many live matches: 200 active matches in one process, all moving concurrently.

The service keeps no match state in memory between calls (every call reads the committed row),
so resident memory should barely grow with the number of matches; this checks it. Run::

    .venv/bin/python bench/bench_memory.py [--matches 200] [--rounds 5] [--game pentactic]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import random
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engines import registry  # noqa: E402
from service.matches import MatchService  # noqa: E402
from store.db import Store  # noqa: E402


def rss_mb() -> float:
    """Current resident set size (Linux /proc), else the peak from getrusage."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def pick_game(wanted: str | None) -> str:
    if wanted:
        return wanted
    if "pentactic" in registry.available():
        return "pentactic"
    sys.path.insert(0, str(ROOT / "tests" / "service"))
    import svc_toy_engine

    return svc_toy_engine.install().slug


async def one_move(service: MatchService, match_id: int, rng: random.Random) -> bool:
    """Both humans are played by this script: answer one pending request if any."""
    info = await service.get(match_id)
    if info.status != "active":
        return False
    engine = registry.get(info.game)
    for seat in info.seats:
        assert seat.user_id is not None
        rids = await service.pending_for_user(match_id, seat.user_id)
        if rids:
            row = await service.store.fetchone("SELECT state FROM matches WHERE id = ?", (match_id,))
            action = engine.ai_action(json.loads(row["state"]), seat.seat, rng)
            await service.act(match_id, seat.user_id, rids[0], action)
            return True
    return False


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5, help="moves per match, all matches at once")
    parser.add_argument("--game", default=None)
    args = parser.parse_args()
    game = pick_game(args.game)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "mem.sqlite3"
        store = await Store.open(path)
        service = MatchService(store, rate_limits=False)
        # Warm up first so imports, engine tables and the worker threads are not counted per match.
        warm = await service.create_lobby(game, host_id=1, host_name="W", locale="en")
        await service.join(warm.id, 2, "X")
        await service.start(warm.id, 1)
        for _ in range(args.rounds):
            await one_move(service, warm.id, random.Random(0))
        gc.collect()
        base = rss_mb()
        t0 = time.perf_counter()
        ids = []
        for i in range(args.matches):
            info = await service.create_lobby(game, host_id=10_000 + i, host_name=f"A{i}", locale="en")
            await service.join(info.id, 20_000 + i, f"B{i}")
            ids.append((await service.start(info.id, 10_000 + i)).id)
        created = time.perf_counter() - t0
        after_create = rss_mb()
        rng = random.Random(3)
        t0 = time.perf_counter()
        moves = 0
        for _ in range(args.rounds):
            done = await asyncio.gather(*(one_move(service, mid, rng) for mid in ids))
            moves += sum(done)
        played = time.perf_counter() - t0
        gc.collect()
        after_play = rss_mb()
        active = len([m for m in ids if (await service.get(m)).status == "active"])
        await store.close()
        size = path.stat().st_size + sum(p.stat().st_size for p in path.parent.glob("mem.sqlite3-*"))
    print(f"game={game}  matches={args.matches}  still active={active}")
    print(f"RSS: baseline {base:.1f} MB  after start {after_create:.1f} MB  after play {after_play:.1f} MB"
          f"  (+{after_play - base:.1f} MB, {(after_play - base) * 1024 / args.matches:.1f} KB/match)")
    print(f"created+started {args.matches} matches in {created:.2f} s; {moves} concurrent moves in {played:.2f} s"
          f" ({moves / played:.0f} moves/s)")
    print(f"database on disk: {size / 1024:.0f} KB")


if __name__ == "__main__":
    asyncio.run(main())
