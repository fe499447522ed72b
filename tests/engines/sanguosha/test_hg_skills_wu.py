"""The 15 wu heroes of 国战 (hegemony) and their skills, on exact tables.

The tables are identity tables (``sgs_testkit.table``) played on a test mode that adds the
hegemony heroes' engine pack to identity mode's packs (the hegemony mode itself is written
elsewhere); kingdoms are the heroes'. A hidden hero is set with ``two_heroes`` as in
test_sgs_two_heroes.py. Rulings: docs/rules/sanguosha-hegemony-wu.md.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from sgs_testkit import act, answer, asked, count_cards, find, hand_of, hp, names, options, pass_all, table
from test_sgs_two_heroes import two_heroes

import engines.sanguosha.hg_heroes as hg_heroes
from engines.base import EngineError
from engines.flow import Ctx
from engines.sanguosha import ENGINE, choices, frames, modes
from engines.sanguosha import cards as C
from engines.sanguosha import rules as R
from engines.sanguosha.data import card, deck
from engines.sanguosha.heroes import hero, heroes
from engines.sanguosha.identity import IdentityMode
from engines.sanguosha.packs import CORE, EQUIPMENT, HEGEMONY_HEROES, IDENTITY, STANDARD_HEROES
from i18n import catalog

State = dict[str, Any]


class HgIdentity(IdentityMode):
    """Identity mode with the hegemony heroes' skills installed (tests only)."""

    name = "test_hg_wu"
    packs = (CORE, EQUIPMENT, STANDARD_HEROES, HEGEMONY_HEROES, IDENTITY)


if HgIdentity.name not in R.MODES:
    modes.install(HgIdentity())


def hg(n: int, roles: str, *, heroes_: dict[int, str], hp_: dict[int, int] | None = None,
       max_: dict[int, int] | None = None, phase: str = "play", turn: int = 0, **kw: Any) -> State:
    """An exact table on the test mode; each hero seat gets ``max_`` (default 4) max HP and
    ``hp_`` (default full); the ``phase`` of ``turn`` starts."""
    state = table(n, roles, turn=turn, heroes=heroes_, **kw)
    state["mode"] = HgIdentity.name
    for seat in heroes_:
        p = state["players"][seat]
        p["max"] = (max_ or {}).get(seat, 4)
        p["hp"] = (hp_ or {}).get(seat, p["max"])
    return at(state, turn, phase) if phase != "play" else state


def at(state: State, seat: int, phase: str) -> State:
    """Restart ``seat``'s turn at ``phase`` on the state's own flow."""
    idx = R.PHASES.index(phase)
    state["turn"], state["phase"], state["tflags"] = seat, phase, {}
    state["flow"]["stack"] = [{"k": "game", "cur": seat},
                              {"k": "turn", "seat": seat, "st": (*R.PHASES, "end")[idx + 1]},
                              {"k": "phase", "seat": seat, "name": phase, "st": "start"}]
    flow = R.flow_of(state)
    flow.run(Ctx(flow, state))
    return state


def shown(state: State, seat: int, main: str, deputy: str, *, show: tuple[bool, bool] = (True, True)) -> State:
    two_heroes(state, seat, main, deputy)
    for i, on in enumerate(show):
        state["players"][seat]["heroes"][i]["shown"] = on
    R.refresh_heroes(state, seat)
    return state


def conserved(state: State) -> bool:
    counts = count_cards(state)
    return set(counts) == set(deck()) and set(counts.values()) == {1}


# -- the pack ---------------------------------------------------------------------------------

WU = ["hg_sunquan", "hg_ganning", "hg_lvmeng", "hg_huanggai", "hg_zhouyu", "hg_daqiao", "hg_luxun",
      "hg_sunshangxiang", "hg_sunjian", "hg_xiaoqiao", "hg_taishici", "hg_zhoutai", "hg_lusu", "hg_erzhang",
      "hg_dingfeng"]


