"""One test per rule sentence of the seed (the sentence is in each docstring), modes 1-4."""

from __future__ import annotations

import json
import random

import pytest
from pentactic_helpers import act, ai_move, new, occupied, play_out, uniform

from engines.base import EngineError
from engines.pentactic import ENGINE, rules
from engines.pentactic.board import geo, legal_disc_mask
from engines.pentactic.geometry import geometry
from engines.pentactic.shapes import PIECES


def _filler(cells: list[tuple[int, int]]) -> dict:
    """A fake placed piece covering arbitrary squares, to build test positions quickly."""
    return {"piece": "I", "seat": 0, "orientation": 0, "anchor": "a1", "cells": [list(c) for c in cells]}


def _fill_except(width: int, height: int, free: set[tuple[int, int]]) -> dict:
    return _filler([(x, y) for y in range(height) for x in range(width) if (x, y) not in free])


X_AT_CENTRE = {(3, 2), (2, 3), (3, 3), (4, 3), (3, 4)}


def _keys(events: list) -> list[str]:
    return [e.msg.key for e in events]


# ----- mode 1 -------------------------------------------------------------------------------

def test_duel_two_rounds_with_swapped_roles() -> None:
    """遊戲將進行2局。首局由其中1位玩家負責進攻,另1位玩家負責防守。進入次局時,雙方玩家則進行攻守交換"""
    state = new("1")
    view = ENGINE.view(state, None)
    assert [p["role"] for p in view["players"]] == ["attacker", "defender"]
    final, _ = play_out(state, random.Random(3))
    rounds = final["round_results"]
    assert [(r["round"], r["attacker"], r["defender"]) for r in rounds] == [(1, 0, 1), (2, 1, 0)]


@pytest.mark.parametrize("board", ["8x8", "9x7", "11x6"])
def test_duel_board_is_chosen_once_and_kept_for_round_two(board: str) -> None:
    """雙方玩家共同決定欲使用的棋盤範圍棋格數(8ⅹ8,9ⅹ7,11ⅹ6其中之一),並沿用至次局"""
    state = new("1", board)
    size = (state["width"], state["height"])
    rng = random.Random(6)
    while state["round"] == 1:
        seat = ENGINE.pending(state)[0].seat
        state, _ = ENGINE.apply(state, seat, uniform(state, seat, rng))
    view = ENGINE.view(state, None)
    assert (view["board"], view["width"], view["height"]) == (board, *size)
    # 各局進行時,先將遊戲圖板置於桌面中央: round 2 starts on the same board, cleared.
    assert view["boards"] == [{"owner": 1, "discs": [], "pieces": []}]
    final, _ = play_out(state, rng)
    assert (final["board"], final["width"], final["height"]) == (board, *size)


def test_duel_attacker_takes_twelve_pieces_defender_eight_discs() -> None:
    """攻方玩家拿取12個五方連塊,守方玩家則拿取8個圓形標記,分別置於其面前桌上"""
    state = new("1")
    rng = random.Random(2)
    for rnd, (a, d) in ((1, (0, 1)), (2, (1, 0))):
        while state["round"] != rnd or state["phase"] != "discard":
            seat = ENGINE.pending(state)[0].seat
            state, _ = ENGINE.apply(state, seat, uniform(state, seat, rng))
        players = ENGINE.view(state, None)["players"]
        assert players[a]["pieces_left"] == list(PIECES) and players[a]["discs_left"] == 0
        assert players[d]["pieces_left"] == [] and players[d]["discs_left"] == 8
        assert (players[a]["role"], players[d]["role"]) == ("attacker", "defender")


def test_duel_each_turn_is_defence_then_attack() -> None:
    """遊戲將進行多輪,各輪進行時包括2個階段:(1)守方行動 … (2)攻方行動"""
    state, _ = act(new("1", "11x6"), ["discard", "X"])
    rng = random.Random(9)
    kinds = []
    while state["round"] == 1:
        (req,) = ENGINE.pending(state)
        kinds.append((req.seat, req.kind))
        state, _ = ENGINE.apply(state, req.seat, uniform(state, req.seat, rng))
    # 11x6 holds six discs: six (defence, attack) pairs, then the attacker alone (forced passes).
    assert kinds[:12] == [(1, "defend"), (0, "turn")] * 6
    assert set(kinds[12:]) <= {(0, "turn")}


