"""Player names in images: any length fits fast, emoji never become U+FFFD or boxes."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from PIL import Image, ImageDraw, ImageFont
from test_pentactic_render import multi_view
from test_risk_render import make_view

from render import fonts, render_board
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


def _glyph(ch: str, face: ImageFont.FreeTypeFont, size: int = 32) -> Image.Image:
    img = Image.new("L", (size * 2, size * 2), 0)
    ImageDraw.Draw(img).text((4, 4), ch, font=face, fill=255)
    return img


def _is_box(img: Image.Image) -> bool:
    """A tofu box: the ink's bounding box is outlined and its inside mostly empty."""
    box = img.getbbox()
    assert box is not None
    x0, y0, x1, y1 = box
    inner = img.crop((x0 + 3, y0 + 3, x1 - 3, y1 - 3))
    return inner.getbbox() is None or inner.point(lambda v: 255 if v > 128 else 0).histogram()[255] < inner.width * inner.height * 0.03


@pytest.mark.parametrize("bold", [False, True])
def test_emoji_in_a_name_draw_real_emoji_glyphs_from_the_shipped_font(bold: bool) -> None:
    """😀🎲 used to come out as U+FFFD: they are drawn by the shipped monochrome emoji subset."""
    runs = fonts.styled_runs("Ann 😀🎲", 32, bold)
    assert "".join(r.text for r in runs) == "Ann 😀🎲", "nothing replaced or dropped"
    emoji_run = runs[-1]
    assert emoji_run.text == "😀🎲" and Path(emoji_run.font.path) == fonts.EMOJI and emoji_run.stroke == 0
    replacement = _glyph(fonts.REPLACEMENT, fonts.font(32, bold)).tobytes()
    drawn = []
    for ch in "😀🎲":
        assert fonts.has_glyph(fonts.EMOJI, ch)
        img = _glyph(ch, emoji_run.font)
        assert img.tobytes() != replacement and not _is_box(img), f"{ch!r} drew a box"
        drawn.append(img.tobytes())
    assert drawn[0] != drawn[1], "two different emoji must not draw the same (tofu) glyph"


def test_an_emoji_no_font_has_draws_a_stand_in_emoji_not_the_replacement_character() -> None:
    runs = fonts.styled_runs("x🥰\U000E0001", 32)  # 🥰: Unicode 11; a tag character: invisible
    assert "".join(r.text for r in runs) == "x" + fonts.EMOJI_STANDIN
    assert "\ufffd" not in "".join(r.text for r in fonts.styled_runs("👍🏽 🇹🇼 ♠", 32))


def test_a_board_with_emoji_names_shows_them_not_replacement_marks() -> None:
    """The whole render path: a name of emoji gives other pixels than the same name as U+FFFD
    (🎲🐉: no system font here has them; DejaVu Sans has 😀)."""
    view = multi_view(2)
    emoji = render_board(view, "en", ["🎲🐉", "Bob"])
    assert emoji != render_board(view, "en", ["\ufffd\ufffd", "Bob"])
    assert emoji != render_board(view, "en", ["", "Bob"])
