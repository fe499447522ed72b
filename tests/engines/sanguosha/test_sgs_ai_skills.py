"""The AI with part 2's hero skills: its skill hints (突袭, 刚烈, 流离, 青囊, 仁德, 遗计, 护驾)
choose with purpose, and games with random standard heroes never see an illegal AI action."""

from __future__ import annotations

import random

import pytest
from sgs_testkit import act, answer, asked, hand_of, table

from engines.sanguosha import ENGINE, ai, choices


@pytest.fixture(autouse=True)
def _strict(monkeypatch: pytest.MonkeyPatch) -> None:
    """A hint that raises fails the test (live play would fall back to the timeout answer)."""
    monkeypatch.setattr(ai, "STRICT", True)


def _ai(state: dict, seat: int) -> list[str]:
    return ENGINE.ai_action(state, seat, random.Random(0))


def test_the_renegade_chooses_a_hero_that_survives_a_rebel_one_that_attacks() -> None:
    """Offered 吕布, 华佗 and 马超, the AI renegade takes 华佗 (it must outlive everybody: a lone
    AI renegade won 71 % with 华佗 against 40–45 % with the attackers, docs "Third attempt"), a
    rebel takes 吕布 (:data:`ai.HERO_PREF`)."""
    from engines.flow import Flow

    state = ENGINE.new_state({"heroes": "standard"}, 8, 5)
    lord = ENGINE.pending(state)[0].seat
    state, _ = ENGINE.apply(state, lord, _ai(state, lord))
    frame = Flow.top_ask(state)[0]
    roles = {p["role"]: i for i, p in enumerate(state["players"])}
    for seat in (roles["N"], roles["F"]):
        frame["offers"][str(seat)] = ["lvbu", "huatuo", "machao"]
    assert _ai(state, roles["N"]) == ["1"]
    assert _ai(state, roles["F"]) == ["0"]


def test_tuxi_robs_two_enemies_rather_than_drawing() -> None:
    state = table(4, "ZNFF", hands={1: ["shan"], 2: ["tao"], 3: ["sha"]}, heroes={0: "zhangliao"},
                  phase="draw")
    assert asked(state) == [(0, "tuxi")]
    state["acts"][2][0] = state["acts"][3][0] = 4
    assert sorted(_ai(state, 0)) == ["2", "3"]


def test_ganglie_pays_weak_cards_when_low_and_takes_the_hit_when_healthy() -> None:
    def hit(hp0: int, cards: list[str]) -> dict:
        state = table(4, "ZNFF", hp={0: hp0}, hands={0: ["sha", *cards]}, heroes={1: "xiahoudun"},
                      top=[("sha", "S", 8)])
        state, _ = act(state, 0, hand_of(state, 0, "sha"), 1)
        state = answer(state, "need_shan", 1, "pass")
        state = answer(state, "skill", 1, "yes")
        assert asked(state) == [(0, "ganglie")]
        return state

    low = hit(2, ["tao", "shan"])
    assert sorted(_ai(low, 0)) == sorted(low["players"][0]["hand"])
    assert _ai(hit(4, ["tao", "shan"]), 0) == ["pass"]


def test_liuli_passes_the_strike_to_an_enemy() -> None:
    state = table(5, "ZCFFN", hands={0: ["sha"], 1: ["jiedao", "shan"]}, heroes={1: "daqiao"})
    state["acts"][2][0] = 4  # seat 2 looks like a rebel to the loyalist
    state, _ = act(state, 0, hand_of(state, 0, "sha"), 1)
    assert asked(state) == [(1, "liuli")]
    assert _ai(state, 1) == [hand_of(state, 1, "jiedao"), "2"]


def test_ai_games_with_standard_heroes_stay_legal() -> None:
    """18 all-AI games with standard heroes, 2–10 seats: every action legal, cards conserved,
    public views clean (the shared loop of test_sgs_ai)."""
    from test_sgs_ai import _ai_game

    for g in range(18):
        _ai_game(2 + g % 9, 900 + g, 25, heroes="standard")


def test_qingnang_heals_the_wounded_lord_first() -> None:
    state = table(5, "ZCFFN", turn=1, hp={0: 2}, hands={1: ["sha", "shan"]}, heroes={1: "huatuo"})
    assert _ai(state, 1) == ["qingnang", hand_of(state, 1, "sha"), "0"]


@pytest.mark.parametrize("lord_hp,own_hp,healed", [(1, 2, 0), (2, 3, 0), (2, 2, 7), (3, 2, 7)])
def test_qingnang_of_a_wounded_renegade_heals_the_lord_about_to_die(lord_hp: int, own_hp: int, healed: int) -> None:
    """Wounded itself, the renegade 华佗 still heals the lord first when the lord is at 1 HP, or
    at 2 while the renegade has 3 or more; otherwise itself."""
    state = table(8, "ZFCCFFFN", turn=7, hp={0: lord_hp, 7: own_hp}, hands={7: ["sha", "shan"]},
                  heroes={7: "huatuo"})
    assert _ai(state, 7) == ["qingnang", hand_of(state, 7, "sha"), str(healed)]


