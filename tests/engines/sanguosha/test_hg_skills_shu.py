"""国战 shu heroes (``data/sanguosha/hegemony/shu.json``, ``skills_hg_shu.py``): each skill at an
exact table, each hegemony difference from the identity version, a hidden hero's skills, and
seeded all-AI identity games with these heroes.

The tables are identity tables (kingdoms are the heroes') played on a test mode whose flow also
installs the hegemony heroes' pack, as the hegemony mode will.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from sgs_testkit import act, answer, asked, count_cards, hand_of, hp, names, options, pass_all, table
from test_sgs_two_heroes import two_heroes

import engines.sanguosha.hg_heroes as hg_heroes
from engines.flow import Ctx
from engines.sanguosha import ENGINE, ai, modes
from engines.sanguosha import rules as R
from engines.sanguosha.heroes import hero, heroes
from engines.sanguosha.identity import IdentityMode
from engines.sanguosha.packs import HEGEMONY_HEROES

State = dict[str, Any]


class WithHegemonyHeroes(IdentityMode):
    name = "test_identity_with_hg_heroes"
    packs = (*IdentityMode.packs, HEGEMONY_HEROES)


@pytest.fixture(autouse=True)
def hg_mode(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    modes.install(WithHegemonyHeroes())
    monkeypatch.setattr(ai, "STRICT", True)
    yield
    modes.uninstall(WithHegemonyHeroes.name)


def hg(n: int, roles: str, *, heroes: dict[int, str], hp: dict[int, int] | None = None,
       phase: str = "play", turn: int = 0, **kw: Any) -> State:
    """An identity table with hegemony heroes (max HP 4 unless ``hp`` says more), on the test
    mode; ``phase`` of ``turn`` starts on that mode's flow."""
    state = table(n, roles, heroes=heroes, turn=turn, **kw)
    for seat, p in enumerate(state["players"]):
        p["max"] = max(4, (hp or {}).get(seat, 4))
        p["hp"] = (hp or {}).get(seat, p["max"])
    state["mode"] = WithHegemonyHeroes.name
    return restart(state, turn, phase)


def restart(state: State, seat: int, phase: str) -> State:
    """Run ``seat``'s turn from ``phase`` on the state's own flow (skills there act)."""
    idx = R.PHASES.index(phase)
    state["turn"], state["phase"] = seat, phase
    state["flow"]["stack"] = [{"k": "game", "cur": seat},
                              {"k": "turn", "seat": seat, "st": (*R.PHASES, "end")[idx + 1]},
                              {"k": "phase", "seat": seat, "name": phase, "st": "start"}]
    flow = R.flow_of(state)
    flow.run(Ctx(flow, state))
    return state


def sha(state: State, user: int, target: int) -> State:
    return act(state, user, hand_of(state, user, "sha"), target)[0]


def keys(events: list) -> list[str]:
    return [e.msg.key.rsplit(".", 1)[-1] for e in events]


# -- the pack ---------------------------------------------------------------------------------

def test_the_shu_pack_is_complete_with_its_hp_halves_and_hegemony_skill_ids() -> None:
    assert len(hg_heroes.heroes.heroes("hg_shu")) == 15  # the pack validates on its own terms
    shu = heroes("hg_shu")
    assert len(shu) == 15 and {h.kingdom for h in shu.values()} == {"shu"}
    halves = {hid: int(h.hp * 2) for hid, h in shu.items()}
    assert halves == {"hg_liubei": 4, "hg_guanyu": 5, "hg_zhangfei": 4, "hg_zhugeliang": 3, "hg_zhaoyun": 4,
                      "hg_machao": 4, "hg_huangyueying": 3, "hg_huangzhong": 4, "hg_weiyan": 4, "hg_pangtong": 3,
                      "hg_wolong": 3, "hg_liushan": 3, "hg_menghuo": 4, "hg_zhurong": 4, "hg_ganfuren": 3}
    assert {hid for hid, h in shu.items() if h.gender == "f"} == {"hg_huangyueying", "hg_zhurong", "hg_ganfuren"}
    assert hero("hg_liubei").skills == ("hg_rende",)
    assert hero("hg_zhugeliang").skills == ("guanxing", "hg_kongcheng")
    assert hero("hg_wolong").skills == ("bazhen", "huoji", "kanpo")


