"""Variants: two players with a neutral army, headquarters, secret missions."""

from __future__ import annotations

import random

import pytest
from risk_testkit import C, act, check_invariants, new, play, position

from engines.base import EngineError
from engines.risk import ENGINE, rules

# ----- neutral ---------------------------------------------------------------------------------


def test_neutral_is_two_players_only() -> None:
    assert ENGINE.seat_range({"variant": "neutral"}) == (2, 2)
    with pytest.raises(EngineError):
        ENGINE.new_state({"variant": "neutral"}, 3, 1)


def test_neutral_deals_three_piles_of_fourteen_one_army_each() -> None:
    """將所有領土卡正面朝下洗勻,均分成3組牌堆,二位玩家各拿1組牌堆,另1組牌堆則歸屬中立方"""
    state = new(2, "neutral", "classic", seed=4)
    owners = [state["owner"][t] for t in C.territories]
    assert sorted(owners.count(s) for s in (0, 1, rules.NEUTRAL)) == [14, 14, 14]
    assert all(state["armies"][t] == 1 for t in C.territories)


def test_neutral_classic_places_two_own_and_one_neutral_until_40_each() -> None:
    """雙方玩家輪流將自家2個步兵代表物擺置…再將中立方1個步兵代表物擺置…直到…擺置完成 (40 each incl. neutral)"""
    state = new(2, "neutral", "classic", seed=4)
    seat = state["turn"]
    mine = next(t for t in C.territories if state["owner"][t] == seat)
    neutral = next(t for t in C.territories if state["owner"][t] == rules.NEUTRAL)
    with pytest.raises(EngineError):
        act(state, seat, "place", mine, mine, mine)  # third must be neutral
    state, _ = act(state, seat, "place", mine, mine, neutral)
    assert state["armies"][mine] == 3 and state["armies"][neutral] == 2 and state["turn"] == 1 - seat
    while state["phase"] == "setup_place":
        s = state["turn"]
        m = next(t for t in C.territories if state["owner"][t] == s)
        state, _ = act(state, s, "place", m, m, neutral)
    totals = {s: sum(state["armies"][t] for t in C.territories if state["owner"][t] == s)
              for s in (0, 1, rules.NEUTRAL)}
    assert totals == {0: 40, 1: 40, rules.NEUTRAL: 40}
    assert state["phase"] == "reinforce"


def test_neutral_quick_spreads_neutral_armies_and_players_deploy_in_secret() -> None:
    state = new(2, "neutral", "quick", seed=9)
    neutral_total = sum(state["armies"][t] for t in C.territories if state["owner"][t] == rules.NEUTRAL)
    assert neutral_total == 40
    assert [p["to_place"] for p in state["players"]] == [26, 26]


def test_neutral_never_gets_a_turn_or_reinforcements() -> None:
    """中立方無法發動攻擊,也不可以接受軍隊增援: after set-up, no action ever raises a neutral
    territory's armies, and no request is ever addressed to the neutral."""
    for seed in (3, 13):
        state = new(2, "neutral", "quick", seed=seed)
        rng = random.Random(seed)
        before: dict[str, int] | None = None
        while ENGINE.result(state) is None:
            req = ENGINE.pending(state)[0]
            assert req.seat in (0, 1)
            state, _ = ENGINE.apply(state, req.seat, ENGINE.ai_action(state, req.seat, rng))
            if state["phase"] not in rules.PLAY_PHASES:
                continue
            now = {t: state["armies"][t] for t in C.territories if state["owner"][t] == rules.NEUTRAL}
            if before is not None:
                assert all(n <= before.get(t, 0) for t, n in now.items()), seed
            before = now


def test_attacking_neutral_it_defends_with_the_most_dice_allowed() -> None:
    """當玩家攻擊中立方的領土區時,由對手玩家負責擲骰 — modelled as the maximum defender dice."""
    owners = {"ontario": rules.NEUTRAL, "japan": 1}
    state = position(2, owners, {"quebec": 4, "ontario": 3, "kamchatka": 3}, variant="neutral",
                     dice=[6, 6, 6, 1, 1])
    state, _ = act(state, 0, "attack", "quebec", "ontario", "once")
    assert len(state["last_battle"]["def_dice"]) == 2 and state["armies"]["ontario"] == 1


def test_neutral_victory_is_eliminating_the_opponent() -> None:
    """當玩家將對手玩家軍隊皆殲滅…遊戲即告結束 (neutral territories may remain)"""
    owners = {t: rules.NEUTRAL for t in C.continents["asia"]} | {"ontario": 1}
    state = position(2, owners, {"quebec": 2, "ontario": 1}, variant="neutral", dice=[6, 1])
    state, _ = act(state, 0, "attack", "quebec", "ontario", "once")
    assert state["phase"] == "over" and state["winners"] == [0] and state["end_reason"] == "last_standing"
    assert any(state["owner"][t] == rules.NEUTRAL for t in C.territories)


