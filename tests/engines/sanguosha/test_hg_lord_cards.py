"""The lords option's 君临天下 cards (飞龙夺凤, 太平要术) and the lords' skills that chase them (章武,
问道), each on an exact table (docs/rules/sanguosha-hegemony-lords.md, -deck.md)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from engines.flow import Ctx
from engines.sanguosha import ENGINE, data
from engines.sanguosha import rules as R
from engines.sanguosha.data import DeckError, card, deck, with_addition
from tests.engines.sanguosha import hg_testkit as K
from tests.engines.sanguosha.sgs_testkit import count_cards

ON = {"lords": "on"}
WEI = ("hg_zhangliao", "hg_xiahoudun")
SHU = ("hg_guanyu", "hg_zhangfei")
WU = ("hg_ganning", "hg_lvmeng")
QUN = ("hg_lvbu", "hg_diaochan")
LIUBEI = ("hg_lord_liubei", "hg_zhangfei")
ZHANGJIAO = ("hg_lord_zhangjiao", "hg_lvbu")
SHOWN = {i: (True, True) for i in range(4)}


def _names(state: dict, cids: list[str]) -> list[str]:
    return [card(c).name for c in cids]


def _ctx(state: dict) -> Ctx:
    return Ctx(R.flow_of(state), state)


# -- the deck ------------------------------------------------------------------------------------

def test_the_lords_option_deals_the_lord_cards_and_leaves_the_108_alone() -> None:
    base = list(deck("hegemony"))
    lords = list(with_addition("hegemony_lords"))
    assert len(lords) == 109 and len(set(lords)) == 109
    gone = [c for c in base if card(c).name in ("cixiong", "zhuahuang", "wuliu")]
    assert sorted((card(c).suit, card(c).rank) for c in gone) == [("D", 6), ("H", 13), ("S", 2)]
    assert [c for c in base if c not in gone] == lords[:105]
    assert [(card(c).name, card(c).suit, card(c).rank, card(c).slot) for c in lords[105:]] == [
        ("feilong", "S", 2, "weapon"), ("taiping", "H", 3, "armor"), ("liulong", "H", 13, "plus"),
        ("pearl", "D", 6, "treasure")]
    assert card(lords[105]).range == 2
    on = ENGINE.new_state({"mode": "hegemony", "lords": "on"}, 4, 7)
    off = ENGINE.new_state({"mode": "hegemony"}, 4, 7)
    assert len(count_cards(on)) == 109 and set(count_cards(off)) == set(base)


@pytest.mark.parametrize("replaces", [{"feilong": "zhuge"}, {"feilong": "sha"}, {"feilong": "nothing"}])
def test_an_addition_replaces_only_the_one_card_of_that_name_suit_and_rank(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, replaces: dict[str, str]) -> None:
    """诸葛连弩 is ♦A (not ♠2), 杀 has many copies, "nothing" is no card of the 108."""
    raw = json.loads(data.DECKS["hegemony_lords"].read_text(encoding="utf-8"))
    raw.update(deck_name="bad", id_prefix="bad", size=1, expect={"feilong": 1}, replaces=replaces,
               deck=[["feilong", "S", 2]])
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    monkeypatch.setitem(data.DECKS, "bad", path)
    with pytest.raises(DeckError):
        with_addition("bad")
    with_addition.cache_clear()
    data.deck.cache_clear()


# -- 飞龙夺凤 ------------------------------------------------------------------------------------

def test_feilong_makes_the_target_discard_a_card_of_its_choice() -> None:
    state = K.table([WEI, SHU, WU, QUN], shown=SHOWN, hands={0: ["sha"], 1: ["tao", "jiu"]},
                    equip={0: ["feilong"], 1: ["bagua"]}, options=ON)
    state = K.act(state, 0, [state["players"][0]["hand"][0], "1"])
    assert K.asked(state) == [(0, "feilong")]
    state = K.act(state, 0, ["yes"])
    assert K.asked(state) == [(1, "feilong_discard")]
    armour = state["players"][1]["equip"]["armor"]
    assert sorted(o.value for o in ENGINE.step(state, 1, []).options) == sorted([*state["players"][1]["hand"], armour])
    state = K.act(state, 1, [armour])
    assert armour in state["discard"] and state["players"][1]["equip"]["armor"] is None
    assert len(state["players"][1]["hand"]) == 2


def test_feilong_takes_a_hand_card_of_a_seat_its_sha_puts_in_the_dying_window() -> None:
    state = K.table([WEI, SHU, WU, QUN], shown=SHOWN, hands={0: ["sha"], 1: ["jiu"]}, hp={1: 1},
                    equip={0: ["feilong"]}, options=ON)
    jiu = state["players"][1]["hand"][0]
    state = K.act(state, 0, [state["players"][0]["hand"][0], "1"])
    state = K.act(state, 0, ["pass"])  # not ①
    state = K.act(state, 1, ["pass"])  # no 闪
    assert K.asked(state) == [(0, "feilong_dying")]
    state = K.act(state, 0, ["yes"])
    assert jiu in state["players"][0]["hand"] and not state["players"][1]["hand"]
    assert K.asked(state)[0][1] == "peach"


def test_feilong_is_not_asked_for_damage_that_is_not_its_shas() -> None:
    state = K.table([WEI, SHU, WU, QUN], shown=SHOWN, hands={1: ["jiu"]}, hp={1: 1}, equip={0: ["feilong"]},
                    options=ON)
    _ctx(state).push("damage", src=0, dst=1, n=1, via="juedou", cards=[], st="start")
    K.run(state)
    assert K.asked(state)[0][1] == "peach"


# -- 太平要术 ------------------------------------------------------------------------------------

def test_taiping_prevents_nature_damage_only() -> None:
    state = K.table([WEI, SHU, WU, QUN], shown=SHOWN, equip={1: ["taiping"]}, options=ON)
    for nature, hp in (("fire", 4), ("thunder", 4), ("normal", 3)):
        _ctx(state).push("damage", src=0, dst=1, n=1, via="test", cards=[], nature=nature, st="start")
        K.run(state)
        assert state["players"][1]["hp"] == hp


def test_taiping_raises_the_hand_limit_by_the_wearers_kingdom() -> None:
    state = K.table([SHU, ("hg_zhaoyun", "hg_machao"), WU, QUN], shown={0: (True, True), 1: (True, True)},
                    equip={0: ["taiping"]}, options=ON)
    assert R.hand_limit(state, 0) == 4 + 2  # two shu seats
    state["players"][2]["equip"]["armor"], state["players"][0]["equip"]["armor"] = state["players"][0]["equip"]["armor"], None
    assert R.hand_limit(state, 2) == 4 + 1  # a wearer of no known kingdom counts itself


def test_losing_taiping_draws_two_then_loses_an_hp_above_one() -> None:
    for hp, after in ((3, 2), (1, 1)):
        state = K.table([WEI, SHU, WU, QUN], shown=SHOWN, hp={1: hp}, hands={1: ["bagua"]}, equip={1: ["taiping"]},
                        options=ON, turn=1)
        taiping = state["players"][1]["equip"]["armor"]
        state = K.act(state, 1, [state["players"][1]["hand"][0]])  # replaced by 八卦阵
        assert taiping in state["discard"]
        assert (state["players"][1]["hp"], len(state["players"][1]["hand"])) == (after, 2)


# -- 六龙骖驾 and 总御 ---------------------------------------------------------------------------

CAOCAO = ("hg_lord_caocao", "hg_xuchu")


def test_liulong_is_both_horses_discards_the_other_and_bars_using_horses() -> None:
    state = K.table([WEI, SHU, WU, QUN], shown=SHOWN, hands={0: ["liulong", "dilu"]}, equip={0: ["chitu"]},
                    options=ON)
    liulong, dilu = state["players"][0]["hand"]
    far = R.distance(state, 0, 2), R.distance(state, 2, 0)
    state = K.act(state, 0, [liulong])
    eq = state["players"][0]["equip"]
    assert (eq["plus"], eq["minus"]) == (liulong, None) and len(state["discard"]) == 1  # 赤兔 went
    assert (R.distance(state, 0, 2), R.distance(state, 2, 0)) == (far[0], far[1] + 1)  # -1 kept, +1 added
    assert dilu not in [o.value for o in ENGINE.step(state, 0, []).options]  # no horse may be used


def test_zongyu_using_a_horse_takes_liulong_from_another_seat() -> None:
    state = K.table([CAOCAO, SHU, WU, QUN], shown=SHOWN, hands={0: ["chitu"]}, equip={0: ["dilu"], 2: ["liulong"]},
                    options=ON)
    chitu = state["players"][0]["hand"][0]
    liulong = state["players"][2]["equip"]["plus"]
    state = K.act(state, 0, [chitu])
    eq = state["players"][0]["equip"]
    assert (eq["plus"], eq["minus"]) == (liulong, None) and state["players"][2]["equip"]["plus"] is None
    assert chitu in state["discard"] and "hg_zongyu" in [e["key"].rsplit(".", 1)[1] for e in state["log"]]


def test_zongyu_swaps_the_plus_horse_when_liulong_comes_to_another_seat() -> None:
    state = K.table([CAOCAO, SHU, WU, QUN], shown=SHOWN, hands={1: ["liulong"]}, equip={0: ["dilu", "chitu"]},
                    options=ON, turn=1)
    dilu, chitu = state["players"][0]["equip"]["plus"], state["players"][0]["equip"]["minus"]
    liulong = state["players"][1]["hand"][0]
    state = K.act(state, 1, [liulong])
    assert K.asked(state) == [(0, "hg_zongyu_swap")]
    kept = K.act(state, 0, ["pass"])
    assert kept["players"][1]["equip"]["plus"] == liulong
    state = K.act(state, 0, ["yes"])
    assert state["players"][0]["equip"]["plus"] == liulong and state["players"][1]["equip"]["plus"] == dilu
    assert state["players"][0]["equip"]["minus"] is None and chitu in state["discard"]


# -- 定澜夜明珠 and 聚宝 -----------------------------------------------------------------------------

SUNQUAN = ("hg_lord_sunquan", "hg_ganning")


def test_the_pearl_takes_a_fifth_slot_and_gives_a_zhiheng_of_up_to_max_hp_cards() -> None:
    state = K.table([WEI, SHU, WU, QUN], shown=SHOWN, hands={0: ["pearl", "sha", "shan", "tao", "jiu", "sha"]},
                    equip={0: ["chitu"]}, options=ON)
    pearl = state["players"][0]["hand"][0]
    assert "hg_pearl_zhiheng" not in [o.value for o in ENGINE.step(state, 0, []).options]
    state = K.act(state, 0, [pearl])
    eq = state["players"][0]["equip"]
    assert eq["treasure"] == pearl and eq["minus"] is not None  # beside the four slots
    assert ENGINE.view(state, 1)["players"][0]["equip"]["treasure"]["id"] == pearl
    hand = state["players"][0]["hand"]
    assert "hg_pearl_zhiheng" in [o.value for o in ENGINE.step(state, 0, []).options]
    path = ["hg_pearl_zhiheng", *hand[:4]]  # max HP 4 (张辽 + 夏侯惇): four and no more
    assert ENGINE.step(state, 0, path).complete and not [o for o in ENGINE.step(state, 0, path).options
                                                         if o.value in R.all_cards(state, 0)]
    state = K.act(state, 0, path)
    assert len(state["players"][0]["hand"]) == 5 and "hg_pearl_zhiheng" not in [
        o.value for o in ENGINE.step(state, 0, []).options]


def test_the_pearl_lifts_the_limit_of_the_wearers_own_zhiheng() -> None:
    sunquan = ("hg_sunquan", "hg_ganning")
    state = K.table([sunquan, SHU, WEI, QUN], shown=SHOWN, hands={0: ["sha", "shan", "tao", "jiu", "sha", "shan"]},
                    equip={0: ["pearl"]}, options=ON)
    opts = [o.value for o in ENGINE.step(state, 0, []).options]
    assert "hg_zhiheng" in opts and "hg_pearl_zhiheng" not in opts
    state = K.act(state, 0, ["hg_zhiheng", *state["players"][0]["hand"]])  # all six, max HP 4
    assert len(state["players"][0]["hand"]) == 6


def test_jubao_draws_and_takes_a_card_of_the_pearls_wearer_at_the_finish_phase() -> None:
    state = K.table([SUNQUAN, SHU, WEI, QUN], shown=SHOWN, equip={1: ["pearl", "chitu"]}, hands={1: ["shan"]},
                    options=ON)
    state = K.act(state, 0, ["end"])  # end the play phase
    while K.asked(state) != [(0, "pick")]:
        seat, kind = K.asked(state)[0]
        assert kind != "play" or seat != 1, K.asked(state)
        state = K.act(state, seat, ["pass"] if kind != "discard" else state["players"][seat]["hand"][:1])
    pearl = state["players"][1]["equip"]["treasure"]
    hand = len(state["players"][0]["hand"])
    state = K.act(state, 0, [pearl])
    assert pearl in state["players"][0]["hand"] and len(state["players"][0]["hand"]) == hand + 1


def test_jubao_cancels_another_seat_taking_the_lords_treasure() -> None:
    state = K.table([SUNQUAN, SHU, WEI, QUN], shown=SHOWN, equip={0: ["pearl"]}, hands={1: ["shunshou"]},
                    options=ON, turn=1)
    pearl = state["players"][0]["equip"]["treasure"]
    state = K.act(state, 1, [state["players"][1]["hand"][0], "0"])
    while K.asked(state) and K.asked(state)[0][1] == "nullify":
        state = K.act(state, K.asked(state)[0][0], ["pass"])
    assert K.asked(state) == [(1, "pick")]
    state = K.act(state, 1, [pearl])
    assert state["players"][0]["equip"]["treasure"] == pearl and not state["players"][1]["hand"]


# -- 章武 ---------------------------------------------------------------------------------------

def test_zhangwu_takes_feilong_into_the_lords_hand_from_the_discard_pile_or_anothers_equipment() -> None:
    state = K.table([LIUBEI, WEI, WU, QUN], shown=SHOWN, hands={1: ["zhuge"]}, equip={1: ["feilong"]}, options=ON,
                    turn=1)
    feilong = state["players"][1]["equip"]["weapon"]
    state = K.act(state, 1, [state["players"][1]["hand"][0]])  # replaced: into the discard pile
    assert feilong in state["players"][0]["hand"] and feilong not in state["discard"]
    state = K.table([LIUBEI, WEI, WU, QUN], shown=SHOWN, hands={1: ["feilong"]}, options=ON, turn=1)
    state = K.act(state, 1, [state["players"][1]["hand"][0]])  # seat 1 equips it
    assert feilong in state["players"][0]["hand"] and state["players"][1]["equip"]["weapon"] is None


def test_zhangwu_the_lord_losing_feilong_puts_it_under_the_deck_and_draws_two() -> None:
    state = K.table([LIUBEI, WEI, WU, QUN], shown=SHOWN, hands={0: ["feilong", "zhuge"]}, options=ON)
    feilong, zhuge = state["players"][0]["hand"]
    state = K.act(state, 0, [feilong])  # equipping it is no loss
    assert state["players"][0]["equip"]["weapon"] == feilong and state["players"][0]["hand"] == [zhuge]
    state = K.act(state, 0, [zhuge])  # replaced: lost
    assert state["deck"][0] == feilong and feilong not in state["discard"]
    assert len(state["players"][0]["hand"]) == 2 and "hg_zhangwu_lost" in [e["key"].rsplit(".", 1)[1] for e in state["log"]]


# -- 问道 ---------------------------------------------------------------------------------------

def test_wendao_discards_a_red_card_for_taiping_from_the_discard_pile_or_a_seats_equipment() -> None:
    state = K.table([ZHANGJIAO, WEI, WU, SHU], shown=SHOWN, hands={0: ["tao", "sha"]},
                    equip={1: ["taiping"]}, options=ON)
    taiping = state["players"][1]["equip"]["armor"]
    red = [c for c in state["players"][0]["hand"] if card(c).red]
    assert [o.value for o in ENGINE.step(state, 0, ["hg_wendao"]).options] == red
    state = K.act(state, 0, ["hg_wendao", red[0]])
    assert taiping in state["players"][0]["hand"] and red[0] in state["discard"]
    assert len(state["players"][1]["hand"]) == 2  # its wearer lost it: 太平要术 ③
    assert "hg_wendao" not in [o.value for o in ENGINE.step(state, 0, []).options]  # once per play phase


def test_wendao_is_not_offered_while_taiping_is_in_the_deck_or_a_hand() -> None:
    state = K.table([ZHANGJIAO, WEI, WU, SHU], shown=SHOWN, hands={0: ["tao"]}, options=ON)
    assert "hg_wendao" not in [o.value for o in ENGINE.step(state, 0, []).options]


# -- whole games ----------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(4))
def test_seeded_ai_games_with_the_lords_option_end_with_every_card_accounted_for(seed: int) -> None:
    state = ENGINE.new_state({"mode": "hegemony", "lords": "on"}, 4, seed)
    rng = random.Random(seed)
    for _ in range(5000):
        if ENGINE.result(state) is not None:
            break
        req = ENGINE.pending(state)[0]
        state, _ = ENGINE.apply(state, req.seat, ENGINE.ai_action(state, req.seat, rng, "normal", req), req)
        seen = count_cards(state)
        assert len(seen) == 109 and set(seen.values()) == {1}
    assert ENGINE.result(state) is not None


def test_the_ai_puts_on_a_treasure_although_its_slot_is_not_there_yet() -> None:
    state = K.table([WEI, SHU, WU, QUN], shown=SHOWN, hands={0: ["pearl"]}, options=ON)
    pearl = state["players"][0]["hand"][0]
    assert ENGINE.ai_action(state, 0, random.Random(1), "normal", ENGINE.pending(state)[0]) == [pearl]


def test_zhijian_puts_a_treasure_into_a_seat_that_never_had_the_slot() -> None:
    """直谏 (张昭张纮) and the like read a slot by its name: the treasure's is absent until filled."""
    state = K.table([("hg_erzhang", "hg_ganning"), SHU, WEI, QUN], shown=SHOWN, hands={0: ["pearl"]}, options=ON)
    pearl = state["players"][0]["hand"][0]
    assert sorted(o.value for o in ENGINE.step(state, 0, ["zhijian", pearl]).options) == ["1", "2", "3"]
    state = K.act(state, 0, ["zhijian", pearl, "2"])
    assert state["players"][2]["equip"]["treasure"] == pearl


def test_qiaobian_may_move_a_treasure_to_a_seat_that_never_had_the_slot() -> None:
    from engines.sanguosha.skills_hg_wei import _field_moves

    state = K.table([WEI, SHU, WU, QUN], shown=SHOWN, equip={1: ["pearl"]}, options=ON)
    assert _field_moves(state, 0)[state["players"][1]["equip"]["treasure"]] == [0, 2, 3]
