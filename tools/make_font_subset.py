"""Rebuild the CJK font subset shipped in ``data/fonts/``.

Why a subset: the full Noto Sans CJK faces are ~16 MB each; the bot only needs the characters its
own catalogs and data use, plus enough common Chinese for player names and future strings. The
character set is: ASCII, Latin-1, general punctuation, CJK punctuation, full-width forms, a few
symbol blocks, every character found in ``data/i18n/**/*.toml`` and ``data/**/*.json`` at build
time, GB2312 level 1 (the 3755 most common simplified characters) and Big5 level 1 (the 5401
common traditional characters).

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


def common_hanzi() -> set[int]:
    """GB2312 level 1 (0xB0A1-0xD7FE) plus Big5 level 1 (0xA440-0xC67E)."""
    gb = _codec_range("gb2312", range(0xB0, 0xD8), range(0xA1, 0xFF))
    big5_trail = list(range(0x40, 0x7F)) + list(range(0xA1, 0xFF))
    big5: set[int] = set()
    for hi in range(0xA4, 0xC7):
        for lo in big5_trail:
            if (hi, lo) > (0xC6, 0x7E):
                break
            try:
                big5.update(ord(c) for c in bytes([hi, lo]).decode("big5"))
            except UnicodeDecodeError:
                continue
    return gb | big5


def data_characters(data_dir: Path = DATA) -> set[int]:
    """Characters used by catalogs and game data right now."""
    out: set[int] = set()
    for pattern in ("i18n/**/*.toml", "**/*.json"):
        for path in data_dir.glob(pattern):
            out.update(ord(c) for c in path.read_text(encoding="utf-8") if c >= " ")
    return out


def wanted_codepoints(data_dir: Path = DATA) -> set[int]:
    cps: set[int] = set()
    for lo, hi in BLOCKS:
        cps.update(range(lo, hi + 1))
    cps |= common_hanzi()
    cps |= data_characters(data_dir)
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
    cps = wanted_codepoints()
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
        sub.populate(unicodes=cps)
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
