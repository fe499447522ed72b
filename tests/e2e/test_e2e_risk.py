"""Risk end to end: the real bot against the fake Discord, three people clicking.

What matters most for a hidden-information game on Discord: missions and cards reach only their
owner by DM and never the public thread, and a player whose DMs are closed is told so publicly
(by name) at the start instead of silently missing their mission.
"""

from __future__ import annotations

import pytest
from e2e_support import RealBots, Table, control_labels, real_bot_missing

from fakediscord import FakeDiscord, FakeUsageError
from i18n import t

pytestmark = pytest.mark.skipif(bool(real_bot_missing("risk")), reason=str(real_bot_missing("risk")))



async def _active(service, match_id: int):
    info = await service.get(match_id)
    return info if info.status == "active" else None


async def test_risk_private_information_goes_only_by_dm(fake: FakeDiscord, real_bots: RealBots,
                                                        table: Table) -> None:
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

    # A board picture was posted publicly.
    posts = fake.messages_in(thread)
    assert any(a.content_type == "image/png" and a.data.startswith(b"\x89PNG")
               for m in posts for a in m.attachments)

    # Play a few moves by clicking, whoever is asked; the thread never shows private text.
    labels = control_labels()
    for _ in range(4):
        post = table.status_posts(thread)[-1]
        pending = []
        for user in (alice, bob, carol):
            pending += [(user, r) for r in await service.pending_for_user(match_id, user.id)]
        if not pending:
            break
        user, _req = pending[0]
        turn_id = next(c for c in post.custom_ids() if c.startswith("g:t:"))
        step = await table.open_turn(user, post, turn_id)
        assert step.ephemeral and step.ephemeral_for == user.id
        await table.walk(user, step, labels)

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
