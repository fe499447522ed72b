"""What a seat sees. Hands, 计策 cards, decks and discard piles are private (the discard pile holds
unplayed hand cards after a turn ends), and so is a duel choice until both are revealed; the
public view shows only their sizes."""

from __future__ import annotations

from typing import Any

from engines.base import Msg, State, View
from engines.jiwu import board as B
from engines.jiwu import rules as R
from engines.jiwu.choices import asked
from engines.jiwu.rules import m, who


def _cards(state: State, iids: list[str]) -> list[dict[str, str]]:
    return [{"iid": i, "card": R.cid(state, i)} for i in iids]


def build(state: State, seat: int | None) -> View:
    players = []
    for s, p in enumerate(state["players"]):
        players.append({
            "seat": s, "color": R.COLORS[s], "hand": len(p["hand"]), "deck": len(p["deck"]),
            "discard": len(p["discard"]), "plans": len(p["plans"]), "played": _cards(state, p["played"]),
            "promoted": _cards(state, p["promoted"]), "trashed": _cards(state, p["trashed"]),
            "kills": dict(p["kills"]), "supply": p["supply"], "spies": p["spies"], "power": p["power"],
            "gold": p["gold"], "vp": dict(p["vp"]), "on_board": B.on_board(state, s),
            "generals": {g: {"card": R.cid(state, g), "hp": v["hp"], "slot": v["slot"]}
                         for g, v in p["generals"].items()},
        })
    duel = None
    if state["duel"]:
        d = state["duel"]
        duel = {"a": d["a"], "b": d["b"], "round": d["round"], "last": d["last"],
                "picked": sorted(int(k) for k in d["pick"])}
    view: View = {
        "game": "jiwu", "seats": state["seats"], "phase": state["phase"], "turn": state["turn"],
        "first": state["first"], "turns": state["turns"], "asked": asked(state),
        "slots": {k: (list(v) if v else None) for k, v in state["slots"].items()},
        "spies": {k: list(v) for k, v in state["spies"].items()}, "cities": dict(state["cities"]),
        "market": _cards(state, state["market"]), "market_deck": len(state["market_deck"]),
        "piles": {k: len(v) for k, v in state["piles"].items()}, "plan_deck": len(state["plan_deck"]),
        "plan_discard": _cards(state, state["plan_discard"]), "arts": sorted(state["arts"]),
        "effect": state["queue"][0]["op"] if state["phase"] == "effect" else None,
        "duel": duel, "players": players, "winners": list(state["winners"]),
        "end_reason": state["end_reason"],
        # Final scores once the game is over (they count deck cards, which are secret before).
        "scores": {str(s): R.score(state, s) for s in range(state["seats"])} if state["phase"] == "over" else None,
    }
    if seat is not None:
        p = state["players"][seat]
        mine: dict[str, Any] = {"seat": seat, "hand": _cards(state, p["hand"]), "plans": _cards(state, p["plans"]),
                                "discard": _cards(state, p["discard"]),
                                "deck": sorted(R.cid(state, i) for i in p["deck"])}
        if state["duel"]:
            mine["duel_pick"] = state["duel"]["pick"].get(str(seat))
        view["you"] = mine
    return view


def describe(view: View) -> list[Msg]:
    lines = []
    if view["phase"] != "over":
        lines.append(m("status.turn", player=who(view["turn"]), market=view["market_deck"]))
    for p in view["players"]:
        lines.append(m("status.player", player=who(p["seat"]), vp=sum(p["vp"].values()), supply=p["supply"],
                       power=p["power"], gold=p["gold"]))
    return lines


def private_summary(view: View) -> list[Msg]:
    """A seat's hand and 计策 cards, for its DM panel (from its own view only)."""
    mine = view.get("you")
    if not mine:
        return []
    lines = [m("private.hand", n=len(mine["hand"]))]
    lines += [m("private.card", card={"key": f"jiwu_names.card.{c['card']}"}) for c in mine["hand"]]
    if mine["plans"]:
        lines.append(m("private.plans", n=len(mine["plans"])))
        lines += [m("private.card", card={"key": f"jiwu_names.card.{c['card']}"}) for c in mine["plans"]]
    return lines
