"""An AI run commits in one transaction per delivery batch, not one per move; a crash in it loses
the run only, and the next ``run_due`` replays the very same moves (the AI rng is seeded from the
match id and the version before each move)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import svc_toy_engine
from svc_helpers import HOST, Clock, Recorder, db_target, play_own_turn, toy
from test_svc_crash import check_consistent

from service.matches import MatchService
from service.settings import ServiceSettings
from store import repo
from store.base import Database
from store.db import Store, Tx

__all__ = ["db_target", "toy"]
pytestmark = pytest.mark.usefixtures("toy")


async def human_and_ais(service: MatchService, ais: int) -> int:
    info = await service.create_lobby(svc_toy_engine.SLUG, host_id=HOST, host_name="Host", locale="en",
                                      channel_id=9, options={"target": "30"}, turn_seconds=3600)
    for _ in range(ais):
        await service.add_ai(info.id, HOST)
    return (await service.start(info.id, HOST)).id


def spy_log_writes(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Tx, list[Any]]]:
    """(transaction, versions) of every write to the action log."""
    writes: list[tuple[Tx, list[Any]]] = []
    one, many = repo.insert_action, repo.insert_actions

    async def insert_action(tx: Tx, match_id: int, version: int, *args: Any) -> None:
        writes.append((tx, [version]))
        await one(tx, match_id, version, *args)

    async def insert_actions(tx: Tx, match_id: int, rows: list[Any], now: float) -> None:
        writes.append((tx, [r[0] for r in rows]))
        await many(tx, match_id, rows, now)

    monkeypatch.setattr(repo, "insert_action", insert_action)
    monkeypatch.setattr(repo, "insert_actions", insert_actions)
    return writes


async def test_three_ai_seats_answer_in_one_transaction(db_target: Path | str, monkeypatch: pytest.MonkeyPatch) -> None:
    store = await Store.open(db_target)
    recorder = Recorder()
    service = MatchService(store, publisher=recorder, clock=Clock(), offload=False)
    mid = await human_and_ais(service, 3)
    writes = spy_log_writes(monkeypatch)
    await play_own_turn(service, mid, HOST)
    # The human's move, then every AI answer up to the human's next request: two transactions.
    assert len({id(tx) for tx, _ in writes}) == 2
    (human,), ai = writes[0][1], writes[1][1]
    assert len(ai) >= 3 and ai == list(range(human + 1, human + 1 + len(ai)))
    # The publisher still gets one change per move, each naming the requests pending after it.
    acted = [c for c in recorder.changes if c.kind == "acted"][-1 - len(ai):]
    assert [c.version for c in acted] == [human, *ai]
    assert acted[0].seat == 0 and all(c.seat != 0 for c in acted[1:])
    assert all(c.request_ids and len(c.request_ids) == len(c.request_seats) for c in acted)
    now = await service.pending_requests(mid, humans_only=False)
    assert dict(zip(acted[-1].request_ids, acted[-1].request_seats, strict=True)) == \
        {p.request_id: p.seat for p in now}
    await check_consistent(store, mid)
    await store.close()


async def test_a_run_is_cut_at_the_batch_size(db_target: Path | str, monkeypatch: pytest.MonkeyPatch) -> None:
    store = await Store.open(db_target)
    service = MatchService(store, publisher=Recorder(), clock=Clock(), offload=False,
                           settings=ServiceSettings(ai_batch_moves=2))
    mid = await human_and_ais(service, 3)
    writes = spy_log_writes(monkeypatch)
    await play_own_turn(service, mid, HOST)
    sizes = [len(vs) for _, vs in writes]
    assert sizes[0] == 1 and len(sizes) >= 3 and max(sizes[1:]) == 2
    await store.close()


async def test_a_crash_in_an_ai_run_loses_the_run_and_run_due_replays_it(
        db_target: Path | str, monkeypatch: pytest.MonkeyPatch) -> None:
    store = await Store.open(db_target)
    recorder = Recorder()
    service = MatchService(store, publisher=recorder, clock=Clock(), offload=False)
    mid = await human_and_ais(service, 3)
    before = await store.fetchone("SELECT version FROM matches WHERE id = ?", (mid,))
    tried: list[list[Any]] = []
    real = repo.insert_actions

    async def crash(tx: Tx, match_id: int, rows: list[Any], now: float) -> None:
        tried.append([(r[0], r[1], r[3]) for r in rows])
        raise RuntimeError("killed in the middle of the AI run")

    monkeypatch.setattr(repo, "insert_actions", crash)
    await play_own_turn(service, mid, HOST)  # the human's move stands; the AI run is rolled back
    log = await repo.list_actions(store, mid)
    assert [a.version for a in log][-1] == before["version"] + 1
    assert await repo.undelivered(store, mid) == []  # the human's move was still published
    assert len(tried) == 1 and len(tried[0]) >= 3
    monkeypatch.setattr(repo, "insert_actions", real)
    assert await service.run_due() >= 3
    log = await repo.list_actions(store, mid)
    replayed = {a.version: (a.version, a.seat, a.action) for a in log}
    assert [replayed[v] for v, _, _ in tried[0]] == tried[0]
    await check_consistent(store, mid)
    state = json.loads((await store.fetchone("SELECT state FROM matches WHERE id = ?", (mid,)))["state"])
    assert state == svc_toy_engine.replay(
        (await store.fetchone("SELECT seed FROM matches WHERE id = ?", (mid,)))["seed"], 4, {"target": "30"},
        [(a.seat, a.action) for a in log])
    await store.close()


async def test_a_time_out_and_the_ai_answers_to_it_are_one_transaction(
        db_target: Path | str, monkeypatch: pytest.MonkeyPatch) -> None:
    """run_due answers a person's time-out and the AI's moves after it, up to the person's next
    request, in ONE transaction (it was two: the time-out's, then the AI run's, which loaded
    the match again: a load and a commit a time-out in bench run_due). The log, the attendance
    and the changes are those of the two: a ``timeout`` change with its note, then one
    ``acted`` change per AI move. The second time-out marks the seat away, and the same run
    already plays the seat's next request."""
    store = await Store.open(db_target)
    recorder, clock = Recorder(), Clock()
    service = MatchService(store, publisher=recorder, clock=clock, offload=False)
    mid = await human_and_ais(service, 3)
    for missed in (1, 2):
        before = (await repo.get_match(store, mid)).version
        writes = spy_log_writes(monkeypatch)
        clock.advance(3601)
        assert await service.run_due() >= 4
        await service.drain()
        assert len({id(tx) for tx, _ in writes}) == 1
        versions = writes[0][1]
        assert len(versions) >= 4 and versions == list(range(before + 1, before + 1 + len(versions)))
        log = [a for a in await repo.list_actions(store, mid) if a.version > before]
        assert [(a.seat, a.source) for a in log[:1]] == [(0, "timeout")]
        assert {a.source for a in log[1:]} == {"ai"}
        changes = [c for c in recorder.changes if c.match_id == mid and c.version > before and c.kind != "finished"]
        assert [c.kind for c in changes] == ["timeout"] + ["acted"] * (len(log) - 1)
        assert [c.version for c in changes] == [a.version for a in log]
        note = changes[0].note
        assert note is not None and note.key == ("core.note.timeout" if missed == 1 else "publish.away")
        assert all(c.request_ids and len(c.request_ids) == len(c.request_seats) for c in changes[:-1])
        seat = (await repo.get_seats(store, mid))[0]
        assert (seat.missed, seat.away) == (missed, missed == 2)
        if missed == 2:  # the AI plays the seat from its next request on, in the same run (to the end)
            assert any(a.seat == 0 for a in log[1:]) and recorder.kinds(mid)[-1] == "finished"
        else:
            assert await service.pending_for_user(mid, HOST)
        await check_consistent(store, mid)
    await store.close()


