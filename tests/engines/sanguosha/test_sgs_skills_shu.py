"""蜀 heroes: 刘备 关羽 张飞 诸葛亮 赵云 马超 黄月英, each skill and the argued interactions
(激将 through several players and through 武圣, 空城 with no hand)."""

from __future__ import annotations

import json

from sgs_testkit import act, answer, asked, hand_of, hp, names, options, pass_all, table

from engines.sanguosha import ENGINE
from engines.sanguosha import rules as R
from engines.sanguosha.data import card


def _sha(state, user, target):
    return act(state, user, hand_of(state, user, "sha"), target)[0]


def test_rende_heals_once_the_second_card_is_given() -> None:
    state = table(4, "ZNFF", hands={0: ["shan", "tao", "sha"]}, hp={0: 2}, heroes={0: "liubei"})
    assert "rende" in options(state, 0)
    state = act(state, 0, "rende", 1, hand_of(state, 0, "shan"))[0]
    assert hp(state, 0) == 2 and names(state, 1) == ["shan"]
    state = act(state, 0, "rende", 2, hand_of(state, 0, "tao"))[0]
    assert hp(state, 0) == 3
    state = act(state, 0, "rende", 2, hand_of(state, 0, "sha"))[0]
    assert hp(state, 0) == 3  # once per phase
    assert "rende" not in options(state, 0)  # no hand left


def test_jijiang_in_the_play_phase_goes_through_several_shu_heroes_and_wusheng() -> None:
    # 刘备 lord at 0; 1 Shu without a red card or 杀; 2 Wei with a 杀 (never asked); 3 关羽 with a red card.
    state = table(5, "ZCFCN", hands={2: ["sha"], 3: [("tao", "H", 3)]},
                  heroes={0: "liubei", 1: "zhangfei", 2: "xuchu", 3: "guanyu"})
    assert "jijiang" in options(state, 0)
    state = act(state, 0, "jijiang", 1)[0]
    assert asked(state) == [(1, "need_sha")]
    state = answer(state, "need_sha", 1, "pass")
    assert asked(state) == [(3, "need_sha")] and "wusheng" in options(state, 3)
    peach = hand_of(state, 3, "tao")
    state = act(state, 3, "wusheng", peach)[0]
    assert asked(state) == [(1, "need_shan")]
    state = answer(state, "need_shan", 1, "pass")
    assert hp(state, 1) == 3 and state["sha_used"] == 1 and peach in state["discard"]


def test_jijiang_with_nobody_answering_uses_nothing() -> None:
    state = table(5, "ZCFCN", heroes={0: "liubei", 1: "zhangfei"})
    state = act(state, 0, "jijiang", 1)[0]
    state = answer(state, "need_sha", 1, "pass")
    assert asked(state) == [(0, "play")] and state["sha_used"] == 0


def test_jijiang_answers_a_nanman_for_the_lord() -> None:
    state = table(5, "ZCFCN", turn=4, hands={4: ["nanman"], 3: ["sha"]},
                  heroes={0: "liubei", 3: "machao"})
    state = act(state, 4, hand_of(state, 4, "nanman"))[0]
    state = pass_all(state)
    assert asked(state) == [(0, "need_sha")]
    state = answer(state, "need_sha", 0, "jijiang")
    state = answer(state, "need_sha", 3, hand_of(state, 3, "sha"))
    assert hp(state, 0) == 5


def test_wusheng_uses_an_equipped_red_card_as_a_strike() -> None:
    state = table(4, "ZNFF", equip={0: ["chitu"]}, heroes={0: "guanyu"})
    horse = state["players"][0]["equip"]["minus"]
    assert options(state, 0, "wusheng") == [horse]
    state = act(state, 0, "wusheng", horse, 1)[0]
    assert asked(state) == [(1, "need_shan")]


def test_paoxiao_strikes_any_number_of_times() -> None:
    state = table(4, "ZNFF", hands={0: ["sha", "sha", "sha"]}, heroes={0: "zhangfei"})
    for _ in range(3):
        state = _sha(state, 0, 1)
        state = answer(state, "need_shan", 1, "pass")
    assert hp(state, 1) == 1


