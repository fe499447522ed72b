"""三国杀 end to end: the real bot against the fake Discord.

A 5-player identity game (2 people — one with closed DMs — and 3 AI): each person's hand, role
and equipment live in ONE private panel (a DM edited as the hand changes; ``/match hand``,
ephemeral, for closed DMs), and nothing private reaches the thread or another player; the
hero choice is made from those buttons (the lord from 5, the others from 3) and the lord's play
phase offers its active skill as a button.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

import pytest
from e2e_support import STEP_PREFIXES, RealBots, Table, control_labels, offers, real_bot_missing
from e2e_support import bot_dms as panel_dms

from cogs.utils.text import tm_text
from fakediscord import FakeDiscord, FakeMessage, FakeUser
from fakediscord.limits import FLAG_LOADING
from fakediscord.server import CHANNEL_RATE_LIMIT
from i18n import LOCALES, t

pytestmark = pytest.mark.skipif(bool(real_bot_missing("sanguosha")), reason=str(real_bot_missing("sanguosha")))

#: Short response windows so the test does not wait 12 s per 无懈 window.
SHORT = {"window_seconds": 2.0, "ai_window_delay": 0.2}


def bot_dms(fake: FakeDiscord, user: FakeUser) -> list[FakeMessage]:
    return panel_dms(fake, user, "sanguosha")


def option_labels(message: FakeMessage, request_id: str) -> list[str]:
    """The labels of the option buttons (not Back/Confirm …) the message offers for ``request_id``."""
    controls = control_labels()
    return [b.get("label") or "" for b in message.buttons()
            if b["custom_id"].startswith(STEP_PREFIXES) and f":{request_id}:" in b["custom_id"]
            and b.get("label") not in controls]


def public_text(fake: FakeDiscord, thread: Any) -> str:
    return "\n".join(m.text() for m in fake.messages_in(thread) + fake.messages_in(fake.general))


async def start_live(fake: FakeDiscord, table: Table, bots: RealBots, host: FakeUser, guests: tuple[FakeUser, ...],
                     ais: int, heroes: str | None = None, ais_first: bool = False) -> tuple[int, Any]:
    """A live 三国杀 match (one-minute turns, so windows get the short clock). Seats follow the
    joining order: the host, then the guests and the AI seats (the AI seats first with
    ``ais_first``)."""
    match_id, lobby = await table.open_lobby(host, "sanguosha")
    await table.turn_time(host, lobby, match_id, 60)
    if heroes is not None:
        await table.lobby_option(host, lobby, match_id, "heroes", heroes)
    for _ in range(ais if ais_first else 0):
        await table.add_ai(host, lobby, match_id)
    for guest in guests:
        await table.lobby_click(guest, lobby, match_id, "join")
    for _ in range(0 if ais_first else ais):
        await table.add_ai(host, lobby, match_id)
    await table.lobby_click(host, lobby, match_id, "start")

    async def active() -> Any:
        info = await bots.service.get(match_id)
        return info if info.status == "active" and info.thread_id else None

    info = await table.until(active, 10, f"match {match_id} to start")
    return match_id, info


async def test_five_players_private_information_reaches_only_its_owner(
        fake: FakeDiscord, real_bots: RealBots, table: Table) -> None:
    real_bots.overrides = dict(SHORT)
    await real_bots.start()
    service = real_bots.service
    alice = fake.add_user("alice", locale="en-US")
    bob = fake.add_user("bob", locale="zh-TW", dms_open=False)
    # bob hosts and alice joins last, after the AI seats: seat 4, the lord in this test's seeded deal.
    match_id, info = await start_live(fake, table, real_bots, bob, (alice,), 3, ais_first=True)
    thread = info.thread_id
    seat_of = {s.user_id: s.seat for s in info.seats}

    # alice's panel arrives by DM: her hand picture, and buttons when she has a decision.
    await fake.wait_for(lambda: bot_dms(fake, alice), 10, "alice's panel")
    # bob's DMs are closed: the thread says so once and names /match hand.
    closed = t(info.locale, "discord.publish.dm_closed", mention=f"<@{bob.id}>")
    await fake.wait_for(lambda: closed in public_text(fake, thread), 10, "the closed-DM notice")

    labels = control_labels()
    sun_quan = t("en-US", "sanguosha.hero.sunquan")
    played = {alice.id: 0, bob.id: 0}
    refused = 0
    bob_seen: set[str] = set()
    seen_offers: dict[tuple[int, str], list[str]] = {}  # (user, ask kind) -> its first offer's labels
    loop = asyncio.get_running_loop()
    end = loop.time() + 150
    while loop.time() < end:
        view = await service.view(match_id, None)
        if (await service.get(match_id)).status != "active" or view["round"] > 2 or sum(played.values()) >= 24:
            break
        acted = False
        for req in await service.requests_for_user(match_id, alice.id):
            panel = bot_dms(fake, alice)[0]
            try:
                await fake.wait_for(lambda r=req.id, p=panel: offers(p, r), 1.0, "the panel to offer it")
            except AssertionError:
                continue  # nothing but "pass" to answer: she is not prompted, the window's default answers
            if req.kind in ("hero", "play"):
                seen_offers.setdefault((alice.id, req.kind), option_labels(panel, req.id))
            try:
                # 孙权 when offered: 制衡 for her play phase
                await table.walk(alice, panel, labels, prefer=sun_quan if req.kind == "hero" else None)
                played[alice.id] += 1
                acted = True
            except AssertionError as exc:  # the window closed between reading and clicking
                assert "refused" in str(exc), exc
                refused += 1
        for req in await service.requests_for_user(match_id, bob.id):
            if req.id in bob_seen:
                continue
            bob_seen.add(req.id)
            ix = await fake.slash(bob, fake.channels[thread], "match hand")
            await fake.wait_for(lambda i=ix: i.replies() and not i.replies()[-1].flags & FLAG_LOADING, 10,
                                "bob's panel")
            hand = ix.replies()[-1]
            assert hand.ephemeral and hand.ephemeral_for == bob.id
            assert any(a.content_type == "image/png" for a in hand.attachments), "the hand picture"
            if not offers(hand, req.id):
                continue
            if req.kind in ("hero", "play"):
                seen_offers.setdefault((bob.id, req.kind), option_labels(hand, req.id))
            try:
                await table.walk(bob, hand, labels)
                played[bob.id] += 1
                acted = True
            except AssertionError as exc:
                assert "refused" in str(exc), exc
                refused += 1
        if not acted:
            await asyncio.sleep(0.1)
    panel_now = bot_dms(fake, alice)[0]

    # Hero choice from DM buttons: the lord picks from 5 (曹操, 刘备, 孙权 and two more), the others
    # from 3; the lord's first play phase (she took 孙权) offers 制衡 as a button.
    lord = (await service.view(match_id, None))["lord"]
    if not os.environ.get("E2E_SEED"):
        assert seat_of[alice.id] == lord, "this test's default deal makes alice (seat 4) the lord"
    for user, loc in ((alice, "en-US"), (bob, "zh-TW")):
        offer = seen_offers[(user.id, "hero")]
        if seat_of[user.id] == lord:
            assert len(offer) == 5, offer
            for hid in ("caocao", "liubei", "sunquan"):
                assert any(t(loc, f"sanguosha.hero.{hid}") in label for label in offer), (hid, offer)
        else:
            assert len(offer) == 3, offer
    if seat_of[alice.id] == lord:
        balance = t("en-US", "sanguosha.skill.zhiheng")
        assert any(balance in label for label in seen_offers[(alice.id, "play")]), seen_offers[(alice.id, "play")]
    assert played[alice.id] >= 3 and played[bob.id] >= 3, (played, refused, panel_now.text(), panel_now.custom_ids(), panel_now.edits)

    # ONE DM per player per match: alice's panel was edited, never sent again; bob got none.
    dms = bot_dms(fake, alice)
    assert len(dms) == 1 and dms[0].edits >= 3, [m.text() for m in dms]
    assert fake.dms_of(bob) == []
    stored = await service.get_meta(match_id, f"panel:{seat_of[alice.id]}")
    assert stored == f"{dms[0].channel_id}:{dms[0].id}"
    assert sum(closed in m.text() for m in fake.messages_in(thread)) == 1

    # No hidden role in public or in another player's messages; no private line in public.
    public_view = await service.view(match_id, None)
    revealed = {p["role"] for p in public_view["players"] if p["role"]}
    roles = {s.seat: (await service.view(match_id, s.seat))["you"]["role"] for s in info.seats}
    hidden = {roles[p["seat"]] for p in public_view["players"] if not p["role"]} - revealed
    names = {r: {t(loc, f"sanguosha.role.{r}") for loc in LOCALES} for r in hidden}
    public = public_text(fake, thread)
    for role, words in names.items():
        assert not any(w in public for w in words), f"hidden role {role} in the thread"
    for user in (alice, bob):
        own = roles[seat_of[user.id]]
        seen = "\n".join(m.text() for m in bot_dms(fake, user) + fake.ephemerals_of(user))
        for role, words in names.items():
            if role != own:
                assert not any(w in seen for w in words), f"{user} saw hidden role {role}"
    # Private events (cards drawn, cards taken): in their owner's panel only.
    private: dict[str, set[int]] = {}  # line -> the seats it was sent to
    for entry in await service.log(match_id, limit=10_000):
        for event in entry.events:
            if event.to is not None:
                for loc in LOCALES:
                    private.setdefault(tm_text(loc, event.msg, info.seats), set()).update(event.to)
    panel_text = bot_dms(fake, alice)[0].text()
    assert any(line in panel_text for line, to in private.items() if seat_of[alice.id] in to), "her draws"
    for line, to in private.items():
        assert line not in public, f"private event in the thread: {line}"
        for user in (alice, bob):
            if seat_of[user.id] not in to:
                seen = [m.text() for m in bot_dms(fake, user) + fake.ephemerals_of(user)]
                assert not any(line in x for x in seen), f"{user} saw {line} (sent to {to})"
    fake.assert_not_rate_limited()


# ----- a live 8-player 南蛮入侵 ------------------------------------------------------------------

NANMAN = "c77"


async def _deal_for_nanman(service: Any, match_id: int, lord: int) -> None:
    """Give the lord a 南蛮入侵 and move every 杀 and 无懈可击 out of the hands (to the bottom of
    the deck), so that nobody can answer: the all-pass case, where every window closes by its
    default. Every card stays in exactly one place."""
    from engines.sanguosha.data import card
    from store import repo

    rec = await repo.get_match(service.store, match_id)
    state = rec.state
    for zone in ("deck", "discard", "proc"):
        state[zone] = [c for c in state[zone] if c != NANMAN]
    for player in state["players"]:
        player["hand"] = [c for c in player["hand"] if c != NANMAN]
        answers = [c for c in player["hand"] if card(c).name in ("sha", "wuxie")]
        player["hand"] = [c for c in player["hand"] if c not in answers]
        state["deck"].extend(answers)
    state["players"][lord]["hand"].append(NANMAN)
    async with service.store.transaction() as tx:
        await repo.update_match(tx, match_id, state=state)


async def test_live_eight_player_nanman_all_passing(fake: FakeDiscord, real_bots: RealBots, table: Table) -> None:
    """8 people at a live table; the lord plays 南蛮入侵 and nobody can answer. Measured from the
    Confirm click until the thread shows the lord's turn again: seconds, and the REST calls the
    bot made (posts, edits, DMs, interaction responses). The default window timings (12 s
    windows, the uniform delay) and Discord's real channel pace (5 per 5 s): no 无懈 window opens
    (nobody holds one) and each of the 7 杀 requests is passed for at the uniform delay."""
    from cogs.utils import ids
    from service.settings import DEFAULTS

    WINDOW_SECONDS, AI_WINDOW_DELAY = DEFAULTS.window_seconds, DEFAULTS.ai_window_delay

    fake.rate_limit = CHANNEL_RATE_LIMIT
    await real_bots.start()
    service = real_bots.service
    assert (service.settings.window_seconds, service._ai_window_delay) == (WINDOW_SECONDS, AI_WINDOW_DELAY)  # defaults
    people = [fake.add_user(f"p{i}", locale="zh-CN") for i in range(8)]
    # Beginner heroes: a table with no skills, so the measured windows are the card's own.
    match_id, info = await start_live(fake, table, real_bots, people[0], tuple(people[1:]), 0, heroes="beginner")
    thread = info.thread_id
    view = await service.view(match_id, None)
    lord = view["lord"]
    lord_user = fake.user(next(s.user_id for s in info.seats if s.seat == lord))

    async def lord_plays() -> str | None:
        reqs = await service.requests_for_user(match_id, lord_user.id)
        return next((r.id for r in reqs if r.kind == "play"), None)

    req = await table.until(lord_plays, 20, "the lord's play phase")
    await _deal_for_nanman(service, match_id, lord)
    # The panels show the new hands, as if the cards had come and gone through play.
    publisher = real_bots.current.publisher  # type: ignore[union-attr]
    for seat in info.seats:
        await publisher.refresh_panel(await service.get(match_id), seat, "zh-CN", None)
    turn_id = ids.turn_id(match_id, req)
    post = await fake.wait_for(lambda: next((m for m in reversed(fake.messages_in(thread))
                                             if turn_id in m.custom_ids()), None), 10, "the lord's turn post")
    step = await table.open_turn(lord_user, post, turn_id)
    option = next(c for c in step.custom_ids() if c.startswith("g:a:") and c.endswith(f":{NANMAN}"))
    edits = step.edits
    await fake.click(lord_user, step, option, timeout=10)
    await fake.wait_for(lambda: step.edits > edits, 10, "the 南蛮 step")
    confirm = next(c for c in step.custom_ids() if c.startswith("g:c:"))
    hp_before = [p["hp"] for p in (await service.view(match_id, None))["players"]]
    await asyncio.sleep(3)  # a quiet channel: what follows is the 南蛮 alone
    panels_before = {u.id: sum(m.edits for m in fake.dms_of(u)) for u in people}
    calls_from = len(fake.requests)
    loop = asyncio.get_running_loop()
    started = loop.time()
    await fake.click(lord_user, step, confirm, timeout=10)

    async def back_to_lord() -> str | None:
        again = await lord_plays()
        if again is None or again == req:
            return None
        tid = ids.turn_id(match_id, again)
        return again if any(tid in m.custom_ids() for m in fake.messages_in(thread)) else None

    await table.until(back_to_lord, 60 + 14 * WINDOW_SECONDS, "the 南蛮 to resolve")
    took = loop.time() - started
    await asyncio.sleep(3)  # trailing edits (the lord's panel) count too
    calls = [r for r in fake.requests[calls_from:] if not r.startswith("GET ")]
    hp_after = [p["hp"] for p in (await service.view(match_id, None))["players"]]
    print(f"\n8-player 南蛮入侵, all passing, windows {WINDOW_SECONDS} s, uniform delay {AI_WINDOW_DELAY} s:"
          f" {took:.2f} s, {len(calls)} calls: {calls}")
    assert [b - a for b, a in zip(hp_before, hp_after, strict=True)] == [0 if s == lord else 1 for s in range(8)]
    # Nobody who could only pass was prompted: no panel but the lord's was edited.
    edited = {u.name: [m.text() for m in fake.dms_of(u)] for u in people
              if u is not lord_user and sum(m.edits for m in fake.dms_of(u)) != panels_before[u.id]}
    assert not edited, edited
    # The thread's turn post tells it in two lines: the card, and everyone it hit with their HP.
    post_text = fake.messages_in(thread)[-1].content
    assert any(all(f"p{s}" in line for s in range(8) if s != lord) for line in post_text.splitlines()), post_text
    assert took < 20, took
    assert len(calls) <= 12, calls
    fake.assert_not_rate_limited()
