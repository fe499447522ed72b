"""Dying and rescue, death, rewards and penalties, and each win condition of the seed."""

from __future__ import annotations

from sgs_testkit import act, answer, asked, hand_of, hp, table

from engines.sanguosha import ENGINE


def test_dying_asks_everyone_at_once_and_the_first_in_turn_order_saves() -> None:
    state = table(5, "ZCFFN", turn=3, hp={4: 1}, hands={3: ["sha"], 0: ["tao"], 1: ["tao"], 2: ["tao"]})
    state, _ = act(state, 3, hand_of(state, 3, "sha"), 4)
    state = answer(state, "need_shan", 4, "pass")
    reqs = ENGINE.pending(state)
    assert [r.seat for r in reqs] == [3, 4, 0, 1, 2]  # from the current player, in turn order
    assert {r.kind for r in reqs} == {"peach"} and {r.mode for r in reqs} == {"all"}
    # 2 and 0 both answer with a 桃: 0 comes first from seat 3's turn, so 0's is spent
    for seat in (3, 4, 0, 1, 2):
        tokens = [hand_of(state, seat, "tao")] if seat in (0, 2) else ["pass"]
        state, _ = ENGINE.apply(state, seat, tokens)
    assert hp(state, 4) == 1 and state["players"][4]["alive"]
    assert not state["players"][0]["hand"] and state["players"][2]["hand"]


def test_at_minus_one_two_peaches_are_needed_and_the_window_reopens() -> None:
    # 闪电 (3 damage) on a player with 1 HP: HP -2, three 桃 needed, one window each
    state = table(4, "ZNFF", hp={1: 1}, top=[("jueying", "S", 5)], judge={1: ["shandian"]},
                  hands={2: ["tao"], 3: ["tao"], 0: ["tao"]})
    from engines.flow import Ctx
    from engines.sanguosha.rules import FLOW
    state["flow"]["stack"] = [{"k": "game", "cur": 1}, {"k": "turn", "seat": 1, "st": 2}]
    FLOW.run(Ctx(FLOW, state))
    state = _pass_windows(state)
    assert hp(state, 1) == -2
    rounds = 0
    while ENGINE.pending(state) and ENGINE.pending(state)[0].kind == "peach":
        rounds += 1
        ids = {r.id for r in ENGINE.pending(state)}
        for r in ENGINE.pending(state):
            tokens = [hand_of(state, r.seat, "tao")] if state["players"][r.seat]["hand"] else ["pass"]
            state, _ = ENGINE.apply(state, r.seat, tokens)
        assert not ids & {r.id for r in ENGINE.pending(state)}
    assert rounds == 3 and hp(state, 1) == 1


def _pass_windows(state):
    while ENGINE.pending(state) and ENGINE.pending(state)[0].kind == "nullify":
        req = ENGINE.pending(state)[0]
        state, _ = ENGINE.apply(state, req.seat, ["pass"])
    return state


def _kill(state, killer, victim):
    state, _ = act(state, killer, hand_of(state, killer, "sha"), victim)
    state = answer(state, "need_shan", victim, "pass")
    while ENGINE.pending(state) and ENGINE.pending(state)[0].kind == "peach":
        req = ENGINE.pending(state)[0]
        state, _ = ENGINE.apply(state, req.seat, ["pass"])
    return state


def test_death_reveals_the_role_and_killing_a_rebel_draws_three() -> None:
    state = table(5, "ZCFFN", turn=1, hp={2: 1}, hands={1: ["sha"], 2: ["tao"]}, equip={2: ["qinggang"]},
                  judge={2: ["lebu"]})
    assert ENGINE.view(state, None)["players"][2]["role"] is None
    state = _kill(state, 1, 2)  # seat 2 keeps its 桃 (passes): dies
    assert not state["players"][2]["alive"]
    assert ENGINE.view(state, None)["players"][2]["role"] == "rebel"
    assert len(state["players"][1]["hand"]) == 3
    victim = state["players"][2]
    assert not victim["hand"] and victim["equip"]["weapon"] is None and not victim["judge"]


def test_a_lord_who_kills_a_loyalist_discards_all_hand_and_equipment() -> None:
    state = table(5, "ZCFFN", hp={1: 1}, hands={0: ["sha", "tao", "shan"]}, equip={0: ["zhuge"]})
    state = _kill(state, 0, 1)
    assert not state["players"][1]["alive"]
    assert not state["players"][0]["hand"] and state["players"][0]["equip"]["weapon"] is None


def test_lord_and_loyalists_win_when_all_rebels_and_the_renegade_are_dead() -> None:
    state = table(5, "ZCFFN", hp={2: 1}, hands={0: ["sha"]}, equip={0: ["zhuge"]})
    for seat in (3, 4):
        state["players"][seat]["alive"] = False
    state = _kill(state, 0, 2)
    result = ENGINE.result(state)
    assert result is not None and sorted(result.winners) == [0, 1]
    assert ENGINE.pending(state) == []
    assert all(p["role"] for p in ENGINE.view(state, None)["players"])  # everything revealed


def test_rebels_win_when_the_lord_dies_unless_only_the_renegade_is_left() -> None:
    state = table(5, "ZCFFN", turn=2, hp={0: 1}, hands={2: ["sha"]}, equip={2: ["qilin"]})
    state = _kill(state, 2, 0)
    assert sorted(ENGINE.result(state).winners) == [2, 3]
    state = table(5, "ZCFFN", turn=4, hp={0: 1}, hands={4: ["sha"]})
    for seat in (1, 2, 3):
        state["players"][seat]["alive"] = False
    state = _kill(state, 4, 0)
    assert ENGINE.result(state).winners == [4]
    # the renegade kills the lord while a loyalist lives: the rebels (all dead) still win
    state = table(5, "ZCFFN", turn=4, hp={0: 1}, hands={4: ["sha"]})
    for seat in (2, 3):
        state["players"][seat]["alive"] = False
    state = _kill(state, 4, 0)
    assert sorted(ENGINE.result(state).winners) == [2, 3]


def test_the_turn_players_death_ends_the_turn_and_play_passes_on() -> None:
    state = table(4, "ZNFF", turn=2, hp={2: 1}, hands={2: ["juedou", "tao"], 0: ["sha"]})
    state, _ = act(state, 2, hand_of(state, 2, "juedou"), 0)
    state = _pass_windows(state)
    state = answer(state, "need_sha", 0, hand_of(state, 0, "sha"))
    state = answer(state, "need_sha", 2, "pass")
    while ENGINE.pending(state)[0].kind == "peach":
        req = ENGINE.pending(state)[0]
        state, _ = ENGINE.apply(state, req.seat, ["pass"])
    assert not state["players"][2]["alive"] and state["turn"] == 3
    assert asked(state) == [(3, "play")] and not state["proc"]
