"""A turn's public lines told shorter, for the thread's one post per turn.

A 极武三国 turn is many small actions: five cards played, two recruits, four soldiers deployed
were eleven lines ("Alice plays Diligent Farmer." five times), which pushed the turn's start out
of the post. :func:`compact` merges a run of the same player's plays, recruits or deployments
into one line ("Alice plays Diligent Farmer ×3, Valiant Infantry ×2."), keeping the order of the
first appearance. Everything else is kept as it is, in order. Pure: public ``Msg``s in, ``Msg``s
out (nothing hidden can leak); unknown messages (a front-end's own lines) pass through.
"""

from __future__ import annotations

from typing import Any

from engines.base import Msg, key_ref

#: event key -> (merged line key, the param that lists what was played / recruited / where)
MERGE: dict[str, tuple[str, str]] = {
    "jiwu.ev.play": ("jiwu.sum.play", "card"),
    "jiwu.ev.buy": ("jiwu.sum.buy", "card"),
    "jiwu.ev.deploy": ("jiwu.sum.deploy", "where"),
}


def compact(msgs: list[Msg]) -> list[Msg]:
    out: list[Msg] = []
    i = 0
    while i < len(msgs):
        msg = msgs[i]
        j = i + 1
        if msg.key in MERGE:
            while j < len(msgs) and msgs[j].key == msg.key and msgs[j].params.get("player") == msg.params.get("player"):
                j += 1
        if j - i >= 2:
            key, field = MERGE[msg.key]
            out.append(Msg(key, {"player": msg.params.get("player"), "items": _listing(msgs[i:j], field)}))
        else:
            out.append(msg)
        i = j
    return out


def _listing(run: list[Msg], field: str) -> dict[str, Any]:
    """The run's items in first-seen order, repeats counted ("A ×3, B"), as nested references."""
    items: list[Any] = []
    counts: list[int] = []
    for m in run:
        item = m.params.get(field)
        if item in items:
            counts[items.index(item)] += 1
        else:
            items.append(item)
            counts.append(1)
    parts = [key_ref("jiwu.sum.times", item=x, n=n) if n > 1 else x for x, n in zip(items, counts, strict=True)]
    listing = parts[-1]
    for part in reversed(parts[:-1]):
        listing = key_ref("jiwu.sum.and", a=part, b=listing)
    return listing
