"""极武三国: one test per rule sentence of the seed (``docs/rules/jiwu.md`` quotes them)."""

from __future__ import annotations

import pytest
from jiwu_testkit import act, empty, general_on, give, hand, new, put, started

from engines.base import EngineError
from engines.jiwu import ENGINE
from engines.jiwu import board as B
from engines.jiwu import rules as R
from engines.jiwu.data import board, card
from engines.jiwu.engine import _refresh


def options(state, seat, *path):
    return [o.value for o in ENGINE.step(state, seat, list(path)).options]


# ---------------------------------------------------------------- 一、起始设置

def test_open_areas_by_player_count() -> None:
    """4人全部开放，3人去掉一侧虚线区域，2人去掉双侧。"""
    sections = {n: {board().regions[r].section for r in B.regions(new(n))} for n in (2, 3, 4)}
    assert sections == {2: {"C"}, 3: {"C", "E"}, 4: {"C", "W", "E"}}
    assert not any(s.startswith("chengdu.") for s in new(3)["slots"])


def test_neutral_soldier_on_every_x_slot() -> None:
    """在每个具有X标记的格子上各放置一个灰色的中立士兵。"""
    state = new(4)
    b = board()
    expected = sum(r.neutral for r in b.regions.values()) + sum(p.neutral for p in b.paths.values())
    assert sum(1 for o in state["slots"].values() if o == [B.NEUTRAL, ""]) == expected
    assert state["slots"]["luoyang.0"] == [B.NEUTRAL, ""]


def test_each_player_gets_soldiers_spies_generals_and_start_deck() -> None:
    """40名士兵、5名斥候、3名武将；7勤恳农夫+3骁勇步兵，混洗后抽5张。"""
    state = new(3)
    for p in state["players"]:
        assert p["supply"] == 40 and p["spies"] == 5 and R.GENERAL_TOKENS == 3
        cards = sorted(R.cid(state, i) for i in p["hand"] + p["deck"])
        assert cards == ["bubing"] * 3 + ["nongfu"] * 7 and len(p["hand"]) == 5


def test_market_and_piles() -> None:
    """80张中央牌库翻开6张；15江南游商、15铁骑精锐、20残兵败将、20计策、10武技。"""
    state = R.new_game(2, 1, rules=1)
    assert len(state["market"]) == 6 and len(state["market_deck"]) == 74
    assert {k: len(v) for k, v in state["piles"].items()} == {"jiangnan": 15, "tieqi": 15, "canbing": 20}
    assert len(state["plan_deck"]) == 20 and len(state["arts"]) == 10


@pytest.mark.parametrize("seats, dealt, boxed", [(2, 40, 40), (3, 54, 26), (4, 66, 14)])
def test_the_central_deck_is_dealt_by_player_count(seats: int, dealt: int, boxed: int) -> None:
    """Rules 2: 40 / 54 / 66 of the 80 market cards are dealt (the row of 6 included); the rest
    stay in the box, named nowhere in the state, and the deal leaves the rest of set-up alone."""
    state = new(seats)
    assert R.rules_edition(state) == 2 and R.dealt(state) == dealt - 6
    assert len(state["market"]) == 6 and len(state["market_deck"]) == dealt - 6
    market = [i for i, c in state["cards"].items() if card(c).kind == "market"]
    assert len(market) == dealt and set(market) == set(state["market"]) | set(state["market_deck"])
    old = R.new_game(seats, 1, rules=1)
    assert len(old["market_deck"]) == 74 and R.dealt(old) == 74
    assert state["market"] == old["market"] and state["market_deck"] == old["market_deck"][:dealt - 6]
    assert len([c for c in old["cards"].values() if card(c).kind == "market"]) - len(market) == boxed
    assert state["players"] == old["players"] and state["rng"] == old["rng"]


