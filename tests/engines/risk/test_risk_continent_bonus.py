"""Continent-bonus armies are placed inside the continent that earned them (seed §2.(1).B)."""

from __future__ import annotations

import random

import pytest
from risk_testkit import C, act, check_invariants, position

from engines.base import EngineError
from engines.risk import ENGINE, rules
from engines.risk.engine import REFERENCE

AU = list(C.continents["australia"])
NA = list(C.continents["north_america"])


def _start_turn(holds: list[str], extra: list[str] = ()) -> dict:
    """Seat 1 ends its turn; seat 0 (holding ``holds`` and ``extra``) starts reinforcing."""
    owners = {t: 1 for t in C.territories} | {t: 0 for t in [*holds, *extra]}
    state = position(2, owners, phase="fortify", turn=1)
    state, _ = act(state, 1, "end")
    assert state["turn"] == 0 and state["phase"] == "reinforce"
    return state


def _place_max(state: dict, territory: str) -> int:
    return max(int(o.value) for o in ENGINE.step(state, 0, ["place", territory]).options)


def test_bonus_armies_only_inside_the_conquered_continent() -> None:
    """當玩家征服整個大陸區域…可根據…規定的各洲大陸的軍隊增加數量,將自家軍隊放在玩家所征服大陸區域的任一佔領領土地區內"""
    state = _start_turn(AU, ["alaska"])
    assert state["reinforcements"] == 3 and state["bonus_pools"] == {"australia": 2}
    for bad in ("5", "4"):
        with pytest.raises(EngineError):
            act(state, 0, "place", "alaska", bad)  # 3 + 2 (Australia) may not all go to Alaska
    assert _place_max(state, "alaska") == 3
    assert _place_max(state, "indonesia") == 5
    state, _ = act(state, 0, "place", "alaska", "3")
    assert state["phase"] == "reinforce" and state["bonus_pools"] == {"australia": 2}
    offered = [o.value for o in ENGINE.step(state, 0, ["place"]).options]
    assert offered == AU  # only Australia can still take armies
    with pytest.raises(EngineError):
        act(state, 0, "place", "alaska", "1")
    state, _ = act(state, 0, "place", "new_guinea", "2")
    assert state["armies"]["new_guinea"] == 3 and state["armies"]["alaska"] == 4
    assert state["phase"] == "attack" and state["bonus_pools"] == {}
    check_invariants(state)


def test_placing_inside_the_continent_spends_its_pool_first() -> None:
    state = _start_turn(AU, ["alaska"])
    state, _ = act(state, 0, "place", "indonesia", "1")
    assert state["bonus_pools"] == {"australia": 1} and state["reinforcements"] == 3
    state, _ = act(state, 0, "place", "eastern_australia", "3")  # 1 from the pool, 2 general
    assert state["bonus_pools"] == {} and state["reinforcements"] == 1
    assert _place_max(state, "alaska") == 1
    state, _ = act(state, 0, "place", "alaska", "1")
    assert state["phase"] == "attack"


