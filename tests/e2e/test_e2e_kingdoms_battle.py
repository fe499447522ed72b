"""鬪三國 end to end: one person and two AI seats play a whole game through the real bot and the
fake Discord, the person only clicking what the bot offers (take-your-turn, the placement spots,
rotations and garrison choices). The thread gets board images, and Discord's limits (429s
included) are never broken."""

from __future__ import annotations

import io

import pytest
from e2e_support import RealBots, Table, play_to_end, real_bot_missing
from PIL import Image

from fakediscord import FakeDiscord

pytestmark = pytest.mark.skipif(bool(real_bot_missing("kingdoms_battle")),
                                reason=str(real_bot_missing("kingdoms_battle")))


async def test_kingdoms_battle_three_players_play_to_the_end(fake: FakeDiscord, real_bots: RealBots,
                                                             table: Table) -> None:
    await real_bots.start()
    host = fake.add_user("host", locale="zh-TW")
    info = await table.start_match(real_bots, host, "kingdoms_battle", ais=2)
    match_id = info.id
    assert len(info.seats) == 3
    moves = await play_to_end(fake, real_bots, table, match_id, info.thread_id, [host], max_moves=400,
                              ai_patience=60)
    final = await real_bots.service.get(match_id)
    assert final.status == "finished" and moves > 0
    played = [e.action for e in await real_bots.service.log(match_id, limit=10_000)
              if e.seat == 0 and e.source == "user"]
    # the person placed tiles by clicking (first options: expand whenever tiles are left)
    assert sum(a[:1] == ["place"] for a in played) >= 10, played[:5]
    boards = [a for m in fake.messages_in(info.thread_id) for a in m.attachments if a.filename.endswith(".png")]
    assert boards, "no board image in the thread"
    last = Image.open(io.BytesIO(boards[-1].data))
    assert last.width == 1000 and len(boards[-1].data) < 400_000
    fake.assert_clean()
