"""A new match takes what the seed says from the previous one in the channel (国战: the first to
die in the previous 国战 starts), stored with its options so replays deal the same game."""

from __future__ import annotations

import pytest
from svc_helpers import BOB, CAROL, HOST, clock, db_path, recorder, service, store, toy

from service.matches import MatchService
from store import repo

__all__ = ["clock", "db_path", "recorder", "service", "store", "toy"]


async def _hegemony(service: MatchService, channel: int, players: list[tuple[int, str]]) -> int:
    info = await service.create_lobby("sanguosha", host_id=players[0][0], host_name=players[0][1],
                                      locale="en", channel_id=channel)
    await service.set_option(info.id, players[0][0], "mode", "hegemony")
    for uid, name in players[1:]:
        await service.join(info.id, uid, name)
    return info.id


async def _finish_with_first_death(service: MatchService, match_id: int, seat: int) -> None:
    m = await repo.load_match(service.store, match_id)
    state = dict(m.rec.state)
    state["dead_order"] = [seat]
    async with service.store.transaction() as tx:
        await repo.update_match(tx, match_id, status="finished", state=state, finished_at=1.0)


@pytest.mark.parametrize("died", [0, 2])
async def test_the_first_to_die_in_the_previous_hegemony_match_starts(service: MatchService, died: int) -> None:
    first = await _hegemony(service, 7, [(HOST, "Host"), (BOB, "Bob"), (CAROL, "Carol")])
    await service.start(first, HOST)
    await _finish_with_first_death(service, first, died)  # seat 0 Host, seat 2 Carol
    # the same people in another order: the one who died first starts, by their new seat
    second = await _hegemony(service, 7, [(CAROL, "Carol"), (HOST, "Host"), (BOB, "Bob")])
    info = await service.start(second, CAROL)
    want = {0: 1, 2: 0}[died]
    assert info.options["first"] == str(want)
    m = await repo.load_match(service.store, second)
    assert m.rec.state["hg"]["start"] == want
    assert m.rec.options["first"] == str(want)


async def test_a_new_channel_or_an_absent_player_starts_at_random(service: MatchService) -> None:
    first = await _hegemony(service, 7, [(HOST, "Host"), (BOB, "Bob"), (CAROL, "Carol")])
    await service.start(first, HOST)
    await _finish_with_first_death(service, first, 1)  # Bob died first
    other = await _hegemony(service, 8, [(HOST, "Host"), (BOB, "Bob"), (CAROL, "Carol")])
    assert "first" not in (await service.start(other, HOST)).options
    without_bob = await _hegemony(service, 7, [(HOST, "Host"), (CAROL, "Carol"), (4242, "Dan")])
    assert "first" not in (await service.start(without_bob, HOST)).options
