"""The 15 wei heroes of 国战 (hegemony): each hegemony skill on an exact table, the hegemony
differences from the identity skills, hidden heroes revealed by using their skill, and seeded
all-AI games with these heroes. The tables are identity tables played on a flow that also has
the hegemony heroes' pack (kingdoms: the heroes' own)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from sgs_testkit import act, answer, asked, count_cards, hand_of, hp, names, options, pass_all, table
from test_sgs_two_heroes import at_phase, two_heroes

import engines.sanguosha.hg_heroes as hg
from engines.sanguosha import ENGINE, ai, cards, data, frames, modes
from engines.sanguosha import rules as R
from engines.sanguosha.data import card
from engines.sanguosha.frames import CONVERT
from engines.sanguosha.heroes import hero, heroes
from engines.sanguosha.identity import IdentityMode
from engines.sanguosha.packs import HEGEMONY_HEROES
from engines.sanguosha.skills import convertible
from i18n import catalog

State = dict[str, Any]
MODE = "identity_with_hg_heroes"


class _WithHegemonyHeroes(IdentityMode):
    """Identity mode whose flow also has the hegemony heroes' skills."""

    name = MODE
    packs = (*IdentityMode.packs, HEGEMONY_HEROES)


@pytest.fixture(autouse=True, scope="module")
def _mode() -> Iterator[None]:
    modes.install(_WithHegemonyHeroes())
    yield
    modes.uninstall(MODE)


def hg_table(n: int, roles: str, *, hp: dict[int, int], restart: str | None = None, turn: int = 0,
             **kw: Any) -> State:
    """An identity table on the flow with the hegemony skills; HP (and max HP) as given, 4 else;
    ``restart``: the phase of ``turn`` to run again on that flow (its phase-start skills act)."""
    state = table(n, roles, turn=turn, **kw)
    state["mode"] = MODE
    for seat, p in enumerate(state["players"]):
        p["max"] = p["hp"] = hp.get(seat, 4)
    return at_phase(state, turn, restart) if restart else state


def _sha(state: State, user: int, target: int) -> State:
    return act(state, user, hand_of(state, user, "sha"), target)[0]


def _hurt(state: State, user: int, target: int) -> State:
    """``user`` (the turn player, holding a 杀) hits ``target``, who does not dodge."""
    return answer(_sha(state, user, target), "need_shan", target, "pass")


# -- the pack ------------------------------------------------------------------------------------

def test_the_wei_pack_is_complete_with_the_reference_facts() -> None:
    assert len(hg.heroes.heroes("hg_wei")) == 15  # the pack validates on its own terms
    table_ = heroes("hg_wei")
    halves = {k: int(h.hp * 2) for k, h in table_.items()}
    assert halves == {"hg_caocao": 4, "hg_simayi": 3, "hg_xiahoudun": 4, "hg_zhangliao": 4, "hg_xuchu": 4,
                      "hg_guojia": 3, "hg_zhenji": 3, "hg_xiahouyuan": 4, "hg_zhanghe": 4, "hg_xuhuang": 4,
                      "hg_caoren": 4, "hg_dianwei": 4, "hg_xunyu": 3, "hg_caopi": 3, "hg_yuejin": 4}
    assert [k for k, h in table_.items() if h.gender == "f"] == ["hg_zhenji"]
    assert table_["hg_zhenji"].skills == ("qingguo", "hg_luoshen")  # 国战 洛神 differs
    assert set(table_["hg_caocao"].pairs) == {"hg_dianwei", "hg_xuchu"}


@pytest.mark.parametrize("loc", ["en", "zh-TW", "zh-CN"])
def test_every_wei_hero_and_skill_is_named_and_described(loc: str) -> None:
    cat = catalog(loc)
    for hid, h in heroes("hg_wei").items():
        assert cat.get(f"sanguosha.hero.{hid}"), hid
        for sid in h.skills:
            assert cat.get(f"sanguosha.skill.{sid}") and cat.get(f"sanguosha.skill_desc.{sid}"), sid


# -- 洛神 (国战): the black cards come at the end ---------------------------------------------------

