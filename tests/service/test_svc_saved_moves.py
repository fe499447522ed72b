"""A move that is saved is answered as saved: when something fails after its transaction
committed (a PostgreSQL connection dropped right after COMMIT fails the reads that follow; the
COMMIT's own answer may be lost), and when the same click comes again after it was saved. Both
are answered from the log by request id; the move is applied once, and a different action on
an answered request, another seat, or a time-out's answer stay refused as stale."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from svc_helpers import BOB, HOST, Clock, Recorder, clock, db_path, recorder, service, store, toy, two_humans

from service.errors import UserError
from service.matches import MatchService
from store import repo
from store.db import Store

__all__ = ["clock", "db_path", "recorder", "service", "store", "toy"]
pytestmark = pytest.mark.usefixtures("toy")


class Dropped(ConnectionResetError):
    """The connection went away right after the COMMIT."""


class DropAfterCommit:
    """Wraps a store so that, once armed, the first read after the next COMMIT raises (once), or
    (``at_commit``) the COMMIT itself is made and then reported as failed."""

    def __init__(self, store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
        self.armed = False
        self.committed = False
        self.at_commit = False
        self.tripped = 0
        real_tx = store.transaction

        @asynccontextmanager
        async def transaction() -> AsyncIterator[Any]:
            async with real_tx() as tx:
                yield tx
            if self.armed:
                self.committed = True
                if self.at_commit:
                    self._trip()

        def reads(real: Any) -> Any:
            async def read(*args: Any, **kwargs: Any) -> Any:
                if self.armed and self.committed:
                    self._trip()
                return await real(*args, **kwargs)
            return read

        for name in ("fetchall", "fetch_many"):
            monkeypatch.setattr(store, name, reads(getattr(store, name)))
        monkeypatch.setattr(store, "transaction", transaction)

    def arm(self, *, at_commit: bool = False) -> None:
        self.armed, self.committed, self.at_commit = True, False, at_commit

    def _trip(self) -> None:
        self.armed = False
        self.tripped += 1
        raise Dropped("connection lost after COMMIT")


async def _count(service: MatchService, match_id: int) -> int:
    row = await service.store.fetchone("SELECT state FROM matches WHERE id = ?", (match_id,))
    return int(json.loads(row["state"])["count"])


@pytest.mark.parametrize("where", ["reads", "commit"])
async def test_a_failure_after_the_commit_answers_the_saved_move(service: MatchService, store: Store,
                                                                 recorder: Recorder, monkeypatch: pytest.MonkeyPatch,
                                                                 where: str) -> None:
    mid = (await two_humans(service)).id
    before = await service.get(mid)
    (rid,) = await service.pending_for_user(mid, HOST)
    trap = DropAfterCommit(store, monkeypatch)
    trap.arm(at_commit=where == "commit")

    info, events = await service.act_with_events(mid, HOST, rid, ["add", "2"])

    assert trap.tripped == 1  # the failure really happened, after the commit
    assert info.version == before.version + 1 == (await service.get(mid)).version
    assert [(e.msg.key, e.msg.params["n"]) for e in events] == [("toy.ev.add", 2)]
    assert [(a.action, a.request_id) for a in await repo.list_actions(store, mid)] == [(["add", "2"], rid)]
    assert await _count(service, mid) == 2  # applied once
    assert await service.pending_for_user(mid, BOB)
    await service.run_due()  # what the failure left undelivered goes out now, once
    assert [c.version for c in recorder.changes if c.kind == "acted"] == [info.version]


async def test_a_repeated_click_gets_the_saved_answer_and_nothing_else_does(service: MatchService,
                                                                             store: Store) -> None:
    mid = (await two_humans(service)).id
    (rid,) = await service.pending_for_user(mid, HOST)
    first = await service.act_with_events(mid, HOST, rid, ["add", "2"])
    again = await service.act_with_events(mid, HOST, rid, ["add", "2"])
    assert again == first  # not "stale": the same answer
    assert await service.act(mid, HOST, rid, ["add", "2"]) == first[0]
    assert len(await repo.list_actions(store, mid)) == 1 and await _count(service, mid) == 2
    for user, action in ((HOST, ["add", "1"]), (BOB, ["add", "2"])):  # another action, another seat
        with pytest.raises(UserError) as err:
            await service.act(mid, user, rid, action)
        assert err.value.msg.key == "core.err.stale"
    assert len(await repo.list_actions(store, mid)) == 1


async def test_a_timed_out_request_stays_stale(service: MatchService, store: Store, clock: Clock) -> None:
    """The log's answer to a time-out is not the player's: clicking what it chose is refused."""
    mid = (await two_humans(service, turn_seconds=60)).id
    (rid,) = await service.pending_for_user(mid, HOST)
    clock.advance(61)
    await service.run_due()
    (answer,) = await repo.list_actions(store, mid)
    assert answer.source == "timeout" and answer.request_id == rid
    with pytest.raises(UserError) as err:
        await service.act(mid, HOST, rid, answer.action)
    assert err.value.msg.key == "core.err.stale"


async def test_repeating_the_winning_click_gets_the_finished_match(service: MatchService, store: Store) -> None:
    mid = (await two_humans(service, target="10")).id
    last: tuple[int, str, list[str]] | None = None
    info = await service.get(mid)
    while info.status == "active":
        for user in (HOST, BOB):
            for rid in await service.pending_for_user(mid, user):
                verb = (await service.step(mid, user, rid, [])).options[0].value
                last = (user, rid, [verb, "2"])
                info = await service.act(mid, *last)
    assert info.status == "finished" and last is not None
    moves = len(await repo.list_actions(store, mid))
    assert await service.act(mid, *last) == info  # not "not active": the answer it had
    assert len(await repo.list_actions(store, mid)) == moves
