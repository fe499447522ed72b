"""Pictures next to the Pentactic orientation and corner-square buttons: what "↻4" and "b4" mean."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageDraw

from engines.pentactic import ENGINE, orientations, placement_cells
from i18n import tm
from render import render_step_picture
from render.common import INK, draw_text, player_color
from render.pentactic import (
    CHIP,
    EMPTY,
    PANEL,
    TILE_CELL,
    TILE_LABEL_H,
    TILE_LABEL_SIZE,
    compose_anchors,
    compose_orientations,
    orientation_tile_box,
    step_cell_box,
)

NAMES = ["陳瑋霈", "ダニエル"]


def _solo() -> tuple[dict, int]:
    state = ENGINE.new_state({"mode": "4", "board": "8x8"}, 1, 11)
    return state, ENGINE.pending(state)[0].seat


def _duel_picture(piece: str, seat: int = 1) -> dict:
    return {"kind": "orientations", "piece": piece, "seat": seat,
            "options": [str(i) for i in range(len(orientations(piece)))]}


def _label_crop(img: Image.Image, index: int, count: int) -> bytes:
    x0, y0, x1, _ = orientation_tile_box(index, count)
    return img.crop((x0 + 4, y0 + 4, x1 - 4, y0 + TILE_LABEL_H)).tobytes()


def _tile_shape(img: Image.Image, index: int, count: int, color: tuple[int, int, int]) -> set[tuple[int, int]]:
    """The squares drawn in ``color`` in a tile, read back from the pixels."""
    x0, y0, x1, y1 = orientation_tile_box(index, count)
    area = img.crop((x0 + 4, y0 + TILE_LABEL_H, x1 - 4, y1 - 4))
    mask = Image.new("L", area.size, 0)
    mask.putdata([255 if p == color else 0 for p in area.get_flattened_data()])
    bx0, by0, bx1, by1 = mask.getbbox()
    w, h = round((bx1 - bx0) / TILE_CELL), round((by1 - by0) / TILE_CELL)
    return {(cx, cy) for cy in range(h) for cx in range(w)
            if area.getpixel((bx0 + round((cx + 0.5) * TILE_CELL) - 1, by0 + round((cy + 0.5) * TILE_CELL) - 1))
            == color}


def _norm(cells: list) -> set[tuple[int, int]]:
    mx = min(x for x, _ in cells)
    my = min(y for _, y in cells)
    return {(x - mx, y - my) for x, y in cells}


@pytest.mark.parametrize("piece", ["F", "L", "I"])
def test_orientation_tiles_show_each_offered_shape_in_the_seat_colour(piece: str) -> None:
    picture = _duel_picture(piece)
    img = compose_orientations(picture, "en")
    assert img is not None
    count = len(picture["options"])
    table = orientations(piece)
    for i, token in enumerate(picture["options"]):
        assert _tile_shape(img, i, count, player_color(1)) == _norm(table[int(token)]), (piece, token)


def test_orientation_labels_follow_the_button_numbers_not_the_tile_position() -> None:
    full = compose_orientations(_duel_picture("F"), "en")
    assert full is not None
    labels = [_label_crop(full, i, 8) for i in range(8)]
    assert len(set(labels)) == 8, "every tile needs its own number"
    some = compose_orientations({**_duel_picture("F"), "options": ["0", "3", "6"]}, "en")
    assert some is not None
    # ↻4 is orientation "3" wherever its tile is: the same label as in the full picture.
    assert _label_crop(some, 1, 3) == labels[3]
    assert _label_crop(some, 2, 3) == labels[6]
    assert _tile_shape(some, 1, 3, player_color(1)) == _norm(orientations("F")[3])


@pytest.mark.parametrize("locale", ["en", "zh-TW"])
def test_orientation_labels_are_the_buttons_labels(locale: str) -> None:
    """Each tile's label is pixel for pixel the button's own label text drawn at the tile's top."""
    state, seat = _solo()
    step = ENGINE.step(state, seat, ["place", "N"])
    img = compose_orientations(step.picture, locale)
    assert img is not None
    count = len(step.options)
    for i, opt in enumerate(step.options):
        x0, y0, x1, y1 = orientation_tile_box(i, count)
        ref = img.crop((x0, y0, x1, y1)).copy()
        ImageDraw.Draw(ref).rectangle((14, 14, x1 - x0 - 14, TILE_LABEL_H), fill=PANEL)
        draw_text(ImageDraw.Draw(ref), ((x1 - x0) / 2, TILE_LABEL_H / 2 + 2), tm(locale, opt.label),
                  TILE_LABEL_SIZE, INK, bold=True, anchor="mm")
        assert ref.tobytes() == img.crop((x0, y0, x1, y1)).tobytes(), f"tile {i} is not labelled {opt.label}"


