"""A turn: reinforce (territories, continents, cards), attack, move in, card draw, fortify."""

from __future__ import annotations

import pytest
from risk_testkit import C, act, card_census, check_invariants, new, position

from engines.base import EngineError
from engines.risk import ENGINE, rules
from engines.risk.cards import is_set, trade_value

NA = list(C.continents["north_america"])
AU = list(C.continents["australia"])


def _give(n: int) -> dict[str, int]:
    """Seat 0 holds the first ``n`` territories in map order, seat 1 the rest."""
    return {t: (0 if i < n else 1) for i, t in enumerate(C.territories)}


@pytest.mark.parametrize("n,expected", [(1, 3), (8, 3), (9, 3), (11, 3), (12, 4), (20, 6), (35, 11)])
def test_territory_reinforcement_is_count_div_3_at_least_3(n: int, expected: int) -> None:
    """將自家所佔領的領土地區數除以3,若除不盡採無條件捨去…若玩家所佔領的領土地區數不足9個,仍可增加3個軍隊數"""
    # seat 1 keeps the first territory of every continent, so seat 0 never earns a continent bonus
    spare = [t for t in C.territories if t not in {ts[0] for ts in C.continents.values()}]
    owners = {t: 1 for t in C.territories} | {t: 0 for t in spare[:n]}
    state = position(2, owners)
    assert rules.territory_count(state, 0) == n and rules.continents_held(state, 0) == []
    assert rules.base_reinforcements(state, 0) == expected


def test_continent_bonus_for_every_whole_continent() -> None:
    """當玩家征服整個大陸區域…北美洲5個 南美洲2個 歐洲5個 非洲3個 亞洲7個 澳洲2個"""
    owners = {t: 1 for t in C.territories}
    for t in NA + AU:
        owners[t] = 0
    state = position(2, owners)
    assert rules.continents_held(state, 0) == ["north_america", "australia"]
    assert rules.base_reinforcements(state, 0) == 13 // 3 + 5 + 2
    state["owner"]["alaska"] = 1
    assert rules.base_reinforcements(state, 0) == 12 // 3 + 2


def test_turn_start_sets_reinforcements() -> None:
    owners = {t: 1 for t in C.territories}
    for t in AU:
        owners[t] = 0
    state = position(2, owners, phase="fortify", turn=1)
    state, _ = act(state, 1, "end")
    assert state["turn"] == 0 and state["phase"] == "reinforce"
    assert state["reinforcements"] == 3 and state["bonus_pools"] == {"australia": 2}
    assert ENGINE.view(state, None)["reinforcements_left"] == 3 + 2


def test_card_sets_three_alike_one_of_each_two_plus_wild() -> None:
    """3張完全相同圖像領土卡、3張完全不同圖像領土卡、任何圖像2張領土卡+1張萬用卡"""
    assert is_set(["alaska", "argentina", "peru"])  # 3 infantry
    assert is_set(["alaska", "alberta", "japan"])  # infantry, cavalry, artillery
    assert is_set(["alaska", "argentina", "wild_1"])
    assert is_set(["alaska", "alberta", "wild_2"])
    assert not is_set(["alaska", "argentina", "alberta"])  # 2 infantry + cavalry
    assert not is_set(["alaska", "alaska", "peru"])


def test_trade_values_escalate_per_the_seed_then_by_five() -> None:
    """第1組4個 第2組6個 … 第6組15個 第7組20個 … 第14組55個 (then +5 each)"""
    assert [trade_value(i) for i in range(16)] == [4, 6, 8, 10, 12, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60, 65]


def _reinforce_with(cards: list[str], owners: dict[str, int] | None = None, left: int = 3):
    state = position(2, owners or _give(21), phase="reinforce", reinforcements=left)
    for c in cards:
        state["deck"].remove(c)
    state["players"][0]["cards"] = list(cards)
    return state


def test_trade_adds_the_next_value_and_counts_the_trade() -> None:
    state = _reinforce_with(["japan", "siam", "ural"], owners={t: 1 for t in C.territories} | {"alaska": 0})
    state["trade_count"] = 5
    state, _ = act(state, 0, "trade", "japan", "siam", "ural")
    assert state["reinforcements"] == 3 + 15 and state["trade_count"] == 6
    assert sorted(state["discard"]) == ["japan", "siam", "ural"] and state["players"][0]["cards"] == []


