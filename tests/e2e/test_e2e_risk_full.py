"""A whole Risk game through the real bot and the fake Discord, secret missions variant.

What must hold over a whole game, not just its first turns: every mission and every territory
card reaches only its owner, by DM (never the thread, the channel, or anybody else's DMs and
ephemeral messages); a player can resign with ``/match resign`` and the AI plays their seat on;
the game runs to the engine's own end and the thread shows the result with every mission
revealed — and only then.

Humans play by clicking what the bot's step messages offer. To keep the game short and its
length bounded, Alice clicks the choices the normal AI would make from her own view (so she
attacks and draws cards) and Bob clicks what a time-out would do (place everything, never
attack), so the AI seats finish him off or complete a mission within a few rounds.

Seats: the service ends a match at once when its last human resigns (tests/service: "last human
resigning ends an AI game"), so for the AI to play a resigned seat *to the end* somebody human
must still be in: Alice and Bob plus one AI seat. The one-human case (a human and two AI seats:
resigning hands the win to the AI seats at once) is the second test.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from e2e_support import RealBots, Table, play_one, real_bot_missing

from engines.base import Msg
from engines.risk import ai as risk_ai
from engines.risk.data import content
from fakediscord import FakeDiscord, FakeMessage, FakeUser
from i18n import LOCALES, normalize_locale, t, tm

pytestmark = pytest.mark.skipif(bool(real_bot_missing("risk")), reason=str(real_bot_missing("risk")))

#: Alice's moves before she resigns if no card came her way by then (normally one turn suffices).
ALICE_MAX_MOVES = 40
#: Wall-clock cap for the whole game (typically 5–15 s on a shared 2-core machine).
GAME_SECONDS = 120


# ----- what each person may see ------------------------------------------------------------------

def _texts(messages: list[FakeMessage]) -> list[str]:
    return [m.text() for m in messages]


def _seen_by_others(fake: FakeDiscord, people: list[FakeUser], owner: FakeUser) -> list[str]:
    return [text for u in people if u is not owner for text in _texts(fake.dms_of(u) + fake.ephemerals_of(u))]


def _public(fake: FakeDiscord, thread_id: int) -> list[str]:
    return _texts(fake.messages_in(thread_id) + fake.messages_in(fake.general))


def _all_locales(msg: Msg) -> set[str]:
    return {tm(loc, msg) for loc in LOCALES}


def _mission_in(msg: Msg, bodies: list[str]) -> bool:
    """Whether any body shows the mission ``msg`` in any language. A mission text inside a longer
    mission text is not a sighting ("occupy 24 territories" is part of every "destroy X" text)."""
    all_texts = {tm(loc, Msg(f"risk.mission.{m}")) for loc in LOCALES for m in content().mission_ids}
    for text in _all_locales(msg):
        longer = sorted((x for x in all_texts if text in x and x != text), key=len, reverse=True)
        for body in bodies:
            for other in longer:
                body = body.replace(other, "")
            if text in body:
                return True
    return False


async def _check_cards(fake: FakeDiscord, service: Any, match_id: int, thread_id: int, people: list[FakeUser],
                       seat_user: dict[int, FakeUser | None], resigned_at: dict[int, int]) -> int:
    """Every territory card drawn so far by a human's seat reached that human alone, by DM; no
    card line is public or in anybody else's DMs. Returns how many such draws there were.
    ``resigned_at``: seat -> log version of its resignation (the AI's later draws for it are
    only checked for leaks)."""
    drawn = 0
    public = _public(fake, thread_id)
    for entry in await service.log(match_id, limit=100_000):
        for event in entry.events:
            if event.msg.key != "risk.ev.draw_private":
                continue
            assert event.to is not None and len(event.to) == 1, "a card draw must be private to its seat"
            owner = seat_user.get(event.to[0])
            lines = _all_locales(event.msg)
            assert not any(line in body for line in lines for body in public), f"card in public: {lines}"
            if owner is None:
                continue
            others = _seen_by_others(fake, people, owner)
            assert not any(line in body for line in lines for body in others), f"card leaked: {lines}"
            if entry.version > resigned_at.get(event.to[0], entry.version):
                continue  # the AI plays that seat now; the draw may still be DMed to its owner
            mine = tm(normalize_locale(owner.locale), event.msg)
            await fake.wait_for(lambda m=mine, o=owner: any(m in d.content for d in fake.dms_of(o)), 10,
                                f"the card DM {mine!r}")
            drawn += 1
    return drawn


async def _missions(service: Any, match_id: int, seats: list[int]) -> dict[int, Msg]:
    """Each seat's mission as only that seat's own view shows it."""
    out = {}
    for seat in seats:
        mission = (await service.view(match_id, seat))["you"]["mission"]
        out[seat] = Msg.from_json(mission["text"])
    return out


# ----- the tests ---------------------------------------------------------------------------------

async def test_risk_whole_game_secrets_by_dm_resign_then_result_in_thread(
        fake: FakeDiscord, real_bots: RealBots, table: Table) -> None:
    await real_bots.start()
    service = real_bots.service
    alice = fake.add_user("alice", locale="en-US")
    bob = fake.add_user("bob", locale="zh-TW")
    people = [alice, bob]
    info = await table.start_match(real_bots, alice, "risk", guests=(bob,), ais=1, options={"variant": "mission"})
    match_id, thread_id = info.id, info.thread_id
    seat_user: dict[int, FakeUser | None] = {s.seat: fake.user(s.user_id) if s.user_id else None for s in info.seats}
    seat_of = {u.id: s for s, u in seat_user.items() if u is not None}
    assert sorted(seat_of) == sorted(u.id for u in people) and len(info.seats) == 3

    # Missions: each human's arrives by DM to that human alone and is nowhere public.
    missions = await _missions(service, match_id, [s.seat for s in info.seats])
    for user in people:
        mine = tm(normalize_locale(user.locale), missions[seat_of[user.id]])
        await fake.wait_for(lambda m=mine, u=user: any(m in d.content for d in fake.dms_of(u)), 10,
                            f"{user.name}'s mission DM")

    async def missions_stay_secret() -> None:
        public = _public(fake, thread_id)
        if (await service.get(match_id)).status != "active":
            return  # the reveal at the end may be on its way (checked below)
        for seat, msg in missions.items():
            assert not _mission_in(msg, public), f"mission public: {msg}"
            owner = seat_user[seat]
            # Two seats can have the same mission text ("destroy your own colour" reads "occupy
            # 24 territories"): a seat seeing its own mission is no leak.
            strangers = [u for u in people if missions[seat_of[u.id]] != msg]
            if owner is not None:
                assert not _mission_in(msg, _seen_by_others(fake, strangers, owner)), f"mission leaked: {msg}"

    await missions_stay_secret()
    loop = asyncio.get_running_loop()
    deadline = loop.time() + GAME_SECONDS
    rng = random.Random(7)
    resigned: dict[int, int] = {}
    alice_cards = 0
    alice_moves = bob_moves = 0
    while True:
        status = (await service.get(match_id)).status
        if status != "active":
            break
        assert loop.time() < deadline, f"the game did not end in {GAME_SECONDS} s"
        for user in [u for u in people if seat_of[u.id] not in resigned]:
            requests = await service.requests_for_user(match_id, user.id)
            if requests:
                break
        else:
            await asyncio.sleep(0.02)  # the AI seats are thinking
            continue
        view = await service.view_for_user(match_id, user.id)
        if user is alice:
            plan = risk_ai.decide(view, rng)
            alice_moves += 1
        else:
            plan = risk_ai.timeout(view)
            bob_moves += 1
        await play_one(fake, table, service, match_id, thread_id, user, requests[0].id, plan)
        await missions_stay_secret()
        if user is alice and not resigned:
            alice_cards = await _check_cards(fake, service, match_id, thread_id, people, seat_user, resigned)
            if alice_cards or alice_moves >= ALICE_MAX_MOVES:
                # Resign mid-game: the AI answers for her seat from now on, Bob is still in.
                ix = await fake.slash(alice, fake.channel(thread_id), "match resign")
                said = t(normalize_locale(alice.locale), "discord.match.resigned", match=match_id)
                await fake.wait_for(lambda x=ix, m=said: any(m in r.text() for r in x.replies()), 10, "the resign reply")
                assert all(r.ephemeral for r in ix.replies())
                after = await service.get(match_id)  # Bob is still in: the match goes on (see the result)
                assert [s.resigned for s in after.seats if s.user_id == alice.id] == [True]
                resign_entry = next(e for e in await service.log(match_id, limit=100_000) if e.action == ["resign"])
                resigned[seat_of[alice.id]] = resign_entry.version
    assert resigned, f"alice never got to resign: {(await service.get(match_id)).result}"
    assert alice_cards, f"alice drew no card in {ALICE_MAX_MOVES} moves: the card DM check did not happen"
    final = await service.get(match_id)
    # The rules ended it; a resigned seat the AI took to victory does not win (service rule).
    assert final.status == "finished" and final.result["reason"] in ("game", "winners_resigned"), final.result
    log = await service.log(match_id, limit=100_000)
    alice_seat = seat_of[alice.id]
    resign_at = next(i for i, e in enumerate(log) if e.action == ["resign"])
    assert any(e.seat == alice_seat and e.source == "ai" for e in log[resign_at:]), \
        "the AI played the resigned seat"
    cards = await _check_cards(fake, service, match_id, thread_id, people, seat_user, resigned)

    # The end: the result post in the thread, with every mission revealed (only now).
    public_view = await service.view(match_id, None)
    assert public_view["phase"] == "over"  # the rules decided the game, not a resignation
    revealed = {p["seat"]: tm(info.locale, Msg.from_json(p["mission"]["text"])) for p in public_view["players"]}
    await _result_posted(fake, final, thread_id)
    thread_text = "\n".join(_texts(fake.messages_in(thread_id)))
    for seat, text in revealed.items():
        assert text in thread_text, f"seat {seat}'s mission is not revealed in the thread: {text}"
    assert final.result["winners"] == [w for w in public_view["winners"] if w not in resigned]
    names = {s.seat: s.name for s in final.seats}
    for w in final.result["winners"]:
        assert names[w] in thread_text
    assert fake.dms_of(alice) and fake.dms_of(bob)
    assert cards >= alice_cards
    print(f"risk full game: alice {alice_moves} moves (cards DMed: {cards}), bob {bob_moves} moves, "
          f"{len(log)} log entries, {table.clicks} clicks, {len(fake.messages_in(thread_id))} thread posts")
    fake.assert_clean()


async def test_risk_last_human_resigning_hands_the_game_to_the_ai_seats(
        fake: FakeDiscord, real_bots: RealBots, table: Table) -> None:
    """A human and two AI seats: after a few clicked moves the human resigns; with no human
    left the match ends at once, won by the AI seats, and the thread says so. Nothing secret
    is revealed: the game was not decided by its rules."""
    await real_bots.start()
    service = real_bots.service
    alice = fake.add_user("alice", locale="zh-CN")
    info = await table.start_match(real_bots, alice, "risk", ais=2, options={"variant": "mission"})
    match_id, thread_id = info.id, info.thread_id
    missions = await _missions(service, match_id, [s.seat for s in info.seats])
    alice_seat = next(s.seat for s in info.seats if s.user_id == alice.id)
    mine = tm("zh-CN", missions[alice_seat])
    await fake.wait_for(lambda: any(mine in d.content for d in fake.dms_of(alice)), 10, "the mission DM")
    rng = random.Random(3)
    for _ in range(3):
        requests = await table.until(lambda: service.requests_for_user(match_id, alice.id), 20, "alice's turn")
        plan = risk_ai.decide(await service.view_for_user(match_id, alice.id), rng)
        await play_one(fake, table, service, match_id, thread_id, alice, requests[0].id, plan)
    ix = await fake.slash(alice, fake.channel(thread_id), "match resign")
    await fake.wait_for(lambda: ix.replies(), 10, "the resign reply")
    final = await table.until(lambda: _finished(service, match_id), 10, "the match to end")
    ai_seats = sorted(s.seat for s in final.seats if s.user_id is None)
    assert final.result["winners"] == ai_seats and final.result["reason"] == "resigned"
    await _result_posted(fake, final, thread_id)
    public = _public(fake, thread_id)
    for msg in missions.values():
        assert not _mission_in(msg, public), f"mission public: {msg}"
    fake.assert_clean()


async def _result_posted(fake: FakeDiscord, final: Any, thread_id: int) -> None:
    """The thread's final status post carries the result (winners, how it ended)."""
    from cogs.utils.embeds import result_text

    expected = result_text(final, final.locale)
    await fake.wait_for(lambda: any(expected in body for body in _public(fake, thread_id)), 10,
                        f"the result post {expected!r}")


async def _finished(service: Any, match_id: int) -> Any:
    info = await service.get(match_id)
    return info if info.status == "finished" else None
