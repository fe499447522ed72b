"""Pentactic board images: sizes, pixels where pieces, discs, highlights and previews must be."""

from __future__ import annotations

import io
import random
import time
from typing import Any

import pytest
from PIL import Image, ImageChops

from engines.pentactic import ENGINE, placement_cells
from engines.pentactic import orientations as engine_orientations
from render import render_board
from render.common import PLAYER_COLORS
from render.pentactic import (
    EMPTY,
    HIGHLIGHT,
    PIECES,
    cell_box,
    compose,
    layout,
    overlay_from_path,
    render,
    tray_shape,
)

NAMES = ["Alice", "Bob", "陳小明", "Łukasz", "王大力", "Zoë"]
L_CELLS = [[0, 0], [0, 1], [0, 2], [0, 3], [1, 3]]


def _player(seat: int, **kw: Any) -> dict[str, Any]:
    base = {"seat": seat, "pieces_left": list(PIECES), "discarded": [], "discs_left": 8, "score": None,
            "total": None, "role": None, "passed": False}
    base.update(kw)
    return base


def duel_view(last: bool = True) -> dict[str, Any]:
    """Mode 1 on 8x8: seat 0 attacks (placed L), seat 1 defends (disc on f6)."""
    return {
        "game": "pentactic", "mode": "1", "board": "8x8", "width": 8, "height": 8, "round": 1,
        "phase": "defend", "to_move": [1],
        "players": [_player(0, pieces_left=[p for p in PIECES if p not in "LX"], discarded=["X"], discs_left=0,
                            role="attacker"),
                    _player(1, pieces_left=[], discs_left=7, role="defender")],
        "boards": [{"owner": 0, "discs": [{"cell": [5, 5], "by": 1}],
                    "pieces": [{"piece": "L", "seat": 0, "cells": L_CELLS}]}],
        "last": {"board": 0, "kind": "piece", "cells": L_CELLS} if last else None,
        "round_results": [], "winners": None,
    }


def multi_view(seats: int, width: int = 11, height: int = 6) -> dict[str, Any]:
    """Mode 3: every board has one piece of its owner at a1 and a disc by the next seat at the far corner."""
    boards = [{"owner": s, "discs": [{"cell": [width - 1, height - 1], "by": (s + 1) % seats}],
               "pieces": [{"piece": "L", "seat": s, "cells": L_CELLS}]} for s in range(seats)]
    return {
        "game": "pentactic", "mode": "3", "board": f"{width}x{height}", "width": width, "height": height,
        "round": 3, "phase": "attack", "to_move": [2 % seats],
        "players": [_player(s, pieces_left=[p for p in PIECES if p != "L"], discs_left=7) for s in range(seats)],
        "boards": boards, "last": None, "round_results": [], "winners": None,
    }


def _at(img: Image.Image, box: tuple[int, int, int, int], fx: float, fy: float) -> tuple[int, int, int]:
    x0, y0, x1, y1 = box
    return img.getpixel((int(x0 + (x1 - x0) * fx), int(y0 + (y1 - y0) * fy)))


