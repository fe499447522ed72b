"""What each seat may see, and short text lines built from a view.

Hidden: each hand (others see counts), missions (until the game ends), HQ choices before the
reveal, and quick-set-up placements before the reveal (a seat sees its own pending placements
added to its territories, everyone else the board as it was dealt).
"""

from __future__ import annotations

from typing import Any

from engines.base import Msg, State, View, key_ref, seat_ref
from engines.risk import cards as cardrules
from engines.risk import rules
from engines.risk.data import content


def _card(card_id: str) -> dict[str, Any]:
    card = content().cards[card_id]
    return {"id": card_id, "territory": card.territory, "symbol": card.symbol}


def build(state: State, seat: int | None) -> View:
    c = content()
    owner, armies = state["owner"], state["armies"]
    own_hidden = state["hidden"].get(str(seat), {}) if seat is not None else {}
    # A seat's secret deployment stays in "you" only: everything outside "you" is the public table,
    # so a seat view can be drawn or posted without leaking (tests/test_hidden_information.py).
    territories = {t: {"owner": owner[t], "armies": armies[t]} for t in c.territories}
    over = state["phase"] == "over"
    # Territory and army counts and continent holders in one pass over the map (the AI builds a
    # view per move, so this is on its hot path).
    seats = range(len(state["players"]))
    counts = dict.fromkeys(seats, 0)
    totals = dict.fromkeys(seats, 0)
    for t, o in owner.items():
        if o in counts:
            counts[o] += 1
            totals[o] += armies[t]
    held: dict[int, list[str]] = {i: [] for i in seats}
    for cont, terrs in c.continents.items():
        o = owner[terrs[0]]
        if o in held and all(owner[t] == o for t in terrs):
            held[o].append(cont)
    variant_hq = state["variant"] == "hq"
    players = []
    for i, p in enumerate(state["players"]):
        players.append({
            "seat": i, "color": p["color"], "cards": len(p["cards"]), "territories": counts[i],
            "armies": totals[i], "alive": p["alive"],
            "hq": p["hq"], "hqs_captured": rules.hqs_captured(state, i) if variant_hq else [],
            "to_place": p["to_place"],
            "continents": held[i],
            "mission": ({"id": rules.effective_mission(state, i), "text": rules.mission_msg(state, i).to_json()}
                        if over and p["mission"] else None),
        })
    view: View = {
        "game": "risk",
        "variant": state["variant"],
        "setup": state["setup"],
        "phase": state["phase"],
        "turn": state["turn"],
        "first": state["first"],
        "round": state["round"],
        "max_rounds": state["max_rounds"],
        "territories": territories,
        "players": players,
        "neutral_to_place": state["neutral_to_place"],
        "occupy": dict(state["occupy"]) if state["occupy"] else None,
        "last_battle": dict(state["last_battle"]) if state["last_battle"] else None,
        "turn_summary": [dict(e) for e in state["turn_summary"]],
        "trade_count": state["trade_count"],
        "next_trade_value": cardrules.trade_value(state["trade_count"]),
        "reinforcements_left": rules.reinforcements_left(state),
        # Continent-bonus armies still to place, each only inside its continent (public, like
        # every reinforcement); counted in reinforcements_left too.
        "bonus_pools": dict(rules.bonus_pools(state)),
        "post_elim": state["post_elim"],
        "conquered_this_turn": state["conquered"],
        "deck": len(state["deck"]),
        "discard": len(state["discard"]),
        "hq_chosen": sorted(int(s) for s in state["hq_choice"]),
        "winners": list(state["winners"]) if state["winners"] is not None else None,
        "end_reason": state["end_reason"],
    }
    if seat is not None and 0 <= seat < state["seats"]:
        p = state["players"][seat]
        view["you"] = {
            "seat": seat,
            "cards": [_card(cid) for cid in p["cards"]],
            "mission": ({"id": rules.effective_mission(state, seat),
                         "text": rules.mission_msg(state, seat).to_json()} if p["mission"] else None),
            "hq": p["hq"] or state["hq_choice"].get(str(seat)),
            "pending_placement": dict(own_hidden),
        }
    return view


def describe(view: View) -> list[Msg]:
    lines: list[Msg] = []
    phase = view["phase"]
    if phase == "over":
        for s in view["winners"] or []:
            lines.append(Msg("risk.desc.winner", {"player": seat_ref(s, f"risk.color.{view['players'][s]['color']}")}))
        lines.append(Msg("risk.desc.end", {"reason": key_ref(f"risk.end.{view['end_reason']}")}))
    else:
        turn_color = seat_ref(view["turn"], f"risk.color.{view['players'][view['turn']]['color']}")
        phase_name = key_ref(f"risk.phase.{phase}")
        if phase == "setup_hq" or (phase == "setup_place" and view["setup"] == "quick"):
            lines.append(Msg("risk.desc.simultaneous", {"phase": phase_name}))
        elif phase.startswith("setup"):
            lines.append(Msg("risk.desc.setup", {"phase": phase_name, "player": turn_color}))
        else:
            lines.append(Msg("risk.desc.phase", {"phase": phase_name, "player": turn_color, "round": view["round"]}))
        if phase == "reinforce":
            lines.append(Msg("risk.desc.reinforcements", {"n": view["reinforcements_left"]}))
            for cont, n in view.get("bonus_pools", {}).items():
                lines.append(Msg("risk.desc.bonus_pool", {"n": n, "continent": rules.cname(cont)}))
    for p in view["players"]:
        if not p["alive"]:
            lines.append(Msg("risk.desc.out", {"player": seat_ref(p["seat"], f"risk.color.{p['color']}")}))
            continue
        lines.append(Msg("risk.desc.player", {"player": seat_ref(p["seat"], f"risk.color.{p['color']}"), "territories": p["territories"],
                                              "armies": p["armies"], "cards": p["cards"]}))
    lb = view["last_battle"]
    if lb and phase != "over":
        lines.append(Msg("risk.desc.battle", {
            "from": rules.tname(lb["from"]), "to": rules.tname(lb["to"]),
            "att": " ".join(map(str, lb["att_dice"])), "def": " ".join(map(str, lb["def_dice"])),
            "att_loss": lb["att_loss"], "def_loss": lb["def_loss"]}))
    lines.append(Msg("risk.desc.trade_value", {"n": view["next_trade_value"]}))
    return lines


def private_summary(view: View) -> list[Msg]:
    you = view.get("you")
    if not you:
        return []
    lines: list[Msg] = []
    if you["cards"]:
        for card in you["cards"]:
            name = rules.tname(card["territory"]) if card["territory"] else key_ref("risk.card.wild")
            lines.append(Msg("risk.private.card", {"name": name, "symbol": key_ref(f"risk.symbol.{card['symbol']}")}))
    else:
        lines.append(Msg("risk.private.no_cards"))
    if you["mission"]:
        lines.append(Msg("risk.private.mission", {"mission": _msg_param(you["mission"]["text"])}))
    if you["hq"]:
        lines.append(Msg("risk.private.hq", {"territory": rules.tname(you["hq"])}))
    for t, n in sorted(you.get("pending_placement", {}).items()):
        lines.append(Msg("risk.private.pending", {"territory": rules.tname(t), "count": n}))
    return lines


def _msg_param(text: dict[str, Any]) -> dict[str, Any]:
    """A mission text (a Msg in JSON form) nests as a message parameter."""
    return key_ref(text["key"], **text.get("params", {}))
