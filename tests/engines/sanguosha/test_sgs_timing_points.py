"""The timing points more heroes need — HP lost, HP recovered, cards moved (with the reason and
the zones), phase end, turn end — each fired where it happens; a flow without a handler there is
unchanged (the same game, action for action)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from sgs_testkit import act, hp, table

from engines.flow import Ctx, Pack
from engines.sanguosha import ENGINE, modes
from engines.sanguosha import rules as R
from engines.sanguosha.engine import new_game
from engines.sanguosha.identity import IdentityMode

TIMINGS = ("hp_lost", "hp_recovered", "cards_moved", "phase_end", "turn_end")
SEEN: list[tuple[str, dict[str, Any], dict[str, Any]]] = []
WATCHER = Pack("test.watcher")


def _recorder(timing: str) -> None:
    @WATCHER.on(timing, f"watch_{timing}")
    def _record(ctx: Ctx, ev: dict[str, Any]) -> None:
        SEEN.append((timing, dict(ev), {"turn": ctx.state["turn"], "phase": ctx.state["phase"],
                                         "where": _where(ctx.state, ev)}))


def _where(state: dict[str, Any], ev: dict[str, Any]) -> list[list[Any]]:
    return [list(R.owner_zone(state, c)) for c in ev.get("cards", [])]


for _t in TIMINGS:
    _recorder(_t)


class Watched(IdentityMode):
    name = "test_watched"
    packs = (*IdentityMode.packs, WATCHER)


@pytest.fixture
def watched() -> Iterator[Watched]:
    mode = Watched()
    modes.install(mode)
    SEEN.clear()
    yield mode
    modes.uninstall(mode.name)


def _play(state: dict[str, Any], seed: int, limit: int = 4000) -> tuple[dict[str, Any], list[Any]]:
    rng = random.Random(seed)
    log = []
    for _ in range(limit):
        if ENGINE.result(state) is not None:
            break
        req = ENGINE.pending(state)[0]
        action = ENGINE.ai_action(state, req.seat, rng, request=req)
        log.append((req.seat, action))
        state, events = ENGINE.apply(state, req.seat, action, request=req)
        log.append([e.msg.key for e in events])
    return state, log


@pytest.mark.parametrize("seed", [3, 4])
def test_listeners_change_nothing_and_hear_every_change(watched: Watched, seed: int) -> None:
    plain, plain_log = _play(new_game({"heroes": "standard"}, 5, seed), seed)
    seen_state, seen_log = _play(new_game({"heroes": "standard", "mode": watched.name}, 5, seed), seed)
    assert seen_state["mode"] == watched.name
    assert seen_log == plain_log and seen_state["winners"] == plain["winners"]
    kinds = [t for t, _, _ in SEEN]
    assert set(kinds) >= {"cards_moved", "phase_end", "turn_end"}
    # Turn end: once per finished turn, after that turn's last phase end.
    ends = [ev["seat"] for t, ev, _ in SEEN if t == "turn_end"]
    assert len(ends) in (seen_state["turns"] - 1, seen_state["turns"])
    for t, ev, at in SEEN:
        if t == "phase_end":
            assert ev["phase"] in R.PHASES and at["turn"] == ev["seat"]
        if t == "cards_moved":
            assert ev["reason"] and len(ev["from"]) == len(ev["cards"])
            assert ev["to"][1] in ("hand", "discard", "proc", "equip", "judge")
    draws = [ev for t, ev, _ in SEEN if t == "cards_moved" and ev["reason"] == "draw"]
    assert draws and all(f == [None, "deck"] for ev in draws for f in ev["from"])
    heals = [ev for t, ev, _ in SEEN if t == "hp_recovered"]
    assert all(ev["n"] >= 1 for ev in heals)


def test_hp_lost_is_heard_when_kurou_loses_hp(watched: Watched) -> None:
    state = table(4, "ZNFF", heroes={0: "huanggai"}, hp={0: 3})
    state["mode"] = watched.name
    state = act(state, 0, "kurou")[0]
    assert hp(state, 0) == 2
    lost = [ev for t, ev, _ in SEEN if t == "hp_lost"]
    assert lost == [{"seat": 0, "n": 1}]
    drawn = [ev for t, ev, _ in SEEN if t == "cards_moved" and ev["reason"] == "draw"]
    assert drawn and drawn[-1]["to"] == [0, "hand"] and len(drawn[-1]["cards"]) == 2


def test_hp_recovered_is_heard_with_its_source(watched: Watched) -> None:
    state = table(4, "ZNFF", hp={0: 2}, hands={0: ["tao"]})
    state["mode"] = watched.name
    tao = state["players"][0]["hand"][0]
    state = act(state, 0, tao)[0]
    assert hp(state, 0) == 3
    assert [ev for t, ev, _ in SEEN if t == "hp_recovered"] == [{"seat": 0, "n": 1, "by": 0}]
    used = [ev for t, ev, _ in SEEN if t == "cards_moved" and tao in ev["cards"]]
    assert used[0]["from"] == [[0, "hand"]] and used[0]["to"] == [None, "proc"]


def test_equipping_and_delayed_tricks_are_moves_into_their_zones(watched: Watched) -> None:
    state = table(4, "ZNFF", hands={0: ["qinggang", "lebu"]})
    state["mode"] = watched.name
    sword, lebu = state["players"][0]["hand"]
    state = act(state, 0, sword)[0]
    state = act(state, 0, lebu, 2)[0]
    while any(r.kind == "nullify" for r in ENGINE.pending(state)):
        req = next(r for r in ENGINE.pending(state) if r.kind == "nullify")
        state = ENGINE.apply(state, req.seat, ["pass"], request=req)[0]
    into = {(ev["cards"][0], tuple(ev["to"])) for t, ev, _ in SEEN if t == "cards_moved"}
    assert (sword, (0, "equip")) in into and (lebu, (2, "judge")) in into
    assert state["players"][0]["equip"]["weapon"] == sword and state["players"][2]["judge"][0][0] == lebu