def test_start_player_holds_the_seal_and_places_first() -> None:
    """起始玩家拿取玉玺；依次放置士兵在没有被其它玩家占据的黑色地区格内。 (Rules 1, kept for games
    stored before rules 2: turn order.)"""
    state = R.new_game(2, 1, rules=1)
    _refresh(state)
    assert state["first"] == 0 and ENGINE.pending(state)[0].seat == 0
    state, _ = act(state, 0, "start", "runan")
    assert "runan" not in R.start_regions(state, 1)
    with pytest.raises(EngineError):
        act(state, 1, "start", "runan")
    state, _ = act(state, 1, "start", "beihai")
    assert state["phase"] == "main" and state["turn"] == 0


@pytest.mark.parametrize("seats, order", [(2, [1, 0]), (3, [2, 0, 1]), (4, [3, 0, 1, 2])])
def test_the_last_seat_places_first_then_turn_order(seats: int, order: list[int]) -> None:
    """Rules 2: the last seat in turn order chooses its start region first, then the start player
    (who holds the 玉玺 and plays the first turn) and the others in turn order."""
    state = new(seats)
    assert state["first"] == 0 and R.placement_order(state) == order
    placed = []
    while state["phase"] == "setup":
        seat = ENGINE.pending(state)[0].seat
        with pytest.raises(EngineError):  # nobody else may place meanwhile
            act(state, (seat + 1) % seats, "start", R.start_regions(state, (seat + 1) % seats)[0])
        placed.append(seat)
        state, _ = act(state, seat, "start", R.start_regions(state, seat)[0])
    assert placed == order
    assert state["phase"] == "main" and state["turn"] == 0 and ENGINE.pending(state)[0].seat == 0


# ---------------------------------------------------------------- 二、游戏流程

def test_resources_add_up_and_clear_at_end_of_turn() -> None:
    """资源可加总，仅在本回合生效，回合结束时清空。"""
    state = empty()
    a, b = hand(state, 0, "bubing", "tieqi")
    state, _ = act(state, 0, "play", a)
    state, _ = act(state, 0, "play", b)
    assert state["players"][0]["power"] == 3
    state, _ = act(state, 0, "end")
    assert state["players"][0]["power"] == 0


def test_effects_resolve_in_printed_order() -> None:
    """按描述的顺序依次结算：大戟士先武力+2，再击杀。"""
    state = empty()
    put(state, "luoyang.2", 0)
    put(state, "luoyang.3", 1)
    (c,) = hand(state, 0, "daji")
    state, _ = act(state, 0, "play", c)
    assert state["players"][0]["power"] == 2 and state["phase"] == "effect"
    state, _ = act(state, 0, "luoyang.3")
    assert state["slots"]["luoyang.3"] is None


def test_zhimou_draws_one_plan_however_many_played_and_holds_at_most_three() -> None:
    """打出智谋牌抽1张计策（多张也仅1张）；计策上限3张。"""
    state = empty()
    a, b = hand(state, 0, "muliao", "muliao")
    state, _ = act(state, 0, "play", a)
    state, _ = act(state, 0, "play", b)
    assert len(state["players"][0]["plans"]) == 1
    state["players"][0]["plans"] += state["plan_deck"][:2]
    del state["plan_deck"][:2]
    state["players"][0]["plan_drawn"] = False
    assert not R.draw_plan(state, 0) and len(state["players"][0]["plans"]) == 3


def test_plan_resolves_at_once_and_deck_reshuffles_when_empty() -> None:
    """打出计策立即执行并弃置；计策牌堆为空时混洗弃牌形成新牌堆。"""
    state = empty()
    plan = next(i for i in state["plan_deck"] if R.cid(state, i) == "caochuan")
    state["plan_deck"].remove(plan)
    state["players"][0]["plans"].append(plan)
    _refresh(state)
    state, _ = act(state, 0, "plan", plan)
    assert state["players"][0]["power"] == 2 and plan in state["plan_discard"]
    state["plan_discard"] += state["plan_deck"]
    state["plan_deck"] = []
    assert R.draw_plan(state, 1) and len(state["plan_deck"]) == 19