# -- 仁德: the third card given heals (identity: the second) -----------------------------------

def test_hg_rende_heals_at_the_third_card_given_not_the_second() -> None:
    state = hg(4, "ZNFF", heroes={0: "hg_liubei"}, hp={0: 2}, hands={0: ["shan", "tao", "sha", "shan"]})
    state = act(state, 0, "hg_rende", 1, hand_of(state, 0, "shan"), hand_of(state, 0, "tao"))[0]
    assert hp(state, 0) == 2 and names(state, 1) == ["shan", "tao"]  # identity 仁德 would heal here
    state = act(state, 0, "hg_rende", 2, hand_of(state, 0, "sha"))[0]
    assert hp(state, 0) == 3
    state = act(state, 0, "hg_rende", 2, hand_of(state, 0, "shan"))[0]
    assert hp(state, 0) == 3  # once per phase


# -- 空城: a 杀 may target 诸葛亮 with no hand; it is cancelled for him -------------------------------

def test_hg_kongcheng_cancels_the_target_it_does_not_refuse_it() -> None:
    state = hg(4, "ZNFF", heroes={1: "hg_zhugeliang"}, hands={0: ["sha", "sha"]})
    assert "1" in options(state, 0, hand_of(state, 0, "sha"))  # identity 空城: not a legal target
    state, events = act(state, 0, hand_of(state, 0, "sha"), 1)
    assert "kongcheng_cancel" in keys(events) and asked(state) == [(0, "play")] and hp(state, 1) == 4
    assert state["sha_used"] == 1


def test_hg_kongcheng_with_a_hand_does_nothing() -> None:
    state = hg(4, "ZNFF", heroes={1: "hg_zhugeliang"}, hands={0: ["sha"], 1: ["tao"]})
    state = sha(state, 0, 1)
    assert asked(state) == [(1, "need_shan")]


def test_a_hidden_zhugeliangs_kongcheng_is_offered_as_a_reveal() -> None:
    base = hg(4, "ZNFF", heroes={}, hands={0: ["sha", "sha"]})
    base = two_heroes(base, 1, "hg_huangyueying", "hg_zhugeliang")
    state = sha(base, 0, 1)
    assert asked(state) == [(1, "skill")]
    shown, _ = act(state, 1, "yes")
    assert shown["players"][1]["heroes"][1]["shown"] and asked(shown) == [(0, "play")]
    kept, _ = act(state, 1, "pass")
    assert not any(h["shown"] for h in kept["players"][1]["heroes"]) and asked(kept) == [(1, "need_shan")]


# -- 烈弓 ------------------------------------------------------------------------------------------

def test_liegong_on_a_hand_at_least_her_hp_cannot_be_dodged() -> None:
    state = hg(4, "ZNFF", heroes={0: "hg_huangzhong"}, hp={0: 2}, hands={0: ["sha"], 1: ["shan", "shan"]})
    state = sha(state, 0, 1)
    assert asked(state) == [(0, "skill")]
    state, events = act(state, 0, "yes")
    assert "liegong_hit" in keys(events) and hp(state, 1) == 3 and names(state, 1) == ["shan", "shan"]


def test_liegong_is_not_offered_between_hp_and_range() -> None:
    state = hg(4, "ZNFF", heroes={0: "hg_huangzhong"}, hands={0: ["sha"], 1: ["shan", "shan"]})
    state = sha(state, 0, 1)  # 2 cards: < 4 HP and > range 1
    assert asked(state) == [(1, "need_shan")]


# -- 狂骨 ------------------------------------------------------------------------------------------

def test_kuanggu_heals_for_damage_within_distance_one_only() -> None:
    state = hg(5, "ZNFFC", heroes={0: "hg_weiyan"}, hp={0: 2}, hands={0: ["sha", "sha"]},
               equip={0: [("qilin", "H", 5)]})
    state = pass_all(sha(state, 0, 1), "need_shan")
    assert hp(state, 1) == 3 and hp(state, 0) == 3  # adjacent: healed 1
    state["sha_used"] = 0
    state = pass_all(sha(state, 0, 2), "need_shan")
    assert hp(state, 2) == 3 and hp(state, 0) == 3  # distance 2 (in 麒麟弓's range): nothing