def test_rende_gives_spare_cards_to_a_proven_friend() -> None:
    state = table(5, "ZCFFN", hp={0: 2}, hands={0: ["shan", "shan", "wuxie", "wugu"]}, heroes={0: "liubei"})
    state["acts"][1][2] = 4  # seat 1 hurt seat 2 ...
    state["acts"][2][0] = 4  # ... who hurt the lord
    action = _ai(state, 0)
    assert action[:3] == ["rende", "1", hand_of(state, 0, "wugu")] and len(action) == 4


def test_yiji_hands_surplus_cards_to_the_lord() -> None:
    state = table(5, "ZCFFN", turn=2, hands={2: ["sha"], 1: ["shan", "jiedao"]}, heroes={1: "guojia"},
                  top=["tao", "wuzhong"])
    state, _ = act(state, 2, hand_of(state, 2, "sha"), 1)
    state = answer(state, "need_shan", 1, "pass")
    state = answer(state, "skill", 1, "yes")
    assert asked(state) == [(1, "yiji")]
    assert _ai(state, 1) == ["0", "0"]


def test_hujia_is_called_by_the_lord_and_answered_only_by_friends() -> None:
    # 曹操 lord at 0 without a 闪; 1 is a Wei rebel who attacked the lord, 3 a Wei loyalist.
    state = table(5, "ZFCCN", turn=4, hands={4: ["sha"], 1: ["shan"], 3: ["shan"]},
                  heroes={0: "caocao", 1: "zhangliao", 2: "guanyu", 3: "xuchu", 4: "ganning"})
    state["acts"][1][0] = 4
    state, _ = act(state, 4, hand_of(state, 4, "sha"), 0)
    assert asked(state) == [(0, "need_shan")] and _ai(state, 0) == ["hujia"]
    state = answer(state, "need_shan", 0, "hujia")
    assert asked(state) == [(1, "need_shan")] and _ai(state, 1) == ["pass"]  # a rebel: no help
    state = answer(state, "need_shan", 1, "pass")
    assert asked(state) == [(3, "need_shan")] and _ai(state, 3) == [hand_of(state, 3, "shan")]


# -- 激将 in the lord's play phase ----------------------------------------------------------------

def _jijiang_table(lord_hand: list[str], zhangfei_hand: list[str], zhangfei_to_lord: int) -> dict:
    """刘备 (lord, seat 0) and 张飞 (seat 1, 蜀); seats 2 and 3 are rebels, 3 in range and empty-
    handed. ``zhangfei_to_lord`` is 张飞's public record towards the lord (−3: he saved him with a
    桃; +4: he hurt him)."""
    state = table(4, "ZCFF", hands={0: lord_hand, 1: zhangfei_hand}, heroes={0: "liubei", 1: "zhangfei"})
    state["acts"][1][0] = zhangfei_to_lord
    return state


def _ai_until_lord_plays(state: dict) -> dict:
    """Every ask answered by the AI of the seat asked, until the lord's play phase asks again."""
    for _ in range(20):
        req = ENGINE.pending(state)[0]
        if (req.seat, req.kind) == (0, "play"):
            return state
        action = _ai(state, req.seat)
        choices.validate(state, req.seat, action)
        state, _ = ENGINE.apply(state, req.seat, action)
    raise AssertionError(asked(state))


def test_the_lord_without_a_sha_has_a_trusted_shu_hero_strike_for_him() -> None:
    state = _jijiang_table(["shan"], ["sha"], -3)
    assert [o.value for o in choices.step(state, 0, []).options] == ["rende", "jijiang", "end"]
    sha = hand_of(state, 1, "sha")
    assert _ai(state, 0) == ["jijiang", "3"]  # the rebel in range, not the friend
    state, _ = act(state, 0, "jijiang", 3)
    assert asked(state) == [(1, "need_sha")] and _ai(state, 1) == [sha]  # the loyalist answers
    state = _ai_until_lord_plays(state)
    assert state["players"][3]["hp"] == 3 and sha in state["discard"] and state["sha_used"] == 1
    assert _ai(state, 0) == ["end"]  # the one-杀 quota is spent: 激将 is no longer offered


def test_the_lord_does_not_call_on_a_shu_hero_who_hurt_him() -> None:
    state = _jijiang_table(["shan"], ["sha"], 4)
    assert "jijiang" in [o.value for o in choices.step(state, 0, []).options]
    assert _ai(state, 0) == ["end"]


def test_the_lord_plays_his_own_sha_before_calling_for_one() -> None:
    state = _jijiang_table(["sha"], ["sha"], -3)
    assert _ai(state, 0) == [hand_of(state, 0, "sha"), "3"]


def test_jijiang_is_not_called_again_in_a_turn_where_nobody_answered() -> None:
    state = _jijiang_table(["shan"], ["shan", "tao"], -3)  # trusted, but without a 杀
    assert _ai(state, 0) == ["jijiang", "3"]
    state, _ = act(state, 0, "jijiang", 3)
    state = _ai_until_lord_plays(state)
    assert state["players"][3]["hp"] == 4 and state["sha_used"] == 0
    assert "jijiang" in [o.value for o in choices.step(state, 0, []).options]  # still offered ...
    assert _ai(state, 0) == ["end"]  # ... but the AI does not ask the same helpers again