def test_plus_two_on_a_traded_territory_you_hold() -> None:
    """若玩家打出的組數卡牌中,卡牌上的領土地圖為該玩家所佔領的任一領土地區,則玩家可在該領土地區額外增加2個軍隊"""
    owners = {t: 1 for t in C.territories} | {"alaska": 0, "peru": 0}
    state = _reinforce_with(["alaska", "argentina", "venezuela"], owners)
    state, _ = act(state, 0, "trade", "alaska", "argentina", "venezuela")
    assert state["armies"]["alaska"] == 3 and state["reinforcements"] == 3 + 4


def test_plus_two_only_once_and_player_chooses_if_several() -> None:
    """…與領土地圖相同的玩家所佔領領土地區不只1處,則玩家只能選擇其中1處增加2個軍隊"""
    owners = {t: 1 for t in C.territories} | {"alaska": 0, "argentina": 0}
    state = _reinforce_with(["alaska", "argentina", "venezuela"], owners)
    step = ENGINE.step(state, 0, ["trade", "alaska", "argentina", "venezuela"])
    assert not step.complete and sorted(o.value for o in step.options) == ["alaska", "argentina"]
    with pytest.raises(EngineError):
        act(state, 0, "trade", "alaska", "argentina", "venezuela")
    state, _ = act(state, 0, "trade", "alaska", "argentina", "venezuela", "argentina")
    assert state["armies"]["argentina"] == 3 and state["armies"]["alaska"] == 1


def test_five_cards_force_a_trade_before_placing() -> None:
    """Published rule: holding 5 or more cards at the start of the turn you must trade."""
    state = _reinforce_with(["alaska", "argentina", "peru", "alberta", "japan"],
                            {t: 1 for t in C.territories} | {"indonesia": 0})
    opts = [o.value for o in ENGINE.step(state, 0, []).options]
    assert opts == ["trade"]
    with pytest.raises(EngineError):
        act(state, 0, "place", "alaska", "3")
    state, _ = act(state, 0, "trade", "alaska", "argentina", "peru")
    assert "place" in [o.value for o in ENGINE.step(state, 0, []).options]


def test_four_cards_do_not_force_a_trade() -> None:
    state = _reinforce_with(["alaska", "argentina", "peru", "alberta"])
    assert sorted(o.value for o in ENGINE.step(state, 0, []).options) == ["place", "trade"]


def test_place_in_chunks_with_sensible_counts() -> None:
    state = position(2, _give(21), phase="reinforce", reinforcements=12)
    opts = ENGINE.step(state, 0, ["place", "alaska"]).options
    # "All here" first, then "+1", "+3", "+5", "+6" (half), "+10"; each plays at once.
    assert [o.value for o in opts] == ["12", "1", "3", "5", "6", "10"]
    assert [o.label.key for o in opts[:2]] == ["risk.opt.place_all", "risk.opt.place_more"]
    assert all(o.commit for o in opts)
    state, _ = act(state, 0, "place", "alaska", "5")
    assert state["phase"] == "reinforce" and state["reinforcements"] == 7
    with pytest.raises(EngineError):
        act(state, 0, "place", "alaska", "8")
    with pytest.raises(EngineError):
        act(state, 0, "place", "japan", "1")  # not yours
    state, _ = act(state, 0, "place", "greenland", "7")
    assert state["armies"]["alaska"] == 6 and state["armies"]["greenland"] == 8
    assert state["phase"] == "attack"


def test_attack_needs_two_armies_and_a_neighbour() -> None:
    """若玩家所佔領的領土地區有2個軍隊數以上,則可向鄰近或虛線相連的敵方軍隊佔領領土區發動攻擊"""
    state = position(2, {"kamchatka": 1, "japan": 1}, {"alaska": 1, "alberta": 3})
    with pytest.raises(EngineError):
        act(state, 0, "attack", "alaska", "kamchatka", "once")  # one army
    with pytest.raises(EngineError):
        act(state, 0, "attack", "alberta", "kamchatka", "once")  # not adjacent
    state["armies"]["alaska"] = 2
    state["dice_queue"] = [6, 1]
    state, _ = act(state, 0, "attack", "alaska", "kamchatka", "once")  # sea link
    assert state["owner"]["kamchatka"] == 0


def test_the_attacker_may_roll_fewer_dice_and_moves_in_at_least_that_many() -> None:
    """攻擊方拿取紅色骰子(最多3顆): up to three; published rule, the attacker chooses fewer."""
    state = position(2, {"ontario": 1, "japan": 1}, {"quebec": 8, "ontario": 1, "kamchatka": 3},
                     dice=[6, 1])
    modes = [o.value for o in ENGINE.step(state, 0, ["attack", "quebec", "ontario"]).options]
    assert modes == ["once", "blitz", "dice"]
    assert [o.value for o in ENGINE.step(state, 0, ["attack", "quebec", "ontario", "dice"]).options] == ["1", "2"]
    for bad in ("0", "3", "4"):
        with pytest.raises(EngineError):
            act(state, 0, "attack", "quebec", "ontario", "dice", bad)
    won, _ = act(state, 0, "attack", "quebec", "ontario", "dice", "1")
    assert won["last_battle"]["att_dice"] == [6] and won["last_battle"]["def_dice"] == [1]
    assert won["occupy"]["min"] == 1 and won["armies"]["ontario"] == 1  # one die rolled: one must move


