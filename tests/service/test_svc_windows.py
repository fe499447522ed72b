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
from svc_helpers import BOB, CAROL, HOST, Clock, Recorder, counted_loads, db_target, trips

import store.db as store_db
from service.matches import MatchService
from service.settings import DEFAULTS
from store import repo
from store.db import Store
from store.pg import PgStore, PgTx

W = DEFAULTS.window_seconds
__all__ = ["db_target", "trips"]


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


async def test_async_matches_give_windows_the_reaction_time_not_the_turn_clock(
        svc: MatchService, store: Store, clock: Clock) -> None:
    mid = await table(svc, turn_seconds=86400)
    await turn(svc, mid, HOST, ["attack"])
    deadlines = {d.seat: d for d in await repo.get_deadlines(store, mid)}
    # a one-day turn: 2 h to react ("auto"), reminded half an hour before, once
    assert deadlines[1].due_at == clock.now + 7200 and deadlines[1].remind_at == clock.now + 7200 - 1800
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
        assert rec.changes[-1].kind == "back" and rec.changes[-1].note.key == "publish.back_summary"
        assert rec.changes[-1].note.params["n"] == 2  # one window answered, one turn played
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


async def test_an_async_seat_silent_in_three_windows_in_a_row_is_away(
        svc: MatchService, store: Store, clock: Clock, rec: Recorder) -> None:
    """Issue 19: in an async match a reaction deadline passed in silence counts (a live one does
    not, see above); at ``away_after_reactions`` the AI answers for the seat, and any move of the
    player brings it back with one line of what the AI did meanwhile."""
    mid = await table(svc, ai=None, turn_seconds=86400)
    for missed in (1, 2, 3):
        await turn(svc, mid, HOST, ["ask", "1"])
        clock.advance(7200)
        await svc.run_due()
        seat = (await repo.get_seats(store, mid))[1]
        assert seat.missed == missed and seat.away == (missed == 3)
    events = [e.msg for c in rec.changes for e in c.events]
    assert [(x.key, x.params["n"]) for x in events if x.key == "publish.away_reactions"] == [
        ("publish.away_reactions", 3)]
    await turn(svc, mid, HOST, ["ask", "1"])
    clock.advance(DEFAULTS.ai_window_delay)
    await svc.run_due()
    assert (await svc.log(mid))[-1].source == "ai"  # the AI answered for the away seat
    await turn(svc, mid, HOST, ["end"])  # Bob's turn, played by the AI at once
    info = await svc.come_back(mid, BOB)
    assert not info.seats[1].away and rec.changes[-1].note.key == "publish.back_summary"


