"""The 国战 lords option (君主): each rule and each implemented lord skill on an exact table
(docs/rules/sanguosha-hegemony-lords.md)."""

from __future__ import annotations

import random

import pytest

from engines.flow import Ctx, Flow
from engines.sanguosha import ENGINE, hg_ai, hg_heroes, hg_lords
from engines.sanguosha import rules as R
from engines.sanguosha.data import card
from tests.engines.sanguosha import hg_testkit as K

ON = {"lords": "on"}
CAO = ("hg_caocao", "hg_xuchu")           # 曹操 has a lord form; 2 + 2 = 4 HP, partners
LORD_CAO = ("hg_lord_caocao", "hg_xuchu")
WEI2 = ("hg_zhangliao", "hg_xiahoudun")
WEI3 = ("hg_guojia", "hg_simayi")
WEI4 = ("hg_zhanghe", "hg_xuhuang")
SHU = ("hg_guanyu", "hg_zhangfei")
WU = ("hg_ganning", "hg_lvmeng")
QUN = ("hg_lvbu", "hg_diaochan")


def _opts(state: dict, seat: int, path: list[str]) -> list[str]:
    return [o.value for o in ENGINE.step(state, seat, path).options]


def _ctx(state: dict) -> Ctx:
    return Ctx(R.flow_of(state), state)


def _events(state: dict) -> list[str]:
    return [e["key"].rsplit(".", 1)[1] for e in state["log"]]


def _top(state: dict, names: list[str]) -> list[str]:
    """Put cards of ``names`` on top of the deck, the first named on top; their ids."""
    cids: list[str] = []
    for name in names:
        cids.append(K.find(state, name, exclude=set(cids)))
    state["deck"] = [c for c in state["deck"] if c not in cids] + list(reversed(cids))
    return cids


# -- the option ----------------------------------------------------------------------------------

def test_the_lords_switch_is_a_hegemony_option_off_by_default() -> None:
    spec = {s.name: s for s in ENGINE.option_specs()}["lords"]
    assert spec.default == "off" and [v for v, _ in spec.choices] == ["off", "on"]
    assert "lords" in ENGINE.visible_options({"mode": "hegemony"})
    assert "lords" not in ENGINE.visible_options({"mode": "identity"})
    assert ENGINE.new_state({"mode": "hegemony", "lords": "on"}, 3, 5)["hg"]["lords"] is True
    assert "lords" not in ENGINE.new_state({"mode": "hegemony"}, 3, 5)["hg"]  # the shape of games before the option


def test_lords_are_a_pack_of_their_own_and_never_dealt() -> None:
    assert hg_heroes.LORD_OF == {"hg_caocao": "hg_lord_caocao", "hg_liubei": "hg_lord_liubei",
                                 "hg_sunquan": "hg_lord_sunquan", "hg_zhangjiao": "hg_lord_zhangjiao"}
    lords = set(hg_heroes.LORD_OF.values())
    assert not lords & set(hg_heroes.every_hero())
    from engines.sanguosha.heroes import hero

    assert [(hero(h).kingdom, hero(h).hp) for h in sorted(lords)] == [
        ("wei", 2.0), ("shu", 2.0), ("wu", 2.0), ("qun", 2.0)]
    for seed in range(3):
        state = ENGINE.new_state({"mode": "hegemony", "lords": "on"}, 12, seed)
        dealt = {h for offer in state["hg"]["deal"].values() for h in offer}
        assert dealt and not dealt & lords


# -- the swap ------------------------------------------------------------------------------------