def test_fewer_dice_is_offered_only_where_more_than_one_die_is_allowed() -> None:
    state = position(2, {"ontario": 1, "japan": 1}, {"quebec": 2, "ontario": 1, "kamchatka": 3})
    modes = [o.value for o in ENGINE.step(state, 0, ["attack", "quebec", "ontario"]).options]
    assert modes == ["once", "blitz"]
    with pytest.raises(EngineError):
        act(state, 0, "attack", "quebec", "ontario", "dice", "1")


def test_conquest_moves_in_at_least_the_dice_rolled_at_most_all_but_one() -> None:
    """發動攻擊玩家可根據最後一次對決所進行的骰子數量,將對應數量的軍隊數移置新佔領的領土區內…至少須有1個軍隊駐足"""
    state = position(2, {"ontario": 1, "japan": 1}, {"quebec": 8, "ontario": 1, "kamchatka": 3},
                     dice=[6, 5, 4, 1])
    state, _ = act(state, 0, "attack", "quebec", "ontario", "once")
    assert state["phase"] == "occupy"
    assert state["occupy"] == {"from": "quebec", "to": "ontario", "min": 3, "max": 7}
    assert state["armies"]["ontario"] == 3 and state["armies"]["quebec"] == 5  # the minimum is already in
    opts = ENGINE.step(state, 0, ["move"]).options
    # "Move all" and "Move minimum" first, then the exact counts between; each plays at once.
    assert [o.value for o in opts] == ["7", "3", "5"]
    assert [o.label.key for o in opts[:2]] == ["risk.opt.move_all", "risk.opt.move_min"]
    assert all(o.commit for o in opts)
    with pytest.raises(EngineError):
        act(state, 0, "move", "2")
    with pytest.raises(EngineError):
        act(state, 0, "move", "8")
    state, _ = act(state, 0, "move", "6")
    assert state["armies"]["ontario"] == 6 and state["armies"]["quebec"] == 2 and state["phase"] == "attack"


def test_no_move_in_request_when_min_equals_max() -> None:
    state = position(2, {"ontario": 1, "japan": 1}, {"quebec": 2, "ontario": 1}, dice=[6, 1])
    state, _ = act(state, 0, "attack", "quebec", "ontario", "once")
    assert state["armies"]["ontario"] == 1 and state["armies"]["quebec"] == 1
    assert state["phase"] in ("attack", "fortify", "reinforce")


def test_blitz_attacks_until_win_or_n_left() -> None:
    """["attack", from, to, "blitz", N]: attack until the territory falls or N armies are left."""
    # defender wins every roll: attacker stops at 4 armies
    state = position(2, {"ontario": 1, "japan": 1}, {"quebec": 10, "ontario": 5}, dice=[1, 1, 1, 6, 6] * 5)
    state, _ = act(state, 0, "attack", "quebec", "ontario", "blitz", "4")
    assert state["armies"]["quebec"] == 4 and state["armies"]["ontario"] == 5
    assert state["turn_summary"][-1]["rolls"] == 3 and state["turn_summary"][-1]["att_loss"] == 6
    # attacker wins every roll: stops at the conquest
    state = position(2, {"ontario": 1, "japan": 1}, {"quebec": 10, "ontario": 3}, dice=[6, 6, 6, 1, 1] * 5)
    state, _ = act(state, 0, "attack", "quebec", "ontario", "blitz", "1")
    assert state["owner"]["ontario"] == 0 and state["turn_summary"][-1]["rolls"] == 2


def _conquer_once(state):
    state["dice_queue"] = [6, 1]
    state, _ = act(state, 0, "attack", "quebec", "ontario", "once")
    return state


