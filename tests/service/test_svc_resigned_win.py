"""A seat whose player resigned (the AI played it since) is never declared a winner."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import svc_toy_engine
from svc_helpers import BOB, CAROL, HOST, Recorder, clock, db_path, play_own_turn, recorder, store

from engines import registry
from engines.base import Msg, Result, State
from service.matches import MatchService
from store.db import Store

__all__ = ["clock", "db_path", "recorder", "store"]

RIGGED = "svc_rigged"


class Rigged(svc_toy_engine.ToyEngine):
    """The toy game whose winners, once it ends, are whatever the test says."""

    slug = RIGGED

    def __init__(self) -> None:
        self.winners: list[int] = []

    def result(self, state: State) -> Result | None:
        if state["winner"] is None:
            return None
        return Result(list(self.winners), None, Msg("toy.result", {"seat": self.winners}))


@pytest.fixture
def rigged() -> Iterator[Rigged]:
    engine = Rigged()
    registry.register(RIGGED, engine)
    yield engine
    registry.GAMES.pop(RIGGED, None)
    registry._cache.pop(RIGGED, None)


async def _finish_after_host_resigns(store: Store, recorder: Recorder) -> tuple[MatchService, int]:
    """Three players; the host resigns at once (the AI plays seat 0); the others play to the end."""
    service = MatchService(store, publisher=recorder, offload=False)
    info = await service.create_lobby(RIGGED, host_id=HOST, host_name="Host", locale="en",
                                      options={"target": "10"})
    await service.join(info.id, BOB, "Bob")
    await service.join(info.id, CAROL, "Carol")
    mid = (await service.start(info.id, HOST)).id
    await service.resign(mid, HOST)
    for _ in range(100):
        if (await service.get(mid)).status != "active":
            break
        for user in (BOB, CAROL):
            if await service.pending_for_user(mid, user):
                await play_own_turn(service, mid, user)
    return service, mid


@pytest.mark.parametrize(("winners", "kept", "reason", "summary"), [
    ([0], [], "winners_resigned", "core.result.winners_resigned"),
    ([0, 2], [2], "game", "core.result.resigned_excluded"),
    ([1], [1], "game", "toy.result"),
])
async def test_resigned_winners_are_removed(store: Store, recorder: Recorder, rigged: Rigged, winners: list[int],
                                            kept: list[int], reason: str, summary: str) -> None:
    rigged.winners = winners
    service, mid = await _finish_after_host_resigns(store, recorder)
    info = await service.get(mid)
    assert info.status == "finished"
    assert info.result is not None
    assert (info.result["winners"], info.result["reason"]) == (kept, reason)
    assert info.result["summary"]["key"] == summary
    final = recorder.changes[-1]
    assert final.kind == "finished" and final.note is not None and final.note.key == summary
    if summary != "toy.result":
        assert final.note.params == {"names": "Host"}
