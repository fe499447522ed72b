"""Rebuild the monochrome emoji subset shipped in ``data/fonts/`` (``SymbolaEmoji-subset.ttf``).

Why: Pillow draws no colour emoji from a plain font and our CJK subset has none, so an emoji in a
player's name was drawn as U+FFFD. Symbola (George Douros, Debian ``fonts-symbola``; "free for
any use; may be opened, edited, modified, regenerated, packaged and redistributed") has outline
glyphs for the emoji of Unicode 9. Only what names plausibly hold is kept, and only code points
the shipped CJK Regular subset lacks (it comes first in ``render.fonts.chain``): emoticons,
pictographs, transport, supplemental symbols, regional indicators (a flag draws as two boxed
letters), playing cards and mahjong tiles, the emoji of the misc-symbols/dingbats blocks.
Hinting and layout tables are dropped (Pillow's basic layout needs neither): ~0.8 MB.

    apt-get download fonts-symbola && dpkg-deb -x fonts-symbola_*.deb /tmp/symbola
    .venv/bin/python tools/make_emoji_font.py --source /tmp/symbola/usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf

It needs fontTools (a development dependency only).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "data" / "fonts" / "SymbolaEmoji-subset.ttf"
CJK_REGULAR = ROOT / "data" / "fonts" / "NotoSansCJKsc-Regular-subset.otf"
SOURCE = Path("/usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf")
#: Blocks whose code points Symbola has are kept (minus what the CJK subset already draws).
BLOCKS = [
    (0x1F000, 0x1F0FF),  # mahjong, domino, playing cards
    (0x1F100, 0x1F1FF),  # enclosed alphanumeric supplement, regional indicators (flags)
    (0x1F300, 0x1F5FF),  # miscellaneous symbols and pictographs (🎲 🐉 🌟)
    (0x1F600, 0x1F64F),  # emoticons (😀)
    (0x1F680, 0x1F6FF),  # transport and map symbols
    (0x1F900, 0x1F9FF),  # supplemental symbols and pictographs (the Unicode 9 part)
    (0x2600, 0x27BF),  # miscellaneous symbols, dingbats (☕ ✈ ❤)
    (0x2B00, 0x2BFF),  # miscellaneous symbols and arrows (⭐ ⬛)
]


def wanted(source_cmap: set[int], cjk_cmap: set[int]) -> list[int]:
    return sorted(cp for cp in source_cmap
                  if any(lo <= cp <= hi for lo, hi in BLOCKS) and cp not in cjk_cmap)


def build(source: Path, out: Path = OUT) -> Path:
    options = subset.Options()
    options.hinting = False
    options.layout_features = []
    options.drop_tables += ["GSUB", "GPOS", "GDEF", "DSIG"]
    options.name_IDs = ["*"]
    options.notdef_outline = True
    font = subset.load_font(str(source), options)
    cps = wanted(set(font.getBestCmap()), set(TTFont(str(CJK_REGULAR), lazy=True).getBestCmap()))
    sub = subset.Subsetter(options)
    sub.populate(unicodes=cps)
    sub.subset(font)
    subset.save_font(font, str(out), options)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, default=SOURCE)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    path = build(args.source, args.out)
    print(f"{path}: {path.stat().st_size:,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