def test_the_wu_pack_is_complete_with_the_reference_facts() -> None:
    assert len(hg_heroes.heroes.heroes("hg_wu")) == 15  # the pack validates on its own terms
    pack = heroes("hg_wu")
    assert sorted(pack) == sorted(WU)
    halves = {h: int(pack[h].hp * 2) for h in WU}
    assert halves == {"hg_sunquan": 4, "hg_ganning": 4, "hg_lvmeng": 4, "hg_huanggai": 4, "hg_zhouyu": 3,
                      "hg_daqiao": 3, "hg_luxun": 3, "hg_sunshangxiang": 3, "hg_sunjian": 4, "hg_xiaoqiao": 3,
                      "hg_taishici": 4, "hg_zhoutai": 4, "hg_lusu": 3, "hg_erzhang": 3, "hg_dingfeng": 4}
    assert {h for h in WU if pack[h].gender == "f"} == {"hg_daqiao", "hg_sunshangxiang", "hg_xiaoqiao"}
    assert pack["hg_luxun"].skills == ("hg_qianxun", "duoshi")
    assert pack["hg_sunshangxiang"].skills == ("jieyin", "hg_xiaoji")


@pytest.mark.parametrize("loc", ["en", "zh-TW", "zh-CN"])
def test_every_wu_hero_and_skill_is_named_and_described(loc: str) -> None:
    cat = catalog(loc)
    for hid in WU:
        assert cat.get(f"sanguosha.hero.{hid}"), hid
        for sk in hero(hid).skills:
            assert cat.get(f"sanguosha.skill.{sk}") and cat.get(f"sanguosha.skill_desc.{sk}"), sk


def keys(events: list) -> list[str]:
    return [e.msg.key.rsplit(".", 1)[-1] for e in events]


# -- 孙权 制衡 (国战): at most max-HP cards ----------------------------------------------------------

def test_hg_zhiheng_discards_at_most_max_hp_cards_once_per_phase() -> None:
    state = hg(4, "ZCFF", heroes_={0: "hg_sunquan"}, max_={0: 3}, hands={0: ["sha", "sha", "shan", "tao"]})
    hand = list(state["players"][0]["hand"])
    assert "hg_zhiheng" in options(state, 0)
    assert options(state, 0, "hg_zhiheng", *hand[:3]) == []  # a fourth card is not offered
    with pytest.raises(EngineError):
        act(state, 0, "hg_zhiheng", *hand)
    state, _ = act(state, 0, "hg_zhiheng", *hand[:3])
    assert set(hand[:3]) <= set(state["discard"]) and len(state["players"][0]["hand"]) == 4
    assert "hg_zhiheng" not in options(state, 0)


def test_a_hidden_sunquans_zhiheng_reveals_him() -> None:
    state = shown(table(4, "ZCFF", hands={0: ["sha"]}), 0, "hg_zhoutai", "hg_sunquan", show=(False, False))
    state["mode"] = HgIdentity.name
    state, _ = act(state, 0, "hg_zhiheng", hand_of(state, 0, "sha"))
    assert [h["shown"] for h in state["players"][0]["heroes"]] == [False, True]


# -- 吕蒙 克己: a hidden 吕蒙's 杀 counts too ----------------------------------------------------------

def test_keji_of_a_hidden_lvmeng_counts_the_sha_he_used() -> None:
    state = shown(table(4, "ZCFF", hands={0: ["sha", "shan", "shan", "tao", "tao", "wuzhong"]}),
                  0, "hg_lvmeng", "hg_ganning", show=(False, False))
    state["mode"] = HgIdentity.name
    state, _ = act(state, 0, hand_of(state, 0, "sha"), 1)
    state = pass_all(state, "need_shan")
    state, _ = act(state, 0, "end")
    assert asked(state) == [(0, "discard")]  # no 克己 offer: a 杀 was used in the play phase


def test_keji_of_a_hidden_lvmeng_is_offered_without_sha_and_reveals_him() -> None:
    state = shown(table(4, "ZCFF", hands={0: ["sha", "shan", "shan", "tao", "tao", "wuzhong"]}),
                  0, "hg_lvmeng", "hg_ganning", show=(False, False))
    state["mode"] = HgIdentity.name
    state, _ = act(state, 0, "end")
    assert asked(state) == [(0, "skill")]
    state, _ = act(state, 0, "yes")
    assert state["players"][0]["heroes"][0]["shown"] and len(state["players"][0]["hand"]) == 6


# -- 陆逊 谦逊 (国战): cancelled, not untargetable ------------------------------------------------------

def test_hg_qianxun_shown_cancels_shunshou_aimed_at_luxun() -> None:
    state = hg(4, "ZCFF", heroes_={1: "hg_luxun"}, hands={0: ["shunshou"], 1: ["shan"]})
    cid = hand_of(state, 0, "shunshou")
    assert "1" in options(state, 0, cid)  # may be chosen (identity 谦逊: may not)
    state, events = act(state, 0, cid, 1)
    assert "qianxun_cancel" in keys(events) and names(state, 1) == ["shan"] and cid in state["discard"]
    assert asked(state) == [(0, "play")]