def test_hg_luoshen_keeps_the_black_cards_aside_until_the_end() -> None:
    state = hg_table(4, "ZNFF", hp={0: 3}, heroes={0: "hg_zhenji"}, restart="prepare",
                     top=[("sha", "S", 8), ("sha", "C", 3), ("tao", "H", 4)])
    first, second, red = state["deck"][-1], state["deck"][-2], state["deck"][-3]
    assert asked(state) == [(0, "skill")]
    state = answer(state, "skill", 0, "yes")
    # the identity 洛神 would have put it in hand already; here it waits on the table
    assert first in state["proc"] and first not in state["players"][0]["hand"]
    state = answer(state, "skill", 0, "yes")
    assert second in state["proc"] and not state["players"][0]["hand"]
    state = answer(state, "skill", 0, "yes")  # red: it ends, both black cards are taken
    hand = state["players"][0]["hand"]
    assert first in hand and second in hand and red in state["discard"] and len(hand) == 4  # + draw 2


def test_hg_luoshen_stopping_early_still_takes_the_black_card() -> None:
    state = hg_table(4, "ZNFF", hp={0: 3}, heroes={0: "hg_zhenji"}, restart="prepare",
                     top=[("sha", "S", 8), ("sha", "C", 3)])
    first = state["deck"][-1]
    state = answer(state, "skill", 0, "yes")
    state = answer(state, "skill", 0, "pass")
    assert first in state["players"][0]["hand"] and state["proc"] == []


# -- 遗计 of a hidden 郭嘉 --------------------------------------------------------------------------

def test_a_hidden_guojias_yiji_is_asked_and_the_yes_reveals_him() -> None:
    state = two_heroes(hg_table(4, "ZNFF", hp={1: 3}, hands={0: ["sha"]}, top=["tao", "wuzhong"]),
                       1, "hg_xuchu", "hg_guojia")
    state = _hurt(state, 0, 1)
    assert asked(state) == [(1, "skill")] and not state["players"][1]["heroes"][1]["shown"]
    state = answer(state, "skill", 1, "yes")
    assert state["players"][1]["heroes"][1]["shown"] and asked(state) == [(1, "yiji")]


# -- 神速 ------------------------------------------------------------------------------------------

def test_shensu_skips_judge_and_draw_for_a_strike_at_any_distance() -> None:
    state = hg_table(5, "ZCFFN", hp={}, heroes={0: "hg_xiahouyuan"}, judge={0: ["lebu"]}, restart="judge")
    assert R.distance(state, 0, 2) == 2
    assert asked(state) == [(0, "shensu")] and "2" in options(state, 0)
    state = act(state, 0, 2)[0]
    state = answer(state, "need_shan", 2, "pass")
    assert hp(state, 2) == 3 and state["sha_used"] == 0
    # judge and draw phases skipped: the 乐不思蜀 waits, nothing drawn, the play phase follows
    assert asked(state) == [(0, "play")] and not state["players"][0]["hand"]
    assert [e[1] for e in state["players"][0]["judge"]] == ["lebu"]


def test_shensu_skips_the_play_phase_for_an_equipment_card() -> None:
    state = hg_table(5, "ZCFFN", hp={}, heroes={0: "hg_xiahouyuan"}, hands={0: [("bagua", "S", 2), "sha"]},
                     restart="play")
    assert asked(state) == [(0, "shensu")]
    bagua = hand_of(state, 0, "bagua")
    assert options(state, 0) == [bagua, "pass"]
    state = act(state, 0, bagua, 3)[0]
    state = answer(state, "need_shan", 3, "pass")
    assert hp(state, 3) == 3 and bagua in state["discard"]
    assert (0, "play") not in asked(state) and names(state, 0) == ["sha"]


# -- 巧变 ------------------------------------------------------------------------------------------

def test_qiaobian_skips_the_draw_phase_to_take_two_hand_cards() -> None:
    state = hg_table(4, "ZNFF", hp={}, heroes={0: "hg_zhanghe"}, hands={0: ["sha"], 2: ["shan"], 3: ["tao"]},
                     restart="draw")
    assert asked(state) == [(0, "qiaobian")]
    state = act(state, 0, hand_of(state, 0, "sha"))[0]
    assert asked(state) == [(0, "qiaobian_take")]
    state = act(state, 0, 2, 3)[0]
    assert names(state, 0) == ["shan", "tao"] and asked(state) == [(0, "qiaobian")]  # now the play phase


