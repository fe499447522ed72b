"""Reaction time apart from the turn time (issue 19): a lobby option of games with response
windows, "auto" by the turn time, and a window's deadline from it, never from the turn clock."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from svc_helpers import BOB, HOST, Clock, Recorder, db_target

from engines import registry
from service import reaction
from service.errors import UserError
from service.matches import MatchService
from service.replay import replay
from service.settings import DEFAULTS, ServiceSettings
from store import repo
from store.db import Store

__all__ = ["db_target"]


@pytest.fixture
async def store(db_target: Path | str) -> AsyncIterator[Store]:
    s = await Store.open(db_target)
    yield s
    await s.close()


def test_auto_follows_the_turn_time() -> None:
    assert reaction.default_seconds(60, DEFAULTS) == DEFAULTS.window_seconds  # live: 12 s
    assert reaction.default_seconds(600, DEFAULTS) == DEFAULTS.window_seconds
    assert reaction.default_seconds(3600, DEFAULTS) == 120  # a twelfth of an hour, rounded down to a preset
    assert reaction.default_seconds(86400, DEFAULTS) == 7200  # a one-day turn: 2 h
    assert reaction.default_seconds(604800, DEFAULTS) == 28800
    assert reaction.default_seconds(60, ServiceSettings(window_seconds=15.0)) == 15.0


def test_an_unknown_or_missing_value_is_auto() -> None:
    """A match stored before the option (no key) or with a value a later bot dropped still loads."""
    for options in ({}, {"reaction": "auto"}, {"reaction": "13"}, {"reaction": "²"}):
        assert reaction.reaction_seconds(options, 86400, DEFAULTS) == 7200
    assert reaction.reaction_seconds({"reaction": "600"}, 86400, DEFAULTS) == 600


async def test_the_lobby_offers_it_for_games_with_windows_only(store: Store) -> None:
    svc = MatchService(store, clock=Clock(), offload=False)
    assert [s.name for s in reaction.lobby_specs(registry.get("sanguosha"))][-1] == "reaction"
    assert [s.name for s in reaction.lobby_specs(registry.get("jiwu"))][-1] == "reaction"
    assert "reaction" not in {s.name for s in reaction.lobby_specs(registry.get("risk"))}
    info = await svc.create_lobby("sanguosha", host_id=HOST, host_name="Host", locale="en",
                                  options={"reaction": "3600"})
    assert info.options["reaction"] == "3600"
    info = await svc.set_option(info.id, HOST, "heroes", "beginner")  # the engine's options keep it
    assert info.options == {"heroes": "beginner", "mode": "identity", "peek_next": "off", "lords": "off",
                            "reaction": "3600"}
    info = await svc.set_option(info.id, HOST, "reaction", "auto")
    assert info.options["reaction"] == "auto"
    with pytest.raises(UserError):
        await svc.set_option(info.id, HOST, "reaction", "5")
    risk = await svc.create_lobby("risk", host_id=BOB, host_name="Bob", locale="en")
    with pytest.raises(UserError):
        await svc.set_option(risk.id, BOB, "reaction", "600")


async def test_a_sanguosha_window_waits_the_reaction_time_and_the_game_replays(store: Store) -> None:
    """A one-day 三国杀 match with a 10-minute reaction time: a person's 闪/无懈/桃 request is due
    in 10 minutes (reminded 150 s before), the turn itself in a day; the engine never sees the
    option (the export replays)."""
    clock = Clock()
    svc = MatchService(store, publisher=Recorder(), clock=clock, offload=False)
    engine = registry.get("sanguosha")
    seen_window = seen_turn = False
    # the service deals with a fresh random seed: a deal can end with every window answered by a
    # standing answer or passed for a seat that cannot answer; then another match is dealt
    for _match in range(6):
        if seen_window and seen_turn:
            break
        mid = await _reaction_match(svc)
        seen_window, seen_turn = await _watch(svc, store, clock, engine, mid, seen_window, seen_turn)
    assert seen_window and seen_turn
    export = await svc.export(mid, include_state=True)
    assert export["options"]["reaction"] == "600"
    assert replay(export) == export["state"]


async def _reaction_match(svc: MatchService) -> int:
    info = await svc.create_lobby("sanguosha", host_id=HOST, host_name="Host", locale="en", turn_seconds=86400,
                                  options={"heroes": "beginner", "reaction": "600"})
    await svc.join(info.id, BOB, "Bob")
    return (await svc.start(info.id, HOST)).id


async def _watch(svc: MatchService, store: Store, clock: Clock, engine: Any, mid: int,
                 seen_window: bool, seen_turn: bool) -> tuple[bool, bool]:
    for _ in range(400):
        if (await svc.get(mid)).status != "active" or (seen_window and seen_turn):
            break
        state = (await repo.get_match(store, mid)).state
        rows = {d.request_id: d for d in await repo.get_deadlines(store, mid)}
        for req in engine.pending(state):
            d = rows[req.id]
            if d.auto != repo.AUTO_NONE:
                continue
            if req.short:
                assert d.due_at == pytest.approx(d.opened_at + 600) and d.remind_at == d.due_at - 150
                seen_window = True
            else:
                assert d.due_at - clock.now <= 86400 and d.due_at - clock.now > 3600
                seen_turn = True
        req = engine.pending(state)[0]
        user = HOST if req.seat == 0 else BOB
        action = engine.ai_action(state, req.seat, random.Random(len(rows)), "normal")
        await svc.act(mid, user, req.id, action)
        clock.advance(2)
        await svc.run_due()
    return seen_window, seen_turn