def test_hg_qianxun_cancels_lebu_which_goes_to_the_discard_pile() -> None:
    state = hg(4, "ZCFF", heroes_={1: "hg_luxun"}, hands={0: ["lebu"]})
    cid = hand_of(state, 0, "lebu")
    state, _ = act(state, 0, cid, 1)
    assert state["players"][1]["judge"] == [] and cid in state["discard"] and conserved(state)


def test_hg_qianxun_of_a_hidden_luxun_asks_and_a_yes_reveals_and_cancels() -> None:
    base = shown(table(4, "ZCFF", hands={0: ["shunshou"], 1: ["shan"]}), 1, "hg_luxun", "hg_lusu",
                 show=(False, False))
    base["mode"] = HgIdentity.name
    cid = hand_of(base, 0, "shunshou")
    state, _ = act(base, 0, cid, 1)
    assert asked(state) == [(1, "skill")]
    yes, _ = act(state, 1, "yes")
    assert yes["players"][1]["heroes"][0]["shown"] and names(yes, 1) == ["shan"]
    no, _ = act(state, 1, "pass")
    assert not no["players"][1]["heroes"][0]["shown"] and asked(no) == [(0, "pick")]


# -- 陆逊 度势: a red hand card as 以逸待劳, four times a phase ------------------------------------------

def _stub_yiyi(monkeypatch: pytest.MonkeyPatch) -> None:
    """A stand-in for the hegemony deck's 以逸待劳 (not on this branch): the user draws one."""
    def effect(ctx: Ctx, f: dict[str, Any]) -> None:
        R.draw(ctx, f["target"], 1)
        ctx.pop(f)

    monkeypatch.setitem(C.DEFS, "yiyi", C.CardDef("yiyi", default_targets=lambda s, seat: [seat], effect=effect))
    real = choices.card_kind
    monkeypatch.setattr(choices, "card_kind", lambda name: "trick" if name == "yiyi" else real(name))
    monkeypatch.setattr(frames, "card_type", lambda name: "trick" if name == "yiyi" else real(name))


def test_duoshi_needs_a_red_hand_card() -> None:
    state = hg(4, "ZCFF", heroes_={0: "hg_luxun"}, hands={0: [("sha", "S")]})
    assert "duoshi" not in options(state, 0)
    state = hg(4, "ZCFF", heroes_={0: "hg_luxun"}, hands={0: ["tao"]})
    assert "duoshi" in options(state, 0)  # the 国战 deck's 以逸待劳


def test_duoshi_uses_red_hand_cards_as_yiyi_up_to_four_times(monkeypatch: pytest.MonkeyPatch) -> None:
    _stub_yiyi(monkeypatch)
    state = hg(4, "ZCFF", heroes_={0: "hg_luxun"},
               hands={0: [("shan", "D", 2), ("shan", "D", 3), ("shan", "H", 2), ("shan", "D", 4), ("sha", "C", 2)]},
               top=[("guohe", "S", 3), ("guohe", "S", 4), ("guohe", "C", 3), ("guohe", "C", 4)])
    reds = [c for c in state["players"][0]["hand"] if card(c).red]
    assert sorted(options(state, 0, "duoshi")) == sorted(reds)
    for i in range(4):
        assert "duoshi" in options(state, 0)
        state, _ = act(state, 0, "duoshi", reds[i])
        assert reds[i] in state["discard"]
    assert "duoshi" not in options(state, 0) and names(state, 0).count("guohe") == 4


# -- 孙尚香 枭姬 (国战): one draw of two per move out of the equipment area ---------------------------

def test_hg_xiaoji_draws_two_once_when_two_equipped_cards_go_in_one_move() -> None:
    state = hg(4, "ZCFF", heroes_={}, equip={0: ["zhuge", "bagua"]})
    shown(state, 0, "hg_sunquan", "hg_sunshangxiang")
    state["mode"] = HgIdentity.name
    gear = [c for c in state["players"][0]["equip"].values() if c]
    state, _ = act(state, 0, "hg_zhiheng", *gear)
    assert asked(state) == [(0, "skill")]
    state, _ = act(state, 0, "yes")
    assert asked(state) == [(0, "play")] and len(state["players"][0]["hand"]) == 4  # 2 (制衡) + 2, not + 4


