"""Subprocess for the PostgreSQL kill -9 test: one scheduler round at a fixed clock whose
publisher never returns, so the process dies holding its leases, its delivery lock and its
committed-but-unpublished time-outs. Prints ``publishing`` when it is stuck there."""

from __future__ import annotations

import asyncio
import sys

import svc_toy_engine

from service.matches import MatchService
from service.models import Change, MatchInfo
from store.base import open_store


class Stuck:
    async def publish(self, match: MatchInfo, change: Change) -> None:
        print("publishing", change.match_id, change.kind, flush=True)
        await asyncio.Event().wait()  # until killed


async def main(url: str, now: float) -> None:
    svc_toy_engine.install()
    store = await open_store(url)
    service = MatchService(store, publisher=Stuck(), clock=lambda: now, offload=False)  # type: ignore[arg-type]
    await service.run_due()
    await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], float(sys.argv[2])))
