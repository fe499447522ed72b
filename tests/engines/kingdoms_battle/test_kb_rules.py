"""One test per rule sentence of the seed (quoted in each docstring), 例1 and 例2 with fixed dice,
and the choices this project made where the text is open (docs/rules/kingdoms_battle.md)."""

from __future__ import annotations

import random

import pytest
from kb_testkit import act, close, new, put, ready, small_city, troop, twin_cities

from engines.base import EngineError
from engines.kingdoms_battle import ENGINE, ai, board
from engines.kingdoms_battle import rules as R


def _values(state: dict, seat: int, *path: str) -> list[str]:
    return [o.value for o in ENGINE.step(state, seat, list(path)).options]


# --------------------------------------------------------------------------- set-up

def test_setup_8_troops_5_command_cards_4_stratagems_and_the_start_tile() -> None:
    """拿取對應顏色的8個部隊指示物 … 1組4種計謀卡及5張指令卡 … 將起始版塊…置於桌面中央"""
    s = new(5)
    assert [(p["supply"], p["cards"], sorted(p["plots"])) for p in s["players"]] == [
        (8, 5, sorted(R.PLOTS))] * 5
    assert s["tiles"] == [[8, 0, 0, 0]] and len(s["stack"]) == 71
    with pytest.raises(EngineError):
        ENGINE.new_state({}, 2, 1)
    with pytest.raises(EngineError):
        ENGINE.new_state({}, 6, 1)


def test_a_turn_is_exactly_one_of_five_actions() -> None:
    """玩家在進行其行動回合時,可從下列5項行動中,選擇其中1項執行"""
    s = new()
    twin_cities(s)
    troop(s, "0.0", 0)
    s = ready(s)
    assert set(_values(s, 0)) <= {"expand", "dispatch", "switch", "card", "occupy"}
    s2, _ = act(s, 0, "switch", "to_f", "0.0", "1")
    assert s2["turn"] == 1 and s2["phase"] == "action"  # one action, then the next player


# --------------------------------------------------------------------------- expand

def test_rule_a_a_tile_must_touch_an_edge_not_only_a_corner() -> None:
    """A.所放置地圖板塊須至少有一邊與版圖上的地圖板塊相連,且須為邊與邊連接,不能為角與角連接"""
    s = ready(new(), phase="place", drawn=11)
    cells = _values(s, 0, "place")
    assert "1,1" not in cells and "1,-1" not in cells
    assert all(board.parse_cell(c) in board.frontier(s) for c in cells)
    with pytest.raises(EngineError):
        act(s, 0, "place", "1,1", "0", "-")


def test_rule_b_touching_edges_must_have_the_same_terrain() -> None:
    """B.放置地圖板塊後須為相同地形相連(拒馬連拒馬,平原連平原,城池連城池)"""
    s = ready(new(), phase="place", drawn=11)  # CPPP; the start tile is CPBP
    assert _values(s, 0, "place", "0,-1") == ["2"]  # only the wall side may face the start's wall
    assert _values(s, 0, "place", "1,0") == ["0", "1", "2"]  # any rotation with a plain to the west
    assert "0,1" not in _values(s, 0, "place")  # the start's barricade needs a barricade
    with pytest.raises(EngineError):
        act(s, 0, "place", "0,-1", "0", "-")
    s = ready(new(), phase="place", drawn=15)  # CBPB has barricades
    assert "0,1" in _values(s, 0, "place")


def test_rule_c_an_unplaceable_tile_leaves_the_game_and_another_is_drawn() -> None:
    """C.若抽取的地圖板塊不符合拼圖規則,須將此地圖板塊移除遊戲,並再抽取1個地圖板塊"""
    s = new()
    small_city(s)  # no open wall left anywhere: the all-city tile 4 fits nowhere
    s["stack"] = [11, 4]
    s, events = act(ready(s), 0, "expand")
    assert s["drawn"] == 11 and s["stats"]["discarded"] == 1 and s["stack"] == []
    assert [e.msg.key for e in events][:2] == ["kingdoms_battle.ev.discard", "kingdoms_battle.ev.draw"]


