"""The numbers that matter stay readable at the size Discord shows a picture.

Discord shows an attached image about 550 px wide on a desktop (350 px on a phone), whatever its
real width. Each game's mid-game picture is rendered twice with only one number changed (an army
count, a score), both are shrunk to 550 px wide the way a client does, and the box of the pixels
that changed is that number as the user sees it: its height must be at least 9 px. The digits'
own ink (without the outline) is checked too, from the font size the renderer uses.
"""

from __future__ import annotations

import copy
import io
import random
from typing import Any

import pytest
from PIL import Image, ImageChops

from engines.registry import get
from render import render_board
from render.common import font

CHAT_WIDTH = 550
MIN_DIGIT_PX = 9.0
NAMES = ["Alice", "Bob", "陳小明", "Dmitri", "Eve", "Fay"]


def _mid_game(slug: str, options: dict[str, str], seats: int, moves: int, seed: int = 5) -> dict[str, Any]:
    engine = get(slug)
    state = engine.new_state(engine.normalize_options(options), seats, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        pending = engine.pending(state)
        if not pending:
            break
        seat = pending[0].seat
        after, _ = engine.apply(state, seat, engine.ai_action(state, seat, rng))
        if not engine.pending(after):
            break  # keep the last running state: the AI may win sooner than ``moves``
        state = after
    assert engine.pending(state), "the game must still be running"
    return engine.view(state, None)


def _at_chat_size(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png)).convert("RGB")
    w, h = img.size
    return img.resize((CHAT_WIDTH, round(h * CHAT_WIDTH / w)), Image.Resampling.LANCZOS)


def changed_height(a: bytes, b: bytes) -> float:
    """Height in pixels, at 550 px wide, of the region where two renders differ clearly."""
    diff = ImageChops.difference(_at_chat_size(a), _at_chat_size(b)).convert("L")
    box = diff.point(lambda v: 255 if v > 48 else 0).getbbox()
    assert box is not None, "changing the number changed nothing"
    return box[3] - box[1]


def ink_height(size: int, width: int) -> float:
    """Height at 550 px of the digits 0-9 drawn bold at ``size`` in a ``width`` px wide image."""
    left, top, right, bottom = font(size, True).getbbox("0123456789", anchor="ls")
    return (bottom - top) * CHAT_WIDTH / width


@pytest.mark.parametrize(("options", "seats"), [({}, 4), ({"variant": "hq"}, 3), ({}, 6)])
def test_risk_army_numbers_are_readable_at_550_px(options: dict[str, str], seats: int) -> None:
    from render.risk import army_font_size

    view = _mid_game("risk", options, seats, 250)
    # A territory in the middle of the map, its count set to two different two-digit numbers.
    a, b = copy.deepcopy(view), copy.deepcopy(view)
    a["territories"]["ukraine"]["armies"] = 11
    b["territories"]["ukraine"]["armies"] = 88
    png_a, png_b = render_board(a, "en", NAMES[:seats]), render_board(b, "en", NAMES[:seats])
    width = Image.open(io.BytesIO(png_a)).width
    assert changed_height(png_a, png_b) >= MIN_DIGIT_PX
    assert army_font_size(88) >= 26
    assert ink_height(army_font_size(88), width) >= MIN_DIGIT_PX


@pytest.mark.parametrize(("options", "seats", "moves"), [({"mode": "1"}, 2, 6), ({"mode": "2"}, 2, 10),
                                                         ({"mode": "3"}, 6, 14)])
def test_pentactic_scores_are_readable_at_550_px(options: dict[str, str], seats: int, moves: int) -> None:
    from render.pentactic import score_size

    view = _mid_game("pentactic", options, seats, moves)
    a, b = copy.deepcopy(view), copy.deepcopy(view)
    a["players"][0]["score"] = 11
    b["players"][0]["score"] = 88
    png_a, png_b = render_board(a, "en", NAMES[:seats]), render_board(b, "en", NAMES[:seats])
    width = Image.open(io.BytesIO(png_a)).width
    assert changed_height(png_a, png_b) >= MIN_DIGIT_PX
    assert ink_height(score_size(width), width) >= MIN_DIGIT_PX


@pytest.mark.parametrize("seats", [2, 5, 8, 10])
def test_sanguosha_hand_sizes_hp_and_distances_are_readable_at_550_px(seats: int) -> None:
    from render.sanguosha import DIST_SIZE, NUMBER_SIZE

    view = _mid_game("sanguosha", {"heroes": "beginner"}, seats, 60 * seats)
    names = (NAMES * 2)[:seats]
    other = next(p["seat"] for p in view["players"] if p["seat"] != view["turn"] and p["alive"])
    for field in ("hand", "distance"):
        a, b = copy.deepcopy(view), copy.deepcopy(view)
        a["players"][other][field] = 3 if field == "hand" else 2
        b["players"][other][field] = 8 if field == "hand" else 5
        png_a, png_b = render_board(a, "en", names), render_board(b, "en", names)
        assert changed_height(png_a, png_b) >= MIN_DIGIT_PX, field
    width = Image.open(io.BytesIO(png_a)).width
    assert ink_height(NUMBER_SIZE, width) >= MIN_DIGIT_PX  # HP, hand size, deck and discard counts
    assert ink_height(DIST_SIZE, width) >= MIN_DIGIT_PX


@pytest.mark.parametrize("seats", [5, 10])
def test_sanguosha_hero_names_are_readable_at_550_px(seats: int) -> None:
    """Standard heroes: each panel names its hero (and kingdom) large enough to read in chat."""
    view = _mid_game("sanguosha", {"heroes": "standard"}, seats, 40 * seats)
    names = (NAMES * 2)[:seats]
    seat = view["players"][1]["seat"]
    a, b = copy.deepcopy(view), copy.deepcopy(view)
    a["players"][seat]["hero"], b["players"][seat]["hero"] = "lvbu", "zhugeliang"
    assert changed_height(render_board(a, "zh-TW", names), render_board(b, "zh-TW", names)) >= MIN_DIGIT_PX
