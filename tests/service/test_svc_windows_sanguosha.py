"""The real user of response windows: a 5-seat 三国杀 game (2 silent humans, 3 AI seats) run by
the service's clock alone. The humans' time-outs make them away (托管) after two in a row, the
AI then plays them, windows close by their defaults, and the game reaches its end with a state
equal to the replay of its log."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable
from pathlib import Path

import pytest
from svc_helpers import BOB, CAROL, DAVE, HOST, Clock, Recorder, db_target, new_target

from engines import registry
from service.matches import MatchService
from service.replay import replay
from service.settings import DEFAULTS
from store import repo
from store.db import Store

__all__ = ["db_target", "new_target"]


async def test_a_sanguosha_game_runs_on_windows_and_away_seats(db_target: Path | str,
                                                                caplog: pytest.LogCaptureFixture,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    if "sanguosha" not in registry.available():
        pytest.skip("the 三国杀 engine is not in this branch")
    # One fixed deal: with a fresh random one a silent human can be killed before its second
    # time-out (deal 10: Bob's rebel died after one), and then never goes away; this deal lets
    # both humans live through two time-outs each.
    monkeypatch.setattr("service.lobby.secrets.randbits", lambda bits: 20261126)
    caplog.set_level(logging.ERROR)
    clock = Clock()
    rec = Recorder()
    store = await Store.open(db_target)
    svc = MatchService(store, publisher=rec, clock=clock, offload=False)
    try:
        info = await svc.create_lobby("sanguosha", host_id=HOST, host_name="Host", locale="en", turn_seconds=60)
        await svc.join(info.id, BOB, "Bob")
        for _ in range(3):
            await svc.add_ai(info.id, HOST)
        mid = (await svc.start(info.id, HOST)).id
        for _ in range(3000):
            if (await svc.get(mid)).status != "active":
                break
            clock.advance(DEFAULTS.window_seconds if await svc.pending_requests(mid) else 2.5)
            await svc.run_due()
        match = await svc.get(mid)
        assert match.status == "finished", "the game did not end"
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
        seats = await repo.get_seats(store, mid)
        assert seats[0].away and seats[1].away  # two silent humans: 托管 after two time-outs each
        assert sum(1 for c in rec.changes if c.note is not None and c.note.key == "publish.away") \
            + sum(1 for c in rec.changes for e in c.events if e.msg.key == "publish.away") == 2
        export = await svc.export(mid, include_state=True)
        assert replay(export) == export["state"]
        windows = [c for c in rec.changes if c.kind == "window"]
        assert windows, "no window closed by its defaults"
    finally:
        await store.close()


# ----- 三国杀 windows the service answers by itself -----------------------------------------------

WUZHONG, NANMAN = "c69", "c77"


async def _four_people(svc: MatchService, store: Store, lord_card: str, wuxie_after: int | None = None
                       ) -> tuple[int, int, dict[int, int]]:
    """A live 4-person game parked at the lord's play phase; the lord holds ``lord_card``, no hand
    holds a 杀 or a 无懈 except one 无懈 for the seat ``wuxie_after`` places after the lord (in
    place of another card, so every hand keeps its size). Returns (match, lord, seat -> user)."""
    from engines.sanguosha.data import card, deck

    info = await svc.create_lobby("sanguosha", host_id=HOST, host_name="Host", locale="en", turn_seconds=60,
                                  options={"heroes": "beginner"})  # card windows only, no hero choice
    for user, name in ((BOB, "Bob"), (CAROL, "Carol"), (DAVE, "Dave")):
        await svc.join(info.id, user, name)
    mid = (await svc.start(info.id, HOST)).id
    state = (await repo.get_match(store, mid)).state
    lord = state["lord"]
    assert [(r.seat, r.kind) for r in registry.get("sanguosha").pending(state)] == [(lord, "play")]
    spare = [c for c in state["deck"] if card(c).name not in ("sha", "wuxie") and c != lord_card]
    for p in state["players"]:
        for i, c in enumerate(p["hand"]):
            if card(c).name in ("sha", "wuxie") or c == lord_card:
                p["hand"][i] = spare.pop()
                state["deck"].remove(p["hand"][i])
                state["deck"].insert(0, c)  # to the bottom: the next draws stay the same
    for zone in ("deck", "discard", "proc"):
        state[zone] = [c for c in state[zone] if c != lord_card]
    state["players"][lord]["hand"].append(lord_card)
    if wuxie_after is not None:
        hand = state["players"][(lord + wuxie_after) % 4]["hand"]
        wuxie = next(c for c in state["deck"] if card(c).name == "wuxie")
        state["deck"][state["deck"].index(wuxie)] = hand[0]
        hand[0] = wuxie
    places = state["deck"] + state["discard"] + state["proc"] + [
        c for p in state["players"] for c in p["hand"] + [e for e in p["equip"].values() if e]]
    assert sorted(places) == sorted(deck())  # every card in exactly one place
    async with store.transaction() as tx:
        await repo.update_match(tx, mid, state=state)
    return mid, lord, {s.seat: s.user_id for s in await repo.get_seats(store, mid)}


async def _play(svc: MatchService, mid: int, user: int, cid: str) -> None:
    (rid,) = await svc.pending_for_user(mid, user)
    await svc.act(mid, user, rid, [cid])


async def test_no_wuxie_window_when_nobody_holds_one_and_the_same_public_post_when_somebody_does(
        new_target: Callable[[], Path | str], monkeypatch: pytest.MonkeyPatch) -> None:
    if "sanguosha" not in registry.available():
        pytest.skip("the 三国杀 engine is not in this branch")
    monkeypatch.setattr("service.lobby.secrets.randbits", lambda bits: 20261126)  # one deal for both
    outcomes = {}
    for held in (False, True):
        clock, rec = Clock(), Recorder()
        store = await Store.open(new_target())
        svc = MatchService(store, publisher=rec, clock=clock, offload=False)
        try:
            mid, lord, users = await _four_people(svc, store, WUZHONG, 2 if held else None)
            start, before = clock.now, len(rec.changes)
            hand = len((await svc.view(mid, lord))["you"]["hand"])
            await _play(svc, mid, users[lord], WUZHONG)
            window = [d for d in await repo.get_deadlines(store, mid) if d.window]
            if held:  # asked of all four; only the holder decides, so the table waits for them
                assert len(window) == 4
                assert {d.seat for d in window if d.auto == repo.AUTO_NONE} == {(lord + 2) % 4}
                clock.now = start + DEFAULTS.window_seconds
                await svc.run_due()
            else:
                assert window == []  # straight on: the two cards are drawn with the use
            assert len((await svc.view(mid, lord))["you"]["hand"]) == hand - 1 + 2  # drawn: not nullified
            outcomes[held] = ([e.msg for c in rec.changes[before:] for e in c.events if e.to is None],
                              await svc.view(mid, None), clock.now - start)
        finally:
            await store.close()
    assert outcomes[False][0] == outcomes[True][0]  # the same public lines
    assert outcomes[False][1] == outcomes[True][1]  # the same public table
    assert (outcomes[False][2], outcomes[True][2]) == (0, DEFAULTS.window_seconds)  # only the timing differs


class Crash(Exception):
    pass


async def test_a_crash_between_automatic_passes_resumes_after_a_restart(
        db_target: Path | str, monkeypatch: pytest.MonkeyPatch) -> None:
    """南蛮入侵 at a table where nobody can answer: three 杀 asks passed for by the service, one
    after the other at the uniform delay. The process dies while committing the second; after a
    restart the deadline rows finish the job, each pass exactly once. The restarted process has
    the dead one's lease owner (as a bot's ``Settings.lease_owner``), so it does not wait out the
    lease the dead process held on the deadline."""
    if "sanguosha" not in registry.available():
        pytest.skip("the 三国杀 engine is not in this branch")

    path = db_target
    clock, rec = Clock(), Recorder()
    store = await Store.open(path, owner="the bot")
    svc = MatchService(store, publisher=rec, clock=clock, offload=False)
    mid, lord, users = await _four_people(svc, store, NANMAN)
    await _play(svc, mid, users[lord], NANMAN)
    (d,) = await repo.get_deadlines(store, mid)
    assert (d.seat, d.auto, d.due_at) == ((lord + 1) % 4, repo.AUTO_CANNOT, clock.now + DEFAULTS.ai_window_delay)
    clock.advance(DEFAULTS.ai_window_delay)
    await svc.run_due()  # the first target passes and is hit
    (d,) = await repo.get_deadlines(store, mid)
    assert d.seat == (lord + 2) % 4
    versions = (await repo.get_match(store, mid)).version

    died = []

    async def dying(*args: object, **kwargs: object) -> None:
        died.append(args)
        raise Crash("the process dies in the middle of the second pass's transaction")

    with monkeypatch.context() as patch:
        patch.setattr(repo, "insert_actions", dying)
        clock.advance(DEFAULTS.ai_window_delay)
        with contextlib.suppress(Crash):
            await svc.run_due()
            await svc.drain()
    assert died, "the second automatic pass was not attempted"
    await store.close()

    store = await Store.open(path, owner="the bot")  # a new process, in the same slot
    svc = MatchService(store, publisher=rec, clock=clock, offload=False)
    try:
        assert (await repo.get_match(store, mid)).version == versions  # nothing half-written
        (d,) = await repo.get_deadlines(store, mid)
        assert (d.seat, d.auto) == ((lord + 2) % 4, repo.AUTO_CANNOT) and d.due_at <= clock.now
        await svc.run_due()  # the dead process's lease on the deadline is this process's own
        clock.advance(DEFAULTS.ai_window_delay)
        await svc.run_due()
        view = await svc.view(mid, None)
        assert [p["hp"] for p in view["players"]] == [p["max"] - (s != lord) for s, p in enumerate(view["players"])]
        passes = [(e.seat, e.source) for e in await svc.log(mid, limit=50) if e.action == ["pass"]]
        assert passes == [((lord + k) % 4, "system") for k in (1, 2, 3)]  # each once
        assert [(r.seat, r.kind) for r in await svc.pending_requests(mid)] == [(lord, "play")]
        assert all(not s.missed for s in await repo.get_seats(store, mid))  # no time-outs counted
    finally:
        await store.close()
