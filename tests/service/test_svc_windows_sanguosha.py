"""The real user of response windows: a 5-seat 三国杀 game (2 silent humans, 3 AI seats) run by
the service's clock alone. The humans' time-outs make them away (托管) after two in a row, the
AI then plays them, windows close by their defaults, and the game reaches its end with a state
equal to the replay of its log."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from svc_helpers import BOB, HOST, Clock, Recorder

from engines import registry
from service.core import WINDOW_SECONDS
from service.matches import MatchService
from service.replay import replay
from store import repo
from store.db import Store


async def test_a_sanguosha_game_runs_on_windows_and_away_seats(tmp_path: Path, caplog: pytest.LogCaptureFixture
                                                                ) -> None:
    if "sanguosha" not in registry.available():
        pytest.skip("the 三国杀 engine is not in this branch")
    caplog.set_level(logging.ERROR)
    clock = Clock()
    rec = Recorder()
    store = await Store.open(tmp_path / "sgs.sqlite3")
    svc = MatchService(store, publisher=rec, clock=clock, offload=False)
    try:
        info = await svc.create_lobby("sanguosha", host_id=HOST, host_name="Host", locale="en", turn_seconds=60)
        await svc.join(info.id, BOB, "Bob")
        for _ in range(3):
            await svc.add_ai(info.id, HOST)
        mid = (await svc.start(info.id, HOST)).id
        for _ in range(3000):
            if (await svc.get(mid)).status != "active":
                break
            clock.advance(WINDOW_SECONDS if await svc.pending_requests(mid) else 2.5)
            await svc.run_due()
        match = await svc.get(mid)
        assert match.status == "finished", "the game did not end"
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
        seats = await repo.get_seats(store, mid)
        assert seats[0].away and seats[1].away  # two silent humans: 托管 after two time-outs each
        assert sum(1 for c in rec.changes if c.note is not None and c.note.key == "publish.away") \
            + sum(1 for c in rec.changes for e in c.events if e.msg.key == "publish.away") == 2
        export = await svc.export(mid, include_state=True)
        assert replay(export) == export["state"]
        windows = [c for c in rec.changes if c.kind == "window"]
        assert windows, "no window closed by its defaults"
    finally:
        await store.close()
