"""What the event loop is spared: a service move's writes (the new state's JSON, its events
packed for the log and encoded for the outbox) are encoded in the worker thread that computed
the move, and what a delivery or a load reads (the state, the payloads, the changes) is decoded
on SQLite's connection thread. The loop is the one thread every match waits for (bench run_due:
it was kept up to 25 ms, ~13 % of its CPU encoding and ~12 % decoding); the stored bytes are
the same as before."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest
from svc_helpers import HOST, Clock, Recorder, db_path, play_own_turn, toy
from test_svc_ai_runs import human_and_ais
from test_svc_crash import check_consistent

from engines.base import Event, Msg, seat_ref
from service import codec, core
from service.matches import MatchService
from store import compact, repo
from store.db import Store

__all__ = ["db_path", "toy"]
pytestmark = pytest.mark.usefixtures("toy")


def spy_threads(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str) -> list[int]:
    """The threads ``owner.name`` (a plain function or a static method) is called on."""
    seen: list[int] = []
    real = getattr(owner, name)

    def spy(*args: Any, **kwargs: Any) -> Any:
        seen.append(threading.get_ident())
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, staticmethod(spy) if isinstance(owner, type) else spy)
    return seen


async def test_a_time_outs_run_is_encoded_in_its_worker_thread(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = await Store.open(db_path)
    clock, recorder = Clock(), Recorder()
    service = MatchService(store, publisher=recorder, clock=clock)  # engine work in worker threads
    mid = await human_and_ais(service, 2)
    states: list[Any] = []
    bump = repo.bump_match

    async def spy_bump(tx: Any, match_id: int, expect: int, **fields: Any) -> None:
        states.append(fields.get("state"))
        await bump(tx, match_id, expect, **fields)

    monkeypatch.setattr(repo, "bump_match", spy_bump)
    packs = spy_threads(monkeypatch, compact, "pack")
    recorder.changes.clear()
    clock.now += 3601  # the host's turn times out: the AI plays for them, then the AI seats answer
    assert await service.run_due() >= 3
    await service.drain()
    loop = threading.get_ident()
    assert states and all(isinstance(s, repo.Encoded) for s in states), [type(s) for s in states]
    assert len(packs) >= 3 and loop not in packs
    # what was stored is what encoding on the loop stored: the state, every log row, every payload
    row = await store.fetchone("SELECT state FROM matches WHERE id = ?", (mid,))
    assert row is not None and row["state"] == repo.dumps(json.loads(row["state"]))
    payloads = [json.loads(r["payload"]) for r in await store.fetchall(
        "SELECT payload FROM outbox WHERE match_id = ? ORDER BY id", (mid,))]
    ran = [p for p in payloads if p["kind"] in ("timeout", "acted") and p["version"] >= recorder.changes[0].version]
    assert [p["version"] for p in ran] == [c.version for c in recorder.changes]
    for payload, change in zip(ran, recorder.changes, strict=True):
        assert {k: v for k, v in payload.items() if k in codec.change_to_json(change)} == codec.change_to_json(change)
    await check_consistent(store, mid)
    await store.close()


async def test_a_delivery_and_a_load_decode_off_the_event_loop(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = await Store.open(db_path)
    recorder = Recorder()
    service = MatchService(store, publisher=recorder, clock=Clock())
    mid = await human_and_ais(service, 2)
    changes = spy_threads(monkeypatch, core.MatchCore, "_change_of")
    matches = spy_threads(monkeypatch, repo, "_match")
    recorder.changes.clear()
    await play_own_turn(service, mid, HOST)
    await service.drain()
    loop = threading.get_ident()
    assert len(changes) == len(recorder.changes) >= 3 and loop not in changes
    assert matches and loop not in matches
    assert all(c.request_seats for c in recorder.changes if c.request_ids)  # read back as they were written
    await store.close()


def test_a_payload_with_its_events_encoded_ahead_reads_as_one_encoded_whole() -> None:
    # a name that looks like the key must stay data
    events = [Event(Msg("ev.x", {"player": seat_ref(1, "c.red"), "name": '"events":[1],'}))]
    change = core.Change("acted", 7, 3, 1, events, Msg("n", {"name": '{"events":0}'}), ["r1"])
    payload = codec.change_to_json(change, with_events=False)
    text = repo.Encoded.with_key(payload, "events", repo.dumps([e.to_json() for e in events]))
    assert "events" not in payload
    assert json.loads(text) == codec.change_to_json(change)
    assert json.loads(repo.Encoded.with_key({}, "events", "[]")) == {"events": []}
    ahead = core._Ahead.of({"a": 1}, [events, [], events])
    assert ahead.state == repo.dumps({"a": 1}) and compact.unpack(ahead.packed[0]) == [events[0].to_json()]
    line = Event(Msg("publish.away", {"name": "x"}))
    assert json.loads(ahead.joined([line])) == [e.to_json() for e in [*events, *events, line]]
    assert json.loads(core._Ahead.of({}, [[]]).joined([])) == []

