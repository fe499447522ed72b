"""/move answers like a button: the played action's result and, in the same reply, the player's
next decision (issue 7: "the reply to each action carries the next step's buttons"). Before, a
typed move was answered with its result alone, so the player had to find the thread's "Take your
turn" again for every further placement or attack."""

from __future__ import annotations

import pytest
from e2e_support import RealBots, Table, play_one, real_bot_missing
from test_e2e_risk_clicks import _request, _stage_turn

from engines.risk import ai as risk_ai
from fakediscord import FakeDiscord
from fakediscord.limits import FLAG_LOADING
from i18n import t

pytestmark = pytest.mark.skipif(bool(real_bot_missing("risk")), reason=str(real_bot_missing("risk")))

NEXT_STEP = ("g:a:", "g:p:", "g:s:", "g:h:", "g:c:")


async def test_a_typed_move_carries_the_next_decision(fake: FakeDiscord, real_bots: RealBots, table: Table) -> None:
    await real_bots.start()
    service = real_bots.service
    alice = fake.add_user("alice", locale="en-US")
    info = await table.start_match(real_bots, alice, "risk", ais=1, options={"setup": "quick"})
    match_id, thread_id = info.id, info.thread_id
    seat = info.seat_of(alice.id)
    seat = seat if isinstance(seat, int) else seat.seat
    deploy = await _request(service, match_id, alice, "deploy")
    await play_one(fake, table, service, match_id, thread_id, alice, deploy.id,
                   risk_ai.timeout(await service.view_for_user(match_id, alice.id)))
    req = await _request(service, match_id, alice, "reinforce")
    src, _ = await _stage_turn(real_bots, match_id, seat)  # 5 armies to place

    thread = fake.channel(thread_id)
    ix = await fake.slash(alice, thread, "move", action=f"place {src} 2")
    await fake.wait_for(lambda: ix.replies() and not ix.replies()[-1].flags & FLAG_LOADING
                        and any(c.startswith(NEXT_STEP) for c in ix.replies()[-1].custom_ids()),
                        10, "the reply with the next placement")
    reply = ix.replies()[-1]
    assert reply.ephemeral and reply.ephemeral_for == alice.id
    played = t("en", "discord.play.done", action="").strip()
    assert played in reply.text(), reply.text()
    log = await service.log(match_id, limit=20)
    assert [e.action for e in log if e.seat == seat and e.source == "user"][-1] == ["place", src, "2"]
    # The 3 armies left are placed from the reply itself: its buttons answer her new request.
    (left,) = await service.pending_for_user(match_id, alice.id)
    assert left != req.id and (await service.view(match_id, None))["turn"] == seat
    assert all(f":{left}:" in c for c in reply.custom_ids() if c.startswith(NEXT_STEP)), reply.custom_ids()
    # A typed action the engine refuses still gets the engine's own reason, no next step.
    bad = await fake.slash(alice, thread, "move", action=f"place {src} 99")
    await fake.wait_for(lambda: bad.replies() and not bad.replies()[-1].flags & FLAG_LOADING, 10, "the refusal")
    refusal = bad.replies()[-1]
    assert refusal.ephemeral and refusal.text() != t("en", "core.err.unexpected", match=match_id)
    assert refusal.text() != t("en", "core.err.stale"), refusal.text()
    fake.assert_clean()