def test_garrison_each_space_alert_or_fortified_or_empty() -> None:
    """可選擇是否在…城池駐紮空間上方進駐部隊 … 部隊進駐時可選擇其狀態為「警戒」或「堅守」"""
    s = ready(new(), phase="place", drawn=13)  # a cap with two spaces
    assert _values(s, 0, "place", "1,0", "0") == ["-", "a", "f"]
    s2, _ = act(s, 0, "place", "1,0", "0", "a", "f")
    assert s2["troops"] == {"1.0": [0, "a"], "1.1": [0, "f"]} and s2["players"][0]["supply"] == 6
    s3, _ = act(s, 0, "place", "1,0", "0", "-", "-")
    assert s3["troops"] == {}


def test_garrison_needs_troops_in_hand() -> None:
    s = ready(new(), phase="place", drawn=13)
    s["players"][0]["supply"] = 1
    assert _values(s, 0, "place", "1,0", "0", "a") == ["-"]
    with pytest.raises(EngineError):
        act(s, 0, "place", "1,0", "0", "a", "a")


def test_choice_troops_may_join_a_city_other_players_hold() -> None:
    """Open in the text; 例1 shows it (甲 garrisons a city where 乙 and 丙 already are)."""
    s = new()
    put(s, 10, 0, -1, 0)
    troop(s, "1.0", 1)
    s = ready(s, phase="place", drawn=10)
    s2, _ = act(s, 0, "place", "0,-2", "0", "a", "-")
    assert s2["troops"]["2.0"] == [0, "a"] and s2["troops"]["1.0"] == [1, "a"]


# --------------------------------------------------------------------------- completion

def test_closed_walls_complete_a_small_city_worth_1() -> None:
    """若一座城池的城牆皆被相連的城牆圍繞封閉,則該城池被視為已完成城池 … 由3片以下…稱為小城池"""
    s = ready(new(), phase="place", drawn=11)
    s, _ = act(s, 0, "place", "0,-1", "2", "a")
    assert s["cities"]["0.0"]["done"] and R.owner(s, "0.0") == 0
    assert not board.is_large(s, "0.0") and R.score(s, 0) == 1


def test_four_tiles_make_a_large_city_worth_2() -> None:
    """由4片以上地圖板塊組合而成的城池稱為大城池"""
    s = new()
    put(s, 10, 0, -1, 0)
    put(s, 10, 0, -2, 0)
    s = ready(s, phase="place", drawn=11)
    s, _ = act(s, 0, "place", "0,-3", "2", "f")
    assert board.size(s, "0.0") == 4 and board.is_large(s, "0.0") and R.score(s, 0) == 2


def test_an_open_city_is_not_complete_and_scores_nothing() -> None:
    s = ready(new(), phase="place", drawn=10)
    s, _ = act(s, 0, "place", "0,-1", "0", "a", "a")
    assert not s["cities"]["0.0"]["done"] and R.score(s, 0) == 0


def test_completion_with_nobody_leaves_the_city_idle() -> None:
    """C.城池內無任何玩家的部隊進駐:此城池為閒置狀態"""
    s = ready(new(), phase="place", drawn=11)
    s, _ = act(s, 0, "place", "0,-1", "2", "-")
    assert R.idle(s) == ["0.0"] and R.owner(s, "0.0") is None


def test_two_players_duel_with_hits_on_5_and_6(dice: list) -> None:
    """殊死戰 … 若所擲點數為5點或6點,視為成功攻擊對手部隊 … 每撤回1支部隊,下一輪擲骰須減少1顆骰子"""
    s = new()
    put(s, 10, 0, -1, 0)
    troop(s, "0.0", 1, "f")  # fortified, yet 1 life in a civil war
    s = ready(s, phase="place", drawn=13)
    dice += [[5, 1], [6]]
    s, _ = act(s, 0, "place", "0,-2", "2", "a", "a")
    assert R.owner(s, "0.0") == 0 and s["players"][1]["supply"] == 8
    assert sum(1 for t in s["troops"].values() if t[0] == 0) == 1 and s["players"][0]["supply"] == 7
    assert s["stats"]["civil"] == 1