def test_kuanggu_heals_also_when_the_damage_kills() -> None:
    state = hg(4, "ZNFF", heroes={0: "hg_weiyan"}, hp={0: 2, 1: 1}, hands={0: ["sha"]})
    state = pass_all(pass_all(sha(state, 0, 1), "need_shan"), "peach")
    assert not state["players"][1]["alive"] and hp(state, 0) == 3


# -- 连环 / 火计: conversions; recast --------------------------------------------------------------

def test_lianhuan_recasts_a_club_or_uses_it_as_tiesuo() -> None:
    state = hg(4, "ZNFF", heroes={0: "hg_pangtong"}, hands={0: [("sha", "C")]})
    assert "lianhuan_tiesuo" in options(state, 0)  # 铁索连环, the hegemony deck's card
    club = hand_of(state, 0, "sha")
    chained, _ = act(state, 0, "lianhuan_tiesuo", club, 1)
    chained = pass_all(chained, "nullify")
    assert chained["players"][1].get("chained") and club in chained["discard"]
    state, events = act(state, 0, "lianhuan", club)
    assert club in state["discard"] and len(state["players"][0]["hand"]) == 1 and "lianhuan_recast" in keys(events)


def test_huoji_uses_a_red_hand_card_as_huogong() -> None:
    state = hg(4, "ZNFF", heroes={0: "hg_wolong"}, hands={0: [("tao", "H"), ("sha", "S")], 1: ["shan"]}, hp={0: 3})
    assert "huoji" in options(state, 0)
    red = hand_of(state, 0, "tao")
    assert options(state, 0, "huoji") == [red]  # a black card is no 火攻
    state, _ = act(state, 0, "huoji", red, 1)
    assert red in state["discard"] or red in state["proc"]


# -- 涅槃 ------------------------------------------------------------------------------------------

def test_niepan_once_discards_everything_draws_three_and_goes_to_three_hp() -> None:
    state = hg(4, "ZNFF", heroes={1: "hg_pangtong"}, hp={1: 1}, hands={0: ["sha", "sha"], 1: ["shan"]},
               equip={1: ["chitu"]})
    state["players"][1]["chained"] = True
    state = pass_all(sha(state, 0, 1), "need_shan")
    assert asked(state) == [(1, "skill")]
    state, _ = act(state, 1, "yes")
    p = state["players"][1]
    assert hp(state, 1) == 3 and len(p["hand"]) == 3 and not p["equip"]["plus"] and not p["chained"]
    assert p["limited"] == ["niepan"]
    state["players"][1]["hp"] = 1
    state["sha_used"] = 0
    state = pass_all(sha(state, 0, 1), "need_shan")
    assert ("1", "skill") not in [(str(s), k) for s, k in asked(state)]
    assert any(k == "peach" for _, k in asked(state))


# -- 八阵 ------------------------------------------------------------------------------------------

def test_bazhen_judges_like_bagua_without_armour() -> None:
    state = hg(4, "ZNFF", heroes={1: "hg_wolong"}, hands={0: ["sha"]}, top=[("tao", "H")])
    state, events = act(state, 0, hand_of(state, 0, "sha"), 1)
    assert "bagua_ok" in keys(events) and hp(state, 1) == 4 and asked(state) == [(0, "play")]


def test_bazhen_does_nothing_with_armour_worn() -> None:
    state = hg(4, "ZNFF", heroes={1: "hg_wolong"}, hands={0: [("sha", "D")]}, equip={1: ["renwang"]},
               top=[("tao", "H")])
    state = act(state, 0, hand_of(state, 0, "sha"), 1)[0]
    assert asked(state) == [(1, "need_shan")]


# -- 看破 ------------------------------------------------------------------------------------------

def test_kanpo_uses_a_black_hand_card_as_wuxie() -> None:
    state = hg(4, "ZNFF", heroes={1: "hg_wolong"}, hands={0: ["juedou"], 1: [("sha", "S")]})
    state = act(state, 0, hand_of(state, 0, "juedou"), 1)[0]
    assert "kanpo" in options(state, 1)
    black = hand_of(state, 1, "sha")
    state, events = act(state, 1, "kanpo", black)
    assert black in state["discard"] and "wuxie" in keys(events)
    state = pass_all(state)
    assert hp(state, 1) == 4 and asked(state) == [(0, "play")]