# ----- headquarters ----------------------------------------------------------------------------

def _to_hq_phase(seats: int, seed: int = 2):
    state = new(seats, "hq", "quick", seed=seed)
    for s in range(seats):
        t = next(t for t in C.territories if state["owner"][t] == s)
        state, _ = act(state, s, "place", t, str(state["players"][s]["to_place"]))
    return state


def test_hq_is_chosen_secretly_and_revealed_together() -> None:
    """各玩家分別秘密選擇其中1個自家軍隊所佔領的領土區為指揮總部…再同時…翻開揭曉"""
    state = _to_hq_phase(3)
    assert state["phase"] == "setup_hq"
    assert sorted(r.seat for r in ENGINE.pending(state)) == [0, 1, 2]
    hq0 = next(t for t in C.territories if state["owner"][t] == 0)
    with pytest.raises(EngineError):
        act(state, 0, "hq", next(t for t in C.territories if state["owner"][t] == 1))
    state, events = act(state, 0, "hq", hq0)
    assert ENGINE.view(state, 0)["you"]["hq"] == hq0
    assert ENGINE.view(state, 1)["you"]["hq"] is None
    assert all(p["hq"] is None for p in ENGINE.view(state, 1)["players"])
    assert all(p["hq"] is None for p in ENGINE.view(state, None)["players"])
    assert all(hq0 not in str(e.to_json()) for e in events if e.to is None)
    for s in (1, 2):
        state, _ = act(state, s, "hq", next(t for t in C.territories if state["owner"][t] == s))
    assert state["phase"] == "reinforce"
    public = ENGINE.view(state, None)["players"]
    assert public[0]["hq"] == hq0 and all(p["hq"] for p in public)


def test_hq_cards_are_set_aside_and_never_traded() -> None:
    """作為指揮總部的領土卡須與其它領土卡區隔,玩家不能將指揮總部的領土卡作為組合收集之用"""
    state = _to_hq_phase(2)
    hqs = []
    for s in range(2):
        t = next(t for t in C.territories if state["owner"][t] == s)
        hqs.append(t)
        state, _ = act(state, s, "hq", t)
    assert sorted(state["hq_aside"]) == sorted(hqs)
    assert not set(hqs) & set(state["deck"])
    check_invariants(state)


@pytest.mark.parametrize("seats,need", [(2, 1), (3, 2), (4, 2), (5, 3), (6, 3)])
def test_hq_win_thresholds(seats: int, need: int) -> None:
    """2~3位玩家:…其他所有玩家的指揮總部; 4位玩家:其他任2位; 5~6位玩家:其他任3位"""
    assert rules.hqs_needed(seats) == need


def _hq_position(seats: int, hqs: list[str], owners: dict[str, int], armies: dict[str, int]):
    state = position(seats, owners, armies, variant="hq")
    for s, t in enumerate(hqs):
        state["players"][s]["hq"] = t
        state["hq_holder"][t] = state["owner"][t]
        state["deck"].remove(t)
        state["hq_aside"].append(t)
    return state


def test_capturing_an_hq_takes_it_and_the_owner_keeps_playing() -> None:
    """將對手玩家面前的指揮總部領土卡移置自家面前表示佔領。指揮總部被殲滅的玩家未被淘汰,仍可繼續進行遊戲"""
    owners = {"ontario": 1, "japan": 1, "peru": 2, "siam": 3}
    state = _hq_position(4, ["alaska", "ontario", "peru", "siam"], owners,
                         {"quebec": 2, "ontario": 1, "kamchatka": 3})
    state["dice_queue"] = [6, 1]
    state, events = act(state, 0, "attack", "quebec", "ontario", "once")
    assert state["hq_holder"]["ontario"] == 0 and state["players"][1]["alive"]
    assert ENGINE.view(state, None)["players"][0]["hqs_captured"] == ["ontario"]
    assert state["phase"] != "over"  # 4 players: two HQs needed
    assert any(e.msg.key == "risk.ev.hq_captured" for e in events)


def test_two_captured_hqs_win_with_four_players() -> None:
    owners = {"ontario": 1, "japan": 1, "peru": 2, "siam": 3}
    state = _hq_position(4, ["alaska", "ontario", "peru", "siam"], owners,
                         {"quebec": 2, "ontario": 1, "venezuela": 2, "peru": 1, "kamchatka": 3})
    state["dice_queue"] = [6, 1, 6, 1]
    state, _ = act(state, 0, "attack", "quebec", "ontario", "once")
    state, _ = act(state, 0, "attack", "venezuela", "peru", "once")
    assert state["phase"] == "over" and state["winners"] == [0] and state["end_reason"] == "hq"


