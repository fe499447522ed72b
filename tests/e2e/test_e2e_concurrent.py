"""Two Pentactic matches in the same channel at once, clicks interleaved: each gets its own
thread, no click lands in the wrong match, and Discord's limits hold throughout."""

from __future__ import annotations

import asyncio

import pytest
from e2e_support import RealBots, Table, play_to_end, real_bot_missing

from fakediscord import FakeDiscord

pytestmark = pytest.mark.skipif(bool(real_bot_missing("pentactic")), reason=str(real_bot_missing("pentactic")))


async def test_two_matches_in_one_channel_concurrently(fake: FakeDiscord, real_bots: RealBots) -> None:
    await real_bots.start()
    table = Table(fake)
    tables = []
    for names in (("ann", "ben"), ("cat", "dan")):
        host, guest = (fake.add_user(n, locale=loc) for n, loc in zip(names, ("en-US", "zh-CN"), strict=True))
        match_id, lobby = await table.open_lobby(host, "pentactic")
        await table.lobby_click(guest, lobby, match_id, "join")
        tables.append((match_id, lobby, [host, guest]))
    for match_id, lobby, (host, _guest) in tables:
        await table.lobby_click(host, lobby, match_id, "start")

    async def started(match_id: int):
        info = await real_bots.service.get(match_id)
        return info if info.status == "active" else None

    infos = [await table.until(lambda m=m: started(m), 10, "start") for m, _, _ in tables]
    assert len({i.thread_id for i in infos}) == 2 and len(fake.threads()) == 2
    moves = await asyncio.gather(*(play_to_end(fake, real_bots, table, info.id, info.thread_id, players)
                                   for info, (_, _, players) in zip(infos, tables, strict=True)))
    for info, (_, _, players) in zip(infos, tables, strict=True):
        final = await real_bots.service.get(info.id)
        assert final.status == "finished"
        assert {s.user_id for s in final.seats} == {p.id for p in players}
        # every turn post of a match lives in that match's thread only
        assert all(c.split(":")[2] == str(info.id) for m in fake.messages_in(info.thread_id)
                   for c in m.custom_ids() if c.startswith("g:t:"))
    assert all(m > 0 for m in moves)
    fake.assert_clean()
