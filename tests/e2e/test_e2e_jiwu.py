"""极武三国 end to end: the real bot against the fake Discord.

Two people and one AI seat play a whole game, clicking the first option each time. Alice plays
only from her private panel (ONE DM, edited: the hand and 计策 picture with the buttons to play,
recruit, deploy, kill and end; a duel's secret choice is prompted there too); Bob's DMs are closed,
so he plays from the same panel shown ephemerally by ``/match hand``. The thread gets the board
and market picture and never a hand, nobody sees another's hand picture, and Discord's limits
(429s included) are never broken.
"""

from __future__ import annotations

import asyncio
import io
import sys
from pathlib import Path
from typing import Any

import pytest
from e2e_support import RealBots, Table, control_labels, offers, real_bot_missing
from e2e_support import bot_dms as panel_dms
from PIL import Image

from fakediscord import FakeDiscord, FakeMessage, FakeUser
from fakediscord.limits import FLAG_LOADING
from i18n import LOCALES, t
from render import render_board

pytestmark = pytest.mark.skipif(bool(real_bot_missing("jiwu")), reason=str(real_bot_missing("jiwu")))

#: A duel's AI answer after a short delay, so the test does not wait 2.5 s per duel round.
SHORT = {"ai_window_delay": 0.2}


def bot_dms(fake: FakeDiscord, user: FakeUser) -> list[FakeMessage]:
    return panel_dms(fake, user, "jiwu")


async def walk(fake: FakeDiscord, table: Table, service: Any, match_id: int, user: FakeUser,
               message: FakeMessage, request_id: str) -> None:
    """Click the message's first option (or Confirm) until the request is answered. A panel's
    step may play on a plain button (a verb whose only target is taken at once), so the test
    asks the service rather than reading the reply."""
    controls = control_labels()
    for _ in range(40):
        if request_id not in [r.id for r in await service.requests_for_user(match_id, user.id)]:
            return
        confirm = [c for c in message.custom_ids() if c.startswith("g:c:")]
        selects = [x for x in message.selects() if x["custom_id"].startswith("g:s:")]
        buttons = [b for b in message.buttons() if b["custom_id"].startswith(("g:a:", "g:h:", "g:p:"))
                   and not b.get("disabled") and b.get("label") not in controls]
        before = message.edits
        table.clicks += 1
        if confirm:
            ix = await fake.click(user, message, confirm[0], timeout=10)
        elif selects:
            ix = await fake.select(user, message, selects[0]["custom_id"], [selects[0]["options"][0]["value"]],
                                   timeout=10)
        else:
            assert buttons, f"nothing to click: {message.text()!r}"
            ix = await fake.click(user, message, buttons[0]["custom_id"], timeout=10)
        await fake.wait_for(lambda b=before, i=ix: message.edits > b or i.followups, table.patience, "the reply")
        assert not ix.followups, [m.text() for m in ix.followups]
    raise AssertionError(f"{request_id} not answered after 40 clicks")


async def test_jiwu_two_people_and_the_ai_play_to_the_end_from_their_panels(
        fake: FakeDiscord, real_bots: RealBots, table: Table) -> None:
    real_bots.overrides = dict(SHORT)
    await real_bots.start()
    service = real_bots.service
    alice = fake.add_user("alice", locale="en-US")
    bob = fake.add_user("bob", locale="zh-CN", dms_open=False)
    info = await table.start_match(real_bots, alice, "jiwu", guests=(bob,), ais=1)
    match_id, thread = info.id, info.thread_id
    seat = next(s.seat for s in info.seats if s.user_id == alice.id)
    await fake.wait_for(lambda: bot_dms(fake, alice), 10, "alice's panel")

    actions = {alice.id: 0, bob.id: 0}
    hands_for_bob: list[FakeMessage] = []
    loop = asyncio.get_running_loop()
    started = loop.time()
    idle_until = loop.time() + 30
    while (await service.get(match_id)).status == "active":
        acted = False
        for req in await service.requests_for_user(match_id, alice.id):
            panel = bot_dms(fake, alice)[0]
            await fake.wait_for(lambda r=req.id, p=panel: offers(p, r), 10, f"the panel to offer {req.id}")
            await walk(fake, table, service, match_id, alice, panel, req.id)
            actions[alice.id] += 1
            acted = True
        for req in await service.requests_for_user(match_id, bob.id):
            ix = await fake.slash(bob, fake.channels[thread], "match hand")
            await fake.wait_for(lambda i=ix: i.replies() and not i.replies()[-1].flags & FLAG_LOADING, 10,
                                "bob's panel")
            hand = ix.replies()[-1]
            assert hand.ephemeral and hand.ephemeral_for == bob.id and offers(hand, req.id)
            hands_for_bob.append(hand)
            await walk(fake, table, service, match_id, bob, hand, req.id)
            actions[bob.id] += 1
            acted = True
        if acted:
            idle_until = loop.time() + 30
        else:
            assert loop.time() < idle_until, "nobody asked a person for 30 s"
            await asyncio.sleep(0.05)
        assert sum(actions.values()) < 3000, "the game does not end"
    took = loop.time() - started
    final = await service.get(match_id)
    assert final.status == "finished"
    view = await service.view(match_id, None)
    posts = fake.messages_in(thread)
    edits = sum(m.edits for m in posts)
    print(f"\njiwu e2e: {actions[alice.id]} + {actions[bob.id]} actions by the people, {view['turns']} turns, {took:.1f} s; thread: "
          f"{len(posts)} posts, {edits} edits; panel edits {bot_dms(fake, alice)[0].edits}")
    # One status post per turn at most (edited as the turn goes), not one per action.
    assert len(posts) <= view["turns"] + 3, (len(posts), view["turns"])

    log = await service.log(match_id, limit=100_000)
    played = [e.action for e in log if e.seat == seat and e.source == "user"]
    verbs = {a[0] for a in played}
    assert {"start", "play", "buy", "deploy"} <= verbs, sorted(verbs)

    # ONE panel DM per player per match, edited as the hand changed, with the hand picture.
    dms = bot_dms(fake, alice)
    assert len(dms) == 1 and dms[0].edits > 10, [m.text() for m in dms]
    assert any(a.content_type == "image/png" for a in dms[0].attachments)

    # The thread shows the board and market picture.
    boards = [a for m in fake.messages_in(thread) for a in m.attachments if a.filename.endswith(".png")]
    assert boards, "no board image in the thread"
    last = Image.open(io.BytesIO(boards[-1].data))
    assert last.width == 1000 and len(boards[-1].data) < 400_000

    # Bob never got a DM; his panel was ephemeral, for him only, with his hand picture.
    assert fake.dms_of(bob) == [] and actions[bob.id] > 10
    assert any(a.content_type == "image/png" for a in hands_for_bob[-1].attachments)
    # The hand picture (550 px wide) is only ever in alice's DM; every picture in the thread is
    # the public board (1000 px), and the last one is exactly the public view's render.
    assert all(Image.open(io.BytesIO(a.data)).width == 1000 for a in boards)
    assert all(Image.open(io.BytesIO(a.data)).width == 550 for a in dms[0].attachments)
    names = [s.name for s in sorted(final.seats, key=lambda s: s.seat)]
    assert boards[-1].data == render_board(await service.view(match_id, None), final.locale, names)
    hand_title = {t(loc, "jiwu.render.hand", n=n) for loc in LOCALES for n in range(12)}
    public = "\n".join(m.text() for m in fake.messages_in(thread) + fake.messages_in(fake.general))
    assert not any(h in public for h in hand_title)
    fake.assert_clean()


