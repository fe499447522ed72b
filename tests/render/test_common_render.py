"""The shared render base: shipped font, glyph fallback, colours, text helpers, PNG output."""

from __future__ import annotations

import io
import itertools
import unicodedata
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont
from PIL import Image, ImageDraw

from render import fonts
from render.common import (
    NEUTRAL,
    PLAYER_COLORS,
    draw_text,
    draw_text_centered,
    font,
    player_color,
    text_color_on,
    text_fit,
    text_width,
    to_png,
)

ROOT = Path(__file__).resolve().parents[2]
REBUILD = "re-run `.venv/bin/python tools/make_font_subset.py` and commit data/fonts/"


def _glyph_bitmap(text: str, size: int = 48, bold: bool = False) -> bytes:
    img = Image.new("L", (size * 2, size * 2), 0)
    ImageDraw.Draw(img).text((4, 4), text, font=font(size, bold), fill=255)
    return img.tobytes()


@pytest.fixture(scope="module")
def cmaps() -> dict[bool, set[int]]:
    return {bold: set(TTFont(str(path), lazy=True).getBestCmap())
            for bold, path in ((False, fonts.REGULAR), (True, fonts.BOLD))}


def test_shipped_fonts_are_small_and_licensed() -> None:
    total = sum(p.stat().st_size for p in fonts.FONT_DIR.rglob("*") if p.is_file())
    assert total < 12_000_000, f"data/fonts takes {total:,} bytes (budget 12 MB)"
    licence = (fonts.FONT_DIR / "OFL.txt").read_text(encoding="utf-8")
    assert "SIL OPEN FONT LICENSE Version 1.1" in licence
    assert "PERMISSION & CONDITIONS" in licence


def test_font_is_cached_and_bold_is_a_different_face() -> None:
    assert font(20) is font(20)
    assert font(20, bold=True) is not font(20)
    assert font(20).getname()[0] == "Noto Sans CJK SC"
    assert _glyph_bitmap("戰", bold=True) != _glyph_bitmap("戰")


@pytest.mark.parametrize("word", ["戰術棋", "战术棋"])
@pytest.mark.parametrize("bold", [False, True])
def test_chinese_renders_as_glyphs_not_boxes(word: str, bold: bool) -> None:
    notdef = _glyph_bitmap("\U0010fffd", bold=bold)
    seen = set()
    for ch in word:
        bitmap = _glyph_bitmap(ch, bold=bold)
        assert any(bitmap), f"{ch!r} rendered nothing"
        assert bitmap != notdef, f"{ch!r} rendered as the .notdef box"
        seen.add(bitmap)
    assert len(seen) == len(set(word)), "different characters rendered identically"


def _not_in_source() -> set[str]:
    """Characters the build script found our data using but Noto Sans CJK itself lacking."""
    path = fonts.FONT_DIR / "not-in-source.txt"
    return {line.split(" ", 1)[1] for line in path.read_text(encoding="utf-8").splitlines()
            if line.startswith("U+")}


def test_subset_covers_every_catalog_character(cmaps: dict[bool, set[int]]) -> None:
    used: set[str] = set()
    for path in (ROOT / "data" / "i18n").glob("**/*.toml"):
        used.update(c for c in path.read_text(encoding="utf-8") if c >= " ")
    assert used, "no catalogs found"
    fallback = _not_in_source()
    for bold, cmap in cmaps.items():
        missing = sorted(c for c in used if ord(c) not in cmap and c not in fallback)
        assert not missing, (f"{'bold' if bold else 'regular'} font lacks {''.join(missing[:40])!r} "
                             f"used in data/i18n: {REBUILD}")


def test_only_symbols_are_left_to_the_fallback() -> None:
    """What the source font lacks may be emoji, never letters, digits or punctuation."""
    for ch in _not_in_source():
        assert unicodedata.category(ch)[0] in "SC", f"{ch!r} is not a symbol"
        assert fonts.runs(f"a{ch}b", 20), "fallback must still draw something"


def test_subset_has_common_hanzi_both_scripts(cmaps: dict[bool, set[int]]) -> None:
    sample = "的一是了我不在人有他这个们中来上大为和国地到以说时要就出会可也你对生能而子那得于着下自之年过发后作里用道行所然家种事成方多经么去法学如都同现当没动面起看定天分还进好小部其些主样理心她本前开但因只从想实"
    sample += "們個這來說時會對過後裡動還進從實戰術棋盤勝輪擊連塊"
    for bold, cmap in cmaps.items():
        missing = [c for c in sample if ord(c) not in cmap]
        assert not missing, f"{'bold' if bold else 'regular'} lacks {''.join(missing)}: {REBUILD}"


def test_has_glyph_agrees_with_the_font_cmap(cmaps: dict[bool, set[int]]) -> None:
    probes = "Aé戰战·、😀\u0e01\u05d0\ufffd" + "".join(chr(c) for c in range(0x2600, 0x2610))
    for ch in probes:
        assert fonts.has_glyph(fonts.REGULAR, ch) == (ord(ch) in cmaps[False]), repr(ch)


