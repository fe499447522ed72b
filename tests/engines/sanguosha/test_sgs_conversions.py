"""Card conversions answer every ask for the card they make, not only a 杀's 闪 (issue 10: "offered
wherever the converted card could be used"): 龙胆 (闪 as 杀) against 南蛮入侵 and through the
rounds of a 决斗, 武圣 (a red card as 杀) in a 决斗, 倾国 (a black hand card as 闪) against 万箭齐发."""

from __future__ import annotations

from typing import Any

import pytest
from sgs_testkit import act, hand_of, hp, options, table

from engines.sanguosha import ENGINE


@pytest.mark.parametrize(("hero", "trick", "cards", "skill"), [
    ("zhaoyun", "nanman", ["shan"], "longdan_sha"),
    ("zhaoyun", "juedou", ["shan", ("shan", "D", 2)], "longdan_sha"),  # two rounds of the duel
    ("guanyu", "juedou", [("tao", "H", 3)], "wusheng"),
    ("zhenji", "wanjian", [("guohe", "S", 3)], "qingguo"),
])
def test_a_conversion_answers_the_tricks_ask(hero: str, trick: str, cards: list[Any], skill: str) -> None:
    duel = trick == "juedou"
    need = "need_shan" if trick == "wanjian" else "need_sha"
    # in a duel the user has one 杀 fewer than the rounds, so it gives up in the last one
    user_hand = [trick] + ["sha"] * (len(cards) - 1 if duel else 0)
    state = table(4, "ZNFF", hands={0: user_hand, 1: cards}, heroes={1: hero})
    state = act(state, 0, hand_of(state, 0, trick), *([1] if duel else []))[0]
    converted = list(state["players"][1]["hand"])
    for cid in converted:
        assert [(r.seat, r.kind) for r in ENGINE.pending(state)] == [(1, need)]
        assert cid in options(state, 1, skill)
        state = act(state, 1, skill, cid)[0]
        if duel:
            state = act(state, 0, *(state["players"][0]["hand"][:1] or ["pass"]))[0]
    while ENGINE.pending(state)[0].kind != "play":  # the other targets have nothing to answer with
        req = ENGINE.pending(state)[0]
        assert req.kind == need and req.seat in (2, 3)
        state = act(state, req.seat, "pass")[0]
    assert hp(state, 1) == state["players"][1]["max"] and set(converted) <= set(state["discard"])
    assert [hp(state, s) for s in (0, 2, 3)] == ([3, 4, 4] if duel else [4, 3, 3])