async def test_a_duel_is_asked_in_secret_in_the_dm_panel(fake: FakeDiscord, real_bots: RealBots, table: Table) -> None:
    """吕布 walks into the AI's 刘备's region: the duel move is asked in alice's DM panel (three
    one-click buttons), the thread only says a duel is on and never shows a move before both have
    chosen; the AI answers after the window delay; then the round's dice and both moves are told."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engines" / "jiwu"))
    from jiwu_testkit import face_to_face

    from i18n import tm
    from store import repo

    real_bots.overrides = dict(SHORT)
    await real_bots.start()
    service = real_bots.service
    alice = fake.add_user("alice", locale="en-US")
    info = await table.start_match(real_bots, alice, "jiwu", ais=1)
    match_id, thread = info.id, info.thread_id
    await fake.wait_for(lambda: bot_dms(fake, alice), 10, "alice's panel")
    # Seat 0 (alice) to play, 吕布 at 洛阳 beside the AI's 刘备 at 许昌.
    state = (await repo.get_match(service.store, match_id)).state
    gens = face_to_face(state)
    async with service.store.transaction() as tx:
        await repo.update_match(tx, match_id, state=state)
    (turn,) = await service.requests_for_user(match_id, alice.id)
    await service.act(match_id, alice.id, turn.id, ["move", gens[0], "xuchang"])

    (duel,) = await service.requests_for_user(match_id, alice.id)
    assert duel.kind == "duel"
    panel = bot_dms(fake, alice)[0]
    await fake.wait_for(lambda: offers(panel, duel.id), 10, "the duel buttons in the panel")
    moves = {t("en", f"jiwu_names.duel.{v}"): v for v in ("atk", "par", "brk")}
    buttons = [b for b in panel.buttons() if b.get("label") in moves]
    assert len(buttons) == 3 and all(b["custom_id"].startswith("g:p:") for b in buttons)
    # The AI chooses after the window delay; the thread shows no move, nor does alice's panel.
    await table.until(lambda: _picked(service, match_id), 10, "the AI's choice")
    ai_move = (await repo.get_match(service.store, match_id)).state["duel"]["pick"]["1"]
    round_key = "jiwu.ev.duel_round"
    public = "\n".join(m.text() for m in fake.messages_in(thread))
    assert t("en", "jiwu.ev.duel", region="", a="", b="").split(" ")[0] in public  # "Duel in …"
    assert not any(e.msg.key == round_key for entry in await service.log(match_id, limit=1000) for e in entry.events)
    assert f"jiwu_names.duel.{ai_move}" not in panel.text()
    # alice answers with one click: the round is thrown and told with both moves.
    edits = panel.edits
    await fake.click(alice, panel, next(b["custom_id"] for b in buttons if moves[b["label"]] == "par"), timeout=10)
    await fake.wait_for(lambda: panel.edits > edits, 10, "the panel after the click")
    told = [e.msg for entry in await service.log(match_id, limit=1000) for e in entry.events if e.msg.key == round_key]
    assert told and told[0].params["ma"]["key"].endswith(".par") and told[0].params["mb"]["key"].endswith(f".{ai_move}")
    line = tm("en", told[0], [s.name for s in sorted(info.seats, key=lambda s: s.seat)])
    await fake.wait_for(lambda: any(line in m.text() for m in fake.messages_in(thread)), 10, "the round in the thread")
    fake.assert_clean()


async def _picked(service: Any, match_id: int) -> bool:
    view = await service.view(match_id, None)
    return bool(view["duel"] and view["duel"]["picked"] == [1])