def test_guanxing_puts_cards_on_top_and_bottom() -> None:
    state = table(4, "ZNFF", heroes={0: "zhugeliang"}, phase="prepare")
    assert asked(state) == [(0, "guanxing")]
    cards = ENGINE.view(state, 0)["you"]["ask"]["info"]["cards"]
    assert len(cards) == 4 and cards[0] == state["deck"][-1]  # X = living players
    public = json.dumps(ENGINE.view(state, None))
    assert not any(f'"{c}"' in public for c in cards)  # only 诸葛亮 sees them
    state = act(state, 0, cards[2], cards[0], "bottom")[0]
    # the draw phase drew the two put on top, in that order; the rest went to the bottom
    assert {cards[2], cards[0]} <= set(state["players"][0]["hand"])
    assert set(state["deck"][:2]) == {cards[1], cards[3]}


def test_kongcheng_with_no_hand_is_no_target_for_strike_or_duel() -> None:
    state = table(4, "ZNFF", hands={0: ["sha", "juedou"]}, heroes={1: "zhugeliang"})
    assert "1" not in options(state, 0, hand_of(state, 0, "sha"))
    assert "1" not in options(state, 0, hand_of(state, 0, "juedou"))
    state = table(4, "ZNFF", hands={0: ["sha"], 1: ["shan"]}, heroes={1: "zhugeliang"})
    assert "1" in options(state, 0, hand_of(state, 0, "sha"))


def test_longdan_both_ways() -> None:
    state = table(4, "ZNFF", hands={0: ["shan"], 1: ["sha"]}, heroes={0: "zhaoyun", 1: "zhaoyun"})
    shan = hand_of(state, 0, "shan")
    state = act(state, 0, "longdan_sha", shan, 1)[0]
    assert "longdan_shan" in options(state, 1)
    state = act(state, 1, "longdan_shan", hand_of(state, 1, "sha"))[0]
    assert hp(state, 1) == 4 and asked(state) == [(0, "play")]


def test_mashu_reaches_one_further() -> None:
    state = table(6, "ZCFFFN", heroes={0: "machao"})
    assert R.distance(state, 0, 2) == 1 and R.distance(state, 2, 0) == 2


def test_tieqi_red_judgement_cannot_be_dodged() -> None:
    state = table(4, "ZNFF", hands={0: ["sha"], 1: ["shan"]}, heroes={0: "machao"}, top=[("tao", "H", 3)])
    state = _sha(state, 0, 1)
    state = answer(state, "skill", 0, "yes")
    assert hp(state, 1) == 3 and names(state, 1) == ["shan"]
    state = table(4, "ZNFF", hands={0: ["sha"], 1: ["shan"]}, heroes={0: "machao"}, top=[("sha", "S", 8)])
    state = _sha(state, 0, 1)
    state = answer(state, "skill", 0, "yes")
    assert asked(state) == [(1, "need_shan")]


def test_jizhi_draws_for_an_ordinary_trick() -> None:
    state = table(4, "ZNFF", hands={0: ["wuzhong"]}, heroes={0: "huangyueying"})
    state = act(state, 0, hand_of(state, 0, "wuzhong"))[0]
    state = answer(state, "skill", 0, "yes")
    state = pass_all(state)
    assert len(state["players"][0]["hand"]) == 3


def test_jizhi_draws_when_she_plays_a_wuxie_in_someone_elses_window() -> None:
    """Ruling 16: a 无懈可击 she plays answering another's trick draws too (yes: 1 card; no: 0)."""
    for say_yes, drawn in ((True, ["shan"]), (False, [])):
        state = table(4, "ZNFF", hands={0: ["wuzhong"], 2: ["wuxie"]}, heroes={2: "huangyueying"},
                      top=["shan"])
        state = act(state, 0, hand_of(state, 0, "wuzhong"))[0]
        state = answer(state, "nullify", 2, hand_of(state, 2, "wuxie"))
        assert asked(state) == [(2, "skill")]
        state = answer(state, "skill", 2, "yes" if say_yes else "pass")
        state = pass_all(state)
        assert names(state, 2) == drawn
        assert names(state, 0) == [] and asked(state) == [(0, "play")]  # 无中生有 was negated