def test_duel_where_both_fall_leaves_the_city_idle(dice: list) -> None:
    """若雙方同時將所有部隊撤出,該城池將成為閒置城池,且無玩家可獲得該城池分數"""
    s = new()
    troop(s, "0.0", 1)
    s = ready(s, phase="place", drawn=11)
    dice += [[1], [2], [6], [5]]  # a round without hits, then both hit
    s, _ = act(s, 0, "place", "0,-1", "2", "a")
    assert R.idle(s) == ["0.0"] and R.score(s, 0) == R.score(s, 1) == 0


def test_three_players_highest_die_wins_outright(dice: list) -> None:
    """比大小 … 落敗玩家須將該城池內的自家所有部隊撤回 … 若僅有1位玩家擲出最大點數,則由該玩家獲勝"""
    s = new(4)
    put(s, 10, 0, -1, 0)
    troop(s, "0.0", 1)
    troop(s, "1.0", 2)
    troop(s, "1.1", 3)
    s = ready(s, phase="place", drawn=11)
    dice += [[2], [6], [3], [3]]
    s, _ = act(s, 0, "place", "0,-2", "2", "a")
    assert R.owner(s, "0.0") == 1 and [p["supply"] for p in s["players"]] == [8, 7, 8, 8]


def test_example_1_three_way_civil_war(dice: list) -> None:
    """例1:甲…形成1座由4片地圖板塊組合而成的大城池,並…進駐1支堅守狀態部隊。城池內另有乙玩家的2支警戒
    狀態部隊及丙玩家的1支警戒狀態部隊 … 第1回合 甲6 乙3、6 丙5,丙…撤回 … 第2回合 甲5 乙2、4 …
    第3回合 甲6 乙3 … 由甲奪得此城池的控制權,並將其進駐部隊維持堅守狀態"""
    s = new()
    put(s, 10, 0, -1, 0)
    put(s, 10, 0, -2, 0)
    troop(s, "1.0", 1)
    troop(s, "1.1", 1)
    troop(s, "2.0", 2)
    s = ready(s, phase="place", drawn=13)
    dice += [[6], [3, 6], [5],  # round 1: 丙 is out, 甲 and 乙 tie at 6
             [5], [2, 4],  # round 2 (duel): 乙 loses one troop
             [6], [3]]  # round 3: 乙 loses the other
    s, events = act(s, 0, "place", "0,-3", "2", "f", "-")
    assert R.owner(s, "0.0") == 0 and board.is_large(s, "0.0") and R.score(s, 0) == 2
    assert [t for t in s["troops"].values()] == [[0, "f"]]
    assert [p["supply"] for p in s["players"]] == [7, 8, 8]
    keys = [e.msg.key.rsplit(".", 1)[1] for e in events]
    assert keys.count("civil_high") == 1 and keys.count("duel") == 2 and "civil_out" in keys


# --------------------------------------------------------------------------- dispatch

def _own_twins(seats: int = 3) -> dict:
    s = new(seats)
    twin_cities(s)
    return s


def test_reinforce_into_an_own_city_with_room_alert_or_fortified() -> None:
    """A.增員 玩家可在自家控制任一尚有駐紮空間的城池內,進駐1支部隊,並可自行選擇…狀態"""
    s = _own_twins()
    troop(s, "0.0", 0)
    s = ready(s)
    assert _values(s, 0, "dispatch", "in") == ["0.0"]
    s2, _ = act(s, 0, "dispatch", "in", "0.0", "f")
    assert s2["troops"]["1.0"] == [0, "f"] and s2["players"][0]["supply"] == 6
    assert "in" not in _values(ready(s2), 0, "dispatch")  # the city is full


def test_reinforce_needs_a_troop_in_hand() -> None:
    """若玩家面前桌上已無任何部隊,將無法執行此行動"""
    s = _own_twins()
    troop(s, "0.0", 0)
    s["players"][0]["supply"] = 0
    assert "in" not in _values(ready(s), 0, "dispatch")


