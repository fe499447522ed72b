"""Hegemony mode (国战) rules, each with an exact table (docs/rules/sanguosha.md, 国战)."""

from __future__ import annotations

import random

import pytest

from engines.base import EngineError
from engines.flow import Flow
from engines.sanguosha import ENGINE, hegemony
from engines.sanguosha import rules as R
from engines.sanguosha.heroes import hero
from tests.engines.sanguosha import hg_testkit as K
from tests.engines.sanguosha.sgs_testkit import count_cards

WEI = ("hg_caocao", "hg_xuchu")          # 2 + 2 = 4 HP, a 珠联璧合 pair
WEI2 = ("hg_zhangliao", "hg_xiahoudun")  # 4 HP
WEI3 = ("hg_guojia", "hg_simayi")        # 1.5 + 1.5 = 3 HP
SHU = ("hg_guanyu", "hg_zhangfei")       # 2.5 + 2 = 4 HP, a half left over
WU = ("hg_ganning", "hg_lvmeng")
QUN = ("hg_lvbu", "hg_diaochan")         # 2.5 + 1.5 = 4 HP, a pair


def test_hp_is_the_two_halves_added_and_a_leftover_half_is_kept() -> None:
    state = K.table([WEI, SHU, WU])
    assert [p["max"] for p in state["players"]] == [4, 4, 4]
    assert hegemony.max_hp("hg_guanyu", "hg_zhangfei") == (4, True)
    assert hegemony.max_hp("hg_guojia", "hg_simayi") == (3, False)


def test_hidden_heroes_give_no_skill_gender_or_kingdom() -> None:
    state = K.table([WEI, SHU, WU])
    p = state["players"][0]
    assert p["skills"] == [] and p["gender"] is None and R.kingdom(state, 0) is None
    assert not R.same_kingdom(state, 0, 0)


def test_first_reveal_settles_the_kingdom_and_gives_xianqu_once() -> None:
    state = K.table([WEI, WEI2, SHU, WU], shown={0: (True, False), 1: (False, True)})
    assert R.kingdom(state, 0) == "wei" and R.kingdom(state, 1) == "wei"
    assert R.same_kingdom(state, 0, 1) and not R.same_kingdom(state, 0, 2)
    assert state["players"][0]["marks"]["xianqu"] == 1 and state["players"][1]["marks"]["xianqu"] == 0


def test_gender_follows_the_main_hero_once_both_are_shown() -> None:
    state = K.table([("hg_zhenji", "hg_caocao"), SHU, WU], shown={0: (False, True)})
    assert state["players"][0]["gender"] == "m"
    ctx = K.Ctx(R.flow_of(state), state) if hasattr(K, "Ctx") else None
    del ctx
    state = K.table([("hg_zhenji", "hg_caocao"), SHU, WU], shown={0: (True, True)})
    assert state["players"][0]["gender"] == "f"


def test_a_kingdom_beyond_half_the_table_makes_careerists() -> None:
    # 5 seats: half is 2, so the third wei seat to reveal is a 野心家, a kingdom of its own
    state = K.table([WEI, WEI2, WEI3, SHU, WU], shown={0: (True, False), 1: (True, False), 2: (True, False)})
    assert [R.kingdom(state, i) for i in range(3)] == ["wei", "wei", "ye2"]
    assert not R.same_kingdom(state, 0, 2)
    assert ENGINE.view(state, None)["players"][2]["role"] == "ye"


def test_the_dead_count_towards_the_half() -> None:
    state = K.table([WEI, WEI2, WEI3, SHU, WU], shown={0: (True, False), 1: (True, False)})
    state["players"][1]["alive"] = False
    ctx = K.Ctx(R.flow_of(state), state) if hasattr(K, "Ctx") else None
    del ctx
    from engines.flow import Ctx

    R.reveal(Ctx(R.flow_of(state), state), 2, 0)
    assert R.kingdom(state, 2) == "ye2"


def test_start_phase_asks_to_reveal_and_both_can_be_shown() -> None:
    state = K.table([WEI, SHU, WU], turn=0, phase="turn")
    assert K.asked(state) == [(0, "hg_reveal")]
    opts = [o.value for o in ENGINE.step(state, 0, []).options]
    assert opts == ["0", "1", "0+1", "pass"]
    state = K.act(state, 0, ["0+1"])
    p = state["players"][0]
    assert all(h["shown"] for h in p["heroes"]) and set(p["skills"]) == {"jianxiong", "luoyi"}
    # first reveal: 先驱; both shown and 曹操–许褚 are partners: 珠联璧合
    assert p["marks"] == {"yinyang": 0, "xianqu": 1, "zhulian": 1}


