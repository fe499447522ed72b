"""A whole Pentactic game between two AI seats, played only through the service."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from svc_helpers import db_target

from engines import registry
from service.matches import MatchService
from service.models import Change, MatchInfo
from store.db import Store

__all__ = ["db_target"]
pytestmark = pytest.mark.skipif("pentactic" not in registry.available(), reason="Pentactic engine missing")


class Collect:
    def __init__(self) -> None:
        self.kinds: list[str] = []

    async def publish(self, match: MatchInfo, change: Change) -> None:
        self.kinds.append(change.kind)


async def test_two_ai_seats_play_pentactic_to_the_end(db_target: Path | str) -> None:
    store = await Store.open(db_target)
    publisher = Collect()
    service = MatchService(store, publisher=publisher)
    try:
        info = await service.create_lobby("pentactic", host_id=1, host_name="Host", locale="zh-TW",
                                          seat_host=False)
        await service.add_ai(info.id, 1)
        await service.add_ai(info.id, 1)
        info = await service.start(info.id, 1)
        for _ in range(50):
            if info.status != "active":
                break
            await service.run_due()
            info = await service.get(info.id)
        assert info.status == "finished", "the AIs did not finish"
        assert info.result is not None and set(info.result["winners"]) <= {0, 1} and info.result["winners"]
        log = await service.log(info.id, limit=10_000)
        assert len(log) > 10 and {e.source for e in log} == {"ai"}
        assert publisher.kinds[0] == "lobby" and publisher.kinds[-1] == "finished"
        # The stored state is exactly the seed replayed through the log.
        engine = registry.get("pentactic")
        row = await store.fetchone("SELECT seed, options, state FROM matches WHERE id = ?", (info.id,))
        state = engine.new_state(json.loads(row["options"]), 2, row["seed"])
        for entry in log:
            state, _ = engine.apply(state, entry.seat, entry.action)
        assert json.loads(json.dumps(state)) == json.loads(row["state"])
        public = await service.view(info.id, None)
        assert public["game"] == "pentactic"
    finally:
        await store.close()
