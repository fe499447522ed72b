"""What a Risk game leaves in the database: the action log (events packed vs. their JSON), the
state row, and the outbox before and after its retention (``outbox_keep_seconds``).

``--games`` whole 6-seat Risk games (quick set-up, normal AIs; the host's seat is played by the
same AI through ``act()``) are played through the match service on a temporary database; then the clock passes the retention and ``run_due`` prunes the delivered
outbox rows. Run::

    .venv/bin/python bench/bench_storage.py [--games 5] [--variant classic]

Targets (issue 13): delivered outbox rows pruned after a retention period; events stored compactly.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

# BENCH_ROOT runs this bench against another checkout (bench/compare.py: before/after).
ROOT = Path(os.environ.get("BENCH_ROOT") or Path(__file__).resolve().parent.parent)
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.bench_run_due import Clock  # noqa: E402
from engines.risk import ENGINE  # noqa: E402
from service.matches import MatchService  # noqa: E402
from store import compact  # noqa: E402
from store.db import Store  # noqa: E402


class Sink:
    async def publish_batch(self, match: Any, changes: list[Any]) -> None:
        return None

    async def publish(self, match: Any, change: Any) -> None:
        return None


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=5)
    ap.add_argument("--variant", default="classic")
    args = ap.parse_args()
    clock = Clock()
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(Path(tmp) / "storage.sqlite3")
        service = MatchService(store, publisher=Sink(), clock=clock, rate_limits=False, offload=False)
        ids = []
        for g in range(args.games):
            info = await service.create_lobby("risk", host_id=1000 + g, host_name=f"H{g}", locale="en",
                                              options={"setup": "quick", "variant": args.variant})
            for _ in range(5):
                await service.add_ai(info.id, 1000 + g)
            await service.start(info.id, 1000 + g)
            rng = random.Random(g)
            # The host's seat is played by the engine's AI through act(), as a person would.
            while (await service.get(info.id)).status == "active":
                rids = await service.pending_for_user(info.id, 1000 + g)
                if not rids:
                    if not await service.run_due():
                        break
                    continue
                state = (await service.export(info.id, include_state=True))["state"]
                await service.act(info.id, 1000 + g, rids[0], ENGINE.ai_action(state, 0, rng, "normal"))
            ids.append(info.id)
        log, events, events_json, states, actions = [], [], [], [], []
        for mid in ids:
            rows = await store.fetchall("SELECT action, events FROM actions WHERE match_id = ?", (mid,))
            actions.append(len(rows))
            packed = sum(len(r["events"]) for r in rows)
            plain = sum(len(json.dumps(compact.unpack(r["events"]), separators=(",", ":"), ensure_ascii=False)
                            .encode()) for r in rows)
            log.append(packed + sum(len(r["action"]) for r in rows))
            events.append(packed)
            events_json.append(plain)
            row = await store.fetchone("SELECT LENGTH(state) AS n FROM matches WHERE id = ?", (mid,))
            states.append(row["n"])
        outbox = await store.fetchone("SELECT COUNT(*) AS n, SUM(LENGTH(payload)) AS b FROM outbox")
        kb = 1024.0
        print(f"{args.games} {args.variant} 6-AI games, median {statistics.median(actions):.0f} actions")
        print(f"  action log per game  median {statistics.median(log) / kb:.1f} KB"
              f"  (events {statistics.median(events) / kb:.1f} KB packed, {statistics.median(events_json) / kb:.1f} KB"
              f" as JSON: {statistics.median(e / j for e, j in zip(events, events_json, strict=True)) * 100:.0f} %)")
        print(f"  state row            median {statistics.median(states) / kb:.1f} KB")
        print(f"  outbox before        {outbox['n']} rows, {(outbox['b'] or 0) / kb:.0f} KB")
        clock.now += service._outbox_keep + 1  # noqa: SLF001 - the retention the service was built with
        await service.run_due()
        after = await store.fetchone("SELECT COUNT(*) AS n, SUM(LENGTH(payload)) AS b FROM outbox")
        print(f"  outbox after {service._outbox_keep / 3600:.0f} h  {after['n']} rows,"  # noqa: SLF001
              f" {(after['b'] or 0) / kb:.0f} KB")
        await store.close()


if __name__ == "__main__":
    asyncio.run(main())