# -- 享乐 ------------------------------------------------------------------------------------------

def test_xiangle_voids_the_strike_unless_a_basic_card_is_discarded() -> None:
    state = hg(4, "ZNFF", heroes={1: "hg_liushan"}, hands={0: ["sha", "shan", "sha"]})
    state = sha(state, 0, 1)
    assert asked(state) == [(0, "xiangle")]
    voided, events = act(state, 0, "pass")
    assert "void" in keys(events) and asked(voided) == [(0, "play")]
    paid, _ = act(state, 0, hand_of(state, 0, "shan"))
    assert asked(paid) == [(1, "need_shan")]


def test_xiangle_with_no_basic_card_voids_at_once() -> None:
    state = hg(4, "ZNFF", heroes={1: "hg_liushan"}, hands={0: ["sha", "juedou"]})
    state, events = act(state, 0, hand_of(state, 0, "sha"), 1)
    assert "void" in keys(events) and asked(state) == [(0, "play")]


# -- 放权 ------------------------------------------------------------------------------------------

def test_fangquan_skips_the_play_phase_and_gives_an_extra_turn() -> None:
    state = hg(4, "ZNFF", heroes={1: "hg_liushan"}, phase="draw", hands={1: ["shan", "shan"]}, turn=1)
    state = pass_all(state)
    assert asked(state) == [(1, "skill")]  # 放权 at the play phase's start
    state, events = act(state, 1, "yes")
    assert "skip_phase" in keys(events)
    while asked(state) and asked(state)[0][1] == "discard":
        state = act(state, 1, *state["players"][1]["hand"][:len(state["players"][1]["hand"]) - 4])[0]
    assert asked(state) == [(1, "fangquan")]
    cid = state["players"][1]["hand"][0]
    state, events = act(state, 1, cid, 0)
    assert cid in state["discard"] and "fangquan_turn" in keys(events) and state["turn"] == 0
    assert state["round"] == 1  # the lord's extra turn begins no round
    while state["turn"] == 0:  # after the extra turn, play goes on after 刘禅: seat 2
        r = ENGINE.pending(state)[0]
        state = ENGINE.apply(state, r.seat, ["end"] if r.kind == "play" else ENGINE.ai_action(
            state, r.seat, random.Random(0), request=r), request=r)[0]
    assert state["turn"] == 2 and state["round"] == 1


# -- 祸首 / 巨象 -----------------------------------------------------------------------------------

def test_huoshou_is_immune_and_the_source_of_anothers_nanman_damage() -> None:
    state = hg(4, "ZNFF", heroes={2: "hg_menghuo"}, hands={0: ["nanman"]})
    state, events = act(state, 0, hand_of(state, 0, "nanman"))
    assert "nanman_immune" in keys(events)
    state = pass_all(state)
    state = pass_all(state, "need_sha")
    state = pass_all(state)
    state = pass_all(state, "need_sha")
    assert hp(state, 1) == 3 and hp(state, 3) == 3 and hp(state, 2) == 4
    assert state["acts"][2][1] == 2 and state["acts"][0][1] == 1  # the damage was 孟获's, the use 0's


def test_juxiang_is_immune_and_takes_the_nanman() -> None:
    state = hg(4, "ZNFF", heroes={3: "hg_zhurong"}, hands={0: ["nanman"]})
    nanman = hand_of(state, 0, "nanman")
    state, events = act(state, 0, nanman)
    assert "nanman_immune" in keys(events)
    for _ in range(2):
        state = pass_all(pass_all(state), "need_sha")
    assert hp(state, 3) == 4 and nanman in state["players"][3]["hand"]


# -- 再起 ------------------------------------------------------------------------------------------

def test_zaiqi_reveals_lost_hp_cards_hearts_heal_the_rest_are_taken() -> None:
    state = hg(4, "ZNFF", heroes={0: "hg_menghuo"}, hp={0: 1}, phase="draw",
               top=[("tao", "H"), ("sha", "S"), ("shan", "H")])
    assert asked(state) == [(0, "skill")]
    state, events = act(state, 0, "yes")
    assert "zaiqi_reveal" in keys(events) and hp(state, 0) == 3 and names(state, 0) == ["sha"]