def test_one_card_per_turn_after_at_least_one_conquest() -> None:
    """…可從卡牌堆上方抽取1張卡牌(無論佔領的領土區數量為何,皆只能抽取1張)"""
    state = position(2, {"ontario": 1, "greenland": 1, "japan": 1}, {"quebec": 4, "kamchatka": 3},
                     dice=[6, 6, 6, 1, 6, 6, 1])
    state, _ = act(state, 0, "attack", "quebec", "ontario", "once")
    state, _ = act(state, 0, "attack", "ontario", "greenland", "once")
    assert state["owner"]["ontario"] == 0 and state["owner"]["greenland"] == 0
    assert state["phase"] == "attack" and len(state["players"][0]["cards"]) == 0
    state, _ = act(state, 0, "end")
    assert len(state["players"][0]["cards"]) == 1


def test_an_empty_deck_is_refilled_from_the_shuffled_discards() -> None:
    """Published rule (the seed is silent): when the draw pile runs out, traded cards are shuffled
    into a new one; the conquest card still comes, and no card is lost or duplicated."""
    state = position(2, {"ontario": 1, "japan": 1}, {"quebec": 2, "ontario": 1}, dice=[6, 1])
    traded = state["deck"][:3]
    state["discard"] = traded
    state["players"][1]["cards"] = state["deck"][3:]
    state["deck"] = []
    state, _ = act(state, 0, "attack", "quebec", "ontario", "once")
    while state["turn"] == 0:  # the conquest left nothing to attack with: the turn may end by itself
        state, _ = act(state, 0, "end")
    assert state["discard"] == [] and len(state["deck"]) == 2
    assert len(state["players"][0]["cards"]) == 1 and state["players"][0]["cards"][0] in traded
    assert card_census(state) == sorted(C.card_ids)


def test_no_card_without_a_conquest() -> None:
    state = position(2, {"ontario": 1, "japan": 1}, {"quebec": 2, "ontario": 1})
    state, _ = act(state, 0, "end")
    assert state["players"][0]["cards"] == []


def test_eliminating_a_player_takes_their_cards() -> None:
    """造成對手玩家的所有軍隊皆被殲滅…讓對手淘汰的攻擊玩家可從…取得 (published: the loser's cards)"""
    state = position(3, {"ontario": 1, "japan": 2}, {"quebec": 2, "ontario": 1, "kamchatka": 3})
    for c in ("peru", "brazil"):
        state["deck"].remove(c)
    state["players"][1]["cards"] = ["peru", "brazil"]
    state = _conquer_once(state)
    assert not state["players"][1]["alive"]
    assert state["players"][0]["cards"] == ["peru", "brazil"] and state["players"][1]["cards"] == []
    check_invariants(state)


def test_six_cards_after_elimination_force_trades_down_to_four() -> None:
    """手牌張數達6張以上,則須立即打出手牌 (published: trade until 4 or fewer), then keep attacking."""
    state = position(3, {"ontario": 1, "japan": 2, "siam": 2}, {"quebec": 5, "ontario": 1, "kamchatka": 3})
    loser = ["alaska", "argentina", "peru", "venezuela"]  # 4 infantry
    mine = ["alberta", "greenland", "ontario"]  # 3 cavalry
    for c in loser + mine:
        state["deck"].remove(c)
    state["players"][1]["cards"] = list(loser)
    state["players"][0]["cards"] = list(mine)
    state["dice_queue"] = [6, 1, 1, 1]
    state, _ = act(state, 0, "attack", "quebec", "ontario", "once")
    assert len(state["players"][0]["cards"]) == 7
    state, _ = act(state, 0, "move", "3")
    assert state["phase"] == "reinforce" and state["post_elim"]
    assert [o.value for o in ENGINE.step(state, 0, []).options] == ["trade"]
    state, _ = act(state, 0, "trade", "alaska", "argentina", "peru", "peru")  # 7 -> 4: enough
    assert len(state["players"][0]["cards"]) == 4
    assert [o.value for o in ENGINE.step(state, 0, []).options] == ["place"]  # no more trading now
    assert state["armies"]["peru"] == 3
    state, _ = act(state, 0, "place", "quebec", "4")
    assert state["phase"] == "attack" and not state["post_elim"]


def test_five_cards_after_elimination_need_no_trade() -> None:
    """若玩家攻擊成功抽完卡牌後,造成自家的手牌張數少於6張,則無須打出手牌"""
    state = position(3, {"ontario": 1, "japan": 2, "siam": 2}, {"quebec": 5, "ontario": 1, "kamchatka": 3})
    for c in ["alaska", "argentina", "alberta", "greenland", "ontario"]:
        state["deck"].remove(c)
    state["players"][1]["cards"] = ["alaska", "argentina"]
    state["players"][0]["cards"] = ["alberta", "greenland", "ontario"]
    state["dice_queue"] = [6, 1, 1, 1]
    state, _ = act(state, 0, "attack", "quebec", "ontario", "once")
    state, _ = act(state, 0, "move", "3")
    assert state["phase"] == "attack"


