"""The store's batched trips: writes without an answer are queued and sent with the next statement
that answers (or the COMMIT), a version check raises its error when sent, a match is loaded in
one read, and a person's move takes few trips to the database threads (the cost of a change is
the trips, not the statements: ``bench/bench_roundtrip.py``, ``bench/bench_run_due.py``)."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

import pytest
from svc_helpers import (
    BOB,
    HOST,
    clock,
    db_path,
    play_own_turn,
    recorder,
    service,
    store,
    toy,
    trips,
    two_humans,
)

from service.errors import UserError
from service.matches import MatchService
from store import repo
from store.db import Store

__all__ = ["clock", "db_path", "recorder", "service", "store", "toy", "trips"]


async def new_match(store: Store) -> int:
    async with store.transaction() as tx:
        mid = await repo.insert_match(tx, game="g", options={}, host_id=1, locale="en", turn_seconds=60,
                                      guild_id=None, channel_id=None, now=1.0)
        await repo.replace_seats(tx, mid, [repo.SeatRecord(0, 1, None, "a"), repo.SeatRecord(1, None, "normal", "b")])
    return mid


async def test_a_stale_version_check_raises_its_error_and_nothing_is_written(store: Store) -> None:
    mid = await new_match(store)
    with pytest.raises(UserError) as err:
        async with store.transaction() as tx:
            await repo.insert_outbox(tx, mid, 1, {"kind": "lobby"}, 2.0)  # queued before the check
            await repo.bump_match(tx, mid, 7, stale=UserError("core.err.stale"), version=8, updated_at=3.0)
    assert err.value.msg.key == "core.err.stale"
    assert (await repo.get_match(store, mid)).version == 0
    assert await repo.undelivered(store, mid) == []
    # the right version goes through, with the writes queued around it
    async with store.transaction() as tx:
        await repo.bump_match(tx, mid, 0, stale=UserError("core.err.stale"), version=1, updated_at=3.0)
        await repo.insert_outbox(tx, mid, 1, {"kind": "lobby"}, 2.0)
    assert (await repo.get_match(store, mid)).version == 1
    assert [r.version for r in await repo.undelivered(store, mid)] == [1]


def _integrity_errors() -> tuple[type[BaseException], ...]:
    try:
        import asyncpg
    except ImportError:  # pragma: no cover - asyncpg is a dependency
        return (sqlite3.IntegrityError,)
    return (sqlite3.IntegrityError, asyncpg.exceptions.IntegrityConstraintViolationError)


async def test_a_failing_queued_write_raises_before_the_next_read_and_rolls_back(store: Store) -> None:
    """SQLite queues the failing write and raises at the next read; PostgreSQL raises at the
    write itself. Either way the read is never reached and nothing is kept."""
    mid = await new_match(store)
    reached = False
    with pytest.raises(_integrity_errors()):
        async with store.transaction() as tx:
            await repo.insert_deadline(tx, mid, "r1", 0, 5.0, None)
            await repo.replace_seats(tx, 999, [repo.SeatRecord(0, 1, None, "x")])  # no match 999
            await repo.get_deadlines(tx, mid)  # the queued writes go first and fail here
            reached = True
    assert not reached
    assert await repo.get_deadlines(store, mid) == []


async def test_reads_inside_a_transaction_see_its_queued_writes(store: Store) -> None:
    mid = await new_match(store)
    async with store.transaction() as tx:
        await repo.insert_deadline(tx, mid, "r1", 1, 5.0, None)
        assert [d.request_id for d in await repo.get_deadlines(tx, mid)] == ["r1"]
        found = await repo.load_match(tx, mid, with_deadlines=True)
        assert found.rec is not None and [d.request_id for d in found.deadlines] == ["r1"]
        assert await repo.get_deadlines(store, mid) == []  # not committed yet
    assert [d.request_id for d in await repo.get_deadlines(store, mid)] == ["r1"]


async def test_load_match_is_the_single_reads(store: Store) -> None:
    mid = await new_match(store)
    async with store.transaction() as tx:
        await repo.insert_deadline(tx, mid, "r2", 1, 9.0, 4.0, "w")
        await repo.insert_deadline(tx, mid, "r1", 0, 5.0, None)
    async with store.transaction() as tx:
        await repo.insert_outbox(tx, mid, 1, {"kind": "lobby"}, 2.0)
        await repo.insert_outbox(tx, mid, 2, {"kind": "started"}, 3.0)
    found = await repo.load_match(store, mid, with_deadlines=True, with_undelivered=True)
    assert found.rec == await repo.get_match(store, mid)
    assert found.seats == await repo.get_seats(store, mid)
    assert found.deadlines == await repo.get_deadlines(store, mid) and len(found.deadlines) == 2
    assert found.undelivered == await repo.undelivered(store, mid) and len(found.undelivered) == 2
    light = await repo.load_match(store, mid, with_state=False)
    assert light.rec == await repo.get_match(store, mid, with_state=False)
    assert light.deadlines == light.undelivered == []
    assert await repo.load_match(store, mid + 1) == repo.MatchRows(None, [], [], [])


async def test_a_persons_move_takes_few_trips_to_the_database(service: MatchService, trips: list[Any]) -> None:
    start = await two_humans(service)
    mid = start.id
    trips.clear()
    info = await play_own_turn(service, mid, HOST)
    assert info.version == start.version + 1
    # load + move (load, one transaction of 2 trips) + delivery (read, load, mark) + get():
    # 27 trips before the batching (8 after), each a hop to a thread and back.
    assert len(trips) <= 12, len(trips)
    trips.clear()
    await play_own_turn(service, mid, BOB)
    assert len(trips) <= 12, len(trips)


async def test_a_deliverys_rows_are_marked_in_one_statement(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """A delivery of an AI run's rows marked them one statement each (8 500 statements in bench
    run_due); now one for all."""
    mid = await new_match(store)
    async with store.transaction() as tx:
        for v in range(1, 6):
            await repo.insert_outbox(tx, mid, v, {"kind": "acted"}, 2.0)
    rows = await repo.undelivered(store, mid)
    sent: list[Any] = []
    for name in ("execute", "executemany"):
        real = getattr(type(tx), name)

        async def spy(self: Any, sql: str, params: Any = (), _real: Any = real) -> None:
            sent.append(sql)
            await _real(self, sql, params)

        monkeypatch.setattr(type(tx), name, spy)
    async with store.transaction() as tx:
        await repo.mark_delivered(tx, [r.id for r in rows[:4]], 9.0)
        await repo.mark_delivered(tx, [], 9.0)
    assert len(sent) == 1
    assert [r.version for r in await repo.undelivered(store, mid)] == [5]


async def test_a_reminder_takes_three_trips_and_is_sent_once(service: MatchService, store: Store, clock: Any,
                                                             recorder: Any, trips: list[Any]) -> None:
    """A reminder: ONE transaction (the mark, checked, with the outbox row: it names the
    request's seat from the deadline, not by reading the deadlines back, and the match's version
    as read with the due reminders, not by loading the match) and the delivery's read and mark.
    It was six trips, then four; 566 reminders in bench run_due."""
    mid = (await two_humans(service)).id
    (d,) = await repo.get_deadlines(store, mid)
    assert d.remind_at is not None
    clock.now = d.remind_at
    await service.drain()
    trips.clear()
    assert await service.run_due() == 1
    if store.dialect == "sqlite":  # and the round's own six: prune and claims (4), reminders, idle lobbies
        assert len(trips) == 3 + 6, len(trips)
    reminder = recorder.changes[-1]
    assert (reminder.kind, reminder.seat, reminder.request_ids, reminder.request_seats) == \
        ("reminder", 0, [d.request_id], [0])
    rows = await store.fetchall("SELECT payload FROM outbox WHERE match_id = ? ORDER BY id", (mid,))
    assert json.loads(rows[-1]["payload"])["request_seats"] == [0]  # as when read back
    assert reminder.version == (await repo.get_match(store, mid, with_state=False)).version
    # once only: a second try writes nothing and sends nothing
    count = len(rows)
    assert not await service._remind(d, reminder.version)
    assert len(await store.fetchall("SELECT id FROM outbox WHERE match_id = ?", (mid,))) == count
    assert recorder.changes[-1] is reminder