# -- 烈刃 ------------------------------------------------------------------------------------------

def test_lieren_compares_after_the_strike_hits_and_a_win_takes_a_card() -> None:
    state = hg(4, "ZNFF", heroes={0: "hg_zhurong"}, hands={0: [("sha", "D", 13), ("jiedao", "C", 13)],
                                                        1: [("shan", "D", 2)]}, equip={1: ["renwang"]},
               judge={1: ["lebu"]})
    state = act(state, 0, hand_of(state, 0, "sha"), 1)[0]
    state = answer(state, "need_shan", 1, "pass") if asked(state) == [(1, "need_shan")] else state
    assert asked(state) == [(0, "skill")]
    state, _ = act(state, 0, "yes")
    assert sorted(asked(state)) == [(0, "pindian"), (1, "pindian")]  # both choose at once, in secret
    state, _ = act(state, 0, hand_of(state, 0, "jiedao"))
    assert asked(state) == [(1, "pindian")]
    state, events = act(state, 1, hand_of(state, 1, "shan"))
    assert "pindian" in keys(events) and asked(state) == [(0, "pick")]
    armour = state["players"][1]["equip"]["armor"]
    assert options(state, 0) == [armour]  # "one of their cards": hand or equipment, no delayed trick
    state, _ = act(state, 0, armour)
    assert armour in state["players"][0]["hand"]


# -- 淑慎 / 神智 -----------------------------------------------------------------------------------

def test_shushen_lets_another_seat_draw_per_hp_recovered() -> None:
    state = hg(4, "ZNFF", heroes={0: "hg_ganfuren"}, hp={0: 2}, hands={0: ["tao"]})
    state = act(state, 0, hand_of(state, 0, "tao"))[0]
    state = pass_all(state)
    assert asked(state) == [(0, "shushen")]
    state, _ = act(state, 0, 2)
    assert len(state["players"][2]["hand"]) == 1 and asked(state) == [(0, "play")]


def test_shenzhi_discards_the_hand_and_heals_when_it_was_at_least_the_hp() -> None:
    state = hg(4, "ZNFF", heroes={0: "hg_ganfuren"}, hp={0: 2}, phase="prepare", hands={0: ["sha", "sha"]})
    assert asked(state) == [(0, "skill")]
    state, _ = act(state, 0, "yes")
    assert hp(state, 0) == 3 and not state["players"][0]["hand"]
    short = hg(4, "ZNFF", heroes={0: "hg_ganfuren"}, hp={0: 3}, phase="prepare", hands={0: ["sha", "sha"]})
    held = list(short["players"][0]["hand"])
    short, _ = act(short, 0, "yes")
    assert hp(short, 0) == 3 and all(c in short["discard"] for c in held)  # 2 < 3 HP: no heal


# -- the standard skills the data names (国战 wording = identity wording) --------------------------

@pytest.mark.parametrize(("hid", "probe"), [("hg_guanyu", "wusheng"), ("hg_zhaoyun", "longdan_sha")])
def test_heroes_with_standard_skills_play_them(hid: str, probe: str) -> None:
    state = hg(4, "ZNFF", heroes={0: hid}, hands={0: [("tao", "H"), "shan"]}, hp={0: 4})
    assert probe in options(state, 0)


# -- seeded all-AI games ---------------------------------------------------------------------------

