"""An AI run told in fewer lines: each placement (draw, place, garrisons) becomes one line;
completions, wars, occupations and stratagems are kept as they are, since they are what the
other players need to read. Pure: public events in, ``Msg``s out (nothing hidden can leak)."""

from __future__ import annotations

from engines.base import Event, Msg
from engines.kingdoms_battle.rules import m

#: Folded into the placement line they follow.
_GARRISON = {"kingdoms_battle.ev.garrison_a": "alert", "kingdoms_battle.ev.garrison_f": "fort"}


def summarize(events: list[Event]) -> list[Msg]:
    out: list[Msg] = []
    place: dict | None = None
    for e in events:
        if e.to is not None or e.msg.key == "kingdoms_battle.ev.draw":
            continue
        if e.msg.key == "kingdoms_battle.ev.place":
            place = {**e.msg.params, "alert": 0, "fort": 0}
            out.append(m("sum.place", **place))
            continue
        if e.msg.key in _GARRISON and place is not None:
            place[_GARRISON[e.msg.key]] += 1
            out[-1] = m("sum.place", **place)
            continue
        place = None
        out.append(e.msg)
    return out