def _decode(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    assert img.format == "PNG"
    return img.convert("RGB")


def _play(mode: str, board: str, seats: int, seed: int = 3) -> list[dict[str, Any]]:
    state = ENGINE.new_state({"mode": mode, "board": board}, seats, seed)
    rng = random.Random(seed)
    views = [ENGINE.view(state, None)]
    while pending := ENGINE.pending(state):
        state, _ = ENGINE.apply(state, pending[0].seat, ENGINE.ai_action(state, pending[0].seat, rng))
        views.append(ENGINE.view(state, None))
    return views


@pytest.fixture(scope="module")
def six_player_game() -> list[dict[str, Any]]:
    return _play("3", "8x8", 6)


def test_png_opens_with_the_composed_size_and_is_phone_sized() -> None:
    view = duel_view()
    png = render(view, "en", NAMES)
    img = _decode(png)
    assert img.size == compose(view, "en", NAMES).size
    assert img.width >= 800
    assert len(png) < 300_000
    assert render_board(view, "zh-TW", NAMES)[:8] == b"\x89PNG\r\n\x1a\n"


def test_piece_cells_have_the_owner_colour_and_the_disc_is_drawn() -> None:
    view = duel_view()
    for img in (compose(view, "en", NAMES), _decode(render(view, "en", NAMES))):
        for cell in L_CELLS:
            assert _at(img, cell_box(view, 0, cell), 0.2, 0.2) == PLAYER_COLORS[0], cell
        disc = cell_box(view, 0, (5, 5))
        assert _at(img, disc, 0.5, 0.5) == PLAYER_COLORS[1]
        assert _at(img, disc, 0.08, 0.08) == EMPTY, "a disc is a circle, not a filled square"
        assert _at(img, cell_box(view, 0, (4, 2)), 0.5, 0.5) == EMPTY


def test_solo_discs_without_a_seat_are_neutral_grey() -> None:
    view = _play("4", "9x7", 1)[0]
    img = compose(view, "en", NAMES)
    for disc in view["boards"][0]["discs"]:
        assert disc["by"] is None
        r, g, b = _at(img, cell_box(view, 0, disc["cell"]), 0.5, 0.5)
        assert r == g == b and 100 < r < 200


def test_last_move_is_outlined() -> None:
    with_last = compose(duel_view(last=True), "en", NAMES)
    without = compose(duel_view(last=False), "en", NAMES)
    box = cell_box(duel_view(), 0, (0, 1))
    left_edge = [(box[0] + dx, (box[1] + box[3]) // 2) for dx in range(12)]
    assert any(with_last.getpixel(p) == HIGHLIGHT for p in left_edge)
    assert not any(without.getpixel(p) == HIGHLIGHT for p in left_edge)
    assert _at(with_last, box, 0.5, 0.3) == PLAYER_COLORS[0], "the highlight is an outline, not a fill"


def test_ghost_overlay_is_translucent_and_only_touches_its_cells() -> None:
    view = duel_view()
    ghost_cells = [[4, 1], [5, 1], [6, 1], [5, 2], [5, 3]]  # a T on empty squares
    overlay = {"board": 0, "cells": ghost_cells, "piece": "T", "seat": 0}
    plain = compose(view, "en", NAMES)
    shown = compose(view, "en", NAMES, overlay)
    assert plain.size == shown.size
    board_top = cell_box(view, 0, (0, 0))[1]
    diff = ImageChops.difference(plain, shown).crop((0, board_top, plain.width, plain.height))
    x0, y0, x1, y1 = diff.getbbox()
    first, last = cell_box(view, 0, (4, 1)), cell_box(view, 0, (6, 3))
    assert first[0] - 3 <= x0 and x1 <= last[2] + 3
    assert first[1] - 3 <= y0 + board_top and y1 + board_top <= last[3] + 3
    for cell in ghost_cells:
        pixel = _at(shown, cell_box(view, 0, cell), 0.3, 0.7)
        assert pixel != EMPTY and pixel != PLAYER_COLORS[0], "a ghost is neither empty nor a placed piece"
    # Placed pieces are untouched by a ghost elsewhere.
    assert _at(shown, cell_box(view, 0, (0, 0)), 0.2, 0.2) == PLAYER_COLORS[0]


def test_ghost_on_another_board_leaves_the_first_board_alone() -> None:
    view = multi_view(2, 9, 7)
    overlay = {"board": 1, "cells": [[3, 3], [4, 3], [5, 3], [6, 3], [7, 3]], "piece": "I", "seat": 1}
    plain, shown = compose(view, "en", NAMES), compose(view, "en", NAMES, overlay)
    b0 = cell_box(view, 0, (0, 0))[0], cell_box(view, 0, (0, 0))[1], cell_box(view, 0, (8, 6))[2], \
        cell_box(view, 0, (8, 6))[3]
    assert ImageChops.difference(plain.crop(b0), shown.crop(b0)).getbbox() is None
    assert _at(shown, cell_box(view, 1, (5, 3)), 0.3, 0.7) != EMPTY


def test_an_action_path_overlay_draws_the_same_ghost() -> None:
    """The Discord layer passes ``{"path": [...]}``; it must look like the explicit overlay."""
    view = multi_view(3, 9, 7)
    path = ["place", "T", "1", "d3"]
    cells = placement_cells("T", 1, "d3", 9, 7)
    assert cells is not None
    explicit = {"board": 2, "cells": [list(c) for c in cells], "piece": "T", "seat": 2}
    assert overlay_from_path(view, path) == explicit
    by_path = compose(view, "en", NAMES, {"path": path})
    assert ImageChops.difference(by_path, compose(view, "en", NAMES, explicit)).getbbox() is None
    assert ImageChops.difference(by_path, compose(view, "en", NAMES)).getbbox() is not None
    assert overlay_from_path(view, ["disc", "c4"]) is None
    assert overlay_from_path(view, ["place", "T", "9", "d3"]) is None
    png = render(view, "en", NAMES, {"path": ["place", "T"]})  # incomplete path: no ghost, no crash
    assert _decode(png).size == by_path.size


def test_solo_hint_is_drawn_like_a_ghost() -> None:
    view = _play("4", "11x6", 1)[0]
    occupied = {tuple(d["cell"]) for d in view["boards"][0]["discs"]}
    row = next(y for y in range(6) if all((x, y) not in occupied for x in range(5)))
    free = [[x, row] for x in range(5)]
    hinted = dict(view, hint={"piece": "I", "orientation": 0, "anchor": f"a{row + 1}", "cells": free})
    a, b = compose(view, "en", NAMES), compose(hinted, "en", NAMES)
    for cell in free:
        assert _at(a, cell_box(view, 0, cell), 0.3, 0.7) == EMPTY
        assert _at(b, cell_box(view, 0, cell), 0.3, 0.7) != EMPTY


def test_engine_solo_hint_changes_the_thread_image() -> None:
    """A hint asked for through the engine reaches the public view and so the board image."""
    state = ENGINE.new_state({"mode": "4", "board": "8x8"}, 1, 12)
    before = ENGINE.view(state, None)
    state, _ = ENGINE.apply(state, 0, ["hint"])
    after = ENGINE.view(state, None)
    assert after["hint"] is not None
    plain, hinted = compose(before, "en", NAMES), compose(after, "en", NAMES)
    assert ImageChops.difference(plain, hinted).getbbox() is not None
    for cell in after["hint"]["cells"]:
        assert _at(plain, cell_box(after, 0, cell), 0.3, 0.7) == EMPTY
        assert _at(hinted, cell_box(after, 0, cell), 0.3, 0.7) != EMPTY
    assert render(after, "en", NAMES) != render(before, "en", NAMES)


@pytest.mark.parametrize(("boards", "per_row"), [(1, 1), (2, 2), (3, 3), (4, 2), (5, 3), (6, 3)])
def test_board_grid_has_at_most_three_per_row(boards: int, per_row: int) -> None:
    assert layout(11, 6, boards).per_row == per_row


def test_every_board_is_drawn_in_its_owners_colour_in_a_grid() -> None:
    view = multi_view(5)
    img = compose(view, "zh-CN", NAMES)
    tops = []
    for seat in range(5):
        box = cell_box(view, seat, (0, 0))
        assert _at(img, box, 0.2, 0.2) == PLAYER_COLORS[seat]
        assert _at(img, cell_box(view, seat, (10, 5)), 0.5, 0.5) == PLAYER_COLORS[(seat + 1) % 5]
        tops.append(box[1])
    assert tops[0] == tops[1] == tops[2] < tops[3] == tops[4]
    assert img.width >= 800 and layout(11, 6, 5).cell >= 40


def test_localized_labels_change_the_header() -> None:
    view = duel_view()
    en, zh = compose(view, "en", NAMES), compose(view, "zh-TW", NAMES)
    header = (0, 0, en.width, 90)
    assert ImageChops.difference(en.crop(header), zh.crop(header)).getbbox() is not None
    board = cell_box(view, 0, (0, 0))[0], cell_box(view, 0, (0, 0))[1], en.width - 30, cell_box(view, 0, (7, 7))[3]
    assert ImageChops.difference(en.crop(board), zh.crop(board)).getbbox() is None


def test_odd_names_and_missing_names_do_not_crash() -> None:
    view = multi_view(4, 8, 8)
    names = ["🐉🐉🐉", "", "x" * 200]  # fewer names than seats, an empty one, a very long one
    assert _decode(render(view, "zh-TW", names)).width >= 800


def test_real_games_render_small_at_every_stage(six_player_game: list[dict[str, Any]]) -> None:
    views = six_player_game
    picks = [views[1], views[len(views) // 2], views[-1]]
    assert views[-1]["phase"] == "over"
    for view in picks:
        png = render(view, "zh-TW", NAMES)
        assert len(png) < 300_000
        img = _decode(png)
        for board in view["boards"]:
            for piece in board["pieces"]:
                cell = piece["cells"][0]
                assert _at(img, cell_box(view, board["owner"], cell), 0.2, 0.2) == PLAYER_COLORS[piece["seat"]]


@pytest.mark.parametrize(("mode", "board", "seats"), [("1", "11x6", 2), ("2", "9x7", 2), ("4", "8x8", 1)])
def test_each_mode_renders_mid_and_end(mode: str, board: str, seats: int) -> None:
    views = _play(mode, board, seats)
    for view in (views[len(views) // 2], views[-1]):
        img = _decode(render(view, "zh-CN", NAMES))
        assert img.width >= 800 and img.height > 500


def test_typical_render_is_fast() -> None:
    view = duel_view()
    render(view, "en", NAMES)
    times = []
    for _ in range(5):
        t0 = time.perf_counter()
        render(view, "en", NAMES)
        times.append(time.perf_counter() - t0)
    assert sorted(times)[2] < 0.25, f"median render {sorted(times)[2] * 1000:.0f} ms"


def test_tray_shapes_come_from_the_engine_table() -> None:
    counts = {p: len(engine_orientations(p)) for p in PIECES}
    assert sum(counts.values()) == 63
    for piece in PIECES:
        theirs = {tuple(sorted(map(tuple, o))) for o in engine_orientations(piece)}
        shape = tray_shape(piece)
        assert tuple(sorted(shape)) in theirs, piece
        w = max(x for x, _ in shape) + 1
        h = max(y for _, y in shape) + 1
        assert len(shape) == 5 and w >= h and h <= 3
    assert tray_shape("I") == ((0, 0), (1, 0), (2, 0), (3, 0), (4, 0))


# ---------------------------------------------------------------------------------------------
# Read at chat size: gaps between pieces, compact trays, end screens


def test_two_pieces_of_one_colour_side_by_side_keep_a_gap_of_empty_board() -> None:
    """Every piece on a mode 2/3 board is its owner's colour: the inset is what separates them."""
    view = multi_view(2, 8, 8)
    view["boards"][0]["pieces"] = [{"piece": "I", "seat": 0, "cells": [[0, y] for y in range(5)]},
                                   {"piece": "I", "seat": 0, "cells": [[1, y] for y in range(5)]}]
    img = compose(view, "en", NAMES)
    left, right = cell_box(view, 0, (0, 2)), cell_box(view, 0, (1, 2))
    y = (left[1] + left[3]) // 2
    boundary = [img.getpixel((x, y)) for x in range(left[2] - 3, right[0] + 4)]
    assert EMPTY in boundary, "the two pieces' outlines touch"
    # Inside each piece the colour is still the owner's.
    assert _at(img, left, 0.3, 0.85) == PLAYER_COLORS[0] and _at(img, right, 0.3, 0.85) == PLAYER_COLORS[0]


def test_six_player_trays_are_compact() -> None:
    """Trays two per row: the 6-player picture was 1478x1736 with trays over 40 % of its height."""
    view = multi_view(6, 8, 8)
    img = compose(view, "en", NAMES)
    trays_top = cell_box(view, 5, (0, 7))[3] + 28
    assert img.width <= 1500 and img.height <= 1500
    assert (img.height - trays_top) / img.height < 0.25


def test_the_end_screen_highlights_the_winners() -> None:
    from render.pentactic import WINNER_FILL, tray_box

    view = multi_view(3, 8, 8)
    view["phase"], view["to_move"], view["winners"] = "over", [], [1]
    for p in view["players"]:
        p["score"] = p["total"] = 5
    img = compose(view, "en", NAMES)
    trays_top = cell_box(view, 2, (0, 7))[3] + 28
    colors = []
    for i in range(3):
        x0, y0, x1, y1 = tray_box(i, 3, img.width, trays_top)
        colors.append(img.getpixel((x1 - 8, y1 - 8)))
    assert colors[1] == WINNER_FILL
    assert colors[0] != WINNER_FILL and colors[2] != WINNER_FILL


def test_mode_1_shows_each_players_score_per_round() -> None:
    """Mode 1 is played over rounds, each player attacking in turn: the trays list every round's
    points (public: the round results are in the view)."""
    from render.pentactic import tray_box

    view = duel_view()
    view["phase"], view["to_move"], view["winners"] = "over", [], [0]
    view["round_results"] = [{"round": 1, "attacker": 0, "defender": 1, "score": 17},
                             {"round": 2, "attacker": 1, "defender": 0, "score": 12}]
    without = dict(view, round_results=[])
    a, b = compose(view, "en", NAMES), compose(without, "en", NAMES)
    trays_top = cell_box(view, 0, (0, 7))[3] + 28
    for i in range(2):
        x0, y0, x1, y1 = tray_box(i, 2, a.width, trays_top)
        line2 = (x0 + 4, y0 + 44, x1 - 4, y1 - 4)
        assert ImageChops.difference(a.crop(line2), b.crop(line2)).getbbox() is not None, i
    assert ImageChops.difference(compose(view, "en", NAMES), compose(view, "zh-TW", NAMES)).getbbox()
