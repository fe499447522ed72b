"""Seat colours stay apart for colour-blind players and are drawn as their names say.

The simulation is Machado, Oliveira & Fernandes (2009) at full severity, applied in linear RGB,
then the distance of every pair is measured in CIELAB (ΔE 1976). A ΔE of about 20 is "clearly a
different colour" at a glance; with normal vision the palette keeps twice that.
"""

from __future__ import annotations

import colorsys
import itertools
import math

import pytest

from render.common import NEUTRAL, PLAYER_COLORS, RGB

MACHADO: dict[str, tuple[tuple[float, float, float], ...]] = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}
#: Engine colour keys in seat order (engines name seats by these; the catalogs translate them).
NAMES = ("red", "yellow", "blue", "green", "purple", "black")
#: Hue ranges (degrees) that the English names cover.
HUES = {"red": (345, 12), "yellow": (45, 60), "blue": (200, 230), "green": (100, 160), "purple": (260, 295)}


def _linear(c: int) -> float:
    s = c / 255
    return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4


def _lab(rgb_linear: list[float]) -> tuple[float, float, float]:
    r, g, b = rgb_linear
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(v: float) -> float:
        return v ** (1 / 3) if v > 0.008856 else 7.787 * v + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def simulate(color: RGB, kind: str | None) -> tuple[float, float, float]:
    """``color`` as seen with ``kind`` of colour blindness (None: normal vision), in CIELAB."""
    lin = [_linear(c) for c in color]
    if kind is not None:
        m = MACHADO[kind]
        lin = [min(1.0, max(0.0, sum(m[i][j] * lin[j] for j in range(3)))) for i in range(3)]
    return _lab(lin)


def closest_pair(colors: list[RGB], kind: str | None) -> tuple[float, int, int]:
    labs = [simulate(c, kind) for c in colors]
    return min((math.dist(labs[i], labs[j]), i, j) for i, j in itertools.combinations(range(len(colors)), 2))


@pytest.mark.parametrize(("kind", "minimum"), [(None, 40.0), ("protanopia", 20.0), ("deuteranopia", 20.0),
                                               ("tritanopia", 20.0)])
def test_every_pair_of_seat_colours_stays_apart(kind: str | None, minimum: float) -> None:
    colors = [*PLAYER_COLORS, NEUTRAL]
    distance, i, j = closest_pair(colors, kind)
    assert distance >= minimum, f"{kind}: colours {i} and {j} are only ΔE {distance:.1f} apart"


def test_the_check_catches_the_old_okabe_ito_pink_and_grey() -> None:
    """The shades used before: reddish purple and the neutral grey merged for deuteranopes."""
    old = [(213, 94, 0), (240, 228, 66), (0, 114, 178), (0, 158, 115), (204, 121, 167), (40, 40, 40),
           (150, 150, 150)]
    assert closest_pair(old, "deuteranopia")[0] < 10


def test_each_colour_is_drawn_as_named() -> None:
    """A seat called Red is drawn red (not orange), Purple purple (not pink), Black near black."""
    for key, color in zip(NAMES, PLAYER_COLORS, strict=True):
        h, s, v = colorsys.rgb_to_hsv(*(c / 255 for c in color))
        if key == "black":
            assert v < 0.2, color
            continue
        lo, hi = HUES[key]
        hue = h * 360
        inside = lo <= hue <= hi if lo < hi else hue >= lo or hue <= hi
        assert inside and s > 0.5, (key, color, round(hue))
    grey_h, grey_s, grey_v = colorsys.rgb_to_hsv(*(c / 255 for c in NEUTRAL))
    assert grey_s < 0.05 and 0.4 < grey_v < 0.8


def test_engines_name_the_seats_in_the_palette_order() -> None:
    from engines.pentactic.rules import COLORS
    from render.risk import COLOR_NAMES

    assert tuple(COLORS) == NAMES == tuple(COLOR_NAMES)