def test_missing_glyphs_fall_back_instead_of_crashing() -> None:
    text = "Bob 🥰 👍🏽\ufe0f\U0001d173 陳"  # 🥰 is newer than the shipped emoji (Unicode 9)
    parts = fonts.runs(text, 24)
    drawn = "".join(p for p, _ in parts)
    assert "🥰" not in drawn, "a character no font has must be replaced"
    assert "\U0001d173" not in drawn, "an invisible format character no font has must be dropped"
    assert drawn.startswith("Bob ") and drawn.endswith(" 陳")
    for part, face in parts:
        path = Path(face.path)
        for ch in part:
            assert fonts.has_glyph(path, ch, face.index), f"{ch!r} drawn with {path.name}, which lacks it"
    img = Image.new("RGB", (400, 60), (255, 255, 255))
    width = draw_text(ImageDraw.Draw(img), (5, 5), text, 24, (0, 0, 0))
    assert width == pytest.approx(text_width(text, 24))
    assert img.getbbox() is not None and width > text_width("Bob  陳", 24)
    assert "\ufffd" not in fonts.clean("棋 ok") and fonts.clean("x🐉") in {"x\ufffd", "x?"}


def test_text_fit_shrinks_then_ellipsizes() -> None:
    text, size = text_fit("Pentactic", 1000, 30)
    assert (text, size) == ("Pentactic", 30)
    text, size = text_fit("Pentactic", text_width("Pentactic", 30) - 20, 30, min_size=10)
    assert text == "Pentactic" and 10 <= size < 30
    assert text_width(text, size) <= text_width("Pentactic", 30) - 20
    long = "一個非常非常長的玩家名字" * 5
    text, size = text_fit(long, 120, 24, min_size=16)
    assert size == 16 and text.endswith("…") and len(text) < len(long)
    assert text_width(text, 16) <= 120


def test_draw_text_centered_centres_the_ink() -> None:
    img = Image.new("L", (300, 100), 0)
    box = (50, 20, 250, 80)
    used = draw_text_centered(ImageDraw.Draw(img), box, "HH", 30, 255)
    assert used == 30
    x0, y0, x1, y1 = img.getbbox()
    assert abs((x0 + x1) / 2 - 150) <= 2
    assert abs((y0 + y1) / 2 - 50) <= 3


def test_player_colours_are_distinct_and_neutral_is_separate() -> None:
    assert len(PLAYER_COLORS) == 6 and len(set(PLAYER_COLORS)) == 6
    assert NEUTRAL not in PLAYER_COLORS
    for a, b in itertools.combinations([*PLAYER_COLORS, NEUTRAL], 2):
        assert sum((p - q) ** 2 for p, q in zip(a, b, strict=True)) ** 0.5 > 60, (a, b)
    assert player_color(0) == PLAYER_COLORS[0]
    assert player_color(None) == NEUTRAL and player_color(-1) == NEUTRAL and player_color(6) == NEUTRAL
    yellow, black = PLAYER_COLORS[1], PLAYER_COLORS[5]
    assert sum(text_color_on(yellow)) < 200 and sum(text_color_on(black)) > 600


def test_to_png_is_palette_and_keeps_player_colours_exact() -> None:
    img = Image.new("RGB", (900, 700), (250, 247, 240))
    d = ImageDraw.Draw(img)
    for i, color in enumerate(PLAYER_COLORS):
        d.rectangle((10 + i * 140, 10, 140 + i * 140, 300), fill=color)
    for y in range(320, 700, 3):  # a smooth gradient: far more than 256 colours
        d.line((0, y, 900, y), fill=(y % 256, (y * 3) % 256, (y * 7) % 256), width=3)
    draw_text(d, (20, 330), "戰術棋 Pentactic", 60, (0, 0, 0))
    assert img.getcolors(256) is None
    data = to_png(img)
    out = Image.open(io.BytesIO(data))
    assert out.format == "PNG" and out.mode == "P" and out.size == img.size
    rgb = out.convert("RGB")
    for i, color in enumerate(PLAYER_COLORS):
        assert rgb.getpixel((70 + i * 140, 150)) == color
    assert len(data) < len(_rgb_png(img))


def test_to_png_is_lossless_for_few_colours() -> None:
    img = Image.new("RGB", (200, 100), (10, 20, 30))
    ImageDraw.Draw(img).rectangle((50, 20, 150, 80), fill=PLAYER_COLORS[2])
    out = Image.open(io.BytesIO(to_png(img))).convert("RGB")
    assert out.tobytes() == img.tobytes()


def _rgb_png(img: Image.Image) -> bytes:
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    return buf.getvalue()


def _codec_chars(codec: str, lead: range, trail: list[int], last: tuple[int, int] = (0xFF, 0xFF)) -> set[str]:
    out: set[str] = set()
    for hi in lead:
        for lo in trail:
            if (hi, lo) > last:
                break
            try:
                out.update(bytes([hi, lo]).decode(codec))
            except UnicodeDecodeError:
                continue
    return {c for c in out if unicodedata.name(c, "").startswith("CJK UNIFIED IDEOGRAPH")}


