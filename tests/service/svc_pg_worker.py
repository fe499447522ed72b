"""Subprocess for the PostgreSQL kill -9 tests: one scheduler round at a fixed clock, stuck where
the test wants the process to die, so it dies holding what it held there.

- ``publish`` (default): the publisher never returns, so the process dies holding its leases,
  its delivery lock and its committed-but-unpublished time-outs. Prints ``publishing``.
- ``engine``: the first time-out's engine call blocks the process (``offload=False``: the engine
  runs on the event loop), so it dies right after claiming every due deadline, none applied.
  Prints ``engine``.

    python svc_pg_worker.py URL NOW [OWNER] [publish|engine]

``OWNER`` is the store's lease owner id (default: a fresh one, as ``store.base.new_owner_id``).
"""

from __future__ import annotations

import asyncio
import sys
import time
from typing import Any

import svc_toy_engine

from service.matches import MatchService
from service.models import Change, MatchInfo
from store.base import open_store


class Stuck:
    async def publish(self, match: MatchInfo, change: Change) -> None:
        print("publishing", change.match_id, change.kind, flush=True)
        await asyncio.Event().wait()  # until killed


class Quiet:
    async def publish(self, match: MatchInfo, change: Change) -> None:
        return None


def _block_in_engine(engine: svc_toy_engine.ToyEngine) -> None:
    def apply(*args: Any, **kwargs: Any) -> Any:
        print("engine", flush=True)
        while True:  # blocks the event loop until killed
            time.sleep(60)

    engine.apply = apply  # type: ignore[method-assign]


async def main(url: str, now: float, owner: str | None, mode: str) -> None:
    engine = svc_toy_engine.install()
    if mode == "engine":
        _block_in_engine(engine)
    store = await open_store(url, owner=owner)
    publisher = Stuck() if mode == "publish" else Quiet()
    service = MatchService(store, publisher=publisher, clock=lambda: now, offload=False)  # type: ignore[arg-type]
    await service.run_due()
    await asyncio.Event().wait()


if __name__ == "__main__":
    args = sys.argv[1:]
    asyncio.run(main(args[0], float(args[1]), args[2] if len(args) > 2 and args[2] else None,
                     args[3] if len(args) > 3 else "publish"))
