"""Lobby expiry, discarding a lobby whose message failed, next_due_at and the due listener."""

from __future__ import annotations

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
    play_own_turn,
    recorder,
    service,
    store,
    toy,
    two_humans,
)

from service.errors import UserError
from service.lobby import LOBBY_EXPIRED, OPEN_LOBBIES_PER_CHANNEL
from service.matches import MatchService
from service.settings import DEFAULTS, ServiceSettings
from store.db import Store

__all__ = ["clock", "db_path", "recorder", "service", "store", "toy"]
pytestmark = pytest.mark.usefixtures("toy")


async def _lobby(service: MatchService, host: int = HOST, channel: int = 9) -> int:
    info = await service.create_lobby(svc_toy_engine.SLUG, host_id=host, host_name=f"u{host}", locale="en",
                                      channel_id=channel)
    return info.id


async def test_idle_lobby_expires_after_the_ttl_counted_from_its_last_change(
        service: MatchService, clock: Clock, recorder: Recorder) -> None:
    assert DEFAULTS.lobby_ttl == 24 * 3600
    mid = await _lobby(service)
    clock.advance(DEFAULTS.lobby_ttl - 10)
    await service.join(mid, BOB, "Bob")  # activity: the clock starts again
    clock.advance(20)
    await service.run_due()
    assert (await service.get(mid)).status == "lobby"
    clock.advance(DEFAULTS.lobby_ttl - 21)
    await service.run_due()
    assert (await service.get(mid)).status == "lobby"
    clock.advance(1)  # exactly the TTL since the join
    assert await service.run_due() == 1
    info = await service.get(mid)
    assert info.status == "abandoned"
    last = recorder.changes[-1]
    assert (last.kind, last.match_id, last.version) == ("abandoned", mid, info.version)
    assert last.note is not None and last.note.key == LOBBY_EXPIRED == "core.note.lobby_expired"
    assert last.note.params == {"hours": 24}
    assert await service.run_due() == 0  # closed once


async def test_running_matches_do_not_expire(service: MatchService, clock: Clock) -> None:
    mid = (await two_humans(service, turn_seconds=30 * 86400)).id
    clock.advance(3 * DEFAULTS.lobby_ttl)
    await service.run_due()
    assert (await service.get(mid)).status == "active"


async def test_expired_lobbies_free_the_channel_quota(service: MatchService, clock: Clock) -> None:
    hosts = [HOST, BOB, CAROL, DAVE, 505][:OPEN_LOBBIES_PER_CHANNEL]
    for host in hosts:
        await _lobby(service, host)
    with pytest.raises(UserError) as err:
        await _lobby(service, 606)
    assert err.value.msg.key == "core.err.rate_channel"
    clock.advance(DEFAULTS.lobby_ttl)
    assert await service.run_due() == OPEN_LOBBIES_PER_CHANNEL
    assert (await service.get(await _lobby(service, 606))).status == "lobby"


async def test_configurable_ttl(store: Store, clock: Clock, recorder: Recorder) -> None:
    service = MatchService(store, publisher=recorder, clock=clock, offload=False,
                           settings=ServiceSettings(lobby_ttl=600))
    mid = await _lobby(service)
    clock.advance(599)
    await service.run_due()
    assert (await service.get(mid)).status == "lobby"
    clock.advance(1)
    await service.run_due()
    assert (await service.get(mid)).status == "abandoned"
    assert recorder.changes[-1].note.params == {"hours": 1}


async def test_discard_lobby_without_message_publishes_nothing(service: MatchService,
                                                               recorder: Recorder) -> None:
    mid = await _lobby(service)
    before = len(recorder.changes)
    info = await service.discard_lobby(mid)
    assert info.status == "abandoned"
    assert recorder.changes[before:] == []
    assert (await service.discard_lobby(mid)).version == info.version  # idempotent
    assert await service.matches_in_channel(9) == []


async def test_discard_lobby_with_message_is_an_ordinary_abandon(service: MatchService,
                                                                 recorder: Recorder) -> None:
    mid = await _lobby(service)
    await service.set_location(mid, lobby_message_id=77)
    info = await service.discard_lobby(mid)
    assert info.status == "abandoned" and recorder.kinds(mid)[-1] == "abandoned"
    started = (await two_humans(service)).id
    with pytest.raises(UserError) as err:
        await service.discard_lobby(started)
    assert err.value.msg.key == "core.err.already_started"


async def test_next_due_at(service: MatchService, clock: Clock) -> None:
    assert await service.next_due_at() is None
    t0 = clock.now
    mid = await _lobby(service)
    assert await service.next_due_at() == t0 + DEFAULTS.lobby_ttl
    clock.advance(100)
    game = (await two_humans(service, turn_seconds=3600)).id  # reminder at 3/4 of the turn
    assert await service.next_due_at() == clock.now + 2700
    await service.abandon(mid, HOST)
    clock.advance(2700)
    assert await service.run_due() == 1  # the reminder
    assert await service.next_due_at() == clock.now + 900  # then the deadline
    await service.abandon(game, HOST)
    assert await service.next_due_at() is None


async def test_next_due_at_ignores_requests_the_ai_answers(store: Store, clock: Clock) -> None:
    lazy = MatchService(store, clock=clock, offload=False,
                        settings=ServiceSettings(ai_moves_per_call=0))  # the AI never moves
    info = await lazy.create_lobby(svc_toy_engine.SLUG, host_id=HOST, host_name="Host", locale="en",
                                   turn_seconds=60)
    await lazy.join(info.id, BOB, "Bob")
    await lazy.add_ai(info.id, HOST)
    mid = (await lazy.start(info.id, HOST)).id
    for user in (HOST, BOB):
        clock.advance(5)
        await play_own_turn(lazy, mid, user, "2")
    (ai_req,) = await lazy.pending_requests(mid, humans_only=False)
    assert ai_req.seat == 2
    assert await lazy.next_due_at() is None  # only the AI's request (due at once) is pending


async def test_due_listener_hears_new_human_deadlines_and_lobbies(service: MatchService, clock: Clock) -> None:
    heard: list[float] = []
    service.set_due_listener(heard.append)
    mid = await _lobby(service)
    assert heard == [clock.now + DEFAULTS.lobby_ttl]
    await service.join(mid, BOB, "Bob")
    await service.set_turn_seconds(mid, HOST, 60)
    heard.clear()
    clock.advance(10)
    await service.start(mid, HOST)
    assert heard == [clock.now + 45]  # a one-minute turn: its reminder, 15 s before the deadline
    clock.advance(10)
    await play_own_turn(service, mid, HOST)
    assert heard == [clock.now - 10 + 45, clock.now + 45]


async def test_a_failing_listener_does_not_undo_the_commit(service: MatchService) -> None:
    def broken(at: float) -> None:
        raise RuntimeError("listener down")

    service.set_due_listener(broken)
    mid = (await two_humans(service)).id
    assert (await service.get(mid)).status == "active"
