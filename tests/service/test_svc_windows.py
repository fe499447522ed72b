"""Response windows: requests asked of one seat, of any of several (first real answer closes),
or of all; a window's own short timeout and default answer applied for every silent seat in ONE
transaction and ONE outbox row; the AI answering after a uniform delay; away (托管) after two
time-outs in a row; the engine told which request is answered. Injected clock throughout."""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import svc_window_engine
from svc_helpers import BOB, CAROL, HOST, Clock, Recorder, db_target

import store.db as store_db
from service.matches import MatchService
from service.settings import DEFAULTS
from store import repo
from store.db import Store
from store.pg import PgStore, PgTx

W = DEFAULTS.window_seconds
__all__ = ["db_target"]


@pytest.fixture
def eng() -> Iterator[svc_window_engine.WindowEngine]:
    yield svc_window_engine.install()
    svc_window_engine.uninstall()


@pytest.fixture
async def store(db_target: Path | str) -> AsyncIterator[Store]:
    """Each test on both backends (``db_target``)."""
    s = await Store.open(db_target)
    yield s
    await s.close()


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def rec() -> Recorder:
    return Recorder()


@pytest.fixture
def svc(store: Store, rec: Recorder, clock: Clock, eng: svc_window_engine.WindowEngine) -> MatchService:
    return MatchService(store, publisher=rec, clock=clock, offload=False)


async def table(svc: MatchService, *, ai: str | None = "passer", turn_seconds: int = 60,
                carol: bool = False) -> int:
    """HOST seat 0, BOB seat 1, (CAROL seat 2), then an AI seat of level ``ai``."""
    info = await svc.create_lobby(svc_window_engine.SLUG, host_id=HOST, host_name="Host", locale="en",
                                  channel_id=9, turn_seconds=turn_seconds)
    await svc.join(info.id, BOB, "Bob")
    if carol:
        await svc.join(info.id, CAROL, "Carol")
    if ai is not None:
        await svc.add_ai(info.id, HOST, ai)
    return (await svc.start(info.id, HOST)).id


async def turn(svc: MatchService, mid: int, user: int, action: list[str]) -> None:
    (rid,) = await svc.pending_for_user(mid, user)
    await svc.act(mid, user, rid, action)


async def state_of(store: Store, mid: int) -> dict[str, Any]:
    row = await store.fetchone("SELECT state FROM matches WHERE id = ?", (mid,))
    return json.loads(row["state"])


async def outbox_count(store: Store, mid: int) -> int:
    return (await store.fetchone("SELECT COUNT(*) AS n FROM outbox WHERE match_id = ?", (mid,)))["n"]


async def test_silent_any_window_gets_its_default_for_every_seat_in_one_change(
        svc: MatchService, store: Store, clock: Clock, rec: Recorder) -> None:
    mid = await table(svc)
    await turn(svc, mid, HOST, ["attack"])
    opened = clock.now
    deadlines = {d.seat: d for d in await repo.get_deadlines(store, mid)}
    assert deadlines[1].due_at == opened + W and deadlines[1].remind_at is None  # short, not the turn clock
    assert deadlines[2].due_at == opened + DEFAULTS.ai_window_delay  # the AI does not answer at once
    assert deadlines[1].window == deadlines[2].window != ""
    assert len((await state_of(store, mid))["reqs"]) == 2  # nobody answered yet
    before_rows, before_changes = await outbox_count(store, mid), len(rec.changes)

    clock.advance(DEFAULTS.ai_window_delay)
    await svc.run_due()
    # The AI's answer is a pass while Bob still has time: it waits for the window to close.
    assert len((await state_of(store, mid))["reqs"]) == 2
    assert await outbox_count(store, mid) == before_rows
    assert await svc.next_due_at() == opened + W

    clock.advance(W - DEFAULTS.ai_window_delay - 0.5)
    assert await svc.run_due() == 0
    clock.advance(0.5)
    await svc.run_due()
    state = await state_of(store, mid)
    assert state["phase"] == "turn" and state["hp"] == [3, 2, 2]
    assert await outbox_count(store, mid) == before_rows + 1  # ONE outbox row for both seats
    new = rec.changes[before_changes:]
    assert [c.kind for c in new] == ["window"]
    log = await svc.log(mid)
    assert [(e.seat, e.action, e.source) for e in log[-2:]] == [(1, ["pass"], "timeout"), (2, ["pass"], "ai")]
    assert new[0].version == log[-1].version
    # the default was applied, not the AI (which, for Bob, is never asked); the AI and apply were
    # told which request they answer
    calls = svc_window_engine.ENGINE.calls
    assert not any(c[0] == "ai" and c[1] == 1 for c in calls)
    rows = await repo.list_actions(store, mid)
    assert ("ai", 2, rows[-1].request_id) in calls and ("apply", 1, rows[-2].request_id) in calls


