"""Stored games survive upgrades: a trigger frame remembers which handlers it took by name, so a
game stored while a timing point resolves neither skips nor repeats a handler when an upgrade
adds one there; edition-1 states (a position ``i``) are upgraded to names."""

from __future__ import annotations

import json
import random

import pytest

from engines.base import upgrade_state
from engines.flow import Ctx, Flow, Pack, build_flow
from engines.sanguosha import ENGINE, stages
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
    assert ENGINE.edition >= 2 and all("i" not in f for f in upgraded["flow"]["stack"] if f["k"] == "trigger")
    flow = R.flow_of(state)
    for frame in upgraded["flow"]["stack"]:
        if frame["k"] == "trigger":
            assert frame["done"] == [h.name for h in flow.triggers.handlers(frame["t"])][:len(frame["done"])]


# -- edition 3: named stages --------------------------------------------------------------------

def _as_edition_2(state: dict) -> dict:
    """``state`` with every named stage written back as the integer edition 2 stored."""
    old = json.loads(json.dumps(state))
    for frame in old["flow"]["stack"]:
        if "st" not in frame:
            continue
        table = dict(stages.LEGACY[frame["k"]])
        if frame["k"] == "effect":
            table.update(stages.EFFECT.get(frame["name"], {}))
        back = {name: n for n, name in sorted(table.items(), reverse=True)}  # "end": the smallest
        frame["st"] = back[frame["st"]]
    return old


@pytest.mark.parametrize(("seats", "seed"), [(5, 1), (8, 2), (3, 3), (10, 4), (6, 5)])
def test_the_legacy_table_means_what_edition_2_code_meant(seats: int, seed: int) -> None:
    """At every step of seeded AI games, the state stored the edition-2 way (integer stages) plays
    the next action exactly as the named one does, read lazily by the flow and upgraded eagerly."""
    state = ENGINE.new_state({"heroes": "standard"}, seats, seed)
    rng = random.Random(seed)
    named_seen: set[tuple[str, str]] = set()
    for _ in range(2500):
        if ENGINE.result(state) is not None:
            break
        req = ENGINE.pending(state)[0]
        action = ENGINE.ai_action(state, req.seat, rng, request=req)
        old = _as_edition_2(state)
        assert upgrade_state(ENGINE, old, 2) == state
        new, events = ENGINE.apply(state, req.seat, action)
        lazy, lazy_events = ENGINE.apply(old, req.seat, action)
        stages.name_stages(lazy)  # the frames that did not run yet are named when they do
        assert lazy == new and lazy_events == events
        named_seen |= {(f["k"], f["st"]) for f in state["flow"]["stack"] if "st" in f}
        state = new
    assert ENGINE.result(state) is not None
    assert all(isinstance(st, str) for _, st in named_seen) and len(named_seen) > 20


def test_a_stage_added_inside_a_frame_leaves_a_stored_game_where_it_was() -> None:
    """Why names: a new step before the one a stored game waits at must not move it."""
    def pack(extra: bool, seen: list[str]) -> Pack:
        p = Pack("test.stages")

        @p.kind("ask_twice")
        def _frame(ctx: Ctx, f: dict) -> None:
            if f["st"] == "start":
                f["st"] = "warned" if extra else "first"
                seen.append("start")
                ctx.ask(f, [0], "q")
                return
            ctx.take(f, "reply")
            if f["st"] == "warned":
                seen.append("warned")
                f["st"] = "first"
                return
            seen.append(f["st"])
            if f["st"] == "first":
                f["st"] = "second"
                ctx.ask(f, [0], "q")
                return
            ctx.pop(f)

        return p

    seen: list[str] = []
    old = build_flow(pack(False, seen))
    state: dict = {}
    Flow.init(state)
    Ctx(old, state).push("ask_twice", st="start")
    old.run(Ctx(old, state))
    Flow.answer(state, 0, ["ok"])
    old.run(Ctx(old, state))
    assert seen == ["start", "first"]  # stored now, waiting at "second"
    new = build_flow(pack(True, seen))
    Flow.answer(state, 0, ["ok"])
    new.run(Ctx(new, state))
    assert seen == ["start", "first", "second"] and state["flow"]["stack"] == []


def test_a_stage_edition_2_never_stored_is_refused_not_guessed() -> None:
    with pytest.raises(KeyError):
        stages.legacy_name({"k": "damage", "st": 17})
    with pytest.raises(KeyError):
        stages.legacy_name({"k": "no_such_kind", "st": 0})