def test_fortify_only_between_adjacent_own_territories_leaving_one() -> None:
    """移動時僅能移置鄰近的自家領土區內…軍隊移動後須維持各領土區內至少還有1個軍隊存在"""
    state = position(2, {"japan": 1}, {"alaska": 5}, phase="fortify")
    with pytest.raises(EngineError):
        act(state, 0, "fortify", "alaska", "quebec", "2")  # not adjacent
    with pytest.raises(EngineError):
        act(state, 0, "fortify", "alaska", "alberta", "5")  # would empty alaska
    with pytest.raises(EngineError):
        act(state, 0, "fortify", "alaska", "kamchatka_x", "1")
    state, _ = act(state, 0, "fortify", "alaska", "alberta", "4")
    assert state["armies"]["alaska"] == 1 and state["armies"]["alberta"] == 5


def test_one_fortify_move_per_turn_then_the_turn_passes() -> None:
    """Published classic rule (seed silent on the count): one fortifying move, then the turn ends."""
    state = position(2, {"japan": 1}, {"alaska": 5}, phase="fortify")
    state, _ = act(state, 0, "fortify", "alaska", "alberta", "1")
    assert state["turn"] == 1 and state["phase"] == "reinforce"


def test_world_domination_wins() -> None:
    """當有玩家將其他所有玩家軍隊皆殲滅,且佔領全球6個大陸42個領土地區時遊戲即告結束"""
    state = position(2, {"ontario": 1}, {"quebec": 2, "ontario": 1})
    state = _conquer_once(state)
    assert state["phase"] == "over" and state["winners"] == [0] and state["end_reason"] == "domination"
    assert ENGINE.result(state).winners == [0]
    assert ENGINE.pending(state) == []
    with pytest.raises(EngineError):
        act(state, 0, "end")


def test_round_cap_gives_the_win_to_most_territories() -> None:
    state = position(2, {"japan": 1, "china": 1}, phase="fortify", turn=1)
    state["max_rounds"] = 1
    state, _ = act(state, 1, "end")
    assert state["phase"] == "over" and state["winners"] == [0] and state["end_reason"] == "cap"


def test_turn_passes_clockwise_skipping_eliminated_players() -> None:
    state = position(3, {"japan": 2}, phase="fortify", turn=0)
    assert not state["players"][1]["alive"]
    state, _ = act(state, 0, "end")
    assert state["turn"] == 2


def test_any_number_of_attacks_on_one_or_several_territories() -> None:
    """玩家攻擊次數及攻擊領土區數量皆無上限。玩家可持續攻擊單一敵軍佔領領土區,亦可轉戰攻擊另一敵軍佔領領土區"""
    state = position(2, {"ontario": 1, "greenland": 1, "japan": 1},
                     {"quebec": 9, "ontario": 5, "greenland": 5, "kamchatka": 3},
                     dice=[1, 1, 1, 6, 6] * 2 + [1, 1, 6, 6, 6])
    state, _ = act(state, 0, "attack", "quebec", "ontario", "once")
    state, _ = act(state, 0, "attack", "quebec", "ontario", "once")
    state, _ = act(state, 0, "attack", "quebec", "greenland", "once")
    assert state["armies"]["quebec"] == 3 and state["phase"] == "attack"
    assert [(e["to"], e["att_loss"]) for e in state["turn_summary"]] == [("ontario", 2), ("ontario", 2),
                                                                         ("greenland", 2)]


def test_fortify_moves_any_number_of_armies() -> None:
    """玩家可移置的軍隊數量不限,但軍隊移動後須維持各領土區內至少還有1個軍隊存在的情況"""
    state = position(2, {"japan": 1}, {"alaska": 9}, phase="fortify")
    opts = [o.value for o in ENGINE.step(state, 0, ["fortify", "alaska", "alberta"]).options]
    assert opts[0] == "1" and opts[-1] == "8"
    state, _ = act(state, 0, "fortify", "alaska", "alberta", "7")
    assert state["armies"]["alberta"] == 8 and state["armies"]["alaska"] == 2


def test_the_44_card_deck_is_shuffled_face_down() -> None:
    """將秘密任務卡外的44張卡牌(領土卡及萬用卡)正面朝下洗勻,形成牌堆"""

    decks = [new(3, seed=s)["deck"] for s in range(5)]
    assert all(sorted(d) == sorted(C.card_ids) for d in decks)
    assert len({tuple(d) for d in decks}) == 5
    assert all(p["cards"] == 0 for p in ENGINE.view(new(3, seed=1), None)["players"])