def test_a_leftover_half_gives_yinyang_when_both_are_first_shown() -> None:
    state = K.table([WU, SHU, WEI], turn=1, phase="turn")
    state = K.act(state, 1, ["0"])
    assert state["players"][1]["marks"]["yinyang"] == 0
    from engines.flow import Ctx

    R.reveal(Ctx(R.flow_of(state), state), 1, 1)
    K.run(state)
    assert state["players"][1]["marks"]["yinyang"] == 1


def test_a_hero_with_a_locked_skill_may_be_shown_in_the_play_phase() -> None:
    state = K.table([("hg_machao", "hg_zhaoyun"), WEI, WU])  # 马术 is locked
    opts = [o.value for o in ENGINE.step(state, 0, []).options]
    assert "hg_reveal" in opts
    assert [o.value for o in ENGINE.step(state, 0, ["hg_reveal"]).options] == ["0"]
    state = K.act(state, 0, ["hg_reveal", "0"])
    assert state["players"][0]["heroes"][0]["shown"] and not state["players"][0]["heroes"][1]["shown"]
    plain = K.table([WEI, SHU, WU])  # 奸雄 and 裸衣 are not locked
    assert "hg_reveal" not in [o.value for o in ENGINE.step(plain, 0, []).options]


_kill = K.kill


def test_a_hidden_victim_is_shown_and_another_kingdom_killer_draws_its_size() -> None:
    state = K.table([WEI, WEI2, SHU, WU], shown={0: (True, False), 2: (True, False)})
    before = len(state["players"][2]["hand"])
    _kill(state, 1, 2)  # seat 1 (wei, hidden) dies to shu: wei has seat 0 alive + the victim
    assert all(h["shown"] for h in state["players"][1]["heroes"]) and R.kingdom(state, 1) == "wei"
    assert len(state["players"][2]["hand"]) == before + 2


def test_killing_your_own_kingdom_discards_hand_and_equipment() -> None:
    state = K.table([WEI, WEI2, SHU, WU], shown={0: (True, False), 1: (True, False)},
                    hands={0: ["sha", "shan"]}, equip={0: ["zhuge"]})
    _kill(state, 1, 0)
    p = state["players"][0]
    assert p["hand"] == [] and not any(p["equip"].values())


def test_a_careerist_killer_draws_three_and_no_kingdom_gets_nothing() -> None:
    state = K.table([WEI, WEI2, WEI3, SHU, WU], shown={0: (True, False), 1: (True, False), 2: (True, False)})
    _kill(state, 3, 2)
    assert len(state["players"][2]["hand"]) == 3
    state = K.table([WEI, SHU, WU, QUN], shown={1: (True, False)})
    _kill(state, 1, 0)  # seat 0 has no kingdom
    assert state["players"][0]["hand"] == []


def test_one_kingdom_alone_wins_and_a_hidden_seat_cannot() -> None:
    state = K.table([WEI, WEI2, SHU, WU], shown={0: (True, False), 2: (True, False), 3: (True, False)})
    _kill(state, 2, 0)
    _kill(state, 3, 0)
    assert state["winners"] is None  # seat 1 alive and hidden: no kingdom yet
    state["flow"]["stack"] = [{"k": "game", "cur": 1}, {"k": "turn", "seat": 1, "st": "start"}]
    K.run(state)
    state = K.act(state, 1, ["0"])  # showing a hero settles wei: one kingdom alone
    assert state["winners"] == [0, 1]
    assert ENGINE.result(state).winners == [0, 1]


def test_at_three_seats_a_second_seat_of_a_kingdom_is_a_careerist() -> None:
    state = K.table([WEI, WEI2, SHU], shown={0: (True, False), 1: (True, False)})
    assert R.kingdom(state, 1) == "ye1"


def test_a_careerist_wins_alone() -> None:
    state = K.table([WEI, WEI2, WEI3, SHU, WU], shown={i: (True, False) for i in range(5)})
    for v in (0, 1, 3):
        _kill(state, v, 2)
    assert state["winners"] is None
    _kill(state, 4, 2)
    assert state["winners"] == [2]
    assert ENGINE.result(state).summary.key == "sanguosha.result.ye"