async def test_first_real_answer_closes_an_any_window(svc: MatchService, store: Store, clock: Clock,
                                                      eng: svc_window_engine.WindowEngine) -> None:
    mid = await table(svc, carol=True)
    await turn(svc, mid, HOST, ["attack"])
    assert {d.seat for d in await repo.get_deadlines(store, mid)} == {1, 2, 3}
    (bob_rid,) = await svc.pending_for_user(mid, BOB)
    (carol_rid,) = await svc.pending_for_user(mid, CAROL)
    await svc.act(mid, CAROL, carol_rid, ["pass"])  # a person's explicit pass keeps the window open
    assert await svc.pending_for_user(mid, BOB) == [bob_rid]
    eng.calls.clear()
    step = await svc.step(mid, BOB, bob_rid, [])
    assert {o.value for o in step.options} == {"block", "pass"}
    await svc.act(mid, BOB, bob_rid, ["block"])
    assert ("step", 1, bob_rid) in eng.calls and ("apply", 1, bob_rid) in eng.calls  # told which request
    state = await state_of(store, mid)
    assert state["phase"] == "turn" and state["hp"] == [3, 3, 3, 3]
    assert [d.seat for d in await repo.get_deadlines(store, mid)] == [0]  # the AI's request went stale
    clock.advance(60)
    await svc.run_due()
    assert (await svc.log(mid))[-1].source == "timeout" and (await svc.log(mid))[-1].seat == 0


async def test_an_ai_real_answer_comes_after_the_uniform_delay(svc: MatchService, store: Store, clock: Clock,
                                                               rec: Recorder) -> None:
    mid = await table(svc, ai="blocker")
    await turn(svc, mid, HOST, ["attack"])
    assert (await state_of(store, mid))["phase"] == "any"  # not answered instantly
    clock.advance(DEFAULTS.ai_window_delay - 0.1)
    assert await svc.run_due() == 0
    clock.advance(0.1)
    await svc.run_due()
    state = await state_of(store, mid)
    assert state["phase"] == "turn" and state["hp"] == [3, 3, 3]
    assert (await svc.log(mid))[-1].action == ["block"] and rec.changes[-1].kind == "acted"
    assert await svc.pending_for_user(mid, BOB) == []


async def test_all_window_everyone_answers_silent_ones_pick_the_default(svc: MatchService, store: Store,
                                                                        clock: Clock, rec: Recorder) -> None:
    mid = await table(svc, ai="blocker")
    await turn(svc, mid, HOST, ["poll"])
    (rid,) = await svc.pending_for_user(mid, HOST)
    await svc.act(mid, HOST, rid, ["pick", "1"])
    assert len((await state_of(store, mid))["reqs"]) == 2  # Bob and the AI still to answer
    clock.advance(DEFAULTS.ai_window_delay)
    await svc.run_due()
    assert (await state_of(store, mid))["picks"] == {"0": 1, "2": 2}  # the AI's real pick, on time
    clock.advance(W - DEFAULTS.ai_window_delay)
    await svc.run_due()
    state = await state_of(store, mid)
    assert state["phase"] == "turn" and state["picks"] == {"0": 1, "1": 0, "2": 2}
    assert rec.changes[-1].kind == "window"


async def test_a_one_seat_request_with_a_default_times_out_to_it_not_to_the_ai(
        svc: MatchService, store: Store, clock: Clock) -> None:
    mid = await table(svc, ai=None)
    await turn(svc, mid, HOST, ["ask", "1"])
    (d,) = await repo.get_deadlines(store, mid)
    assert d.seat == 1 and d.due_at == clock.now + W
    clock.advance(W)
    await svc.run_due()
    entry = (await svc.log(mid))[-1]
    assert (entry.seat, entry.action, entry.source) == (1, ["pass"], "timeout")


