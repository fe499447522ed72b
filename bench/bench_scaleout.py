"""Actions per second through the service on SQLite vs PostgreSQL with 1, 2 and 3 processes.

The same workload in every run: ``--matches`` two-human matches of the service tests' toy game,
``--actions`` act() calls in all, split evenly over the processes; each process plays its share of
the matches (a match's clicks reach the process of its guild's shard), all of them concurrently,
each match's two simulated players acting one after the other as fast as the service answers.
Finished matches are replaced by new ones. Every process is a separate OS process with its own
store connection(s), started together; reported: actions/s over the slowest process's wall time,
and the act() latency median and p99 over all processes.

SQLite with several processes means several writers on one WAL file (each waits for the file's
write lock); PostgreSQL runs one throwaway server (``tools.pg_local``, fsync off, as in the
tests: a real server with fsync on is slower per commit). Run::

    .venv/bin/python bench/bench_scaleout.py [--matches 24] [--actions 1200] [--processes 1,2,3]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "service"))

import svc_toy_engine  # noqa: E402

from service.matches import MatchService  # noqa: E402
from store.base import open_store  # noqa: E402

HOST0, GUEST0 = 10_000, 20_000


async def new_match(service: MatchService, n: int) -> int:
    host, guest = HOST0 + n, GUEST0 + n
    info = await service.create_lobby(svc_toy_engine.SLUG, host_id=host, host_name="H", locale="en",
                                      options={"target": "30"}, turn_seconds=3600)
    await service.join(info.id, guest, "G")
    return (await service.start(info.id, host)).id


async def play(service: MatchService, slot: int, share: int, times: list[float]) -> None:
    """One concurrently played match (replaced when it ends) until ``share`` actions are done."""
    engine = svc_toy_engine.ENGINE
    n = slot * 1000
    mid = await new_match(service, n)
    done = 0
    while done < share:
        info = await service.get(mid)
        if info.status != "active":
            n += 1
            mid = await new_match(service, n)
            continue
        row = await service.store.fetchone("SELECT state FROM matches WHERE id = ?", (mid,))
        state = json.loads(row["state"])
        req = engine.pending(state)[0]
        user = (HOST0 if req.seat == 0 else GUEST0) + n
        verb = engine.step(state, req.seat, []).options[0].value
        t0 = time.perf_counter()
        await service.act(mid, user, req.id, [verb, "1"])
        times.append(time.perf_counter() - t0)
        done += 1


async def worker(target: str, slots: list[int], actions: int, start_at: float) -> dict[str, Any]:
    svc_toy_engine.install()
    store = await open_store(target)
    service = MatchService(store, rate_limits=False, offload=False)  # type: ignore[arg-type]
    times: list[float] = []
    try:
        await asyncio.sleep(max(0.0, start_at - time.time()))
        t0 = time.perf_counter()
        per = actions // len(slots)
        await asyncio.gather(*(play(service, s, per, times) for s in slots))
        wall = time.perf_counter() - t0
    finally:
        await store.close()
    return {"wall": wall, "times": times}


def run(target: str, processes: int, matches: int, actions: int) -> dict[str, float]:
    slots = list(range(matches))
    shares = [slots[i::processes] for i in range(processes)]
    start_at = time.time() + 2.0  # all processes import and connect first, then start together
    procs = [subprocess.Popen([sys.executable, __file__, "--worker", target, "--slots", ",".join(map(str, s)),
                               "--actions", str(actions // processes), "--start-at", str(start_at)],
                              stdout=subprocess.PIPE, text=True, cwd=ROOT) for s in shares]
    results = []
    for p in procs:
        out, _ = p.communicate(timeout=900)
        if p.returncode != 0:
            raise SystemExit(f"worker failed ({p.returncode})")
        results.append(json.loads(out.strip().splitlines()[-1]))
    times = sorted(t * 1000 for r in results for t in r["times"])
    wall = max(r["wall"] for r in results)
    return {"actions": len(times), "per_s": len(times) / wall, "median": statistics.median(times),
            "p99": times[min(len(times) - 1, int(len(times) * 0.99))]}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=24)
    parser.add_argument("--actions", type=int, default=1200)
    parser.add_argument("--processes", default="1,2,3")
    parser.add_argument("--backends", default="sqlite,postgres")
    parser.add_argument("--worker")
    parser.add_argument("--slots")
    parser.add_argument("--start-at", type=float, default=0.0)
    args = parser.parse_args()
    if args.worker:
        slots = [int(s) for s in args.slots.split(",")]
        out = asyncio.run(worker(args.worker, slots, args.actions, args.start_at))
        print(json.dumps(out))
        return 0
    from tools.pg_local import LocalPostgres, PostgresUnavailable

    counts = [int(p) for p in args.processes.split(",")]
    backends = args.backends.split(",")
    server = None
    if "postgres" in backends:
        try:
            server = LocalPostgres().start()
        except PostgresUnavailable as err:
            print(f"PostgreSQL skipped: {err}")
            backends.remove("postgres")
    print(f"{args.matches} matches, {args.actions} act() calls per run, toy game, 2 humans per match")
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for backend in backends:
                for n in counts:
                    if backend == "sqlite":
                        target = str(Path(tmp) / f"bench{n}.sqlite3")
                    else:
                        assert server is not None
                        db = f"bench{n}"
                        asyncio.run(_create_db(server.url(), db))
                        target = server.url(db)
                    asyncio.run(_migrate(target))  # once, before the processes start together
                    r = run(target, n, args.matches, args.actions)
                    print(f"{backend:<9} processes={n}  {r['per_s']:7.1f} actions/s  median={r['median']:6.2f} ms"
                          f"  p99={r['p99']:7.2f} ms  (n={r['actions']})", flush=True)
    finally:
        if server is not None:
            server.stop()
    return 0


async def _migrate(target: str) -> None:
    store = await open_store(target)
    await store.close()


async def _create_db(url: str, name: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        await conn.execute(f"CREATE DATABASE {name}")
    finally:
        await conn.close()


if __name__ == "__main__":
    sys.exit(main())