def test_withdraw_one_troop_home() -> None:
    """B.撤回 玩家可在自家控制任一已有部隊進駐的城池內,撤回1支部隊"""
    s = _own_twins()
    troop(s, "0.0", 0, "f")
    troop(s, "1.0", 0, "a")
    s2, _ = act(ready(s), 0, "dispatch", "out", "0.0", "f")
    assert s2["troops"] == {"1.0": [0, "a"]} and s2["players"][0]["supply"] == 7


def test_transfer_an_alert_troop_along_plains() -> None:
    """C.轉移 … 將其中1支警戒狀態部隊移動至另一自家尚有駐紮空間,且不受拒馬阻隔而平原相連的城池內"""
    s = _own_twins()
    troop(s, "0.0", 0, "a")
    troop(s, "2.0", 0, "f")
    s = ready(s)
    assert _values(s, 0, "dispatch", "move") == ["0.0"]  # the fortified troop cannot move
    s2, _ = act(s, 0, "dispatch", "move", "0.0", "2.0")
    assert s2["troops"] == {"2.0": [0, "f"], "3.0": [0, "a"]}


def _walled(kind: int) -> dict:
    """City "0.0" (start + the south cap of ``kind``) and city "1.0" (its north cap + a cap)."""
    s = new()
    put(s, kind, 0, -1, 0)
    put(s, 11, 0, -2, 2)
    close(s)
    return s


def test_a_barricade_blocks_what_a_plain_joins() -> None:
    """此兩座城池間須無拒馬阻隔且平原相連 — type 7 joins its caps by plain, type 5 walls them apart."""
    assert R.linked(_walled(7), "0.0", "1.0")
    s = _walled(5)
    assert not R.linked(s, "0.0", "1.0")
    troop(s, "1.1", 0)
    troop(s, "2.0", 0)
    assert "move" not in _values(ready(s), 0, "dispatch")


# --------------------------------------------------------------------------- switch states

def test_switch_any_number_one_direction_only() -> None:
    """(3)轉換部隊狀態 … 只能就其中1種狀態進行轉換,不能兩種狀態同時進行轉換"""
    s = _own_twins()
    troop(s, "0.0", 0, "a")
    troop(s, "1.0", 0, "f")
    troop(s, "2.0", 0, "a")
    s = ready(s)
    assert sorted(_values(s, 0, "switch")) == ["to_a", "to_f"]
    assert _values(s, 0, "switch", "to_f", "0.0") == ["1"]
    s2, _ = act(s, 0, "switch", "to_f", "0.0", "1", "2.0", "1")
    assert sorted(t[1] for t in s2["troops"].values()) == ["f", "f", "f"]
    with pytest.raises(EngineError):
        act(s, 0, "switch", "to_f", "0.0", "2")
    with pytest.raises(EngineError):
        act(s, 0, "switch", "to_f", "0.0", "1", "to_a")


# --------------------------------------------------------------------------- command cards

def _war_ready(att: list[str], dfd: list[str]) -> dict:
    """Seat 0 holds city "0.0" (spaces 0.0, 1.0), seat 1 city "2.0" (2.0, 3.0); joined by plain."""
    s = _own_twins()
    for space, st in zip(("0.0", "1.0"), att, strict=False):
        troop(s, space, 0, st)
    for space, st in zip(("2.0", "3.0"), dfd, strict=False):
        troop(s, space, 1, st)
    return ready(s)


def test_example_2_national_war(dice: list) -> None:
    """例2:甲…使用所有進駐的2支警戒狀態部隊 … 乙…唯一進駐的1支堅守狀態部隊 … 第1回合 甲4、5 乙6 …
    甲玩家須撤回1支部隊 … 乙玩家須將堅守狀態部隊轉換為警戒狀態 … 第2回合 甲5 乙5 … 兩座城池皆成為閒置城池"""
    s = _war_ready(["a", "a"], ["f"])
    dice += [[4, 5], [6]]
    s, _ = act(s, 0, "card", "war", "0.0", "2.0", "2")
    assert s["phase"] == "war" and ENGINE.pending(s)[0].seat == 0
    assert s["troops"] == {"2.0": [1, "a"]} and s["war"]["n"] == 1
    assert s["players"][0]["cards"] == 4
    dice += [[5], [5]]
    s, _ = act(s, 0, "go")
    assert sorted(R.idle(s)) == ["0.0", "2.0"] and s["troops"] == {}
    assert [p["supply"] for p in s["players"]] == [8, 8, 8] and s["turn"] == 1


