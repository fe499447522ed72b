"""The words of the 三国杀 table, shared by its picture (``render/sanguosha.py``) and the
terminal's text board (``cli/ascii_sanguosha.py``): seat names, short card names and the card
being resolved. Plain text from a view only; no Pillow here, so the terminal needs none."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from i18n import has, t


def short_name(locale: str, name: str) -> str:
    """A card's short name for pictures (the catalogs' full names carry both languages)."""
    key = f"render.sanguosha.short.{name}"
    return t(locale, key) if has(key, locale) else name


def hero_name(locale: str, hid: str) -> str:
    """A hero's name; a hegemony hero (``hg_``) whose pack brings no name of its own reads as the
    standard hero it is (the same person), so a picture never shows a catalog key."""
    for key in (f"sanguosha.hero.{hid}", f"sanguosha.hero.{hid.removeprefix('hg_')}"):
        if has(key, locale):
            return t(locale, key)
    return hid


def seat_name(locale: str, names: Sequence[str], seat: int) -> str:
    if 0 <= seat < len(names) and names[seat]:
        return str(names[seat])
    return t(locale, "render.common.seat", n=seat + 1)


def using_text(view: dict[str, Any], locale: str, names: Sequence[str]) -> str:
    """The innermost card use or effect on the stack: "Alice: Strike → Bob"."""
    for f in reversed(view.get("stack") or []):
        if f.get("k") in ("use", "effect") and f.get("user") is not None:
            card = short_name(locale, f.get("name", ""))
            user = seat_name(locale, names, f["user"])
            target = f.get("target")
            if target is None or target == f["user"]:
                return t(locale, "render.sanguosha.using", user=user, card=card)
            return t(locale, "render.sanguosha.using_on", user=user, card=card, target=seat_name(locale, names, target))
    return ""