async def test_async_matches_give_windows_the_match_clock(svc: MatchService, store: Store, clock: Clock) -> None:
    mid = await table(svc, turn_seconds=86400)
    await turn(svc, mid, HOST, ["attack"])
    deadlines = {d.seat: d for d in await repo.get_deadlines(store, mid)}
    assert deadlines[1].due_at == clock.now + 86400 and deadlines[1].remind_at is not None
    assert deadlines[2].due_at == clock.now + DEFAULTS.ai_window_delay


async def test_two_timeouts_in_a_row_mark_a_seat_away_until_it_is_back(
        db_target: Path | str, clock: Clock, eng: svc_window_engine.WindowEngine) -> None:
    path = db_target
    store = await Store.open(path)
    rec = Recorder()
    svc = MatchService(store, publisher=rec, clock=clock, offload=False)
    mid = await table(svc, ai=None)
    await turn(svc, mid, HOST, ["ask", "1"])
    clock.advance(W)
    await svc.run_due()  # silent in a window: his answer is the default ("pass"), not a time-out
    assert (await repo.get_seats(store, mid))[1].missed == 0
    for missed in (1, 2):
        await turn(svc, mid, HOST, ["end"])
        clock.advance(60)
        await svc.run_due()  # Bob's turn times out: a decision nobody made
        seats = await repo.get_seats(store, mid)
        assert seats[1].missed == missed and seats[1].away == (missed == 2)
    seats = await repo.get_seats(store, mid)
    assert seats[1].away and seats[1].missed == 2
    lines = [c.note.key for c in rec.changes if c.note is not None]
    assert lines.count("publish.away") == 1 and (await svc.get(mid)).seats[1].away
    await store.close()

    store = await Store.open(path)  # the flag survives a restart
    rec = Recorder()
    svc = MatchService(store, publisher=rec, clock=clock, offload=False)
    try:
        assert (await repo.get_seats(store, mid))[1].away
        await turn(svc, mid, HOST, ["ask", "1"])
        (d,) = await repo.get_deadlines(store, mid)
        assert d.due_at == clock.now + DEFAULTS.ai_window_delay  # the AI answers for the away seat
        clock.advance(DEFAULTS.ai_window_delay)
        await svc.run_due()
        assert (await svc.log(mid))[-1].source == "ai"
        assert not any(c.note and c.note.key == "publish.away" for c in rec.changes)  # said once only
        await turn(svc, mid, HOST, ["end"])  # Bob's turn: the AI plays it at once
        assert (await svc.log(mid))[-1].seat == 1 and (await svc.log(mid))[-1].source == "ai"

        info = await svc.come_back(mid, BOB)  # "I'm back"
        assert not info.seats[1].away
        assert rec.changes[-1].kind == "back" and rec.changes[-1].note.key == "publish.back"
        await turn(svc, mid, HOST, ["ask", "1"])
        (d,) = await repo.get_deadlines(store, mid)
        assert d.due_at == clock.now + W  # a person's clock again
        (rid,) = await svc.pending_for_user(mid, BOB)
        await svc.act(mid, BOB, rid, ["give"])
        assert (await repo.get_seats(store, mid))[1].missed == 0
    finally:
        await store.close()


async def test_acting_resets_the_count_of_timeouts(svc: MatchService, store: Store, clock: Clock) -> None:
    mid = await table(svc, ai=None)
    await turn(svc, mid, HOST, ["end"])
    clock.advance(60)
    await svc.run_due()  # Bob's turn times out
    assert (await repo.get_seats(store, mid))[1].missed == 1
    await turn(svc, mid, HOST, ["end"])
    await turn(svc, mid, BOB, ["end"])
    assert (await repo.get_seats(store, mid))[1].missed == 0
    await turn(svc, mid, HOST, ["end"])
    clock.advance(60)
    await svc.run_due()
    assert not (await repo.get_seats(store, mid))[1].away