def test_qiaobian_skips_the_play_phase_to_move_a_card_of_the_field() -> None:
    state = hg_table(4, "ZNFF", hp={}, heroes={0: "hg_zhanghe"}, hands={0: ["shan"]}, equip={2: ["zhuge"]},
                     judge={1: ["lebu"]}, restart="play")
    zhuge = state["players"][2]["equip"]["weapon"]
    lebu = state["players"][1]["judge"][0][0]
    state = act(state, 0, hand_of(state, 0, "shan"))[0]
    assert asked(state) == [(0, "qiaobian_move")]
    assert set(options(state, 0)) == {zhuge, lebu, "pass"}
    assert options(state, 0, lebu) == ["0", "2", "3"]
    state = act(state, 0, zhuge, 0)[0]
    assert state["players"][0]["equip"]["weapon"] == zhuge and state["players"][2]["equip"]["weapon"] is None
    assert (0, "play") not in asked(state)


def test_qiaobian_skipping_the_judge_phase_leaves_the_delayed_trick() -> None:
    state = hg_table(4, "ZNFF", hp={}, heroes={0: "hg_zhanghe"}, hands={0: ["shan"]}, judge={0: ["lebu"]},
                     restart="judge")
    assert asked(state) == [(0, "qiaobian")]
    state = act(state, 0, hand_of(state, 0, "shan"))[0]
    assert [e[1] for e in state["players"][0]["judge"]] == ["lebu"]
    # the draw phase (no hand card to pay 巧变 with) drew 2; 巧变 is offered for the play phase
    assert len(state["players"][0]["hand"]) == 2
    assert [(r.kind, r.prompt.params.get("phase")) for r in ENGINE.pending(state)] == [
        ("qiaobian", {"key": "sanguosha.phase.play"})]


def test_qiaobian_is_not_offered_for_an_empty_judge_phase() -> None:
    state = hg_table(4, "ZNFF", hp={}, heroes={0: "hg_zhanghe"}, hands={0: ["shan"]}, restart="judge")
    assert [(r.kind, r.prompt.params.get("phase")) for r in ENGINE.pending(state)] == [
        ("qiaobian", {"key": "sanguosha.phase.draw"})]


# -- 断粮 ------------------------------------------------------------------------------------------

def test_duanliang_turns_black_basic_and_equipment_cards_only() -> None:
    state = hg_table(4, "ZNFF", hp={}, heroes={0: "hg_xuhuang"},
                     hands={0: [("sha", "S", 8), ("sha", "H", 10), ("guohe", "S", 3)]}, equip={0: [("bagua", "S", 2)]})
    black_sha, bagua = find_in(state, 0, "sha", "S"), state["players"][0]["equip"]["armor"]
    with_card = [c for c in R.all_cards(state, 0, judge=False) if CONVERT["duanliang"].ok(state, 0, c)]
    assert sorted(with_card) == sorted([black_sha, bagua])
    if "bingliang" not in cards.DEFS:  # the 国战 deck's card is another branch's: nothing offered
        assert convertible(state, 0, CONVERT["duanliang"]) == []


def test_duanliang_reaches_distance_two_for_bingliang_only() -> None:
    state = hg_table(4, "ZNFF", hp={}, heroes={0: "hg_xuhuang"})
    state["mode"] = MODE
    assert R.fold(state, "trick_distance", 1, seat=0, name="bingliang") == 2
    assert R.fold(state, "trick_distance", 1, seat=0, name="shunshou") == 1
    assert R.fold(state, "trick_distance", 1, seat=1, name="bingliang") == 1


def _stand_in_bingliang(monkeypatch: pytest.MonkeyPatch) -> None:
    """A 兵粮寸断 as the 国战 deck will define it (that deck is another branch's): a delayed trick
    on one other seat within ``trick_distance`` (folded with its name), none of its kind there."""
    if "bingliang" in cards.DEFS:
        return

    def targets(state: State, seat: int, cids: list[str], chosen: list[int], others: list[int]) -> tuple[list[int], bool]:
        reach = R.fold(state, "trick_distance", 1, seat=seat, name="bingliang")
        ok = [t for t in others if R.distance(state, seat, t) <= reach
              and not any(e[1] == "bingliang" for e in state["players"][t]["judge"])]
        return ([], True) if chosen else (ok, False)

    kind = data.kind_of
    monkeypatch.setitem(cards.DEFS, "bingliang", cards.CardDef("bingliang", harmful=True, targets=targets))
    for module in (data, frames):
        monkeypatch.setattr(module, "kind_of", lambda name: "delayed" if name == "bingliang" else kind(name))


