"""The fonts every renderer draws with, and what to do with characters they lack.

We ship subsets of Noto Sans CJK SC (``data/fonts``, OFL) so Chinese, Japanese and Korean names
render on a fresh machine with no setup. The Regular subset carries the long tail player names
need (all of GB2312 and Big5, the whole CJK Unified Ideographs block, kana, Bopomofo, Hangul);
the Bold subset only the common part, to keep the repository small. Bold text the Bold subset
lacks is drawn with the Regular face and a thin stroke (``BOLD_STROKE``), which was measured to
put down the same ink as the real Bold face, so a rare character in a bold name stays bold.

Pillow has no font fallback of its own and would draw the ``.notdef`` box, so text is split into
runs, each drawn by the first source that has its characters: our CJK subsets, our monochrome
emoji subset (Symbola, Unicode 9 emoji: players put emoji in their names), then the system's full
Noto Sans CJK (when installed, for the rare ideographs the subset lacks), then DejaVu Sans. A
pictograph nobody has (a newer emoji) is drawn as a stand-in emoji (``EMOJI_STANDIN``) so it still
reads as one, and anything else as U+FFFD. Shipped faces come first so a picture looks the same
on every machine for everything they cover. Invisible format characters (variation selectors,
zero-width joiners, skin tones) are dropped when no font has them, so "👍🏽" does not turn into
three boxes.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

from PIL import Image, ImageDraw, ImageFont

FONT_DIR = Path(__file__).resolve().parent.parent / "data" / "fonts"
REGULAR = FONT_DIR / "NotoSansCJKsc-Regular-subset.otf"
BOLD = FONT_DIR / "NotoSansCJKsc-Bold-subset.otf"
#: Monochrome emoji (Symbola subset, built by ``tools/make_emoji_font.py``); one weight, never
#: stroked for bold (a stroke fills in the small details of a face or a die).
EMOJI = FONT_DIR / "SymbolaEmoji-subset.ttf"
#: Drawn for a pictograph no face has (emoji newer than Unicode 9): a plain smiling face reads as
#: "an emoji was here", where U+FFFD reads as a broken name.
EMOJI_STANDIN = "\U0001F642"
#: The full Noto Sans CJK collections (Debian's fonts-noto-cjk); used only if present.
SYSTEM_CJK = {False: Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"),
              True: Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc")}
SYSTEM_CJK_FACE = "Noto Sans CJK SC"
DEJAVU = {False: Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),
          True: Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")}
#: Stroke width, as a fraction of the pixel size, that makes the Regular face as heavy as Bold.
#: Measured on mixed CJK/Latin/kana/Hangul names at 14-36 px: Bold puts down 1.53-1.55x the
#: Regular face's ink; a stroke of 0.02 x size matches it within 2 % (0.01 and 0.03 miss by 20 %+).
BOLD_STROKE = 0.02
REPLACEMENT = "\ufffd"
#: A code point no font assigns (plane 16 private use): what "missing" looks like in a face.
_UNASSIGNED = "\U0010fffd"
_PROBE_SIZE = 24


@dataclass(frozen=True)
class Source:
    """One face in the fallback chain; ``synthetic_bold`` draws it with ``BOLD_STROKE``."""

    path: Path
    index: int = 0
    synthetic_bold: bool = False


class Run(NamedTuple):
    """A piece of text with the face that draws it and the stroke width (pixels) to draw it with."""

    text: str
    font: ImageFont.FreeTypeFont
    stroke: float


def _load(path: Path, size: int, index: int = 0) -> ImageFont.FreeTypeFont:
    # The basic layout is faster than raqm and we need no shaping for CJK/Latin labels.
    return ImageFont.truetype(str(path), size, index=index, layout_engine=ImageFont.Layout.BASIC)


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """Our CJK-capable font at ``size`` pixels (cached: loading a face costs ~1 ms)."""
    return _load(BOLD if bold else REGULAR, size)


@lru_cache(maxsize=4)
def _system_cjk(bold: bool) -> Source | None:
    """The SC face of the system's Noto Sans CJK collection, found by name (the index varies)."""
    path = SYSTEM_CJK[bold]
    if not path.is_file():
        return None
    for index in range(10):
        try:
            face = _load(path, _PROBE_SIZE, index)
        except OSError:
            return None
        if face.getname()[0] == SYSTEM_CJK_FACE:
            return Source(path, index)
    return None


