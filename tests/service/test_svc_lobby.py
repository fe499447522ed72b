"""Lobby life cycle: seats, options, permissions, rate limits, start, abandon."""

from __future__ import annotations

import asyncio

import pytest
import svc_toy_engine
from svc_helpers import BOB, CAROL, DAVE, HOST, Clock, Recorder, clock, db_path, recorder, service, store, toy

from service.errors import UserError
from service.matches import MatchService

__all__ = ["clock", "db_path", "recorder", "service", "store", "toy"]
pytestmark = pytest.mark.usefixtures("toy")
SLUG = svc_toy_engine.SLUG


async def lobby(service: MatchService, channel: int = 9, host: int = HOST) -> int:
    info = await service.create_lobby(SLUG, host_id=host, host_name="Host", locale="en", channel_id=channel)
    return info.id


def err(exc: pytest.ExceptionInfo[UserError]) -> str:
    return exc.value.msg.key


async def test_create_join_leave_keep_join_order(service: MatchService, recorder: Recorder) -> None:
    mid = await lobby(service)
    info = await service.get(mid)
    assert info.status == "lobby" and info.options == {"target": "15"}
    assert [(s.seat, s.user_id) for s in info.seats] == [(0, HOST)]
    await service.join(mid, BOB, "Bob")
    await service.join(mid, CAROL, "Carol")
    with pytest.raises(UserError) as e:
        await service.join(mid, BOB, "Bob")
    assert err(e) == "core.err.already_joined"
    info = await service.leave(mid, BOB)
    assert [(s.seat, s.user_id) for s in info.seats] == [(0, HOST), (1, CAROL)]
    with pytest.raises(UserError) as e:
        await service.leave(mid, BOB)
    assert err(e) == "core.err.not_a_player"
    assert recorder.kinds(mid) == ["lobby"] * 4
    assert [c.version for c in recorder.changes] == [0, 1, 2, 3]


async def test_full_lobby_and_ai_seats(service: MatchService) -> None:
    mid = await lobby(service)
    with pytest.raises(UserError) as e:
        await service.add_ai(mid, BOB)
    assert err(e) == "core.err.not_host"
    with pytest.raises(UserError) as e:
        await service.add_ai(mid, HOST, "godlike")
    assert err(e) == "core.err.bad_ai_level"
    await service.add_ai(mid, HOST)
    info = await service.add_ai(mid, HOST, "greedy")
    assert [(s.is_ai, s.ai_level, s.name) for s in info.seats[1:]] == [(True, "normal", "AI 1"),
                                                                        (True, "greedy", "AI 2")]
    await service.join(mid, BOB, "Bob")
    with pytest.raises(UserError) as e:
        await service.join(mid, CAROL, "Carol")
    assert err(e) == "core.err.lobby_full"
    info = await service.remove_ai(mid, HOST)
    assert [(s.seat, s.user_id, s.ai_level) for s in info.seats] == [(0, HOST, None), (1, None, "normal"),
                                                                     (2, BOB, None)]
    await service.remove_ai(mid, HOST)
    with pytest.raises(UserError) as e:
        await service.remove_ai(mid, HOST)
    assert err(e) == "core.err.no_ai"


async def test_options_and_turn_time(service: MatchService) -> None:
    mid = await lobby(service)
    assert (await service.set_option(mid, HOST, "target", "30")).options == {"target": "30"}
    for name, value, who, key in [("target", "31", HOST, "core.err.bad_option"),
                                  ("colour", "red", HOST, "core.err.bad_option"),
                                  ("target", "10", BOB, "core.err.not_host")]:
        with pytest.raises(UserError) as e:
            await service.set_option(mid, who, name, value)
        assert err(e) == key
    assert (await service.set_turn_seconds(mid, HOST, 600)).turn_seconds == 600
    with pytest.raises(UserError) as e:
        await service.set_turn_seconds(mid, HOST, 5)
    assert err(e) == "core.err.bad_turn_seconds"
    with pytest.raises(UserError):
        await service.create_lobby(SLUG, host_id=DAVE, host_name="D", locale="en", options={"target": "7"})
    with pytest.raises(UserError) as e:
        await service.create_lobby("no-such-game", host_id=DAVE, host_name="D", locale="en")
    assert err(e) == "core.err.unknown_game"


