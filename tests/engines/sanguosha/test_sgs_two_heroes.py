"""Seats with two heroes (main and deputy), each shown or hidden: gender, kingdom and skills come
from the shown heroes only; ``has_skill`` answers for shown heroes; a hidden hero's skill can be
used by revealing it as part of the use; views show a hidden hero only to its owner."""

from __future__ import annotations

import json
from typing import Any

from sgs_testkit import act, asked, hand_of, options, table

from engines.flow import Ctx
from engines.sanguosha import ENGINE
from engines.sanguosha import rules as R
from engines.sanguosha.heroes import hero

State = dict[str, Any]


def two_heroes(state: State, seat: int, main: str, deputy: str) -> State:
    p = state["players"][seat]
    p["heroes"] = [{"id": main, "shown": False}, {"id": deputy, "shown": False}]
    R.refresh_heroes(state, seat)
    return state


def at_phase(state: State, seat: int, phase: str) -> State:
    """Restart ``seat``'s turn at ``phase`` (after the two heroes are set, so their skills act)."""
    idx = R.PHASES.index(phase)
    state["turn"], state["phase"] = seat, phase
    state["flow"]["stack"] = [{"k": "game", "cur": seat}, {"k": "turn", "seat": seat, "st": (*R.PHASES, "end")[idx + 1]},
                              {"k": "phase", "seat": seat, "name": phase, "st": "start"}]
    flow = R.flow_of(state)
    flow.run(Ctx(flow, state))
    return state


def test_derived_from_the_shown_heroes_only() -> None:
    state = two_heroes(table(4, "ZCFF"), 1, "zhouyu", "sunquan")
    p = state["players"][1]
    assert (p["hero"], p["kingdom"], p["gender"], p["skills"]) == (None, None, None, [])
    assert not R.has_skill(state, 1, "zhiheng") and R.has_skill(state, 1, "zhiheng", hidden=True)
    p["heroes"][1]["shown"] = True
    R.refresh_heroes(state, 1)
    assert (p["hero"], p["kingdom"], p["gender"]) == ("sunquan", "wu", hero("sunquan").gender)
    assert R.has_skill(state, 1, "zhiheng") and not R.has_skill(state, 1, "yingzi")
    p["heroes"][0]["shown"] = True
    R.refresh_heroes(state, 1)
    assert p["gender"] == hero("zhouyu").gender and set(p["skills"]) == set(hero("zhouyu").skills) | {"zhiheng"}


def test_views_show_a_hidden_hero_to_its_owner_only() -> None:
    state = two_heroes(table(4, "ZCFF"), 1, "zhouyu", "sunquan")
    for viewer in (None, 0, 2, 3):
        view = ENGINE.view(state, viewer)
        assert view["players"][1]["heroes"] == [None, None]
        assert "zhouyu" not in json.dumps(view) and "sunquan" not in json.dumps(view)
    mine = ENGINE.view(state, 1)["you"]["heroes"]
    assert mine == [{"id": "zhouyu", "shown": False}, {"id": "sunquan", "shown": False}]


def test_a_hidden_heros_active_skill_is_offered_and_using_it_reveals_the_hero() -> None:
    state = two_heroes(table(4, "ZCFF", turn=1, hands={1: ["sha", "shan"]}), 1, "zhouyu", "sunquan")
    assert "zhiheng" in options(state, 1)
    state, events = act(state, 1, "zhiheng", hand_of(state, 1, "sha"))
    assert state["players"][1]["heroes"] == [{"id": "zhouyu", "shown": False}, {"id": "sunquan", "shown": True}]
    assert any(e.msg.key == "sanguosha.ev.hero_shown" and e.to is None for e in events)
    assert ENGINE.view(state, None)["players"][1]["heroes"] == [None, "sunquan"]


def test_a_hidden_heros_optional_skill_asks_and_a_yes_reveals_it() -> None:
    state = at_phase(two_heroes(table(4, "ZCFF", turn=1), 1, "xuchu", "caocao"), 1, "draw")
    assert asked(state) == [(1, "skill")]
    state, _ = act(state, 1, "yes")
    assert state["players"][1]["heroes"][0]["shown"] and state["players"][1]["hero"] == "xuchu"


def test_a_hidden_heros_skill_with_its_own_question_reveals_only_when_used() -> None:
    passed = at_phase(two_heroes(table(4, "ZCFF", turn=1, hands={2: ["sha"], 3: ["shan"]}),
                                 1, "caocao", "zhangliao"), 1, "draw")
    assert asked(passed) == [(1, "tuxi")]
    passed, _ = act(passed, 1, "pass")
    assert not any(h["shown"] for h in passed["players"][1]["heroes"])
    used = at_phase(two_heroes(table(4, "ZCFF", turn=1, hands={2: ["sha"], 3: ["shan"]}),
                               1, "caocao", "zhangliao"), 1, "draw")
    used, _ = act(used, 1, "2")
    assert used["players"][1]["heroes"][1]["shown"] and used["players"][1]["skills"] == list(hero("zhangliao").skills)


def test_a_hidden_heros_locked_skill_does_not_count_until_shown() -> None:
    state = two_heroes(table(5, "ZCFFN", turn=1), 1, "machao", "zhaoyun")
    before = R.distance(state, 1, 3)
    state["players"][1]["heroes"][0]["shown"] = True
    R.refresh_heroes(state, 1)
    assert R.distance(state, 1, 3) == before - 1  # 马术 now counts
