"""吴 heroes: 孙权 甘宁 吕蒙 黄盖 周瑜 大乔 陆逊 孙尚香, each skill and the argued interactions
(流离 redirecting 杀, 反间 suits, 救援 only from Wu heroes)."""

from __future__ import annotations

import pytest
from sgs_testkit import act, answer, asked, hand_of, hp, names, options, pass_all, table

from engines.sanguosha import ENGINE
from engines.sanguosha.data import card


def _sha(state, user, target):
    return act(state, user, hand_of(state, user, "sha"), target)[0]


def test_zhiheng_discards_and_draws_as_many_once_per_phase() -> None:
    state = table(4, "ZNFF", hands={0: ["shan", "shan"]}, equip={0: ["chitu"]}, heroes={0: "sunquan"})
    horse = state["players"][0]["equip"]["minus"]
    state = act(state, 0, "zhiheng", hand_of(state, 0, "shan"), horse)[0]
    assert len(state["players"][0]["hand"]) == 3 and horse in state["discard"]
    assert "zhiheng" not in options(state, 0)


def _save_lord_with_peach_of(saver: int, hero_of_saver: str) -> int:
    state = table(4, "ZCFN", turn=3, hands={3: ["sha"], saver: ["tao"]}, hp={0: 1},
                  heroes={0: "sunquan", saver: hero_of_saver})
    state = _sha(state, 3, 0)
    state = answer(state, "need_shan", 0, "pass")
    for seat in (3, 0, 1, 2):  # the dying window asks everyone at once
        state = act(state, seat, hand_of(state, saver, "tao") if seat == saver else "pass")[0]
    return hp(state, 0)


def test_jiuyuan_a_wu_peach_heals_the_dying_lord_two() -> None:
    assert _save_lord_with_peach_of(1, "ganning") == 2
    assert _save_lord_with_peach_of(1, "guanyu") == 1  # a Shu hero's 桃: 1 as usual


def test_qixi_uses_a_black_card_as_dismantle() -> None:
    state = table(4, "ZNFF", hands={0: [("sha", "S", 8)], 1: ["shan"]}, heroes={0: "ganning"})
    state = act(state, 0, "qixi", hand_of(state, 0, "sha"), 1)[0]
    state = pass_all(state)
    state = answer(state, "pick", 0, "hand")
    assert not state["players"][1]["hand"]


def test_keji_skips_discard_without_a_strike() -> None:
    state = table(4, "ZNFF", hands={0: ["shan"] * 6}, hp={0: 2}, heroes={0: "lvmeng"})
    state = act(state, 0, "end")[0]
    assert asked(state) == [(0, "skill")]
    state = answer(state, "skill", 0, "yes")
    assert len(state["players"][0]["hand"]) == 6
    state = table(4, "ZNFF", hands={0: ["sha"] + ["shan"] * 5}, hp={0: 2}, heroes={0: "lvmeng"})
    state = _sha(state, 0, 1)
    state = answer(state, "need_shan", 1, "pass")
    state = act(state, 0, "end")[0]
    assert asked(state) == [(0, "discard")]


def test_keji_counts_a_strike_played_in_answer_to_his_own_duel() -> None:
    """Ruling 10: a 杀 he *plays* as a response in his play phase counts like one he uses. The
    two tables differ only in whether 吕蒙 answers the duel's 杀 with his own."""
    for answers, asked_next in ((True, "discard"), (False, "skill")):
        state = table(4, "ZNFF", hands={0: ["juedou", "sha", "shan", "shan", "shan"], 1: ["sha"]},
                      hp={0: 2}, heroes={0: "lvmeng"})
        state = act(state, 0, hand_of(state, 0, "juedou"), 1)[0]
        state = answer(state, "need_sha", 1, hand_of(state, 1, "sha"))
        state = answer(state, "need_sha", 0, hand_of(state, 0, "sha") if answers else "pass")
        if answers:
            state = answer(state, "need_sha", 1, "pass")
        assert (hp(state, 0), hp(state, 1)) == ((2, 3) if answers else (1, 4))
        state = act(state, 0, "end")[0]
        assert len(state["players"][0]["hand"]) > hp(state, 0)  # he would have to discard
        assert asked(state) == [(0, asked_next)], answers