def test_markers_in_the_play_phase() -> None:
    state = K.table([WEI, SHU, WU], shown={0: (True, True)})
    p = state["players"][0]
    assert p["marks"]["zhulian"] == 1 and p["marks"]["xianqu"] == 1
    opts = [o.value for o in ENGINE.step(state, 0, []).options]
    assert {"mark_zhulian", "mark_xianqu"} <= set(opts) and "mark_yinyang" not in opts
    state = K.act(state, 0, ["mark_zhulian"])
    assert len(state["players"][0]["hand"]) == 2 and state["players"][0]["marks"]["zhulian"] == 0
    # 先驱: refill to four and look at one hidden hero of another seat (seen by the user alone)
    assert [o.value for o in ENGINE.step(state, 0, ["mark_xianqu"]).options] == ["1", "2"]
    state = K.act(state, 0, ["mark_xianqu", "2", "1"])
    assert len(state["players"][0]["hand"]) == 4
    assert ENGINE.view(state, 0)["you"]["peeks"] == [{"seat": 2, "index": 1, "hero": "hg_lvmeng"}]
    for seat in (None, 1):
        assert "hg_lvmeng" not in str(ENGINE.view(state, seat))


def test_yinyang_draws_one_or_raises_the_hand_limit_by_two() -> None:
    state = K.table([SHU, WEI, WU], shown={0: (True, True)}, hands={0: ["shan"] * 6}, hp={0: 2})
    assert state["players"][0]["marks"]["yinyang"] == 1
    draw = K.act(state, 0, ["mark_yinyang"])
    assert len(draw["players"][0]["hand"]) == 7
    end = K.act(state, 0, ["end"])
    assert K.asked(end) == [(0, "skill")]
    kept = K.act(end, 0, ["yes"])
    assert K.asked(kept)[0] == (0, "discard") and Flow.ask_of(kept, 0).info["n"] == 2


def test_a_stacked_seat_skips_its_next_turn_and_comes_back_flat() -> None:
    state = K.table([WEI, SHU, WU], turn=0, phase="turn")
    state = K.act(state, 0, ["pass"])
    state["players"][1]["stacked"] = True
    state = K.act(state, 0, ["end"]) if K.asked(state) == [(0, "play")] else state
    while K.asked(state) and K.asked(state)[0][0] == 0:
        seat, kind = K.asked(state)[0]
        state = K.act(state, 0, ENGINE.ai_action(state, 0, random.Random(1), "normal"))
    assert state["turn"] == 2 and not state["players"][1]["stacked"]


def test_aozhan_starts_the_turn_after_and_tao_only_plays_as_sha_or_shan() -> None:
    state = K.table([WEI, SHU, WU], shown={i: (True, False) for i in range(3)}, turn=0, phase="turn",
                    hands={0: ["tao", "tao"]}, hp={0: 2})
    assert state["hg"]["aozhan"] == 1  # three seats under 7 players, kingdoms all different
    state["hg"]["aozhan"] = 1
    state["flow"]["stack"] = [{"k": "game", "cur": 0}, {"k": "turn", "seat": 0, "st": "start"}]
    K.run(state)
    assert state["hg"]["aozhan"] == 2 and ENGINE.view(state, None)["aozhan"] == 2
    while K.asked(state) != [(0, "play")]:
        state = K.act(state, 0, ENGINE.ai_action(state, 0, random.Random(1), "normal"))
    opts = [o.value for o in ENGINE.step(state, 0, []).options]
    taos = [c for c in state["players"][0]["hand"] if R.card(c).name == "tao"]
    assert taos and not set(taos) & set(opts) and "aozhan_sha" in opts


def test_aozhan_waits_for_every_kingdom_to_be_known_and_never_switches_off() -> None:
    state = K.table([WEI, SHU, WU], shown={0: (True, False), 1: (True, False)}, turn=0, phase="turn")
    assert state["hg"]["aozhan"] == 0
    state = K.table([WEI, WEI2, SHU, WU], shown={i: (True, False) for i in range(4)}, turn=0, phase="turn")
    assert state["hg"]["aozhan"] == 0  # two wei seats
    _kill(state, 1, 2)
    state["flow"]["stack"] = [{"k": "game", "cur": 2}, {"k": "turn", "seat": 2, "st": "start"}]
    K.run(state)
    assert state["hg"]["aozhan"] == 1