async def test_start_rules(service: MatchService, recorder: Recorder) -> None:
    mid = await lobby(service)
    with pytest.raises(UserError) as e:
        await service.start(mid, HOST)
    assert err(e) == "core.err.seat_count"
    await service.join(mid, BOB, "Bob")
    with pytest.raises(UserError) as e:
        await service.start(mid, BOB)
    assert err(e) == "core.err.not_host"
    info = await service.start(mid, HOST)
    assert info.status == "active"
    started = recorder.changes[-1]
    assert started.kind == "started" and started.request_ids == await service.pending_for_user(mid, HOST)
    with pytest.raises(UserError) as e:
        await service.join(mid, CAROL, "Carol")
    assert err(e) == "core.err.already_started"
    with pytest.raises(UserError) as e:
        await service.start(mid, HOST)
    assert err(e) == "core.err.already_started"
    seeds = {(await service.store.fetchone("SELECT seed FROM matches WHERE id = ?", (mid,)))["seed"]}
    mid2 = await lobby(service)
    await service.join(mid2, BOB, "Bob")
    await service.start(mid2, HOST)
    seeds.add((await service.store.fetchone("SELECT seed FROM matches WHERE id = ?", (mid2,)))["seed"])
    assert len(seeds) == 2 and all(0 <= s < 2**63 for s in seeds)


async def test_rate_limits(service: MatchService, clock: Clock) -> None:
    for _ in range(3):
        await lobby(service, channel=1)
    with pytest.raises(UserError) as e:
        await lobby(service, channel=2)
    assert err(e) == "core.err.rate_user"
    clock.advance(601)
    await lobby(service, channel=1)
    await lobby(service, channel=1, host=BOB)
    with pytest.raises(UserError) as e:
        await lobby(service, channel=1, host=CAROL)
    assert err(e) == "core.err.rate_channel"
    await lobby(service, channel=2, host=CAROL)  # another channel is fine


async def test_host_leaving_closes_lobby_and_abandon(service: MatchService, recorder: Recorder) -> None:
    mid = await lobby(service)
    await service.join(mid, BOB, "Bob")
    assert (await service.leave(mid, HOST)).status == "abandoned"
    with pytest.raises(UserError):
        await service.join(mid, CAROL, "Carol")

    mid = await lobby(service)
    await service.join(mid, BOB, "Bob")
    await service.start(mid, HOST)
    with pytest.raises(UserError) as e:
        await service.abandon(mid, BOB)
    assert err(e) == "core.err.not_host"
    info = await service.abandon(mid, BOB, is_manager=True)
    assert info.status == "abandoned" and recorder.kinds(mid)[-1] == "abandoned"
    assert await service.store.fetchall("SELECT * FROM deadlines WHERE match_id = ?", (mid,)) == []
    with pytest.raises(UserError) as e:
        await service.abandon(mid, HOST)
    assert err(e) == "core.err.not_active"


async def test_listings_and_location(service: MatchService) -> None:
    a = await lobby(service, channel=5)
    b = await lobby(service, channel=6)
    await service.join(b, BOB, "Bob")
    await service.set_location(b, thread_id=77, lobby_message_id=88)
    assert [m.id for m in await service.matches_in_channel(5)] == [a]
    assert [m.id for m in await service.matches_in_channel(77)] == [b]
    assert (await service.get(b)).where == 77
    assert [m.id for m in await service.matches_for_user(BOB)] == [b]
    await service.leave(b, HOST)
    assert await service.matches_for_user(BOB) == []
    assert [m.id for m in await service.matches_for_user(BOB, active_only=False)] == [b]


async def test_notify_and_locale_prefs(service: MatchService) -> None:
    assert await service.get_notify(BOB) == "mention"
    await service.set_notify(BOB, "dm")
    assert await service.get_notify(BOB) == "dm"
    with pytest.raises(UserError):
        await service.set_notify(BOB, "carrier-pigeon")  # type: ignore[arg-type]
    await service.set_user_locale(BOB, "zh-TW")
    assert await service.get_user_locale(BOB) == "zh-TW"
    assert await service.get_notify(BOB) == "dm"


async def test_rate_limit_holds_under_concurrent_clicks(service: MatchService) -> None:
    results = await asyncio.gather(*(lobby(service, channel=i) for i in range(6)), return_exceptions=True)
    assert sum(isinstance(r, int) for r in results) == 3
    assert all(r.msg.key == "core.err.rate_user" for r in results if isinstance(r, UserError))


async def test_front_end_bookkeeping_survives_and_cascades(service: MatchService) -> None:
    mid = await lobby(service)
    assert await service.get_meta(mid, "status_post") is None
    await service.set_meta(mid, "status_post", "123")
    await service.set_meta(mid, "status_post", "456")
    assert await service.get_meta(mid, "status_post") == "456"
    await service.set_meta(mid, "status_post", None)
    assert await service.get_meta(mid, "status_post") is None
    with pytest.raises(ValueError):
        await service.set_meta(mid, "k", "x" * 5000)
    await service.set_meta(mid, "other", "1")
    async with service.store.transaction() as tx:
        await tx.execute("DELETE FROM matches WHERE id = ?", (mid,))
    assert await service.store.fetchall("SELECT * FROM match_meta") == []