def test_keji_ignores_a_strike_played_in_another_players_turn() -> None:
    """Only his own play phase counts: a 杀 answering 南蛮入侵 in seat 3's turn does not stop him
    skipping his discard phase in his next turn."""
    state = table(4, "ZNFF", turn=3, hands={3: ["nanman"], 0: ["sha", "shan", "shan", "shan"]},
                  hp={0: 2}, heroes={0: "lvmeng"})
    state = act(state, 3, hand_of(state, 3, "nanman"))[0]
    while asked(state)[0] != (3, "play"):
        req = ENGINE.pending(state)[0]
        state = act(state, req.seat, hand_of(state, 0, "sha") if req.seat == 0 else "pass")[0]
    assert names(state, 0) == ["shan"] * 3 and hp(state, 0) == 2
    state = act(state, 3, "end")[0]
    assert asked(state) == [(0, "play")] and len(state["players"][0]["hand"]) == 5
    state = act(state, 0, "end")[0]
    assert asked(state) == [(0, "skill")]
    state = answer(state, "skill", 0, "yes")
    assert len(state["players"][0]["hand"]) == 5 and asked(state)[0][0] == 1


def test_kurou_loses_hp_then_draws_and_can_go_dying() -> None:
    state = table(4, "ZNFF", heroes={0: "huanggai"}, hp={0: 2})
    state = act(state, 0, "kurou")[0]
    assert hp(state, 0) == 1 and len(state["players"][0]["hand"]) == 2
    state = act(state, 0, "kurou")[0]
    assert asked(state)[0][1] == "peach" and hp(state, 0) == 0


@pytest.mark.parametrize("saver", [2, 1])
def test_kurou_at_one_hp_draws_two_only_after_a_peach_saves_him(saver: int) -> None:
    """Ruling 11: at 1 HP 苦肉 makes him dying; a 桃 (his own or another's) saves him and only
    then does he draw the two cards."""
    state = table(4, "ZNFF", turn=2, hp={2: 1}, hands={saver: ["tao"]}, heroes={2: "huanggai"},
                  top=[("sha", "S", 7), ("shan", "D", 2)])
    top_two = state["deck"][-2:]
    state = act(state, 2, "kurou")[0]
    assert sorted(r.seat for r in ENGINE.pending(state) if r.kind == "peach") == [0, 1, 2, 3]
    assert hp(state, 2) == 0 and state["deck"][-2:] == top_two  # nothing drawn while dying
    assert names(state, 2) == (["tao"] if saver == 2 else [])
    for seat in (2, 3, 0, 1):
        state = act(state, seat, hand_of(state, saver, "tao") if seat == saver else "pass")[0]
    assert hp(state, 2) == 1 and sorted(state["players"][2]["hand"]) == sorted(top_two)
    assert asked(state) == [(2, "play")]


def test_kurou_at_one_hp_with_nobody_saving_him_he_dies_and_draws_nothing() -> None:
    """Ruling 11: he dies, his turn ends at once, and the two cards he would have drawn are still
    on top of the deck: the next player draws them in its draw phase."""
    state = table(4, "ZNFF", turn=2, hp={2: 1}, hands={2: ["shan"]}, heroes={2: "huanggai"},
                  top=[("sha", "S", 7), ("shan", "D", 2)])
    top_two = state["deck"][-2:]
    state = act(state, 2, "kurou")[0]
    for seat in (2, 3, 0, 1):
        state = act(state, seat, "pass")[0]
    assert not state["players"][2]["alive"] and not state["players"][2]["hand"]
    assert not set(top_two) & set(state["discard"])
    assert asked(state) == [(3, "play")] and sorted(state["players"][3]["hand"]) == sorted(top_two)


def test_yingzi_draws_three() -> None:
    state = table(4, "ZNFF", heroes={0: "zhouyu"}, phase="draw")
    state = answer(state, "skill", 0, "yes")
    assert len(state["players"][0]["hand"]) == 3


def test_fanjian_damages_only_on_a_different_suit() -> None:
    state = table(4, "ZNFF", hands={0: [("tao", "H", 3)]}, heroes={0: "zhouyu"})
    state = act(state, 0, "fanjian", 1)[0]
    assert asked(state) == [(1, "fanjian_suit")] and options(state, 1) == ["S", "H", "C", "D"]
    state = act(state, 1, "S")[0]
    assert hp(state, 1) == 3 and names(state, 1) == ["tao"]
    state = table(4, "ZNFF", hands={0: [("tao", "H", 3)]}, heroes={0: "zhouyu"})
    state = act(state, 0, "fanjian", 1)[0]
    state = act(state, 1, "H")[0]
    assert hp(state, 1) == 4 and names(state, 1) == ["tao"] and "fanjian" not in options(state, 0)


