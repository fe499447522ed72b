"""Issue 21 end to end: /match export and /match replay of a running and of a finished match,
/stats me, /stats leaderboard and /match history — ephemeral, in the user's language, within
Discord's limits, and a running match's export and replay show nothing hidden."""

from __future__ import annotations

import json
from typing import Any

import pytest
from e2e_support import RealBots, Table, real_bot_missing

from cogs.utils import ids
from cogs.utils.board import seat_names
from fakediscord import FakeDiscord, FakeInteraction, FakeMessage, FakeUser
from fakediscord.limits import FLAG_LOADING
from i18n import t
from render import render_board
from service.replay import replay

pytestmark = pytest.mark.skipif(bool(real_bot_missing("pentactic")), reason=str(real_bot_missing("pentactic")))


async def answered(fake: FakeDiscord, ix: FakeInteraction) -> FakeMessage:
    await fake.wait_for(lambda: ix.replies() and not ix.replies()[-1].flags & FLAG_LOADING, 10, "the answer")
    return ix.replies()[-1]


def png_of(message: FakeMessage) -> bytes:
    return next(a.data for a in message.attachments if a.content_type == "image/png")


async def play_moves(service: Any, match_id: int, users: list[FakeUser], moves: int) -> None:
    """Moves through the service (the first option at each token): the commands are under test
    here, not the step UI."""
    for _ in range(moves):
        for user in users:
            for rid in await service.pending_for_user(match_id, user.id):
                path: list[str] = []
                while True:
                    step = await service.step(match_id, user.id, rid, path)
                    if step.complete and (not step.options or path):
                        break
                    path.append(step.options[0].value)
                await service.act(match_id, user.id, rid, path)
                break


async def test_export_replay_stats_and_history(fake: FakeDiscord, real_bots: RealBots, table: Table) -> None:
    await real_bots.start()
    alice = fake.add_user("alice", locale="en-US")
    bob = fake.add_user("bob <@1> [x](http://e)", locale="zh-TW")
    info = await table.start_match(real_bots, alice, "pentactic", guests=(bob,))
    service = real_bots.service
    mid = info.id
    thread = fake.channel(info.thread_id)
    await play_moves(service, mid, [alice, bob], 4)

    # A running match: the file has no seed, no action tokens, no private events.
    running = await answered(fake, await fake.slash(alice, thread, "match export"))
    assert running.ephemeral and running.ephemeral_for == alice.id
    assert running.content == t("en", "stats.export.running_note", match=mid)
    data = json.loads(next(a.data for a in running.attachments if a.filename.endswith(".json")))
    assert data["seed"] is None and data["hidden"] and "actions" not in data and "state" not in data
    assert all(e["to"] is None for row in data["public_log"] for e in row["events"])

    # The viewer: opens at the newest step, showing exactly the public board of now.
    viewer = await answered(fake, await fake.slash(alice, thread, "match replay"))
    assert viewer.ephemeral and viewer.ephemeral_for == alice.id
    now = await service.get(mid)
    assert png_of(viewer) == render_board(await service.view(mid, None), "en", seat_names(now))
    timeline = await service.timeline(mid)
    last = len(timeline) - 1
    assert ids.replay_id(mid, last - 1, "p") in viewer.custom_ids()
    await (await fake.click(alice, viewer, ids.replay_id(mid, last - 1, "p"))).wait_response()
    await fake.wait_for(lambda: t("en", "stats.replay.step", step=last - 1, total=last) in fake.messages[viewer.id].text(),
                        10, "the step before")
    assert png_of(fake.messages[viewer.id]) == render_board(timeline.view_at(last - 1), "en", seat_names(now))
    await (await fake.select(alice, viewer, ids.replay_select_id(mid), ["0"])).wait_response()
    await fake.wait_for(lambda: t("en", "stats.replay.step", step=0, total=last) in fake.messages[viewer.id].text(),
                        10, "the start")

    # Bob resigns: a two-player match ends, Alice wins, both are rated.
    await answered(fake, await fake.slash(bob, thread, "match resign"))
    assert (await service.get(mid)).status == "finished"

    # The thread gets the recap: an animated GIF of the board, 550 px wide, within 4 MB.
    recap = await fake.wait_for(lambda: next((m for m in fake.messages_in(thread.id)
                                              if any(a.filename == "recap.gif" for a in m.attachments)), None),
                                20, "the recap post")
    gif = next(a.data for a in recap.attachments if a.filename == "recap.gif")
    assert gif[:6] == b"GIF89a" and len(gif) <= 4 * 1024 * 1024
    assert int.from_bytes(gif[6:8], "little") == 550
    assert recap.content == t(info.locale, "stats.recap.title", game=t(info.locale, "pentactic.name"), match=mid)

    done = await answered(fake, await fake.slash(alice, thread, "match export", match=mid))
    full = json.loads(next(a.data for a in done.attachments if a.filename.endswith(".json")))
    assert full["seed"] is not None and full["actions"]
    assert replay(full) == (await service.export(mid, include_state=True))["state"]

    me = await answered(fake, await fake.slash(alice, fake.general, "stats me"))
    assert me.ephemeral and png_of(me)[:8] == b"\x89PNG\r\n\x1a\n"
    board = await answered(fake, await fake.slash(bob, fake.general, "stats leaderboard", game="pentactic"))
    assert board.ephemeral and png_of(board)[:8] == b"\x89PNG\r\n\x1a\n"
    rows = await service.leaderboard(fake.general.guild_id, "pentactic")
    assert [r.user_id for r in rows] == [alice.id, bob.id] and rows[0].rating > rows[1].rating

    history = await answered(fake, await fake.slash(bob, fake.general, "match history"))
    assert history.ephemeral and history.embeds
    text = history.text()
    assert f"#{mid}" in text and f"<#{thread.id}>" in text and t("zh-TW", "stats.history.place", place=2) in text
    assert "<@1>" not in text  # nobody's name reaches the history unescaped (it shows none)
    fake.assert_clean()


async def test_the_host_turns_the_recap_off_in_the_lobby(fake: FakeDiscord, real_bots: RealBots,
                                                         table: Table) -> None:
    await real_bots.start()
    alice = fake.add_user("alice", locale="zh-CN")
    bob = fake.add_user("bob", locale="en-US")
    match_id, lobby = await table.open_lobby(alice, "pentactic")
    assert ids.lobby_id(match_id, "recap") in lobby.custom_ids()
    refused = await table.lobby_click(bob, lobby, match_id, "recap")
    await refused.wait_response()
    assert await real_bots.service.get_meta(match_id, "recap") is None
    ix = await table.lobby_click(alice, lobby, match_id, "recap")
    reply = await answered(fake, ix)
    assert reply.ephemeral and reply.content == t("zh-CN", "stats.recap.switched_off", match=match_id)
    assert await real_bots.service.get_meta(match_id, "recap") == "off"
    await table.lobby_click(bob, lobby, match_id, "join")
    await table.lobby_click(alice, lobby, match_id, "start")

    async def active() -> Any:
        info = await real_bots.service.get(match_id)
        return info if info.status == "active" and info.thread_id else None

    info = await table.until(active, 10, "the start")
    await answered(fake, await fake.slash(bob, fake.channel(info.thread_id), "match resign"))
    assert (await real_bots.service.get(match_id)).status == "finished"
    await real_bots.current.publisher.recaps.wait()
    await real_bots.current.publisher.pacer.flush()
    assert not [m for m in fake.messages_in(info.thread_id) if any(a.filename.startswith("recap") for a in m.attachments)]
    fake.assert_clean()