def test_duanliang_uses_a_black_card_as_bingliang_at_distance_two(monkeypatch: pytest.MonkeyPatch) -> None:
    _stand_in_bingliang(monkeypatch)
    state = hg_table(6, "ZCFFFN", hp={}, heroes={0: "hg_xuhuang"}, hands={0: [("sha", "C", 2), ("sha", "H", 10)]})
    black = find_in(state, 0, "sha", "C")
    assert "duanliang" in options(state, 0)
    assert options(state, 0, "duanliang") == [black]
    assert options(state, 0, "duanliang", black) == ["1", "2", "4", "5"]  # distance 3 (seat 3) is out
    state = act(state, 0, "duanliang", black, 2)[0]
    assert state["players"][2]["judge"] == [[black, "bingliang"]]


def find_in(state: State, seat: int, name: str, suit: str) -> str:
    return next(c for c in state["players"][seat]["hand"] if card(c).name == name and card(c).suit == suit)


# -- 据守 ------------------------------------------------------------------------------------------

def test_jushou_draws_three_and_turns_over_then_the_next_turn_is_skipped() -> None:
    state = hg_table(4, "ZNFF", hp={}, heroes={0: "hg_caoren"}, restart="finish")
    assert asked(state) == [(0, "skill")]
    state = answer(state, "skill", 0, "yes")
    assert len(state["players"][0]["hand"]) == 3 and state["players"][0]["stacked"]


def test_jushou_is_optional_and_defaults_to_no() -> None:
    state = hg_table(4, "ZNFF", hp={}, heroes={0: "hg_caoren"}, restart="finish")
    assert ENGINE.pending(state)[0].default == ("pass",)


# -- 强袭 ------------------------------------------------------------------------------------------

def test_qiangxi_by_losing_hp_once_per_phase() -> None:
    state = hg_table(4, "ZNFF", hp={0: 4, 1: 4}, heroes={0: "hg_dianwei"})
    assert "qiangxi" in options(state, 0)
    state = act(state, 0, "qiangxi", "hp", 1)[0]
    assert hp(state, 0) == 3 and hp(state, 1) == 3
    assert "qiangxi" not in options(state, 0)


def test_qiangxi_discarding_the_equipped_weapon_measures_range_without_it() -> None:
    state = hg_table(4, "ZNFF", hp={}, heroes={0: "hg_dianwei"}, hands={0: ["qinggang"]}, equip={0: ["qilin"]})
    qilin, qinggang = state["players"][0]["equip"]["weapon"], hand_of(state, 0, "qinggang")
    assert options(state, 0, "qiangxi") == ["hp", qinggang, qilin]
    assert options(state, 0, "qiangxi", qilin) == ["1", "3"]  # range 1 once 麒麟弓 is gone
    assert options(state, 0, "qiangxi", qinggang) == ["1", "2", "3"]
    state = act(state, 0, "qiangxi", qinggang, 2)[0]
    assert hp(state, 0) == 4 and hp(state, 2) == 3 and qinggang in state["discard"]


# -- 驱虎 and 拼点 -----------------------------------------------------------------------------------

def _quhu_table(mine: tuple[str, str, int], theirs: tuple[str, str, int]) -> State:
    return hg_table(4, "ZNFF", hp={0: 3, 1: 4, 3: 3}, heroes={0: "hg_xunyu"}, hands={0: [mine], 1: [theirs]})


def test_quhu_offers_only_players_with_more_hp_and_a_hand_card() -> None:
    state = _quhu_table(("sha", "D", 13), ("shan", "H", 2))
    assert options(state, 0, "quhu") == ["1"]


def test_quhu_won_the_tiger_hurts_one_in_its_range_chosen_by_xunyu() -> None:
    state = _quhu_table(("sha", "D", 13), ("shan", "H", 2))
    mine, theirs = state["players"][0]["hand"][0], state["players"][1]["hand"][0]
    state = act(state, 0, "quhu", 1)[0]
    assert sorted(asked(state)) == [(0, "pindian"), (1, "pindian")]
    state = act(state, 0, mine)[0]
    state = act(state, 1, theirs)[0]
    assert mine in state["discard"] and theirs in state["discard"]
    assert asked(state) == [(0, "quhu_victim")] and options(state, 0) == ["0", "2"]
    state = act(state, 0, 2)[0]
    assert hp(state, 2) == 3 and hp(state, 0) == 3
    assert "quhu" not in options(state, 0)