def test_duel_discard_is_part_of_the_setup_and_not_skippable() -> None:
    """守方玩家可從攻方玩家面前桌上,任選1個五方連塊,將其棄置 — docs/rules/pentactic.md, Decision:
    「可」 describes the step (as in 玩家可拿起1個圓形標記), it is not an option to skip it."""
    state = new("1")
    assert [o.value for o in ENGINE.step(state, 1, []).options] == ["discard"]
    for bad in (["keep"], ["pass"], ["disc", "a1"], ["place", "F", "0", "a1"], ["discard"]):
        with pytest.raises(EngineError):
            ENGINE.apply(state, 1, bad)
    assert [o.value for o in ENGINE.step(state, 1, ["discard"]).options] == list(PIECES)


def test_defender_discards_one_of_the_attackers_pieces() -> None:
    """守方玩家可從攻方玩家面前桌上,任選1個五方連塊,將其棄置(該五方連塊於此局將無法使用)"""
    state = new("1")
    (req,) = ENGINE.pending(state)
    assert (req.seat, req.kind) == (1, "discard")
    step = ENGINE.step(state, 1, ["discard"])
    assert [o.value for o in step.options] == list(PIECES)
    after, _ = act(state, ["discard", "X"])
    assert "X" not in after["players"][0]["pieces"] and len(after["players"][0]["pieces"]) == 11
    assert after["players"][0]["discarded"] == ["X"]
    with pytest.raises(EngineError):
        ENGINE.step(after, 0, ["place", "X"])


def test_round_two_discard_is_not_the_same_shape() -> None:
    """次局進行時,守方玩家不能丟棄與前局相同型態的五方連塊"""
    state, _ = act(new("1"), ["discard", "P"])
    rng = random.Random(5)
    while state["round"] == 1:
        seat = ENGINE.pending(state)[0].seat
        state, _ = ENGINE.apply(state, seat, uniform(state, seat, rng))
    assert state["phase"] == "discard" and ENGINE.pending(state)[0].seat == 0
    options = [o.value for o in ENGINE.step(state, 0, ["discard"]).options]
    assert "P" not in options and len(options) == 11
    before = dict(state)
    with pytest.raises(EngineError):
        ENGINE.apply(state, 0, ["discard", "P"])
    assert state == before
    after, _ = ENGINE.apply(state, 0, ["discard", "L"])
    assert after["players"][1]["discarded"] == ["L"]


def test_disc_must_be_alone_in_its_row_and_column() -> None:
    """玩家在放置圓形標記時,棋盤上同一縱格及同一列格皆只能出現1個圓形標記"""
    state, _ = act(new("1"), ["discard", "X"])
    state, _ = act(state, ["disc", "c5"])
    state, _ = act(state, ["place", "I", "0", "a1"])  # I lying along row 1
    cells = {o.value for o in ENGINE.step(state, 1, ["disc"]).options}
    assert not any(c[0] == "c" or c[1:] == "5" for c in cells), "row 5 / column c must be closed"
    assert not any(c[1:] == "1" and c[0] in "abcde" for c in cells), "covered squares are not empty"
    assert "d6" in cells
    for bad in ("c2", "h5", "a1"):
        with pytest.raises(EngineError):
            ENGINE.apply(state, 1, ["disc", bad])


