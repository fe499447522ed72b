"""Standing answers (issue 19): a player's private settings, per match, that answer their
response windows for them (``Engine.standing_specs`` / ``standing_answer``).

Kept in ``match_meta`` under :func:`meta_key` (one JSON object per seat; no row: the game's
defaults, which pre-tick only answers that can only help). Never published: the public log shows
the answer the engine gave (source "auto"), never the setting behind it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from engines.base import Engine, OptionSpec, View

__all__ = ["StandingAnswers", "answer", "decode", "encode", "meta_key", "settings_of"]


def meta_key(seat: int) -> str:
    return f"standing:{seat}"


def decode(raw: str | None) -> dict[str, str] | None:
    """The stored settings, or None (never set, or unreadable: the defaults then)."""
    if not raw:
        return None
    try:
        data: Any = json.loads(raw)
    except ValueError:
        return None
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else None


def encode(settings: dict[str, str]) -> str:
    return json.dumps(settings, sort_keys=True, separators=(",", ":"))


def settings_of(specs: list[OptionSpec], stored: dict[str, str] | None) -> dict[str, str]:
    """Every spec's value: the stored one when the spec offers it, else the spec's default."""
    out = {}
    for spec in specs:
        value = (stored or {}).get(spec.name, spec.default)
        out[spec.name] = value if value in {v for v, _ in spec.choices} else spec.default
    return out


def answer(engine: Engine, view: View, request: Any, stored: dict[str, str] | None) -> list[str] | None:
    """The standing answer of the seat whose ``view`` this is, or None (ask the player)."""
    specs = engine.standing_specs(view)
    if not specs:
        return None
    return engine.standing_answer(view, request, settings_of(specs, stored))


@dataclass(frozen=True)
class StandingAnswers:
    """What a player's panel shows: the settings offered (their own hero's skills among them),
    the value of each, and whether these are still the game's defaults (nothing stored)."""

    specs: list[OptionSpec]
    values: dict[str, str]
    defaults: bool
