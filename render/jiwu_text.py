"""The words of the 极武三国 table, shared by its pictures (``render/jiwu.py``) and the terminal's
text board (``cli/ascii_jiwu.py``): card names, a card's effect spelled from its data, seat
names. Plain text; no Pillow here, so the terminal needs none."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engines.jiwu.choices import effects_ref
from engines.jiwu.data import card
from i18n import t


def card_name(locale: str, cid: str) -> str:
    return t(locale, f"jiwu_names.card.{cid}")


def card_text(locale: str, cid: str) -> str:
    """A card's effect spelled from its data (the same words as the buttons and the rules page)."""
    ref = effects_ref(list(card(cid).effects))
    return t(locale, ref["key"], **ref.get("params", {}))


def seat_name(view: dict[str, Any], locale: str, names: Sequence[str], seat: int) -> str:
    if 0 <= seat < len(names) and names[seat]:
        return str(names[seat])
    return t(locale, f"jiwu.color.{view['players'][seat]['color']}")