def test_the_swap_is_offered_at_the_first_turn_start_only_with_a_lord_form() -> None:
    state = K.table([CAO, WEI2, SHU], turn=0, phase="turn", options=ON)
    assert K.asked(state) == [(0, "hg_lord_swap")]
    assert _opts(state, 0, []) == ["0", "pass"]
    assert Flow.ask_of(state, 0).default == ("pass",)
    kept = K.act(state, 0, ["pass"])
    assert K.asked(kept) == [(0, "hg_reveal")] and kept["players"][0]["heroes"][0]["id"] == "hg_caocao"
    kept["flow"]["stack"] = [{"k": "game", "cur": 0}, {"k": "turn", "seat": 0, "st": "start"}]
    assert K.asked(K.run(kept)) == [(0, "hg_reveal")]  # the second turn: not asked again
    # the deputy may be the one replaced (the seed: 两张武将牌中); no lord form, or the option off: no ask
    assert _opts(K.table([CAO[::-1], WEI2, SHU], turn=0, phase="turn", options=ON), 0, []) == ["1", "pass"]
    assert K.asked(K.table([WEI2, CAO, SHU], turn=0, phase="turn", options=ON)) == [(0, "hg_reveal")]
    assert K.asked(K.table([CAO, WEI2, SHU], turn=0, phase="turn")) == [(0, "hg_reveal")]


def test_the_lord_comes_in_shown_with_its_skills_and_pairs_with_its_kingdom() -> None:
    state = K.table([("hg_caocao", "hg_zhangliao"), SHU, WU], turn=0, phase="turn", options=ON)
    state = K.act(state, 0, ["0"])
    p = state["players"][0]
    assert p["heroes"] == [{"id": "hg_lord_caocao", "shown": True}, {"id": "hg_zhangliao", "shown": False}]
    assert p["skills"] == ["hg_jianan", "hg_huibian", "hg_zongyu"] and R.kingdom(state, 0) == "wei"
    assert (p["hp"], p["max"]) == (4, 4) and p["marks"]["xianqu"] == 1
    assert _events(state)[-3:] == ["hg_lord_swap", "hero_shown", "hg_mark_gain"]
    # 张辽 is no partner of 曹操, but a lord pairs with every hero of its kingdom
    state = K.act(state, 0, ["1"])
    assert p is not state["players"][0] and state["players"][0]["marks"]["zhulian"] == 1


def test_a_gain_in_max_hp_is_recovered_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # no published lord lowers or raises a 4-HP pair but 君张角 (张角 has 3 阴阳鱼): a 1.5-HP wei
    # hero stands in for him so the rule is tested on the heroes merged so far
    monkeypatch.setitem(hg_heroes.LORD_OF, "hg_guojia", "hg_lord_caocao")
    state = K.table([("hg_guojia", "hg_zhangliao"), SHU, WU], turn=0, phase="turn", options=ON, hp={0: 2})
    p = state["players"][0]
    assert (p["hp"], p["max"], p["half"]) == (2, 3, True)  # 1.5 + 2: 3 HP and a half left over
    state = K.act(state, 0, ["0"])
    p = state["players"][0]
    assert (p["hp"], p["max"], p["half"]) == (3, 4, False)  # 2 + 2: +1 max, +1 HP, no half
    same = K.act(K.table([CAO, SHU, WU], turn=0, phase="turn", options=ON, hp={0: 3}), 0, ["0"])
    assert (same["players"][0]["hp"], same["players"][0]["max"]) == (3, 4)


def test_a_shown_lord_cannot_be_hidden_again() -> None:
    state = K.table([LORD_CAO, SHU, WU], shown={0: (True, True)})
    R.hide(_ctx(state), 0, 0)
    R.hide(_ctx(state), 0, 1)
    assert [h["shown"] for h in state["players"][0]["heroes"]] == [True, False]
    assert "hero_hidden" in _events(state) and _events(state).count("hero_hidden") == 1


# -- kingdoms ------------------------------------------------------------------------------------

