"""Slash commands of the real bot around a running match: /match status, /match log, /move with
autocomplete, /help and /rules — answered in the user's language, within Discord's limits."""

from __future__ import annotations

import pytest
from e2e_support import RealBots, Table, play_to_end, real_bot_missing

from cogs.utils.board import seat_names
from fakediscord import FakeDiscord, FakeInteraction
from fakediscord.limits import FLAG_LOADING
from i18n import normalize_locale, t
from render import render_board

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
    info = await table.start_match(real_bots, alice, "pentactic", guests=(bob,))
    match_id = info.id
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


async def test_a_spectator_sees_the_public_board_and_joins_the_thread(fake: FakeDiscord, real_bots: RealBots,
                                                                      table: Table) -> None:
    await real_bots.start()
    alice = fake.add_user("alice", locale="en-US")
    bob = fake.add_user("bob", locale="en-US")
    carol = fake.add_user("carol", locale="zh-TW")
    info = await table.start_match(real_bots, alice, "pentactic", guests=(bob,))
    match_id = info.id
    thread = fake.channel(info.thread_id)
    assert thread.auto_archive_duration == 10080, "a match thread stays open for a week of silence"
    assert carol.id not in thread.members

    seen = await answered(fake, await fake.slash(carol, fake.general, "match spectate", match=match_id))
    assert seen.ephemeral and seen.ephemeral_for == carol.id
    assert t("zh-TW", "discord.match.following", thread=f"<#{thread.id}>") in seen.text()
    assert carol.id in thread.members, "the spectator follows the thread from now on"
    # exactly the public view (the board everyone may see, in the spectator's language), no turn button
    assert not [c for c in seen.custom_ids() if c.startswith("g:t:")]
    public = await real_bots.service.view(match_id, None)
    spectator_png = next(a.data for a in seen.attachments if a.content_type == "image/png")
    assert spectator_png == render_board(public, "zh-TW", seat_names(await real_bots.service.get(match_id)))
    mover = [u for u in (alice, bob) if await real_bots.service.pending_for_user(match_id, u.id)][0]
    status = await answered(fake, await fake.slash(mover, thread, "match status"))
    assert [c for c in status.custom_ids() if c.startswith("g:t:")], "the player gets their turn button"
    fake.assert_clean()


async def test_too_many_lobbies_get_one_translated_line(fake: FakeDiscord, real_bots: RealBots,
                                                        table: Table) -> None:
    from service.lobby import LOBBIES_PER_USER, LOBBY_WINDOW_SECONDS

    await real_bots.start()
    dave = fake.add_user("dave", locale="zh-CN")
    for _ in range(LOBBIES_PER_USER):
        await table.open_lobby(dave, "pentactic")
    refused = await answered(fake, await fake.slash(dave, fake.general, "play", game="pentactic"))
    assert refused.ephemeral and refused.ephemeral_for == dave.id and not refused.custom_ids()
    assert refused.content == t("zh-CN", "core.err.rate_user", count=LOBBIES_PER_USER,
                                minutes=int(LOBBY_WINDOW_SECONDS // 60))
    fake.assert_clean()


async def test_each_player_is_told_of_their_turn_the_way_they_chose(fake: FakeDiscord, real_bots: RealBots,
                                                                    table: Table) -> None:
    """/match settings notify: Alice asks for a DM (no ping in the thread), Bob for nothing at all."""
    await real_bots.start()
    alice = fake.add_user("alice", locale="en-US")
    bob = fake.add_user("bob", locale="en-US")
    for user, mode in ((alice, "dm"), (bob, "none")):
        ok = await answered(fake, await fake.slash(user, fake.general, "match settings", notify=mode))
        assert ok.ephemeral and ok.content == t("en", "discord.match.notify_set", mode=t("en", f"discord.notify.{mode}"))
    info = await table.start_match(real_bots, alice, "pentactic", guests=(bob,), options={"mode": "2"})
    match_id = info.id
    turn_dm = t("en", "discord.publish.turn_dm", game="", match=match_id, link="").split("#")[0].strip()
    await play_to_end(fake, real_bots, table, match_id, info.thread_id, [alice, bob])
    posts = fake.messages_in(info.thread_id)
    assert posts and not any(alice in m.pinged or bob in m.pinged for m in posts), "nobody asked to be pinged"
    assert any(turn_dm in m.text() for m in fake.dms_of(alice)), "Alice's turns come by DM"
    assert not any(turn_dm in m.text() for m in fake.dms_of(bob)), "Bob asked for no notice"
    fake.assert_clean()
