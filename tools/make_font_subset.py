"""Rebuild the CJK font subset shipped in ``data/fonts/``.

Why a subset: the full Noto Sans CJK faces are ~16 MB each and hold five regional glyph sets; the
bot needs its own catalog text plus whatever players type as names. Both weights get: ASCII,
Latin-1, Latin extended, Greek, Cyrillic, general punctuation, CJK punctuation, full-width forms,
a few symbol blocks, every character found in ``data/i18n/**/*.toml`` and ``data/**/*.json`` at
build time, all of GB2312 (6763 hanzi), Big5 level 1 (5401 common traditional hanzi), kana and
Bopomofo.

Only the Regular weight gets the long tail that player names need (it is what costs the bytes):
all of Big5 (13,053 hanzi), the whole CJK Unified Ideographs block U+4E00-U+9FFF (a simple
bound that also holds every JIS X 0208 kanji; Noto has it up to U+9FEF) and all 11,172 Hangul
syllables. ``render.fonts`` draws bold text the Bold subset lacks with the Regular face and a
thin stroke (measured to match the Bold face's ink), so a rare character in a bold name is still
bold rather than a box. Shipping both weights whole would take ~15.5 MB; this split takes ~10.4 MB.

Run it again whenever someone adds text with a character outside the subset (the render tests
say so when that happens)::

    .venv/bin/python tools/make_font_subset.py [--source-dir /usr/share/fonts/opentype/noto]

It needs fontTools (a development dependency only; the bot itself reads the result with Pillow).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data"
OUT_DIR = DATA / "fonts"
SOURCE_DIR = Path("/usr/share/fonts/opentype/noto")
#: Index of "Noto Sans CJK SC" inside NotoSansCJK-*.ttc (JP, KR, SC, TC, HK, then the Mono faces).
SC_FACE = "Noto Sans CJK SC"
WEIGHTS = {"Regular": "NotoSansCJK-Regular.ttc", "Bold": "NotoSansCJK-Bold.ttc"}
OUT_NAME = "NotoSansCJKsc-{weight}-subset.otf"
#: Characters our data uses that Noto Sans CJK itself lacks (emoji): drawn by the runtime fallback.
NOT_IN_SOURCE = "not-in-source.txt"

#: Unicode blocks kept whole (the font simply lacks some of their code points).
BLOCKS = [
    (0x0020, 0x007E),  # ASCII
    (0x00A0, 0x00FF),  # Latin-1 supplement
    (0x0100, 0x024F),  # Latin extended A and B (Łukasz, Dvořák, Şule)
    (0x0370, 0x03FF),  # Greek
    (0x0400, 0x04FF),  # Cyrillic
    (0x1E00, 0x1EFF),  # Latin extended additional (Vietnamese: Nguyễn)
    (0x2000, 0x206F),  # general punctuation
    (0x2070, 0x209F),  # superscripts and subscripts
    (0x20A0, 0x20CF),  # currency symbols
    (0x2100, 0x214F),  # letterlike symbols
    (0x2150, 0x218F),  # number forms (Ⅰ Ⅱ ⅹ)
    (0x2190, 0x21FF),  # arrows
    (0x2200, 0x22FF),  # mathematical operators (− × ≤ ≥)
    (0x2300, 0x23FF),  # miscellaneous technical (⌛ ⏰)
    (0x2500, 0x259F),  # box drawing and block elements
    (0x2460, 0x24FF),  # enclosed alphanumerics (① ②)
    (0x25A0, 0x25FF),  # geometric shapes (● ○ ■ ▲)
    (0x2600, 0x26FF),  # miscellaneous symbols (★ ☆)
    (0x2700, 0x27BF),  # dingbats (✓)
    (0x3000, 0x303F),  # CJK symbols and punctuation
    (0xFF00, 0xFFEF),  # half-width and full-width forms
    (0xFFFD, 0xFFFD),  # replacement character, drawn for glyphs nobody has
]


def _codec_range(codec: str, lead: range, trail: range) -> set[int]:
    """Every character a double-byte codec decodes from ``lead`` x ``trail`` bytes."""
    out: set[int] = set()
    for hi in lead:
        for lo in trail:
            try:
                out.update(ord(c) for c in bytes([hi, lo]).decode(codec))
            except UnicodeDecodeError:
                continue
    return out


_BIG5_TRAIL = list(range(0x40, 0x7F)) + list(range(0xA1, 0xFF))
#: Kana, Bopomofo (and its extension), Katakana phonetic extensions, half-width katakana.
PHONETIC = [(0x3040, 0x30FF), (0x3100, 0x312F), (0x31A0, 0x31BF), (0x31F0, 0x31FF), (0xFF61, 0xFF9F)]
#: Only in the Regular face: Hangul compatibility jamo, all Hangul syllables, the whole URO block.
REGULAR_ONLY = [(0x3130, 0x318F), (0xAC00, 0xD7A3), (0x4E00, 0x9FFF)]


def _big5(last: tuple[int, int]) -> set[int]:
    """Big5 hanzi from 0xA440 up to ``last`` (level 1 ends at 0xC67E, level 2 at 0xF9D5)."""
    out: set[int] = set()
    for hi in range(0xA4, last[0] + 1):
        for lo in _BIG5_TRAIL:
            if (hi, lo) > last:
                break
            try:
                out.update(ord(c) for c in bytes([hi, lo]).decode("big5"))
            except UnicodeDecodeError:
                continue
    return out


def gb2312_hanzi() -> set[int]:
    """All 6763 GB2312 hanzi: level 1 (0xB0A1-0xD7F9) and level 2 (0xD8A1-0xF7FE)."""
    return _codec_range("gb2312", range(0xB0, 0xF8), range(0xA1, 0xFF))


def common_hanzi() -> set[int]:
    """What both weights carry: all of GB2312 plus Big5 level 1 (0xA440-0xC67E)."""
    return gb2312_hanzi() | _big5((0xC6, 0x7E))


def name_hanzi() -> set[int]:
    """The Regular face's extra: all of Big5 (levels 1 and 2, 13,053 hanzi)."""
    return _big5((0xF9, 0xD5))