def test_defender_passes_only_when_no_disc_can_be_placed() -> None:
    """若玩家無法放置圓形標記,可喊出「PASS」跳過"""
    state = new("1", "11x6")
    rng = random.Random(11)
    passes = 0
    most_discs = 0
    while state["round"] == 1:
        seat = ENGINE.pending(state)[0].seat
        if state["phase"] == "defend":
            # Asked only when a legal square exists; never offered a pass.
            assert legal_disc_mask(geo(state), state["boards"][0])
            assert [o.value for o in ENGINE.step(state, seat, []).options] == ["disc"]
        state, events = ENGINE.apply(state, seat, uniform(state, seat, rng))
        if state["round"] == 1:
            most_discs = max(most_discs, len(state["boards"][0]["discs"]))
            for e in events:
                if e.msg.key == "pentactic.ev.pass_no_square":
                    passes += 1
                    assert state["players"][1]["discs"] > 0
                    assert not legal_disc_mask(geo(state), state["boards"][0])
    # 11x6 has six rows, so at most six of the eight discs can ever be placed; then PASS.
    assert most_discs == 6 and passes >= 1


def test_pieces_cannot_cover_pieces_or_discs() -> None:
    """玩家在放置五方連塊時,不能覆蓋棋盤上已放置的五方連塊或圓形標記"""
    state, _ = act(new("1"), ["discard", "X"])
    state, _ = act(state, ["disc", "b1"])
    with pytest.raises(EngineError):
        ENGINE.apply(state, 0, ["place", "I", "0", "a1"])  # would cover the disc on b1
    state, _ = act(state, ["place", "I", "0", "a2"])
    state, _ = act(state, ["disc", "h8"])
    with pytest.raises(EngineError):
        ENGINE.apply(state, 0, ["place", "L", "0", "a2"])  # overlaps the I piece
    anchors = {o.value for o in ENGINE.step(state, 0, ["place", "L", "0"]).options}
    assert "a2" not in anchors and "a3" in anchors


def _duel_endgame(disc: str) -> tuple[dict, list]:
    state, _ = act(new("1"), ["discard", "P"])
    free = X_AT_CENTRE | {(7, 7)}
    state["boards"][0]["pieces"] = [_fill_except(8, 8, free)]
    state["players"][0]["pieces"] = ["X"]
    return act(state, ["disc", disc])


def test_round_ends_when_the_attacker_cannot_place() -> None:
    """遊戲持續進行至當攻方玩家無法將五方連塊放置於棋盤上時,該局遊戲即告結束"""
    state, events = _duel_endgame("h8")
    assert state["round"] == 1 and state["phase"] == "attack" and ENGINE.pending(state)[0].seat == 0
    state, events = _duel_endgame("d4")
    assert "pentactic.ev.round_end" in _keys(events)
    assert state["round"] == 2 and state["phase"] == "discard"


def test_round_score_is_attacker_pieces_minus_defender_discs() -> None:
    """計算方式為:攻方所剩五方連塊數量-守方所剩圓形標記數量"""
    state, _ = _duel_endgame("d4")
    assert state["round_results"] == [{"round": 1, "attacker": 0, "defender": 1, "score": 1 - 7}]
    assert state["players"][0]["score"] == -6


def test_duel_lowest_total_wins_and_ties_share() -> None:
    """兩局結束後,雙方玩家比較所得分數,分數最低者即為遊戲贏家。若出現平手局面,則由雙方玩家共同贏得遊戲勝利"""
    state, _ = _duel_endgame("d4")  # seat 0 scored -6
    state, _ = act(state, ["discard", "L"])
    for disc, expected in (("d4", [0, 1]), ("h8", None)):
        s = dict(state)
        s["boards"] = [dict(state["boards"][0], pieces=[_fill_except(8, 8, X_AT_CENTRE | {(7, 7)})])]
        s["players"] = [dict(p) for p in state["players"]]
        s["players"][1]["pieces"] = ["X"]
        s, _ = act(s, ["disc", disc])
        if expected is None:  # X still fits: place it; then no square is left for a disc
            s, events = act(s, ["place", "X", "0", "c3"])
            assert "pentactic.ev.pass_no_square" in _keys(events)
            assert s["phase"] == "over"
            assert s["round_results"][1]["score"] == 0 - 7
            assert s["winners"] == [1]
        else:
            assert s["round_results"][1]["score"] == -6
            assert s["winners"] == expected
    # A different result is a sole win for the lower total.
    s, _ = play_out(new("1", seed=21), random.Random(2))
    totals = [p["total"] for p in s["players"]]
    assert s["winners"] == [i for i, t in enumerate(totals) if t == min(totals)]


