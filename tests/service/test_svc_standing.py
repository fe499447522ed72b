"""Standing answers (issue 19): a player's private settings answer their windows at the uniform
delay, as ordinary log rows (source "auto") that replay; "ask me every time" gives the window
back to the player for the match's reaction time; the settings are never published."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from svc_helpers import BOB, HOST, Clock, Recorder, db_target

from engines import registry
from engines.sanguosha.data import card
from service.errors import UserError
from service.matches import MatchService
from service.settings import DEFAULTS
from store import repo
from store.db import Store

__all__ = ["db_target"]
DELAY = DEFAULTS.ai_window_delay
REACT = 7200  # a one-day turn's "auto" reaction time


@pytest.fixture
async def store(db_target: Path | str) -> AsyncIterator[Store]:
    s = await Store.open(db_target)
    yield s
    await s.close()


def _give(state: dict[str, Any], seat: int, name: str) -> str:
    """Swap a deck card called ``name`` into ``seat``'s hand (every card stays in one place)."""
    hand = state["players"][seat]["hand"]
    if any(card(c).name == name for c in hand):
        return next(c for c in hand if card(c).name == name)
    cid = next(c for c in state["deck"] if card(c).name == name)
    # A card that matters to none of these tests goes back; a random deal may leave a hand of
    # basics only (seen once in a full run), and then any card but this name and 无懈 does.
    i = next((i for i, c in enumerate(hand) if card(c).name not in ("sha", "shan", "wuxie", "tao")),
             None)
    if i is None:
        i = next(i for i, c in enumerate(hand) if card(c).name not in (name, "wuxie"))
    state["deck"][state["deck"].index(cid)], hand[i] = hand[i], cid
    return cid


def _drop(state: dict[str, Any], seat: int, name: str) -> None:
    hand = state["players"][seat]["hand"]
    for i, c in enumerate(hand):
        if card(c).name == name:
            spare = next(d for d in state["deck"] if card(d).name not in ("sha", "shan", "wuxie", "tao", "bagua"))
            state["deck"][state["deck"].index(spare)], hand[i] = c, spare


async def _sha_table(store: Store, mid: int) -> tuple[int, int, str, str]:
    """The stored deal changed so the lord holds a 杀 and the other seat exactly one 闪 and no
    无懈: (lord, other, the 杀's id, the 闪's id)."""
    state = (await repo.get_match(store, mid)).state
    lord = state["lord"]
    other = 1 - lord
    sha = _give(state, lord, "sha")
    for name in ("shan", "wuxie"):
        _drop(state, other, name)
    shan = _give(state, other, "shan")
    async with store.transaction() as tx:
        await repo.update_match(tx, mid, state=state)
    return lord, other, sha, shan


async def _sha_at_bob(svc: MatchService, store: Store) -> tuple[int, int, int, str]:
    """A one-day 2-person game; the lord plays a 杀 at the other seat, who holds one 闪.
    Returns (match, lord, other, the 闪's id) with the other seat's 闪 window open."""
    info = await svc.create_lobby("sanguosha", host_id=HOST, host_name="Host", locale="en", turn_seconds=86400,
                                  options={"heroes": "beginner"})
    await svc.join(info.id, BOB, "Bob")
    mid = (await svc.start(info.id, HOST)).id
    lord, other, sha, shan = await _sha_table(store, mid)
    users = {s.seat: s.user_id for s in await repo.get_seats(store, mid)}
    (rid,) = await svc.pending_for_user(mid, users[lord])
    await svc.act(mid, users[lord], rid, [sha, str(other)])
    return mid, lord, other, shan


async def test_a_default_standing_shan_answers_at_the_uniform_delay_as_auto(store: Store) -> None:
    clock, rec = Clock(), Recorder()
    svc = MatchService(store, publisher=rec, clock=clock, offload=False)
    mid, _, other, shan = await _sha_at_bob(svc, store)
    (d,) = [d for d in await repo.get_deadlines(store, mid) if d.seat == other]
    assert d.auto == repo.AUTO_STANDING and d.due_at == clock.now + DELAY  # not the 2 h reaction time
    clock.advance(DELAY)
    await svc.run_due()
    entry = next(e for e in reversed(await svc.log(mid, 50)) if e.seat == other)
    # "auto": the player's own answer given ahead (migration 0011 lets the log say so)
    assert (entry.action, entry.source) == ([shan], "auto")
    export = await svc.export(mid, include_state=True)  # (no replay: the test edited the deal)
    # private: neither the export nor any published change carries the setting
    assert "standing" not in json.dumps(export) and "shan_yes" not in json.dumps(export)
    for change in rec.changes:
        assert "standing" not in json.dumps([e.to_json() for e in change.events])


