"""三国杀 国战 (hegemony) end to end: the real bot against the fake Discord.

Two people and AI seats: each person chooses main and deputy in their DM panel (the picture of
the heroes dealt, then two clicks: main, deputy of its kingdom), reveals a hero at a start phase
from the panel, one plays a 杀 at the other, who answers with a 闪 from the panel; then one goes away
(托管) and the other resigns, and the AI plays their seats to the end. Nothing hidden (a hero still face down, another seat's
offer) reaches the thread or the other person's DMs.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from typing import Any

import pytest
from e2e_support import STEP_PREFIXES, RealBots, Table, click_plan, control_labels, offers, real_bot_missing
from e2e_support import bot_dms as panel_dms
from PIL import Image

from engines.sanguosha.heroes import hero
from fakediscord import FakeDiscord, FakeMessage, FakeUser
from i18n import LOCALES, t

pytestmark = pytest.mark.skipif(bool(real_bot_missing("sanguosha")), reason=str(real_bot_missing("sanguosha")))

#: Reactions long enough to click in (the reveal is a window), AI answers at once.
TIMING = {"window_seconds": 8.0, "ai_window_delay": 0.05}


def bot_dms(fake: FakeDiscord, user: FakeUser) -> list[FakeMessage]:
    return panel_dms(fake, user, "sanguosha")


async def _start(fake: FakeDiscord, table: Table, bots: RealBots, host: FakeUser, guest: FakeUser,
                 ais: int) -> tuple[int, Any]:
    match_id, lobby = await table.open_lobby(host, "sanguosha")
    await table.turn_time(host, lobby, match_id, 60)
    await table.lobby_option(host, lobby, match_id, "mode", "hegemony")
    # The test hands out a 杀 and a 闪 by editing the stored state, so its export no longer replays:
    # no recap (it would log its failure).
    await table.lobby_click(host, lobby, match_id, "recap")
    await table.lobby_click(guest, lobby, match_id, "join")
    for _ in range(ais):
        await table.add_ai(host, lobby, match_id)
    await table.lobby_click(host, lobby, match_id, "start")

    async def active() -> Any:
        info = await bots.service.get(match_id)
        return info if info.status == "active" and info.thread_id else None

    return match_id, await table.until(active, 10, f"match {match_id} to start")


async def _panel_for(fake: FakeDiscord, user: FakeUser, request_id: str, timeout: float = 10) -> FakeMessage:
    """The user's DM panel once it offers the request's buttons."""
    return await fake.wait_for(lambda: next((m for m in bot_dms(fake, user) if offers(m, request_id)), None),
                               timeout, f"{user.name}'s panel to offer {request_id}")


def _png(message: FakeMessage) -> Image.Image:
    att = next(a for a in message.attachments if a.content_type.startswith("image/png"))
    img = Image.open(io.BytesIO(att.data))
    img.load()
    return img


def _button(panel: FakeMessage, request_id: str, token: str) -> str:
    """The custom id of the option whose path ends with ``token`` (labels name heroes whose
    names come with their packs)."""
    from e2e_support import _path_of

    for c in panel.custom_ids():
        if c.startswith(STEP_PREFIXES) and f":{request_id}:" in c and not c.startswith("g:c:") \
                and _path_of(c)[-1:] == [token]:
            return c
    raise AssertionError(f"no option {token} in {panel.custom_ids()}")


async def _choose(fake: FakeDiscord, user: FakeUser, panel: FakeMessage, request_id: str, token: str) -> None:
    """Click the option ``token`` of the request in the panel; Confirm if it does not play at once
    (a window's answer should: the panel marks it to play in one click)."""
    custom_id = _button(panel, request_id, token)
    before = panel.edits
    ix = await fake.click(user, panel, custom_id, timeout=10)
    await fake.wait_for(lambda: panel.edits > before or ix.followups, 10, "the panel to update")
    assert not ix.followups, [m.text() for m in ix.followups]
    assert custom_id.startswith("g:p:"), f"a window answer should play in one click: {custom_id}"


async def _give(service: Any, match_id: int, seat: int, name: str) -> str:
    """Move a card called ``name`` from the deck into ``seat``'s hand (every card stays in one
    place); its id."""
    from engines.sanguosha.data import card
    from store import repo

    rec = await repo.get_match(service.store, match_id)
    state = rec.state
    cid = next(c for c in state["deck"] if card(c).name == name)
    state["deck"].remove(cid)
    state["players"][seat]["hand"].append(cid)
    async with service.store.transaction() as tx:
        await repo.update_match(tx, match_id, state=state)
    return cid


async def _play_match(fake: FakeDiscord, bots: RealBots, table: Table, seats: int,
                      caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)  # the bot's own lines (not the database driver's)
    bots.overrides = dict(TIMING)
    await bots.start()
    service = bots.service
    alice = fake.add_user("alice", locale="en-US")
    bob = fake.add_user("bob", locale="zh-CN")
    people = (alice, bob)
    match_id, info = await _start(fake, table, bots, alice, bob, seats - 2)
    thread = info.thread_id
    seat_of = {s.user_id: s.seat for s in info.seats}
    publisher = bots.current.publisher  # type: ignore[union-attr]
    for user in people:  # every reveal and 闪 is the person's own click, not a standing answer
        await service.set_standing_preset(match_id, user.id, "ask")

    # 1. Hero choice in the DM panel: the picture of the heroes dealt, main then deputy.
    dealt = 7
    for user in people:
        req = await table.until(lambda u=user: _asked(service, match_id, u, "hg_heroes"), 10, "the hero choice")
        panel = await _panel_for(fake, user, req.id)
        picture = _png(panel)
        assert picture.width == 550 and picture.height == 42 + dealt * 50 + 8, picture.size
        offer = (await service.view(match_id, seat_of[user.id]))["you"]["offer"]
        assert len(offer) == dealt
        await table.walk(user, panel, control_labels())
        heroes = (await service.view(match_id, seat_of[user.id]))["you"].get("heroes")
        assert heroes is None or heroes == [] or len(heroes) == 2  # set once everyone has chosen
    for user in people:
        you = (await service.view(match_id, seat_of[user.id]))["you"]
        assert [h["shown"] for h in you["heroes"]] == [False, False]
        main, deputy = (hero(h["id"]) for h in you["heroes"])
        assert main.kingdom == deputy.kingdom, "main and deputy of one kingdom"

    # 2. A reveal at a person's start phase, from the panel (one click: it is a window).
    revealed = None
    loop = asyncio.get_running_loop()
    end = loop.time() + 90
    while revealed is None and loop.time() < end:
        for user in people:
            req = await _asked(service, match_id, user, "hg_reveal")
            if req is None:
                await _pass_windows(service, match_id, user)
                continue
            panel = await _panel_for(fake, user, req.id)
            await _choose(fake, user, panel, req.id, "0")
            revealed = user
            break
        else:
            await asyncio.sleep(0.05)
    assert revealed is not None, "no person reached a start phase"
    seat = seat_of[revealed.id]
    await table.until(lambda: _shown(service, match_id, seat), 10, "the reveal")
    public = await service.view(match_id, None)
    assert public["players"][seat]["heroes"][0] is not None and public["players"][seat]["role"] is not None

    # 3. A 杀 from a person in their play phase at the other, answered with a 闪 from the panel.
    attacker, req = None, None
    end = loop.time() + 120
    while attacker is None and loop.time() < end:
        for user in people:
            got = await _asked(service, match_id, user, "play")
            if got is not None:
                attacker, req = user, got
                break
            await _pass_windows(service, match_id, user)
        else:
            await asyncio.sleep(0.05)
    assert attacker is not None and req is not None, "no person reached a play phase"
    defender = bob if attacker is alice else alice
    a_seat, d_seat = seat_of[attacker.id], seat_of[defender.id]
    sha = await _give(service, match_id, a_seat, "sha")
    for _ in range(2):  # two: a 无双 attacker asks for both
        await _give(service, match_id, d_seat, "shan")
    for s in info.seats:  # the panels show the new hands, as if the cards had come through play
        if s.user_id is not None:
            await publisher.refresh_panel(await service.get(match_id), s, "en", None)
    panel = await _panel_for(fake, attacker, req.id)
    hp = (await service.view(match_id, None))["players"][d_seat]["hp"]
    await click_plan(fake, table, attacker, panel, [sha, str(d_seat)])

    async def dodge_asked() -> Any:
        """The defender's 闪 window; questions before it (a skill of either side, 八阵's or 八卦阵's
        judgement, 铁骑) answered with their defaults, so the 杀 is the 闪's to stop."""
        for user in people:
            await _pass_windows(service, match_id, user, keep=("play", "need_shan"))
        return await _asked(service, match_id, defender, "need_shan")

    dodge = await table.until(dodge_asked, 10, "the 闪 window")
    while dodge is not None:  # a second window when the attacker has 无双
        panel = await _panel_for(fake, defender, dodge.id)
        shan = next(c["id"] for c in (await service.view(match_id, d_seat))["you"]["hand"] if c["name"] == "shan")
        await _choose(fake, defender, panel, dodge.id, shan)
        await table.until(lambda d=dodge: _not_asked(service, match_id, d.id), 10, "the 闪 to be played")
        dodge = await _asked(service, match_id, defender, "need_shan")
    assert (await service.view(match_id, None))["players"][d_seat]["hp"] == hp, "the 闪 stopped the 杀"
    lines = "\n".join(str(e.msg.to_json()) for entry in await service.log(match_id, limit=10_000)
                      for e in entry.events if e.to is None)
    assert "shan" in lines

    # 4. The AI plays every seat to the end: bob goes away (托管, as after two missed turns; set
    # directly rather than waiting out two turn clocks), alice resigns.
    from store import repo

    async with service.store.transaction() as tx:
        await repo.set_attendance(tx, match_id, seat_of[bob.id], missed=2, away=True)
    await service.resign(match_id, alice.id)

    async def over() -> bool:
        return (await service.get(match_id)).status == "finished"

    await table.until(over, 300, "the AI to finish the match")
    final = await service.view(match_id, None)
    assert final["winners"]

    # Nothing hidden in public or in the other person's DMs: heroes still face down at the end,
    # and each person's offer beyond the two heroes kept.
    state = (await repo.get_match(service.store, match_id)).state
    hidden = {h["id"] for p in state["players"] for h in p["heroes"] if not h["shown"]}
    public_text = "\n".join(m.text() for m in fake.messages_in(thread) + fake.messages_in(fake.general))
    for hid in hidden:
        words = {hid} | {t(loc, f"sanguosha.hero.{hid}") for loc in LOCALES}
        assert not any(w in public_text for w in words), f"hidden hero {hid} in the thread"
    for user in people:
        mine = {h["id"] for h in state["players"][seat_of[user.id]]["heroes"]}
        seen = "\n".join(m.text() for m in bot_dms(fake, user) + fake.ephemerals_of(user))
        for hid in hidden - mine:
            assert hid not in seen and f"sanguosha.hero.{hid}" not in seen, (user.name, hid)
    # Nor in the bot's log lines (their messages and context).
    assert caplog.records, "the bot's log is captured"
    logged = "\n".join(f"{r.getMessage()} {r.__dict__}" for r in caplog.records)
    assert not [hid for hid in hidden if hid in logged]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], [r.getMessage() for r in caplog.records]
    fake.assert_not_rate_limited()


