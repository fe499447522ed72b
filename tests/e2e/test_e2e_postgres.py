"""The real bot on PostgreSQL with discord.py's sharded client, against the fake Discord: a
Pentactic game played through the components to the end, with a restart in the middle (a new
bot process's worth of state: new store, new publisher memory) — as `DATABASE_URL=postgresql://…`
with `SHARD_COUNT`/`SHARD_IDS` runs in production (docs/deploy.md)."""

from __future__ import annotations

import discord
import pytest
from e2e_support import RealBots, Table, play_to_end, real_bot_missing

from fakediscord import FakeDiscord
from store import repo
from store.pg import PgStore

pytestmark = pytest.mark.skipif(bool(real_bot_missing("pentactic")), reason=str(real_bot_missing("pentactic")))


async def test_sharded_bot_on_postgresql_plays_to_the_end_across_a_restart(
        fake: FakeDiscord, real_bots: RealBots, table: Table, pg_url: str) -> None:
    real_bots.overrides = {"database_url": pg_url, "shard_count": 2, "shard_ids": (0, 1)}
    client = await real_bots.start()
    assert isinstance(client, discord.AutoShardedClient) and isinstance(real_bots.service.store, PgStore)
    assert real_bots.service.store.owner == "shards 0,1 of 2"  # stable: a restart takes its leases back
    alice, bob = fake.add_user("alice", locale="en-US"), fake.add_user("bob", locale="zh-TW")
    info = await table.start_match(real_bots, alice, "pentactic", guests=(bob,), options={"mode": "2"})
    first = 4
    with pytest.raises(AssertionError, match="not over after 4 moves"):  # four moves, then ...
        await play_to_end(fake, real_bots, table, info.id, info.thread_id, [alice, bob], max_moves=first)
    assert (await real_bots.service.get(info.id)).status == "active"
    await real_bots.stop()
    await real_bots.start()  # another process's worth of memory: only the shared store is left
    rest = await play_to_end(fake, real_bots, table, info.id, info.thread_id, [alice, bob])
    final = await real_bots.service.get(info.id)
    assert final.status == "finished" and rest > 0
    log = await repo.list_actions(real_bots.service.store, info.id)
    answered = [a.request_id for a in log if a.request_id]
    assert len(answered) == first + rest and len(answered) == len(set(answered))  # each move applied once
    markers = [(e.get("footer") or {}).get("text", "") for m in fake.messages_in(info.thread_id) for e in m.embeds]
    markers = [x for x in markers if x.startswith(f"#{info.id}")]
    assert markers and len(markers) == len(set(markers)), "a status post was repeated"
    fake.assert_clean()
