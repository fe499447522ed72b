"""Risk end to end: the real bot against the fake Discord, three people clicking.

What matters most for a hidden-information game on Discord: missions and cards reach only their
owner by DM and never the public thread, and a player whose DMs are closed is told so publicly
(by name) at the start instead of silently missing their mission.
"""

from __future__ import annotations

import pytest
from e2e_support import RealBots, Table, control_labels, real_bot_missing

from engines import registry
from fakediscord import FakeDiscord, FakeUsageError
from fakediscord.limits import FLAG_LOADING
from i18n import LOCALES, normalize_locale, t, tm

pytestmark = pytest.mark.skipif(bool(real_bot_missing("risk")), reason=str(real_bot_missing("risk")))



MAX_MOVES = 90


async def _active(service, match_id: int):
    info = await service.get(match_id)
    return info if info.status == "active" else None


async def test_risk_private_information_goes_only_by_dm(fake: FakeDiscord, real_bots: RealBots,
                                                        table: Table) -> None:
    from cogs.utils import ids

    await real_bots.start()
    alice = fake.add_user("alice", locale="en-US")
    bob = fake.add_user("bob", locale="zh-TW", dms_open=False)
    carol = fake.add_user("carol", locale="zh-CN")
    match_id, lobby = await table.open_lobby(alice, "risk")
    await table.lobby_option(alice, lobby, match_id, "variant", "mission")
    for user in (bob, carol):
        await table.lobby_click(user, lobby, match_id, "join")
    await table.lobby_click(alice, lobby, match_id, "start")

    service = real_bots.service
    match = await fake.wait_for(lambda: fake.threads(), 10, "the match thread")
    thread = match[0]
    assert thread.parent_id == fake.general.id and thread.id == lobby.id
    info = await table.until(lambda: _active(service, match_id), 10, "the match to start")
    assert info.status == "active" and info.thread_id == thread.id and info.options["variant"] == "mission"

    # Everyone with open DMs gets their own mission; bob is named in the thread instead.
    await fake.wait_for(lambda: fake.dms_of(alice) and fake.dms_of(carol), 10, "mission DMs")
    closed_note = t(info.locale, "discord.publish.dm_closed", mention=f"<@{bob.id}>")
    await fake.wait_for(lambda: any(closed_note in m.text() for m in fake.messages_in(thread)), 10,
                        "the closed-DM notice")
    assert fake.dms_of(bob) == []
    assert any(e.status == 403 and e.code == 50007 for e in fake.errors), "the bot really tried bob's DMs"

    # With DMs closed, /match hand shows bob the same private view, to him alone.
    ix = await fake.slash(bob, thread, "match hand")
    await fake.wait_for(lambda: ix.replies() and not ix.replies()[-1].flags & FLAG_LOADING, 10, "the hand")
    hand = ix.replies()[-1]
    view = await service.view_for_user(match_id, bob.id)
    lines = [tm(normalize_locale(bob.locale), m) for m in registry.get("risk").private_summary(view)]
    assert lines and hand.ephemeral and hand.ephemeral_for == bob.id
    assert all(line in hand.text() for line in lines), (lines, hand.text())

    # A board picture was posted publicly.
    def board_posted() -> bool:  # the publisher paces its posts, so the board may come a moment later
        return any(a.content_type == "image/png" and a.data.startswith(b"\x89PNG")
                   for m in fake.messages_in(thread) for a in m.attachments)
    await fake.wait_for(board_posted, 10, "the board picture in the thread")

    # Play by clicking (whoever is asked) until a player with open DMs draws a territory card.
    labels = control_labels()
    seat_user = {s.seat: fake.user(s.user_id) for s in info.seats}
    card_text = None
    for _ in range(MAX_MOVES):
        pending = []
        for user in (alice, bob, carol):
            pending += [(user, r) for r in await service.pending_for_user(match_id, user.id)]
        assert pending, "the game ended before anybody drew a card"
        user, req = pending[0]
        turn_id = ids.turn_id(match_id, req)
        post = await fake.wait_for(lambda tid=turn_id: next(
            (m for m in reversed(fake.messages_in(thread)) if tid in m.custom_ids()), None), 10, turn_id)
        step = await table.open_turn(user, post, turn_id)
        assert step.ephemeral and step.ephemeral_for == user.id
        await table.walk(user, step, labels, biggest_number=True)
        for entry in await service.log(match_id, limit=3):
            for event in entry.events:
                owner = seat_user[event.to[0]] if event.to else None
                if event.msg.key == "risk.ev.draw_private" and owner is not None and owner.dms_open:
                    card_texts = {tm(loc, event.msg) for loc in LOCALES}
                    card_text = tm(normalize_locale(owner.locale), event.msg)
                    card_owner = owner
        if card_text:
            break
    assert card_text, f"nobody with open DMs drew a card in {MAX_MOVES} moves"
    await fake.wait_for(lambda: any(card_text in m.content for m in fake.dms_of(card_owner)), 10, "the card DM")
    others = [u for u in (alice, bob, carol) if u is not card_owner]
    seen_by_others = [m.text() for u in others for m in fake.dms_of(u) + fake.ephemerals_of(u)]
    public = [m.text() for m in fake.messages_in(thread) + fake.messages_in(fake.general)]
    for text in card_texts:
        assert not any(text in body for body in seen_by_others + public), f"card leaked: {text}"

    private_lines: set[str] = set()
    for user in (alice, carol):
        for dm in fake.dms_of(user):
            private_lines |= {line.strip() for line in dm.content.splitlines()[1:] if len(line.strip()) > 12}
    assert private_lines, "the DMs should carry mission lines"
    public = "\n".join(m.text() for m in fake.messages_in(thread) + fake.messages_in(fake.general))
    leaked = [line for line in private_lines if line in public and "/match hand" not in line]
    assert not leaked, f"private text in public: {leaked}"
    fake.assert_clean()


