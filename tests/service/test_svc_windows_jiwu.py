"""极武三国's duel through the service: a secret simultaneous window (mode ``all``) asked of both
duellists. The AI duellist answers after the same uniform delay as every window (never at once, so
its speed tells nothing), its move is in no view the person can read, and its answer does not
stale the person's button; the round is thrown only when both have chosen."""

from __future__ import annotations

import json
from pathlib import Path

from svc_helpers import HOST, Clock, Recorder

from engines.jiwu import ENGINE
from engines.jiwu import rules as R
from engines.jiwu.data import card
from engines.jiwu.engine import _refresh
from service.core import AI_WINDOW_DELAY
from service.matches import MatchService
from store import repo
from store.db import Store


def _duel_ready(seats: int = 2) -> tuple[dict, str, str]:
    """Seat 0 to play, 吕布 at 洛阳 beside seat 1's 刘备 at 许昌, nothing else on the board."""
    state = ENGINE.new_state({}, seats, 1)
    while state["phase"] == "setup":
        seat = state["turn"]
        state, _ = ENGINE.apply(state, seat, ["start", R.start_regions(state, seat)[0]])
    for s, occ in state["slots"].items():
        if occ is not None and occ[0] >= 0:
            state["players"][occ[0]]["supply"] += 1
        state["slots"][s] = None
    state["cities"] = dict.fromkeys(state["cities"])
    gens = []
    for seat, cid, slot in ((0, "lvbu", "luoyang.0"), (1, "liubei", "xuchang.0")):
        iid = f"t{len(state['cards'])}"
        state["cards"][iid] = cid
        state["players"][seat]["generals"][iid] = {"hp": card(cid).general.force, "slot": slot, "moved": False}
        state["slots"][slot] = [seat, iid]
        gens.append(iid)
    _refresh(state)
    return state, gens[0], gens[1]


async def test_the_duel_is_secret_and_simultaneous_and_the_ai_answers_after_the_window_delay(tmp_path: Path) -> None:
    clock = Clock()
    store = await Store.open(tmp_path / "jiwu.sqlite3")
    svc = MatchService(store, publisher=Recorder(), clock=clock, offload=False)
    try:
        info = await svc.create_lobby("jiwu", host_id=HOST, host_name="Host", locale="en", turn_seconds=600)
        await svc.add_ai(info.id, HOST)
        mid = (await svc.start(info.id, HOST)).id
        state, mine, _theirs = _duel_ready()
        async with store.transaction() as tx:
            await repo.update_match(tx, mid, state=state)
        (turn,) = await svc.requests_for_user(mid, HOST)
        await svc.act(mid, HOST, turn.id, ["move", mine, "xuchang"])

        (req,) = await svc.requests_for_user(mid, HOST)
        assert req.kind == "duel" and req.mode == "all" and req.window
        everyone = await svc.pending_requests(mid, humans_only=False)
        assert {p.seat for p in everyone} == {0, 1}

        async def picked() -> list[int]:
            return list((await svc.view(mid, None))["duel"]["picked"])

        # The AI does not answer at once, nor before the delay...
        await svc.run_due()
        assert await picked() == []
        clock.advance(AI_WINDOW_DELAY - 0.5)
        await svc.run_due()
        assert await picked() == []
        # ...but right after it.
        clock.advance(1.0)
        await svc.run_due()
        assert await picked() == [1]
        # The person's view says the AI has chosen, never what; their button is still good.
        own = await svc.view(mid, 0)
        assert set(own["duel"]) == {"a", "b", "round", "last", "picked"} and own["duel"]["last"] is None
        assert own["you"]["duel_pick"] is None
        rec = await repo.get_match(store, mid)
        ai_move = rec.state["duel"]["pick"]["1"]
        assert ai_move in ("atk", "par", "brk")
        assert ai_move not in json.dumps(own)
        (still,) = await svc.requests_for_user(mid, HOST)
        assert still.id == req.id
        # Both chosen: the round is thrown and both moves are shown.
        _, events = await svc.act_with_events(mid, HOST, req.id, ["par"])
        rounds = [e.msg for e in events if e.msg.key == "jiwu.ev.duel_round"]
        assert rounds and rounds[0].params["mb"]["key"].endswith(f".{ai_move}")
    finally:
        await store.close()