def test_hg_xiaoji_when_another_discards_her_armour() -> None:
    state = hg(4, "ZCFF", heroes_={1: "hg_sunshangxiang"}, hands={0: ["guohe"]}, equip={1: ["bagua"]})
    state, _ = act(state, 0, hand_of(state, 0, "guohe"), 1)
    state = answer(state, "pick", 0, state["players"][1]["equip"]["armor"])
    assert asked(state) == [(1, "skill")]
    state, _ = act(state, 1, "yes")
    assert len(state["players"][1]["hand"]) == 2


# -- 孙坚 英魂 -------------------------------------------------------------------------------------

def test_yinghun_draw_x_discard_one() -> None:
    state = hg(4, "ZCFF", heroes_={0: "hg_sunjian"}, hp_={0: 2}, hands={1: ["sha"]}, phase="prepare")
    assert asked(state) == [(0, "yinghun")]
    assert options(state, 0, "1") == ["x", "one"]
    state, _ = act(state, 0, 1, "x")
    assert len(state["players"][1]["hand"]) == 3 and asked(state) == [(1, "yinghun_discard")]
    state, _ = act(state, 1, hand_of(state, 1, "sha"))
    assert len(state["players"][1]["hand"]) == 2 and names(state, 1).count("sha") == 0


def test_yinghun_draw_one_discard_x() -> None:
    state = hg(4, "ZCFF", heroes_={0: "hg_sunjian"}, hp_={0: 2}, hands={2: ["sha", "shan", "tao"]},
               equip={2: ["bagua"]}, phase="prepare")
    state, _ = act(state, 0, 2, "one")
    assert len(state["players"][2]["hand"]) == 4 and asked(state) == [(2, "yinghun_discard")]
    armour = state["players"][2]["equip"]["armor"]
    state, _ = act(state, 2, armour, hand_of(state, 2, "sha"))
    assert len(state["players"][2]["hand"]) == 3 and state["players"][2]["equip"]["armor"] is None


def test_yinghun_with_one_lost_hp_has_no_choice_and_a_short_hand_discards_all() -> None:
    state = hg(4, "ZCFF", heroes_={0: "hg_sunjian"}, hp_={0: 3}, phase="prepare")
    assert options(state, 0, "3") == []
    state, _ = act(state, 0, 3)
    assert state["players"][3]["hand"] == [] and asked(state)[0][0] == 0  # drew one, discarded it


def test_yinghun_is_not_asked_at_full_hp() -> None:
    state = hg(4, "ZCFF", heroes_={0: "hg_sunjian"}, phase="prepare")
    assert asked(state) == [(0, "play")]


# -- 小乔 天香 / 红颜 ------------------------------------------------------------------------------

def test_tianxiang_moves_the_damage_and_the_new_victim_draws_its_lost_hp() -> None:
    state = hg(4, "ZCFF", heroes_={1: "hg_xiaoqiao"}, max_={1: 3}, hands={0: ["sha"], 1: [("tao", "H", 3)]},
               hp={2: 3})
    state, _ = act(state, 0, hand_of(state, 0, "sha"), 1)
    state = pass_all(state, "need_shan")
    assert asked(state) == [(1, "tianxiang")]
    state, _ = act(state, 1, hand_of(state, 1, "tao"), 2)
    assert hp(state, 1) == 3 and hp(state, 2) == 2 and len(state["players"][2]["hand"]) == 2


def test_hongyan_makes_her_spades_hearts_for_tianxiang() -> None:
    state = hg(4, "ZCFF", heroes_={1: "hg_xiaoqiao"}, max_={1: 3}, hands={1: [("sha", "S", 7)], 0: ["sha"]})
    state, _ = act(state, 0, hand_of(state, 0, "sha"), 1)
    state = pass_all(state, "need_shan")
    assert asked(state) == [(1, "tianxiang")]
    assert options(state, 1) == [state["players"][1]["hand"][0], "pass"]


def test_hongyan_a_spade_judgement_lets_her_escape_lebu() -> None:
    for hid, plays in (("hg_xiaoqiao", 0), ("hg_daqiao", 1)):
        state = hg(4, "ZCFF", heroes_={0: hid}, judge={0: ["lebu"]}, top=[("sha", "S", 7)], phase="judge")
        assert asked(state) == [(plays, "play")], hid  # 大乔 skips her play phase: seat 1 plays


def test_hongyan_a_spade_lightning_does_not_strike_her() -> None:
    state = hg(4, "ZCFF", heroes_={0: "hg_xiaoqiao"}, max_={0: 3}, judge={0: ["shandian"]},
               top=[("sha", "S", 8)], phase="judge")
    assert hp(state, 0) == 3 and any(e[1] == "shandian" for e in state["players"][1]["judge"])


