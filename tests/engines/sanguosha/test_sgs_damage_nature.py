"""Damage has a nature; fire or thunder damage to a chained seat passes on along the chain
(the flow part of 铁索连环, which the 国战 deck brings)."""

from __future__ import annotations

from typing import Any

from sgs_testkit import hp, table

from engines.flow import Ctx
from engines.sanguosha import rules as R
from engines.sanguosha.frames import NATURES

State = dict[str, Any]


def _hit(state: State, dst: int, nature: str, src: int | None = 0, n: int = 1) -> list[Any]:
    flow = R.flow_of(state)
    ctx = Ctx(flow, state)
    ctx.push("damage", src=src, dst=dst, n=n, via="test", cards=[], nature=nature, st="start")
    flow.run(ctx)
    return ctx.events


def test_the_natures() -> None:
    assert NATURES == ("normal", "fire", "thunder")


def test_fire_damage_to_a_chained_seat_passes_on_in_turn_order_once() -> None:
    state = table(5, "ZCFFN", turn=0)
    for seat in (1, 3, 4):
        state["players"][seat]["chained"] = True
    events = _hit(state, 3, "fire")
    assert [hp(state, s) for s in range(5)] == [5, 3, 4, 3, 3]
    assert not any(state["players"][s].get("chained") for s in range(5))  # each unchained
    hurt = [e.msg.params["who"]["seat"] for e in events if e.msg.key == "sanguosha.ev.damage"]
    assert hurt == [3, 1, 4]  # the target first, then in turn order from the current player (0)


def test_normal_damage_does_not_pass_on_nor_unchain() -> None:
    state = table(4, "ZCFF")
    for seat in (1, 2):
        state["players"][seat]["chained"] = True
    _hit(state, 1, "normal")
    assert [hp(state, s) for s in range(4)] == [4, 3, 4, 4]
    assert state["players"][1]["chained"] and state["players"][2]["chained"]


def test_an_unchained_target_passes_nothing_on() -> None:
    state = table(4, "ZCFF")
    state["players"][2]["chained"] = True
    _hit(state, 1, "thunder")
    assert [hp(state, s) for s in range(4)] == [4, 3, 4, 4] and state["players"][2]["chained"]


def test_the_chain_starts_from_the_current_player() -> None:
    state = table(5, "ZCFFN", turn=2)
    for seat in (0, 1, 4):
        state["players"][seat]["chained"] = True
    events = _hit(state, 4, "thunder", src=None)
    hurt = [e.msg.params["who"]["seat"] for e in events if e.msg.key == "sanguosha.ev.damage"]
    assert hurt == [4, 0, 1]  # after the target: 2 (not chained), 3, 4 (done), 0, 1