def test_the_lords_reveal_restores_its_kingdoms_careerists_and_lifts_the_limit() -> None:
    # 5 seats: half is 2, so the third wei seat shown (seat 3) is a 野心家 …
    seats = [CAO, WEI2, WEI3, WEI4, SHU]
    state = K.table(seats, shown={1: (True, False), 2: (True, False), 3: (True, False)},
                    turn=0, phase="turn", options=ON)
    assert [R.kingdom(state, i) for i in (1, 2, 3)] == ["wei", "wei", "ye3"]
    state = K.act(state, 0, ["0"])
    # … until 君曹操 is shown: seat 3 is wei again, and the lord itself (a fourth) is no 野心家
    assert [R.kingdom(state, i) for i in range(4)] == ["wei"] * 4
    assert "hg_lord_rejoin" in _events(state)
    # and a wei seat shown later under the lord is no 野心家 either
    later = K.table([LORD_CAO, WEI2, WEI3, WEI4, SHU], shown={0: (True, False), 1: (True, False), 2: (True, False)})
    R.reveal(_ctx(later), 3, 0)
    assert R.kingdom(later, 3) == "wei"
    plain = K.table(seats, shown={1: (True, False), 2: (True, False), 3: (True, False)}, turn=0, phase="turn")
    plain = K.act(plain, 0, ["0"])
    assert R.kingdom(plain, 0) == "ye0" and R.kingdom(plain, 3) == "ye3"


def test_the_lords_death_makes_its_kingdom_careerists_and_the_killer_is_rewarded_first() -> None:
    state = K.table([LORD_CAO, WEI2, WEI3, SHU, WU], shown={0: (True, False), 1: (True, False), 3: (True, False)},
                    options=ON, turn=3)
    K.kill(state, 0, 3)
    # shu killed the lord of wei while wei stood as seat 1 (shown) and the lord: 2 cards
    assert len(state["players"][3]["hand"]) == 2
    assert state["hg"]["fallen"] == {"wei": "hg_lord_caocao"}
    assert R.kingdom(state, 1) == "ye1" and ENGINE.view(state, None)["players"][1]["role"] == "ye"
    R.reveal(_ctx(state), 2, 0)  # a hidden wei seat is a 野心家 as soon as it is shown
    assert R.kingdom(state, 2) == "ye2" and R.kingdom(state, 0) == "wei"
    assert _events(state).count("hg_lord_ye") == 1 and "hg_lord_fallen" in _events(state)
    # a seat of the lord's own kingdom that kills it pays as one of that kingdom, not as a 野心家
    state = K.table([LORD_CAO, WEI2, SHU], shown={0: (True, False), 1: (True, False)}, options=ON,
                    hands={1: ["sha", "shan"]})
    K.kill(state, 0, 1)
    assert state["players"][1]["hand"] == [] and R.kingdom(state, 1) == "ye1"


def test_after_the_lords_death_its_kingdom_no_longer_wins_together() -> None:
    state = K.table([LORD_CAO, WEI2, WEI3, SHU], shown={i: (True, False) for i in range(4)}, options=ON)
    assert [R.kingdom(state, i) for i in range(4)] == ["wei", "wei", "wei", "shu"]  # no 野心家 under a lord
    K.kill(state, 0, 3)
    K.kill(state, 3, 1)
    assert state["winners"] is None  # two 野心家 left, not one kingdom
    K.kill(state, 2, 1)
    assert state["winners"] == [1]
    # without the lord's death the wei seats win together
    alive = K.table([LORD_CAO, WEI2, WEI3, SHU], shown={i: (True, False) for i in range(4)}, options=ON)
    K.kill(alive, 3, 1)
    assert alive["winners"] == [0, 1, 2]


def test_the_ai_always_takes_the_lord() -> None:
    state = K.table([CAO[::-1], WEI2, SHU], turn=0, phase="turn", options=ON)
    assert hg_ai.decide(state, 0, random.Random(0)) == ["1"]


# -- the lords' skills ---------------------------------------------------------------------------