# ----- mode 2 -------------------------------------------------------------------------------

@pytest.mark.parametrize(("mode", "seats"), [("2", 2), ("3", 3), ("3", 6)])
def test_every_player_has_own_board_twelve_pieces_and_eight_discs(mode: str, seats: int) -> None:
    """各玩家分別將遊戲圖板置於自家面前桌上,12個五方連塊及8個圓形標記,則置於自家圖板旁邊桌上"""
    view = ENGINE.view(new(mode, "9x7", seats=seats), None)
    assert [b["owner"] for b in view["boards"]] == list(range(seats))
    assert all(b["discs"] == [] and b["pieces"] == [] for b in view["boards"])
    for p in view["players"]:
        assert p["pieces_left"] == list(PIECES) and p["discs_left"] == 8


def test_board_is_one_of_the_three_sizes() -> None:
    """棋盤範圍棋格數(8ⅹ8,9ⅹ7,11ⅹ6其中之一)"""
    (spec,) = [s for s in ENGINE.option_specs() if s.name == "board"]
    assert [c for c, _ in spec.choices] == ["8x8", "9x7", "11x6"]
    for board, size in (("8x8", (8, 8)), ("9x7", (9, 7)), ("11x6", (11, 6))):
        for mode in ("1", "2", "3", "4"):
            view = ENGINE.view(new(mode, board), None)
            assert (view["width"], view["height"]) == size


def test_two_player_discard_starting_player_then_alternate() -> None:
    """從起始玩家開始,雙方玩家輪流從對手玩家面前桌上,任選1個五方連塊,將其棄置"""
    state = new("2")
    assert [(r.seat, r.kind) for r in ENGINE.pending(state)] == [(0, "discard")]
    state, _ = act(state, ["discard", "I"])
    assert state["players"][1]["discarded"] == ["I"]
    assert ENGINE.pending(state)[0].seat == 1
    state, _ = act(state, ["discard", "X"])
    assert state["players"][0]["discarded"] == ["X"]
    assert state["phase"] == "defend" and ENGINE.pending(state)[0].seat == 0


def _mode2_play_phase() -> dict:
    state, _ = act(new("2"), ["discard", "I"])
    state, _ = act(state, ["discard", "X"])
    return state


def test_two_player_defence_goes_on_the_opponents_board() -> None:
    """雙方玩家輪流將1個圓形標記,置於對手玩家棋盤上任一空格位置處,放置時須符合前述放置規定"""
    state = _mode2_play_phase()
    state, _ = act(state, ["disc", "c3"])
    assert rules.board_of(state, 1)["discs"] == [[2, 2, 0]] and not rules.board_of(state, 0)["discs"]
    assert ENGINE.pending(state)[0].seat == 1
    state, _ = act(state, ["disc", "d4"])
    assert rules.board_of(state, 0)["discs"] == [[3, 3, 1]]
    assert state["phase"] == "attack" and ENGINE.pending(state)[0].seat == 0


def test_two_player_attack_goes_on_own_board() -> None:
    """雙方玩家輪流將1個五方連塊,置於自家棋盤上的空格位置處"""
    state = _mode2_play_phase()
    state, _ = act(state, ["disc", "c3"])
    state, _ = act(state, ["disc", "d4"])
    state, _ = act(state, ["place", "L", "0", "a1"])
    assert [pc["piece"] for pc in rules.board_of(state, 0)["pieces"]] == ["L"]
    state, _ = act(state, ["place", "F", "0", "a1"])
    assert [pc["piece"] for pc in rules.board_of(state, 1)["pieces"]] == ["F"]
    assert state["phase"] == "defend" and state["round"] == 2


def test_two_player_pass_when_no_piece_fits() -> None:
    """若玩家無法放置五方連塊,可喊出「PASS」跳過"""
    state = _mode2_play_phase()
    rules.board_of(state, 0)["pieces"] = [_fill_except(8, 8, {(0, 0), (7, 7)})]
    state, _ = act(state, ["disc", "c3"])
    state, events = act(state, ["disc", "a1"])
    assert "pentactic.ev.pass_no_piece" in _keys(events)
    assert state["players"][0]["passed"] is True
    assert ENGINE.pending(state)[0].seat == 1 and state["phase"] == "attack"


