"""群 heroes: 华佗 吕布 貂蝉, each skill and the argued interactions (无双 against 决斗 from
either side, 急救 only outside one's own turn, 离间 cannot be negated)."""

from __future__ import annotations

from sgs_testkit import act, answer, asked, hand_of, hp, options, pass_all, table

from engines.sanguosha import ENGINE


def _sha(state, user, target):
    return act(state, user, hand_of(state, user, "sha"), target)[0]


def test_qingnang_heals_a_wounded_player_once_per_phase() -> None:
    state = table(4, "ZNFF", hands={0: ["shan", "shan"]}, hp={2: 2}, heroes={0: "huatuo"})
    assert options(state, 0, "qingnang", hand_of(state, 0, "shan")) == ["2"]
    state = act(state, 0, "qingnang", hand_of(state, 0, "shan"), 2)[0]
    assert hp(state, 2) == 3 and "qingnang" not in options(state, 0)


def test_jijiu_saves_with_a_red_card_outside_his_turn_only() -> None:
    state = table(4, "ZCFN", turn=3, hands={3: ["sha"], 1: [("shan", "D", 2)]}, hp={0: 1},
                  heroes={1: "huatuo"})
    state = _sha(state, 3, 0)
    state = answer(state, "need_shan", 0, "pass")
    assert "jijiu" in options(state, 1)
    red = hand_of(state, 1, "shan")
    for seat in (3, 0, 1, 2):
        state = act(state, seat, *(["jijiu", red] if seat == 1 else ["pass"]))[0]
    assert hp(state, 0) == 1
    mine = table(4, "ZCFN", turn=1, hands={1: ["sha", ("shan", "D", 2)]}, hp={2: 1}, heroes={1: "huatuo"})
    mine = _sha(mine, 1, 2)
    mine = answer(mine, "need_shan", 2, "pass")
    assert "jijiu" not in options(mine, 1)  # his own turn


def test_wushuang_strike_needs_two_dodges() -> None:
    state = table(4, "ZNFF", hands={0: ["sha"], 1: ["shan", "shan"]}, heroes={0: "lvbu"})
    state = _sha(state, 0, 1)
    state = answer(state, "need_shan", 1, hand_of(state, 1, "shan"))
    assert asked(state) == [(1, "need_shan")]
    state = answer(state, "need_shan", 1, hand_of(state, 1, "shan"))
    assert hp(state, 1) == 4
    state = table(4, "ZNFF", hands={0: ["sha"], 1: ["shan"]}, heroes={0: "lvbu"})
    state = _sha(state, 0, 1)
    state = answer(state, "need_shan", 1, hand_of(state, 1, "shan"))
    state = answer(state, "need_shan", 1, "pass")
    assert hp(state, 1) == 3  # one 闪 is not enough


def test_wushuang_in_a_duel_he_starts_the_other_plays_two_each_time() -> None:
    state = table(4, "ZNFF", hands={0: ["juedou", "sha"], 1: ["sha", "sha", "sha"]}, heroes={0: "lvbu"})
    state = act(state, 0, hand_of(state, 0, "juedou"), 1)[0]
    state = pass_all(state)
    state = answer(state, "need_sha", 1, hand_of(state, 1, "sha"))
    assert asked(state) == [(1, "need_sha")]  # a second 杀 before it is 吕布's turn
    state = answer(state, "need_sha", 1, hand_of(state, 1, "sha"))
    assert asked(state) == [(0, "need_sha")]
    state = answer(state, "need_sha", 0, hand_of(state, 0, "sha"))  # 吕布 needs only one
    state = answer(state, "need_sha", 1, hand_of(state, 1, "sha"))
    state = answer(state, "need_sha", 1, "pass")
    assert hp(state, 1) == 3 and hp(state, 0) == 4


def test_wushuang_when_he_is_challenged() -> None:
    state = table(4, "ZNFF", hands={0: ["juedou", "sha"], 1: ["sha"]}, heroes={1: "lvbu"})
    state = act(state, 0, hand_of(state, 0, "juedou"), 1)[0]
    state = pass_all(state)
    state = answer(state, "need_sha", 1, hand_of(state, 1, "sha"))
    state = answer(state, "need_sha", 0, hand_of(state, 0, "sha"))
    assert asked(state) == [(0, "need_sha")]  # the challenger needs a second 杀
    state = answer(state, "need_sha", 0, "pass")
    assert hp(state, 0) == 3


def test_lijian_makes_one_man_duel_another_without_negation() -> None:
    state = table(4, "ZNFF", hands={0: ["shan"], 1: ["wuxie"]},
                  heroes={0: "diaochan", 1: "guanyu", 2: "zhangfei", 3: "zhenji"})
    assert "3" not in options(state, 0, "lijian", hand_of(state, 0, "shan"))  # 甄姬 is no man
    state = act(state, 0, "lijian", hand_of(state, 0, "shan"), 1, 2)[0]
    assert asked(state) == [(2, "need_sha")]  # no 无懈 window
    state = answer(state, "need_sha", 2, "pass")
    assert hp(state, 2) == 3 and ENGINE.pending(state)[0].kind == "play"


def test_biyue_draws_at_the_finish_phase() -> None:
    state = table(4, "ZNFF", heroes={0: "diaochan"})
    state = act(state, 0, "end")[0]
    assert asked(state) == [(0, "skill")]
    state = answer(state, "skill", 0, "yes")
    assert len(state["players"][0]["hand"]) == 1
