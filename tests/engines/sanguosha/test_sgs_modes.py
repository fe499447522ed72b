"""Modes: each mode plays on its own flow built from packs, so two modes live in one process.

A test-only mode, "last seat standing" (no roles, no heroes; whoever is left wins; a killer draws
one card), is installed beside identity mode. It brings its own ``setup`` frame and shares the
core frames and the equipment; identity mode's games play on exactly as before next to it."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from sgs_testkit import count_cards

from engines.adapter import random_action
from engines.base import key_ref
from engines.flow import Ctx, Pack
from engines.rng import Rng
from engines.sanguosha import ENGINE, modes
from engines.sanguosha import rules as R
from engines.sanguosha.data import deck
from engines.sanguosha.engine import new_game
from engines.sanguosha.packs import CORE, EQUIPMENT, IDENTITY, STANDARD_HEROES

State = dict[str, Any]
LAST = Pack("test.mode.last_seat")


@LAST.kind("setup")
def _setup(ctx: Ctx, f: dict[str, Any]) -> None:
    for seat in range(ctx.state["n"]):
        ctx.state["players"][seat]["hand"].extend(R.deal(ctx.state, 4))
    ctx.pop(f)
    ctx.push("game", cur=None)


class LastSeat(modes.Mode):
    name = "test_last_seat"
    packs = (CORE, EQUIPMENT, LAST)

    def new_game(self, options: dict[str, str], n: int, seed: int) -> State:
        state = modes.table(options, n, seed, mode=self.name)
        cards = list(deck())
        Rng(state).shuffle(cards)
        state["deck"] = cards
        for _ in range(n):
            state["players"].append({
                "role": "", "hp": 3, "max": 3, "alive": True, "revealed": True, "hero": "beginner",
                "gender": None, "kingdom": None, "skills": [], "hand": [],
                "equip": {"weapon": None, "armor": None, "plus": None, "minus": None}, "judge": []})
        flow = R.flow_of(state)
        ctx = Ctx(flow, state)
        ctx.push("setup")
        flow.run(ctx)
        return state

    def first_seat(self, state: State) -> int:
        return 0

    def starts_round(self, state: State, seat: int) -> bool:
        return seat == 0

    def allegiance_ref(self, state: State, seat: int) -> dict[str, Any]:
        return key_ref("sanguosha.role.hidden")

    def winners(self, state: State) -> list[int] | None:
        alive = [i for i, p in enumerate(state["players"]) if p["alive"]]
        return alive if len(alive) == 1 else None

    def side(self, state: State, won: list[int]) -> str:
        return "rebel"

    def reward(self, ctx: Ctx, seat: int, src: int) -> None:
        R.draw(ctx, src, 1)

    def public_allegiance(self, state: State, seat: int) -> str | None:
        return None

    def own_allegiance(self, state: State, seat: int) -> str | None:
        return None

    def decide(self, state: State, seat: int, rng: random.Random, level: str) -> list[str]:
        return random_action(ENGINE, state, seat, rng)


@pytest.fixture
def last_seat() -> Iterator[LastSeat]:
    mode = LastSeat()
    modes.install(mode)
    yield mode
    modes.uninstall(mode.name)


def play(state: State, seed: int, limit: int = 6000) -> State:
    rng = random.Random(seed)
    everyone = count_cards(state)
    for _ in range(limit):
        if ENGINE.result(state) is not None:
            return state
        req = ENGINE.pending(state)[0]
        state, _ = ENGINE.apply(state, req.seat, ENGINE.ai_action(state, req.seat, rng, request=req), request=req)
        assert count_cards(state) == everyone
    raise AssertionError("no end")


def test_two_modes_each_on_its_own_flow(last_seat: LastSeat) -> None:
    ident, last = R.FLOWS["identity"], R.FLOWS[last_seat.name]
    assert ident is not last
    assert ident.kinds["setup"] is not last.kinds["setup"]  # each mode's own set-up
    assert ident.kinds["death"] is last.kinds["death"]  # the shared core frame
    for flow in (ident, last):  # the shared equipment pack in both
        assert {h.name for h in flow.triggers.handlers("sha_effect")} >= {"cixiong", "qinggang", "renwang"}
    standard_only = {h.name for p in (STANDARD_HEROES,) for h in p.handlers}
    for timing in ("turn_start", "damaged", "phase_start", "draw_count"):
        assert not {h.name for h in last.triggers.handlers(timing)} & standard_only, timing


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_games_of_both_modes_interleave_in_one_process(last_seat: LastSeat, seed: int) -> None:
    ident = ENGINE.new_state({"heroes": "standard"}, 5, seed)
    other = new_game({"heroes": "beginner", "mode": last_seat.name}, 4, seed)  # no lobby option yet
    assert "mode" not in ident and other["mode"] == last_seat.name
    assert all(p["role"] in "ZCFN" for p in ident["players"])
    rng = random.Random(seed)
    for _ in range(40):  # step the two games alternately
        for state in (ident, other):
            if ENGINE.result(state) is None:
                req = ENGINE.pending(state)[0]
                new, _ = ENGINE.apply(state, req.seat, ENGINE.ai_action(state, req.seat, rng, request=req),
                                      request=req)
                state.clear()
                state.update(new)
    other = play(other, seed)
    won = other["winners"]
    assert won is not None and len(won) == 1 and won == [i for i, p in enumerate(other["players"]) if p["alive"]]
    assert ENGINE.result(other) is not None
    assert all(p["role"] is None for p in ENGINE.view(other, None)["players"])
    assert play(ident, seed)["winners"]


def test_a_mode_and_a_pack_cannot_be_installed_twice(last_seat: LastSeat) -> None:
    with pytest.raises(ValueError):
        modes.install(LastSeat())
    flow = R.FLOWS[last_seat.name]
    with pytest.raises(ValueError):
        IDENTITY.install(flow)  # its setup frame would shadow the mode's own