# -- 太史慈 天义 and 拼点 ---------------------------------------------------------------------------

def _tianyi(mine: tuple, theirs: tuple) -> State:
    state = hg(5, "ZCFFN", heroes_={0: "hg_taishici"}, hands={2: [theirs], 0: [mine, "sha", "sha", "sha"]})
    state, _ = act(state, 0, "tianyi", 2)
    assert sorted(asked(state)) == [(0, "pindian"), (2, "pindian")]
    state, _ = act(state, 0, find_in(state, 0, mine))
    state, _ = act(state, 2, find_in(state, 2, theirs))
    return state


def find_in(state: State, seat: int, spec: tuple) -> str:
    return next(c for c in state["players"][seat]["hand"]
                if (card(c).name, card(c).suit, card(c).rank) == spec)


def test_tianyi_won_two_sha_no_distance_limit_one_more_target() -> None:
    state = _tianyi(("sha", "D", 13), ("sha", "C", 2))
    sha = hand_of(state, 0, "sha")
    assert sorted(options(state, 0, sha)) == ["1", "2", "3", "4"]  # seat 2, 3 at distance 2 too
    assert sorted(options(state, 0, sha, 2)) == ["1", "3", "4"] and options(state, 0, sha, 2, 3) == []
    state, _ = act(state, 0, sha, 2, 3)
    state = pass_all(state, "need_shan")
    sha2 = hand_of(state, 0, "sha")
    state, _ = act(state, 0, sha2, 3)
    state = pass_all(state, "need_shan")
    assert not any(o in state["players"][0]["hand"] for o in options(state, 0))  # a third 杀: no


def test_tianyi_lost_or_tied_no_sha_this_turn() -> None:
    for mine, theirs in ((("sha", "C", 2), ("sha", "D", 13)), (("sha", "C", 9), ("sha", "S", 9))):
        state = _tianyi(mine, theirs)
        assert not any(c in state["players"][0]["hand"] for c in options(state, 0)), mine
        assert "tianyi" not in options(state, 0)


# -- 周泰 不屈 (国战 标准版) ---------------------------------------------------------------------------

def _hit_zhoutai(hp_: int, top: list, wounds: tuple = (), sha: str = "sha") -> State:
    state = hg(4, "ZCFF", heroes_={1: "hg_zhoutai"}, hp_={1: hp_}, hands={0: [sha], 2: ["tao"]}, top=top)
    for spec in wounds:
        R.to_pile(state, 1, "buqu", [find(state, *spec)])
    state, _ = act(state, 0, hand_of(state, 0, sha), 1)
    return pass_all(state, "need_shan")


def test_buqu_a_wound_of_a_new_rank_and_he_is_not_dying() -> None:
    state = _hit_zhoutai(1, [("shan", "D", 2)])
    assert asked(state) == [(1, "skill")]
    state, _ = act(state, 1, "yes")
    wounds = state["players"][1]["piles"]["buqu"]
    assert hp(state, 1) == 0 and [card(c).rank for c in wounds] == [2] and state["players"][1]["alive"]
    assert asked(state) == [(0, "play")] and conserved(state)  # no 桃 asked
    assert ENGINE.view(state, 3)["players"][1]["piles"]["buqu"][0]["id"] == wounds[0]


def test_buqu_one_wound_per_point_below_one() -> None:
    state = hg(4, "ZCFF", heroes_={0: "xuchu", 1: "hg_zhoutai"}, hp_={1: 1}, hands={0: ["sha"]},
               top=[("shan", "D", 2), ("shan", "D", 3)])
    R.bump(state, "luoyi")  # 裸衣: this 杀 deals 2
    state, _ = act(state, 0, hand_of(state, 0, "sha"), 1)
    state = pass_all(state, "need_shan")
    state, _ = act(state, 1, "yes")
    assert hp(state, 1) == -1 and sorted(card(c).rank for c in state["players"][1]["piles"]["buqu"]) == [2, 3]
    assert state["players"][1]["alive"] and asked(state) == [(0, "play")]


