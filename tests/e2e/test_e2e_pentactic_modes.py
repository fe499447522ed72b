"""Pentactic's other modes through the real bot (mode 2 between two people is
``test_e2e_pentactic.py``): the duel's two rounds against the AI, three players on their own
boards (one person, two AI seats, discs aimed at a chosen opponent), and the solo puzzle. Each
game is played to the end by clicking only what the bot offers."""

from __future__ import annotations

import pytest
from e2e_support import RealBots, Table, play_to_end, real_bot_missing

from fakediscord import FakeDiscord
from i18n import t

pytestmark = pytest.mark.skipif(bool(real_bot_missing("pentactic")), reason=str(real_bot_missing("pentactic")))


@pytest.mark.parametrize("mode,board,ais", [("1", "9x7", 1), ("3", "11x6", 2), ("4", "8x8", 0)],
                         ids=["duel-vs-ai", "three-players", "solo"])
async def test_pentactic_mode_plays_to_the_end(fake: FakeDiscord, real_bots: RealBots, table: Table,
                                               mode: str, board: str, ais: int) -> None:
    await real_bots.start()
    host = fake.add_user("host", locale="zh-TW")
    info = await table.start_match(real_bots, host, "pentactic", ais=ais, options={"mode": mode, "board": board})
    match_id = info.id
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


async def test_a_solo_hint_is_shown_in_the_thread(fake: FakeDiscord, real_bots: RealBots, table: Table) -> None:
    """Solo hints are public (docs/rules/pentactic.md): asked by /move, shown in the match thread
    as a line and on the board, so a player with closed DMs gets it too."""
    await real_bots.start()
    host = fake.add_user("solo", locale="en-US")
    host.dms_open = False
    info = await table.start_match(real_bots, host, "pentactic", options={"mode": "4"})
    match_id = info.id
    await table.until(lambda: real_bots.service.pending_for_user(match_id, host.id), 10, "the first request")
    ix = await fake.slash(host, fake.channel(info.thread_id), "move", action="hint")
    await fake.wait_for(lambda: ix.replies(), 10, "the /move answer")

    async def hinted():
        return (await real_bots.service.view(match_id, None)).get("hint")

    hint = await table.until(hinted, 10, "the hint in the public view")
    line = t("en", "pentactic.ev.hint", piece=hint["piece"], orientation=hint["orientation"] + 1,
             cell=hint["anchor"])
    await fake.wait_for(lambda: any(line in m.text() for m in fake.messages_in(info.thread_id)), 10,
                        f"the hint line {line!r} in the thread")
    fake.assert_clean()