def _ranges(ranges: list[tuple[int, int]]) -> set[int]:
    return {cp for lo, hi in ranges for cp in range(lo, hi + 1)}


def data_characters(data_dir: Path = DATA) -> set[int]:
    """Characters used by catalogs and game data right now."""
    out: set[int] = set()
    for pattern in ("i18n/**/*.toml", "**/*.json"):
        for path in data_dir.glob(pattern):
            out.update(ord(c) for c in path.read_text(encoding="utf-8") if c >= " ")
    return out


def wanted_codepoints(weight: str = "Regular", data_dir: Path = DATA) -> set[int]:
    """The code points asked of ``weight`` (the source font lacks some; the subsetter skips them)."""
    cps = _ranges(BLOCKS) | _ranges(PHONETIC) | common_hanzi() | data_characters(data_dir)
    if weight == "Regular":
        cps |= _ranges(REGULAR_ONLY) | name_hanzi()
    return cps


def _face(ttc_path: Path) -> int:
    coll = TTCollection(str(ttc_path), lazy=True)
    for index, font in enumerate(coll.fonts):
        if font["name"].getDebugName(4).startswith(SC_FACE):
            return index
    raise SystemExit(f"{SC_FACE} not found in {ttc_path}")


def _write_not_in_source(font_cmap: set[int], out_dir: Path) -> Path:
    lacking = sorted(cp for cp in data_characters() if cp not in font_cmap)
    dest = out_dir / NOT_IN_SOURCE
    lines = [f"U+{cp:04X} {chr(cp)}" for cp in lacking]
    header = ("# Characters used in data/ that the source font lacks; render.fonts draws them with a\n"
              "# fallback font or U+FFFD. Written by tools/make_font_subset.py.\n")
    dest.write_text(header + "".join(line + "\n" for line in lines), encoding="utf-8")
    return dest


def build(source_dir: Path, out_dir: Path) -> list[Path]:
    written: list[Path] = []
    cmaps: list[set[int]] = []
    for weight, filename in WEIGHTS.items():
        src = source_dir / filename
        options = subset.Options()
        options.font_number = _face(src)
        options.layout_features = []  # Pillow draws with the basic layout: no shaping tables needed
        options.name_IDs = ["*"]
        options.name_languages = ["*"]
        options.notdef_outline = True
        options.recalc_bounds = True
        font = subset.load_font(str(src), options)
        cmaps.append(set(font.getBestCmap()))
        sub = subset.Subsetter(options)
        sub.populate(unicodes=wanted_codepoints(weight))
        sub.subset(font)
        dest = out_dir / OUT_NAME.format(weight=weight)
        subset.save_font(font, str(dest), options)
        written.append(dest)
    written.append(_write_not_in_source(set.intersection(*cmaps), out_dir))
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source-dir", type=Path, default=SOURCE_DIR)
    parser.add_argument("--out-dir", type=Path, default=OUT_DIR)
    args = parser.parse_args(argv)
    args.out_dir.mkdir(parents=True, exist_ok=True)
    for path in build(args.source_dir, args.out_dir):
        print(f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}: {path.stat().st_size:,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