def test_attacker_may_retreat_after_a_round(dice: list) -> None:
    """E.攻方可於每次擲骰對決並計算雙方兵力狀態後,決定是否將仍存活的部隊撤回至發動城池"""
    s = _war_ready(["a", "a"], ["f", "f"])
    dice += [[1, 1], [1, 1]]
    s, _ = act(s, 0, "card", "war", "0.0", "2.0", "2")
    s, _ = act(s, 0, "retreat")
    assert R.owner(s, "0.0") == 0 and len(R.troops_in(s, "0.0")) == 2 and s["war"] is None
    assert s["phase"] == "action" and s["turn"] == 1


def test_war_target_must_be_joined_by_plain() -> None:
    """此兩座城池間須無拒馬阻隔且平原相連"""
    s = _walled(5)
    troop(s, "0.0", 0)
    troop(s, "1.0", 1)
    s = ready(s)
    assert "war" not in _values(s, 0, "card")
    assert "chencang" in _values(s, 0, "card", "plot")  # 暗渡陳倉 ignores the map


def test_attacker_hits_turn_fortified_alert_then_remove(dice: list) -> None:
    """C.攻方玩家每成功攻擊守方部隊1次,可將守方1支堅守狀態部隊轉換為警戒狀態,若守方皆為警戒狀態部隊,
    則可將1支守方部隊撤回"""
    s = _war_ready(["a", "a"], ["f", "a"])
    dice += [[6, 6], [1, 1]]
    s, _ = act(s, 0, "card", "war", "0.0", "2.0", "2")
    assert sorted(t for _s, t in R.troops_in(s, "2.0")) == [[1, "a"]]  # f→a, then an alert one removed


def test_winner_moves_in_alert_and_sends_the_rest_home(dice: list) -> None:
    """若攻方勝利,攻方可從參予對戰的部隊中,自由配置進駐目標城池的部隊數量…剛進駐目標城池的部隊須限制為警戒狀態"""
    s = _war_ready(["a", "a"], ["a"])
    dice += [[6, 1], [1]]
    s, _ = act(s, 0, "card", "war", "0.0", "2.0", "2")
    assert s["phase"] == "after" and _values(s, 0, "after") == ["2", "1", "0"]
    s, _ = act(s, 0, "after", "1")
    assert R.owner(s, "0.0") == 0 and R.owner(s, "2.0") == 0 and R.score(s, 0) == 2
    assert all(t == [0, "a"] for _s, t in R.troops_in(s, "2.0"))


def test_defender_counter_occupies_an_empty_launching_city(dice: list) -> None:
    """若守方勝利,且攻方的發動城池內無部隊防守時,守方可派出目標城池內的警戒狀態部隊進駐發動城池內"""
    s = _war_ready(["a"], ["a", "f"])
    dice += [[1], [5, 1]]
    s, _ = act(s, 0, "card", "war", "0.0", "2.0", "1")
    assert s["phase"] == "counter" and ENGINE.pending(s)[0].seat == 1
    assert _values(s, 1, "counter") == ["1", "0"]  # only the alert one may go
    s, _ = act(s, 1, "counter", "1")
    assert R.owner(s, "0.0") == 1 and R.owner(s, "2.0") == 1 and s["turn"] == 1


def test_no_counter_when_the_launching_city_still_holds_troops(dice: list) -> None:
    s = _war_ready(["a", "f"], ["a"])
    dice += [[1], [5]]
    s, _ = act(s, 0, "card", "war", "0.0", "2.0", "1")
    assert s["phase"] == "action" and s["turn"] == 1 and R.owner(s, "0.0") == 0