def _no_disc_square(state: dict, owner: int, by: int) -> None:
    """Leave ``owner`` a 3x2 hole (a P still fits) in rows 7-8, both rows closed by discs."""
    board = rules.board_of(state, owner)
    hole = {(x, y) for x in (5, 6, 7) for y in (6, 7)}
    discs = [[0, 6, by], [1, 7, by]]
    board["pieces"] = [_fill_except(8, 8, hole | {(0, 6), (1, 7)})]
    board["discs"] = discs


def test_two_player_defender_passes_when_no_square_is_legal() -> None:
    """(1)防守行動 … 若玩家無法放置圓形標記,可喊出「PASS」跳過"""
    state, _ = act(new("2"), ["discard", "I"])
    _no_disc_square(state, 1, 0)
    state, events = act(state, ["discard", "X"])
    assert "pentactic.ev.pass_no_square" in _keys(events)
    assert state["players"][0]["passed"] and state["players"][0]["discs"] == 8
    assert ENGINE.pending(state)[0].seat == 1 and state["phase"] == "defend"
    assert rules.can_attack(state, 1), "seat 1 can still place P: the game goes on"


def test_multiplayer_defender_passes_only_when_no_opponent_board_takes_a_disc() -> None:
    """(1)防守行動 … 若玩家無法放置圓形標記,可喊出「PASS」跳過 (mode 3)"""
    state, _ = act(new("3", seats=3), ["discard", "1", "T"])
    state, _ = act(state, ["discard", "2", "U"])
    _no_disc_square(state, 1, 2)
    before = json.loads(json.dumps(state))
    state, events = act(before, ["discard", "0", "V"])
    assert [o.value for o in ENGINE.step(state, 0, ["disc"]).options] == ["2"], "board 1 is closed"
    _no_disc_square(before, 2, 1)
    state, events = act(before, ["discard", "0", "V"])
    assert "pentactic.ev.pass_no_square" in _keys(events)
    assert ENGINE.pending(state)[0].seat == 1


def test_two_player_game_ends_when_both_cannot_place() -> None:
    """遊戲持續進行至當雙方玩家皆無法將五方連塊放置於棋盤上時,遊戲即告結束"""

    def check(s: dict) -> None:
        stuck = [not rules.can_attack(s, seat) for seat in range(2)]
        assert (s["phase"] == "over") == all(stuck)

    final, _ = play_out(_mode2_play_phase(), random.Random(8), check=check)
    assert final["phase"] == "over"


def test_two_player_score_is_pieces_plus_discs_lowest_wins() -> None:
    """計算方式為:各玩家所剩五方連塊數量+各玩家所剩圓形標記數量 … 分數低者即為遊戲贏家。若出現平手局面,則由雙方玩家共同贏得遊戲勝利"""
    for seed in range(4):
        final, _ = play_out(new("2", seed=seed), random.Random(seed))
        totals = [len(p["pieces"]) + p["discs"] for p in final["players"]]
        assert [p["total"] for p in final["players"]] == totals
        assert final["winners"] == [s for s in range(2) if totals[s] == min(totals)]
    # A tie is shared: both stuck at once with equal counts.
    state = _mode2_play_phase()
    for owner in (0, 1):
        rules.board_of(state, owner)["pieces"] = [_fill_except(8, 8, {(0, 0), (7, 7)})]
    state["players"][1]["pieces"].remove("P")
    state, events = act(state, ["disc", "a1"])
    assert state["phase"] == "over" and state["winners"] == [0, 1]
    assert ENGINE.result(state).scores == {0: 11 + 7, 1: 10 + 8}


# ----- mode 3 -------------------------------------------------------------------------------

