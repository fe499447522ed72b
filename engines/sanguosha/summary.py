"""A turn's public lines told shorter, for the thread's one post per turn.

An area card at a full table is many lines: a 南蛮入侵 at 8 seats was 15 ("p1 plays no
Strike.", "p1 takes 1 damage from p0 (HP 3).", seven times), which pushed the start of the turn
out of the post's 20 lines. :func:`compact` drops a "plays no …" line that the next line (that
seat taking damage) already implies, and merges a run of damage lines from one source and amount
into one line naming every seat hit with its HP. Everything else is kept as it is, in order.
Pure: public ``Msg``s in, ``Msg``s out (nothing hidden can leak); unknown messages (a front-end's
own lines) pass through.
"""

from __future__ import annotations

from typing import Any

from engines.base import Msg, key_ref

NO_RESPONSE = "sanguosha.ev.no_response"
DAMAGE = "sanguosha.ev.damage"
#: Fewest damage lines in a row that are merged into one.
MERGE_FROM = 3


def compact(msgs: list[Msg]) -> list[Msg]:
    """``msgs`` with implied "no response" lines dropped and damage runs merged."""
    kept: list[Msg] = []
    for i, msg in enumerate(msgs):
        nxt = msgs[i + 1] if i + 1 < len(msgs) else None
        if (msg.key == NO_RESPONSE and nxt is not None and nxt.key == DAMAGE
                and nxt.params.get("who") == msg.params.get("who")):
            continue
        kept.append(msg)
    out: list[Msg] = []
    run: list[Msg] = []

    def flush() -> None:
        if len(run) >= MERGE_FROM:
            first = run[0].params
            out.append(Msg("sanguosha.sum.damage_many", {"list": _listing(run), "n": first.get("n"),
                                                         "src": first.get("src")}))
        else:
            out.extend(run)
        run.clear()

    for msg in kept:
        if msg.key == DAMAGE and run and (msg.params.get("src"), msg.params.get("n")) != (
                run[0].params.get("src"), run[0].params.get("n")):
            flush()
        if msg.key == DAMAGE:
            run.append(msg)
            continue
        flush()
        out.append(msg)
    flush()
    return out


def _listing(run: list[Msg]) -> dict[str, Any]:
    """"p1 (HP 3), p2 (HP 3), p3 (HP 2)" as nested catalog references (names are the front-end's)."""
    items = [key_ref("sanguosha.sum.hit", who=m.params.get("who"), hp=m.params.get("hp")) for m in run]
    listing = items[-1]
    for item in reversed(items[:-1]):
        listing = key_ref("sanguosha.sum.and", a=item, b=listing)
    return listing
