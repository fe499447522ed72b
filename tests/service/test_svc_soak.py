"""Many matches at once, with duplicate clicks racing each other: every match must end up exactly
its seed replayed through its log, each request answered once (the second click of a pair gets
the first one's answer from the log), and every refusal must be a polite UserError."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path

import pytest
import svc_toy_engine
from svc_helpers import db_target, toy

from service.errors import UserError
from service.matches import MatchService
from store import repo
from store.db import Store

__all__ = ["db_target", "toy"]
pytestmark = pytest.mark.usefixtures("toy")


async def _player(service: MatchService, match_id: int, user: int, seed: int) -> int:
    """Keep answering this user's requests, each one clicked twice at once; returns how many
    clicks were answered as played."""
    rng = random.Random(seed)
    played = 0
    while (await service.get(match_id)).status == "active":
        rids = await service.pending_for_user(match_id, user)
        if not rids:
            await asyncio.sleep(0)
            continue
        step = await service.step(match_id, user, rids[0], [])
        verb = step.options[0].value
        amount = rng.choice(["1", "2"]) if verb == "add" else rng.choice(["0", "1", "2"])
        results = await asyncio.gather(*(service.act(match_id, user, rids[0], [verb, amount]) for _ in range(2)),
                                       return_exceptions=True)
        for r in results:
            if isinstance(r, UserError):
                assert r.msg.key in ("core.err.stale", "core.err.not_active")
            elif isinstance(r, BaseException):
                raise r
            else:
                played += 1
    return played


async def _soak(path: Path | str, matches: int) -> None:
    store = await Store.open(path)
    service = MatchService(store, rate_limits=False)
    try:
        ids = []
        for i in range(matches):
            info = await service.create_lobby(svc_toy_engine.SLUG, host_id=1000 + i, host_name="A", locale="en",
                                              options={"target": "30"})
            await service.join(info.id, 2000 + i, "B")
            if i % 3 == 0:
                await service.add_ai(info.id, 1000 + i)
            ids.append((await service.start(info.id, 1000 + i)).id)
        players = [_player(service, mid, user, mid * 10 + user % 7)
                   for i, mid in enumerate(ids) for user in (1000 + i, 2000 + i)]
        played = await asyncio.wait_for(asyncio.gather(*players), 120)
        answers = 0
        for mid in ids:
            info = await service.get(mid)
            assert info.status == "finished"
            row = await store.fetchone("SELECT seed, options, state FROM matches WHERE id = ?", (mid,))
            log = await repo.list_actions(store, mid)
            expected = svc_toy_engine.replay(row["seed"], len(info.seats), json.loads(row["options"]),
                                             [(a.seat, a.action) for a in log])
            assert json.loads(row["state"]) == expected
            assert [a.version for a in log] == sorted({a.version for a in log})
            mine = [a.request_id for a in log if a.source == "user"]
            assert len(mine) == len(set(mine))  # each request answered once
            answers += len(mine)
        # The double clicks really raced: more clicks were answered as played than moves were
        # made (the second of a pair is answered from the log).
        assert sum(played) > answers
    finally:
        await store.close()


async def test_concurrent_matches_with_racing_clicks(db_target: Path | str) -> None:
    await _soak(db_target, 8)


@pytest.mark.slow
async def test_concurrent_matches_soak(db_target: Path | str) -> None:
    await _soak(db_target, 100)
