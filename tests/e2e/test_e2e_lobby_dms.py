"""Before a hidden-information game starts, the bot checks it can DM every human who takes a seat.

Joining (or opening) a Risk lobby sends a short DM saying where the private cards and missions will
arrive; a player whose DMs are closed is told privately, right away, so they can open them or plan
to use /match hand. A game without hidden information sends no such DM.
"""

from __future__ import annotations

import pytest
from e2e_support import RealBots, Table, real_bot_missing

from fakediscord import FakeDiscord
from i18n import t

pytestmark = pytest.mark.skipif(bool(real_bot_missing("risk")), reason=str(real_bot_missing("risk")))


async def test_joining_a_hidden_information_lobby_checks_dms(fake: FakeDiscord, real_bots: RealBots,
                                                              table: Table) -> None:
    await real_bots.start()
    alice = fake.add_user("alice", locale="en-US")
    bob = fake.add_user("bob", locale="zh-TW", dms_open=False)
    match_id, lobby = await table.open_lobby(alice, "risk")
    await fake.wait_for(lambda: fake.dms_of(alice), 10, "alice's lobby DM")
    hello = t("en", "discord.lobby.dm_hello", game=t("en", "discord.game.risk"), match=match_id)
    assert [m.text() for m in fake.dms_of(alice)] == [hello]

    ix = await table.lobby_click(bob, lobby, match_id, "join")
    await fake.wait_for(lambda: ix.followups, 10, "bob's closed-DM notice")
    notice = ix.followups[-1]
    assert notice.ephemeral and notice.text() == t("zh-TW", "discord.lobby.dm_closed")
    assert fake.dms_of(bob) == []
    # The notice went only to bob: nothing about it in the channel.
    assert not any(t("zh-TW", "discord.lobby.dm_closed") in m.text() for m in fake.messages_in(fake.general))
    fake.assert_clean()


async def test_an_open_information_lobby_sends_no_dm(fake: FakeDiscord, real_bots: RealBots, table: Table) -> None:
    await real_bots.start()
    alice = fake.add_user("alice", locale="en-US")
    bob = fake.add_user("bob", locale="en-US", dms_open=False)
    match_id, lobby = await table.open_lobby(alice, "pentactic")
    ix = await table.lobby_click(bob, lobby, match_id, "join")
    assert ix.followups == []
    assert fake.dms_of(alice) == [] and not any(e.code == 50007 for e in fake.errors)
    fake.assert_clean()