async def test_public_models_mark_window_requests(svc: MatchService, rec: Recorder, clock: Clock) -> None:
    mid = await table(svc)
    await turn(svc, mid, HOST, ["attack"])
    change = rec.changes[-1]
    assert change.request_seats == [1, 2]
    window = change.request_windows[0]
    assert window and change.request_windows == [window, window]
    (pending,) = await svc.pending_requests(mid)  # humans only
    assert pending.seat == 1 and pending.window == window
    clock.advance(DEFAULTS.ai_window_delay)  # (a pass sooner is held until then)
    await turn(svc, mid, BOB, ["pass"])  # the AI's request of the same window is still open
    bobs = next(c for c in rec.changes if c.seat == 1)
    assert (bobs.request_seats, bobs.request_windows) == ([2], [window])
    rows = await svc.store.fetchall("SELECT payload FROM outbox WHERE match_id = ? ORDER BY id", (mid,))
    payloads = [json.loads(r["payload"]) for r in rows]
    bobs_row = next(p for p in payloads if p.get("seat") == 1)
    assert bobs_row["request_windows"] == [window]  # survives the outbox
    await turn(svc, mid, HOST, ["end"]) if await svc.pending_for_user(mid, HOST) else None
    plain = [c for c in rec.changes if c.request_ids and not c.request_windows]
    assert plain and plain[0].kind == "started"  # a plain turn request carries no window


class Injected(Exception):
    pass


async def test_a_crash_at_any_statement_of_the_batched_defaults_leaves_all_or_nothing(
        db_target: Path | str, monkeypatch: pytest.MonkeyPatch, clock: Clock,
        eng: svc_window_engine.WindowEngine) -> None:
    store = await Store.open(db_target)
    rec = Recorder()
    svc = MatchService(store, publisher=rec, clock=clock, offload=False)
    mid = await table(svc, carol=True)
    budget = {"left": -1}
    tx_class = PgTx if isinstance(store, PgStore) else store_db.Tx
    originals = {name: getattr(tx_class, name) for name in ("execute", "executemany", "rowcount", "fetchone",
                                                            "fetchall")}

    def failing(name: str) -> Callable[..., Awaitable[Any]]:
        async def call(self: store_db.Tx, sql: str, params: Any = ()) -> Any:
            if budget["left"] == 0:
                raise Injected(sql[:30])
            if budget["left"] > 0:
                budget["left"] -= 1
            return await originals[name](self, sql, params)
        return call

    for name in originals:
        monkeypatch.setattr(tx_class, name, failing(name))
    real_commit = type(store)._commit

    async def failing_commit(self: Store, *args: Any) -> None:
        if budget["left"] == 0:
            raise Injected("at commit")
        await real_commit(self, *args)

    monkeypatch.setattr(type(store), "_commit", failing_commit)

    async def snap() -> dict[str, Any]:
        q = {"match": "SELECT state, version FROM matches WHERE id = ?",
             "log": "SELECT version, seat, action, source FROM actions WHERE match_id = ? ORDER BY version",
             "deadlines": "SELECT request_id, due_at FROM deadlines WHERE match_id = ? ORDER BY request_id",
             "seats": "SELECT seat, missed, away FROM seats WHERE match_id = ? ORDER BY seat",
             "outbox": "SELECT version FROM outbox WHERE match_id = ? ORDER BY id"}
        return {k: await store.fetchall(sql, (mid,)) for k, sql in q.items()}

    outcomes = []
    for point in range(40):
        await turn(svc, mid, HOST, ["poll"])  # every seat silent: four defaults in one batch
        clock.advance(W)
        before = await snap()
        budget["left"] = point
        with contextlib.suppress(Injected):
            await svc.run_due()
        budget["left"] = -1
        after = await snap()
        if after["match"] == before["match"]:
            assert after == before, f"partial write when failing at point {point}"
            outcomes.append("before")
            await svc.run_due()  # the next round does it
            after = await snap()
        else:
            outcomes.append("after")
        assert len(after["log"]) == len(before["log"]) + 4  # Host, Bob, Carol, AI: all or none
        assert after["outbox"][-1]["version"] == after["match"][0]["version"]
        row = await store.fetchone("SELECT state FROM matches WHERE id = ?", (mid,))
        log = await repo.list_actions(store, mid)
        expected = svc_window_engine.replay(4, [(a.seat, a.action) for a in log])
        assert json.loads(row["state"]) == expected
        for user in (HOST, BOB, CAROL):
            await svc.come_back(mid, user)
        await svc.run_due()  # a delivery the failure interrupted goes out now
        assert await repo.undelivered(store, mid) == []
        if outcomes[-3:] == ["after"] * 3:
            break
    assert "before" in outcomes and outcomes.index("after") >= 4
    await store.close()


