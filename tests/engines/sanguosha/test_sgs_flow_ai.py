"""The generic flow (stack, asks, triggers) on a toy game, timeouts, and the AI's sense."""

from __future__ import annotations

import random

from sgs_testkit import act, answer, hand_of, table

from engines.base import default_action
from engines.flow import Ctx, Flow, Triggers
from engines.sanguosha import ENGINE


def test_flow_triggers_run_by_priority_may_modify_cancel_and_ask() -> None:
    flow = Flow(Triggers())
    seen: list[str] = []

    @flow.kind("root")
    def _root(ctx: Ctx, f: dict) -> None:
        if "ret" in f:
            f["result"] = ctx.take(f)
            ctx.pop(f)
            return
        ctx.fire("hit", {"n": 1})

    @flow.triggers.on("hit", "double", priority=5)
    def _double(ctx: Ctx, ev: dict) -> None:
        seen.append("double")
        ev["n"] *= 2

    @flow.triggers.on("hit", "ask", priority=9)
    def _ask(ctx: Ctx, ev: dict) -> None:
        seen.append("ask")
        ctx.push("question")

    @flow.triggers.on("hit", "cancel", priority=1, can=lambda ctx, ev: ev["n"] > 5)
    def _cancel(ctx: Ctx, ev: dict) -> None:
        ev["cancel"] = True

    @flow.kind("question")
    def _question(ctx: Ctx, f: dict) -> None:
        if "reply" in f:
            below = ctx.below(f)
            below["ev"]["n"] += int(ctx.take(f, "reply")["action"][0])
            ctx.pop(f)
            return
        ctx.ask(f, [0, 1], "q", mode="any", default=("pass",), short=True)

    state: dict = {}
    Flow.init(state)
    root = Ctx(flow, state).push("root")
    flow.run(Ctx(flow, state))
    asks = Flow.asks(state)
    assert [a.seat for a in asks] == [0, 1] and asks[0].window and asks[0].mode == "any"
    assert not Flow.answer(state, 0, ["pass"])  # one pass: still open for seat 1, same id
    assert Flow.asks(state)[0].rid == asks[1].rid
    assert Flow.answer(state, 1, ["2"])
    flow.run(Ctx(flow, state))
    assert seen == ["ask", "double"]
    assert root["result"] == {"n": 6, "cancel": True}  # (1 + 2) * 2, then cancelled
    assert state["flow"]["stack"] == []


def test_windows_time_out_to_pass_and_turns_to_a_minimal_end() -> None:
    state = table(4, "ZNFF", hands={0: ["sha"], 1: ["shan"]})
    play = ENGINE.pending(state)[0]
    assert default_action(play) is None and ENGINE.timeout_action(state, play, random.Random(0)) == ["end"]
    state, _ = act(state, 0, hand_of(state, 0, "sha"), 1)
    req = ENGINE.pending(state)[0]
    assert default_action(req) == ["pass"] == ENGINE.timeout_action(state, req, random.Random(0))


def test_a_stale_request_is_refused() -> None:
    import pytest

    from engines.base import EngineError

    state = table(4, "ZNFF", hands={0: ["wuzhong"], 3: ["wuxie"]})
    state, _ = act(state, 0, hand_of(state, 0, "wuzhong"))
    old = ENGINE.pending(state)[0]
    state = answer(state, "nullify", 0, "pass")
    with pytest.raises(EngineError):
        ENGINE.apply(state, 0, ["pass"], old)


def test_ai_saves_itself_and_dodges_and_its_choice_ignores_hidden_cards() -> None:
    state = table(4, "ZNFF", turn=2, hp={1: 1}, hands={2: ["sha"], 1: ["tao"]})
    state, _ = act(state, 2, hand_of(state, 2, "sha"), 1)
    rng = random.Random(1)
    assert ENGINE.ai_action(state, 1, rng) == ["pass"]  # no 闪
    state, _ = act(state, 1, "pass")
    assert ENGINE.ai_action(state, 1, rng) == [hand_of(state, 1, "tao")]
    # a rebel attacks the lord, not the unknown players; the same whatever the other hands hold
    state = table(4, "ZFNF", turn=1, hands={1: ["sha", "shan"], 0: ["tao", "tao"], 3: ["wuxie"]})
    a = ENGINE.ai_action(state, 1, random.Random(2))
    other = table(4, "ZFNF", turn=1, hands={1: ["sha", "shan"], 0: ["shan", "jiedao"], 3: ["guohe"]})
    assert a == ENGINE.ai_action(other, 1, random.Random(2)) == [hand_of(state, 1, "sha"), "0"]


def test_an_8_player_nanman_with_everyone_passing_opens_14_windows_or_7_without_a_wuxie() -> None:
    """The figures the platform's e2e timing starts from: 7 targets × (无懈 window + 杀 request)
    while somebody holds a 无懈 (seat 5, who passes); only the 7 杀 requests when nobody does."""
    for holder, count in (({5: ["wuxie"]}, 14), ({}, 7)):
        state = table(8, "ZCCFFFFN", hands={0: ["nanman"], **holder})
        state, _ = act(state, 0, hand_of(state, 0, "nanman"))
        windows, applies, answerable = set(), 0, 0
        while ENGINE.pending(state)[0].kind != "play":
            reqs = ENGINE.pending(state)
            windows.add(reqs[0].window)
            answerable += sum(ENGINE.can_answer(state, r) for r in reqs)
            state, _ = ENGINE.apply(state, reqs[0].seat, list(reqs[0].default))
            applies += 1
        assert len(windows) == count and applies == (7 * 8 + 7 if holder else 7)
        assert answerable == (7 * 6 if holder else 0)  # seat 5 until its own pass, in each 无懈 window


def test_queued_timing_points_fire_between_frames_and_keep_a_childs_return_value() -> None:
    """The idle hook of the 三国杀 flow (连营, 枭姬): a trigger queued by a plain state change
    fires at the next frame boundary, and the value a child frame just returned to its parent
    survives it."""
    from engines.sanguosha.rules import FLOW
    from engines.sanguosha.skills import drain_queue

    flow = Flow(Triggers())
    flow.idle = drain_queue
    flow.kinds["deferred"] = FLOW.kinds["deferred"]
    fired: list[int] = []

    @flow.kind("parent")
    def _parent(ctx: Ctx, f: dict) -> None:
        if "ret" in f:
            f["got"] = ctx.take(f)
            ctx.pop(f)
            return
        ctx.push("child")

    @flow.kind("child")
    def _child(ctx: Ctx, f: dict) -> None:
        ctx.state["queued"].append(["lost", {"seat": 7}])  # as rules.take does
        ctx.pop(f, 42)

    @flow.triggers.on("lost", "watcher")
    def _watch(ctx: Ctx, ev: dict) -> None:
        fired.append(ev["seat"])

    state: dict = {"queued": []}
    Flow.init(state)
    parent = Ctx(flow, state).push("parent")
    flow.run(Ctx(flow, state))
    assert fired == [7] and parent["got"] == 42 and state["flow"]["stack"] == [] and not state["queued"]
