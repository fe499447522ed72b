"""AI strength and determinism, the view's shape, describe(), step() UX and geometry helpers."""

from __future__ import annotations

import json
import random
import time

import pytest
from pentactic_helpers import act, new, play_out, uniform

from engines.base import Msg
from engines.pentactic import ENGINE, PIECES, orientations, placement_cells
from engines.pentactic.geometry import cell_token, parse_cell
from engines.pentactic.shapes import orientation_count
from i18n import catalog

# ----- shapes and geometry ------------------------------------------------------------------


def test_sixty_three_fixed_orientations() -> None:
    counts = {p: orientation_count(p) for p in PIECES}
    assert counts == {"F": 8, "I": 2, "L": 8, "N": 8, "P": 8, "T": 4, "U": 4, "V": 4, "W": 4, "X": 1,
                      "Y": 8, "Z": 4}
    assert sum(counts.values()) == 63
    all_shapes = [tuple(o) for p in PIECES for o in orientations(p)]
    assert len(set(all_shapes)) == 63, "no two orientations (of any pieces) coincide"
    for o in all_shapes:
        assert len(o) == 5 and min(x for x, _ in o) == 0 and min(y for _, y in o) == 0
        cells, todo = set(o), [o[0]]
        seen = {o[0]}
        while todo:  # 4-connected
            x, y = todo.pop()
            for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if n in cells and n not in seen:
                    seen.add(n)
                    todo.append(n)
        assert seen == cells


def test_orientation_order_is_stable() -> None:
    # Orientation 0 is the drawing; tokens in saved logs depend on this order.
    assert orientations("X") == [[(1, 0), (0, 1), (1, 1), (2, 1), (1, 2)]]
    assert orientations("I") == [[(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)],
                                 [(0, 0), (0, 1), (0, 2), (0, 3), (0, 4)]]
    assert orientations("F")[0] == [(1, 0), (2, 0), (0, 1), (1, 1), (1, 2)]


def test_cell_tokens_and_placement_cells() -> None:
    assert cell_token(1, 3) == "b4" and parse_cell("b4", 8, 8) == (1, 3)
    assert parse_cell("k6", 11, 6) == (10, 5) and parse_cell("k6", 8, 8) is None
    assert parse_cell("a0", 8, 8) is None and parse_cell("a9", 8, 8) is None and parse_cell("", 8, 8) is None
    # The anchor is the top-left of the bounding box even when the piece does not cover it.
    assert placement_cells("X", 0, "b4", 8, 8) == [(2, 3), (1, 4), (2, 4), (3, 4), (2, 5)]
    assert placement_cells("X", 0, "g7", 8, 8) is None
    assert placement_cells("I", 0, "g1", 11, 6) == [(6, 0), (7, 0), (8, 0), (9, 0), (10, 0)]
    assert placement_cells("I", 2, "a1", 8, 8) is None and placement_cells("Q", 0, "a1", 8, 8) is None


# ----- step() -------------------------------------------------------------------------------

def test_step_offers_piece_then_orientation_then_anchor_with_preview() -> None:
    state, _ = act(new("2"), ["discard", "I"])
    state, _ = act(state, ["discard", "X"])
    state, _ = act(state, ["disc", "a1"])
    state, _ = act(state, ["disc", "a1"])
    assert [o.value for o in ENGINE.step(state, 0, []).options] == ["place"]
    pieces = ENGINE.step(state, 0, ["place"])
    assert [o.value for o in pieces.options] == [p for p in PIECES if p != "X"]
    assert pieces.options[0].label == Msg("pentactic.piece.F")
    orients = ENGINE.step(state, 0, ["place", "L"])
    assert [o.value for o in orients.options] == [str(i) for i in range(8)]
    anchors = ENGINE.step(state, 0, ["place", "L", "0"])
    values = [o.value for o in anchors.options]
    assert "a1" not in values and "g1" in values and "h1" not in values and "a6" not in values
    assert len(values) == 7 * 5 - 1
    done = ENGINE.step(state, 0, ["place", "L", "0", "b1"])
    assert done.complete and done.preview and not done.options


def test_step_hides_orientations_and_pieces_that_fit_nowhere() -> None:
    state = new("4", seed=1)
    free = {(0, y) for y in range(5)} | {(2, 2), (2, 3), (2, 4), (3, 4), (4, 4)}
    state["boards"][0]["pieces"] = [{"piece": "F", "seat": 0, "orientation": 0, "anchor": "a1",
                                     "cells": [[x, y] for y in range(8) for x in range(8)
                                               if (x, y) not in free]}]
    state["boards"][0]["discs"] = []
    state["players"][0]["pieces"] = ["I", "V", "X"]
    assert [o.value for o in ENGINE.step(state, 0, ["place"]).options] == ["I", "V"]
    assert [o.value for o in ENGINE.step(state, 0, ["place", "I"]).options] == ["1"]
    assert [o.value for o in ENGINE.step(state, 0, ["place", "V"]).options] == ["0"]
    assert [o.value for o in ENGINE.step(state, 0, ["place", "V", "0"]).options] == ["c3"]


# ----- view and describe --------------------------------------------------------------------

VIEW_KEYS = {"game", "mode", "board", "width", "height", "round", "phase", "to_move", "players", "boards",
             "last", "round_results", "winners"}