def test_the_next_deputy_rule_shows_each_seat_its_neighbours_deputy_only() -> None:
    state = ENGINE.new_state({"mode": "hegemony", "peek_next": "on"}, 3, 5)
    rng = random.Random(2)
    for seat in range(3):
        state, _ = ENGINE.apply(state, seat, ENGINE.ai_action(state, seat, rng, "normal"))
    for seat in range(3):
        nxt = (seat + 1) % 3
        deputy = state["players"][nxt]["heroes"][1]["id"]
        assert ENGINE.view(state, seat)["you"]["peeks"] == [{"seat": nxt, "index": 1, "hero": deputy}]


def test_hero_choice_two_of_one_kingdom_main_first() -> None:
    state = ENGINE.new_state({"mode": "hegemony"}, 3, 11)
    offer = state["hg"]["deal"]["0"]
    assert len(offer) == 7 and len({h for o in state["hg"]["deal"].values() for h in o}) == 21
    mains = [o.value for o in ENGINE.step(state, 0, []).options]
    main = offer[int(mains[0])]
    deputies = [o.value for o in ENGINE.step(state, 0, [mains[0]]).options]
    assert deputies and all(hero(offer[int(d)]).kingdom == hero(main).kingdom for d in deputies)
    other = next((str(i) for i, h in enumerate(offer) if hero(h).kingdom != hero(main).kingdom), None)
    if other is not None:
        with pytest.raises(EngineError):
            ENGINE.apply(state, 0, [mains[0], other])
    state, _ = ENGINE.apply(state, 0, [mains[0], deputies[0]])
    # nobody's choice shows before everyone has chosen, nor after
    assert all(h is None for h in ENGINE.view(state, None)["players"][0]["heroes"] or [None])


def test_the_start_seat_comes_from_the_option_else_the_seed() -> None:
    assert ENGINE.new_state({"mode": "hegemony", "first": "2"}, 3, 1)["hg"]["start"] == 2
    starts = {ENGINE.new_state({"mode": "hegemony"}, 3, s)["hg"]["start"] for s in range(20)}
    assert starts == {0, 1, 2}


def test_identity_mode_is_still_2_to_10_and_hegemony_3_to_12() -> None:
    assert ENGINE.seat_range({"mode": "identity"}) == (2, 10)
    assert ENGINE.seat_range({"mode": "hegemony"}) == (3, 12)
    with pytest.raises(EngineError):
        ENGINE.new_state({"mode": "hegemony"}, 2, 1)


@pytest.mark.parametrize("seed", range(6))
def test_seeded_ai_games_end_with_every_card_accounted_for(seed: int) -> None:
    state = ENGINE.new_state({"mode": "hegemony"}, 3, seed)
    rng = random.Random(seed)
    total = 108  # the 国战 deck
    for _ in range(5000):
        if ENGINE.result(state) is not None:
            break
        req = ENGINE.pending(state)[0]
        state, _ = ENGINE.apply(state, req.seat, ENGINE.ai_action(state, req.seat, rng, "normal", req), req)
        seen = count_cards(state)
        assert len(seen) == total and set(seen.values()) == {1}
    assert ENGINE.result(state) is not None


def test_zhulian_is_a_peach_in_a_dying_window_and_when_wounded() -> None:
    state = K.table([WEI, SHU, WU], shown={0: (True, True)}, hp={0: 2})
    assert state["players"][0]["marks"]["zhulian"] == 1
    opts = [o.value for o in ENGINE.step(state, 0, []).options]
    assert "mark_zhulian_tao" in opts
    healed = K.act(state, 0, ["mark_zhulian_tao"])
    assert healed["players"][0]["hp"] == 3 and healed["players"][0]["marks"]["zhulian"] == 0
    full = K.table([WEI, SHU, WU], shown={0: (True, True)})
    assert "mark_zhulian_tao" not in [o.value for o in ENGINE.step(full, 0, []).options]
    # seat 1 dying in seat 0's turn: the marker saves it
    from engines.flow import Ctx

    state["players"][1]["hp"] = 0
    ctx = Ctx(R.flow_of(state), state)
    ctx.push("dying", seat=1, src=None, st="start")
    R.flow_of(state).run(ctx)
    assert (0, "peach") in K.asked(state)
    assert "mark_zhulian_tao" in [o.value for o in ENGINE.step(state, 0, []).options]
    saved = K.act(state, 0, ["mark_zhulian_tao"])
    for seat, _ in K.asked(saved):
        if K.asked(saved) and K.asked(saved)[0][1] == "peach":
            saved = K.act(saved, seat, ["pass"])
    assert saved["players"][1]["hp"] == 1 and saved["players"][1]["alive"]