def test_anchor_picture_marks_exactly_the_offered_squares_and_ghosts_one() -> None:
    state, seat = _solo()
    step = ENGINE.step(state, seat, ["place", "L", "2"])
    picture = step.picture
    assert picture is not None and picture["kind"] == "anchors"
    view = ENGINE.view(state, seat)
    img = compose_anchors(view, picture, "en", NAMES)
    assert img is not None
    offered = {opt.value for opt in step.options}
    assert offered == set(picture["options"]) and len(offered) > 5
    occupied = {tuple(c["cell"]) for c in view["boards"][0]["discs"]}
    ghost_squares: set[tuple[int, int]] = set()
    for y in range(view["height"]):
        for x in range(view["width"]):
            token = f"{chr(97 + x)}{y + 1}"
            box = step_cell_box(view, (x, y))
            colors = dict((c, n) for n, c in img.crop(box).getcolors(100_000))
            chip = colors.get(CHIP, 0)
            if token in offered:
                assert chip > 200, f"{token} is offered but not marked"
            else:
                assert chip == 0, f"{token} is marked but not offered"
                if (x, y) not in occupied and EMPTY not in colors:
                    ghost_squares.add((x, y))
    # Every unmarked empty square painted over belongs to the ghost, which sits at an offered corner.
    assert ghost_squares
    assert any(ghost_squares <= set(placement_cells("L", 2, token, view["width"], view["height"]))
               for token in offered)


def test_anchor_labels_differ_per_square() -> None:
    state, seat = _solo()
    step = ENGINE.step(state, seat, ["place", "I", "0"])
    view = ENGINE.view(state, seat)
    img = compose_anchors(view, step.picture, "en", NAMES)
    assert img is not None
    crops = set()
    for token in step.picture["options"][:12]:
        x, y = ord(token[0]) - 97, int(token[1:]) - 1
        x0, y0, x1, y1 = step_cell_box(view, (x, y))
        crops.add(img.crop((x0 + 12, y0 + 24, x1 - 12, y1 - 24)).tobytes())
    assert len(crops) == min(12, len(step.picture["options"]))


def test_render_step_picture_dispatches_and_declines_politely() -> None:
    state, seat = _solo()
    view = ENGINE.view(state, seat)
    for path in (["place", "F"], ["place", "F", "0"]):
        picture = ENGINE.step(state, seat, path).picture
        png = render_step_picture(view, picture, "zh-TW", NAMES)
        assert png is not None
        img = Image.open(io.BytesIO(png))
        assert img.format == "PNG" and 300 <= img.width <= 1000 and len(png) < 400_000
    assert render_step_picture(view, {"kind": "nonsense"}, "en", NAMES) is None
    assert render_step_picture(view, {**_duel_picture("F"), "options": ["99"]}, "en", NAMES) is None
    assert render_step_picture({**view, "game": "risk"}, {"kind": "orientations"}, "en", NAMES) is None
    assert render_step_picture({**view, "game": "no_such_game"}, {}, "en", NAMES) is None


def test_orientation_tile_background_is_the_panel() -> None:
    img = compose_orientations(_duel_picture("X"), "en")
    assert img is not None
    x0, y0, x1, y1 = orientation_tile_box(0, 1)
    assert img.getpixel((x0 + 10, y1 - 10)) == PANEL


def test_anchor_chips_sit_in_the_squares_top_left_corner() -> None:
    """The choice names the corner of the piece's box, so its chip is in that corner and leaves
    the rest of the square (and the example ghost under it) visible."""
    state, seat = _solo()
    step = ENGINE.step(state, seat, ["place", "L", "2"])
    view = ENGINE.view(state, seat)
    img = compose_anchors(view, step.picture, "en", NAMES)
    assert img is not None
    for token in step.picture["options"]:
        x, y = ord(token[0]) - 97, int(token[1:]) - 1
        x0, y0, x1, y1 = step_cell_box(view, (x, y))
        half = (x1 - x0) // 2
        quarter = [img.crop(box).getcolors(100_000) or [] for box in (
            (x0, y0, x0 + half, y0 + half), (x0 + half, y0 + half, x1, y1))]
        top_left, bottom_right = ({c: n for n, c in q}.get(CHIP, 0) for q in quarter)
        assert top_left > 50, token
        assert bottom_right == 0, token


def test_the_anchor_pictures_example_ghost_is_clearly_visible() -> None:
    """The example piece must read at chat size: its squares differ strongly from empty board."""
    state, seat = _solo()
    step = ENGINE.step(state, seat, ["place", "L", "2"])
    view = ENGINE.view(state, seat)
    img = compose_anchors(view, step.picture, "en", NAMES)
    assert img is not None
    offered = set(step.picture["options"])
    occupied = {tuple(c["cell"]) for c in view["boards"][0]["discs"]}
    strong = 0
    for token in offered:
        for cx, cy in placement_cells("L", 2, token, view["width"], view["height"]) or []:
            if (cx, cy) in occupied:
                continue
            x0, y0, x1, y1 = step_cell_box(view, (cx, cy))
            pixel = img.getpixel((x0 + (x1 - x0) * 3 // 4, y0 + (y1 - y0) * 3 // 4))
            strong += sum(abs(a - b) for a, b in zip(pixel, EMPTY, strict=True)) > 120
    assert strong >= 3