def test_three_players_need_both_other_hqs() -> None:
    """2~3位玩家:當有玩家將其他所有玩家的指揮總部皆殲滅時遊戲即告結束"""
    owners = {"ontario": 1, "japan": 1, "peru": 2, "siam": 2}
    state = _hq_position(3, ["alaska", "ontario", "peru"], owners,
                         {"quebec": 2, "ontario": 1, "venezuela": 2, "peru": 1, "kamchatka": 3, "siam": 3})
    state["dice_queue"] = [6, 1, 6, 1]
    state, _ = act(state, 0, "attack", "quebec", "ontario", "once")
    assert state["phase"] != "over" and rules.hqs_captured(state, 0) == ["ontario"]
    state, _ = act(state, 0, "attack", "venezuela", "peru", "once")
    assert state["phase"] == "over" and state["winners"] == [0] and state["end_reason"] == "hq"


def test_retaking_your_own_hq_takes_the_card_back() -> None:
    owners = {"ontario": 1, "quebec": 1, "japan": 2, "siam": 2}
    state = _hq_position(3, ["alaska", "ontario", "japan"], owners,
                         {"greenland": 2, "ontario": 1, "quebec": 5, "kamchatka": 3})
    state["dice_queue"] = [6, 1]
    state, _ = act(state, 0, "attack", "greenland", "ontario", "once")
    assert rules.hqs_captured(state, 0) == ["ontario"]
    state["turn"], state["phase"] = 1, "attack"
    state["dice_queue"] = [6, 6, 6, 1]
    state, _ = act(state, 1, "attack", "quebec", "ontario", "once")
    assert state["hq_holder"]["ontario"] == 1 and rules.hqs_captured(state, 0) == []


# ----- missions --------------------------------------------------------------------------------

def test_missions_about_absent_colours_are_removed_and_one_is_dealt_to_each() -> None:
    """將與玩家所選代表色無關的秘密任務卡移除…每位玩家各分發1張"""
    for seed in range(30):
        state = new(3, "mission", seed=seed)
        dealt = [p["mission"] for p in state["players"]]
        assert len(set(dealt)) == 3
        assert not {"destroy_green", "destroy_purple", "destroy_black"} & set(dealt)


def test_mission_territories_are_dealt_evenly() -> None:
    """將所有領土卡正面朝下洗勻,平均分配給所有玩家"""
    state = new(4, "mission", "classic", seed=3)
    counts = sorted(rules.territory_count(state, s) for s in range(4))
    assert counts == [10, 10, 11, 11] and state["phase"] == "setup_place"


def test_own_colour_destroy_mission_becomes_24_territories() -> None:
    """若你是紅色玩家,須佔領24個領土地區"""
    state = position(2, {t: 1 for t in C.territories[24:]}, variant="mission")
    state["players"][0]["mission"] = "destroy_red"  # seat 0 is red
    assert rules.effective_mission(state, 0) == "territories_24"
    assert rules.mission_done(state, 0)


def test_destroy_mission_completed_by_eliminating_the_colour() -> None:
    state = position(3, {"ontario": 1, "japan": 2}, {"quebec": 2, "ontario": 1, "kamchatka": 3},
                     variant="mission", dice=[6, 1])
    state["players"][0]["mission"] = "destroy_yellow"
    state["players"][1]["mission"] = "asia_africa"
    state["players"][2]["mission"] = "asia_south_america"
    state, events = act(state, 0, "attack", "quebec", "ontario", "once")
    assert state["phase"] == "over" and state["winners"] == [0] and state["end_reason"] == "mission"
    reveals = [e for e in events if e.msg.key == "risk.ev.mission_reveal"]
    assert len(reveals) == 3 and all(e.to is None for e in reveals)
    assert ENGINE.view(state, None)["players"][1]["mission"]["id"] == "asia_africa"


def test_destroy_mission_when_someone_else_eliminates_the_target_becomes_24() -> None:
    """Published rule: if another player eliminates your target, your mission becomes 24 territories."""
    state = position(3, {"ontario": 1, "japan": 2}, {"quebec": 2, "ontario": 1, "kamchatka": 3},
                     variant="mission", dice=[6, 1])
    state["players"][0]["mission"] = "asia_africa"
    state["players"][1]["mission"] = "territories_18_two"
    state["players"][2]["mission"] = "destroy_yellow"
    state, _ = act(state, 0, "attack", "quebec", "ontario", "once")
    assert state["phase"] != "over"
    assert rules.effective_mission(state, 2) == "territories_24"
    assert ENGINE.view(state, 2)["you"]["mission"]["id"] == "territories_24"