def test_buqu_a_repeated_rank_is_dying_and_a_peach_removes_the_repeated_wound() -> None:
    state = _hit_zhoutai(0, [("shan", "H", 2)], wounds=(("shan", "D", 2),))
    state, _ = act(state, 1, "yes")
    assert hp(state, 1) == -1 and len(state["players"][1]["piles"]["buqu"]) == 2
    assert sorted(k for _, k in asked(state)) == ["peach"] * 4
    state = answer(state, "peach", 2, hand_of(state, 2, "tao"))
    state = pass_all(state, "peach")
    assert hp(state, 1) == 0 and len(state["players"][1]["piles"]["buqu"]) == 1 and state["players"][1]["alive"]
    assert asked(state) == [(0, "play")] and conserved(state)


def test_buqu_dies_with_his_wounds_when_nobody_saves_him() -> None:
    state = _hit_zhoutai(0, [("shan", "H", 2)], wounds=(("shan", "D", 2),))
    state, _ = act(state, 1, "yes")
    state = pass_all(state, "peach")
    assert not state["players"][1]["alive"] and state["players"][1]["piles"]["buqu"] == [] and conserved(state)


def test_buqu_recovering_removes_wounds() -> None:
    state = hg(4, "ZCFF", heroes_={1: "hg_zhoutai"}, hp_={1: 0}, hands={1: ["tao"]}, turn=1)
    R.to_pile(state, 1, "buqu", [find(state, "shan", "D", 2)])
    state, _ = act(state, 1, hand_of(state, 1, "tao"))
    assert hp(state, 1) == 1 and state["players"][1]["piles"]["buqu"] == [] and conserved(state)


# -- 鲁肃 好施 / 缔盟 -------------------------------------------------------------------------------

def test_haoshi_draws_four_and_gives_half_to_a_fewest_card_seat() -> None:
    state = hg(4, "ZCFF", heroes_={0: "hg_lusu"}, hands={0: ["sha", "sha", "shan", "tao"], 2: ["sha"]},
               phase="draw")
    assert asked(state) == [(0, "skill")]
    state, _ = act(state, 0, "yes")
    assert len(state["players"][0]["hand"]) == 8 and asked(state) == [(0, "haoshi")]
    four = state["players"][0]["hand"][:4]
    assert sorted(options(state, 0, *four)) == ["1", "3"]
    state, _ = act(state, 0, *four, 3)
    assert len(state["players"][0]["hand"]) == 4 and sorted(state["players"][3]["hand"]) == sorted(four)


def test_haoshi_with_five_cards_or_fewer_keeps_them() -> None:
    state = hg(4, "ZCFF", heroes_={0: "hg_lusu"}, hands={0: ["sha"]}, phase="draw")
    state, _ = act(state, 0, "yes")
    assert len(state["players"][0]["hand"]) == 5 and asked(state) == [(0, "play")]


def test_dimeng_swaps_hands_for_the_difference() -> None:
    state = hg(4, "ZCFF", heroes_={0: "hg_lusu"}, hands={0: ["shan", "tao"], 1: ["sha", "sha", "sha"],
                                                        2: ["wuzhong"], 3: ["sha", "sha", "sha", "sha", "shan"]})
    assert "3" not in options(state, 0, "dimeng", 2)  # a gap of 4 costs more than her 2 cards
    mine = list(state["players"][0]["hand"])
    one, two = list(state["players"][1]["hand"]), list(state["players"][2]["hand"])
    state, _ = act(state, 0, "dimeng", 1, 2, *mine)
    assert state["players"][1]["hand"] == two and state["players"][2]["hand"] == one
    assert set(mine) <= set(state["discard"]) and "dimeng" not in options(state, 0)


# -- 张昭张纮 直谏 / 固政 -----------------------------------------------------------------------------

def test_zhijian_puts_equipment_into_an_empty_slot_and_draws() -> None:
    state = hg(4, "ZCFF", heroes_={0: "hg_erzhang"}, hands={0: ["bagua"]}, equip={2: ["renwang"]})
    armour = hand_of(state, 0, "bagua")
    assert sorted(options(state, 0, "zhijian", armour)) == ["1", "3"]
    state, _ = act(state, 0, "zhijian", armour, 1)
    assert state["players"][1]["equip"]["armor"] == armour and len(state["players"][0]["hand"]) == 1


def test_guzheng_gives_one_back_and_takes_the_rest() -> None:
    state = hg(4, "ZCFF", heroes_={1: "hg_erzhang"}, hands={0: ["sha", "shan", "tao", "wuzhong"]},
               hp={0: 2}, phase="discard")
    assert asked(state) == [(0, "discard")]
    two = [hand_of(state, 0, "sha"), hand_of(state, 0, "shan")]
    state, _ = act(state, 0, *two)
    assert asked(state) == [(1, "guzheng")] and sorted(options(state, 1)) == sorted([*two, "pass"])
    state, _ = act(state, 1, two[0])
    assert two[0] in state["players"][0]["hand"] and two[1] in state["players"][1]["hand"]
    assert two[1] not in state["players"][0]["hand"] and conserved(state)