BIG5_TRAIL = [*range(0x40, 0x7F), *range(0xA1, 0xFF)]


def test_regular_face_covers_name_scripts(cmaps: dict[bool, set[int]]) -> None:
    """All of GB2312 and Big5, the whole URO block, kana, Bopomofo and every Hangul syllable."""
    gb = _codec_chars("gb2312", range(0xB0, 0xF8), list(range(0xA1, 0xFF)))
    big5 = _codec_chars("big5", range(0xA4, 0xFA), BIG5_TRAIL, last=(0xF9, 0xD5))
    # Big5 has 13,053 hanzi positions; two characters (兀 嗀) are encoded twice.
    assert len(gb) == 6763 and len(big5) == 13_051
    wanted = {ord(c) for c in gb | big5}
    # Noto CJK 2.004 stops at U+9FEF (Unicode 11); the 16 ideographs added after are not in it.
    wanted |= set(range(0x4E00, 0x9FF0)) | set(range(0xAC00, 0xD7A4))
    wanted |= set(range(0x3041, 0x3097)) | set(range(0x30A1, 0x30FB)) | set(range(0x3105, 0x3130))
    missing = sorted(wanted - cmaps[False])
    assert not missing, f"regular lacks {len(missing)} name characters, e.g. {''.join(map(chr, missing[:20]))}"
    common = {ord(c) for c in gb | _codec_chars("big5", range(0xA4, 0xC7), BIG5_TRAIL, last=(0xC6, 0x7E))}
    assert not common - cmaps[True], "the bold face must keep all of GB2312 and Big5 level 1"


NAMES = ["陳瑋霈", "林霈瀅", "張喆", "王堃", "ダニエル", "さくら", "김민준", "ㄅㄆㄇㄈ", "Zoë Nguyễn", "Наташа"]


@pytest.mark.parametrize("bold", [False, True])
@pytest.mark.parametrize("name", NAMES)
def test_player_names_draw_real_glyphs_from_the_shipped_fonts(name: str, bold: bool) -> None:
    parts = fonts.styled_runs(name, 32, bold)
    assert "".join(r.text for r in parts) == name, "no character may be replaced or dropped"
    replacement = _glyph_bitmap(fonts.REPLACEMENT, 32, bold)
    for run in parts:
        path = Path(run.font.path)
        assert path in (fonts.REGULAR, fonts.BOLD), f"{run.text!r} needs {path.name}: not shipped"
        for ch in run.text.replace(" ", ""):
            assert fonts.has_glyph(path, ch), f"{ch!r} is .notdef in {path.name}"
            img = Image.new("L", (64, 64), 0)
            ImageDraw.Draw(img).text((4, 4), ch, font=run.font, fill=255)
            assert img.getbbox() is not None and img.tobytes() != replacement, f"{ch!r} drew nothing real"


def _ink(text: str, size: int, bold: bool) -> int:
    img = Image.new("L", (size * (len(text) + 2), size * 2), 0)
    draw_text(ImageDraw.Draw(img), (4, 4), text, size, 255, bold=bold)
    return sum(img.histogram()[v] * v for v in range(256)) // 255


def test_bold_text_the_bold_face_lacks_is_stroked_regular(cmaps: dict[bool, set[int]]) -> None:
    rare = "瑋瀅喆堃ダニエル김민준"
    assert all(ord(c) not in cmaps[True] and ord(c) in cmaps[False] for c in "瑋瀅喆堃김민준")
    parts = fonts.styled_runs(rare, 30, bold=True)
    assert [Path(r.font.path) for r in parts if r.stroke] == [fonts.REGULAR] * sum(1 for r in parts if r.stroke)
    assert any(r.stroke == pytest.approx(fonts.BOLD_STROKE * 30) for r in parts)
    # Faux bold is heavier than regular and about as heavy as the real Bold face on common text.
    ratio = _ink(rare, 30, True) / _ink(rare, 30, False)
    real = _ink("陳王林張小明", 30, True) / _ink("陳王林張小明", 30, False)
    assert 1.25 < ratio < 1.9 and abs(ratio - real) < 0.3, (ratio, real)


def test_system_noto_cjk_is_an_optional_fallback() -> None:
    """An Extension A ideograph (not shipped) comes from the system's full Noto CJK if present."""
    ch = "\u3400"
    src = fonts.source(ch)
    system = fonts.SYSTEM_CJK[False]
    if not system.is_file():
        assert src is None or src.path != system
        pytest.skip("no system Noto Sans CJK")
    assert src is not None and src.path == system and src.index == fonts._system_cjk(False).index
    assert fonts.chain(False)[0].path == fonts.REGULAR, "shipped faces always come first"
    (part,) = fonts.styled_runs(ch, 24)
    assert part.text == ch and part.font.getname()[0] == "Noto Sans CJK SC"