@lru_cache(maxsize=4)
def chain(bold: bool) -> tuple[Source, ...]:
    """The faces tried in order for ``bold`` text; the first is always our shipped subset."""
    out = [Source(REGULAR)] if not bold else [Source(BOLD), Source(REGULAR, synthetic_bold=True)]
    if EMOJI.is_file():
        out.append(Source(EMOJI))
    system_bold, system_regular = _system_cjk(True), _system_cjk(False)
    if bold:
        if system_bold is not None:
            out.append(system_bold)
        if system_regular is not None:
            out.append(Source(system_regular.path, system_regular.index, synthetic_bold=True))
        out += [Source(p) for p in (DEJAVU[True], DEJAVU[False]) if p.is_file()]
    else:
        if system_regular is not None:
            out.append(system_regular)
        out += [Source(DEJAVU[False])] if DEJAVU[False].is_file() else []
    return tuple(out)


@lru_cache(maxsize=128)
def _face(path: Path, size: int, index: int = 0) -> ImageFont.FreeTypeFont:
    return _load(path, size, index)


def _bitmap(path: Path, index: int, ch: str) -> bytes:
    face = _face(path, _PROBE_SIZE, index)
    img = Image.new("L", (_PROBE_SIZE * 3, _PROBE_SIZE * 2))
    ImageDraw.Draw(img).text((0, 0), ch, font=face, fill=255)
    return img.tobytes()


@lru_cache(maxsize=16)
def _notdef(path: Path, index: int) -> bytes:
    return _bitmap(path, index, _UNASSIGNED)


@lru_cache(maxsize=16384)
def has_glyph(path: Path, ch: str, index: int = 0) -> bool:
    """Whether the face at ``path`` (face ``index`` of a collection) has a glyph for ``ch``.

    Pillow exposes no cmap lookup, so a character counts as missing when it renders exactly like
    an unassigned code point (the face's ``.notdef``). Cached per character.
    """
    return _bitmap(path, index, ch) != _notdef(path, index)


def _invisible(ch: str) -> bool:
    return unicodedata.category(ch) in {"Cf", "Mn", "Me"} or 0xFE00 <= ord(ch) <= 0xFE0F


def _skin_tone(ch: str) -> bool:
    """Emoji skin-tone modifiers: without shaping they would follow the emoji as a colour swatch
    (a box, to the eye), so they are left out ("👍🏽" draws as 👍)."""
    return 0x1F3FB <= ord(ch) <= 0x1F3FF


def _pictograph(ch: str) -> bool:
    """An emoji-like character: a symbol in the emoji planes, or unassigned there (an emoji newer
    than our Unicode tables), or any other symbol of category So."""
    cp = ord(ch)
    return 0x1F000 <= cp <= 0x1FAFF or unicodedata.category(ch) == "So"


@lru_cache(maxsize=8192)
def source(ch: str, bold: bool = False) -> Source | None:
    """Which face draws ``ch``: ours, a fallback, or None (draw U+FFFD / drop it)."""
    sources = chain(bold)
    if ch in "\n\t":
        return sources[0]
    for src in sources:
        if has_glyph(src.path, ch, src.index):
            return src
    return None


def _run(text: str, src: Source, size: int, bold: bool) -> Run:
    face = font(size, bold) if src == chain(bold)[0] else _face(src.path, size, src.index)
    return Run(text, face, BOLD_STROKE * size if src.synthetic_bold else 0.0)


def styled_runs(text: str, size: int, bold: bool = False) -> list[Run]:
    """``text`` split into consecutive pieces, each with the face (and stroke) that draws it."""
    out: list[Run] = []
    cur: Source | None = None
    buf: list[str] = []
    for ch in text:
        if _skin_tone(ch):
            continue
        src = source(ch, bold)
        if src is None:
            if _invisible(ch):
                continue
            ch = EMOJI_STANDIN if _pictograph(ch) and source(EMOJI_STANDIN, bold) is not None else \
                REPLACEMENT if source(REPLACEMENT, bold) is not None else "?"
            src = source(ch, bold) or chain(bold)[0]
        if src != cur and buf and cur is not None:
            out.append(_run("".join(buf), cur, size, bold))
            buf = []
        cur = src
        buf.append(ch)
    if buf and cur is not None:
        out.append(_run("".join(buf), cur, size, bold))
    return out


def runs(text: str, size: int, bold: bool = False) -> list[tuple[str, ImageFont.FreeTypeFont]]:
    """``text`` split into consecutive pieces, each with the font that can draw it (no stroke:
    use :func:`styled_runs` to draw bold text the way :func:`render.common.draw_text` does)."""
    return [(r.text, r.font) for r in styled_runs(text, size, bold)]


def clean(text: str, bold: bool = False) -> str:
    """``text`` as ``font(size, bold)`` alone would draw it: unknown characters become U+FFFD.

    For callers that hand text to Pillow directly instead of going through :func:`runs`.
    """
    primary = chain(bold)[0]
    out = []
    for ch in text:
        if source(ch, bold) == primary:
            out.append(ch)
        elif not _invisible(ch):
            out.append(REPLACEMENT if source(REPLACEMENT, bold) == primary else "?")
    return "".join(out)
