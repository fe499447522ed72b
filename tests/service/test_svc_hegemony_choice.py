"""国战's secret hero choice through the service: a person who lets the turn clock run out gets
the AI's pair (``hg_ai.timeout``: two heroes of one kingdom from their own offer), and nothing of
it reaches the public side."""

from __future__ import annotations

import json

from svc_helpers import BOB, HOST, Clock, Recorder, clock, db_path, db_target, recorder, service, store, toy

from engines.sanguosha.heroes import hero
from service.matches import MatchService
from store import repo

__all__ = ["clock", "db_path", "db_target", "recorder", "service", "store", "toy"]


async def test_a_silent_person_gets_two_heroes_of_one_kingdom_from_their_own_offer(
        service: MatchService, clock: Clock, recorder: Recorder) -> None:
    info = await service.create_lobby("sanguosha", host_id=HOST, host_name="Host", locale="en", channel_id=9,
                                      options={"mode": "hegemony"}, turn_seconds=3600)
    await service.join(info.id, BOB, "Bob")
    await service.add_ai(info.id, HOST)
    match = await service.start(info.id, HOST)
    offers = {s.seat: (await service.view(match.id, s.seat))["you"]["offer"] for s in match.seats}
    assert all(len(o) == 7 for o in offers.values())
    host_seat = next(s.seat for s in match.seats if s.user_id == HOST)
    bob_seat = next(s.seat for s in match.seats if s.user_id == BOB)
    # Bob chooses; the host stays silent until the turn clock runs out.
    (rid,) = await service.pending_for_user(match.id, BOB)
    main = (await service.step(match.id, BOB, rid, [])).options[0].value
    deputy = (await service.step(match.id, BOB, rid, [main])).options[0].value
    await service.act(match.id, BOB, rid, [main, deputy])
    clock.advance(3601)
    await service.run_due()
    await service.drain()
    state = (await repo.get_match(service.store, match.id)).state
    for seat in (host_seat, bob_seat):
        picked = [h["id"] for h in state["players"][seat]["heroes"]]
        assert len(picked) == 2 and set(picked) <= set(offers[seat])
        assert hero(picked[0]).kingdom == hero(picked[1]).kingdom
    assert [h["id"] for h in state["players"][bob_seat]["heroes"]] == \
        [offers[bob_seat][int(main)], offers[bob_seat][int(deputy)]]
    sources = [a.source for a in await repo.list_actions(service.store, match.id)]
    assert "timeout" in sources
    # The public side never names a hidden hero (every hero is still face down).
    public = json.dumps(await service.view(match.id, None), ensure_ascii=False)
    hidden = {h["id"] for p in state["players"] for h in p["heroes"]}
    assert not any(f'{hid}"' in public for hid in hidden)
    for change in recorder.changes:
        assert not any(f'{hid}"' in json.dumps([e.msg.to_json() for e in change.events if e.to is None],
                                               ensure_ascii=False) for hid in hidden)