def test_the_last_seat_standing_is_shown_and_wins() -> None:
    state = K.table([WEI, SHU, WU], shown={0: (True, False), 1: (True, False)})
    _kill(state, 0, 1)
    _kill(state, 1, 2)  # seat 2 is hidden and alone
    assert all(h["shown"] for h in state["players"][2]["heroes"]) and state["winners"] == [2]


def test_in_aozhan_zhulian_is_no_peach_either() -> None:
    state = K.table([WEI, SHU, WU], shown={0: (True, True)}, hp={0: 2})
    state["hg"]["aozhan"] = 2
    assert "mark_zhulian_tao" not in [o.value for o in ENGINE.step(state, 0, []).options]


def test_standing_answers_for_reveals() -> None:
    from engines.base import Request
    from engines.sanguosha import standing

    state = K.table([WEI, SHU, WU], turn=0, phase="turn")
    view = ENGINE.view(state, 0)
    names = [s.name for s in standing.specs(view)]
    assert "reveal" in names and "reveal_start" in names
    assert "skill.jianxiong" in names and "skill.luoyi" in names  # hidden heroes' optional skills
    req = ENGINE.pending(state)[0]
    assert standing.answer(view, req, {"reveal_start": "keep"}) == ["pass"]
    assert standing.answer(view, req, {"reveal_start": "ask"}) is None
    # a hidden 许褚's 裸衣 at the draw phase: "reveal: no" declines, "ask" asks, "yes" follows the skill
    ask = {"kind": "skill", "info": {"skill": "luoyi"}}
    view["you"]["ask"] = ask
    skill_req = Request("r", 0, "skill", req.prompt, default=("pass",))
    assert standing.answer(view, skill_req, {"reveal": "no", "skill.luoyi": "yes"}) == ["pass"]
    assert standing.answer(view, skill_req, {"reveal": "ask", "skill.luoyi": "yes"}) is None
    assert standing.answer(view, skill_req, {"reveal": "yes", "skill.luoyi": "yes"}) == ["yes"]
    identity_view = {"you": {"seat": 0, "hand": [], "ask": ask}, "players": [{"seat": 0, "skills": ["luoyi"]}]}
    assert "reveal" not in [s.name for s in standing.specs(identity_view)]
    assert standing.answer(identity_view, skill_req, {"skill.luoyi": "yes"}) == ["yes"]


def test_every_locked_skill_named_is_a_hegemony_heros() -> None:
    from engines.sanguosha import hg_heroes

    skills = {k for h in hg_heroes.every_hero().values() for k in h.skills}
    assert hegemony.LOCKED - {"kongcheng", "qianxun", "weimu", "duanchang"} <= skills
    assert len(hegemony.LOCKED & skills) >= 15


def test_huoshui_keeps_the_others_hidden_in_its_owners_turn() -> None:
    # 邹氏 shown, her turn: another seat may not show a locked-skill hero in the play phase
    state = K.table([("hg_zoushi", "hg_lvbu"), ("hg_machao", "hg_zhaoyun"), WEI], shown={0: (True, False)})
    assert not hegemony._play_reveal_can(state, 1)
    state["turn"] = 1
    assert hegemony._play_reveal_can(state, 1)


def test_in_aozhan_the_standing_peach_answer_stays_quiet() -> None:
    from engines.base import Request
    from engines.sanguosha import standing

    state = K.table([WEI, SHU, WU], shown={i: (True, False) for i in range(3)}, hands={1: ["tao"]}, hp={1: 0})
    view = ENGINE.view(state, 1)
    view["you"]["ask"] = {"kind": "peach", "info": {"dying": 1, "need": 1}}
    req = Request("r", 1, "peach", ENGINE.pending(state)[0].prompt, default=("pass",))
    assert standing.answer(view, req, {"tao": "yes"}) == [view["you"]["hand"][0]["id"]]
    view["aozhan"] = 2
    assert standing.answer(view, req, {"tao": "yes"}) is None