async def _asked(service: Any, match_id: int, user: FakeUser, kind: str) -> Any:
    return next((r for r in await service.requests_for_user(match_id, user.id) if r.kind == kind), None)


async def _not_asked(service: Any, match_id: int, request_id: str) -> bool:
    return all(p.request_id != request_id for p in await service.pending_requests(match_id))


async def _shown(service: Any, match_id: int, seat: int) -> bool:
    return any((await service.view(match_id, None))["players"][seat]["heroes"])


async def _pass_windows(service: Any, match_id: int, user: FakeUser, keep: tuple[str, ...] = ("play",)) -> None:
    """While waiting for a play phase, a person's other questions (a window, a reveal, a skill's
    question) are answered — the default, else the AI's choice — so the game moves on without
    waiting out each reaction time."""
    import random

    from engines.sanguosha import ENGINE
    from store import repo

    for req in await service.requests_for_user(match_id, user.id):
        if req.kind in keep:
            continue
        if req.default:
            action = list(req.default)
        else:
            state = (await repo.get_match(service.store, match_id)).state
            action = ENGINE.ai_action(state, req.seat, random.Random(0))
        with contextlib.suppress(Exception):  # answered meanwhile (a window closed): nothing to do
            await service.act(match_id, user.id, req.id, action)


async def test_three_seat_hegemony_two_people_through_choice_reveal_and_dodge(
        fake: FakeDiscord, real_bots: RealBots, table: Table, caplog: pytest.LogCaptureFixture) -> None:
    await _play_match(fake, real_bots, table, 3, caplog)


async def test_four_seat_hegemony_two_people_and_two_ai(fake: FakeDiscord, real_bots: RealBots, table: Table,
                                                        caplog: pytest.LogCaptureFixture) -> None:
    await _play_match(fake, real_bots, table, 4, caplog)