def test_huibian_hurts_a_wei_seat_which_draws_two_and_heals_another() -> None:
    state = K.table([LORD_CAO, WEI2, SHU, WU, QUN], shown={i: (True, False) for i in range(5)}, hp={1: 2})
    assert "hg_huibian" in _opts(state, 0, [])
    assert _opts(state, 0, ["hg_huibian"]) == ["0"]  # seat 1 as first has no other wounded wei seat
    assert _opts(state, 0, ["hg_huibian", "0"]) == ["1"]  # never shu, wu or qun
    state = K.act(state, 0, ["hg_huibian", "0", "1"])
    ps = state["players"]
    assert (ps[0]["hp"], len(ps[0]["hand"]), ps[1]["hp"]) == (3, 2, 3)
    assert "hg_huibian" not in _opts(state, 0, [])  # once per play phase


def test_jizhao_once_fills_the_hand_sets_hp_to_two_and_gives_rende() -> None:
    state = K.table([("hg_lord_liubei", "hg_zhangfei"), WEI2, WU], shown={0: (True, True)}, hp={0: 1},
                    hands={0: ["sha"]})
    ctx = _ctx(state)
    ctx.push("damage", src=1, dst=0, n=1, via="test", cards=[], st="start")
    K.run(state)
    assert K.asked(state) == [(0, "skill")] and Flow.ask_of(state, 0).info["skill"] == "hg_jizhao"
    state = K.act(state, 0, ["yes"])
    p = state["players"][0]
    assert (p["hp"], len(p["hand"])) == (2, 4) and p["alive"]
    assert p["skills"][-1] in ("rende", "hg_rende") and "hg_jizhao" in p["limited"]
    state["players"][0]["hp"] = 1
    ctx = _ctx(state)
    ctx.push("damage", src=1, dst=0, n=1, via="test", cards=[], st="start")
    K.run(state)
    assert K.asked(state)[0][1] == "peach"  # a limited skill: no second time


def test_lianzi_takes_the_shown_cards_of_the_discarded_type() -> None:
    state = K.table([("hg_lord_sunquan", "hg_ganning"), ("hg_lvmeng", "hg_zhouyu"), SHU],
                    shown={0: (True, False), 1: (True, False), 2: (True, False)},
                    hands={0: ["sha"]}, equip={0: ["zhuge"], 1: ["bagua", "chitu"]})
    assert R.kingdom(state, 1) == "wu"  # under the lord, two wu seats of three are no 野心家
    top = _top(state, ["shan", "wuzhong", "tao"])  # X = 3 equipment cards of wu seats
    sha = state["players"][0]["hand"][0]
    state = K.act(state, 0, ["hg_lianzi", sha])
    p = state["players"][0]
    assert p["hand"] == [top[0], top[2]] and top[1] in state["discard"] and sha in state["discard"]
    assert "hg_lianzi" in p["skills"] and "hg_lianzi" not in _opts(state, 0, [])


def test_lianzi_taking_four_becomes_zhiheng_of_up_to_max_hp_cards() -> None:
    state = K.table([("hg_lord_sunquan", "hg_ganning"), ("hg_lvmeng", "hg_zhouyu"), SHU],
                    shown={0: (True, False), 1: (True, False), 2: (True, False)},
                    hands={0: ["sha"]}, equip={0: ["zhuge", "bagua"], 1: ["chitu", "dilu"]})
    top = _top(state, ["shan", "tao", "sha", "shan"])
    state = K.act(state, 0, ["hg_lianzi", state["players"][0]["hand"][0]])
    p = state["players"][0]
    assert p["hand"] == top and "hg_lianzi" not in p["skills"] and "hg_lord_zhiheng" in p["skills"]
    assert "hg_lianzi_done" in _events(state)
    # 制衡: at most X = max HP (4) cards
    path = ["hg_lord_zhiheng", *top]
    assert ENGINE.step(state, 0, path).complete and not [o for o in ENGINE.step(state, 0, path).options
                                                         if o.value in R.all_cards(state, 0)]
    state = K.act(state, 0, path)
    assert len(state["players"][0]["hand"]) == 4 and all(c in state["discard"] for c in top)
    assert "hg_lord_zhiheng" not in _opts(state, 0, [])


