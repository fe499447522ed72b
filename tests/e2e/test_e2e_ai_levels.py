"""The lobby's AI level picker in the real bot against the fake Discord (issue 23): "Add AI" opens
a private picker with one line per level saying what it is like; each level's button adds a seat
at that level and the picker stays open for the next; the lobby names each AI's level; a guest
cannot add AIs."""

from __future__ import annotations

import pytest
from e2e_support import RealBots, Table, real_bot_missing

from cogs.utils.layout import ai_level_about
from engines import registry
from fakediscord import FakeDiscord
from i18n import t

pytestmark = pytest.mark.skipif(bool(real_bot_missing("risk")), reason=str(real_bot_missing("risk")))


async def test_add_ai_opens_a_level_picker_and_each_level_adds_a_seat(fake: FakeDiscord, real_bots: RealBots,
                                                                       table: Table) -> None:
    await real_bots.start()
    alice, bob = fake.add_user("alice", locale="zh-TW"), fake.add_user("bob")
    match_id, lobby = await table.open_lobby(alice, "risk")
    levels = registry.get("risk").ai_levels()
    assert len(levels) > 1

    ix = await table.lobby_click(alice, lobby, match_id, "ai")
    picker = ix.original
    assert picker is not None and picker.ephemeral
    assert [b["custom_id"] for b in picker.buttons()] == [f"g:la:{match_id}:{lv}" for lv in levels]
    assert [b["label"] for b in picker.buttons()] == [t("zh-TW", f"core.ai.level.{lv}") for lv in levels]
    for level in levels:  # the game's own line for every level, in the clicker's language
        assert ai_level_about("risk", level, "zh-TW") in picker.text()
    assert (await real_bots.service.get(match_id)).seats[1:] == []  # opening the picker adds nobody

    first, second = levels[-1], levels[0]
    await fake.click(alice, picker, f"g:la:{match_id}:{first}", timeout=10)
    await fake.click(alice, fake.messages[picker.id], f"g:la:{match_id}:{second}", timeout=10)
    info = await real_bots.service.get(match_id)
    assert [(s.ai_level, s.user_id) for s in info.seats[1:]] == [(first, None), (second, None)]
    picked = fake.messages[picker.id]
    assert t("zh-TW", "discord.lobby.ai_added", name=info.seats[2].name, level=t("zh-TW", f"core.ai.level.{second}")) \
        in picked.text()
    assert picked.buttons(), "the picker stays open for the next seat"

    # The lobby message names each AI with its level (in the match's language): the publisher
    # edits it in the channel's paced slots (two quick clicks, never a 429).
    labels = [t(info.locale, "discord.seat.ai_level", name=seat.name,
                level=t(info.locale, f"core.ai.level.{seat.ai_level}")) for seat in info.seats[1:]]
    await fake.wait_for(lambda: all(label in fake.messages[lobby.id].text() for label in labels), 10,
                        "the lobby to name both AIs")

    # A guest who joined cannot open the picker, nor use the host's (a forged click).
    await table.lobby_click(bob, lobby, match_id, "join")
    refused = await table.lobby_click(bob, lobby, match_id, "ai")
    assert t("en", "core.err.not_host") in [m.text() for m in refused.replies()]
    forged = await fake.forge(bob, lobby, f"g:la:{match_id}:hard", timeout=10)
    assert t("en", "core.err.not_host") in [m.text() for m in forged.replies()]
    seats = (await real_bots.service.get(match_id)).seats
    assert [s.ai_level for s in seats] == [None, first, second, None]  # alice, two AIs, bob
    fake.assert_clean()


async def test_a_level_the_game_does_not_have_is_refused(fake: FakeDiscord, real_bots: RealBots,
                                                         table: Table) -> None:
    await real_bots.start()
    alice = fake.add_user("alice")
    match_id, lobby = await table.open_lobby(alice, "risk")
    ix = await table.lobby_click(alice, lobby, match_id, "ai")
    assert ix.original is not None
    bad = await fake.forge(alice, ix.original, f"g:la:{match_id}:genius", timeout=10)
    assert t("en", "core.err.bad_ai_level", level="genius") in [m.text() for m in bad.replies()]
    assert len((await real_bots.service.get(match_id)).seats) == 1