def test_multiplayer_discard_counter_clockwise_from_full_trays() -> None:
    """從起始玩家開始,依逆時針方向,各玩家輪流從具有12個五方連塊的玩家面前桌上,任選1個五方連塊,將其棄置"""
    state = new("3", seats=3)
    assert ENGINE.pending(state)[0].seat == 0
    assert [o.value for o in ENGINE.step(state, 0, ["discard"]).options] == ["1", "2"]
    state, _ = act(state, ["discard", "1", "T"])
    assert ENGINE.pending(state)[0].seat == 1
    # Seat 0 still has 12, but seat 1 taking from 0 would leave seat 2 only its own tray.
    assert [o.value for o in ENGINE.step(state, 1, ["discard"]).options] == ["2"]
    with pytest.raises(EngineError):
        ENGINE.apply(state, 1, ["discard", "1", "T"])
    state, _ = act(state, ["discard", "2", "U"])
    assert [o.value for o in ENGINE.step(state, 2, ["discard"]).options] == ["0"]
    state, _ = act(state, ["discard", "0", "V"])
    assert [len(p["pieces"]) for p in state["players"]] == [11, 11, 11]
    assert state["phase"] == "defend"


def test_multiplayer_disc_on_any_opponents_board() -> None:
    """所有玩家輪流將1個圓形標記,置於其他任一對手玩家棋盤上任一空格位置處(各玩家所選擇的對手玩家可重複)"""
    state = new("3", seats=4)
    rng = random.Random(1)
    while state["phase"] == "discard":
        state, _ = act(state, uniform(state, ENGINE.pending(state)[0].seat, rng))
    assert [o.value for o in ENGINE.step(state, 0, ["disc"]).options] == ["1", "2", "3"]
    with pytest.raises(EngineError):
        ENGINE.apply(state, 0, ["disc", "0", "a1"])
    state, _ = act(state, ["disc", "2", "a1"])
    state, _ = act(state, ["disc", "2", "b2"])  # the same opponent again is allowed
    with pytest.raises(EngineError):
        ENGINE.apply(state, 2, ["disc", "3", "x9"])
    cells = {o.value for o in ENGINE.step(state, 2, ["disc", "0"]).options}
    assert "a1" in cells
    board2 = rules.board_of(state, 2)
    assert [d[2] for d in board2["discs"]] == [0, 1]
    # Both players' discs on board 2 close rows 1-2 and columns a-b for everybody.
    cells = {o.value for o in ENGINE.step(state, 2, ["disc", "1"]).options}
    assert "a1" in cells
    state, _ = act(state, ["disc", "1", "c3"])
    cells = {o.value for o in ENGINE.step(state, 3, ["disc", "2"]).options}
    assert not ({"a5", "b5", "c1", "c2", "h2", "h1"} & cells) and "c3" in cells


def _mode3_after_discards(seats: int = 3) -> dict:
    state = new("3", seats=seats)
    rng = random.Random(1)
    while state["phase"] == "discard":
        state, _ = act(state, uniform(state, ENGINE.pending(state)[0].seat, rng))
    return state


def test_multiplayer_attack_in_seat_order_on_own_boards() -> None:
    """(2)攻擊行動 所有玩家輪流將1個五方連塊,置於自家棋盤上的空格位置處"""
    state = _mode3_after_discards()
    for seat, target in ((0, "1"), (1, "2"), (2, "0")):
        state, _ = act(state, ["disc", target, "h8"], seat)
    assert state["phase"] == "attack"
    for seat in range(3):
        assert ENGINE.pending(state)[0].seat == seat
        piece = state["players"][seat]["pieces"][0]
        with pytest.raises(EngineError):
            ENGINE.apply(state, seat, ["place", "1", piece, "0", "a1"])  # no target: own board only
        state, _ = act(state, ["place", piece, "0", "a1"], seat)
        assert [pc["piece"] for pc in rules.board_of(state, seat)["pieces"]] == [piece]
        assert all(not rules.board_of(state, o)["pieces"] for o in range(seat + 1, 3))
    assert state["phase"] == "defend" and state["round"] == 2 and ENGINE.pending(state)[0].seat == 0


