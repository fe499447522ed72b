"""How many clicks Risk costs a person, measured through the real bot and the fake Discord.

Every component interaction a scripted human needs is counted (``Table.clicks``: take-your-turn,
option buttons, group buttons, select choices, Confirm). The figures are printed (run with
``-s``) and bounded:

* a typical turn — place all reinforcements, three attacks of which one conquers, move in,
  end the attack, one fortifying move — in at most 15 clicks (it was 36–40);
* the classic set-up with two players (claim 21 territories, place 19 armies one at a time)
  in about one click per army instead of ~140.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from e2e_support import RealBots, Table, click_plan, play_one, real_bot_missing

from engines.risk import ai as risk_ai
from engines.risk.data import content
from fakediscord import FakeDiscord, FakeMessage, FakeUser
from i18n import t

pytestmark = pytest.mark.skipif(bool(real_bot_missing("risk")), reason=str(real_bot_missing("risk")))

TYPICAL_TURN_MAX_CLICKS = 15
#: Two players claim 21 territories each and place 40 - 21 = 19 armies each.
CLASSIC_SETUP_ACTIONS = 21 + 19


async def _request(service: Any, match_id: int, user: FakeUser, kind: str, timeout: float = 30.0) -> Any:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while loop.time() < end:
        reqs = await service.requests_for_user(match_id, user.id)
        if reqs and reqs[0].kind == kind:
            return reqs[0]
        await asyncio.sleep(0.05)
    raise AssertionError(f"no {kind} request for {user.name} in {timeout} s")


async def _stage_turn(real_bots: RealBots, match_id: int, seat: int) -> tuple[str, str]:
    """Make the turn's dice and numbers fixed (the position stays the dealt one): 5 armies to
    place, a frontier territory with 8 armies beside an enemy territory with 2, and dice so that
    two rolls fail and the third conquers. Returns (from, to)."""
    from store import repo

    store = real_bots.service.store
    rec = await repo.get_match(store, match_id)
    state = rec.state
    owner, adjacent = state["owner"], content().adjacent
    src = next(x for x in content().territories if owner[x] == seat and any(owner[n] != seat for n in adjacent[x]))
    dst = next(n for n in adjacent[src] if owner[n] != seat)
    state["armies"][src], state["armies"][dst] = 8, 2
    state["reinforcements"], state["bonus_pools"] = 5, {}
    # attacker's three dice, then the defender's two, per roll: lose 2, lose 2, win 2 (conquest)
    state["dice_queue"] = [1, 1, 1, 6, 6] * 2 + [6, 6, 6, 1, 1]
    async with store.transaction() as tx:
        await repo.update_match(tx, match_id, state=state)
    return src, dst


async def _next_step(fake: FakeDiscord, msg: FakeMessage, what: str) -> None:
    """The reply to a played action already shows the next decision (no take-your-turn)."""
    await fake.wait_for(lambda: any(c.startswith(("g:a:", "g:p:", "g:s:", "g:h:")) for c in msg.custom_ids()),
                        10, what)


async def test_a_typical_risk_turn_takes_at_most_15_clicks(fake: FakeDiscord, real_bots: RealBots,
                                                          table: Table) -> None:
    await real_bots.start()
    service = real_bots.service
    alice = fake.add_user("alice", locale="en-US")
    info = await table.start_match(real_bots, alice, "risk", ais=1, options={"setup": "quick"})
    match_id, thread_id = info.id, info.thread_id
    seat = info.seat_of(alice.id)
    seat = seat if isinstance(seat, int) else seat.seat
    # The quick set-up: everything secretly on one territory (not part of the turn's count).
    deploy = await _request(service, match_id, alice, "deploy")
    await play_one(fake, table, service, match_id, thread_id, alice, deploy.id,
                   risk_ai.timeout(await service.view_for_user(match_id, alice.id)))
    req = await _request(service, match_id, alice, "reinforce")
    src, dst = await _stage_turn(real_bots, match_id, seat)

    table.clicks = 0
    await play_one(fake, table, service, match_id, thread_id, alice, req.id, ["place", src, "5"])
    step = fake.ephemerals_of(alice)[-1]
    for n in range(3):
        await _next_step(fake, step, f"attack {n + 1}")
        await click_plan(fake, table, alice, step, ["attack", src, dst, "once"])
    # The conquest's move-in choice comes at once in the same reply, with Move all / Move minimum.
    await _next_step(fake, step, "the move-in choice")
    armies = (await service.view(match_id, None))["territories"][src]["armies"]
    labels = [b["label"] for b in step.buttons()]
    assert t("en", "risk.opt.move_all", n=armies - 1 + 3) in labels and t("en", "risk.opt.move_min", n=3) in labels
    await click_plan(fake, table, alice, step, ["move", str(armies - 1 + 3)])
    await _next_step(fake, step, "the attack phase again")
    await click_plan(fake, table, alice, step, ["end"])  # no Confirm
    await _next_step(fake, step, "the fortify phase")
    moved = (await service.view(match_id, None))["territories"][dst]["armies"] - 1
    await click_plan(fake, table, alice, step, ["fortify", dst, src, str(moved)])
    clicks = table.clicks

    log = await service.log(match_id, limit=100)
    mine = [e.action for e in log if e.seat == seat and e.source == "user"][-7:]
    assert mine == [["place", src, "5"], *[["attack", src, dst, "once"]] * 3, ["move", str(armies + 2)],
                    ["end"], ["fortify", dst, src, str(moved)]], mine
    assert (await service.view(match_id, None))["turn"] != seat or \
        (await service.view(match_id, None))["round"] > 1, "the fortifying move ended the turn"
    print(f"risk typical turn: {clicks} clicks (place all, 3 attacks with one conquest, move in, end, fortify)")
    assert clicks <= TYPICAL_TURN_MAX_CLICKS, clicks
    fake.assert_clean()


async def test_classic_setup_costs_about_one_click_per_army(fake: FakeDiscord, real_bots: RealBots,
                                                            table: Table) -> None:
    """Claims and one-army placements play on one click, and the reply to each offers the next
    one as soon as the AI has answered; the take-your-turn button is needed only once."""
    from cogs.utils import ids

    await real_bots.start()
    service = real_bots.service
    alice = fake.add_user("alice", locale="zh-TW")
    info = await table.start_match(real_bots, alice, "risk", ais=1, options={"setup": "classic"})
    match_id, thread_id = info.id, info.thread_id
    table.clicks = 0
    turn_clicks = 0
    actions = 0
    msg: FakeMessage | None = None
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 240
    while (await service.view(match_id, None))["phase"].startswith("setup"):
        assert loop.time() < deadline, "the set-up did not finish"
        reqs = await service.requests_for_user(match_id, alice.id)
        if not reqs:
            await asyncio.sleep(0.05)
            continue
        rid = ids.encode_token(reqs[0].id)

        def offers(m: FakeMessage | None = msg, r: str = rid) -> bool:
            return m is not None and any(c.split(":")[3] == r for c in m.custom_ids() if c.startswith("g:"))
        try:
            await fake.wait_for(offers, 10, "the next claim or placement in the reply")
        except AssertionError:
            turn_id = ids.turn_id(match_id, reqs[0].id)
            post = await fake.wait_for(lambda tid=turn_id: next(
                (m for m in reversed(fake.messages_in(thread_id)) if tid in m.custom_ids()), None), 10, turn_id)
            msg = await table.open_turn(alice, post, turn_id)
            turn_clicks += 1
            continue
        assert msg is not None
        before = msg.edits
        plays = [b["custom_id"] for b in msg.buttons() if b["custom_id"].startswith("g:p:")]
        groups = [b["custom_id"] for b in msg.buttons() if b["custom_id"].startswith("g:h:")]
        selects = [s for s in msg.selects() if s["custom_id"].startswith("g:s:")]
        table.clicks += 1
        if plays:
            ix = await fake.click(alice, msg, plays[0], timeout=10)
            actions += 1
        elif selects:
            ix = await fake.select(alice, msg, selects[0]["custom_id"], [selects[0]["options"][0]["value"]],
                                   timeout=10)
            actions += 1
        else:
            assert groups, f"nothing to click: {msg.text()!r}"
            ix = await fake.click(alice, msg, groups[0], timeout=10)
        await fake.wait_for(lambda b=before, m=msg, i=ix: m.edits > b or i.followups, 10, "the reply")
        assert not ix.followups, [m.text() for m in ix.followups]
    assert actions == CLASSIC_SETUP_ACTIONS, actions
    clicks = table.clicks
    print(f"risk classic set-up, 2 players: {clicks} clicks for {actions} actions "
          f"({turn_clicks} take-your-turn)")
    assert turn_clicks <= 2, "the reply carries the next claim/placement"
    assert clicks <= CLASSIC_SETUP_ACTIONS + 10, clicks  # a continent button when one is full
    fake.assert_clean()