def test_wuxin_reorders_the_top_cards_counted_by_qun_seats_and_tianbing() -> None:
    state = K.table([("hg_lord_zhangjiao", "hg_lvbu"), ("hg_diaochan", "hg_lvbu"), WEI2],
                    shown={0: (True, False), 1: (True, False), 2: (True, False)}, turn=2)
    top = _top(state, ["sha", "shan", "tao", "wuzhong", "sha", "shan", "tao"])
    state["flow"]["stack"] = [{"k": "game", "cur": 0}, {"k": "turn", "seat": 0, "st": "start"}]
    state = K.run(state)
    while K.asked(state) != [(0, "hg_wuxin")]:
        state = K.act(state, K.asked(state)[0][0], ["pass"])
    # 弘法 ① at the start phase: two qun seats, so the top two became 天兵 …
    assert state["players"][0]["piles"]["hg_tianbing"] == top[:2] and "hg_tianbing" in _events(state)
    # … and 悟心 counts two qun seats plus two 天兵: X = 4
    assert Flow.ask_of(state, 0).info["cards"] == top[2:6]
    state = K.act(state, 0, list(reversed(top[2:6])))
    assert state["players"][0]["hand"] == [top[5], top[4]] and "hg_wuxin" in _events(state)
    assert state["deck"][-2:] == [top[2], top[3]]


def _tianbing_table(**kw: object) -> dict:
    state = K.table([("hg_lord_zhangjiao", "hg_lvbu"), ("hg_diaochan", "hg_lvbu"), WEI2, SHU],
                    shown={i: (True, False) for i in range(4)}, **kw)  # type: ignore[arg-type]
    R.to_pile(state, 0, "hg_tianbing", [K.find(state, "shan"), K.find(state, "tao")])
    return state


def test_hongfa_a_tianbing_stops_losing_hp() -> None:
    state = _tianbing_table(turn=2)
    shan, tao = state["players"][0]["piles"]["hg_tianbing"]
    ctx = _ctx(state)
    ctx.push("lose_hp", seat=0, n=1, st="start")
    K.run(state)
    assert K.asked(state) == [(0, "hg_hongfa_guard")] and _opts(state, 0, []) == [shan, tao, "pass"]
    kept = K.act(state, 0, [tao])
    assert kept["players"][0]["hp"] == 4 and kept["players"][0]["piles"]["hg_tianbing"] == [shan] and tao in kept["discard"]
    lost = K.act(state, 0, ["pass"])
    assert lost["players"][0]["hp"] == 3 and lost["players"][0]["piles"]["hg_tianbing"] == [shan, tao]
    # nobody else's HP loss is guarded
    state = _tianbing_table(turn=2)
    ctx = _ctx(state)
    ctx.push("lose_hp", seat=1, n=1, st="start")
    K.run(state)
    assert state["players"][1]["hp"] == 3


def test_hongfa_seats_of_the_kingdom_use_a_tianbing_as_sha_and_it_goes_with_the_lord() -> None:
    state = _tianbing_table(turn=1)
    shan, tao = state["players"][0]["piles"]["hg_tianbing"]
    assert "hg_tianbing_sha" in _opts(state, 1, [])
    assert _opts(state, 1, ["hg_tianbing_sha"]) == [shan, tao]
    assert "hg_tianbing_sha" not in _opts(K.table([("hg_lord_zhangjiao", "hg_lvbu"), WEI2, ("hg_diaochan", "hg_lvbu")],
                                                  shown={i: (True, False) for i in range(3)}, turn=1), 1, [])
    used = K.act(state, 1, ["hg_tianbing_sha", shan, *_opts(state, 1, ["hg_tianbing_sha", shan])[:1]])
    assert used["players"][0]["piles"]["hg_tianbing"] == [tao] and shan not in str(used["players"][1]["hand"])
    K.kill(state, 0, 3)
    assert state["players"][0]["piles"]["hg_tianbing"] == [] and tao in state["discard"]


