"""The fast Risk render (cached map bases, patched territories, cached glyph masks) draws exactly
the picture the whole composite draws, and the PNG helper's palette filter and level hold."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageStat

from render import common, risk
from render.common import font, stamp_text, to_png

NAMES = ["Alice", "Bob 🐉", "陳小明", "Łukasz", "王大力", "Zoë"]


def _game_views(variant: str, seats: int, seed: int, every: int) -> list[dict[str, Any]]:
    from engines.risk import ENGINE

    state = ENGINE.new_state({"variant": variant, "setup": "quick"}, seats, seed)
    rng = random.Random(seed)
    out = [ENGINE.view(state, None)]
    for i in range(600):
        if ENGINE.result(state) is not None:
            break
        seat = ENGINE.pending(state)[0].seat
        state, _ = ENGINE.apply(state, seat, ENGINE.ai_action(state, seat, rng))
        if i % every == 0:
            out.append(ENGINE.view(state, None))
    out.append(ENGINE.view(state, None))
    return out


def _reference(view: dict[str, Any], locale: str, overlay: dict[str, Any] | None = None) -> Image.Image:
    """The whole composite with Pillow drawing every glyph itself."""
    common.TEXT_CACHE = False
    try:
        return risk.render_image_reference(view, locale, NAMES, overlay)
    finally:
        common.TEXT_CACHE = True


def _same(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and ImageChops.difference(a.convert("RGB"), b.convert("RGB")).getbbox() is None


@pytest.fixture(autouse=True)
def _fresh_bases() -> None:
    risk._bases.clear()


@pytest.mark.parametrize(("variant", "seats", "locale"), [("hq", 4, "en"), ("mission", 6, "zh-TW")])
def test_a_game_rendered_in_turn_equals_the_whole_composite(variant: str, seats: int, locale: str) -> None:
    # Consecutive views differ by a few owners: each render patches the previous base.
    views = _game_views(variant, seats, seed=11, every=9)
    assert len(views) > 10
    for view in views:
        assert _same(risk.render_image(view, locale, NAMES), _reference(view, locale))


def test_highlights_and_the_battle_arrow_are_redrawn_under_the_names() -> None:
    view = next(v for v in reversed(_game_views("classic", 3, seed=4, every=5)) if v.get("last_battle"))
    overlay = {"highlight": ["alaska", "kamchatka", "brazil", "east_africa"]}
    assert _same(risk.render_image(view, "en", NAMES, overlay), _reference(view, "en", overlay))
    # The same base without the arrow stays clean for the next render.
    calm = dict(view, last_battle=None)
    assert _same(risk.render_image(calm, "en", NAMES), _reference(calm, "en"))


def test_one_conquest_recomposes_only_that_territory(monkeypatch: pytest.MonkeyPatch) -> None:
    view = _game_views("classic", 4, seed=3, every=50)[-2]
    risk.render_image(view, "en", NAMES)
    moved = dict(view, territories={k: dict(v) for k, v in view["territories"].items()})
    tid = "brazil"
    moved["territories"][tid]["owner"] = (view["territories"][tid]["owner"] + 1) % 4
    boxes: list[tuple[int, int, int, int]] = []
    real = risk._under_names
    monkeypatch.setattr(risk, "_under_names", lambda loc, fills, box: boxes.append(box) or real(loc, fills, box))
    img = risk.render_image(moved, "en", NAMES)
    brazil = risk.territory_boxes()[risk.layout().territories.index(tid)]
    assert brazil in boxes
    full = (0, 0, *img.size)
    assert full not in boxes
    monkeypatch.setattr(risk, "_under_names", real)
    assert _same(img, _reference(moved, "en"))


@pytest.mark.parametrize("stroke", [0, 2])
def test_cached_glyph_masks_draw_what_pillow_draws(stroke: int) -> None:
    face = font(32, True)
    imgs = []
    for cached in (True, False):
        common.TEXT_CACHE = cached
        try:
            img = Image.new("RGB", (200, 80), (120, 60, 200))
            d = ImageDraw.Draw(img)
            for i, text in enumerate(("17", "陳小明", "408")):
                stamp_text(d, (20.37 + 55 * i, 50.61), text, face, (255, 255, 255), "ms", stroke,
                           (20, 20, 24) if stroke else None)
                stamp_text(d, (20.37 + 55 * i, 50.61), text, face, (255, 255, 255), "ms", stroke,
                           (20, 20, 24) if stroke else None)  # second time from the cache
            imgs.append(img)
        finally:
            common.TEXT_CACHE = True
    assert _same(*imgs)


def test_palette_filter_drops_shades_next_to_fixed_colours() -> None:
    near = common._near_fixed(((100, 100, 100),))
    assert (106, 94, 100) in near and (107, 100, 100) not in near and (100, 100, 100) in near


def test_board_png_stays_small_and_lossless_to_its_palette() -> None:
    view = _game_views("hq", 5, seed=2, every=100)[-1]
    img = risk.render_image(view, "zh-TW", NAMES)
    png = to_png(img)
    assert len(png) < 400 * 1024
    decoded = Image.open(io.BytesIO(png))
    assert decoded.mode == "P"
    # Quantisation noise only: on average a pixel moves by less than 2 levels per channel.
    diff = ImageStat.Stat(ImageChops.difference(decoded.convert("RGB"), img))
    assert max(diff.mean) < 2.0