def test_the_score_goes_with_the_city(dice: list) -> None:
    """當玩家的城池被攻打而失去時,城池分數亦同時失去"""
    s = _war_ready(["a", "a"], ["a"])
    assert R.score(s, 1) == 1
    dice += [[6, 1], [1]]
    s, _ = act(s, 0, "card", "war", "0.0", "2.0", "2")
    assert R.score(s, 1) == 0


def test_emergency_dispatch_two_in_or_two_out() -> None:
    """B.緊急調度 … 尚有兩個以上駐紮空間的城池內,進駐2支部隊 … 或…已有兩支以上部隊進駐的城池內,撤回2支部隊"""
    s = _own_twins()
    troop(s, "2.0", 0)
    troop(s, "0.0", 1)
    assert "in" not in _values(ready(s), 0, "card")  # one space left only
    s2 = _own_twins()
    troop(s2, "0.0", 0, "f")
    troop(s2, "1.0", 0, "a")
    s2, _ = act(ready(s2), 0, "card", "out", "0.0", "af")
    assert s2["troops"] == {} and s2["players"][0]["supply"] == 8 and s2["players"][0]["cards"] == 4
    s3 = new()
    put(s3, 10, 0, -1, 0)
    put(s3, 11, 0, -2, 2)
    close(s3)
    troop(s3, "0.0", 0)
    s3, _ = act(ready(s3), 0, "card", "in", "0.0", "ff")
    assert sorted(t[1] for t in s3["troops"].values()) == ["a", "f", "f"]


def test_no_command_card_no_card_action() -> None:
    s = _war_ready(["a", "a"], ["a"])
    s["players"][0]["cards"] = 0
    assert "card" not in _values(s, 0)


# --------------------------------------------------------------------------- stratagems

def test_tiger_two_other_players_fight_to_the_end(dice: list) -> None:
    """驅虎吞狼:玩家可指定任兩個其他玩家在其已完成的城池進行國戰 … 可指定任一方為攻方 … 攻方不得於戰鬥中撤退"""
    s = _own_twins()
    troop(s, "0.0", 1)
    troop(s, "1.0", 1)
    troop(s, "2.0", 2)
    s = ready(s)
    assert sorted(_values(s, 0, "card", "plot", "tiger")) == ["0.0", "2.0"]
    dice += [[1, 1], [1], [5, 1], [2]]  # no retreat is asked between the rounds
    s, _ = act(s, 0, "card", "plot", "tiger", "0.0", "2.0")
    assert s["phase"] == "after" and ENGINE.pending(s)[0].seat == 1
    assert "tiger" not in s["players"][0]["plots"] and s["players"][0]["cards"] == 4
    s, _ = act(s, 1, "after", "1")
    assert R.owner(s, "2.0") == 1 and s["turn"] == 1


def test_chencang_attacks_any_city_regardless_of_the_map(dice: list) -> None:
    """暗渡陳倉:…向版圖上其他任一玩家已完成的城池發動國戰,該次戰鬥將不受任何地圖板塊阻隔的限制"""
    s = _walled(5)
    troop(s, "0.0", 0)
    troop(s, "1.0", 1)
    s = ready(s)
    dice += [[6], [1]]
    s, _ = act(s, 0, "card", "plot", "chencang", "0.0", "1.0", "1")
    assert s["phase"] == "after"


def test_beauty_withdraws_an_enemy_troop_and_reinforces_an_own_city() -> None:
    """美人計:…其他任一玩家任一已完成的城池中撤回1支部隊 … 發動此計謀的玩家則可於自家任一已完成的城池中增員1支部隊"""
    s = _war_ready(["a"], ["f"])
    s, _ = act(s, 0, "card", "plot", "beauty", "2.0", "f", "0.0", "f")
    assert R.idle(s) == ["2.0"] and R.score(s, 1) == 0 and s["players"][1]["supply"] == 8
    assert sorted(t[1] for _s, t in R.troops_in(s, "0.0")) == ["a", "f"]


