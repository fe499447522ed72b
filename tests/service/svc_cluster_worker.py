"""One "bot process" of the multi-process test: a MatchService with its scheduler on the shared
PostgreSQL store, taking clicks as JSON lines on stdin and answering each on stdout.

Its publisher stands in for the Discord thread: it appends one line per post to a shared file and,
like ``DiscordPublisher`` reading the thread's history for its footer markers after a restart,
skips a change the "thread" already shows. The clock runs ``speed`` times faster than real time
from ``t0`` (shared by every process), so 30 s turns time out within seconds.

    python svc_cluster_worker.py URL POSTS_FILE T0 SPEED
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time

import svc_toy_engine

from service.errors import UserError
from service.matches import MatchService
from service.models import Change, MatchInfo
from service.scheduler import Scheduler
from store.base import open_store


def post_key(change: Change) -> str:
    return f"{change.match_id}:{change.version}:{change.kind}"


class ThreadFile:
    def __init__(self, path: str) -> None:
        self.path = path

    async def publish(self, match: MatchInfo, change: Change) -> None:
        key = post_key(change)
        with open(self.path, encoding="utf-8") as f:  # the thread's history
            if key in {line.strip() for line in f}:
                return
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND)
        try:
            os.write(fd, f"{key}\n".encode())
        finally:
            os.close(fd)


async def main(url: str, posts: str, t0: float, speed: float) -> None:
    svc_toy_engine.install()
    store = await open_store(url)

    def clock() -> float:
        return t0 + (time.time() - t0) * speed

    service = MatchService(store, publisher=ThreadFile(posts), clock=clock, offload=False,  # type: ignore[arg-type]
                           rate_limits=False)
    scheduler = Scheduler(service, interval=0.1, clock=clock)
    service.set_due_listener(scheduler.reschedule)
    scheduler.start()
    out_lock = asyncio.Lock()

    async def reply(msg: dict[str, object]) -> None:
        async with out_lock:
            sys.stdout.write(json.dumps(msg) + "\n")
            sys.stdout.flush()

    async def handle(req: dict[str, object]) -> None:
        try:
            await service.act(int(req["match"]), int(req["user"]), str(req["request"]),  # type: ignore[arg-type]
                              list(req["action"]))  # type: ignore[arg-type]
            await reply({"id": req["id"], "ok": True})
        except UserError as err:
            await reply({"id": req["id"], "err": err.msg.key})
        except Exception as err:  # noqa: BLE001 - reported to the test, which fails on it
            await reply({"id": req["id"], "crash": repr(err)})

    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    await reply({"ready": True})
    tasks = set()
    while line := await reader.readline():
        task = loop.create_task(handle(json.loads(line)))
        tasks.add(task)
        task.add_done_callback(tasks.discard)
    await scheduler.stop()
    await store.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])))