@pytest.mark.parametrize(("seed", "hidden"), [(seed, False) for seed in range(6)] + [(6, True), (7, True)])
def test_seeded_ai_games_with_the_shu_heroes_finish_with_every_card_kept(seed: int, hidden: bool) -> None:
    """Identity games (4–7 seats) after the hero choice, every seat given shu heroes: one shown
    hero each, or (``hidden``) two hidden ones each, shown as their skills are used."""
    rng = random.Random(seed)
    n = 4 + seed % 4
    state = ENGINE.new_state({"heroes": "standard"}, n, 7000 + seed)
    while any(r.kind == "hero" for r in ENGINE.pending(state)):
        r = ENGINE.pending(state)[0]
        state = ENGINE.apply(state, r.seat, ENGINE.ai_action(state, r.seat, rng, request=r), request=r)[0]
    pool = sorted(heroes("hg_shu"))
    rng.shuffle(pool)
    for seat, p in enumerate(state["players"]):
        if hidden:
            two_heroes(state, seat, pool[2 * seat], pool[2 * seat + 1])
            continue
        h = hero(pool[seat])
        p["hero"], p["kingdom"], p["gender"] = h.id, h.kingdom, h.gender
        p["skills"] = list(h.skills)
    state["mode"] = WithHegemonyHeroes.name
    for _ in range(6000):
        if ENGINE.result(state) is not None:
            break
        reqs = ENGINE.pending(state)
        r = reqs[rng.randrange(len(reqs))]
        state = ENGINE.apply(state, r.seat, ENGINE.ai_action(state, r.seat, rng, request=r), request=r)[0]
        counts = count_cards(state)
        assert len(counts) == 108 and set(counts.values()) == {1}
    assert ENGINE.result(state) is not None
    if hidden:
        assert any(h["shown"] for p in state["players"] for h in p["heroes"])


# -- the AI's hints --------------------------------------------------------------------------------

def _ai(state: State, seat: int) -> list[str]:
    return ENGINE.ai_action(state, seat, random.Random(0))


def proven_friend(state: State) -> State:
    """Seat 1 hurt seat 2, who hurt the lord (seat 0): the lord's AI counts seat 1 a friend."""
    state["acts"][1][2] = 4
    state["acts"][2][0] = 4
    return state


def test_the_ai_does_not_strike_an_empty_handed_kongcheng_or_an_unpaid_xiangle() -> None:
    """A rebel's only enemy in reach is the lord: 诸葛亮 with no hand (空城 cancels the 杀) or 刘禅
    while the rebel has no other basic card (享乐 voids it): it does not waste the 杀."""
    for lord, hands in (("hg_zhugeliang", {1: ["sha"]}), ("hg_liushan", {1: ["sha"], 0: ["shan"]})):
        state = hg(4, "ZFCC", heroes={0: lord}, hands=hands, turn=1)
        assert _ai(state, 1) == ["end"]
    paying = hg(4, "ZFCC", heroes={0: "hg_liushan"}, hands={1: ["sha", "shan"], 0: ["shan"]}, turn=1)
    assert _ai(paying, 1) == [hand_of(paying, 1, "sha"), "0"]


def test_the_ai_pays_xiangle_against_an_enemy_only() -> None:
    state = hg(4, "ZFCC", heroes={0: "hg_liushan"}, hands={1: ["sha", "shan"], 0: ["shan"]}, turn=1)
    state = sha(state, 1, 0)
    assert asked(state) == [(1, "xiangle")] and _ai(state, 1) == [hand_of(state, 1, "shan")]


def test_the_ai_compares_with_its_highest_spare_card_and_rende_reaches_the_heal() -> None:
    state = hg(4, "ZFCC", heroes={0: "hg_zhurong"}, hands={0: [("sha", "D", 13), ("jiedao", "C", 13), ("sha", "C", 2)],
                                                        1: [("shan", "D", 2)]}, turn=0)
    state = pass_all(sha(state, 0, 1), "need_shan")
    state, _ = act(state, 0, "yes")
    assert (0, "pindian") in asked(state) and _ai(state, 0) == [hand_of(state, 0, "jiedao")]
    giver = proven_friend(hg(5, "ZCFFN", heroes={0: "hg_liubei"}, hp={0: 2}, hands={0: ["shan", "shan", "wuxie", "wugu"]}))
    move = _ai(giver, 0)
    assert move[:2] == ["hg_rende", "1"] and len(move) - 2 == 3  # the third card heals


def test_the_ai_lets_a_friend_draw_with_shushen() -> None:
    state = proven_friend(hg(5, "ZCFFN", heroes={0: "hg_ganfuren"}, hp={0: 2}, hands={0: ["tao"]}))
    state = pass_all(act(state, 0, hand_of(state, 0, "tao"))[0])
    assert asked(state) == [(0, "shushen")] and _ai(state, 0) == ["1"]