def test_guzheng_is_not_asked_for_its_owners_own_discard_phase() -> None:
    state = hg(4, "ZCFF", heroes_={0: "hg_erzhang"}, hands={0: ["sha", "shan", "tao", "wuzhong"]},
               hp_={0: 2}, phase="discard")
    state, _ = act(state, 0, *state["players"][0]["hand"][:2])
    assert asked(state) != [(0, "guzheng")] and asked(state)[0][1] != "guzheng"


# -- 丁奉 短兵 / 奋迅 -------------------------------------------------------------------------------

def test_duanbing_one_more_target_at_distance_one() -> None:
    state = hg(5, "ZCFFN", heroes_={0: "hg_dingfeng"}, hands={0: ["sha"]}, equip={0: ["cixiong"]})
    sha = hand_of(state, 0, "sha")
    assert sorted(options(state, 0, sha)) == ["1", "2", "3", "4"]
    assert sorted(options(state, 0, sha, 2)) == ["1", "4"]  # the extra one at distance 1
    assert sorted(options(state, 0, sha, 1)) == ["2", "3", "4"]  # seat 1 may be the extra one
    assert options(state, 0, sha, 2, 4) == []


def test_duanbing_of_a_hidden_dingfeng_reveals_him_when_used() -> None:
    state = shown(table(5, "ZCFFN", hands={0: ["sha"]}), 0, "hg_sunquan", "hg_dingfeng", show=(False, False))
    state["mode"] = HgIdentity.name
    one, _ = act(state, 0, hand_of(state, 0, "sha"), 1)
    assert not any(h["shown"] for h in one["players"][0]["heroes"])
    two, _ = act(state, 0, hand_of(state, 0, "sha"), 1, 4)
    assert two["players"][0]["heroes"][1]["shown"]


def test_fenxun_brings_a_far_seat_to_distance_one_this_turn() -> None:
    state = hg(5, "ZCFFN", heroes_={0: "hg_dingfeng"}, hands={0: ["sha", "shan"]})
    sha = hand_of(state, 0, "sha")
    assert "2" not in options(state, 0, sha)
    state, _ = act(state, 0, "fenxun", hand_of(state, 0, "shan"), 2)
    assert R.distance(state, 0, 2) == 1 and "2" in options(state, 0, sha) and "fenxun" not in options(state, 0)


# -- all-AI identity games with the wu heroes ----------------------------------------------------

