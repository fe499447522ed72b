"""Pentactic end to end: two people play a whole game through the real bot and the fake Discord.

Everything goes through components as a person would use them (lobby selects and buttons, "Take
your turn", the ephemeral step buttons/selects, Confirm). Midway the bot is closed and a new bot
instance starts on the same database: the game must finish, old buttons included. Along the way:
a click out of turn is refused ephemerally, a stale step button is refused, and Discord's limits
are never broken (the fake records any violation).
"""

from __future__ import annotations

import time

import pytest
from e2e_support import RealBots, Table, control_labels, real_bot_missing

from fakediscord import FakeDiscord, FakeMessage, FakeUser
from fakediscord.limits import FLAG_LOADING
from i18n import normalize_locale, t

pytestmark = pytest.mark.skipif(bool(real_bot_missing("pentactic")), reason=str(real_bot_missing("pentactic")))

RESTART_AFTER_MOVES = 8
STALE_AT_MOVE = 3
MAX_MOVES = 80



def loc(user: FakeUser) -> str:
    return normalize_locale(user.locale)


async def pending_requests(bots: RealBots, match_id: int, users: list[FakeUser]) -> list[tuple[FakeUser, str]]:
    out = []
    for user in users:
        out += [(user, req) for req in await bots.service.pending_for_user(match_id, user.id)]
    return out


def post_with(fake: FakeDiscord, thread_id: int, custom_id: str) -> FakeMessage | None:
    for msg in reversed(fake.messages_in(thread_id)):
        if custom_id in msg.custom_ids():
            return msg
    return None