def test_lords_skill_ids_are_each_lords_own() -> None:
    from engines.sanguosha.heroes import heroes

    lords = heroes(hg_lords.hg_heroes.LORDS)
    assert {h: lords[h].skills for h in sorted(lords)} == {
        "hg_lord_caocao": ("hg_jianan", "hg_huibian", "hg_zongyu"), "hg_lord_liubei": ("hg_shouyue", "hg_jizhao", "hg_zhangwu"),
        "hg_lord_sunquan": ("hg_jiahe", "hg_lianzi", "hg_jubao"), "hg_lord_zhangjiao": ("hg_wuxin", "hg_hongfa", "hg_wendao")}


def test_jianan_keeps_a_hero_down_for_a_free_skill_until_the_lords_turn() -> None:
    state = K.table([LORD_CAO, ("hg_xiahoudun", "hg_guojia"), SHU, WU, QUN],
                    shown={0: (True, False), 1: (True, False), 2: (True, False), 3: (True, False), 4: (True, False)},
                    turn=1, phase="turn", hands={1: ["sha", "shan"], 2: ["tao"]})
    assert K.asked(state) == [(1, "hg_jianan")]  # before the start phase's reveal
    sha = state["players"][1]["hand"][0]
    assert _opts(state, 1, [sha]) == ["1"]  # the hidden 郭嘉
    assert _opts(state, 1, [sha, "1"]) == ["tuxi", "qiaobian", "xiaoguo", "duanliang"]
    state = K.act(state, 1, [sha, "1", "tuxi"])
    p = state["players"][1]
    assert sha in state["discard"] and "tuxi" in p["skills"] and p["heroes"][1]["locked"]
    assert K.asked(state) == [(1, "tuxi")]  # no reveal ask (郭嘉 is kept down); the draw phase: 突袭
    # nor may a skill of the kept-down 郭嘉 be used (it would show him)
    assert not R.may_reveal(state, 1) and not R.has_skill(state, 1, "yiji", hidden=True)
    # the lord's next turn: the skill is gone, the hero free again
    state["flow"]["stack"] = [{"k": "game", "cur": 0}, {"k": "turn", "seat": 0, "st": "start"}]
    state = K.run(state)
    p = state["players"][1]
    assert "tuxi" not in p["skills"] and "locked" not in p["heroes"][1] and state["hg"]["jianan"] == []
    assert R.may_reveal(state, 1) and R.has_skill(state, 1, "yiji", hidden=True)


def test_jianan_turns_a_shown_hero_down_but_never_the_lord_and_offers_no_skill_in_play() -> None:
    from engines.sanguosha import skills_hg_lords as L

    state = K.table([LORD_CAO, ("hg_zhangliao", "hg_guojia"), SHU, WU, QUN], shown={i: (True, True) for i in range(5)})
    assert L._jianan_heroes(state, 0) == [1] and L._jianan_heroes(state, 1) == [0, 1]
    assert L._jianan_free(state) == ["qiaobian", "xiaoguo", "duanliang"]  # 张辽 has 突袭
    assert L._jianan_lord(state, 2) is None  # shu: no banner


def test_the_ai_plays_a_tianbing_as_sha_and_always_guards_hp() -> None:
    state = _tianbing_table(turn=1)
    shan = state["players"][0]["piles"]["hg_tianbing"][0]
    assert hg_ai.decide(state, 1, random.Random(0))[:2] == ["hg_tianbing_sha", shan]
    ctx = _ctx(state)
    ctx.push("lose_hp", seat=0, n=1, st="start")
    K.run(state)
    assert hg_ai.decide(state, 0, random.Random(0)) == [shan]


def _shu_table(lord: bool) -> dict:
    first = ("hg_lord_liubei", "hg_zhaoyun") if lord else ("hg_zhaoyun", "hg_machao")
    return K.table([first, SHU, WEI2, WU], shown={0: (True, False), 1: (True, True), 2: (True, False), 3: (True, False)},
                   turn=1, hands={1: ["sha", "guohe"]}, equip={2: ["bagua"]})