def test_spies_ignore_engagement_one_per_region_five_each_and_come_home() -> None:
    """派遣斥候无需交战；同一地区每人最多一个；最多5个；召回放回供应堆。"""
    state = empty()
    assert "changsha" in R.spy_regions(state, 0)  # nobody anywhere near
    state["players"][0]["power"] = 0
    R.place_spy(state, 0, "changsha")
    assert "changsha" not in R.spy_regions(state, 0)
    for r in ("luoyang", "xuchang", "yecheng", "runan"):
        R.place_spy(state, 0, r)
    assert R.spy_regions(state, 0) == []
    R.recall(state, 0, "changsha")
    assert state["players"][0]["spies"] == 1


def test_link_needs_another_card_of_that_type() -> None:
    """联动【XX】：本回合打出过其他具有【XX】类型的卡牌才触发。"""
    state = empty()
    a, b = hand(state, 0, "xianzhen", "xianzhen")
    state, _ = act(state, 0, "play", a)
    assert state["players"][0]["power"] == 2
    state, _ = act(state, 0, "play", b)
    assert state["players"][0]["power"] == 2 + 3


def test_supplant_kills_then_replaces() -> None:
    """策反：先击杀被策反士兵，再将己方士兵放到原位置。"""
    state = empty()
    put(state, "luoyang.2", 0)
    put(state, "luoyang.3", 1)
    (c,) = hand(state, 0, "shuike")
    state, _ = act(state, 0, "play", c)
    state, _ = act(state, 0, "luoyang.3")
    assert state["slots"]["luoyang.3"] == [0, ""]
    assert state["players"][0]["kills"] == {"1": 1} and state["players"][0]["vp"]["kill"] == 1


def test_killed_cards_go_to_the_kill_zone_and_do_not_score() -> None:
    """击杀卡牌放入斩杀区，不再洗入牌库，不参与终局计分。"""
    state = empty()
    (c, rich) = hand(state, 0, "liumin", "daji")
    state, _ = act(state, 0, "play", c)
    state, _ = act(state, 0, rich)
    p = state["players"][0]
    assert rich in p["trashed"] and rich not in p["hand"] + p["deck"] + p["discard"]
    assert R.score_parts(state, 0)["deck"] == 0


def test_promoted_cards_leave_the_deck_and_score_their_cost() -> None:
    """晋升区卡牌不再混洗回牌堆；终局获得其费用的功勋。"""
    state = empty()
    (big, c) = hand(state, 0, "daji", "zhubu")
    state, _ = act(state, 0, "play", big)
    state, _ = act(state, 0, "play", c)
    state, _ = act(state, 0, big)
    assert big in state["players"][0]["promoted"]
    assert R.score_parts(state, 0)["promoted"] == card("daji").cost
    state, _ = act(state, 0, "end")
    assert big not in state["players"][0]["discard"] + state["players"][0]["deck"]


def test_general_enters_with_its_force_and_brings_its_art() -> None:
    """打出武将牌：放置武力值数量的士兵到牌上，武技牌置于弃牌堆；同名武将在场仅一名。"""
    state = empty()
    (g,) = hand(state, 0, "guanyu")
    state, _ = act(state, 0, "play", g)
    p = state["players"][0]
    assert p["generals"][g]["hp"] == 5 and p["supply"] == 35
    assert [R.cid(state, i) for i in p["discard"]] == ["qinglong"]
    (g2,) = hand(state, 1, "guanyu")
    assert not R.may_field_general(state, 1, g2)


def test_pay_one_might_to_deploy_three_to_kill() -> None:
    """支付1点武力派遣1名士兵；3点武力击杀1名士兵或斥候。"""
    state = empty()
    put(state, "luoyang.2", 0)
    put(state, "luoyang.3", 1)
    give(state, 0, power=4)
    state, _ = act(state, 0, "deploy", "luoyang.4")
    state, _ = act(state, 0, "kill", "luoyang.3")
    assert state["players"][0]["power"] == 0
    assert state["slots"]["luoyang.4"] == [0, ""] and state["slots"]["luoyang.3"] is None