def test_beauty_reinforcement_needs_room_and_a_troop_in_hand() -> None:
    """增員時,城池內須有可供部隊進駐的駐紮空間,且該玩家面前桌上須尚有部隊可用"""
    s = _war_ready(["a", "a"], ["f"])
    assert _values(s, 0, "card", "plot", "beauty", "2.0", "f") == ["-"]


def test_lure_turns_fortified_alert_then_an_optional_war_without_a_card(dice: list) -> None:
    """調虎離山:…將其所有堅守狀態的部隊改為警戒狀態 … 可選擇是否立即對此城池展開國戰,此戰鬥無須使用指令卡"""
    s = _war_ready(["a", "a"], ["f", "f"])
    quiet, _ = act(s, 0, "card", "plot", "lure", "2.0", "-")
    assert [t[1] for _s, t in R.troops_in(quiet, "2.0")] == ["a", "a"]
    dice += [[5, 6], [1, 1]]
    s, _ = act(s, 0, "card", "plot", "lure", "2.0", "0.0", "2")
    assert s["phase"] == "after" and s["players"][0]["cards"] == 4


# --------------------------------------------------------------------------- occupy

@pytest.mark.parametrize("die, ok", [(3, False), (4, True), (6, True)])
def test_occupy_a_small_idle_city_on_4_to_6(dice: list, die: int, ok: bool) -> None:
    """佔領小城池:須擲出4、5或6點,每佔領1個小城池可獲得1分 … 僅能指派1支部隊進駐…警戒狀態"""
    s = new()
    small_city(s)
    dice.append([die])
    s, _ = act(ready(s), 0, "occupy", "0.0")
    assert (R.owner(s, "0.0") == 0) is ok and R.score(s, 0) == (1 if ok else 0)
    if ok:
        assert list(s["troops"].values()) == [[0, "a"]]


@pytest.mark.parametrize("die, ok", [(4, False), (5, True)])
def test_occupy_a_large_idle_city_on_5_or_6(dice: list, die: int, ok: bool) -> None:
    """佔領大城池:須擲出5或6點,每佔領1個大城池可獲得2分"""
    s = new()
    put(s, 10, 0, -1, 0)
    put(s, 10, 0, -2, 0)
    put(s, 11, 0, -3, 2)
    close(s)
    dice.append([die])
    s, _ = act(ready(s), 0, "occupy", "0.0")
    assert R.score(s, 0) == (2 if ok else 0)


def test_occupy_needs_a_troop_in_hand() -> None:
    """D.若玩家面前桌上已無任何部隊,將無法執行此行動"""
    s = new()
    small_city(s)
    s["players"][0]["supply"] = 0
    assert "occupy" not in _values(ready(s), 0)


# --------------------------------------------------------------------------- the end

def test_eight_points_win_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """當有玩家率先獲得8分時,遊戲將立即結束,並由該玩家贏得遊戲勝利"""
    s = new()
    put(s, 10, 0, -1, 0)
    put(s, 10, 0, -2, 0)
    troop(s, "0.0", 0)
    s = ready(s, turn=0, phase="place", drawn=11)
    monkeypatch.setattr(R, "WIN_POINTS", 2)
    s, _ = act(s, 0, "place", "0,-3", "2", "-")
    assert s["phase"] == "over" and s["winners"] == [0] and s["end_reason"] == "points"
    assert s["stack"] and ENGINE.pending(s) == [] and ENGINE.result(s).winners == [0]


def test_the_game_ends_after_the_turn_that_places_the_last_tile() -> None:
    """當最後1個地圖板塊拼放於版圖上,且該玩家行動回合結束時,遊戲亦告結束,並由分數最高者成為遊戲贏家"""
    s = ready(new(), phase="place", drawn=11)
    s["stack"] = []
    s, _ = act(s, 0, "place", "0,-1", "2", "a")
    assert s["phase"] == "over" and s["end_reason"] == "tiles" and s["winners"] == [0]