@pytest.mark.parametrize("mode", ["1", "2", "3", "4"])
def test_view_shape_and_describe(mode: str) -> None:
    state = new(mode, "11x6")
    rng = random.Random(2)
    en = catalog("en")
    for _ in range(200):
        view = ENGINE.view(state, None)
        assert set(view) >= VIEW_KEYS and view["game"] == "pentactic"
        assert (view["width"], view["height"]) == (11, 6)
        assert json.loads(json.dumps(view)) == view
        assert view == ENGINE.view(state, 0), "no hidden information"
        for p in view["players"]:
            assert {"seat", "pieces_left", "discarded", "discs_left", "score", "total", "role",
                    "passed"} <= set(p)
        for b in view["boards"]:
            assert set(b) == {"owner", "discs", "pieces"}
            for d in b["discs"]:
                assert set(d) == {"cell", "by"}
        if view["last"] is not None:
            assert view["last"]["kind"] in ("disc", "piece") and view["last"]["cells"]
        for msg in ENGINE.describe(view):
            assert msg.key in en
            for v in msg.params.values():
                assert not (isinstance(v, dict) and "key" in v and "seat" not in v) or v["key"] in en
        reqs = ENGINE.pending(state)
        if not reqs:
            break
        assert view["to_move"] == [reqs[0].seat] and reqs[0].prompt.key in en
        state, events = ENGINE.apply(state, reqs[0].seat, uniform(state, reqs[0].seat, rng))
        assert all(e.msg.key in en for e in events)
    assert view["phase"] == "over" and view["winners"] is not None
    result = ENGINE.result(state)
    assert result is not None and result.winners == view["winners"] and result.summary.key in en


def test_solo_hint_is_public_in_the_view_until_the_next_placement() -> None:
    """docs/rules/pentactic.md, mode 4: the hint is public (the only player's game), in the view
    that the thread image is drawn from, and in a public event."""
    state = new("4", "8x8", seed=12)
    assert ENGINE.view(state, None)["hint"] is None
    state, events = act(state, ["hint"])
    view = ENGINE.view(state, None)
    hint = view["hint"]
    assert hint is not None and view == ENGINE.view(state, 0) and view["hints_used"] == 1
    assert [e.to for e in events] == [None] and events[0].msg.params["piece"] == hint["piece"]
    cells = placement_cells(hint["piece"], hint["orientation"], hint["anchor"], 8, 8)
    assert cells is not None and sorted(map(tuple, hint["cells"])) == sorted(cells)
    state, _ = act(state, ["place", hint["piece"], str(hint["orientation"]), hint["anchor"]])
    view = ENGINE.view(state, None)
    assert view["hint"] is None and view["hints_used"] == 1
    placed = view["boards"][0]["pieces"][-1]
    assert sorted(map(tuple, placed["cells"])) == sorted(cells)


def test_option_specs_are_translated() -> None:
    en = catalog("en")
    for spec in ENGINE.option_specs():
        assert spec.label.key in en
        assert all(label.key in en for _, label in spec.choices)
    assert ENGINE.normalize_options({}) == {"mode": "2", "board": "8x8", "deal": "solvable"}


# ----- AI -----------------------------------------------------------------------------------

def _mode2_match(seed: int, smart: int) -> list[int]:
    state = new("2", ("8x8", "9x7", "11x6")[seed % 3], seed=seed)
    final, _ = play_out(state, random.Random(seed), levels={smart: "normal", 1 - smart: "uniform"})
    return final["winners"]


def _win_rate(games: int) -> float:
    wins = sum(_mode2_match(seed, seed % 2) == [seed % 2] for seed in range(games))
    return wins / games


def test_normal_ai_beats_random_in_two_player_games() -> None:
    assert _win_rate(10) >= 0.9


@pytest.mark.slow
def test_normal_ai_beats_random_in_many_two_player_games() -> None:
    assert _win_rate(100) >= 0.9


@pytest.mark.parametrize("mode", ["1", "2", "3", "4"])
def test_ai_is_deterministic_given_the_rng(mode: str) -> None:
    a, log_a = play_out(new(mode, seed=9), random.Random(4), levels={0: "normal", 1: "normal", 2: "uniform"})
    b, log_b = play_out(new(mode, seed=9), random.Random(4), levels={0: "normal", 1: "normal", 2: "uniform"})
    assert log_a == log_b and a == b


def test_ai_decisions_stay_within_budget() -> None:
    worst = 0.0
    state = new("2", "11x6", seed=3)
    rng = random.Random(3)
    while ENGINE.pending(state):
        seat = ENGINE.pending(state)[0].seat
        t = time.perf_counter()
        action = ENGINE.ai_action(state, seat, rng, "normal")
        worst = max(worst, time.perf_counter() - t)
        state, _ = ENGINE.apply(state, seat, action)
    # 200 ms is the budget on this machine; allow headroom for a loaded CI box.
    assert worst < 0.6


def test_solo_normal_ai_solves_a_solvable_deal() -> None:
    final, _ = play_out(new("4", "8x8", seed=12), random.Random(1), levels={0: "normal"})
    assert final["winners"] == [0]


def test_disc_capacity_is_a_row_column_matching() -> None:
    from engines.pentactic.ai import disc_capacity
    from engines.pentactic.geometry import geometry

    assert disc_capacity(geometry(8, 8), 0, 0) == 8
    assert disc_capacity(geometry(11, 6), 0, 0) == 6
    assert disc_capacity(geometry(9, 7), 0, 0) == 7
    g = geometry(8, 8)
    disc = g.bit(0, 0)
    assert disc_capacity(g, disc, disc) == 7
    # Fill rows 2..8 completely: the only free squares left are in row 1, one disc at most.
    occ = g.full & ~g.row_masks[0]
    assert disc_capacity(g, occ, 0) == 1
    # Free squares only on the diagonal: a full matching.
    diag = sum(g.bit(i, i) for i in range(8))
    assert disc_capacity(g, g.full & ~diag, 0) == 8
    # Free squares only in columns a and b: two discs at most.
    two = g.col_masks[0] | g.col_masks[1]
    assert disc_capacity(g, g.full & ~two, 0) == 2