async def test_an_ai_runs_commit_reads_no_deadlines_back(db_target: Path | str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The deadlines an AI run syncs are the ones it loaded under the match lock (nothing writes
    them in between), so its commit does not read them again inside the transaction: that
    read was a trip to the database before the COMMIT, one per run in bench run_due."""
    store = await Store.open(db_target)
    service = MatchService(store, publisher=Recorder(), clock=(clock := Clock()), offload=False)
    mid = await human_and_ais(service, 3)
    inside: list[Any] = []
    real = repo.get_deadlines

    async def get_deadlines(db: Any, match_id: int) -> list[repo.DeadlineRecord]:
        if not isinstance(db, Database):  # a transaction's Tx, not the store
            inside.append(db)
        return await real(db, match_id)

    monkeypatch.setattr(repo, "get_deadlines", get_deadlines)
    clock.advance(3601)
    assert await service.run_due() >= 4  # the time-out and the AI's answers, one run
    await service.drain()
    assert inside == []
    await check_consistent(store, mid)  # the deadlines are those of the pending requests
    await store.close()


async def test_run_due_serves_the_deadlines_it_claimed_without_reading_them_again(
        db_target: Path | str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The claim names each match's due deadlines (due longest first), so a round serves them
    without reading every due match's deadlines once more (a trip each, ~1 400 in bench
    run_due)."""
    store = await Store.open(db_target)
    service = MatchService(store, publisher=Recorder(), clock=(clock := Clock()), offload=False)
    mids = [await human_and_ais(service, 1) for _ in range(3)]
    clock.advance(3601)
    async with store.transaction() as tx:
        claimed = await repo.claim_due(tx, "someone", clock.now, clock.now + 1, 10)
    assert list(claimed) == mids
    assert all(len(rows) == 1 and rows[0][0] <= clock.now for rows in claimed.values())
    reads: list[Any] = []
    real = repo.get_deadlines

    async def get_deadlines(db: Any, match_id: int) -> list[repo.DeadlineRecord]:
        reads.append(match_id)
        return await real(db, match_id)

    monkeypatch.setattr(repo, "get_deadlines", get_deadlines)
    clock.advance(31)  # the test's own claim has run out
    assert await service.run_due() >= 3 * 2  # each match: the time-out and the AI's answer
    await service.drain()
    assert reads == []
    for mid in mids:
        await check_consistent(store, mid)
    await store.close()
