"""Subprocess for the kill -9 test: plays toy matches between two humans as fast as it can and
prints one line per committed move, until it is killed."""

from __future__ import annotations

import asyncio
import json
import random
import sys

import svc_toy_engine

from service.matches import MatchService
from store.db import Store

HOST, BOB = 101, 202  # the ids svc_helpers uses


async def main(path: str) -> None:
    engine = svc_toy_engine.install()
    store = await Store.open(path)
    service = MatchService(store, rate_limits=False, offload=False)
    rng = random.Random(7)
    while True:
        info = await service.create_lobby(svc_toy_engine.SLUG, host_id=HOST, host_name="H", locale="en",
                                          options={"target": "30"})
        await service.join(info.id, BOB, "B")
        await service.start(info.id, HOST)
        while (await service.get(info.id)).status == "active":
            for user in (HOST, BOB):
                for rid in await service.pending_for_user(info.id, user):
                    seat = (await service.get(info.id)).seat_of(user)
                    state = await service.store.fetchone("SELECT state FROM matches WHERE id = ?", (info.id,))
                    action = engine.ai_action(json.loads(state["state"]), seat, rng)
                    done = await service.act(info.id, user, rid, action)
                    print(info.id, done.version, flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