async def test_a_player_back_in_an_async_match_gets_the_games_digest_privately_once(
        svc: MatchService, store: Store, clock: Clock, rec: Recorder, eng: svc_window_engine.WindowEngine,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 19: the first move after a reaction time away carries ``Engine.digest`` of the
    public lines since the player's last move, to them alone, in the change (not the log)."""
    from engines.base import Event, Msg

    seen: list[list[str]] = []

    def digest(msgs: list[Msg], seat: int) -> list[Msg]:
        seen.append([x.key for x in msgs])
        return [Msg("win.digest", {"n": len(msgs)})] if msgs else []

    monkeypatch.setattr(eng, "digest", digest, raising=False)
    mid = await table(svc, ai=None, turn_seconds=86400)
    await turn(svc, mid, HOST, ["ask", "1"])
    await turn(svc, mid, BOB, ["give"])  # Bob's last move
    await turn(svc, mid, HOST, ["end"])
    clock.advance(600)  # back soon: no digest
    await turn(svc, mid, BOB, ["ask", "0"])
    assert not [e for c in rec.changes for e in c.events if e.msg.key == "win.digest"]
    await turn(svc, mid, HOST, ["give"])
    clock.advance(3 * 3600)  # away longer than the 2 h reaction time
    (rid,) = await svc.pending_for_user(mid, BOB)
    await svc.act(mid, BOB, rid, ["end"])
    got = [e for e in rec.changes[-1].events if e.msg.key == "win.digest"]
    assert got == [Event(Msg("win.digest", {"n": len(seen[-1])}), (1,))] and seen[-1]
    logged = (await svc.log(mid, 5))[-1]
    assert all(e.msg.key != "win.digest" for e in logged.events)


async def test_im_back_brings_the_digest_and_the_next_move_does_not_repeat_it(
        svc: MatchService, store: Store, clock: Clock, rec: Recorder, eng: svc_window_engine.WindowEngine,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A player marked away who clicks "I'm back" reads what happened since their last move in
    that change (privately); their next move brings no second digest of the same lines."""
    from engines.base import Msg

    def digest(msgs: list[Msg], seat: int) -> list[Msg]:
        return [Msg("win.digest", {"n": len(msgs)})] if msgs else []

    monkeypatch.setattr(eng, "digest", digest, raising=False)
    mid = await table(svc, ai=None, turn_seconds=86400)
    await turn(svc, mid, HOST, ["ask", "1"])
    await turn(svc, mid, BOB, ["give"])  # Bob's last own move
    await turn(svc, mid, HOST, ["end"])
    clock.advance(3 * 3600)  # longer than the 2 h reaction time
    await repo_mark_away(store, mid, 1)
    await svc.come_back(mid, BOB)
    back = rec.changes[-1]
    assert back.kind == "back"
    digests = [e for e in back.events if e.msg.key == "win.digest"]
    assert len(digests) == 1 and digests[0].to == (1,) and digests[0].msg.params["n"] >= 1
    (rid,) = await svc.pending_for_user(mid, BOB)
    await svc.act(mid, BOB, rid, ["ask", "0"])
    assert not [e for e in rec.changes[-1].events if e.msg.key == "win.digest"]  # not twice


async def repo_mark_away(store: Store, mid: int, seat: int) -> None:
    async with store.transaction() as tx:
        await repo.set_attendance(tx, mid, seat, missed=3, away=True)


async def test_a_standing_pick_waits_while_a_person_in_the_window_may_still_decide(
        svc: MatchService, store: Store, clock: Clock, rec: Recorder,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Review of issue 19: a standing answer that is a real choice (a pick, e.g. a 极武三国 duel
    move) is applied once the window's other person has answered (or at its close), not a second
    after the opening — that would show the table the seat answers by a setting."""
    from engines.base import Msg, OptionSpec

    def specs(self: Any, view: dict[str, Any]) -> list[OptionSpec]:
        return [OptionSpec("pick", Msg("x"), [("2", Msg("x")), ("ask", Msg("x"))], "2")]

    def answer(self: Any, view: dict[str, Any], request: Any, settings: dict[str, str]) -> list[str] | None:
        mine = view.get("seat") == 0 and request.kind == "pick" and settings.get("pick") == "2"
        return ["pick", "2"] if mine else None

    monkeypatch.setattr(svc_window_engine.WindowEngine, "standing_specs", specs)
    monkeypatch.setattr(svc_window_engine.WindowEngine, "standing_answer", answer)
    mid = await table(svc, ai=None, turn_seconds=86400)
    await turn(svc, mid, HOST, ["poll"])  # every seat picks, in secret: seat 0 by its setting
    clock.advance(DEFAULTS.ai_window_delay + 1)
    await svc.run_due()
    assert "0" not in (await state_of(store, mid))["picks"]  # not yet: Bob may still decide
    await turn(svc, mid, BOB, ["pick", "1"])
    clock.advance(DEFAULTS.ai_window_delay + 1)
    await svc.run_due()
    state = await state_of(store, mid)
    assert state["phase"] == "turn" and [e for e in await svc.log(mid, 5) if e.seat == 0][-1].action == ["pick", "2"]


async def test_a_windows_answers_are_worked_out_in_one_engine_call(
        svc: MatchService, store: Store, clock: Clock, monkeypatch: pytest.MonkeyPatch) -> None:
    """The AI's choices, the defaults and their ``apply`` for every due seat of a window are ONE
    worker-thread call (they were one call per AI choice and one per answer: three here, each a
    trip to the thread and back for the event loop)."""
    mid = await table(svc)
    await turn(svc, mid, HOST, ["attack"])
    clock.advance(W)
    calls = spy_cpu(svc, monkeypatch)
    await svc.run_due()
    log = await svc.log(mid)
    assert [(e.seat, e.action, e.source) for e in log[-2:]] == [(1, ["pass"], "timeout"), (2, ["pass"], "ai")]
    assert len(calls) == 1


async def test_a_standing_answer_is_worked_out_in_the_windows_one_engine_call(
        svc: MatchService, store: Store, clock: Clock, monkeypatch: pytest.MonkeyPatch) -> None:
    """A window's standing answer is worked out with the AI's answers and the silent seats'
    defaults in the one worker-thread call: its setting is read before the call (a read is an
    await), the answer from the seat's view inside it, and it is logged as ``auto``."""
    from engines.base import Msg, OptionSpec

    def specs(self: Any, view: dict[str, Any]) -> list[OptionSpec]:
        return [OptionSpec("pick", Msg("x"), [("2", Msg("x")), ("ask", Msg("x"))], "2")]

    def answer(self: Any, view: dict[str, Any], request: Any, settings: dict[str, str]) -> list[str] | None:
        mine = view.get("seat") == 0 and request.kind == "pick" and settings.get("pick") == "2"
        return ["pick", "2"] if mine else None

    monkeypatch.setattr(svc_window_engine.WindowEngine, "standing_specs", specs)
    monkeypatch.setattr(svc_window_engine.WindowEngine, "standing_answer", answer)
    mid = await table(svc)
    await turn(svc, mid, HOST, ["poll"])  # every seat picks: seat 0 by its setting, Bob silent, the AI
    clock.advance(W + 1)
    calls = spy_cpu(svc, monkeypatch)
    await svc.run_due()
    log = [e for e in await svc.log(mid, 5) if e.action[:1] == ["pick"]]
    assert {(e.seat, tuple(e.action), e.source) for e in log} >= {(0, ("pick", "2"), "auto")}
    assert {e.source for e in log if e.seat == 1} == {"timeout"}
    assert [getattr(fn, "__name__", "") for fn in calls] == ["_window_moves"]


def spy_cpu(svc: MatchService, monkeypatch: pytest.MonkeyPatch) -> list[Callable[..., Any]]:
    """The functions ``svc`` hands to its worker threads from now on."""
    calls: list[Callable[..., Any]] = []
    real = svc._cpu

    async def cpu(fn: Callable[..., Any], *args: Any) -> Any:
        calls.append(fn)
        return await real(fn, *args)

    monkeypatch.setattr(svc, "_cpu", cpu)
    return calls


async def test_a_windows_due_rows_claimed_together_load_the_match_once(
        svc: MatchService, store: Store, clock: Clock, monkeypatch: pytest.MonkeyPatch) -> None:
    """run_due claims every due row of a window (Bob's time-out and the AI's deferred pass); the
    first one's answer closes the window for both, so the second is skipped rather than loaded
    again and cleared in a transaction of its own (bench run_due: 772 of 2 000 due items). The
    window's commit syncs the deadlines it loaded (413 reads in bench run_due)."""
    mid = await table(svc)
    await turn(svc, mid, HOST, ["attack"])
    clock.advance(W)
    assert len([d for d in await repo.get_deadlines(store, mid) if d.due_at <= clock.now]) == 2
    loads = counted_loads(monkeypatch, svc)
    txs: list[int] = []
    real_tx = store.transaction

    def transaction() -> Any:
        txs.append(1)
        return real_tx()

    monkeypatch.setattr(store, "transaction", transaction)
    reads: list[int] = []
    real_read = repo.get_deadlines

    async def get_deadlines(db: Any, match_id: int) -> Any:
        reads.append(match_id)
        return await real_read(db, match_id)

    monkeypatch.setattr(repo, "get_deadlines", get_deadlines)
    await svc.run_due()
    assert reads == []  # the commit syncs the deadlines loaded with the match, not read back
    assert loads == [mid]  # the window's one load (the delivery reads the match with its rows)
    assert len(txs) == 3  # run_due's claim, the window's answers, the delivery's mark
    log = await svc.log(mid)
    assert [(e.seat, e.action, e.source) for e in log[-2:]] == [(1, ["pass"], "timeout"), (2, ["pass"], "ai")]


async def test_a_timeout_that_opens_a_window_starts_no_ai_run_that_would_find_nothing(
        svc: MatchService, store: Store, clock: Clock, rec: Recorder, eng: svc_window_engine.WindowEngine,
        monkeypatch: pytest.MonkeyPatch, trips: list[Any]) -> None:
    """A person's time-out that opens a window with an AI seat in it: the AI answers at the
    window's uniform delay, not now, so run_due starts no AI run after the commit (it loaded the
    match to find nothing: 37 of 129 such runs in a 600-item bench run_due); the change is
    delivered as it was, and the AI still answers at the delay."""
    mid = await table(svc)
    monkeypatch.setattr(eng, "timeout_action", lambda state, req, rng: ["attack"] if req.kind == "turn" else ["pass"])
    loads = counted_loads(monkeypatch, svc)
    trips.clear()  # from the time-out's round on
    before = len(rec.changes)
    clock.advance(60)
    await svc.run_due()
    assert (await state_of(store, mid))["phase"] == "any"  # Bob and the AI asked
    assert loads == [mid]  # the time-out's load only, no AI run's
    if store.dialect == "sqlite":  # the round's own, the time-out's load and commit, the delivery's read and
        assert len(trips) == 11, len(trips)  # mark: 11 (12 with the AI run's load that found nothing)
    assert [c.kind for c in rec.changes[before:]] == ["timeout"]
    assert await outbox_count(store, mid) == len(rec.changes)  # all delivered
    assert await svc.next_due_at() == clock.now + DEFAULTS.ai_window_delay  # the clock wakes for the AI
    clock.advance(W)
    await svc.run_due()
    log = await svc.log(mid)
    assert [(e.seat, e.action, e.source) for e in log[-2:]] == [(1, ["pass"], "timeout"), (2, ["pass"], "ai")]