def test_ties_go_by_the_four_criteria_in_order() -> None:
    """A.進駐已完成城池內的部隊數量 B.未使用的指令卡數量 C.未使用的計謀卡數量 D.警戒狀態的部隊數量"""
    s = _own_twins()
    troop(s, "0.0", 0, "a")
    troop(s, "2.0", 1, "f")
    assert R.winners_by_tiebreak(s, [0, 1]) == [0]  # A ties (1 each) … D: seat 0 has the alert one
    s["players"][1]["plots"].pop()
    troop(s, "1.0", 0, "f")
    assert R.winners_by_tiebreak(s, [0, 1]) == [0]  # A
    s2 = _own_twins()
    troop(s2, "0.0", 0, "a")
    troop(s2, "2.0", 1, "a")
    s2["players"][0]["cards"] = 3
    assert R.winners_by_tiebreak(s2, [0, 1]) == [1]  # B
    s2["players"][1]["cards"] = 3
    s2["players"][1]["plots"].pop()
    assert R.winners_by_tiebreak(s2, [0, 1]) == [0]  # C
    s2["players"][0]["plots"].pop()
    assert R.winners_by_tiebreak(s2, [0, 1]) == [0, 1]  # all equal: a shared win


def test_fortified_troops_only_defend() -> None:
    """B.堅守狀態:…具有2點生命值,只能進行防守 (A.警戒狀態:…可進行部隊轉移或進攻)"""
    s = _war_ready(["f", "f"], ["a"])
    assert "war" not in _values(s, 0, "card")
    assert "move" not in _values(s, 0, "dispatch")


def test_war_targets_only_cities_other_players_control() -> None:
    """選擇1座由其他玩家控制的城池作為目標城池"""
    s = _own_twins()
    troop(s, "0.0", 0)
    troop(s, "2.0", 0)
    s = ready(s)
    assert "card" not in _values(s, 0)  # own cities only: nothing to use a card on
    s = _own_twins()
    troop(s, "0.0", 0)
    s = ready(s)
    with pytest.raises(EngineError):
        act(s, 0, "card", "war", "0.0", "2.0", "1")  # idle city: occupy it instead


def test_command_cards_are_spent_and_leave_the_game() -> None:
    """使用後將該張指令卡移除遊戲 … 使用後將該張計謀卡與指令卡一併移除遊戲"""
    s = _war_ready(["a"], ["f"])
    s, _ = act(s, 0, "card", "plot", "lure", "2.0", "-")
    assert s["players"][0]["cards"] == 4 and "lure" not in s["players"][0]["plots"]
    s = ready(s)
    assert "lure" not in _values(s, 0, "card", "plot")


def test_placement_steps_carry_pictures_numbering_spots_like_the_options() -> None:
    """The phone flow: the drawn tile and its legal spots (numbered), then the rotations valid
    there, then the garrison spaces."""
    s = ready(new(), phase="place", drawn=13)
    step = ENGINE.step(s, 0, ["place"])
    assert step.picture == {"kind": "spots", "tile": 13,
                            "spots": [list(board.parse_cell(o.value)) for o in step.options]}
    assert [o.label.params["n"] for o in step.options] == list(range(1, len(step.options) + 1))
    rot = ENGINE.step(s, 0, ["place", "1,0"])
    assert rot.picture == {"kind": "rotations", "tile": 13, "cell": [1, 0], "rots": [0, 1, 2]}
    g = ENGINE.step(s, 0, ["place", "1,0", "1", "a"])
    assert g.picture["kind"] == "garrison" and g.picture["space"] == 1 and g.picture["rot"] == 1


def test_every_seats_points_at_once_match_each_seats_own() -> None:
    """``rules.scores`` (one pass, checked after every action) agrees with ``score`` seat by seat
    through whole games, civil wars, idle and shared cities included."""
    for seats, seed in ((3, 41), (5, 42)):
        state = new(seats, seed)
        rng = random.Random(seed)
        while ENGINE.pending(state):
            assert R.scores(state) == [R.score(state, s) for s in range(seats)]
            req = ENGINE.pending(state)[0]
            state, _ = ENGINE.apply(state, req.seat, ai.random_action(state, req.seat, rng))
