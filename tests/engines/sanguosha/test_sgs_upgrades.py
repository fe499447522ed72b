"""Stored games survive upgrades: a trigger frame remembers which handlers it took by name, so a
game stored while a timing point resolves neither skips nor repeats a handler when an upgrade
adds one there; edition-1 states (a position ``i``) are upgraded to names."""

from __future__ import annotations

import json
import random

from engines.base import upgrade_state
from engines.flow import Ctx, Flow, Pack, build_flow
from engines.sanguosha import ENGINE
from engines.sanguosha import rules as R


def _pack(seen: list[str], *, extra: bool) -> Pack:
    pack = Pack("test.upgrade")

    @pack.kind("root")
    def _root(ctx: Ctx, f: dict) -> None:
        if "ret" in f:
            ctx.take(f)
            ctx.pop(f)
            return
        ctx.fire("hit", {})

    @pack.on("hit", "first", priority=9)
    def _first(ctx: Ctx, ev: dict) -> None:
        seen.append("first")
        ctx.push("question")

    @pack.on("hit", "second", priority=1)
    def _second(ctx: Ctx, ev: dict) -> None:
        seen.append("second")

    if extra:  # what the upgrade adds, before "first" in the order
        @pack.on("hit", "added", priority=20)
        def _added(ctx: Ctx, ev: dict) -> None:
            seen.append("added")

    @pack.kind("question")
    def _question(ctx: Ctx, f: dict) -> None:
        if "reply" in f:
            ctx.take(f, "reply")
            ctx.pop(f)
            return
        ctx.ask(f, [0], "q")

    return pack


def test_a_handler_added_while_a_game_is_stored_inside_the_timing_point_runs_once_and_skips_none() -> None:
    seen: list[str] = []
    old = build_flow(_pack(seen, extra=False))
    state: dict = {}
    Flow.init(state)
    Ctx(old, state).push("root")
    old.run(Ctx(old, state))
    assert seen == ["first"] and Flow.asks(state)
    stored = json.loads(json.dumps(state))  # the bot is upgraded while the question is open
    new = build_flow(_pack(seen, extra=True))
    Flow.answer(stored, 0, ["ok"])
    new.run(Ctx(new, stored))
    assert seen == ["first", "added", "second"]  # "first" not repeated, "second" not skipped
    assert stored["flow"]["stack"] == []


def _inside_a_trigger(seed: int) -> dict:
    """An identity game stopped at a question asked from inside a timing point."""
    state = ENGINE.new_state({"heroes": "standard"}, 5, seed)
    rng = random.Random(seed)
    for _ in range(3000):
        if any(f["k"] == "trigger" and f["done"] for f in state["flow"]["stack"]) and ENGINE.pending(state):
            return state
        req = ENGINE.pending(state)[0]
        state, _ = ENGINE.apply(state, req.seat, ENGINE.ai_action(state, req.seat, rng, request=req), request=req)
    raise AssertionError("no question inside a trigger")


def test_an_edition_1_state_inside_a_trigger_is_upgraded_to_handler_names() -> None:
    state = _inside_a_trigger(7)
    old = json.loads(json.dumps(state))
    for frame in old["flow"]["stack"]:  # as edition 1 stored it: a position in the handler list
        if frame["k"] == "trigger":
            frame["i"] = len(frame.pop("done"))
    upgraded = upgrade_state(ENGINE, old, 1)
    assert upgraded == state
    assert ENGINE.edition == 2 and all("i" not in f for f in upgraded["flow"]["stack"] if f["k"] == "trigger")
    flow = R.flow_of(state)
    for frame in upgraded["flow"]["stack"]:
        if frame["k"] == "trigger":
            assert frame["done"] == [h.name for h in flow.triggers.handlers(frame["t"])][:len(frame["done"])]