def test_shouyue_wusheng_takes_any_card_for_a_shu_seat() -> None:
    state = _shu_table(lord=True)
    sha, guohe = state["players"][1]["hand"]
    assert not card(guohe).red
    assert "hg_shouyue_wusheng" in _opts(state, 1, [])
    # the black cards (the red ones go through 武圣 itself)
    assert _opts(state, 1, ["hg_shouyue_wusheng"]) == [c for c in (sha, guohe) if not card(c).red]
    assert "hg_shouyue_wusheng" not in _opts(_shu_table(lord=False), 1, [])
    used = K.act(state, 1, ["hg_shouyue_wusheng", guohe, "2"])
    assert guohe not in used["players"][1]["hand"] and K.asked(used)[0][0] == 2


def test_shouyue_paoxiao_ignores_armour_and_liegong_reaches_further() -> None:
    from engines.sanguosha import skills_hg_lords as L

    asked = {}
    for lord in (True, False):
        state = _shu_table(lord)
        sha = state["players"][1]["hand"][0]
        asked[lord] = K.asked(K.act(state, 1, [sha, "2"]))
    assert asked[True] == [(2, "need_shan")] and asked[False] != asked[True]  # 八卦阵 only without the banner
    state = _shu_table(lord=True)
    L.gain_skill(state, 1, "liegong")  # no 烈弓 hero is merged yet: the banner's part is tested alone
    plain = _shu_table(lord=False)
    L.gain_skill(plain, 1, "liegong")
    assert (R.attack_range(state, 1), R.attack_range(plain, 1)) == (2, 1)
    assert not L.shouyue(state, 2) and L.shouyue(state, 1)


def test_jizhao_loses_the_banner() -> None:
    state = K.table([("hg_lord_liubei", "hg_zhangfei"), WEI2, WU], shown={0: (True, True)}, hp={0: 1})
    assert "hg_shouyue" in state["players"][0]["skills"]
    ctx = _ctx(state)
    ctx.push("damage", src=1, dst=0, n=1, via="test", cards=[], st="start")
    K.run(state)
    state = K.act(state, 0, ["yes"])
    assert "hg_shouyue" not in state["players"][0]["skills"]


def _wu_table(**kw: object) -> dict:
    return K.table([("hg_lord_sunquan", "hg_ganning"), ("hg_lvmeng", "hg_zhouyu"), SHU],
                   shown={0: (True, False), 1: (True, False), 2: (True, False)}, **kw)  # type: ignore[arg-type]


def test_jiahe_a_wu_seat_lights_a_beacon_once_per_play_phase() -> None:
    state = _wu_table(turn=1, hands={1: ["zhuge", "sha"]}, equip={1: ["chitu"]})
    zhuge = state["players"][1]["hand"][0]
    chitu = state["players"][1]["equip"]["minus"]
    assert "hg_fenghuo_put" in _opts(state, 1, [])
    assert _opts(state, 1, ["hg_fenghuo_put"]) == [zhuge, chitu]  # equipment, in hand or equipped
    state = K.act(state, 1, ["hg_fenghuo_put", zhuge])
    assert state["players"][0]["piles"]["hg_fenghuo"] == [zhuge] and "hg_fenghuo_put" not in _opts(state, 1, [])
    assert [c["id"] for c in ENGINE.view(state, None)["players"][0]["piles"]["hg_fenghuo"]] == [zhuge]
    # 敛资 counts the 烽火 with the wu seats' equipment: 1 + 1 (赤兔)
    from engines.sanguosha import skills_hg_lords as L

    assert L.lianzi_x(state) == 2
    assert "hg_fenghuo_put" not in _opts(_wu_table(turn=2, hands={2: ["zhuge"]}), 2, [])  # shu: no map