@pytest.mark.parametrize("setup, engaged", [
    (lambda s: None, False),
    (lambda s: put(s, "luoyang.4", 0), True),                 # own soldier in the region
    (lambda s: R.place_spy(s, 0, "luoyang"), True),            # own spy at the region
    (lambda s: put(s, "p01.0", 0), True),                      # nearest path slot
    (lambda s: put(s, "p01.1", 0), False),                     # a path slot farther away
])
def test_engagement_rule(setup, engaged: bool) -> None:
    """交战准则：地区内有己方士兵、地区有己方斥候、或联通该地区最近的路径格上有己方士兵。"""
    state = empty()
    put(state, "luoyang.2", 1)
    put(state, "changsha.0", 0)  # seat 0 is on the board elsewhere
    setup(state)
    assert ("luoyang.2" in R.kill_targets(state, 0)) is engaged
    assert ("luoyang.3" in R.deployable(state, 0)) is engaged


def test_kill_scores_one_and_killed_spy_goes_home() -> None:
    """击杀士兵放入斩杀区并得1功勋；击杀斥候亦得1功勋，斥候返还供应堆。"""
    state = empty()
    put(state, "luoyang.2", 0)
    R.place_spy(state, 1, "luoyang")
    give(state, 0, power=3)
    state, _ = act(state, 0, "kill", "spy.luoyang.1")
    assert state["players"][1]["spies"] == 5 and state["players"][0]["vp"]["kill"] == 1


def test_buying_pays_silver_and_goes_to_discard() -> None:
    """支付银两从招募列获取新卡牌，置入弃牌区。"""
    state = empty()
    give(state, 0, gold=8)
    target = state["market"][0]
    state, _ = act(state, 0, "buy", target)
    p = state["players"][0]
    assert target in p["discard"] and p["gold"] == 8 - card(R.cid(state, target)).cost
    assert len(state["market"]) == 6 and len(state["market_deck"]) == R.dealt(state) - 1 == 33


def test_dominate_and_total_control() -> None:
    """称霸：士兵比其他方都多；完全称霸：所有格均有你的士兵且没有敌方斥候。"""
    state = empty()
    for s in ("xuchang.0", "xuchang.1"):
        put(state, s, 0)
    put(state, "xuchang.2", 1)
    assert B.dominator(state, "xuchang") == 0 and not B.total(state, "xuchang", 0)
    put(state, "xuchang.3", -1)
    assert B.dominator(state, "xuchang") == 0
    put(state, "guandu.0", 0)
    put(state, "guandu.1", 0)
    assert B.total(state, "guandu", 0)
    R.place_spy(state, 1, "guandu")
    assert not B.total(state, "guandu", 0)


def test_general_moves_over_own_or_empty_path_into_enemy_dominated_region() -> None:
    """武将沿仅有己方士兵或空置的路径移动一个地区；进入敌方称霸地区时击杀1名士兵并替换。"""
    state = empty()
    g = general_on(state, 0, "zhaoyun", "luoyang.0")
    for s in ("xuchang.0", "xuchang.1", "xuchang.2", "xuchang.3"):
        put(state, s, 1)
    put(state, "p04.0", 1)  # the road to Wancheng is blocked by an enemy soldier
    targets = R.move_targets(state, 0, g)
    assert "xuchang" in targets and "wancheng" not in targets
    state, _ = act(state, 0, "move", g, "xuchang")
    assert state["slots"]["xuchang.0"] == [0, g] and state["slots"]["luoyang.0"] is None
    assert state["players"][0]["vp"]["kill"] == 1
    assert R.move_targets(state, 0, g) == []  # once per turn


