"""The words of the 鬪三國 table, shared by its picture (``render/kingdoms_battle.py``) and the
terminal's text board (``cli/ascii_kingdoms_battle.py``). Plain text; no Pillow here, so the
terminal needs none."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from i18n import t


def seat_name(view: dict[str, Any], locale: str, names: Sequence[str], seat: int) -> str:
    """The player's name, or the seat's colour when the table has no names (a bare view)."""
    if 0 <= seat < len(names) and names[seat]:
        return str(names[seat])
    return t(locale, f"kingdoms_battle.color.{view['players'][seat]['color']}")
