"""Batched delivery: an AI's run of moves reaches a publisher with ``publish_batch`` in one call (or
a few, bounded by moves and seconds), in commit order, marked delivered only after the call."""

from __future__ import annotations

import pytest
import svc_toy_engine
from svc_helpers import HOST, Clock, Recorder, clock, db_path, play_own_turn, recorder, store, toy

from service.matches import MatchService
from service.models import Change, MatchInfo
from service.settings import ServiceSettings
from store import repo
from store.db import Store

__all__ = ["clock", "db_path", "recorder", "store", "toy"]
pytestmark = pytest.mark.usefixtures("toy")


class BatchRecorder:
    """A publisher with ``publish_batch``; it notes, per call, how many rows were still undelivered."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.batches: list[list[Change]] = []
        self.undelivered_during: list[int] = []
        self.fail = False

    async def publish(self, match: MatchInfo, change: Change) -> None:  # pragma: no cover - must not be used
        raise AssertionError("publish() called although publish_batch() exists")

    async def publish_batch(self, match: MatchInfo, changes: list[Change]) -> None:
        self.undelivered_during.append(len(await repo.undelivered(self.store, match.id)))
        if self.fail:
            raise RuntimeError("publisher down")
        self.batches.append(list(changes))

    def changes(self) -> list[Change]:
        return [c for batch in self.batches for c in batch]


async def human_and_ais(service: MatchService, ais: int, *, target: str = "30") -> MatchInfo:
    info = await service.create_lobby(svc_toy_engine.SLUG, host_id=HOST, host_name="Host", locale="en",
                                      channel_id=9, options={"target": target}, turn_seconds=3600)
    for _ in range(ais):
        await service.add_ai(info.id, HOST)
    return await service.start(info.id, HOST)


def versions(changes: list[Change]) -> list[int]:
    return [c.version for c in changes if c.kind != "finished"]


async def test_an_ai_run_arrives_as_one_batch_in_commit_order(store: Store, clock: Clock) -> None:
    publisher = BatchRecorder(store)
    service = MatchService(store, publisher=publisher, clock=clock, offload=False)
    info = await human_and_ais(service, 3)
    assert [len(b) for b in publisher.batches] == [1] * 5  # lobby edits and the start, each alone
    ai_runs = []
    for _ in range(6):
        before = len(publisher.batches)
        await play_own_turn(service, info.id, HOST)
        new = publisher.batches[before:]
        # The human's own move opens the batch and the AI seats' answers it caused join it, so a
        # move and the answers become one post.
        assert len(new) == 1 and new[0][0].seat == 0 and all(c.seat != 0 for c in new[0][1:])
        if len(new[0]) > 1:
            ai_runs.append(new[0][1:])
    assert ai_runs and all(0 not in {c.seat for c in run} for run in ai_runs)
    assert max(len({c.seat for c in run}) for run in ai_runs) == 3  # three seats' turns, one batch
    got = publisher.changes()
    assert versions(got) == list(range(got[0].version, got[0].version + len(versions(got))))
    assert await repo.undelivered(store, info.id) == []
    log = await service.log(info.id, limit=1000)
    assert [e.version for e in log] == [c.version for c in got if c.kind == "acted"]


async def test_changes_name_the_seat_of_each_pending_request(store: Store, clock: Clock) -> None:
    publisher = BatchRecorder(store)
    service = MatchService(store, publisher=publisher, clock=clock, offload=False)
    info = await human_and_ais(service, 2)
    for _ in range(3):
        await play_own_turn(service, info.id, HOST)
    acted = [c for c in publisher.changes() if c.kind == "acted"]
    assert acted and all(len(c.request_seats) == len(c.request_ids) for c in acted)
    last = acted[-1]
    current = await service.pending_requests(info.id, humans_only=False)
    assert dict(zip(last.request_ids, last.request_seats, strict=True)) == {p.request_id: p.seat for p in current}
    assert all(0 <= s < len(info.seats) for c in acted for s in c.request_seats)


async def test_long_runs_are_cut_by_moves_and_by_time(store: Store, clock: Clock) -> None:
    publisher = BatchRecorder(store)
    service = MatchService(store, publisher=publisher, clock=clock, offload=False,
                           settings=ServiceSettings(ai_batch_moves=2))
    info = await human_and_ais(service, 3)
    before = len(publisher.batches)
    await play_own_turn(service, info.id, HOST)
    ai_batches = publisher.batches[before:]
    assert ai_batches[0][0].seat == 0 and sum(len(b) for b in ai_batches) >= 4
    # At most two AI moves per batch (the human's move that started the run rides with the first).
    assert all(sum(c.seat != 0 for c in b) <= 2 for b in ai_batches) and len(ai_batches) >= 2

    publisher2 = BatchRecorder(store)
    service2 = MatchService(store, publisher=publisher2, clock=clock, offload=False,
                            settings=ServiceSettings(ai_batch_seconds=0.0))
    info2 = await human_and_ais(service2, 3)
    before = len(publisher2.batches)
    await play_own_turn(service2, info2.id, HOST)
    run = publisher2.batches[before:]
    # No time to gather: the human's move takes the first AI answer along, the rest go one by one.
    assert [c.seat for c in run[0]][0] == 0 and len(run[0]) <= 2 and len(run) >= 3
    assert all(len(b) == 1 for b in run[1:])


async def test_a_failed_batch_stays_undelivered_and_is_sent_again_whole(store: Store, clock: Clock) -> None:
    publisher = BatchRecorder(store)
    service = MatchService(store, publisher=publisher, clock=clock, offload=False)
    info = await human_and_ais(service, 2)
    publisher.fail = True
    await play_own_turn(service, info.id, HOST)
    waiting = await repo.undelivered(store, info.id)
    assert len(waiting) >= 3  # the human's move and the AI answers, all committed
    assert publisher.undelivered_during[-1] == len(waiting)
    publisher.fail = False
    before = len(publisher.batches)
    await service.run_due()
    resent = publisher.batches[before:]
    assert len(resent) == 1 and [c.version for c in resent[0]] == [r.version for r in waiting]
    # During the call the rows were still undelivered: marking happens only after it returns.
    assert publisher.undelivered_during[-1] == len(waiting)
    assert await repo.undelivered(store, info.id) == []


async def test_a_publisher_without_batches_gets_every_change_alone(store: Store, clock: Clock,
                                                                  recorder: Recorder) -> None:
    service = MatchService(store, publisher=recorder, clock=clock, offload=False)
    info = await human_and_ais(service, 2)
    await play_own_turn(service, info.id, HOST)
    acted = [c for c in recorder.changes if c.kind == "acted"]
    assert len(acted) >= 3 and [c.seat for c in acted][:1] == [0]
    assert [c.version for c in acted] == sorted(c.version for c in acted)
    assert await repo.undelivered(store, info.id) == []


async def test_act_with_events_returns_what_the_actor_may_see(store: Store, clock: Clock,
                                                             recorder: Recorder) -> None:
    service = MatchService(store, publisher=recorder, clock=clock, offload=False)
    info = await human_and_ais(service, 1)
    (rid,) = await service.pending_for_user(info.id, HOST)
    after, events = await service.act_with_events(info.id, HOST, rid, ["add", "2"])
    mine = next(c for c in recorder.changes if c.kind == "acted" and c.seat == 0)
    assert events == [e for e in mine.events if e.to is None or 0 in e.to] and events
    assert after.version >= mine.version