def test_multiplayer_tie_is_shared_by_the_tied_players_only() -> None:
    """最後,所有玩家比較所得分數,分數低者即為遊戲贏家。若出現平手局面,則由平手玩家共同贏得遊戲勝利"""
    state, _ = act(new("3", seats=3), ["discard", "1", "T"])
    state, _ = act(state, ["discard", "2", "U"])
    for owner in range(3):
        rules.board_of(state, owner)["pieces"] = [_fill_except(8, 8, {(0, 0), (7, 7)})]
    state["players"][1]["pieces"].remove("F")
    state["players"][2]["pieces"].remove("F")
    state, events = act(state, ["discard", "0", "V"])
    assert state["phase"] == "over" and "pentactic.ev.game_over" in _keys(events)
    result = ENGINE.result(state)
    assert result.scores == {0: 11 + 8, 1: 10 + 8, 2: 10 + 8}
    assert result.winners == [1, 2]


@pytest.mark.parametrize("seats", [3, 5, 6])
def test_multiplayer_plays_to_the_end(seats: int) -> None:
    """遊戲持續進行至當所有玩家皆無法將五方連塊放置於棋盤上時,遊戲即告結束 … 分數低者即為遊戲贏家"""
    final, _ = play_out(new("3", "9x7", seats=seats, seed=seats), random.Random(seats))
    assert all(not rules.can_attack(final, s) for s in range(seats))
    totals = [len(p["pieces"]) + p["discs"] for p in final["players"]]
    assert final["winners"] == [s for s in range(seats) if totals[s] == min(totals)]


def test_seat_ranges_per_mode() -> None:
    """1.玩法一:基本對決(2位玩家進行) … 3.玩法三:多人對戰(3~6位玩家進行) … 4.玩法四:單人挑戰(1位玩家進行)"""
    assert ENGINE.seat_range({"mode": "1"}) == (2, 2)
    assert ENGINE.seat_range({"mode": "2"}) == (2, 2)
    assert ENGINE.seat_range({"mode": "3"}) == (3, 6)
    assert ENGINE.seat_range({"mode": "4"}) == (1, 1)
    for mode, seats in (("1", 3), ("3", 2), ("3", 7), ("4", 2)):
        with pytest.raises(EngineError):
            ENGINE.new_state({"mode": mode}, seats, 1)
    with pytest.raises(EngineError):
        ENGINE.new_state({"mode": "5"}, 2, 1)
    with pytest.raises(EngineError):
        ENGINE.new_state({"mode": "2", "board": "10x10"}, 2, 1)


# ----- mode 4 -------------------------------------------------------------------------------

@pytest.mark.parametrize(("board", "discs"), [("8x8", 4), ("9x7", 3), ("11x6", 6)])
@pytest.mark.parametrize("deal", ["random", "solvable"])
def test_solo_disc_counts(board: str, discs: int, deal: str) -> None:
    """(1) 8ⅹ8棋格數:4個圓形標記 (2) 9ⅹ7棋格數:3個圓形標記 (3) 11ⅹ6棋格數:6個圓形標記"""
    state = new("4", board, deal=deal, seed=3)
    assert len(state["boards"][0]["discs"]) == discs
    g = geo(state)
    assert (g.full & ~occupied(state, 0)).bit_count() == 60


def test_solo_random_deal_ignores_the_row_rule_and_depends_on_seed() -> None:
    """首先玩家根據使用的棋盤範圍棋格數,將對應數量的圓形標記隨機置於棋盤上的空格位置處"""
    layouts = [tuple(map(tuple, new("4", "11x6", deal="random", seed=s)["boards"][0]["discs"]))
               for s in range(30)]
    assert len(set(layouts)) > 25
    assert layouts == [tuple(map(tuple, new("4", "11x6", deal="random", seed=s)["boards"][0]["discs"]))
                       for s in range(30)]
    assert any(len({y for _, y, _ in lay}) < len(lay) for lay in layouts), "pure random may share rows"


