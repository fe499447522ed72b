"""Posts per game and Discord's channel rate limit, through the real bot and the fake Discord
(which answers 429 past 5 message posts/edits per 5 s per channel, like Discord).

Pentactic against the AI used to make two posts per move (the player's move, then the AI's
answer, each with a new ping and board): a fast player made the bot trip the channel limit and
stall. Now the move and the answer make one edit of the player's status post, so the thread
gets a new post only every ten moves or so, nobody is pinged who was just playing, and the
bot's pacing (one post or edit per channel per ~1.5 s) keeps it clear of 429s.
"""

from __future__ import annotations

import time

import pytest
from e2e_support import RealBots, Table, play_to_end, real_bot_missing

from fakediscord import FakeDiscord
from fakediscord.server import CHANNEL_RATE_LIMIT

pytestmark = pytest.mark.skipif(bool(real_bot_missing("pentactic")), reason=str(real_bot_missing("pentactic")))

#: Posts a whole Pentactic game against the AI may make in its thread (it made 27 before).
PENTACTIC_VS_AI_MAX_POSTS = 6


async def test_pentactic_against_the_ai_posts_little_and_never_trips_the_rate_limit(
        fake: FakeDiscord, real_bots: RealBots, table: Table) -> None:
    fake.rate_limit = CHANNEL_RATE_LIMIT  # Discord's real pace
    await real_bots.start()
    alice = fake.add_user("alice")
    info = await table.start_match(real_bots, alice, "pentactic", ais=1)
    started = time.monotonic()
    moves = await play_to_end(fake, real_bots, table, info.id, info.thread_id, [alice])
    elapsed = time.monotonic() - started
    assert (await real_bots.service.get(info.id)).status == "finished"
    ai_moves = sum(e.source == "ai" for e in await real_bots.service.log(info.id, limit=10_000))
    over = "The game is over."

    def ended() -> bool:
        return any(over in m.text() for m in fake.messages_in(info.thread_id))

    await fake.wait_for(ended, 10, "the end of the game in the thread")
    await fake.wait_for(lambda: not table.status_posts(info.thread_id), 10, "no turn button left")
    posts = fake.messages_in(info.thread_id)
    pings = sum(alice in m.pinged for m in posts)
    per_minute = fake.calls_in(info.thread_id)
    print(f"pentactic vs AI: {moves} moves by the player, {ai_moves} by the AI, {len(posts)} thread posts, "
          f"{pings} pings, {per_minute} posts+edits in the busiest minute, burst {fake.burst(info.thread_id)}/5 s, "
          f"{elapsed:.1f}s, 429s: {len(fake.rate_limited)}")
    assert moves >= 5 and ai_moves >= 5
    assert len(posts) <= PENTACTIC_VS_AI_MAX_POSTS, [m.text()[:80] for m in posts]
    assert pings <= 1, "pinged only when the game first asked her, never right after her own move"
    fake.assert_not_rate_limited()
    fake.assert_clean()