def test_each_continent_keeps_its_own_pool() -> None:
    state = _start_turn(AU + NA)
    general = max(3, len(AU + NA) // 3)
    assert state["reinforcements"] == general and state["bonus_pools"] == {"north_america": 5, "australia": 2}
    assert _place_max(state, "alaska") == general + 5 and _place_max(state, "indonesia") == general + 2
    with pytest.raises(EngineError):
        act(state, 0, "place", "alaska", str(general + 6))  # Australia's 2 cannot go to North America
    state, _ = act(state, 0, "place", "alaska", str(general + 5))
    assert state["bonus_pools"] == {"australia": 2} and state["reinforcements"] == 0
    assert [o.value for o in ENGINE.step(state, 0, ["place"]).options] == AU
    state, _ = act(state, 0, "place", "western_australia", "2")
    assert state["phase"] == "attack"


def test_traded_armies_go_anywhere_and_the_plus_two_stays_on_its_card() -> None:
    state = _start_turn(AU, ["alaska", "peru"])
    cards = ["alaska", "argentina", "venezuela"]  # three infantry; alaska is held: +2 there
    for c in cards:
        state["deck"].remove(c)
    state["players"][0]["cards"] = list(cards)
    state, _ = act(state, 0, "trade", *cards)
    assert state["armies"]["alaska"] == 3
    assert state["reinforcements"] == 3 + 4 and state["bonus_pools"] == {"australia": 2}
    assert _place_max(state, "peru") == 7
    state, _ = act(state, 0, "place", "peru", "7")
    assert state["phase"] == "reinforce" and _place_max(state, "indonesia") == 2


def test_view_request_and_describe_show_the_pools() -> None:
    state = _start_turn(AU, ["alaska"])
    public = ENGINE.view(state, None)
    assert public["reinforcements_left"] == 5 and public["bonus_pools"] == {"australia": 2}
    assert ENGINE.view(state, 1)["bonus_pools"] == {"australia": 2}  # public information
    req = ENGINE.pending(state)[0]
    assert req.kind == "reinforce" and req.prompt.params == {"left": 5}
    lines = ENGINE.describe(public)
    pool_lines = [m for m in lines if m.key == "risk.desc.bonus_pool"]
    assert [m.params for m in pool_lines] == [{"n": 2, "continent": {"key": "risk.continent.australia"}}]
    prompt = ENGINE.step(state, 0, ["place"]).prompt
    assert prompt.key == "risk.prompt.place_where_bonus" and prompt.params == {"left": 5, "general": 3}
    labels = {o.value: o.label.key for o in ENGINE.step(state, 0, ["place"]).options}
    assert labels["indonesia"] == "risk.opt.territory_bonus" and labels["alaska"] == "risk.opt.territory"
    state, _ = act(state, 0, "place", "indonesia", "2")
    assert ENGINE.step(state, 0, ["place"]).prompt.key == "risk.prompt.place_where"


def test_the_turn_event_announces_the_bonus_publicly() -> None:
    owners = {t: 1 for t in C.territories} | {t: 0 for t in AU}
    state = position(2, owners, phase="fortify", turn=1)
    _, events = act(state, 1, "end")
    bonus = [e for e in events if e.msg.key == "risk.ev.continent_bonus"]
    assert len(bonus) == 1 and bonus[0].to is None
    assert bonus[0].msg.params["count"] == 2 and bonus[0].msg.params["continent"] == {"key": "risk.continent.australia"}
    turn = next(e for e in events if e.msg.key == "risk.ev.turn")
    assert turn.msg.params["armies"] == 3 + 2


def test_normal_ai_puts_bonus_armies_on_the_continents_border() -> None:
    state = _start_turn(AU, ["alaska", "kamchatka"])
    action = ENGINE.ai_action(state, 0, random.Random(1), REFERENCE)
    assert action == ["place", "indonesia", "2"]  # Australia's only border (Siam is the enemy's)
    state, _ = ENGINE.apply(state, 0, action)
    action = ENGINE.ai_action(state, 0, random.Random(1), REFERENCE)
    assert action[0] == "place" and action[2] == "3"
    state, _ = ENGINE.apply(state, 0, action)
    assert state["phase"] == "attack"


def test_normal_ai_bonus_for_an_enclosed_continent_goes_next_to_the_front() -> None:
    """Australia surrounded by own land: its bonus waits on the territory nearest the front."""
    state = _start_turn(AU, ["siam", "india", "china"])
    action = ENGINE.ai_action(state, 0, random.Random(1), REFERENCE)
    assert action == ["place", "indonesia", "2"]


@pytest.mark.parametrize("level", ["easy", "normal", "timeout"])
def test_ai_and_timeouts_respect_the_pools(level: str) -> None:
    """Every placement is legal and the phase ends; the normal AI and time-outs place each
    continent's bonus first, inside it, then the armies that may go anywhere."""
    for seed in range(12):
        state = _start_turn(AU + NA, ["siam", "peru"])
        rng = random.Random(seed)
        for _ in range(10):
            if state["phase"] != "reinforce":
                break
            before = dict(state["bonus_pools"])
            if level == "timeout":
                action = ENGINE.timeout_action(state, ENGINE.pending(state)[0], rng)
            else:
                action = ENGINE.ai_action(state, 0, rng, level)
            state, _ = ENGINE.apply(state, 0, action)  # legal, or it raises
            cont = C.continent_of[action[1]]
            if level != "easy" and before and cont not in before:
                raise AssertionError(f"{level} placed general armies before the bonus: {action}")
        assert state["phase"] == "attack" and state["bonus_pools"] == {}


def test_states_saved_before_pools_existed_still_play() -> None:
    state = position(2, {"japan": 1}, phase="reinforce", reinforcements=4)
    del state["bonus_pools"]
    assert ENGINE.view(state, None)["bonus_pools"] == {} and rules.reinforcements_left(state) == 4
    state, _ = act(state, 0, "place", "alaska", "4")
    assert state["phase"] != "reinforce" and state["armies"]["alaska"] == 5