def test_continent_mission_checked_after_every_action() -> None:
    """最先完成任務內容的玩家,將任務卡翻開確認後遊戲即告結束"""
    owners = {t: 0 for t in C.continents["north_america"] + C.continents["australia"]}
    owners = {t: owners.get(t, 1) for t in C.territories}
    owners["indonesia"] = 1
    state = position(2, owners, {"siam": 1, "new_guinea": 3, "indonesia": 1, "western_australia": 1},
                     variant="mission", dice=[6, 6, 1])
    state["players"][0]["mission"] = "north_america_australia"
    state["players"][1]["mission"] = "asia_africa"
    state, _ = act(state, 0, "attack", "new_guinea", "indonesia", "once")
    assert state["phase"] == "over" and state["end_reason"] == "mission"


def test_a_mission_is_never_won_during_set_up() -> None:
    """Missions are checked in play only: the set-up's last army starts the first turn, not a win."""
    for setup in ("quick", "classic"):
        for seed in range(6):
            state = new(2, "mission", setup, seed=seed)
            state["players"][0]["mission"] = "territories_24"
            state["players"][1]["mission"] = "north_america_australia"
            # make the deal itself complete seat 1's mission before the last set-up placement
            for t in C.continents["north_america"] + C.continents["australia"]:
                state["owner"][t] = 1
            while state["phase"] not in rules.PLAY_PHASES:
                req = ENGINE.pending(state)[0]
                state, _ = ENGINE.apply(state, req.seat, ENGINE.ai_action(state, req.seat, random.Random(seed)))
            assert state["phase"] == "reinforce" and state["round"] == 1, (setup, seed)


def test_two_player_deal_drops_the_mission_the_deal_already_completes() -> None:
    """Two players are dealt 21 territories and 40 armies each, so "18 territories with 2 armies
    each" would be done before the first move: that card leaves a 2-player game; 3+ keep it."""
    two = {new(2, "mission", seed=s)["players"][p]["mission"] for s in range(60) for p in (0, 1)}
    assert "territories_18_two" not in two and "territories_24" in two
    three = {new(3, "mission", seed=s)["players"][p]["mission"] for s in range(60) for p in range(3)}
    assert "territories_18_two" in three


def test_eighteen_territories_need_two_armies_on_each() -> None:
    """須征服18個領土地區,且每個領土地區須有2個軍隊佔領"""
    mine = C.territories[:18]
    owners = {t: (0 if t in mine else 1 + i % 2) for i, t in enumerate(C.territories)}
    armies = {t: 2 for t in mine} | {mine[0]: 1}
    state = position(3, owners, armies, variant="mission")
    for s, m in enumerate(("territories_18_two", "asia_africa", "asia_south_america")):
        state["players"][s]["mission"] = m
    assert rules.territory_count(state, 0) == 18 and not rules.mission_done(state, 0)
    state["armies"][mine[0]] = 2
    assert rules.mission_done(state, 0)
    state["owner"][mine[1]] = 1
    assert not rules.mission_done(state, 0)


def test_twenty_four_territories_mission_is_won_by_the_conquest_that_makes_24() -> None:
    """須佔領24個領土地區"""
    mine = C.territories[:23]
    owners = {t: (0 if t in mine else 1) for t in C.territories}
    src = next(t for t in mine if any(owners[n] == 1 for n in C.adjacent[t]))
    dst = next(n for n in C.adjacent[src] if owners[n] == 1)
    state = position(2, owners, {src: 4, dst: 1}, variant="mission", dice=[6, 6, 6, 1])
    state["players"][0]["mission"] = "territories_24"
    state["players"][1]["mission"] = "asia_africa"
    assert not rules.mission_done(state, 0)
    state, _ = act(state, 0, "attack", src, dst, "once")
    if state["phase"] == "occupy":
        state, _ = act(state, 0, "move", str(state["occupy"]["min"]))
    assert state["phase"] == "over" and state["winners"] == [0] and state["end_reason"] == "mission"


def test_missions_are_private_until_the_end() -> None:
    state = new(4, "mission", seed=8)
    for s in range(4):
        assert ENGINE.view(state, s)["you"]["mission"]["id"] == rules.effective_mission(state, s)
        others = ENGINE.view(state, (s + 1) % 4)
        assert all(p["mission"] is None for p in others["players"])
    assert "mission" not in str(ENGINE.view(state, None).get("you"))


@pytest.mark.parametrize("variant", ["classic", "neutral", "hq", "mission"])
def test_every_variant_plays_to_the_end(variant: str) -> None:
    seats = 2 if variant == "neutral" else 4
    for seed in range(2):
        state = new(seats, variant, random.Random(seed).choice(["quick", "classic"]), seed=seed)
        final, _ = play(ENGINE, state, {}, seed=seed, check=True)
        assert ENGINE.result(final) is not None