def test_guose_uses_a_diamond_as_indulgence() -> None:
    state = table(4, "ZNFF", hands={0: [("shan", "D", 2)]}, heroes={0: "daqiao"})
    state = act(state, 0, "guose", hand_of(state, 0, "shan"), 1)[0]
    assert state["players"][1]["judge"][0][1] == "lebu"


def test_liuli_redirects_the_strike_in_range_not_to_its_user() -> None:
    state = table(5, "ZCFFN", hands={0: ["sha"], 1: ["shan"], 2: ["tao"]}, heroes={1: "daqiao"})
    state = _sha(state, 0, 1)
    assert asked(state) == [(1, "liuli")]
    shan = hand_of(state, 1, "shan")
    assert set(options(state, 1, shan)) == {"2"}  # in range, not the user 0; 3 is too far
    state = act(state, 1, shan, 2)[0]
    assert asked(state) == [(2, "need_shan")]
    state = answer(state, "need_shan", 2, "pass")
    assert hp(state, 2) == 3 and hp(state, 1) == 3


def test_liuli_cannot_move_a_strike_to_kongcheng_with_no_hand() -> None:
    state = table(5, "ZCFFN", hands={0: ["sha"], 1: ["shan"]}, heroes={1: "daqiao", 2: "zhugeliang"})
    state = _sha(state, 0, 1)
    assert asked(state) == [(1, "need_shan")]  # nobody to move it to: not even asked


def test_qianxun_is_no_target_of_snatch_or_indulgence() -> None:
    state = table(4, "ZNFF", hands={0: ["shunshou", "lebu"], 1: ["shan"]}, heroes={1: "luxun"})
    assert hand_of(state, 0, "shunshou") not in options(state, 0)  # 陆逊 was the only one in reach
    assert "1" not in options(state, 0, hand_of(state, 0, "lebu"))


def test_lianying_draws_when_the_last_hand_card_goes() -> None:
    state = table(4, "ZNFF", hands={0: ["sha"]}, heroes={0: "luxun"})
    state = _sha(state, 0, 1)
    assert asked(state) == [(0, "skill")]
    state = answer(state, "skill", 0, "yes")
    assert len(state["players"][0]["hand"]) == 1 and asked(state) == [(1, "need_shan")]


def test_xiaoji_draws_two_when_an_equipped_card_is_lost() -> None:
    state = table(4, "ZNFF", hands={0: ["guohe"]}, equip={1: ["chitu"]}, heroes={1: "sunshangxiang"})
    horse = state["players"][1]["equip"]["minus"]
    state = act(state, 0, hand_of(state, 0, "guohe"), 1)[0]
    state = pass_all(state)
    state = answer(state, "pick", 0, horse)
    assert asked(state) == [(1, "skill")]
    state = answer(state, "skill", 1, "yes")
    assert len(state["players"][1]["hand"]) == 2


def test_jieyin_heals_her_and_a_wounded_man() -> None:
    state = table(4, "ZNFF", hands={0: ["shan", "shan"]}, hp={0: 2, 1: 2, 2: 2},
                  heroes={0: "sunshangxiang", 1: "guanyu", 2: "zhenji"})
    assert set(options(state, 0, "jieyin", *state["players"][0]["hand"])) == {"1"}  # 甄姬 is no man
    state = act(state, 0, "jieyin", *state["players"][0]["hand"], 1)[0]
    assert (hp(state, 0), hp(state, 1)) == (3, 3)
    assert ENGINE.pending(state)[0].kind == "play"
    assert card(state["discard"][-1]).name == "shan"


def test_xiaoji_also_when_an_equipped_card_is_replaced() -> None:
    state = table(4, "ZNFF", hands={0: ["dawan"]}, equip={0: ["chitu"]}, heroes={0: "sunshangxiang"})
    state = act(state, 0, hand_of(state, 0, "dawan"))[0]
    assert asked(state) == [(0, "skill")]
    state = answer(state, "skill", 0, "yes")
    assert len(state["players"][0]["hand"]) == 2 and card(state["players"][0]["equip"]["minus"]).name == "dawan"
