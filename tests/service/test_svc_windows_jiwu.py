"""极武三国's duel through the service: a secret simultaneous window (mode ``all``) asked of both
duellists. The AI duellist answers after the same uniform delay as every window (never at once, so
its speed tells nothing), its move is in no view the person can read, and its answer does not
stale the person's button; the round is thrown only when both have chosen."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from svc_helpers import HOST, Clock, Recorder, db_target

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engines" / "jiwu"))
from jiwu_testkit import face_to_face  # noqa: E402

from engines.jiwu import ENGINE  # noqa: E402
from service.matches import MatchService  # noqa: E402
from service.settings import DEFAULTS  # noqa: E402
from store import repo  # noqa: E402
from store.db import Store  # noqa: E402

__all__ = ["db_target"]


async def test_the_duel_is_secret_and_simultaneous_and_the_ai_answers_after_the_window_delay(db_target: Path | str) -> None:
    clock = Clock()
    store = await Store.open(db_target)
    svc = MatchService(store, publisher=Recorder(), clock=clock, offload=False)
    try:
        info = await svc.create_lobby("jiwu", host_id=HOST, host_name="Host", locale="en", turn_seconds=600)
        await svc.add_ai(info.id, HOST)
        mid = (await svc.start(info.id, HOST)).id
        state = ENGINE.new_state({}, 2, 1)
        mine, _theirs = face_to_face(state)
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
        clock.advance(DEFAULTS.ai_window_delay - 0.5)
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