async def test_real_bot_commands_pass_discord_rules(fake: FakeDiscord, real_bots: RealBots) -> None:
    """The sync itself is validated by the fake (a broken command would be a 400 + violation)."""
    await real_bots.start()
    commands = {c["name"]: c for c in fake.commands()}
    assert "play" in commands
    play = commands["play"]
    assert set(play.get("name_localizations") or {}) >= {"zh-TW", "zh-CN"}
    game = next(o for o in play["options"] if o["name"] == "game")
    assert {"risk"} <= {c["value"] for c in game.get("choices") or []}
    alice = fake.add_user("alice")
    with pytest.raises(FakeUsageError):
        await fake.slash(alice, fake.dm_channel_for(alice), "play", game="risk")  # guild-only
    fake.assert_clean()


async def test_risk_against_ai_seats(fake: FakeDiscord, real_bots: RealBots, table: Table) -> None:
    """AI seats move on their own (service + scheduler) and their moves are published too."""
    from cogs.utils import ids

    await real_bots.start()
    alice = fake.add_user("alice", locale="zh-TW")
    match_id, lobby = await table.open_lobby(alice, "risk")
    for _ in range(2):
        await table.add_ai(alice, lobby, match_id)
    await table.lobby_click(alice, lobby, match_id, "start")
    service = real_bots.service
    info = await table.until(lambda: _active(service, match_id), 10, "the match to start")
    assert len(info.seats) == 3 and sum(s.is_ai for s in info.seats) == 2
    thread = fake.channel(info.thread_id)
    labels = control_labels()
    alice_moves = 0
    while alice_moves < 6:
        reqs = await table.until(lambda: service.pending_for_user(match_id, alice.id), 20, "alice's turn")
        turn_id = ids.turn_id(match_id, reqs[0])
        post = await fake.wait_for(lambda tid=turn_id: next(
            (m for m in reversed(fake.messages_in(thread)) if tid in m.custom_ids()), None), 10, turn_id)
        step = await table.open_turn(alice, post, turn_id)
        await table.walk(alice, step, labels, biggest_number=True)
        alice_moves += 1
    log = await service.log(match_id, limit=200)
    assert {e.source for e in log} >= {"user", "ai"}, "the AI seats played"
    assert fake.dms_of(alice), "alice's private information came by DM"
    print(f"risk vs AI: {len(fake.messages_in(thread))} thread posts, at most {fake.burst(thread)} in 5 s")
    fake.assert_clean()
