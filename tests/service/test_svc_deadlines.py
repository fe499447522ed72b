"""Time: deadlines, reminders, time-outs with an injected clock, across a restart; the scheduler."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import svc_toy_engine
from svc_helpers import (
    BOB,
    HOST,
    Clock,
    Recorder,
    clock,
    db_path,
    db_target,
    play_own_turn,
    recorder,
    service,
    store,
    toy,
    two_humans,
)

from service.core import LEASE_SECONDS
from service.deadlines import deadline_for
from service.matches import MatchService
from service.scheduler import Scheduler
from service.settings import ServiceSettings
from store import repo
from store.db import Store

__all__ = ["clock", "db_path", "db_target", "recorder", "service", "store", "toy"]
pytestmark = pytest.mark.usefixtures("toy")


async def _claimed_and_crashed(target: Path | str, clock: Clock, owner: str) -> list[int]:
    """Three started matches whose turns are due, claimed by a process named ``owner`` that
    then died before serving them (its leases run until ``LEASE_SECONDS`` from now)."""
    store = await Store.open(target, owner=owner)
    service = MatchService(store, publisher=Recorder(), clock=clock, offload=False)
    mids = []
    for i in range(3):
        info = await service.create_lobby(svc_toy_engine.SLUG, host_id=HOST + i, host_name="H", locale="en",
                                          options={"target": "30"}, turn_seconds=3600)
        await service.join(info.id, BOB + i, "B")
        mids.append((await service.start(info.id, HOST + i)).id)
    clock.advance(3601)
    async with store.transaction() as tx:  # what its scheduler round did before the crash
        assert await repo.claim_due_match_ids(tx, owner, clock.now, clock.now + LEASE_SECONDS, 10) == mids
    await store.close()
    return mids


async def _timeouts(store: Store, mids: list[int]) -> list[int]:
    return [[a.source for a in await repo.list_actions(store, mid)].count("timeout") for mid in mids]


async def test_a_restarted_process_takes_its_own_leases_back_at_once(
        db_target: Path | str, clock: Clock, toy: svc_toy_engine.ToyEngine) -> None:
    """A process restarted under the same lease owner (a bot's ``Settings.lease_owner``) serves
    the deadlines it had leased before it crashed at once; another process waits out the lease."""
    mids = await _claimed_and_crashed(db_target, clock, "shards 1 of 3")
    other = MatchService(await Store.open(db_target), publisher=Recorder(), clock=clock, offload=False)
    try:
        await other.run_due()
        await other.drain()
        assert await _timeouts(other.store, mids) == [0, 0, 0]  # leased to a process it cannot tell is dead
    finally:
        await other.store.close()
    rec = Recorder()
    again = MatchService(await Store.open(db_target, owner="shards 1 of 3"), publisher=rec, clock=clock,
                         offload=False)
    try:
        clock.advance(1)  # well inside the lease
        await again.run_due()
        await again.drain()
        assert await _timeouts(again.store, mids) == [1, 1, 1]
        assert sorted(c.match_id for c in rec.changes if c.kind == "timeout") == mids
    finally:
        await again.store.close()


def test_deadline_policy() -> None:
    assert deadline_for(0, 30) == (30, None)
    assert deadline_for(0, 60) == (60, 45)  # a one-minute live turn is reminded 15 s before its end
    assert deadline_for(0, 120) == (120, 90)
    assert deadline_for(0, 3600) == (3600, 2700)
    assert deadline_for(10, 86400) == (86410, 86410 - 3600)


async def test_reminder_then_restart_then_timeout(db_target: Path | str, clock: Clock,
                                                  toy: svc_toy_engine.ToyEngine) -> None:
    rec1 = Recorder()
    store = await Store.open(db_target)
    service = MatchService(store, publisher=rec1, clock=clock, offload=False)
    mid = (await two_humans(service, turn_seconds=3600)).id
    start = clock.now
    (rid,) = await service.pending_for_user(mid, HOST)
    (d,) = await repo.get_deadlines(store, mid)
    assert (d.request_id, d.seat, d.due_at, d.remind_at) == (rid, 0, start + 3600, start + 2700)

    clock.advance(2699)
    assert await service.run_due() == 0
    clock.advance(1)
    assert await service.run_due() == 1
    reminder = rec1.changes[-1]
    assert (reminder.kind, reminder.seat, reminder.request_ids) == ("reminder", 0, [rid])
    assert await service.run_due() == 0  # reminded once only
    await store.close()

    rec2 = Recorder()  # a new process: everything it knows comes from the store
    store = await Store.open(db_target)
    service = MatchService(store, publisher=rec2, clock=clock, offload=False)
    try:
        clock.advance(899)
        assert await service.run_due() == 0 and rec2.changes == []
        clock.advance(1)
        assert await service.run_due() == 1
        timeout = rec2.changes[-1]
        assert timeout.kind == "timeout" and timeout.seat == 0
        assert timeout.note is not None and timeout.note.key == "core.note.timeout"
        assert timeout.note.params == {"name": "Host"}
        entry = (await service.log(mid))[-1]
        assert (entry.source, entry.seat) == ("timeout", 0)
        (bob_rid,) = await service.pending_for_user(mid, BOB)
        (d,) = await repo.get_deadlines(store, mid)
        assert (d.request_id, d.seat, d.due_at) == (bob_rid, 1, clock.now + 3600)
        await play_own_turn(service, mid, BOB)  # play continues normally
        assert (await service.log(mid))[-1].source == "user"
    finally:
        await store.close()


async def test_a_one_minute_live_turn_is_reminded_15_seconds_before_its_end(
        service: MatchService, clock: Clock, recorder: Recorder) -> None:
    mid = (await two_humans(service, turn_seconds=60)).id
    (d,) = await repo.get_deadlines(service.store, mid)
    assert d.remind_at == d.due_at - 15
    clock.advance(44)
    assert await service.run_due() == 0
    clock.advance(1)
    await service.run_due()
    assert recorder.kinds(mid)[-1] == "reminder"
    clock.advance(15)
    await service.run_due()
    assert recorder.kinds(mid)[-1] == "timeout"


async def test_shorter_turns_have_no_reminder(service: MatchService, clock: Clock, recorder: Recorder) -> None:
    mid = (await two_humans(service, turn_seconds=30)).id
    (d,) = await repo.get_deadlines(service.store, mid)
    assert d.remind_at is None
    clock.advance(29)
    assert await service.run_due() == 0
    clock.advance(1)
    assert await service.run_due() == 1
    assert "reminder" not in recorder.kinds(mid) and recorder.kinds(mid)[-1] == "timeout"


async def test_pending_requests_keep_their_deadline(service: MatchService, clock: Clock) -> None:
    mid = (await two_humans(service, turn_seconds=600)).id
    for user in (HOST, BOB, HOST):
        await play_own_turn(service, mid, user, "2")  # to 6: both seats bid at once
    armed = {d.seat: d.due_at for d in await repo.get_deadlines(service.store, mid)}
    assert set(armed) == {0, 1}
    clock.advance(100)
    await play_own_turn(service, mid, BOB)
    left = await repo.get_deadlines(service.store, mid)
    assert [(d.seat, d.due_at) for d in left] == [(0, armed[0])]


async def test_timeout_of_a_finished_request_is_dropped(service: MatchService, clock: Clock) -> None:
    mid = (await two_humans(service, turn_seconds=60)).id
    async with service.store.transaction() as tx:  # a leftover row for a request that no longer exists
        await repo.insert_deadline(tx, mid, "r-gone", 0, clock.now - 1, None)
    assert await service.run_due() == 0
    assert [d.request_id for d in await repo.get_deadlines(service.store, mid)] == \
        await service.pending_for_user(mid, HOST)


async def test_failed_publish_is_retried_in_order(service: MatchService, recorder: Recorder) -> None:
    mid = (await two_humans(service)).id
    recorder.fail = True
    await play_own_turn(service, mid, HOST)
    await play_own_turn(service, mid, BOB)
    version = (await service.get(mid)).version
    assert (await service.log(mid))[-1].version == version  # committed despite the publisher
    assert len(await repo.undelivered(service.store, mid)) == 2
    recorder.fail = False
    before = len(recorder.changes)
    assert await service.run_due() == 2
    assert [c.version for c in recorder.changes[before:]] == [version - 1, version]
    assert await repo.undelivered(service.store, mid) == []


async def test_scheduler_runs_due_work_in_background(service: MatchService, clock: Clock,
                                                     recorder: Recorder) -> None:
    mid = (await two_humans(service, turn_seconds=60)).id
    scheduler = Scheduler(service, interval=0.01)
    scheduler.start()
    scheduler.start()  # idempotent
    try:
        clock.advance(61)
        for _ in range(200):  # the round publishes before it returns and counts itself
            if "timeout" in recorder.kinds(mid) and scheduler.runs > 0:
                break
            await asyncio.sleep(0.01)
        assert "timeout" in recorder.kinds(mid)
        assert scheduler.running and scheduler.runs > 0
    finally:
        await scheduler.stop()
    assert not scheduler.running


async def test_scheduler_survives_a_failing_round(service: MatchService) -> None:
    calls = 0

    async def flaky() -> int:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise RuntimeError("db hiccup")
        return 0

    service.run_due = flaky  # type: ignore[method-assign]
    scheduler = Scheduler(service, interval=0.005)
    scheduler.start()
    try:
        for _ in range(100):
            if calls >= 3:
                break
            await asyncio.sleep(0.005)
    finally:
        await scheduler.stop()
    assert calls >= 3


@pytest.mark.parametrize("turn", [120, 86400])
async def test_reminder_lead(service: MatchService, turn: int) -> None:
    mid = (await two_humans(service, turn_seconds=turn)).id
    (d,) = await repo.get_deadlines(service.store, mid)
    assert d.due_at - d.remind_at == min(turn / 4, 3600)


async def test_old_delivered_outbox_rows_are_pruned(service: MatchService, clock: Clock,
                                                    recorder: Recorder) -> None:
    mid = (await two_humans(service, turn_seconds=30 * 86400)).id
    delivered = await service.store.fetchone("SELECT COUNT(*) AS n FROM outbox WHERE match_id = ?", (mid,))
    assert delivered["n"] >= 3
    clock.advance(8 * 86400)
    recorder.fail = True
    await play_own_turn(service, mid, HOST)  # committed, not delivered: must survive pruning
    await service.run_due()
    rows = await service.store.fetchall("SELECT delivered_at FROM outbox WHERE match_id = ?", (mid,))
    assert [r["delivered_at"] for r in rows] == [None]


async def test_pending_requests_carry_deadlines(service: MatchService, clock: Clock) -> None:
    info = await service.create_lobby(svc_toy_engine.SLUG, host_id=HOST, host_name="Host", locale="en",
                                      turn_seconds=600)
    await service.join(info.id, BOB, "Bob")
    await service.add_ai(info.id, HOST)
    mid = (await service.start(info.id, HOST)).id
    (req,) = await service.pending_requests(mid)
    assert (req.seat, req.user_id, req.kind, req.due_at, req.remind_at) == \
        (0, HOST, "turn", clock.now + 600, clock.now + 450)
    assert req.request_id == (await service.pending_for_user(mid, HOST))[0]
    lazy = MatchService(service.store, clock=clock, offload=False,
                        settings=ServiceSettings(ai_moves_per_call=0))  # AI never moves
    for user in (HOST, BOB):
        await play_own_turn(lazy, mid, user, "2")
    (ai_req,) = await lazy.pending_requests(mid, humans_only=False)
    assert (ai_req.seat, ai_req.user_id, ai_req.due_at) == (2, None, None)
    assert await lazy.pending_requests(mid) == []


async def test_scheduler_stop_lets_a_round_finish() -> None:
    events: list[str] = []

    class Slow:
        async def run_due(self) -> int:
            events.append("start")
            await asyncio.sleep(0.05)
            events.append("end")
            return 1

    scheduler = Scheduler(Slow(), interval=60)
    scheduler.start()
    await asyncio.sleep(0.01)  # the first round runs at once and is now in progress
    await scheduler.stop()
    assert events == ["start", "end"] and not scheduler.running

    scheduler.start()  # can be started again, and woken early
    await asyncio.sleep(0.1)
    scheduler.wake()
    await asyncio.sleep(0.1)
    await scheduler.stop(grace=0.001)
    assert events.count("start") >= 3


async def test_scheduler_cancels_a_round_that_outlives_the_grace() -> None:
    class Stuck:
        async def run_due(self) -> int:
            await asyncio.sleep(3600)
            return 0

    scheduler = Scheduler(Stuck(), interval=60)
    scheduler.start()
    await asyncio.sleep(0.01)
    await asyncio.wait_for(scheduler.stop(grace=0.05), 5)
    assert not scheduler.running
