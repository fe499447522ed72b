"""The fonts every renderer draws with, and what to do with characters they lack.

We ship a subset of Noto Sans CJK SC (``data/fonts``, OFL) so Chinese renders on a fresh machine
with no setup. Player names are free text, though, and may hold emoji or rare characters the
subset lacks; Pillow has no font fallback of its own and would draw the ``.notdef`` box. So text
is split into runs: characters our font has, characters DejaVu Sans has (when the system has
it), and the rest, drawn as U+FFFD. Invisible format characters (variation selectors, zero-width
joiners) are dropped when no font has them, so "👍🏽" does not turn into three boxes.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

FONT_DIR = Path(__file__).resolve().parent.parent / "data" / "fonts"
REGULAR = FONT_DIR / "NotoSansCJKsc-Regular-subset.otf"
BOLD = FONT_DIR / "NotoSansCJKsc-Bold-subset.otf"
#: Tried in order for characters our subset lacks; missing files are simply skipped.
FALLBACKS = {
    False: (Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),),
    True: (Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"),
           Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")),
}
REPLACEMENT = "\ufffd"
#: A code point no font assigns (plane 16 private use): what "missing" looks like in a face.
_UNASSIGNED = "\U0010fffd"
_PROBE_SIZE = 24


def _load(path: Path, size: int) -> ImageFont.FreeTypeFont:
    # The basic layout is faster than raqm and we need no shaping for CJK/Latin labels.
    return ImageFont.truetype(str(path), size, layout_engine=ImageFont.Layout.BASIC)


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """Our CJK-capable font at ``size`` pixels (cached: loading a face costs ~1 ms)."""
    return _load(BOLD if bold else REGULAR, size)


@lru_cache(maxsize=8)
def _fallback_paths(bold: bool) -> tuple[Path, ...]:
    return tuple(p for p in FALLBACKS[bold] if p.is_file())


@lru_cache(maxsize=64)
def _face(path: Path, size: int) -> ImageFont.FreeTypeFont:
    return _load(path, size)


def _bitmap(path: Path, ch: str) -> bytes:
    face = _face(path, _PROBE_SIZE)
    img = Image.new("L", (_PROBE_SIZE * 3, _PROBE_SIZE * 2))
    ImageDraw.Draw(img).text((0, 0), ch, font=face, fill=255)
    return img.tobytes()


@lru_cache(maxsize=16)
def _notdef(path: Path) -> bytes:
    return _bitmap(path, _UNASSIGNED)


@lru_cache(maxsize=8192)
def has_glyph(path: Path, ch: str) -> bool:
    """Whether the face at ``path`` has a glyph for ``ch``.

    Pillow exposes no cmap lookup, so a character counts as missing when it renders exactly like
    an unassigned code point (the face's ``.notdef``). Cached per character.
    """
    return _bitmap(path, ch) != _notdef(path)


def _invisible(ch: str) -> bool:
    return unicodedata.category(ch) in {"Cf", "Mn", "Me"} or 0xFE00 <= ord(ch) <= 0xFE0F


@lru_cache(maxsize=4096)
def _source(ch: str, bold: bool) -> Path | None:
    """Which face draws ``ch``: ours, a fallback, or None (draw U+FFFD / drop it)."""
    if ch in "\n\t" or has_glyph(BOLD if bold else REGULAR, ch):
        return BOLD if bold else REGULAR
    for path in _fallback_paths(bold):
        if has_glyph(path, ch):
            return path
    return None


def runs(text: str, size: int, bold: bool = False) -> list[tuple[str, ImageFont.FreeTypeFont]]:
    """``text`` split into consecutive pieces, each with the font that can draw it."""
    primary = BOLD if bold else REGULAR
    out: list[tuple[str, ImageFont.FreeTypeFont]] = []
    cur_path: Path | None = None
    buf: list[str] = []
    for ch in text:
        path = _source(ch, bold)
        if path is None:
            if _invisible(ch):
                continue
            ch = REPLACEMENT if _source(REPLACEMENT, bold) is not None else "?"
            path = _source(ch, bold) or primary
        if path != cur_path and buf:
            out.append(("".join(buf), _face(cur_path, size) if cur_path != primary else font(size, bold)))
            buf = []
        cur_path = path
        buf.append(ch)
    if buf and cur_path is not None:
        out.append(("".join(buf), _face(cur_path, size) if cur_path != primary else font(size, bold)))
    return out


def clean(text: str, bold: bool = False) -> str:
    """``text`` as our own font alone would draw it: unknown characters become U+FFFD.

    For callers that hand text to Pillow directly instead of going through :func:`runs`.
    """
    out = []
    for ch in text:
        if _source(ch, bold) in (REGULAR, BOLD):
            out.append(ch)
        elif not _invisible(ch):
            out.append(REPLACEMENT if _source(REPLACEMENT, bold) in (REGULAR, BOLD) else "?")
    return "".join(out)
