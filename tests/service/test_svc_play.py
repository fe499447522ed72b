"""Playing through the service: turn checks, stale and concurrent clicks, bad input, AI seats,
simultaneous requests, hidden information, resignation and the action log."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path

import pytest
import svc_toy_engine
from svc_helpers import (
    BOB,
    CAROL,
    DAVE,
    HOST,
    Clock,
    Recorder,
    clock,
    db_path,
    new_target,
    play_own_turn,
    recorder,
    service,
    store,
    toy,
    two_humans,
)

from service.errors import UserError
from service.matches import MatchService
from service.settings import ServiceSettings
from store.db import Store

__all__ = ["clock", "db_path", "new_target", "recorder", "service", "store", "toy"]
pytestmark = pytest.mark.usefixtures("toy")
SLUG = svc_toy_engine.SLUG


async def stored_state(service: MatchService, match_id: int) -> dict:
    row = await service.store.fetchone("SELECT state FROM matches WHERE id = ?", (match_id,))
    return json.loads(row["state"])


async def assert_replays(service: MatchService, match_id: int) -> None:
    """The stored state is exactly the seed replayed through the logged actions."""
    row = await service.store.fetchone("SELECT seed, options FROM matches WHERE id = ?", (match_id,))
    info = await service.get(match_id)
    log = await service.log(match_id, limit=100_000)
    actions = [(e.seat, e.action) for e in log if e.action != ["resign"]]
    expected = svc_toy_engine.replay(row["seed"], len(info.seats), json.loads(row["options"]), actions)
    assert await stored_state(service, match_id) == expected


async def test_turns_and_refusals(service: MatchService, recorder: Recorder) -> None:
    info = await two_humans(service)
    mid = info.id
    (rid,) = await service.pending_for_user(mid, HOST)
    assert await service.pending_for_user(mid, BOB) == []
    with pytest.raises(UserError) as e:
        await service.act(mid, BOB, rid, ["add", "1"])
    assert e.value.msg.key == "core.err.not_your_turn"
    with pytest.raises(UserError) as e:
        await service.act(mid, DAVE, rid, ["add", "1"])
    assert e.value.msg.key == "core.err.not_a_player"
    for bad in ([], [1, 2], "add 1", ["x" * 500]):
        with pytest.raises(UserError) as e:
            await service.act(mid, HOST, rid, bad)  # type: ignore[arg-type]
        assert e.value.msg.key == "core.err.illegal"
    with pytest.raises(UserError) as e:
        await service.act(mid, HOST, rid, ["add", "7"])
    assert e.value.msg.key == "toy.err.bad"
    with pytest.raises(UserError) as e:
        await service.act(mid, HOST, rid, ["boom"])
    assert e.value.msg.key == "core.err.unexpected" and e.value.msg.params == {"match": mid}
    assert (await service.get(mid)).version == info.version  # nothing written by the refusals
    assert await service.log(mid) == []

    after = await service.act(mid, HOST, rid, ["add", "2"])
    assert after.version == info.version + 1
    with pytest.raises(UserError) as e:
        await service.act(mid, HOST, rid, ["add", "1"])
    assert e.value.msg.key == "core.err.stale"
    with pytest.raises(UserError) as e:
        await service.step(mid, HOST, rid, [])
    assert e.value.msg.key == "core.err.stale"
    acted = recorder.changes[-1]
    assert (acted.kind, acted.seat, acted.version) == ("acted", 0, after.version)
    assert acted.events[0].msg.key == "toy.ev.add" and acted.events[0].msg.params["count"] == 2
    assert acted.request_ids == await service.pending_for_user(mid, BOB)


async def test_step_walks_the_tokens(service: MatchService) -> None:
    mid = (await two_humans(service)).id
    (rid,) = await service.pending_for_user(mid, HOST)
    first = await service.step(mid, HOST, rid, [])
    assert [o.value for o in first.options] == ["add"] and not first.complete
    second = await service.step(mid, HOST, rid, ["add"])
    assert [o.value for o in second.options] == ["1", "2"]
    assert (await service.step(mid, HOST, rid, ["add", "2"])).complete
    with pytest.raises(UserError) as e:
        await service.step(mid, HOST, rid, ["bid"])
    assert e.value.msg.key == "toy.err.bad"


async def test_simultaneous_clicks_on_one_request(service: MatchService) -> None:
    mid = (await two_humans(service)).id
    (rid,) = await service.pending_for_user(mid, HOST)
    results = await asyncio.gather(*(service.act(mid, HOST, rid, ["add", "1"]) for _ in range(5)),
                                   return_exceptions=True)
    # Applied once; the clicks that found it applied get its answer from the log (not "stale").
    assert all(r == results[0] for r in results) and not isinstance(results[0], BaseException)
    assert len(await service.log(mid)) == 1
    assert (await stored_state(service, mid))["count"] == 1


async def test_simultaneous_secret_phase_and_hidden_views(service: MatchService, recorder: Recorder) -> None:
    mid = (await two_humans(service)).id
    await play_own_turn(service, mid, HOST, "2")
    await play_own_turn(service, mid, BOB, "2")
    await play_own_turn(service, mid, HOST, "2")  # count 6: everybody bids at once
    host_rid = (await service.pending_for_user(mid, HOST))[0]
    bob_rid = (await service.pending_for_user(mid, BOB))[0]
    assert host_rid != bob_rid
    assert sorted(recorder.changes[-1].request_ids) == sorted([host_rid, bob_rid])
    with pytest.raises(UserError) as e:
        await service.act(mid, HOST, bob_rid, ["bid", "1"])
    assert e.value.msg.key == "core.err.not_your_turn"
    await service.act(mid, BOB, bob_rid, ["bid", "2"])
    private = recorder.changes[-1].events[0]
    assert private.to == (1,) and private.msg.params == {"n": 2}
    assert await service.pending_for_user(mid, HOST) == [host_rid]  # still open, same id
    with pytest.raises(UserError) as e:
        await service.act(mid, HOST, bob_rid, ["bid", "1"])
    assert e.value.msg.key == "core.err.stale"  # answered already
    bob_view = await service.view_for_user(mid, BOB)
    host_view = await service.view_for_user(mid, HOST)
    public = await service.view(mid, None)
    assert bob_view["my_bid"] == 2 and "my_bid" not in host_view and "secret" not in public
    assert await service.view_for_user(mid, DAVE) == public
    await service.act(mid, HOST, host_rid, ["bid", "0"])
    assert (await stored_state(service, mid))["scores"] == [0, 2]
    await assert_replays(service, mid)


async def test_ai_seat_answers_and_game_finishes(service: MatchService, recorder: Recorder) -> None:
    info = await service.create_lobby(SLUG, host_id=HOST, host_name="Host", locale="en",
                                      options={"target": "30"})
    await service.add_ai(info.id, HOST)
    await service.start(info.id, HOST)
    mid = info.id
    for _ in range(200):
        info = await service.get(mid)
        if info.status != "active":
            break
        await play_own_turn(service, mid, HOST, "1")
    assert info.status == "finished"
    assert info.result is not None and info.result["reason"] == "game"
    assert set(info.result["scores"]) == {0, 1}
    log = await service.log(mid, limit=1000)
    assert {e.source for e in log} == {"user", "ai"}
    assert all(e.seat == (0 if e.source == "user" else 1) for e in log)
    assert [e.version for e in log] == sorted(e.version for e in log)
    kinds = recorder.kinds(mid)
    assert kinds[-1] == "finished" and kinds.count("finished") == 1
    assert await service.store.fetchall("SELECT * FROM deadlines WHERE match_id = ?", (mid,)) == []
    assert await service.store.fetchall("SELECT * FROM outbox WHERE delivered_at IS NULL") == []
    with pytest.raises(UserError) as e:
        await service.act(mid, HOST, "r1", ["add", "1"])
    assert e.value.msg.key == "core.err.not_active"
    await assert_replays(service, mid)


async def test_human_free_match_plays_out_over_run_due(store: Store, recorder: Recorder, clock: Clock,
                                                       toy: svc_toy_engine.ToyEngine) -> None:
    service = MatchService(store, publisher=recorder, clock=clock, offload=True,
                           settings=ServiceSettings(ai_moves_per_call=4))
    info = await service.create_lobby(SLUG, host_id=HOST, host_name="Host", locale="en",
                                      options={"target": "30"}, seat_host=False)
    for level in ("normal", "greedy", "normal"):
        await service.add_ai(info.id, HOST, level)
    info = await service.start(info.id, HOST)
    assert info.status == "active" and len(await service.log(info.id, 100)) == 4  # capped per call
    for _ in range(100):
        if (await service.get(info.id)).status == "finished":
            break
        assert await service.run_due() > 0
    final = await service.get(info.id)
    assert final.status == "finished" and final.result is not None
    assert {e.source for e in await service.log(info.id, 1000)} == {"ai"}
    await assert_replays(service, info.id)


async def test_ai_moves_are_deterministic_per_match_version(new_target: Callable[[], Path | str],
                                                            toy: svc_toy_engine.ToyEngine) -> None:
    finals = []
    for _run in range(2):
        target = new_target()
        store = await Store.open(target)
        service = MatchService(store, offload=False)
        info = await service.create_lobby(SLUG, host_id=HOST, host_name="H", locale="en", seat_host=False)
        await service.add_ai(info.id, HOST)
        await service.add_ai(info.id, HOST)
        await store.close()
        # Same seed in both runs, so only the AI's choices could differ.
        store = await Store.open(target)
        service = MatchService(store, offload=False)
        async with store.transaction() as tx:
            state = toy.new_state({"target": "30"}, 2, 42)
            await tx.execute("UPDATE matches SET status='active', seed=42, state=?, version=1 WHERE id=?",
                             (json.dumps(state), info.id))
            await tx.execute("INSERT INTO deadlines (match_id, request_id, seat, due_at, remind_at, reminded)"
                             " VALUES (?, 'r0', 0, 0, NULL, 0)", (info.id,))
        while (await service.get(info.id)).status == "active":
            await service.run_due()
        finals.append([e.action for e in await service.log(info.id, 1000)])
        await store.close()
    assert finals[0] == finals[1] and len(finals[0]) > 5


async def test_resign_two_players_other_wins(service: MatchService, recorder: Recorder) -> None:
    mid = (await two_humans(service)).id
    info = await service.resign(mid, BOB)
    assert info.status == "finished" and info.result["winners"] == [0] and info.result["reason"] == "resigned"
    assert recorder.kinds(mid)[-2:] == ["resigned", "finished"]
    assert recorder.changes[-2].note.key == "core.note.resigned"
    assert [s.resigned for s in info.seats] == [False, True]
    assert (await service.log(mid))[-1].action == ["resign"]


async def test_resign_in_three_player_game_ai_takes_over(service: MatchService) -> None:
    info = await service.create_lobby(SLUG, host_id=HOST, host_name="Host", locale="en",
                                      options={"target": "30"})
    await service.join(info.id, BOB, "Bob")
    await service.join(info.id, CAROL, "Carol")
    mid = (await service.start(info.id, HOST)).id
    info = await service.resign(mid, HOST)  # seat 0 was to move: the AI answers for it at once
    assert info.status == "active"
    log = await service.log(mid)
    assert [(e.source, e.seat) for e in log[-2:]] == [("system", 0), ("ai", 0)]
    assert await service.pending_for_user(mid, HOST) == []
    with pytest.raises(UserError) as e:
        await service.resign(mid, HOST)
    assert e.value.msg.key == "core.err.resigned"
    await play_own_turn(service, mid, BOB)
    info = await service.resign(mid, CAROL)
    assert info.status == "finished" and info.result["winners"] == [1]
    await assert_replays(service, mid)


async def test_last_human_resigning_ends_an_ai_game(service: MatchService) -> None:
    info = await service.create_lobby(SLUG, host_id=HOST, host_name="Host", locale="en")
    await service.add_ai(info.id, HOST)
    await service.add_ai(info.id, HOST)
    mid = (await service.start(info.id, HOST)).id
    info = await service.resign(mid, HOST)
    assert info.status == "finished" and info.result["winners"] == [1, 2]


async def test_log_is_bounded_and_ordered(service: MatchService) -> None:
    mid = (await two_humans(service, target="30")).id
    for _ in range(4):
        await play_own_turn(service, mid, HOST)
        await play_own_turn(service, mid, BOB)
    log = await service.log(mid, limit=3)
    assert len(log) == 3 and [e.version for e in log] == sorted(e.version for e in log)
    assert log[-1].version == (await service.get(mid)).version
    assert all(e.source == "user" and e.events for e in log)


async def test_ai_can_answer_in_the_background(store: Store, recorder: Recorder, clock: Clock) -> None:
    service = MatchService(store, publisher=recorder, clock=clock, offload=True, ai_in_background=True)
    info = await service.create_lobby(SLUG, host_id=HOST, host_name="Host", locale="en",
                                      options={"target": "30"})
    await service.add_ai(info.id, HOST)
    mid = (await service.start(info.id, HOST)).id
    await service.drain()
    gate = asyncio.Event()
    real_drive = service._drive_ai

    async def gated(match_id: int, budget: int | None = None) -> int:
        await gate.wait()
        return await real_drive(match_id, budget)

    service._drive_ai = gated  # type: ignore[method-assign]
    (rid,) = await service.pending_for_user(mid, HOST)
    after = await asyncio.wait_for(service.act(mid, HOST, rid, ["add", "1"]), 5)  # AI still gated
    assert (await service.log(mid))[-1].source == "user"
    gate.set()
    await service.drain()
    log = await service.log(mid)
    assert log[-1].source == "ai" and log[-1].version > after.version
    assert await service.pending_for_user(mid, HOST)


async def test_export_replays_to_the_stored_state(service: MatchService) -> None:
    from service.replay import replay

    info = await service.create_lobby(SLUG, host_id=HOST, host_name="Host", locale="en",
                                      options={"target": "30"})
    await service.join(info.id, BOB, "Bob")
    await service.join(info.id, CAROL, "Carol")
    mid = (await service.start(info.id, HOST)).id
    for user in (HOST, BOB, CAROL, HOST):
        if await service.pending_for_user(mid, user):
            await play_own_turn(service, mid, user, "2")
    await service.resign(mid, CAROL)
    export = json.loads(json.dumps(await service.export(mid, include_state=True)))  # survives JSON
    assert [a["seat"] for a in export["actions"] if a["action"] == ["resign"]] == [2]
    assert export["seats"][2]["resigned"] and export["status"] == "active"
    assert replay(export) == export["state"] == await stored_state(service, mid)
    lobby = await service.create_lobby(SLUG, host_id=DAVE, host_name="D", locale="en")
    with pytest.raises(UserError):
        await service.export(lobby.id)