def test_general_meeting_enemy_general_duels_until_one_dies() -> None:
    """进入有敌方武将的地区触发决斗：双方暗中同时选择招式，翻开后掷骰，直至一方阵亡。"""
    state = empty()
    a = general_on(state, 0, "lvbu", "luoyang.0")
    b = general_on(state, 1, "liubei", "xuchang.0")
    state, _ = act(state, 0, "move", a, "xuchang")
    reqs = ENGINE.pending(state)
    assert state["phase"] == "duel" and {r.seat for r in reqs} == {0, 1}
    assert len({r.window for r in reqs}) == 1 and reqs[0].mode == "all"
    rounds = 0
    while state["phase"] == "duel":
        state, _ = act(state, 0, "atk")
        assert ENGINE.view(state, None)["duel"]["picked"] == [0]
        assert "duel_pick" not in ENGINE.view(state, 1)["you"] or ENGINE.view(state, 1)["you"]["duel_pick"] is None
        state, _ = act(state, 1, "par")
        rounds += 1
    alive = [g for g in (a, b) if any(g in p["generals"] for p in state["players"])]
    assert len(alive) <= 1 and rounds >= 1
    if alive == [a]:
        assert state["slots"]["xuchang.0"] == [0, a]


def test_duel_advantage_cycle_and_skills() -> None:
    """猛攻克制破招，破招克制招架，招架克制猛攻；优势方多掷骰，决斗技按招式加骰。"""
    lvbu = card("lvbu").general.skill  # +1 die on 猛攻
    zhaoyun = card("zhaoyun").general.skill  # blocks 1 on 招架
    assert R._dice(lvbu, "atk", "brk") == (3, 0)   # base 1, advantage +1, skill +1
    assert R._dice(lvbu, "atk", "par") == (1, 0)   # disadvantage -1, skill +1
    assert R._dice(zhaoyun, "par", "atk") == (2, 1)
    assert R._dice(zhaoyun, "brk", "par") == (2, 0)


def test_wounding_a_general_moves_soldiers_to_the_kill_zone() -> None:
    """武将受伤时，造成伤害的玩家从武将牌上拿取伤害值的士兵放到斩杀区；为0时阵亡，米宝返还。"""
    state = empty()
    g = general_on(state, 1, "zhangfei", "luoyang.2")
    put(state, "luoyang.3", 0)
    give(state, 0, power=12)
    for _ in range(4):
        state, _ = act(state, 0, "hit", g)
    assert g not in state["players"][1]["generals"] and state["slots"]["luoyang.2"] is None
    assert state["players"][0]["kills"]["1"] == 4 and g in state["players"][0]["trashed"]


def test_end_of_turn_city_merit_discard_and_draw_five() -> None:
    """回合结束：城池卡获得功勋；弃掉所有手牌和打出的牌，抽5张，不足时混洗弃牌堆。"""
    state = empty()
    for s in ("xuchang.0", "xuchang.1"):
        put(state, s, 0)
    R.update_cities(state)
    assert state["cities"]["xuchang"] == 0
    p = state["players"][0]
    p["discard"] += p["deck"][:3]
    del p["deck"][:3]
    state, _ = act(state, 0, "end")
    p = state["players"][0]
    assert p["vp"]["city"] == board().regions["xuchang"].city and len(p["hand"]) == 5
    assert len(p["hand"]) + len(p["deck"]) + len(p["discard"]) == 10


def test_turn_ends_by_itself_when_nothing_is_left_to_do() -> None:
    """当玩家没有可执行行动时，回合结束。"""
    state = empty()
    p = state["players"][0]
    p["discard"] += p["hand"][1:]
    p["hand"] = p["hand"][:1]
    only = p["hand"][0]
    state["market"] = [i for i in state["market"] if card(R.cid(state, i)).cost > 1]
    state["piles"]["jiangnan"] = []
    _refresh(state)
    state, _ = act(state, 0, "play", only)
    assert state["turn"] == 1


