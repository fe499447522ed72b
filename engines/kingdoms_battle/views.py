"""What a seat sees. 鬪三國 has no hidden information except the order of the tile stack, so
every seat's view is the public view (the stack appears only as a count)."""

from __future__ import annotations

import copy
from typing import Any

from engines.base import Msg, State, View
from engines.kingdoms_battle import board
from engines.kingdoms_battle import rules as R
from engines.kingdoms_battle.choices import asked
from engines.kingdoms_battle.rules import ALERT, m, who


def build(state: State, seat: int | None) -> View:
    cities: list[dict[str, Any]] = []
    for cid, c in sorted(state["cities"].items(), key=lambda kv: R._key(kv[0])):
        cities.append({"id": cid, "tiles": list(c["tiles"]), "segs": list(c["segs"]), "done": c["done"],
                       "open": c["open"], "spaces": list(c["spaces"]), "large": board.is_large(state, cid),
                       "owner": R.owner(state, cid), "value": board.value(state, cid)})
    players = []
    for s, p in enumerate(state["players"]):
        players.append({"seat": s, "color": R.COLORS[s], "supply": p["supply"], "cards": p["cards"],
                        "plots": list(p["plots"]), "score": R.score(state, s),
                        "on_board": R.on_board(state, s)})
    return {
        "game": "kingdoms_battle", "seats": state["seats"], "turn": state["turn"], "phase": state["phase"],
        "asked": asked(state), "tiles": [list(t) for t in state["tiles"]], "drawn": state["drawn"],
        "stack": len(state["stack"]), "discarded": state["stats"]["discarded"],
        "troops": {k: list(v) for k, v in state["troops"].items()}, "cities": cities, "players": players,
        "war": dict(state["war"]) if state["war"] else None,
        # the last dice rolled in a war (civil or national), for the board's legend
        "dice": copy.deepcopy(state.get("dice")), "winners": state["winners"],
        "end_reason": state["end_reason"], "stats": dict(state["stats"]),
    }


def describe(view: View) -> list[Msg]:
    lines = []
    if view["phase"] != "over":
        lines.append(m("status.turn", player=who(view["turn"]), stack=view["stack"]))
    for p in view["players"]:
        alert = sum(1 for t in view["troops"].values() if t[0] == p["seat"] and t[1] == ALERT)
        lines.append(m("status.player", player=who(p["seat"]), score=p["score"], supply=p["supply"],
                       cards=p["cards"], plots=len(p["plots"]), alert=alert))
    return lines


def private_summary(view: View) -> list[Msg]:
    """Nothing: every seat knows what the table knows (the adapter asks each game's views)."""
    return []