async def test_ask_me_every_time_gives_the_player_the_reaction_time(store: Store) -> None:
    clock = Clock()
    svc = MatchService(store, clock=clock, offload=False)
    info = await svc.create_lobby("sanguosha", host_id=HOST, host_name="Host", locale="en", turn_seconds=86400,
                                  options={"heroes": "beginner"})
    await svc.join(info.id, BOB, "Bob")
    mid = (await svc.start(info.id, HOST)).id
    for user in (HOST, BOB):
        got = await svc.standing_answers(mid, user)
        assert got.defaults and got.values["shan"] == "yes" and got.values["tao"] == "yes"
        got = await svc.set_standing_preset(mid, user, "ask")
        assert not got.defaults and set(got.values.values()) == {"ask"}
    with pytest.raises(UserError):
        await svc.set_standing(mid, HOST, "shan", "maybe")
    # the same table as above, now asked
    lord, other, sha, _shan = await _sha_table(store, mid)
    users = {s.seat: s.user_id for s in await repo.get_seats(store, mid)}
    (rid,) = await svc.pending_for_user(mid, users[lord])
    await svc.act(mid, users[lord], rid, [sha, str(other)])
    (d,) = [d for d in await repo.get_deadlines(store, mid) if d.seat == other]
    assert d.auto == repo.AUTO_NONE and d.due_at == clock.now + REACT
    # changed back while the window is open: it still waits for the player (set at the opening)
    await svc.set_standing_preset(mid, users[other], "defaults")
    assert (await svc.standing_answers(mid, users[other])).defaults


async def test_a_setting_changed_after_the_window_opened_asks_the_player(store: Store) -> None:
    clock = Clock()
    svc = MatchService(store, clock=clock, offload=False)
    mid, _, other, _ = await _sha_at_bob(svc, store)
    users = {s.seat: s.user_id for s in await repo.get_seats(store, mid)}
    opened = clock.now
    await svc.set_standing(mid, users[other], "shan", "ask")
    clock.advance(DELAY)
    await svc.run_due()
    (d,) = [d for d in await repo.get_deadlines(store, mid) if d.seat == other]
    assert d.auto == repo.AUTO_NONE and d.due_at == opened + REACT


def test_standing_answers_read_only_the_seats_own_view() -> None:
    """Scrambling what the seat cannot see (others' hands, the deck) changes no answer."""
    import random

    engine = registry.get("sanguosha")
    rng = random.Random(7)
    checked = 0
    for seed in range(6):
        state = engine.new_state({"heroes": "standard"}, 5, seed)
        for _ in range(400):
            reqs = engine.pending(state)
            if not reqs or engine.result(state) is not None:
                break
            for req in reqs:
                if req.default is None:
                    continue
                settings = {"shan": "yes", "tao": "yes", "sha": "yes", "wuxie": "mine", "others": "pass"}
                got = engine.standing_answer(engine.view(state, req.seat), req, settings)
                other = json.loads(json.dumps(state))
                for i, p in enumerate(other["players"]):
                    if i != req.seat:
                        pool = p["hand"] + other["deck"]
                        rng.shuffle(pool)
                        p["hand"], other["deck"] = pool[:len(p["hand"])], pool[len(p["hand"]):]
                assert engine.standing_answer(engine.view(other, req.seat), req, settings) == got
                if got is not None:
                    engine.apply(state, req.seat, got, request=req)  # always a legal answer
                    checked += 1
            req = reqs[0]
            state, _ = engine.apply(state, req.seat, engine.ai_action(state, req.seat, rng), request=req)
    assert checked > 20


async def test_a_failing_standing_answer_asks_the_player_and_never_blocks_the_move(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """Review of issue 19: the standing answer is worked out inside every commit that opens a
    window; a bug there must not roll the move back — the player is simply asked."""
    from service import standing

    def broken(*args: object, **kw: object) -> object:
        raise KeyError("a bug")

    monkeypatch.setattr(standing, "answer", broken)
    clock = Clock()
    svc = MatchService(store, clock=clock, offload=False)
    mid, _lord, other, _shan = await _sha_at_bob(svc, store)  # the 杀 was played: the move stood
    (d,) = [d for d in await repo.get_deadlines(store, mid) if d.seat == other]
    assert d.auto == repo.AUTO_NONE and d.due_at == clock.now + REACT  # asked, with the reaction time
