"""Slash commands of the real bot around a running match: /match status, /match log, /move with
autocomplete, /help and /rules — answered in the user's language, within Discord's limits."""

from __future__ import annotations

import pytest
from e2e_support import RealBots, Table, real_bot_missing

from fakediscord import FakeDiscord, FakeInteraction
from fakediscord.limits import FLAG_LOADING
from i18n import normalize_locale, t

pytestmark = pytest.mark.skipif(bool(real_bot_missing("pentactic")), reason=str(real_bot_missing("pentactic")))


async def answered(fake: FakeDiscord, ix: FakeInteraction):
    """The visible answer of a (possibly thinking-deferred) command."""
    await fake.wait_for(lambda: ix.replies() and not ix.replies()[-1].flags & FLAG_LOADING, 10, "the answer")
    return ix.replies()[-1]


async def test_match_commands_and_move_by_autocomplete(fake: FakeDiscord, real_bots: RealBots,
                                                       table: Table) -> None:
    await real_bots.start()
    alice = fake.add_user("alice", locale="en-US")
    bob = fake.add_user("bob", locale="zh-CN")
    match_id, lobby = await table.open_lobby(alice, "pentactic")
    await table.lobby_click(bob, lobby, match_id, "join")
    await table.lobby_click(alice, lobby, match_id, "start")

    async def active():
        info = await real_bots.service.get(match_id)
        return info if info.status == "active" and info.thread_id else None

    info = await table.until(active, 10, "the match to start")
    thread = fake.channel(info.thread_id)

    status = await answered(fake, await fake.slash(bob, thread, "match status"))
    assert status.ephemeral and status.ephemeral_for == bob.id
    assert any(a.content_type == "image/png" for a in status.attachments), "status shows the board"

    # /move: build a whole action from autocomplete choices alone, then send it.
    service = real_bots.service
    to_move = [u for u in (alice, bob) if await service.pending_for_user(match_id, u.id)]
    user = to_move[0]
    before = (await service.get(match_id)).version
    typed = ""
    for _ in range(10):
        choices = await fake.autocomplete(user, thread, "move", "action", action=typed)
        assert choices and len(choices) <= 25 and all(1 <= len(c["name"]) <= 100 for c in choices)
        done = [c for c in choices if c["value"] == typed.strip()]
        if done:
            break
        typed = choices[0]["value"] + " "
    reply = await answered(fake, await fake.slash(user, thread, "move", action=typed.strip()))
    assert reply.ephemeral and reply.ephemeral_for == user.id
    if any(c.startswith("g:c:") for c in reply.custom_ids()):  # a preview first: confirm it
        await fake.click(user, reply, next(c for c in reply.custom_ids() if c.startswith("g:c:")))

    async def moved():
        return (await service.get(match_id)).version > before

    await table.until(moved, 10, "the /move to be played")

    log_reply = await answered(fake, await fake.slash(alice, thread, "match log"))
    assert log_reply.ephemeral and log_reply.embeds

    waiting = [u for u in (alice, bob) if not await service.pending_for_user(match_id, u.id)]
    for other in waiting[:1]:  # (both may still owe a simultaneous opening choice)
        refused = await answered(fake, await fake.slash(other, thread, "move", action="x"))
        assert refused.ephemeral and refused.content == t(normalize_locale(other.locale), "core.err.not_your_turn")

    help_reply = await answered(fake, await fake.slash(bob, fake.general, "help"))
    assert help_reply.ephemeral and help_reply.text()
    rules = await answered(fake, await fake.slash(bob, fake.general, "rules", game="pentactic"))
    assert rules.text()
    fake.assert_clean()
