"""Stored matches saved by older code finish with today's code (the upgrade fixtures).

Every file under ``fixtures/`` is a match's rows as an older version of the bot stored them
(``tools/make_upgrade_fixtures.py``). Each is loaded into a database built at the schema version
it was saved at, the current code migrates it and plays it to the end (people's answers chosen by
the AI, AI seats and time-outs by ``run_due``), the game's invariants are checked after every
change, and the export must replay to the stored final state. Fixtures are only ever added.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
import upgrade_kit
from upgrade_kit import FILES, load_fixture, point_of, restore

from engines import registry
from service.matches import MatchService
from service.replay import replay
from store import repo
from store.db import Store
from tools.make_upgrade_fixtures import play_to_end


def test_every_game_has_fixtures() -> None:
    games = {p.parent.name for p in FILES}
    assert games == set(registry.available())
    for game in games:
        points = {point_of(p) for p in FILES if p.parent.name == game}
        assert {"setup", "mid", "end"} <= points, (game, points)


@pytest.mark.parametrize("path", FILES, ids=[p.name.removesuffix(".json.gz") for p in FILES])
async def test_a_stored_match_finishes_and_replays(path: Path, tmp_path: Path) -> None:
    fixture = load_fixture(path)
    target = tmp_path / "old.sqlite3"
    await restore(fixture, target)
    store = await Store.open(target)  # migrates the old file to the newest schema
    match_id = fixture["tables"]["matches"][0]["id"]
    clock = [max(r["updated_at"] for r in fixture["tables"]["matches"])]
    svc = MatchService(store, clock=lambda: clock[0], rate_limits=False, offload=False)
    try:
        await svc.upgrade_matches()
        rec = await repo.get_match(store, match_id)
        assert rec is not None and rec.status == "active" and rec.state is not None
        engine = registry.get(rec.game)
        assert rec.edition == engine.edition
        check = upgrade_kit.checker(rec.game, rec.state)
        humans = {s.seat: s.user_id for s in await repo.get_seats(store, match_id) if s.user_id is not None}

        async def watch(rec: repo.MatchRecord, pend: list, moves: int) -> None:
            check(rec.state)

        rec = await play_to_end(svc, match_id, humans, random.Random(path.name), clock, watch)
        assert rec.status == "finished" and rec.result is not None
        assert engine.result(rec.state) is not None
        exported = await svc.export(match_id)
        assert replay(json.loads(json.dumps(exported))) == rec.state
    finally:
        await svc.drain()
        await store.close()
