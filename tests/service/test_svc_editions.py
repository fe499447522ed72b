"""Editions: a match stored by an older bot is upgraded when a newer one loads it, the upgrade is a
logged step that replays apply, and a state from a newer bot is refused with a clear message."""

from __future__ import annotations

import json

import pytest
import svc_toy_engine
from svc_helpers import (
    BOB,
    HOST,
    clock,
    db_path,
    play_own_turn,
    recorder,
    service,
    store,
    toy,
    two_humans,
)

from engines import registry
from engines.base import Engine, EngineError, State
from service.errors import UserError
from service.matches import MatchService
from service.replay import replay
from store import repo

__all__ = ["clock", "db_path", "recorder", "service", "store", "toy"]


class ToyV2(svc_toy_engine.ToyEngine):
    """The toy game's next edition: its states carry a ``v2`` field, which it insists on."""

    edition = 2

    def new_state(self, options: dict[str, str], seats: int, seed: int) -> State:
        return {**super().new_state(options, seats, seed), "v2": True}

    def upgrade_step(self, state: State, edition: int) -> State:
        if edition != 1:
            return super().upgrade_step(state, edition)
        return {**state, "v2": True}

    def apply(self, state, seat, action):  # type: ignore[no-untyped-def]
        assert state.get("v2"), "an edition-1 state reached edition 2's rules"
        return super().apply(state, seat, action)

    def replay_engine(self, edition: int) -> Engine:
        return svc_toy_engine.ENGINE if edition == 1 else super().replay_engine(edition)


@pytest.fixture
def upgrade_bot():  # type: ignore[no-untyped-def]
    """Swaps the registered toy engine for its next edition (what deploying a new bot does)."""
    def install() -> ToyV2:
        engine = ToyV2()
        registry.register(svc_toy_engine.SLUG, engine)
        return engine
    yield install
    registry.register(svc_toy_engine.SLUG, svc_toy_engine.ENGINE)


async def test_a_started_match_records_its_engines_edition(service: MatchService) -> None:
    info = await two_humans(service)
    rec = await repo.get_match(service.store, info.id)
    assert rec is not None and rec.edition == svc_toy_engine.ENGINE.edition == 1


async def test_an_older_match_is_upgraded_once_logged_and_replays(service: MatchService, upgrade_bot) -> None:  # type: ignore[no-untyped-def]
    info = await two_humans(service, target="10")
    await play_own_turn(service, info.id, HOST)
    await play_own_turn(service, info.id, BOB)
    upgrade_bot()
    assert await service.upgrade_matches() == 1
    assert await service.upgrade_matches() == 0  # done once
    rec = await repo.get_match(service.store, info.id)
    assert rec is not None and rec.edition == 2 and rec.state is not None and rec.state["v2"]
    last = (await repo.list_actions(service.store, info.id))[-1]
    assert (last.source, last.action, last.version) == ("system", ["upgrade", "1", "2"], rec.version)
    while (await service.get(info.id)).status == "active":  # edition 2's rules play it on
        user = HOST if await service.pending_for_user(info.id, HOST) else BOB
        await play_own_turn(service, info.id, user)
    exported = await service.export(info.id)
    assert exported["edition"] == 1  # the edition it started at
    final = await repo.get_match(service.store, info.id)
    assert final is not None and replay(json.loads(json.dumps(exported))) == final.state


async def test_an_older_match_acted_on_before_the_pass_is_upgraded_on_load(service: MatchService,
                                                                           upgrade_bot) -> None:  # type: ignore[no-untyped-def]
    info = await two_humans(service)
    upgrade_bot()
    assert (await service.view(info.id, None))["count"] == 0
    await play_own_turn(service, info.id, HOST)  # ToyV2.apply refuses a state that was not upgraded
    rec = await repo.get_match(service.store, info.id)
    assert rec is not None and rec.edition == 2 and rec.state is not None and rec.state["v2"]


async def test_a_state_from_a_newer_bot_is_refused_clearly(service: MatchService) -> None:
    info = await two_humans(service)
    async with service.store.transaction() as tx:
        await repo.update_match(tx, info.id, edition=7)
    with pytest.raises(UserError) as err:
        await service.view(info.id, None)
    assert err.value.msg.key == "core.err.edition"
    assert await service.upgrade_matches() == 0  # left as it is, not half-upgraded
    rec = await repo.get_match(service.store, info.id)
    assert rec is not None and rec.edition == 7


def test_an_engine_without_an_upgrade_step_says_so() -> None:
    class Toy3(svc_toy_engine.ToyEngine):
        edition = 3

    with pytest.raises(EngineError) as err:
        from engines.base import upgrade_state
        upgrade_state(Toy3(), {}, 1)
    assert err.value.msg.key == "core.err.edition"
