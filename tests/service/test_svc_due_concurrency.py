"""run_due serves matches concurrently: a match whose engine is slow does not hold up the
reminders and time-outs of other matches, neither in its own round nor in the scheduler's next
ones, and engine work is bounded by a semaphore taken in order."""

from __future__ import annotations

import asyncio
import random
import threading
import time
from pathlib import Path

import pytest
import svc_toy_engine
from svc_helpers import BOB, HOST, Clock, Recorder, db_target, toy

from engines.base import Action, State
from service.matches import MatchService
from service.scheduler import Scheduler
from service.settings import ServiceSettings
from store import repo
from store.db import Store

__all__ = ["db_target", "toy"]
pytestmark = pytest.mark.usefixtures("toy")

SLOW_TARGET = "10"  # matches with this option have a slow engine


@pytest.fixture
def slow_engine(monkeypatch: pytest.MonkeyPatch) -> threading.Event:
    """The toy AI blocks (in its worker thread) in SLOW_TARGET matches until the event is set."""
    release = threading.Event()
    real = svc_toy_engine.ToyEngine.ai_action

    def ai_action(self: svc_toy_engine.ToyEngine, state: State, seat: int, rng: random.Random,
                  level: str = "normal") -> Action:
        if state["target"] == int(SLOW_TARGET):
            release.wait(10)
        return real(self, state, seat, rng, level)

    monkeypatch.setattr(svc_toy_engine.ToyEngine, "ai_action", ai_action)
    return release


async def two_humans(service: MatchService, target: str, turn: int, offset: int) -> int:
    info = await service.create_lobby(svc_toy_engine.SLUG, host_id=HOST + offset, host_name="H", locale="en",
                                      options={"target": target}, turn_seconds=turn)
    await service.join(info.id, BOB + offset, "B")
    return (await service.start(info.id, HOST + offset)).id


async def test_a_slow_match_does_not_delay_others(db_target: Path | str, slow_engine: threading.Event) -> None:
    clock = Clock()
    recorder = Recorder()
    store = await Store.open(db_target)
    service = MatchService(store, publisher=recorder, clock=clock, rate_limits=False,
                           settings=ServiceSettings(due_wait=0.2))
    try:
        slow = await two_humans(service, SLOW_TARGET, 60, 0)  # times out first, engine blocks
        fast = [await two_humans(service, "30", 120, i) for i in range(1, 4)]  # time out next
        reminded = await two_humans(service, "30", 3600, 9)  # reminded later
        clock.advance(61)
        t0 = time.perf_counter()
        await service.run_due()  # the slow match's time-out starts and stays in progress
        assert time.perf_counter() - t0 < 2
        assert slow in service._due_busy
        clock.advance(60)  # the fast matches' turns time out; the slow match is still busy
        await service.run_due()
        timeouts = {c.match_id for c in recorder.changes if c.kind == "timeout"}
        assert timeouts == set(fast)
        clock.advance(2700)  # a reminder is due elsewhere while the slow match still computes
        scheduler = Scheduler(service, interval=0.01, clock=clock)
        scheduler.start()
        try:
            for _ in range(200):
                if "reminder" in recorder.kinds(reminded):
                    break
                await asyncio.sleep(0.01)
        finally:
            await scheduler.stop()
        assert "reminder" in recorder.kinds(reminded) and "timeout" not in recorder.kinds(slow)
        slow_engine.set()
        await service.drain()
        assert "timeout" in recorder.kinds(slow) and slow not in service._due_busy
        assert await repo.undelivered(store) == []
    finally:
        slow_engine.set()
        await service.drain()
        await store.close()


@pytest.mark.parametrize("slots", [1, 3])
async def test_engine_work_is_bounded_and_in_order(db_target: Path | str, monkeypatch: pytest.MonkeyPatch,
                                                   slots: int) -> None:
    """Matches' time-outs run ``slots`` at a time, started longest due first; none is left out."""
    clock = Clock()
    recorder = Recorder()
    store = await Store.open(db_target)
    service = MatchService(store, publisher=recorder, clock=clock, rate_limits=False,
                           settings=ServiceSettings(due_concurrency=slots, due_wait=None))
    running: list[int] = []
    started: list[int] = []
    overlap = []
    real = service._auto_play

    async def auto_play(match_id: int, *args: object, **kw: object) -> int:
        running.append(match_id)
        started.append(match_id)
        overlap.append(len(running))
        try:
            await asyncio.sleep(0.001)
            return await real(match_id, *args, **kw)  # type: ignore[arg-type]
        finally:
            running.remove(match_id)

    monkeypatch.setattr(service, "_auto_play", auto_play)
    try:
        ids = []
        for i in range(6):
            ids.append(await two_humans(service, "30", 60, i))
            clock.advance(1)
        clock.advance(60)
        assert await service.run_due() == 6
        assert sorted(c.match_id for c in recorder.changes if c.kind == "timeout") == ids
        # The slots are taken longest due first, and never more than ``slots`` at once. What this
        # spy sees of it (inside the slot, after a read) is exact on SQLite's one connection;
        # over PostgreSQL's pool the reads finish in any order (a match may finish and free its
        # slot for the next before another's read is back), so there only the bound holds.
        first_calls = list(dict.fromkeys(started))
        assert max(overlap) <= slots
        if store.dialect == "sqlite":
            assert max(overlap) == slots and first_calls[:slots] == ids[:slots]
    finally:
        await store.close()


async def test_one_round_sends_every_due_reminder(db_target: Path | str) -> None:
    """Reminders need no engine work: a round sends all that are due, not only ``limit`` of them,
    so a backlog of time-outs (which ``limit`` paces) never holds a reminder back."""
    clock = Clock()
    recorder = Recorder()
    store = await Store.open(db_target)
    service = MatchService(store, publisher=recorder, clock=clock, rate_limits=False)
    try:
        ids = [await two_humans(service, "30", 3600, i) for i in range(5)]
        clock.advance(2700)  # a quarter of the turn before its end: every first request is reminded
        await service.run_due(limit=2)
        assert {c.match_id for c in recorder.changes if c.kind == "reminder"} == set(ids)
    finally:
        await service.drain()
        await store.close()


async def test_engine_work_runs_in_the_services_own_few_threads(db_target: Path | str,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Time-outs and AI moves run in AI_THREADS threads of the service (not the default pool,
    whose many threads kept the event loop waiting for the GIL), with a short GIL switch
    interval so the loop gets it back quickly."""
    import sys

    from service import core

    clock = Clock()
    store = await Store.open(db_target)
    service = MatchService(store, publisher=Recorder(), clock=clock, rate_limits=False)
    names: set[str] = set()
    real = svc_toy_engine.ToyEngine.timeout_action

    def timeout_action(self: svc_toy_engine.ToyEngine, *args: object) -> Action:
        names.add(threading.current_thread().name)
        return real(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(svc_toy_engine.ToyEngine, "timeout_action", timeout_action)
    before = sys.getswitchinterval()
    try:
        for i in range(6):
            await two_humans(service, "30", 60, i)
        clock.advance(61)
        assert await service.run_due() == 6
        assert names and all(n.startswith("engine-ai") for n in names) and len(names) <= core.AI_THREADS
        assert sys.getswitchinterval() <= core.SWITCH_INTERVAL
    finally:
        sys.setswitchinterval(before)
        await service.drain()
        await store.close()