def test_window_timings_are_settings() -> None:
    import app_settings

    s = app_settings.from_mapping({})
    assert (s.window_seconds, s.ai_window_delay) == (DEFAULTS.window_seconds, DEFAULTS.ai_window_delay)
    s = app_settings.from_mapping({"WINDOW_SECONDS": "15", "AI_WINDOW_DELAY": "3"})
    assert (s.window_seconds, s.ai_window_delay) == (15.0, 3.0)
    with pytest.raises(app_settings.SettingsError, match="WINDOW_SECONDS"):
        app_settings.from_mapping({"WINDOW_SECONDS": "0"})


async def test_the_clock_wakes_for_the_ai_window_answer(svc: MatchService, clock: Clock) -> None:
    mid = await table(svc)
    await turn(svc, mid, HOST, ["attack"])
    assert await svc.next_due_at() == clock.now + DEFAULTS.ai_window_delay


def test_engines_without_the_request_keyword_are_called_as_before() -> None:
    from engines.base import Msg, Request
    from service.core import with_request

    req = Request("r1", 0, "turn", Msg("x"))

    def old_style(state: dict, seat: int, action: list[str]) -> str:
        return "old"

    def new_style(state: dict, seat: int, action: list[str], request: Request | None = None) -> str:
        return request.id if request else "none"

    assert with_request(old_style, req)({}, 0, []) == "old"
    assert with_request(new_style, req)({}, 0, []) == "r1"
    assert with_request(new_style, None)({}, 0, []) == "none"


# ----- known passes: seats that can only pass, quick passes, the uniform delay as a floor ---------

D = DEFAULTS.ai_window_delay


async def unable(store: Store, mid: int, *seats: int) -> None:
    """The toy engine's way of saying these seats hold nothing to answer with."""
    state = await state_of(store, mid)
    state["unable"] = list(seats)
    async with store.transaction() as tx:
        await repo.update_match(tx, mid, state=state)


async def test_a_window_of_seats_that_can_only_pass_closes_at_the_uniform_delay(
        svc: MatchService, store: Store, clock: Clock, rec: Recorder) -> None:
    mid = await table(svc)  # Host 0, Bob 1, the AI 2
    await unable(store, mid, 1)
    await turn(svc, mid, HOST, ["attack"])
    opened = clock.now
    deadlines = {d.seat: d for d in await repo.get_deadlines(store, mid)}
    assert deadlines[1].due_at == deadlines[2].due_at == opened + D  # Bob: not a 12 s wait
    assert (deadlines[1].auto, deadlines[1].opened_at) == (repo.AUTO_CANNOT, opened)
    assert await svc.next_due_at() == opened + D
    before = len(rec.changes)
    clock.advance(D - 0.1)
    assert await svc.run_due() == 0
    clock.advance(0.1)
    await svc.run_due()
    state = await state_of(store, mid)
    assert state["phase"] == "turn" and state["hp"] == [3, 2, 2]
    assert [c.kind for c in rec.changes[before:]] == ["window"]  # one post for both passes
    log = await svc.log(mid)
    assert [(e.seat, e.action, e.source) for e in log[-2:]] == [(1, ["pass"], "system"), (2, ["pass"], "ai")]
    assert (await repo.get_seats(store, mid))[1].missed == 0  # not a time-out


@pytest.mark.parametrize("carol_does", ["block", "pass", "nothing"])
async def test_one_seat_that_can_answer_keeps_the_window_open_until_its_answer_or_the_end(
        svc: MatchService, store: Store, clock: Clock, rec: Recorder, carol_does: str) -> None:
    mid = await table(svc, carol=True)  # Host 0, Bob 1, Carol 2, the AI 3
    await unable(store, mid, 1)
    await turn(svc, mid, HOST, ["attack"])
    opened = clock.now
    clock.advance(D)
    await svc.run_due()
    # Bob's and the AI's passes wait for Carol, who may still block: nothing is applied yet.
    assert len((await state_of(store, mid))["reqs"]) == 3
    deadlines = {d.seat: d for d in await repo.get_deadlines(store, mid)}
    assert {s: d.due_at for s, d in deadlines.items()} == {1: opened + W, 2: opened + W, 3: opened + W}
    clock.advance(2.0)
    before = len(rec.changes)
    if carol_does == "nothing":
        clock.now = opened + W - 0.1
        assert await svc.run_due() == 0
        clock.now = opened + W
        await svc.run_due()
        expected = [(1, "system"), (2, "timeout"), (3, "ai")]
    else:
        (rid,) = await svc.pending_for_user(mid, CAROL)
        await svc.act(mid, CAROL, rid, [carol_does])
        # A pass leaves nobody to decide: the known passes are due now (here the AI's run, which
        # follows Carol's action, applies them at once).
        expected = [(2, "user")] + ([(1, "system"), (3, "ai")] if carol_does == "pass" else [])
    state = await state_of(store, mid)
    assert state["phase"] == "turn"
    assert state["hp"] == ([3, 3, 3, 3] if carol_does == "block" else [3, 2, 2, 2])
    log = await svc.log(mid)
    assert [(e.seat, e.source) for e in log[-len(expected):]] == expected
    assert rec.changes[-1].kind == ("acted" if carol_does == "block" else "window")
    assert len(rec.changes) - before == (2 if carol_does == "pass" else 1)