def test_jiahe_start_phase_skill_until_the_turn_ends_and_burns_on_sha_damage() -> None:
    state = _wu_table(turn=2)
    R.to_pile(state, 0, "hg_fenghuo", [K.find(state, "zhuge")])
    state["flow"]["stack"] = [{"k": "game", "cur": 1}, {"k": "turn", "seat": 1, "st": "start"}]
    state = K.run(state)
    assert K.asked(state) == [(1, "hg_fenghuo_pick")] and _opts(state, 1, []) == ["yingzi", "pass"]
    state = K.act(state, 1, ["yingzi"])
    assert "yingzi" in state["players"][1]["skills"]
    state["flow"]["stack"] = [{"k": "game", "cur": 2}, {"k": "turn", "seat": 2, "st": "start"}]
    state = K.run(state)
    assert "yingzi" not in state["players"][1]["skills"]
    # a 杀's damage burns a 烽火 of the holder; a skill's does not
    ctx = _ctx(state)
    ctx.push("damage", src=2, dst=0, n=1, via="qiangxi", cards=[], st="start")
    K.run(state)
    assert len(state["players"][0]["piles"]["hg_fenghuo"]) == 1
    ctx = _ctx(state)
    ctx.push("damage", src=2, dst=0, n=1, via="sha", cards=[], st="start")
    K.run(state)
    assert state["players"][0]["piles"]["hg_fenghuo"] == [] and "hg_fenghuo_burn" in _events(state)


def test_the_ai_knows_a_standing_lord_lifts_the_limit_and_a_fallen_one_makes_ye() -> None:
    seats = [LORD_CAO, WEI2, WEI3, ("hg_zhanghe", "hg_xuhuang"), SHU]
    state = K.table(seats, shown={0: (True, False), 1: (True, False), 2: (True, False)}, turn=3)
    assert not hg_ai.reveal_makes_ye(ENGINE.view(state, 3), 3)
    plain = K.table([CAO, *seats[1:]], shown={0: (True, False), 1: (True, False)}, turn=3)
    assert hg_ai.reveal_makes_ye(ENGINE.view(plain, 3), 3)
    K.kill(state, 0, 4)
    assert hg_ai.reveal_makes_ye(ENGINE.view(state, 3), 3)


def test_shouyue_longdan_draws_a_card_for_each_longdan_use() -> None:
    hands = {}
    for lord in (True, False):
        first = ("hg_lord_liubei", "hg_zhangfei") if lord else ("hg_zhangfei", "hg_machao")
        state = K.table([first, ("hg_zhaoyun", "hg_guanyu"), WEI2, WU],
                        shown={0: (True, False), 1: (True, True), 2: (True, False), 3: (True, False)},
                        turn=1, hands={1: ["shan"]})
        shan = state["players"][1]["hand"][0]
        state = K.act(state, 1, ["longdan_sha", shan, "2"])
        hands[lord] = len(state["players"][1]["hand"])
    assert hands == {True: 1, False: 0}


def test_shelie_shows_five_and_takes_one_of_each_suit() -> None:
    from engines.sanguosha import skills_hg_lords as L

    state = _wu_table(turn=2)
    L.gain_skill(state, 1, "hg_shelie")
    top = _top(state, ["sha", "shan", "tao", "wuzhong", "guohe"])
    state["flow"]["stack"] = [{"k": "game", "cur": 1}, {"k": "turn", "seat": 1, "st": "start"}]
    state = K.run(state)
    while K.asked(state) != [(1, "skill")]:
        state = K.act(state, 1, ["pass"])
    state = K.act(state, 1, ["yes"])
    assert K.asked(state) == [(1, "hg_shelie")] and Flow.ask_of(state, 1).info["cards"] == top
    suits = {card(c).suit for c in top}
    pick: list[str] = []
    for c in reversed(top):  # the last card of each suit
        if all(card(x).suit != card(c).suit for x in pick):
            pick.append(c)
    assert len(pick) == len(suits) and not ENGINE.step(state, 1, pick[:-1]).complete
    state = K.act(state, 1, pick)
    p = state["players"][1]
    assert sorted(p["hand"]) == sorted(pick) and all(c in state["discard"] for c in top if c not in pick)
