"""The 15 群 heroes of hegemony (国战) and their skills, each on an exact table: the hegemony
wording where it differs from the identity skill (离间 may be negated and the later chosen man
starts the duel, 乱击's suits and the ally's draw, 帷幕 cancels, 断肠 takes one hero's skills), the
kingdom tests (除疠, 雄异, 随势, 双刃, 乱击), hidden heroes (名士, 祸水, 倾城), and seeded all-AI
identity games with these heroes that still finish with every card accounted for.

The skills live in the hegemony heroes' pack, so the tables play on a test mode that installs it
beside identity mode's packs (kingdoms in these identity tables are the heroes' own)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from sgs_testkit import act, answer, asked, count_cards, find, hand_of, hp, names, options, pass_all, table
from test_sgs_two_heroes import at_phase

import engines.sanguosha.hg_heroes  # noqa: F401 - registers the hegemony packs
from engines.flow import Flow
from engines.sanguosha import ENGINE, modes
from engines.sanguosha import rules as R
from engines.sanguosha.data import card
from engines.sanguosha.heroes import hero
from engines.sanguosha.identity import IdentityMode
from engines.sanguosha.packs import HEGEMONY_HEROES
from engines.sanguosha.setup import assign

State = dict[str, Any]
MODE = "identity_hg_qun_test"


class WithHegemonyHeroes(IdentityMode):
    """Identity mode with the hegemony heroes' skills installed (the tables' mode)."""

    name = MODE
    packs = (*IdentityMode.packs, HEGEMONY_HEROES)


@pytest.fixture(autouse=True, scope="module")
def _mode() -> Iterator[None]:
    modes.install(WithHegemonyHeroes())
    yield
    modes.uninstall(MODE)


def qt(n: int, roles: str, *, heroes: dict[int, str], hp: dict[int, int] | None = None,
       phase: str = "play", turn: int = 0, **kw: Any) -> State:
    """An exact table on the test mode: hero seats at 4 max HP (``hp``: their HP), the ``phase``
    of ``turn`` started."""
    state = table(n, roles, heroes=heroes, turn=turn, **kw)
    state["mode"] = MODE
    for seat in heroes:
        p = state["players"][seat]
        p["max"] = 4
        p["hp"] = (hp or {}).get(seat, 4)
    return at_phase(state, turn, phase) if phase != "play" else state


def two_heroes(state: State, seat: int, main: str, deputy: str, shown: tuple[bool, bool] = (False, False)) -> State:
    p = state["players"][seat]
    p["heroes"] = [{"id": main, "shown": shown[0]}, {"id": deputy, "shown": shown[1]}]
    R.refresh_heroes(state, seat)
    return state


def sha_on(state: State, user: int, target: int) -> State:
    return act(state, user, hand_of(state, user, "sha"), target)[0]


def card_named(state: State, seat: int, name: str, suit: str | None = None) -> str:
    for cid in state["players"][seat]["hand"]:
        if card(cid).name == name and (suit is None or card(cid).suit == suit):
            return cid
    raise LookupError(name)


# -- data ---------------------------------------------------------------------------------------

def test_the_pack_is_complete_with_the_hegemony_skill_ids() -> None:
    hg = engines.sanguosha.hg_heroes
    assert len(hg.heroes.heroes("hg_qun")) == 15  # the pack validates on its own terms
    assert len(hg.heroes.heroes("hg_qun")) == 15
    assert list(hero("hg_diaochan").skills) == ["hg_lijian", "biyue"]
    assert list(hero("hg_pangde").skills) == ["mashu", "jianchu"]
    assert list(hero("hg_jiaxu").skills) == ["wansha", "luanwu", "hg_weimu"]


# -- 华佗: 除疠 -----------------------------------------------------------------------------------

def test_chuli_kingdoms_must_differ_and_spades_draw() -> None:
    state = qt(5, "ZCFFN", heroes={0: "hg_huatuo", 1: "caocao", 2: "xiahoudun", 3: "liubei"},
               hands={0: [("sha", "S", 7)], 1: [("shan", "H", 2)], 2: ["shan"], 3: [("sha", "S", 8)], 4: ["tao"]})
    own = hand_of(state, 0, "sha")
    assert set(options(state, 0, "chuli", own)) == {"1", "2", "3", "4"}
    assert set(options(state, 0, "chuli", own, 1)) == {"3", "4"}  # 夏侯惇 is of 曹操's kingdom; seat 4 unknown
    state = act(state, 0, "chuli", own, 1, 3)[0]
    state = answer(state, "pick", 0, "hand")
    state = answer(state, "pick", 0, "hand")
    # 华佗 and seat 3 lost a ♠ and draw one; seat 1 lost a ♥
    assert len(state["players"][0]["hand"]) == 1 and len(state["players"][3]["hand"]) == 1
    assert state["players"][1]["hand"] == []
    assert "chuli" not in options(state, 0)  # once per play phase


# -- 貂蝉: 离间 (国战) ---------------------------------------------------------------------------

def test_hg_lijian_the_later_chosen_starts_the_duel_and_it_can_be_negated() -> None:
    state = qt(4, "ZCFN", heroes={0: "hg_diaochan", 1: "guanyu", 2: "zhangfei"},
               hands={0: ["shan"], 1: ["sha"], 2: ["sha"], 3: ["wuxie"]})
    state = act(state, 0, "hg_lijian", hand_of(state, 0, "shan"), 1, 2)[0]
    assert (3, "nullify") in asked(state)  # the identity 离间's duel cannot be negated
    state = pass_all(state)
    assert asked(state) == [(1, "need_sha")]  # 关羽 (chosen first) is the duel's target


# -- 袁绍: 乱击 ----------------------------------------------------------------------------------

def test_luanji_two_hand_cards_suits_once_a_turn_and_the_allies_draw() -> None:
    state = qt(4, "ZCFN", heroes={0: "hg_yuanshao", 1: "hg_lvbu", 2: "caocao"},
               hands={0: [("shan", "H", 2), ("tao", "H", 3), ("sha", "S", 7), ("sha", "C", 2), ("tao", "H", 4)],
                      1: ["shan"], 2: ["shan"]})
    hearts = [c for c in state["players"][0]["hand"] if card(c).suit == "H"][:2]
    assert "hg_luanji" in options(state, 0)
    state = act(state, 0, "hg_luanji", *hearts)[0]
    state = pass_all(state)
    state = answer(state, "need_shan", 1, hand_of(state, 1, "shan"))
    assert asked(state) == [(1, "hg_luanji_draw")]  # 吕布 is of 袁绍's kingdom
    state = answer(state, "hg_luanji_draw", 1, "yes")
    assert len(state["players"][1]["hand"]) == 1
    state = pass_all(state)
    state = answer(state, "need_shan", 2, hand_of(state, 2, "shan"))
    assert not any(k == "hg_luanji_draw" for _, k in asked(state))  # 曹操 is not
    state = pass_all(state)
    state = answer(state, "need_shan", 3, "pass")
    assert ENGINE.pending(state)[0].kind == "play"
    # ♥ is used up for 乱击 this turn: only the ♠ and ♣ cards may make the next volley
    blacks = {card_named(state, 0, "sha", "S"), card_named(state, 0, "sha", "C")}
    assert set(options(state, 0, "hg_luanji")) == blacks


# -- 颜良文丑: 双雄 ------------------------------------------------------------------------------

def test_shuangxiong_judges_instead_of_drawing_and_duels_with_the_other_colour() -> None:
    state = qt(4, "ZCFN", heroes={0: "hg_yanliangwenchou"}, phase="draw",
               hands={0: [("sha", "S", 7), ("shan", "H", 2)]}, top=[("tao", "H", 6)])
    assert asked(state) == [(0, "skill")]
    state = answer(state, "skill", 0, "yes")
    assert "tao" in names(state, 0) and len(state["players"][0]["hand"]) == 3  # no draw, the judgement card
    state = pass_all(state)
    assert ENGINE.pending(state)[0].kind == "play"
    black = card_named(state, 0, "sha", "S")
    assert options(state, 0, "shuangxiong") == [black]  # red judgement: black hand cards duel
    state = act(state, 0, "shuangxiong", black, 1)[0]
    state = pass_all(state)
    assert asked(state) == [(1, "need_sha")]  # the duel is on


# -- 贾诩: 完杀 乱武 帷幕 -------------------------------------------------------------------------

def test_wansha_only_the_dying_and_jiaxu_may_save_in_his_turn() -> None:
    state = qt(4, "ZCFN", heroes={0: "hg_jiaxu"}, hp={}, hands={0: ["sha"], 1: ["tao"], 2: ["tao"]})
    state["players"][1]["hp"] = 1
    state = sha_on(state, 0, 1)
    state = answer(state, "need_shan", 1, "pass")
    assert sorted(s for s, k in asked(state) if k == "peach") == [0, 1]
    other = qt(4, "ZCFN", heroes={0: "hg_jiaxu"}, turn=2, hands={2: ["sha"], 1: ["tao"]})
    other["players"][1]["hp"] = 1
    other = sha_on(other, 2, 1)
    other = answer(other, "need_shan", 1, "pass")
    assert sorted(s for s, k in asked(other) if k == "peach") == [0, 1, 2, 3]  # not his turn


def test_luanwu_each_other_seat_strikes_a_nearest_or_loses_hp() -> None:
    state = qt(4, "ZCFN", heroes={0: "hg_jiaxu"}, hands={1: ["sha"], 3: ["sha"]})
    state = act(state, 0, "luanwu")[0]
    assert asked(state) == [(1, "luanwu")]
    sha = hand_of(state, 1, "sha")
    assert set(options(state, 1, sha)) == {"0", "2"}  # both at distance 1
    state = act(state, 1, sha, 2)[0]
    state = answer(state, "need_shan", 2, "pass")
    assert hp(state, 2) == 3
    assert asked(state) == [(2, "luanwu")]
    state = answer(state, "luanwu", 2, "pass")
    assert hp(state, 2) == 2  # no 杀: 1 HP lost
    assert asked(state) == [(3, "luanwu")]
    state = answer(state, "luanwu", 3, "pass")
    assert hp(state, 3) == 3
    assert "luanwu" not in options(state, 0)  # 限定技


def test_hg_weimu_cancels_black_tricks_only() -> None:
    state = qt(4, "ZCFN", heroes={1: "hg_jiaxu"}, hands={0: [("guohe", "S", 3), ("guohe", "H", 12)], 1: ["shan", "sha"]})
    black = card_named(state, 0, "guohe", "S")
    state, events = act(state, 0, black, 1)
    assert any(e.msg.key == "sanguosha.ev.hg_weimu" for e in events)
    assert len(state["players"][1]["hand"]) == 2 and ENGINE.pending(state)[0].kind == "play"
    red = card_named(state, 0, "guohe", "H")
    state = act(state, 0, red, 1)[0]
    state = pass_all(state)
    assert asked(state) == [(0, "pick")]


def test_hg_weimu_a_black_delayed_trick_goes_to_the_discard_pile() -> None:
    state = qt(4, "ZCFN", heroes={1: "hg_jiaxu"}, hands={0: [("lebu", "S", 6)]})
    lebu = hand_of(state, 0, "lebu")
    state = act(state, 0, lebu, 1)[0]
    assert state["players"][1]["judge"] == [] and lebu in state["discard"]


# -- 庞德: 鞬出 ---------------------------------------------------------------------------------

def test_jianchu_equipment_discarded_means_no_dodge() -> None:
    state = qt(4, "ZCFN", heroes={0: "hg_pangde"}, hands={0: ["sha"], 1: ["shan"]}, equip={1: ["bagua"]})
    state = sha_on(state, 0, 1)
    assert asked(state) == [(0, "skill")]
    assert Flow.ask_of(state, 0).info["target"] == 1  # the question names whose card (the AI reads it)
    state = answer(state, "skill", 0, "yes")
    state = answer(state, "pick", 0, state["players"][1]["equip"]["armor"])
    assert hp(state, 1) == 3  # not asked for a 闪


def test_jianchu_a_hand_card_discarded_gives_them_the_strike() -> None:
    state = qt(4, "ZCFN", heroes={0: "hg_pangde"}, hands={0: ["sha"], 1: ["shan", "tao"]})
    sha = hand_of(state, 0, "sha")
    state = sha_on(state, 0, 1)
    state = answer(state, "skill", 0, "yes")
    state = answer(state, "pick", 0, "hand")
    assert sha in state["players"][1]["hand"]
    assert asked(state) == [(1, "need_shan")]  # the 杀 still resolves


# -- 张角: 雷击 鬼道 -----------------------------------------------------------------------------

def test_leiji_a_dodge_calls_down_two_thunder_damage_on_a_spade() -> None:
    state = qt(4, "ZCFN", heroes={1: "hg_zhangjiao"}, hands={0: ["sha"], 1: ["shan"]},
               top=[("sha", "S", 9)])
    state = sha_on(state, 0, 1)
    state = answer(state, "need_shan", 1, hand_of(state, 1, "shan"))
    assert asked(state) == [(1, "leiji")]
    assert "1" not in options(state, 1)  # another player
    state = answer(state, "leiji", 1, 2)
    assert hp(state, 2) == 2


def test_a_hidden_zhangjiaos_leiji_is_asked_and_choosing_a_target_shows_him() -> None:
    state = qt(4, "ZCFN", heroes={}, hands={0: ["sha"], 1: ["shan"]}, top=[("shan", "H", 2)])
    state["players"][1]["max"] = state["players"][1]["hp"] = 4
    two_heroes(state, 1, "hg_huatuo", "hg_zhangjiao")
    state = sha_on(state, 0, 1)
    state = answer(state, "need_shan", 1, hand_of(state, 1, "shan"))
    assert asked(state) == [(1, "leiji")] and not state["players"][1]["heroes"][1]["shown"]
    state = answer(state, "leiji", 1, 2)
    assert state["players"][1]["heroes"][1]["shown"] and hp(state, 2) == 4  # ♥: no thunder


def test_guidao_replaces_the_judgement_with_a_black_card_and_takes_the_old_one() -> None:
    state = qt(4, "ZCFN", heroes={1: "hg_zhangjiao"}, phase="judge", turn=0,
               judge={0: ["lebu"]}, hands={1: [("sha", "C", 4), ("shan", "H", 2)]}, top=[("tao", "H", 6)])
    state = pass_all(state)
    assert asked(state) == [(1, "guidao")]
    assert options(state, 1) == [hand_of(state, 1, "sha"), "pass"]  # black cards only
    tao = state["proc"][-1]
    state, events = act(state, 1, hand_of(state, 1, "sha"))
    assert tao in state["players"][1]["hand"]
    assert any(e.msg.key == "sanguosha.ev.lebu_hit" for e in events)  # the ♣ took effect


# -- 蔡文姬: 悲歌 断肠 ---------------------------------------------------------------------------

@pytest.mark.parametrize(("suit", "check"), [
    ("H", lambda s: hp(s, 1) == 4),
    ("D", lambda s: len(s["players"][1]["hand"]) == 2),
    ("S", lambda s: s["players"][0].get("stacked") is True),
])
def test_beige_by_suit(suit: str, check: Any) -> None:
    state = qt(4, "ZCFN", heroes={2: "hg_caiwenji"}, hands={0: ["sha"], 2: ["shan"]},
               top=[{"H": ("tao", "H", 6), "D": ("shan", "D", 5), "S": ("sha", "S", 9)}[suit]])
    state = sha_on(state, 0, 1)
    state = answer(state, "need_shan", 1, "pass")
    assert asked(state) == [(2, "beige")]
    state = answer(state, "beige", 2, hand_of(state, 2, "shan"))
    assert check(state)


def test_beige_club_makes_the_source_discard_two() -> None:
    state = qt(4, "ZCFN", heroes={2: "hg_caiwenji"}, hands={0: ["sha", "shan", "tao"], 2: ["shan"]},
               equip={0: ["bagua"]}, top=[("sha", "C", 5)])
    state = sha_on(state, 0, 1)
    state = answer(state, "need_shan", 1, "pass")
    state = answer(state, "beige", 2, hand_of(state, 2, "shan"))
    assert asked(state) == [(0, "hg_discard")]
    armor = state["players"][0]["equip"]["armor"]
    assert armor in options(state, 0)  # equipment counts
    state = answer(state, "hg_discard", 0, armor, hand_of(state, 0, "shan"))
    assert names(state, 0) == ["tao"] and state["players"][0]["equip"]["armor"] is None


def test_hg_duanchang_the_killer_loses_one_heros_skills() -> None:
    state = qt(4, "ZCFN", heroes={1: "hg_caiwenji"}, hp={1: 1}, hands={0: ["sha"]})
    two_heroes(state, 0, "hg_lvbu", "hg_huatuo", shown=(True, True))
    state = sha_on(state, 0, 1)
    state = answer(state, "need_shan", 1, "pass")
    state = pass_all(state, "peach")
    assert asked(state) == [(1, "hg_duanchang")]
    state = answer(state, "hg_duanchang", 1, 0)
    p = state["players"][0]
    assert p["heroes"][0]["lost"] and p["skills"] == ["jijiu", "chuli"]


def test_hg_duanchang_an_identity_killer_loses_everything() -> None:
    state = qt(4, "ZCFN", heroes={0: "guanyu", 1: "hg_caiwenji"}, hp={1: 1}, hands={0: ["sha"]})
    state = sha_on(state, 0, 1)
    state = answer(state, "need_shan", 1, "pass")
    state = pass_all(state, "peach")
    assert state["players"][0]["skills"] == []


# -- 马腾: 雄异 -----------------------------------------------------------------------------------

def test_xiongyi_the_kingdom_draws_three_and_the_smallest_heals() -> None:
    state = qt(5, "ZCFFN", heroes={0: "hg_mateng", 1: "hg_lvbu", 2: "caocao", 3: "xiahoudun", 4: "zhangliao"},
               hp={0: 2})
    state = act(state, 0, "xiongyi")[0]
    assert [len(p["hand"]) for p in state["players"]] == [3, 3, 0, 0, 0]
    assert hp(state, 0) == 3  # qun 2 < wei 3
    assert "xiongyi" not in options(state, 0)
    big = qt(4, "ZCFN", heroes={0: "hg_mateng", 1: "hg_lvbu", 2: "caocao"}, hp={0: 2})
    big = act(big, 0, "xiongyi")[0]
    assert hp(big, 0) == 2  # qun 2 > wei 1 (seat 3 has no kingdom)


# -- 孔融: 名士 礼让 -----------------------------------------------------------------------------

def test_mingshi_damage_from_a_source_with_a_hidden_hero_is_one_less() -> None:
    state = qt(4, "ZCFN", heroes={1: "hg_kongrong"}, hands={0: ["sha", "sha"]})
    two_heroes(state, 0, "hg_huatuo", "hg_lvbu", shown=(True, False))
    state = sha_on(state, 0, 1)
    state = answer(state, "need_shan", 1, "pass")
    assert hp(state, 1) == 4
    open_ = qt(4, "ZCFN", heroes={0: "guanyu", 1: "hg_kongrong"}, hands={0: ["sha"]})
    open_ = sha_on(open_, 0, 1)
    open_ = answer(open_, "need_shan", 1, "pass")
    assert hp(open_, 1) == 3


def test_lirang_gives_the_discarded_cards_away() -> None:
    state = qt(4, "ZCFN", heroes={0: "hg_kongrong"}, hp={0: 1}, hands={0: ["shan", "tao", "sha"]})
    state = act(state, 0, "end")[0]
    assert asked(state) == [(0, "discard")]
    sha, shan = hand_of(state, 0, "sha"), hand_of(state, 0, "shan")
    state = act(state, 0, sha, shan)[0]
    assert asked(state) == [(0, "lirang")]
    state = answer(state, "lirang", 0, 2, sha)
    assert sha in state["players"][2]["hand"]
    assert asked(state) == [(0, "lirang")]  # the 闪 is left to give
    state = answer(state, "lirang", 0, "pass")
    assert shan in state["discard"]


def test_lirang_a_played_dodge_is_not_a_discard() -> None:
    state = qt(4, "ZCFN", heroes={1: "hg_kongrong"}, hands={0: ["sha"], 1: ["shan", "shan"]})
    state = sha_on(state, 0, 1)
    state = answer(state, "need_shan", 1, hand_of(state, 1, "shan"))
    assert not any(k == "lirang" for _, k in asked(state))


# -- 纪灵: 双刃 (拼点) ---------------------------------------------------------------------------

def test_shuangren_won_strikes_the_target_or_its_kingdom() -> None:
    state = qt(5, "ZCFNF", heroes={0: "hg_jiling", 1: "caocao", 2: "xuchu", 4: "zhangliao"}, phase="play",
               hands={0: [("sha", "S", 10)], 1: [("shan", "H", 2)]})
    state = at_phase(state, 0, "play")
    assert asked(state) == [(0, "shuangren")]
    state = answer(state, "shuangren", 0, 1)
    state = answer(state, "pindian", 0, state["players"][0]["hand"][0])
    state = answer(state, "pindian", 1, state["players"][1]["hand"][0])
    assert asked(state) == [(0, "shuangren_sha")]
    assert set(options(state, 0)) == {"1", "4"}  # 曹操 or a wei seat in range (许褚 is out of range)
    state = answer(state, "shuangren_sha", 0, 4)
    state = answer(state, "need_shan", 4, "pass")
    assert hp(state, 4) == 3
    assert state["sha_used"] == 0  # not counted


def test_shuangren_lost_no_other_target_this_turn_and_a_tie_loses() -> None:
    state = qt(4, "ZCFN", heroes={0: "hg_jiling"}, phase="play",
               hands={0: [("sha", "S", 7), "sha"], 1: [("sha", "C", 7)]})
    state = at_phase(state, 0, "play")
    state = answer(state, "shuangren", 0, 1)
    state = answer(state, "pindian", 0, card_named(state, 0, "sha", "S"))
    state = answer(state, "pindian", 1, state["players"][1]["hand"][0])
    assert ENGINE.pending(state)[0].kind == "play"
    assert hand_of(state, 0, "sha") not in options(state, 0)  # nobody else may be targeted
    state["players"][0]["hand"].append(find(state, "nanman"))
    state["deck"].remove(state["players"][0]["hand"][-1])
    state = act(state, 0, hand_of(state, 0, "nanman"))[0]
    assert ENGINE.pending(state)[0].kind == "play" and all(hp(state, x) == 4 for x in (1, 2, 3))


# -- hidden heroes: a skill of a face-down hero ------------------------------------------------

def test_a_hidden_tianfengs_sijian_is_offered_and_using_it_shows_him() -> None:
    state = qt(4, "ZCFN", heroes={}, hands={0: ["sha"], 2: ["shan"]})
    state["players"][0]["max"] = state["players"][0]["hp"] = 4
    two_heroes(state, 0, "hg_tianfeng", "hg_huatuo")
    state = sha_on(state, 0, 1)
    assert asked(state) == [(0, "sijian")]
    state = answer(state, "sijian", 0, 2)
    assert state["players"][0]["heroes"][0]["shown"] and not state["players"][0]["heroes"][1]["shown"]


def test_a_hidden_hero_whose_skills_were_taken_offers_none() -> None:
    state = qt(4, "ZCFN", heroes={}, hands={0: [("sha", "S", 7)], 1: ["shan"]})
    two_heroes(state, 0, "hg_huatuo", "hg_lvbu")
    assert "chuli" in options(state, 0)
    state["players"][0]["heroes"][0]["lost"] = True  # 断肠 chose the face-down 华佗
    assert "chuli" not in options(state, 0)


def test_chuli_picks_among_hand_and_equipment_never_the_judgement_area() -> None:
    state = qt(4, "ZCFN", heroes={0: "hg_huatuo"}, hands={0: ["sha"], 1: ["shan"]}, equip={1: ["bagua"]},
               judge={1: ["lebu"]})
    state = act(state, 0, "chuli", hand_of(state, 0, "sha"), 1)[0]
    assert set(options(state, 0)) == {"hand", state["players"][1]["equip"]["armor"]}


# -- 田丰: 死谏 随势 -----------------------------------------------------------------------------

def test_sijian_the_last_hand_card_gone_discards_a_card_of_another() -> None:
    state = qt(4, "ZCFN", heroes={0: "hg_tianfeng"}, hands={0: ["sha"], 2: ["shan"]}, equip={1: ["bagua"]})
    state = sha_on(state, 0, 1)
    assert asked(state) == [(0, "sijian")]
    assert set(options(state, 0)) == {"1", "2", "pass"}
    state = answer(state, "sijian", 0, 2)
    state = answer(state, "pick", 0, "hand")
    assert state["players"][2]["hand"] == []


def test_suishi_draws_when_an_ally_brings_someone_to_dying_and_loses_when_an_ally_dies() -> None:
    state = qt(5, "ZFCFN", heroes={0: "hg_lvbu", 1: "zhangliao", 2: "hg_tianfeng", 4: "hg_huatuo"},
               hp={1: 1, 4: 1}, hands={0: ["sha", "sha"]})
    state["sha_used"] = -1
    state = sha_on(state, 0, 1)
    state = answer(state, "need_shan", 1, "pass")
    assert len(state["players"][2]["hand"]) == 1  # 吕布 (qun) brought 张辽 to dying
    state = pass_all(state, "peach")
    assert not state["players"][1]["alive"] and hp(state, 2) == 4  # 张辽 is no ally of 田丰
    state = sha_on(state, 0, 4)
    state = answer(state, "need_shan", 4, "pass")
    assert len(state["players"][2]["hand"]) == 2
    state = pass_all(state, "peach")
    assert not state["players"][4]["alive"] and hp(state, 2) == 3  # 华佗 was


# -- 潘凤: 狂斧 ---------------------------------------------------------------------------------

def test_kuangfu_takes_an_equipped_card_and_a_miss_costs_two_cards() -> None:
    state = qt(4, "ZCFN", heroes={0: "hg_panfeng"}, hands={0: ["sha", "tao", "shan"], 1: ["shan"]},
               equip={1: ["bagua"]})
    armor = state["players"][1]["equip"]["armor"]
    state = sha_on(state, 0, 1)
    assert asked(state) == [(0, "kuangfu")]
    state = answer(state, "kuangfu", 0, armor)
    assert armor in state["players"][0]["hand"]
    state = answer(state, "need_shan", 1, hand_of(state, 1, "shan"))
    assert asked(state) == [(0, "hg_discard")]
    state = answer(state, "hg_discard", 0, hand_of(state, 0, "tao"), hand_of(state, 0, "shan"))
    assert state["players"][0]["hand"] == [armor]


def test_kuangfu_a_hit_costs_nothing() -> None:
    state = qt(4, "ZCFN", heroes={0: "hg_panfeng"}, hands={0: ["sha", "tao"]}, equip={1: ["bagua"]})
    armor = state["players"][1]["equip"]["armor"]
    state = sha_on(state, 0, 1)
    state = answer(state, "kuangfu", 0, armor)
    state = answer(state, "need_shan", 1, "pass")
    assert hp(state, 1) == 3 and ENGINE.pending(state)[0].kind == "play"


# -- 邹氏: 祸水 倾城 -----------------------------------------------------------------------------

def test_huoshui_no_hidden_skill_may_be_used_by_others_in_her_turn() -> None:
    state = qt(4, "ZCFN", heroes={0: "hg_zoushi"}, hands={0: ["sha"], 1: ["shan"]})
    two_heroes(state, 1, "hg_zhangjiao", "hg_huatuo")
    assert not R.has_skill(state, 1, "leiji", hidden=True)
    state["turn"] = 2
    assert R.has_skill(state, 1, "leiji", hidden=True)


def test_huoshui_her_strike_cannot_be_dodged_by_a_hidden_seat_of_another_kingdom() -> None:
    state = qt(4, "ZCFN", heroes={0: "hg_zoushi"}, hands={0: ["sha", "sha"], 1: ["shan"], 3: ["shan"]},
               equip={1: ["bagua"]}, top=[("tao", "H", 6)])
    two_heroes(state, 1, "zhangliao", "xuchu", shown=(True, False))
    state["sha_used"] = -1
    state, events = act(state, 0, hand_of(state, 0, "sha"), 1)
    assert hp(state, 1) == 3  # never asked for a 闪
    assert not any(e.msg.key == "sanguosha.ev.judge" for e in events)  # nor may 八卦阵 answer
    two_heroes(state, 3, "hg_lvbu", "hg_huatuo", shown=(True, False))  # qun, as she is
    state = sha_on(state, 0, 3)
    assert asked(state) == [(3, "need_shan")]


def test_qingcheng_turns_a_hero_of_a_fully_shown_seat_face_down() -> None:
    state = qt(4, "ZCFN", heroes={0: "hg_zoushi"}, hands={0: [("sha", "S", 7)]}, equip={0: [("renwang", "C", 2)]})
    two_heroes(state, 1, "caocao", "xiahoudun", shown=(True, True))
    two_heroes(state, 2, "liubei", "guanyu", shown=(True, False))
    state["players"][0]["equip"]["armor"], shield = None, state["players"][0]["equip"]["armor"]
    state["players"][0]["hand"].append(shield)
    sha = hand_of(state, 0, "sha")
    assert options(state, 0, "qingcheng", sha) == ["1"]  # seat 2 has a hero face down already
    state = act(state, 0, "qingcheng", sha, 1, 1)[0]
    assert state["players"][1]["heroes"][1]["shown"] is False and "ganglie" not in state["players"][1]["skills"]


# -- 拼点 ---------------------------------------------------------------------------------------

def test_pindian_shows_both_cards_and_discards_them() -> None:
    state = qt(4, "ZCFN", heroes={0: "hg_jiling"}, phase="play",
               hands={0: [("shan", "H", 2)], 1: [("shan", "D", 3)]})
    state = at_phase(state, 0, "play")
    state = answer(state, "shuangren", 0, 1)
    a, b = state["players"][0]["hand"][0], state["players"][1]["hand"][0]
    state = answer(state, "pindian", 0, a)
    assert a in state["players"][0]["hand"]  # chosen in secret, still in hand
    state, events = act(state, 1, b)
    assert a in state["discard"] and b in state["discard"]
    assert any(e.msg.key == "sanguosha.ev.pindian" and e.msg.params["winner"] == {"seat": 1, "key": ""} for e in events)


# -- all-AI identity games with these heroes ------------------------------------------------------

def test_seeded_ai_games_with_the_qun_heroes_finish_with_every_card_accounted_for() -> None:
    ids = sorted(engines.sanguosha.hg_heroes.heroes.heroes("hg_qun"))
    for seed in range(6):
        n = 4 + seed % 4
        state = ENGINE.new_state({"heroes": "beginner"}, n, 700 + seed)
        state["mode"] = MODE
        rng = random.Random(seed)
        for seat in range(n):
            assign(state, seat, ids[(seed * 5 + seat) % len(ids)])
            p = state["players"][seat]
            p["max"] = p["hp"] = 3 + (1 if seat == state["lord"] else 0)
        before = sum(count_cards(state).values())
        for _ in range(6000):
            if ENGINE.result(state) is not None:
                break
            reqs = ENGINE.pending(state)
            r = reqs[rng.randrange(len(reqs))]
            state, _ = ENGINE.apply(state, r.seat, ENGINE.ai_action(state, r.seat, rng, request=r), request=r)
            seen = count_cards(state)
            assert all(v == 1 for v in seen.values()) and sum(seen.values()) == before
        assert ENGINE.result(state) is not None, seed

