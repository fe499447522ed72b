"""Player names in images: any length fits fast, emoji never become U+FFFD or boxes."""

from __future__ import annotations

import time

from test_pentactic_render import multi_view
from test_risk_render import make_view

from render import render_board
from render.common import text_fit, text_width

LONG = "W" * 800


def test_text_fit_cuts_to_the_longest_prefix_that_fits() -> None:
    fitted, size = text_fit(LONG, 300, 22, bold=True, min_size=14)
    assert size == 14 and fitted.endswith("…")
    assert text_width(fitted, 14, bold=True) <= 300
    assert text_width(fitted[:-1] + "W…", 14, bold=True) > 300
    assert text_fit("ab", 300, 22) == ("ab", 22)
    assert text_fit("WWWW", 1, 22, min_size=12) == ("", 12)
    fitted, size = text_fit("W" * 20, text_width("W" * 20, 17), 22, min_size=12)
    assert (fitted, size) == ("W" * 20, 17)  # the largest size that fits, uncut


def test_an_800_character_name_renders_every_board_in_under_half_a_second() -> None:
    """Shortening one character at a time was quadratic: seconds per image for such a name."""
    for view, seats in ((multi_view(4), 4), (make_view(6), 6)):
        render_board(view, "en", ["W"] * seats)  # static layers (the Risk map) are built once
        start = time.perf_counter()
        render_board(view, "en", [LONG] * seats)
        assert time.perf_counter() - start < 0.5, view["game"]