def test_jizhi_does_not_draw_for_a_delayed_trick() -> None:
    """集智 is for ordinary tricks only (its text): 乐不思蜀 and 闪电 are delayed, nothing is drawn."""
    state = table(4, "ZNFF", hands={0: ["lebu", "shandian"]}, heroes={0: "huangyueying"})
    state = act(state, 0, hand_of(state, 0, "lebu"), 1)[0]
    assert asked(state) == [(0, "play")] and names(state, 0) == ["shandian"]
    state = act(state, 0, hand_of(state, 0, "shandian"))[0]
    assert asked(state) == [(0, "play")] and names(state, 0) == []
    assert [e[1] for e in state["players"][1]["judge"]] == ["lebu"]
    assert [e[1] for e in state["players"][0]["judge"]] == ["shandian"]


def test_qicai_snatch_has_no_distance_limit() -> None:
    state = table(6, "ZCFFFN", hands={0: ["shunshou"], 3: ["shan"]}, heroes={0: "huangyueying"})
    assert "3" in options(state, 0, hand_of(state, 0, "shunshou"))
    plain = table(6, "ZCFFFN", hands={0: ["shunshou"], 3: ["shan"]})
    assert hand_of(plain, 0, "shunshou") not in options(plain, 0)  # nobody within distance 1
    assert card(hand_of(state, 0, "shunshou")).name == "shunshou"


def test_cixiong_works_between_standard_heroes_of_different_gender() -> None:
    state = table(4, "ZNFF", hands={0: ["sha"], 1: ["shan"]}, equip={0: ["cixiong"]},
                  heroes={0: "guanyu", 1: "zhenji", 2: "zhangfei"})
    state = _sha(state, 0, 1)
    assert asked(state) == [(0, "cixiong")]
    same = table(4, "ZNFF", hands={0: ["sha"]}, equip={0: ["cixiong"]}, heroes={0: "guanyu", 3: "zhangfei"})
    same = _sha(same, 0, 3)
    assert asked(same) == [(3, "need_shan")]


def test_a_conversion_or_a_lord_skill_counts_as_an_answer_for_the_service() -> None:
    """``can_answer`` lets the service pass at once for a seat with nothing to answer: 赵云 with
    only a 杀 can still answer a 杀 (龙胆 闪), the lord 刘备 with no 杀 can still answer a 南蛮入侵
    (激将, while a 蜀 hero lives) — but not once 激将 was used for this request."""
    state = table(4, "ZNFF", hands={0: ["sha"], 1: ["sha"]}, heroes={1: "zhaoyun"})
    state = act(state, 0, hand_of(state, 0, "sha"), 1)[0]
    req = next(r for r in ENGINE.pending(state) if r.seat == 1)
    assert ENGINE.can_answer(state, req) and "longdan_shan" in options(state, 1)
    state = table(4, "ZCFF", hands={2: ["nanman"]}, heroes={0: "liubei", 1: "guanyu"}, turn=2)
    state = act(state, 2, hand_of(state, 2, "nanman"))[0]
    state = pass_all(state)
    while asked(state)[0][0] != 0:
        seat, kind = asked(state)[0]
        state = answer(state, kind, seat, "pass") if kind != "nullify" else pass_all(state)
    req = next(r for r in ENGINE.pending(state) if r.seat == 0)
    assert ENGINE.can_answer(state, req) and "jijiang" in options(state, 0)
    state = act(state, 0, "jijiang")[0]
    state = answer(state, "need_sha", 1, "pass")
    req = next(r for r in ENGINE.pending(state) if r.seat == 0)
    assert not ENGINE.can_answer(state, req) and options(state, 0) == ["pass"]