async def test_pentactic_whole_game_with_restart(fake: FakeDiscord, real_bots: RealBots, table: Table) -> None:
    from cogs.utils import ids

    started_at = time.monotonic()
    await real_bots.start()
    alice = fake.add_user("alice", locale="en-US")
    bob = fake.add_user("bob", locale="zh-TW")
    players = [alice, bob]

    match_id, lobby = await table.open_lobby(alice, "pentactic")
    await table.lobby_option(alice, lobby, match_id, "mode", "2")
    await table.lobby_option(alice, lobby, match_id, "board", "8x8")
    await table.turn_time(alice, lobby, match_id, 300)
    await table.lobby_click(bob, lobby, match_id, "join")
    await table.lobby_click(alice, lobby, match_id, "start")

    async def active():
        info = await real_bots.service.get(match_id)
        return info if info.status == "active" else None

    info = await table.until(active, 10, "the match to start")
    assert info.options["mode"] == "2" and info.options["board"] == "8x8" and info.turn_seconds == 300
    assert info.thread_id is not None
    thread = fake.channel(info.thread_id)
    assert thread.is_thread and thread.parent_id == fake.general.id

    labels = control_labels()
    moves = 0
    saw_not_your_turn = saw_stale = restarted = False
    pinged_right = 0
    before_restart: set[int] = set()
    old_button_used = False
    while moves < MAX_MOVES:
        pending = await pending_requests(real_bots, match_id, players)
        if not pending:
            break
        user, req = pending[0]
        turn_id = ids.turn_id(match_id, req)
        post = await fake.wait_for(lambda tid=turn_id: post_with(fake, thread.id, tid), 10,
                                   f"a status post with {turn_id}")

        pinged_right += user in post.pinged
        other = next(p for p in players if p is not user)
        assert other not in post.pinged or [r for u, r in pending if u is other], "pinged out of turn"
        if not saw_not_your_turn and not [r for u, r in pending if u is other]:
            ix = await fake.click(other, post, turn_id, timeout=10)
            await fake.wait_for(lambda i=ix: i.original is not None and not i.original.flags & FLAG_LOADING, 10,
                                "the not-your-turn answer")
            assert ix.original.ephemeral and ix.original.ephemeral_for == other.id
            assert ix.original.content == t(loc(other), "core.err.not_your_turn")
            saw_not_your_turn = True

        old_button_used |= post.id in before_restart
        step = await table.open_turn(user, post, turn_id)
        assert step.ephemeral and step.ephemeral_for == user.id, step.text()
        if moves == STALE_AT_MOVE:
            # Open the walk twice, play from the second one, then use the first: it is stale.
            stale_step = step
            step = await table.open_turn(user, post, turn_id)
            await table.walk(user, step, labels)
            # The step played shows what was played, and nothing to click unless the player is
            # asked again (its buttons are then the new request's).
            assert step.text().startswith(t(loc(user), "discord.play.done", action="").strip()), step.text()
            if not await real_bots.service.pending_for_user(match_id, user.id):
                assert step.custom_ids() == [], step.custom_ids()
            option = next(b for b in stale_step.buttons() + stale_step.selects()
                          if b["custom_id"].startswith(("g:a:", "g:s:", "g:c:")))
            edits = stale_step.edits
            if option["type"] == 2:
                ix = await fake.click(user, stale_step, option["custom_id"], timeout=10)
            else:
                ix = await fake.select(user, stale_step, option["custom_id"], [option["options"][0]["value"]])
            await fake.wait_for(lambda i=ix, m=stale_step, e=edits: m.edits > e or i.followups, 10,
                                "the stale-button answer")
            # The refusal replaces the stale step, buttons and all: it is said once, never on
            # every further click (a tester's one stale message drew 35 "out of date" replies).
            assert ix.followups == [], [m.text() for m in ix.followups]
            assert stale_step.content == t(loc(user), "core.err.stale") and stale_step.custom_ids() == []
            assert stale_step.embeds == [] and stale_step.attachments == []
            saw_stale = True
        else:
            await table.walk(user, step, labels)
        moves += 1

        if moves == RESTART_AFTER_MOVES and not restarted:
            before_restart = {m.id for m in fake.messages_in(thread)}
            await real_bots.stop()
            await real_bots.start()
            restarted = True

    finished = await real_bots.service.get(match_id)
    assert finished.status == "finished", f"not finished after {moves} moves"
    assert restarted and saw_not_your_turn and saw_stale
    assert old_button_used, "a turn button posted before the restart was used after it"
    assert pinged_right >= moves // 2, f"the player to move was pinged on only {pinged_right} of {moves} posts"
    assert real_bots.starts == 2 and fake.gateway.identify_count == 2

    posts = fake.messages_in(thread)
    pngs = [a for m in posts for a in m.attachments if a.content_type == "image/png"]
    assert len(pngs) >= moves // 2 and all(a.data.startswith(b"\x89PNG") for a in pngs)
    names = {seat.seat: seat.name for seat in finished.seats}
    winners = ", ".join(names[int(w)] for w in finished.result["winners"])
    result_line = t(finished.locale, "discord.status.winners", names=winners)
    await fake.wait_for(lambda: any(result_line in m.text() for m in fake.messages_in(thread)), 10,
                        f"the result post ({result_line!r})")
    over = t(finished.locale, "discord.publish.finished")
    await fake.wait_for(lambda: any(over in m.text() for m in fake.messages_in(thread)), 10, f"{over!r}")
    # The last "Take your turn" went before the result post, not a pacing slot after it.
    posts = fake.messages_in(thread)
    result = next(m for m in reversed(posts) if over in m.text())
    previous = posts[posts.index(result) - 1]
    api = fake.api_base[len(fake.base_url):]
    calls = fake.requests
    retired = max((i for i, r in enumerate(calls) if r == f"PATCH {api}/channels/{thread.id}/messages/{previous.id}"),
                  default=len(calls))  # (not yet: after the result post)
    posted = max(i for i, r in enumerate(calls) if r == f"POST {api}/channels/{thread.id}/messages")
    assert retired < posted, f"the previous post kept its button after the result post: {calls[posted:]}"
    fake.assert_clean()
    elapsed = time.monotonic() - started_at
    print(f"pentactic e2e: {moves} moves, {table.clicks} clicks, {elapsed:.1f}s, "
          f"slowest first response {max(fake.response_times):.3f}s, thread burst {fake.burst(thread)}/5 s")
    # Two people clicking as fast as a test does: each move is a post plus dropping the old
    # post's buttons, and the publisher makes one post/edit per channel per 1.5 s (Discord's
    # 5 per 5 s per channel), so pacing, not the bot, sets the pace here (~3 s per move).
    assert elapsed < 150

    # No take-your-turn button survives the end, not even on the post current at the restart
    # (an old post's buttons go in the channel's next free pacing slot).
    await fake.wait_for(lambda: not table.status_posts(thread), 10, "no turn button left")
    fake.assert_not_rate_limited()