# -- hidden heroes: using a skill shows the hero --------------------------------------------------

def test_a_hidden_liubeis_rende_is_offered_and_giving_shows_him() -> None:
    state = two_heroes(hg(4, "ZNFF", heroes={}, hands={0: ["sha", "shan"]}), 0, "hg_guanyu", "hg_liubei")
    assert "hg_rende" in options(state, 0)
    state, events = act(state, 0, "hg_rende", 1, hand_of(state, 0, "sha"))
    assert state["players"][0]["heroes"] == [{"id": "hg_guanyu", "shown": False}, {"id": "hg_liubei", "shown": True}]
    assert "hero_shown" in keys(events)


def test_a_hidden_wolongs_bazhen_asks_before_judging() -> None:
    state = two_heroes(hg(4, "ZNFF", heroes={}, hands={0: ["sha"]}, top=[("tao", "H")]), 1, "hg_wolong", "hg_pangtong")
    state = sha(state, 0, 1)
    assert asked(state) == [(1, "skill")]
    declined, _ = act(state, 1, "pass")
    assert asked(declined) == [(1, "need_shan")] and not declined["players"][1]["heroes"][0]["shown"]
    used, events = act(state, 1, "yes")
    assert used["players"][1]["heroes"][0]["shown"] and "bagua_ok" in keys(events)


def test_a_hidden_huangzhongs_liegong_asks_and_a_yes_shows_him() -> None:
    state = two_heroes(hg(4, "ZNFF", heroes={}, hands={0: ["sha"], 1: ["shan"] * 4}), 0, "hg_weiyan", "hg_huangzhong")
    state = sha(state, 0, 1)
    assert asked(state) == [(0, "skill")]
    state, _ = act(state, 0, "yes")
    assert state["players"][0]["heroes"][1]["shown"] and not state["players"][0]["heroes"][0]["shown"]


# -- the standard skills of hegemony heroes ---------------------------------------------------------

def test_zhangfei_machao_and_huangyueying_play_their_standard_skills() -> None:
    state = hg(4, "ZNFF", heroes={0: "hg_zhangfei"}, hands={0: ["sha", "sha"]})
    state = pass_all(sha(state, 0, 1), "need_shan")
    assert hand_of(state, 0, "sha") in options(state, 0)  # 咆哮: a second 杀
    state = hg(4, "ZNFF", heroes={0: "hg_machao"}, hands={0: ["sha"]})
    assert asked(sha(state, 0, 1)) == [(0, "skill")]  # 铁骑
    state = hg(4, "ZNFF", heroes={0: "hg_huangyueying"}, hands={0: ["wuzhong"]})
    state = act(state, 0, hand_of(state, 0, "wuzhong"))[0]
    assert asked(state) == [(0, "skill")]  # 集智


def test_the_first_pindian_card_stays_secret_until_both_are_chosen() -> None:
    import json

    state = hg(4, "ZFCC", heroes={0: "hg_zhurong"}, hands={0: [("sha", "D", 13), ("jiedao", "C", 13)],
                                                        1: [("shan", "D", 2)]})
    state = pass_all(sha(state, 0, 1), "need_shan")
    state, _ = act(state, 0, "yes")
    chosen = hand_of(state, 0, "jiedao")
    state, events = act(state, 0, chosen)
    assert asked(state) == [(1, "pindian")]
    for viewer in (None, 1, 2, 3):
        assert chosen not in json.dumps(ENGINE.view(state, viewer))
    assert all(chosen not in json.dumps(e.msg.to_json()) for e in events if e.to is None or 0 not in e.to)


def test_the_ai_keeps_its_play_phase_when_it_has_cards_to_play() -> None:
    state = proven_friend(hg(5, "ZCFFN", heroes={0: "hg_liushan"}, phase="draw", hands={0: ["sha", "shan"]}))
    state = pass_all(state)
    assert asked(state) == [(0, "skill")] and _ai(state, 0) == ["pass"]
    idle = proven_friend(hg(5, "ZCFFN", heroes={0: "hg_liushan"}, phase="draw", hands={0: ["shan", "shan"]},
                            top=[("shan", "H"), ("bagua", "S")]))
    idle = pass_all(idle)
    assert _ai(idle, 0) == ["yes"]
