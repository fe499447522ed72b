"""Pentactic's other modes through the real bot (mode 2 between two people is
``test_e2e_pentactic.py``): the duel's two rounds against the AI, three players on their own
boards (one person, two AI seats, discs aimed at a chosen opponent), and the solo puzzle. Each
game is played to the end by clicking only what the bot offers."""

from __future__ import annotations

import pytest
from e2e_support import RealBots, Table, play_to_end, real_bot_missing

from fakediscord import FakeDiscord

pytestmark = pytest.mark.skipif(bool(real_bot_missing("pentactic")), reason=str(real_bot_missing("pentactic")))


@pytest.mark.parametrize("mode,board,ais", [("1", "9x7", 1), ("3", "11x6", 2), ("4", "8x8", 0)],
                         ids=["duel-vs-ai", "three-players", "solo"])
async def test_pentactic_mode_plays_to_the_end(fake: FakeDiscord, real_bots: RealBots, table: Table,
                                               mode: str, board: str, ais: int) -> None:
    await real_bots.start()
    host = fake.add_user("host", locale="zh-TW")
    match_id, lobby = await table.open_lobby(host, "pentactic")
    await table.lobby_option(host, lobby, match_id, "mode", mode)
    await table.lobby_option(host, lobby, match_id, "board", board)
    for _ in range(ais):
        await table.lobby_click(host, lobby, match_id, "ai")
    await table.lobby_click(host, lobby, match_id, "start")

    async def active():
        info = await real_bots.service.get(match_id)
        return info if info.status == "active" and info.thread_id else None

    info = await table.until(active, 10, "the match to start")
    assert info.options["mode"] == mode and info.options["board"] == board
    assert len(info.seats) == 1 + ais
    moves = await play_to_end(fake, real_bots, table, match_id, info.thread_id, [host])
    final = await real_bots.service.get(match_id)
    assert final.status == "finished" and moves > 0
    if mode == "1":  # two rounds with swapped roles: the person both placed pieces and discs
        verbs = {tuple(e.action[:1]) for e in await real_bots.service.log(match_id, limit=10_000)
                 if e.seat == 0 and e.source == "user"}
        assert ("place",) in verbs and ("disc",) in verbs, verbs
    fake.assert_clean()
