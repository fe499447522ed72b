"""Risk continents read as outlined regions whoever owns them (issue 7): a ring round each
continent out at sea and a line where two continents meet on land, in one neutral colour that no
seat uses — instead of a legend whose continent colours reused the players' colours."""

from __future__ import annotations

import math

from PIL import Image, ImageChops, ImageFilter

from render.common import PLAYER_COLORS
from render.risk_background import CONTINENT_LINE, SEA_BOTTOM, SEA_TOP, _continent_rings, _land_lines
from render.risk_map import geometry, layout


def _count(mask: Image.Image) -> int:
    """Non-zero pixels of an L mask."""
    return sum(mask.histogram()[1:])


def _band(mask: Image.Image, cells: float) -> Image.Image:
    """``mask`` grown by about ``cells`` map cells. A box blur thresholded at "anything" is a
    square dilation in linear time (a MaxFilter that wide took most of a minute)."""
    radius = max(1, int(layout().cell * cells) // 2)
    return mask.filter(ImageFilter.BoxBlur(radius)).point(lambda v: 255 if v > 0 else 0)


def test_every_continent_has_a_ring_at_sea() -> None:
    lay, geo = layout(), geometry()
    alpha = _continent_rings(lay).getchannel("A").point(lambda v: 255 if v > 64 else 0)
    sea = geo.continents.point(lambda v: 255 if v == 0 else 0)
    for i, cid in enumerate(lay.continents, start=1):
        land = geo.continents.point(lambda v, i=i: 255 if v == i else 0)
        near = ImageChops.multiply(_band(land, 2.5), sea)
        ring = ImageChops.multiply(near, alpha)
        ring_px = _count(ring)
        assert ring_px > 200, f"{cid}: no outline at sea ({ring_px} px)"


def test_land_borders_between_continents_are_lined() -> None:
    lay, geo = layout(), geometry()
    lines = _land_lines(lay).getchannel("A").point(lambda v: 255 if v > 64 else 0)
    borders = geo.continent_borders.point(lambda v: 255 if v else 0)
    on_border = _count(ImageChops.multiply(_band(borders, 0.3), lines))
    assert on_border > 0.5 * _count(borders)


def test_the_outline_colour_is_no_seats_colour() -> None:
    assert all(math.dist(CONTINENT_LINE, c) > 60 for c in PLAYER_COLORS)


def test_the_shipped_map_layer_draws_the_rings() -> None:
    """The rings reach the picture: where they are strongest, the static layer shows their colour."""
    from PIL import ImageStat

    from render.risk_background import static_layer

    lay = layout()
    strong = _continent_rings(lay).getchannel("A").point(lambda v: 255 if v > 180 else 0)
    assert _count(strong) > 1000
    drawn = static_layer("en").crop((0, 0, *lay.size)).convert("RGB")
    mean = ImageStat.Stat(drawn, mask=strong).mean
    sea = [SEA_TOP, SEA_BOTTOM]
    assert all(math.dist(mean, CONTINENT_LINE) < math.dist(mean, c) / 2 for c in sea), mean
