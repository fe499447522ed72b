"""三国杀's digest for a player back in an asynchronous game (issue 19): from the public lines
since their last move, the damage they took, the cards used on them and who died — one line
each, instead of a ping per event."""

from __future__ import annotations

from typing import Any

from engines.base import Msg
from engines.sanguosha.rules import m

__all__ = ["digest"]


def _is(ref: Any, seat: int) -> bool:
    return isinstance(ref, dict) and ref.get("seat") == seat


def digest(msgs: list[Msg], seat: int) -> list[Msg]:
    damage = used = 0
    deaths: list[Any] = []
    for msg in msgs:
        key, p = msg.key, msg.params
        if key == "sanguosha.ev.damage" and _is(p.get("who"), seat):
            damage += int(p.get("n", 0))
        elif key == "sanguosha.ev.use_on" and _is(p.get("target"), seat) and not _is(p.get("who"), seat):
            used += 1
        elif key == "sanguosha.ev.death":
            deaths.append(p.get("who"))
    out = []
    if damage or used:
        out.append(m("digest.you", damage=damage, cards=used))
    out += [m("digest.death", who=w) for w in deaths]
    return [m("digest.head"), *out] if out else []