@pytest.mark.parametrize("rule", ["round", "turn"])
@pytest.mark.parametrize("how", ["soldiers", "market"])
def test_game_ends_when_soldiers_or_central_deck_run_out(how: str, rule: str) -> None:
    """当一名玩家派遣了所有士兵，或中央牌库没有剩余卡牌时，游戏结束。 The default (``round``, the
    published game's rule: the round is played out) ends it after the last seat of the round;
    ``turn`` ends it with the turn that met the condition."""
    state = empty()
    assert state["ending_rule"] == "round"  # the lobby default
    state["ending_rule"] = rule
    if how == "soldiers":
        put(state, "luoyang.2", 0)
        state["players"][0]["supply"] = 1
        give(state, 0, power=1)
        state, _ = act(state, 0, "deploy", "luoyang.3")
    else:
        state["market_deck"] = state["market_deck"][:1]
        give(state, 0, gold=8)
        state, _ = act(state, 0, "buy", next(i for i in state["market"]))
    state, _ = act(state, 0, "end")
    if rule == "round":
        assert ENGINE.result(state) is None and state["turn"] == 1
        state, _ = act(state, 1, "end")
    assert ENGINE.result(state) is not None and state["end_reason"] == how


def test_final_score_three_sources() -> None:
    """终局：称霸地区功勋（完全称霸+2）、晋升区费用、非初始卡牌费用和除以2。"""
    state = empty()
    for s in ("guandu.0", "guandu.1"):
        put(state, s, 0)
    p = state["players"][0]
    p["promoted"] += hand(state, 0, "cike")
    p["hand"].remove(p["promoted"][0])
    hand(state, 0, "daji", "gongnu")  # 6 + 2 -> 4
    parts = R.score_parts(state, 0)
    assert parts["region"] == board().regions["guandu"].vp and parts["total_end"] == 2
    assert parts["promoted"] == 4 and parts["deck"] == 4


def test_tie_goes_to_the_player_nearest_the_seal() -> None:
    """功勋最多者获胜；平手时按游戏顺序最靠近玉玺持有者的玩家获胜。"""
    state = empty(3)
    state["first"] = 2
    assert R.winners(state) == [2]
    state["first"] = 1
    assert R.winners(state) == [1]


def test_round_option_plays_the_round_out() -> None:
    """Lobby option ``ending=round``: the game ends after the last seat of the round has played."""
    state = ENGINE.new_state({"ending": "round"}, 2, 1)
    while state["phase"] == "setup":
        state, _ = act(state, state["turn"], "start", R.start_regions(state, state["turn"])[0])
    state["market_deck"] = []
    _refresh(state)
    state, _ = act(state, 0, "end")
    assert ENGINE.result(state) is None and state["turn"] == 1
    state, _ = act(state, 1, "end")
    assert ENGINE.result(state) is not None and state["end_reason"] == "market"
    with pytest.raises(EngineError):
        ENGINE.new_state({"ending": "never"}, 2, 1)


def test_play_all_plays_every_might_and_silver_card_links_last() -> None:
    """A shortcut, not a rule: "play all" plays the hand's cards that only give 武力 / 银两 (联动
    ones last, so they find their partner), leaves the others, and is offered from two such cards."""
    state = started()
    seat = state["turn"]
    p = state["players"][seat]
    p["hand"] = []
    taishou, farmer, cike, infantry, dasinong = hand(state, seat, "taishou", "nongfu", "cike", "bubing", "dasinong")
    assert ENGINE.step(state, seat, []).options[0].value == "all"
    state, events = act(state, seat, "all")
    p = state["players"][seat]
    assert p["hand"] == [cike]
    assert p["played"] == [farmer, infantry, dasinong, taishou]
    # 太守: +2 silver, 联动【统御】+1 with 大司农 played before it; 农夫 +1, 大司农 +3; 步兵 +1 might
    assert (p["gold"], p["power"]) == (1 + 3 + 2 + 1, 1)
    assert sum(e.msg.key == "jiwu.ev.play" for e in events) == 4
    # one plain card left is no shortcut
    state = started()
    seat = state["turn"]
    state["players"][seat]["hand"] = []
    hand(state, seat, "nongfu", "cike")
    assert "all" not in [o.value for o in ENGINE.step(state, seat, []).options]
    with pytest.raises(EngineError):
        ENGINE.apply(state, seat, ["all"])
