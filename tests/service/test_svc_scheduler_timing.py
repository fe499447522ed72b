"""The scheduler wakes for the next due time instead of a whole interval later (real time, short)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

import pytest
import svc_toy_engine
from svc_helpers import HOST, Recorder, db_path, recorder, store, toy, two_humans

from service.matches import MatchService
from service.scheduler import Scheduler
from service.settings import ServiceSettings
from store import repo
from store.db import Store

__all__ = ["db_path", "recorder", "store", "toy"]
pytestmark = pytest.mark.usefixtures("toy")

#: The production interval: every test below would fail by waiting this long.
INTERVAL = 30.0


class FlowClock:
    """Real time moving on, plus an offset the test can jump (to skip most of a turn)."""

    def __init__(self) -> None:
        self.offset = 1_000_000.0 - time.time()

    def __call__(self) -> float:
        return time.time() + self.offset


async def _until(check: Callable[[], object], seconds: float) -> float:
    """Real seconds until ``check()`` holds (fails after ``seconds``)."""
    start = time.monotonic()
    while not check():
        assert time.monotonic() - start < seconds, "timed out"
        await asyncio.sleep(0.01)
    return time.monotonic() - start


async def test_one_minute_turn_times_out_on_time(store: Store, recorder: Recorder) -> None:
    clock = FlowClock()
    service = MatchService(store, publisher=recorder, clock=clock, offload=False)
    mid = (await two_humans(service, turn_seconds=60)).id
    (deadline,) = await repo.get_deadlines(store, mid)
    clock.offset += 59.4  # 0.6 s of the minute left
    scheduler = Scheduler(service, INTERVAL, clock=clock)
    scheduler.start()
    try:
        waited = await _until(lambda: "timeout" in recorder.kinds(mid), 5)
    finally:
        await scheduler.stop()
    assert 0.4 < waited < 1.6
    entry = (await service.log(mid))[-1]
    assert entry.source == "timeout"
    assert deadline.due_at <= entry.created_at <= deadline.due_at + 1.0


async def test_a_new_earlier_due_time_wakes_the_sleeping_scheduler(store: Store, recorder: Recorder) -> None:
    clock = FlowClock()
    service = MatchService(store, publisher=recorder, clock=clock, offload=False,
                           settings=ServiceSettings(lobby_ttl=0.5))
    scheduler = Scheduler(service, INTERVAL, clock=clock)
    service.set_due_listener(scheduler.reschedule)
    scheduler.start()
    try:
        await _until(lambda: scheduler.runs >= 1, 5)  # first round done; asleep for the interval
        await asyncio.sleep(0.05)
        assert scheduler.due_at is None
        info = await service.create_lobby(svc_toy_engine.SLUG, host_id=HOST, host_name="Host", locale="en",
                                          channel_id=9)
        assert scheduler.due_at == pytest.approx(info.created_at + 0.5)
        waited = await _until(lambda: "abandoned" in recorder.kinds(info.id), 5)
    finally:
        await scheduler.stop()
    assert 0.3 < waited < 1.5
    closed = await service.get(info.id)
    assert closed.status == "abandoned" and closed.updated_at >= info.created_at + 0.5


async def test_work_left_behind_is_retried_soon_but_without_a_busy_loop() -> None:
    class Behind:
        """A service whose due work never clears (e.g. an item that keeps failing)."""

        def __init__(self) -> None:
            self.rounds = 0

        async def run_due(self) -> int:
            self.rounds += 1
            return 0

        async def next_due_at(self) -> float:
            return time.time() - 1

    service = Behind()
    scheduler = Scheduler(service, INTERVAL)
    scheduler.start()
    await asyncio.sleep(0.5)
    await scheduler.stop()
    # Gaps of 0.05, 0.1, 0.2 ... s: a few rounds, not thousands, and not one per interval.
    assert 3 <= service.rounds <= 6


async def test_without_next_due_at_the_interval_rules_and_wake_still_works() -> None:
    class Plain:
        def __init__(self) -> None:
            self.rounds = 0

        async def run_due(self) -> int:
            self.rounds += 1
            return 0

    service = Plain()
    scheduler = Scheduler(service, INTERVAL)
    scheduler.start()
    try:
        await asyncio.sleep(0.1)
        assert service.rounds == 1
        scheduler.reschedule(time.time() + 0.1)
        await _until(lambda: service.rounds == 2, 2)
        scheduler.wake()
        await _until(lambda: service.rounds == 3, 2)
        scheduler.reschedule(time.time() + 60)  # later than the interval's end: nothing changes
        await asyncio.sleep(0.1)
        assert service.rounds == 3
    finally:
        await scheduler.stop()
