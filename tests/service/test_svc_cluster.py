"""Three processes on one PostgreSQL store play matches to the end while one is killed (-9).

Each process (``svc_cluster_worker.py``) is a match service with its own scheduler, as a bot
process is; simulated players send every click to a random live process (interactions from DMs
reach shard 0 whoever's match it is). A third of the matches have a player who never answers
(their turns time out, then the AI plays the seat once it is marked away), a third play against
the AI. Mid-game one process is killed with SIGKILL and started again. Then: every match has
finished, no request was answered twice (a match's log names each request id once, its versions
have no gap), time-outs and AI moves happened, every change was posted exactly once and nothing
is left undelivered.

What this does not cover (docs/deploy.md): the real bot against the fake Discord (one gateway per
shard); that test is still missing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import svc_toy_engine
from svc_helpers import toy

from service.matches import MatchService
from store import repo
from store.base import open_store

__all__ = ["toy"]
pytestmark = pytest.mark.usefixtures("toy")
HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
SPEED = 20.0  # service seconds per real second: a 30 s turn times out in 1.5 s
HOST0, GUEST0 = 5_000, 6_000


class Worker:
    """A worker process and the clicks it has not answered yet."""

    def __init__(self, index: int, args: list[str]) -> None:
        self.index = index
        self.args = args
        self.proc: asyncio.subprocess.Process | None = None
        self.waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.reader: asyncio.Task[None] | None = None
        self.ready = asyncio.Event()

    @property
    def alive(self) -> bool:
        """Started, ready, and its output not at its end (a killed process's pipe closes before
        asyncio has reaped it and set its return code)."""
        return (self.proc is not None and self.proc.returncode is None and self.ready.is_set()
                and self.reader is not None and not self.reader.done())

    async def start(self) -> None:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE), str(ROOT)])}
        self.ready = asyncio.Event()
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, str(HERE / "svc_cluster_worker.py"), *self.args, stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE, env=env, cwd=ROOT)
        self.reader = asyncio.create_task(self._read(self.proc))
        await asyncio.wait_for(self.ready.wait(), 30)

    async def _read(self, proc: asyncio.subprocess.Process) -> None:
        assert proc.stdout is not None
        while line := await proc.stdout.readline():
            msg = json.loads(line)
            if msg.get("ready"):
                self.ready.set()
                continue
            fut = self.waiting.pop(msg["id"], None)
            if fut is not None and not fut.done():
                fut.set_result(msg)
        for fut in self.waiting.values():  # the process is gone: those clicks "failed"
            if not fut.done():
                fut.set_result({"lost": True})
        self.waiting.clear()

    def kill(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)

    async def click(self, n: int, body: dict[str, Any]) -> dict[str, Any]:
        assert self.proc is not None and self.proc.stdin is not None and self.reader is not None
        reader = self.reader
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.waiting[n] = fut
        try:
            self.proc.stdin.write((json.dumps({"id": n, **body}) + "\n").encode())
            await self.proc.stdin.drain()
        except (BrokenPipeError, ConnectionResetError):
            self.waiting.pop(n, None)
            return {"lost": True}
        # A click written just after the process died (its reader already at the end and done
        # settling futures) has nobody left to answer it: lost, as a click to a dead bot is.
        await asyncio.wait({fut, reader}, timeout=60, return_when=asyncio.FIRST_COMPLETED)
        if fut.done():
            return fut.result()
        self.waiting.pop(n, None)
        if reader.done():
            return {"lost": True}
        raise TimeoutError(f"worker {self.index} did not answer click {n} in 60 s")

    async def stop(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.proc.kill()
            await self.proc.wait()
        if self.reader is not None:
            await self.reader


async def _cluster(pg_url: str, tmp_path: Path, matches: int, kill_after: int) -> None:
    t0 = time.time()

    def clock() -> float:
        return t0 + (time.time() - t0) * SPEED

    posts = tmp_path / "thread.txt"
    posts.write_text("")
    store = await open_store(pg_url)
    setup = MatchService(store, clock=clock, offload=False, rate_limits=False)  # type: ignore[arg-type]
    kinds: dict[int, int] = {}
    ids = []
    for i in range(matches):
        info = await setup.create_lobby(svc_toy_engine.SLUG, host_id=HOST0 + i, host_name="H", locale="en",
                                        options={"target": "15"}, turn_seconds=30)
        if i % 3 == 2:
            await setup.add_ai(info.id, HOST0 + i)
        else:
            await setup.join(info.id, GUEST0 + i, "G")
        ids.append((await setup.start(info.id, HOST0 + i)).id)
        kinds[ids[-1]] = i % 3  # 0: two players, 1: the guest never answers, 2: against the AI
    workers = [Worker(k, [pg_url, str(posts), str(t0), str(SPEED)]) for k in range(3)]
    await asyncio.gather(*(w.start() for w in workers))
    engine = svc_toy_engine.ENGINE
    counter = iter(range(1, 10**9))
    stats = {"clicks": 0, "lost": 0, "stale": 0, "active_at_kill": 0}
    crashes: list[str] = []
    rng = random.Random(12)

    async def player(mid: int) -> None:
        i = mid - ids[0]
        users = {0: HOST0 + i} if kinds[mid] else {0: HOST0 + i, 1: GUEST0 + i}
        while True:
            rec = await repo.get_match(store, mid)
            assert rec is not None
            if rec.status != "active":
                return
            mine = [r for r in engine.pending(rec.state) if r.seat in users]
            if not mine:
                await asyncio.sleep(0.05)
                continue
            req = rng.choice(mine)
            action = engine.ai_action(rec.state, req.seat, random.Random(rng.random()))
            alive = [w for w in workers if w.alive]
            if not alive:
                await asyncio.sleep(0.05)
                continue
            answer = await rng.choice(alive).click(next(counter), {"match": mid, "user": users[req.seat],
                                                                  "request": req.id, "action": action})
            stats["clicks"] += 1
            if answer.get("lost"):
                stats["lost"] += 1
            elif answer.get("err"):
                stats["stale"] += 1
                assert answer["err"] in ("core.err.stale", "core.err.not_active", "core.err.not_your_turn"), answer
            elif answer.get("crash"):
                crashes.append(answer["crash"])

    async def killer() -> None:
        while stats["clicks"] < kill_after:
            await asyncio.sleep(0.02)
        workers[1].kill()
        stats["active_at_kill"] = sum(1 for r in await asyncio.gather(*(repo.get_match(store, m) for m in ids))
                                      if r is not None and r.status == "active")
        await asyncio.sleep(1.0)
        await workers[1].reader  # type: ignore[misc]
        await workers[1].start()

    try:
        killing = asyncio.create_task(killer())
        await asyncio.wait_for(asyncio.gather(*(player(m) for m in ids)), 240)
        if not killing.done():
            pytest.fail("the matches ended before the kill; raise kill_after's share")
        await killing
        for _ in range(200):  # the last changes are delivered by whoever serves them
            if not await repo.undelivered(store):
                break
            await asyncio.sleep(0.05)
    finally:
        for w in workers:
            await w.stop()
    try:
        assert not crashes, crashes
        assert await repo.undelivered(store) == []
        timeouts = ai_moves = 0
        for mid in ids:
            rec = await repo.get_match(store, mid)
            assert rec is not None and rec.status == "finished", (mid, rec and rec.status)
            log = await repo.list_actions(store, mid)
            versions = [a.version for a in log]
            assert versions == list(range(versions[0], versions[0] + len(versions))), (mid, versions)
            answered = [a.request_id for a in log if a.request_id]
            assert len(answered) == len(set(answered)), (mid, answered)  # no request answered twice
            timeouts += sum(a.source == "timeout" for a in log)
            ai_moves += sum(a.source == "ai" for a in log)
        assert timeouts > 0 and ai_moves > 0
        rows = await store.fetchall("SELECT match_id, version, payload FROM outbox")
        committed = sorted(f"{r['match_id']}:{r['version']}:{json.loads(r['payload'])['kind']}" for r in rows)
        shown = sorted(line for line in posts.read_text().splitlines() if line)
        assert shown == sorted(set(shown)), "a change was posted twice"
        assert shown == committed, "a change was lost (or posted without being committed)"
        assert stats["lost"] + stats["stale"] < stats["clicks"]
        assert stats["active_at_kill"] > 0  # killed mid-game
        print(f"cluster: {stats}, {timeouts} time-outs, {ai_moves} AI moves, {len(shown)} posts")
    finally:
        await store.close()


async def test_three_processes_one_killed(pg_url: str, tmp_path: Path) -> None:
    await _cluster(pg_url, tmp_path, matches=9, kill_after=25)


@pytest.mark.slow
async def test_three_processes_thirty_matches_one_killed(pg_url: str, tmp_path: Path) -> None:
    await _cluster(pg_url, tmp_path, matches=30, kill_after=90)