@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_seeded_ai_identity_games_with_the_wu_heroes_finish(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    from engines.sanguosha import ai
    from engines.sanguosha.setup import assign

    monkeypatch.setattr(ai, "STRICT", True)
    n = 4 + seed % 5
    state = R.MODES[HgIdentity.name].new_game({"heroes": "beginner"}, n, 900 + seed)
    pool = list(WU)
    random.Random(seed).shuffle(pool)
    for seat in range(n):
        assign(state, seat, pool[seat])
        p = state["players"][seat]
        p["max"] = p["hp"] = 4 + (1 if seat == state["lord"] and n >= 5 else 0)
    rng = random.Random(seed)
    for _ in range(20000):
        if ENGINE.result(state) is not None:
            break
        req = rng.choice(ENGINE.pending(state))
        action = ENGINE.ai_action(state, req.seat, rng, request=req)
        state, _ = ENGINE.apply(state, req.seat, action, request=req)
        assert conserved(state)
    assert ENGINE.result(state) is not None


def test_hongyan_a_spade_eight_trigrams_judgement_counts_as_red() -> None:
    state = hg(4, "ZCFF", heroes_={1: "hg_xiaoqiao"}, max_={1: 3}, hands={0: ["sha"]}, equip={1: ["bagua"]},
               top=[("sha", "S", 8)])
    state, events = act(state, 0, hand_of(state, 0, "sha"), 1)
    assert "bagua_ok" in keys(events) and hp(state, 1) == 3 and asked(state) == [(0, "play")]


def test_a_hidden_xiaoqiaos_tianxiang_reveals_her_when_used() -> None:
    base = shown(table(4, "ZCFF", hands={1: [("tao", "H", 3)], 0: ["sha"]}), 1, "hg_xiaoqiao", "hg_sunjian",
                 show=(False, False))
    base["mode"] = HgIdentity.name
    state, _ = act(base, 0, hand_of(base, 0, "sha"), 1)
    state = pass_all(state, "need_shan")
    assert asked(state) == [(1, "tianxiang")]
    passed, _ = act(state, 1, "pass")
    assert not any(h["shown"] for h in passed["players"][1]["heroes"]) and hp(passed, 1) == 3
    used, _ = act(state, 1, hand_of(state, 1, "tao"), 2)
    assert used["players"][1]["heroes"][0]["shown"] and hp(used, 1) == 4


# -- the AI answers the skills' questions sensibly ------------------------------------------------

def _ai(state: State, seat: int) -> list[str]:
    return ENGINE.ai_action(state, seat, random.Random(0))


def test_ai_yinghun_helps_its_lord_with_x_cards() -> None:
    state = hg(5, "ZCFFN", heroes_={1: "hg_sunjian"}, hp_={1: 2}, phase="prepare", turn=1)
    assert _ai(state, 1) == ["0", "x"]


def test_ai_tianxiang_moves_the_damage_to_a_known_enemy() -> None:
    state = hg(5, "ZCFFN", heroes_={1: "hg_xiaoqiao"}, max_={1: 3}, hp_={1: 1},
               hands={1: [("sha", "S", 7)], 0: ["sha"]})
    R.note_act(state, 3, 0, 6)  # seat 3 attacked the lord: a rebel
    state, _ = act(state, 0, hand_of(state, 0, "sha"), 1)
    state = pass_all(state, "need_shan")
    assert _ai(state, 1) == [state["players"][1]["hand"][0], "3"]


def test_ai_pindian_plays_its_highest_card() -> None:
    state = hg(5, "ZCFFN", heroes_={0: "hg_taishici"}, hands={2: [("sha", "C", 2), ("shan", "D", 11)],
                                                              0: [("sha", "D", 13), ("sha", "C", 3)]})
    state, _ = act(state, 0, "tianyi", 2)
    assert card(_ai(state, 0)[0]).rank == 13 and card(_ai(state, 2)[0]).rank == 11


def test_ai_spends_no_lebu_on_a_shown_luxun() -> None:
    state = hg(5, "ZCFFN", heroes_={2: "hg_luxun"}, hands={0: ["lebu"]})
    R.note_act(state, 2, 0, 6)  # 陆逊 attacked the lord: the enemy most worth a 乐不思蜀
    lebu = hand_of(state, 0, "lebu")
    assert _ai(state, 0) != [lebu, "2"]
    R.note_act(state, 3, 0, 6)
    assert _ai(state, 0) == [lebu, "3"]


def test_a_time_out_answers_the_multi_card_asks_completely() -> None:
    from engines.sanguosha import ai

    state = hg(4, "ZCFF", heroes_={0: "hg_sunjian"}, hp_={0: 1}, hands={2: ["sha", "shan", "tao"]},
               phase="prepare")
    state, _ = act(state, 0, 2, "one")
    choices.validate(state, 2, ai.timeout(state, 2))
    assert len(ai.timeout(state, 2)) == 3
    state = hg(4, "ZCFF", heroes_={0: "hg_lusu"}, hands={0: ["sha", "sha", "shan", "tao"]}, phase="draw")
    state, _ = act(state, 0, "yes")
    choices.validate(state, 0, ai.timeout(state, 0))


def test_tianyi_and_duanbing_on_one_seat_add_up() -> None:
    state = hg(5, "ZCFFN", heroes_={}, hands={2: [("sha", "C", 2)], 0: [("sha", "D", 13), "sha"]})
    shown(state, 0, "hg_taishici", "hg_dingfeng")
    state["mode"] = HgIdentity.name
    state, _ = act(state, 0, "tianyi", 2)
    state, _ = act(state, 0, find_in(state, 0, ("sha", "D", 13)))
    state, _ = act(state, 2, find_in(state, 2, ("sha", "C", 2)))
    sha = hand_of(state, 0, "sha")
    assert sorted(options(state, 0, sha, 2)) == ["1", "3", "4"]  # 天义: anyone
    assert sorted(options(state, 0, sha, 2, 3)) == ["1", "4"]  # then 短兵: distance 1 only
    assert options(state, 0, sha, 2, 3, 1) == []
    assert sorted(options(state, 0, sha, 1, 2)) == ["3", "4"]  # seat 1 may be 短兵's