@pytest.mark.parametrize("theirs", [("sha", "D", 13), ("shan", "H", 13)])
def test_quhu_lost_or_tied_the_tiger_hurts_xunyu(theirs: tuple[str, str, int]) -> None:
    state = _quhu_table(("shan", "H", 2) if theirs[2] == 13 and theirs[0] == "sha" else ("sha", "D", 13), theirs)
    state = act(state, 0, "quhu", 1)[0]
    state = act(state, 0, state["players"][0]["hand"][0])[0]
    state = act(state, 1, state["players"][1]["hand"][0])[0]
    assert hp(state, 0) == 2 and hp(state, 2) == 4


# -- 节命 ------------------------------------------------------------------------------------------

def test_jieming_fills_a_hand_up_to_max_hp_per_point_of_damage() -> None:
    state = hg_table(4, "ZNFF", hp={1: 3, 2: 4}, hands={0: ["sha"], 2: ["shan"]}, heroes={1: "hg_xunyu"})
    state = _hurt(state, 0, 1)
    assert asked(state) == [(1, "jieming")]
    assert set(options(state, 1)) == {"0", "1", "2", "3", "pass"}
    state = act(state, 1, 2)[0]
    assert len(state["players"][2]["hand"]) == 4
    assert asked(state) == [(0, "play")]


def test_jieming_caps_at_five_cards() -> None:
    state = hg_table(4, "ZNFF", hp={1: 3, 3: 7}, hands={0: ["sha"]}, heroes={1: "hg_xunyu"})
    state = _hurt(state, 0, 1)
    state = act(state, 1, 3)[0]
    assert len(state["players"][3]["hand"]) == 5


# -- 行殇 ------------------------------------------------------------------------------------------

def test_xingshang_takes_hand_and_equipment_of_the_dead() -> None:
    state = hg_table(4, "ZCFN", hp={3: 1}, hands={0: ["sha"], 3: ["wuzhong"]}, equip={3: ["chitu"]},
                     heroes={1: "hg_caopi"})
    loot = [state["players"][3]["hand"][0], state["players"][3]["equip"]["minus"]]
    state = _hurt(state, 0, 3)
    state = pass_all(state, "peach")
    assert asked(state) == [(1, "skill")]
    state = answer(state, "skill", 1, "yes")
    assert sorted(state["players"][1]["hand"]) == sorted(loot) and not state["players"][3]["alive"]


# -- 放逐 ------------------------------------------------------------------------------------------

def test_fangzhu_the_chosen_player_draws_the_lost_hp_and_is_turned_over() -> None:
    state = hg_table(4, "ZNFF", hp={1: 3}, hands={0: ["sha"]}, heroes={1: "hg_caopi"})
    state["players"][1]["hp"] = 2  # already 1 down: the 杀 makes it 2 lost
    state = _hurt(state, 0, 1)
    assert asked(state) == [(1, "fangzhu")] and "1" not in options(state, 1)
    state = act(state, 1, 2)[0]
    assert len(state["players"][2]["hand"]) == 2 and state["players"][2]["stacked"]


def test_a_hidden_caopis_fangzhu_answer_reveals_him_a_pass_does_not() -> None:
    for answer_, shown in (("pass", False), ("3", True)):
        state = two_heroes(hg_table(4, "ZNFF", hp={1: 3}, hands={0: ["sha"]}), 1, "hg_caopi", "hg_zhenji")
        state = _hurt(state, 0, 1)
        assert asked(state) == [(1, "fangzhu")]
        state = act(state, 1, answer_)[0]
        assert state["players"][1]["heroes"][0]["shown"] is shown


# -- 骁果 ------------------------------------------------------------------------------------------

def test_xiaoguo_without_an_equipment_card_the_player_takes_damage() -> None:
    state = hg_table(4, "ZNFF", hp={}, hands={1: ["sha"]}, heroes={1: "hg_yuejin"}, restart="finish")
    assert asked(state) == [(1, "xiaoguo")]
    sha = hand_of(state, 1, "sha")
    state = act(state, 1, sha)[0]
    assert hp(state, 0) == 3 and sha in state["discard"]


def test_xiaoguo_the_player_may_discard_an_equipment_card_instead() -> None:
    state = hg_table(4, "ZNFF", hp={}, hands={1: ["shan"]}, equip={0: ["chitu"]}, heroes={1: "hg_yuejin"},
                     restart="finish")
    state = act(state, 1, hand_of(state, 1, "shan"))[0]
    assert asked(state) == [(0, "xiaoguo_pay")]
    chitu = state["players"][0]["equip"]["minus"]
    state = act(state, 0, chitu)[0]
    assert hp(state, 0) == 4 and chitu in state["discard"]