async def test_a_quick_pass_is_held_until_the_uniform_delay_like_an_automatic_one(
        svc: MatchService, store: Store, clock: Clock, rec: Recorder) -> None:
    mid = await table(svc, ai=None)  # Host 0, Bob 1
    closes = []
    for quick in (True, False):  # Bob passes after 0.3 s / Bob cannot answer at all
        await unable(store, mid, *(() if quick else (1,)))
        await turn(svc, mid, HOST, ["ask", "1"])
        opened, before = clock.now, len(rec.changes)
        if quick:
            clock.advance(0.3)
            (rid,) = await svc.pending_for_user(mid, BOB)
            await svc.act(mid, BOB, rid, ["pass"])
            await svc.act(mid, BOB, rid, ["pass"])  # a double click changes nothing
            assert (await state_of(store, mid))["phase"] == "one"  # not applied yet
            assert len(rec.changes) == before  # nothing to tell anybody yet
            (d,) = await repo.get_deadlines(store, mid)
            assert (d.due_at, d.auto) == (opened + D, repo.AUTO_HELD)
        clock.now = opened + D - 0.05
        assert await svc.run_due() == 0
        assert (await state_of(store, mid))["phase"] == "one"
        clock.now = opened + D
        await svc.run_due()
        assert (await state_of(store, mid))["phase"] == "turn"
        closes.append((clock.now - opened, [c.kind for c in rec.changes[before:]],
                       [e.msg for c in rec.changes[before:] for e in c.events if e.to is None]))
        entry = (await svc.log(mid))[-1]
        assert (entry.seat, entry.action, entry.source) == (1, ["pass"], "user" if quick else "system")
        await turn(svc, mid, HOST, ["end"])
        await turn(svc, mid, BOB, ["end"])
    assert closes[0] == closes[1]  # the same moment, the same post
    assert closes[0][0] == pytest.approx(D)


async def test_when_the_last_decider_passes_the_known_passes_are_due_at_once(
        svc: MatchService, store: Store, clock: Clock, rec: Recorder) -> None:
    mid = await table(svc, ai=None, carol=True)  # Host 0, Bob 1, Carol 2: people only
    await unable(store, mid, 1)
    await turn(svc, mid, HOST, ["attack"])
    opened = clock.now
    (rid,) = await svc.pending_for_user(mid, CAROL)
    clock.advance(D + 1)
    await svc.run_due()  # Bob's pass waits for Carol
    assert {d.seat: d.due_at for d in await repo.get_deadlines(store, mid)} == {1: opened + W, 2: opened + W}
    await svc.act(mid, CAROL, rid, ["pass"])
    assert {d.seat: d.due_at for d in await repo.get_deadlines(store, mid)} == {1: clock.now}
    assert await svc.next_due_at() == clock.now  # the scheduler wakes for it at once
    await svc.run_due()
    state = await state_of(store, mid)
    assert state["phase"] == "turn" and state["hp"] == [3, 2, 2]
    assert rec.changes[-1].kind == "window"


async def test_a_real_answer_is_not_held(svc: MatchService, store: Store, clock: Clock) -> None:
    mid = await table(svc, ai=None)
    await turn(svc, mid, HOST, ["ask", "1"])
    clock.advance(0.3)
    (rid,) = await svc.pending_for_user(mid, BOB)
    await svc.act(mid, BOB, rid, ["give"])
    assert (await state_of(store, mid))["phase"] == "turn"
    assert (await svc.log(mid))[-1].source == "user"