def test_solo_place_all_twelve_with_hints_scores_zero() -> None:
    """之後,玩家須想辦法將12個五方連塊順利的放入棋盤中"""
    state = new("4", "9x7", seed=5)
    for _ in range(12):
        state, events = act(state, ["hint"])
        hint = state["hint"]
        assert events[0].msg.key == "pentactic.ev.hint" and events[0].to is None
        state, _ = act(state, ["place", hint["piece"], str(hint["orientation"]), hint["anchor"]])
    assert state["phase"] == "over" and state["winners"] == [0]
    assert ENGINE.result(state).scores == {0: 0}
    assert state["hints"] == 12


def test_solo_ends_when_no_remaining_piece_fits() -> None:
    """The game ends when no remaining piece fits (score = pieces left)."""
    state = new("4", seed=1)
    state["boards"][0]["pieces"] = [_fill_except(8, 8, X_AT_CENTRE | {(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)})]
    state["players"][0]["pieces"] = ["X", "I", "L"]
    state["boards"][0]["discs"] = []
    state, _ = act(state, ["place", "I", "0", "a1"])
    assert state["phase"] == "attack"
    assert [o.value for o in ENGINE.step(state, 0, ["place"]).options] == ["X"]
    state, _ = act(state, ["place", "X", "0", "c3"])
    assert state["phase"] == "over" and state["winners"] == []
    assert ENGINE.result(state).scores == {0: 1}


def test_solo_hint_reports_an_unsolvable_board() -> None:
    """A hint shows a placement that keeps the rest solvable, or says there is none."""
    state = new("4", seed=1)
    state["boards"][0]["pieces"] = [_fill_except(8, 8, X_AT_CENTRE | {(0, 0), (1, 0), (2, 0), (3, 0), (5, 7)})]
    state["boards"][0]["discs"] = []
    state["players"][0]["pieces"] = ["X", "I"]
    state, events = act(state, ["hint"])
    assert events[0].msg.key == "pentactic.ev.hint_unsolvable" and state["hint"] is None


def test_discs_only_shrink_space_so_stuck_is_final() -> None:
    """In modes 2/3 "can place nothing now" is final: adding discs or pieces never frees a square."""
    rng = random.Random(4)
    g = geometry(8, 8)
    for _ in range(200):
        occ = 0
        for _ in range(rng.randrange(10, 40)):
            occ |= 1 << rng.randrange(64)
        pieces = rng.sample(PIECES, 4)
        more = occ | (1 << rng.randrange(64))
        for p in pieces:
            if not g.fits_anywhere(p, occ):
                assert not g.fits_anywhere(p, more)


# ----- the discard Decision (docs/rules/pentactic.md, mode 1) -------------------------------

def _round_one_score(seed: int, board: str, discard: bool, attacker: str) -> int:
    """Mode 1, round 1 with the normal defender: the attacker's score, with the defender's
    discard or with the discard step skipped (what an optional discard would allow)."""
    state = new("1", board, seed=seed)
    rng = random.Random(seed)
    if discard:
        state, _ = act(state, ENGINE.ai_action(state, 1, rng, "normal"))
    else:
        state["phase"] = "defend"
        rules.settle(state, [])
    while state["round"] == 1:
        seat = ENGINE.pending(state)[0].seat
        state, _ = act(state, ai_move(state, seat, rng, attacker if seat == 0 else "normal"), seat)
    return state["round_results"][0]["score"]


@pytest.mark.slow
@pytest.mark.parametrize("board", ["8x8", "9x7", "11x6"])
def test_discarding_is_no_gain_for_the_defender(board: str) -> None:
    """守方玩家可…任選1個五方連塊,將其棄置: why the discard is compulsory (Decision). Were it
    optional, not discarding would be at least as good for the defender (a higher attacker
    score), so the rule would never be used."""
    seeds = range(30)
    for attacker, margin in (("uniform", 0.3), ("normal", 0.0)):
        kept = sum(_round_one_score(s, board, False, attacker) for s in seeds) / len(seeds)
        discarded = sum(_round_one_score(s, board, True, attacker) for s in seeds) / len(seeds)
        assert kept >= discarded + margin, (attacker, kept, discarded)