def test_xiaoguo_is_not_for_yuejins_own_finish_phase() -> None:
    state = hg_table(4, "ZNFF", hp={}, hands={0: ["sha"]}, heroes={0: "hg_yuejin"}, restart="finish")
    assert (0, "xiaoguo") not in asked(state)


# -- the standard skills of the hegemony heroes play on -------------------------------------------

def test_hg_heroes_with_standard_skills_use_them() -> None:
    state = hg_table(4, "ZNFF", hp={1: 4}, hands={0: ["sha"]}, heroes={1: "hg_caocao"})
    sha = hand_of(state, 0, "sha")
    state = _hurt(state, 0, 1)
    state = answer(state, "skill", 1, "yes")  # 奸雄
    assert state["players"][1]["hand"] == [sha]


# -- seeded all-AI games --------------------------------------------------------------------------

WEI = sorted(heroes("hg_wei"))


@pytest.mark.parametrize("seed", range(4))
def test_ai_games_with_the_wei_heroes_finish_with_every_card_kept(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ai, "STRICT", True)
    rng = random.Random(seed)
    picks = rng.sample(WEI, 5)
    state = table(5, "ZCFFN", heroes=dict(enumerate(picks)), seed=seed)
    state["mode"] = MODE
    for seat, hid in enumerate(picks):
        p = state["players"][seat]
        p["max"] = p["hp"] = int(hero(hid).hp * 2) + (1 if seat == 0 else 0)
        p["hand"].extend(R.deal(state, 4))
    state = at_phase(state, 0, "prepare")
    for _ in range(4000):
        if ENGINE.result(state) is not None:
            break
        reqs = ENGINE.pending(state)
        r = reqs[rng.randrange(len(reqs))]
        state, _ = ENGINE.apply(state, r.seat, ENGINE.ai_action(state, r.seat, rng, request=r), request=r)
        assert set(count_cards(state).values()) == {1} and len(count_cards(state)) == 108
    assert ENGINE.result(state) is not None


# -- the AI's hints choose with purpose -------------------------------------------------------------

def _ai(state: State, seat: int, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    monkeypatch.setattr(ai, "STRICT", True)
    return ENGINE.ai_action(state, seat, random.Random(0))


def test_ai_shensu_strikes_a_known_enemy_and_dodges_the_waiting_lebu(monkeypatch: pytest.MonkeyPatch) -> None:
    state = hg_table(5, "ZCFFN", hp={2: 1}, heroes={0: "hg_xiahouyuan"}, judge={0: ["lebu"]}, restart="judge")
    state["acts"][2][0] = 4  # seat 2 attacked the lord: a rebel
    assert _ai(state, 0, monkeypatch) == ["2"]


def test_ai_qiangxi_pays_with_a_weapon_in_hand_to_hit_an_enemy(monkeypatch: pytest.MonkeyPatch) -> None:
    state = hg_table(4, "ZNFF", hp={3: 2}, heroes={0: "hg_dianwei"}, hands={0: ["zhuge"]}, equip={0: ["qilin"]})
    state["acts"][3][0] = 4
    assert _ai(state, 0, monkeypatch) == ["qiangxi", hand_of(state, 0, "zhuge"), "3"]  # not the 麒麟弓


def test_ai_xiaoguo_pay_gives_up_an_equipment_card_from_hand(monkeypatch: pytest.MonkeyPatch) -> None:
    state = hg_table(4, "ZNFF", hp={}, hands={0: ["chitu"], 1: ["sha"]}, heroes={1: "hg_yuejin"}, restart="finish")
    state = act(state, 1, hand_of(state, 1, "sha"))[0]
    assert _ai(state, 0, monkeypatch) == [hand_of(state, 0, "chitu")]


def test_ai_quhu_plays_its_highest_card(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _quhu_table(("sha", "D", 13), ("shan", "H", 2))
    R.to_hand(state, 0, [find_in_deck(state, "sha", "S", 7)])
    state = act(state, 0, "quhu", 1)[0]
    assert _ai(state, 0, monkeypatch) == [find_in(state, 0, "sha", "D")]


def find_in_deck(state: State, name: str, suit: str, rank: int) -> str:
    return next(c for c in state["deck"] if (card(c).name, card(c).suit, card(c).rank) == (name, suit, rank))
