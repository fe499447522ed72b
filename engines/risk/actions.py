"""Carrying out an already validated action on a copied state."""

from __future__ import annotations

from engines.base import Event, Msg, State
from engines.risk import battle, rules
from engines.risk import cards as cardrules
from engines.risk.choices import bonus_territories
from engines.rng import Rng


def execute(state: State, seat: int, action: list[str]) -> list[Event]:
    events: list[Event] = []
    phase = state["phase"]
    verb = action[0]
    if phase == "setup_claim":
        _claim(state, seat, action[1], events)
    elif phase == "setup_place":
        _setup_place(state, seat, action, events)
    elif phase == "setup_hq":
        _choose_hq(state, seat, action[1], events)
    elif verb == "trade":
        _trade(state, seat, action[1:4], action[4] if len(action) > 4 else None, events)
    elif verb == "place":
        _place(state, seat, action[1], int(action[2]), events)
    elif verb == "attack":
        stop = int(action[4]) if action[3] == "blitz" else None
        dice = int(action[4]) if action[3] == "dice" else None
        _attack(state, seat, action[1], action[2], stop, events, dice)
    elif verb == "move":
        _move_in(state, seat, int(action[1]), events)
    elif verb == "fortify":
        _fortify(state, seat, action[1], action[2], int(action[3]), events)
    elif verb == "end" and phase == "attack":
        rules.end_attack(state, events)
    elif verb == "end":
        rules.end_turn(state, events)
    # Goals are judged after play actions only: the set-up's last placement starts the first turn,
    # and a mission must be won by playing, not by the deal (docs/rules/risk.md). Without a goal
    # variant the only victory is the last seat standing, which ``rules.conquer`` judges at the
    # elimination that makes it, so there is nothing to judge here.
    if phase in rules.PLAY_PHASES and state["phase"] in rules.PLAY_PHASES and state["variant"] in rules.GOAL_VARIANTS:
        rules.check_victory(state, events)
    return events


# ----- set-up ------------------------------------------------------------------------------

def _claim(state: State, seat: int, territory: str, events: list[Event]) -> None:
    state["owner"][territory] = seat
    state["armies"][territory] = 1
    rules.player_to_edit(state, seat)["to_place"] -= 1
    events.append(Event(Msg("risk.ev.claim", {"player": rules.pname(state, seat),
                                              "territory": rules.tname(territory)}), kind="setup"))
    if any(o is None for o in state["owner"].values()):
        state["turn"] = rules.next_seat(state, seat)
    else:
        state["phase"] = "setup_place"
        _next_placer(state, seat, events)


def _next_placer(state: State, seat: int, events: list[Event]) -> None:
    players = state["players"]
    if all(p["to_place"] == 0 for p in players):
        _setup_done(state, events)
        return
    state["turn"] = rules.next_seat(state, seat, lambda s: players[s]["to_place"] > 0)


def _setup_place(state: State, seat: int, action: list[str], events: list[Event]) -> None:
    if state["setup"] == "quick":
        terr, count = action[1], int(action[2])
        hidden = rules.table_to_edit(state, "hidden").setdefault(str(seat), {})
        hidden[terr] = hidden.get(terr, 0) + count
        rules.player_to_edit(state, seat)["to_place"] -= count
        events.append(Event(Msg("risk.ev.place_secret", {"territory": rules.tname(terr), "count": count}),
                            to=(seat,), kind="setup"))
        if state["players"][seat]["to_place"] == 0:
            events.append(Event(Msg("risk.ev.deploy_done", {"player": rules.pname(state, seat)}), kind="setup"))
        if all(p["to_place"] == 0 for p in state["players"]):
            for _seat, placed in sorted(state["hidden"].items()):
                for t, n in placed.items():
                    state["armies"][t] += n
            state["hidden"] = {}
            events.append(Event(Msg("risk.ev.deploy_reveal"), kind="setup"))
            _setup_done(state, events)
        return
    if state["variant"] == "neutral":
        for t in action[1:3]:
            state["armies"][t] += 1
        state["armies"][action[3]] += 1
        rules.player_to_edit(state, seat)["to_place"] -= 2
        state["neutral_to_place"] -= 1
        events.append(Event(Msg("risk.ev.place_neutral_turn", {
            "player": rules.pname(state, seat), "a": rules.tname(action[1]), "b": rules.tname(action[2]),
            "neutral": rules.tname(action[3])}), kind="setup"))
    else:
        state["armies"][action[1]] += 1
        rules.player_to_edit(state, seat)["to_place"] -= 1
        events.append(Event(Msg("risk.ev.place_one", {"player": rules.pname(state, seat),
                                                      "territory": rules.tname(action[1])}), kind="setup"))
    _next_placer(state, seat, events)


def _setup_done(state: State, events: list[Event]) -> None:
    if state["variant"] == "hq":
        state["phase"] = "setup_hq"
        return
    _start_play(state, events)


def _choose_hq(state: State, seat: int, territory: str, events: list[Event]) -> None:
    rules.table_to_edit(state, "hq_choice")[str(seat)] = territory
    events.append(Event(Msg("risk.ev.hq_secret", {"territory": rules.tname(territory)}), to=(seat,), kind="hq"))
    events.append(Event(Msg("risk.ev.hq_chosen", {"player": rules.pname(state, seat)}), kind="hq"))
    if len(state["hq_choice"]) < state["seats"]:
        return
    holder, deck, aside = (rules.table_to_edit(state, k) for k in ("hq_holder", "deck", "hq_aside"))
    for s, t in sorted(state["hq_choice"].items()):
        rules.player_to_edit(state, int(s))["hq"] = t
        holder[t] = int(s)
        deck.remove(t)
        aside.append(t)
        events.append(Event(Msg("risk.ev.hq_reveal", {"player": rules.pname(state, int(s)),
                                                      "territory": rules.tname(t)}), kind="hq"))
    state["hq_choice"] = {}
    _start_play(state, events)


def _start_play(state: State, events: list[Event]) -> None:
    state["round"] = 1
    rules.begin_turn(state, state["first"], events)


# ----- reinforcement -----------------------------------------------------------------------

def _trade(state: State, seat: int, chosen: list[str], bonus_at: str | None, events: list[Event]) -> None:
    hand = rules.player_to_edit(state, seat)["cards"]
    discard = rules.table_to_edit(state, "discard")
    for c in chosen:
        hand.remove(c)
        discard.append(c)
    value = cardrules.trade_value(state["trade_count"])
    state["trade_count"] += 1
    state["reinforcements"] += value
    events.append(Event(Msg("risk.ev.trade", {"player": rules.pname(state, seat), "armies": value}),
                        kind="trade"))
    bonus = bonus_territories(state, seat, chosen)
    if bonus:
        where = bonus_at if bonus_at is not None else bonus[0]
        state["armies"][where] += 2
        events.append(Event(Msg("risk.ev.trade_bonus", {"player": rules.pname(state, seat),
                                                        "territory": rules.tname(where)}), kind="trade"))
    rules.after_reinforce(state, events)


def _place(state: State, seat: int, territory: str, count: int, events: list[Event]) -> None:
    state["armies"][territory] += count
    rules.take_reinforcements(state, territory, count)
    events.append(Event(Msg("risk.ev.place", {"player": rules.pname(state, seat), "count": count,
                                              "territory": rules.tname(territory)}), kind="place"))
    rules.after_reinforce(state, events)


# ----- attack ------------------------------------------------------------------------------

def _attack(state: State, seat: int, src: str, dst: str, stop: int | None, events: list[Event],
            dice: int | None = None) -> None:
    """One roll, or (blitz) rolls until the territory falls or ``src`` is down to ``stop`` armies.

    ``dice`` is the attacker's choice to roll fewer dice than allowed (one roll): fewer armies at
    risk, and a smaller minimum to move in after a conquest.
    """
    armies = state["armies"]
    defender = state["owner"][dst]
    total_att = total_def = rolls = 0
    a_src, a_dst = armies[src], armies[dst]
    floor = 1 if stop is None else max(1, stop)
    # Both sides' dice of a roll are drawn in one call (the same numbers in the same order as
    # two calls), unless a test fixed the dice, and the roll's losses are looked up
    # (battle.roll_outcomes); only the last roll's record is kept, so its dice are sorted once
    # after the loop. A blitz throws thousands of dice per game.
    draw = None if state.get("dice_queue") else Rng(state).dice
    outcomes = battle.roll_outcomes()
    # battle.attack_dice and defend_dice inline: this loop runs for every roll.
    max_att, max_def = battle.MAX_ATTACK_DICE, battle.MAX_DEFEND_DICE
    att: list[int] = []
    dfn: list[int] = []
    both: list[int] = []
    while True:
        ad = max_att if a_src > max_att else a_src - 1 if a_src > 1 else 0
        if dice is not None:
            ad = min(dice, ad)
        dd = max_def if a_dst > max_def else a_dst if a_dst > 0 else 0
        if draw is None:
            att, dfn = battle.roll(state, ad), battle.roll(state, dd)
            a_loss, d_loss = outcomes[(ad, *att, *dfn)]
        else:
            both = draw(ad + dd)
            a_loss, d_loss = outcomes[(ad, *both)]
        a_src -= a_loss
        a_dst -= d_loss
        total_att += a_loss
        total_def += d_loss
        rolls += 1
        conquered = a_dst == 0
        if conquered or stop is None or a_src <= floor:
            break
    if draw is not None:
        att, dfn = both[:ad], both[ad:]
    att.sort(reverse=True)
    dfn.sort(reverse=True)
    armies[src], armies[dst] = a_src, a_dst
    state["last_battle"] = {"from": src, "to": dst, "att_dice": att, "def_dice": dfn, "att_loss": a_loss,
                            "def_loss": d_loss, "conquered": conquered}
    rules.table_to_edit(state, "turn_summary").append({"from": src, "to": dst, "defender": defender, "rolls": rolls,
                                  "att_loss": total_att, "def_loss": total_def, "conquered": conquered})
    events.append(Event(Msg("risk.ev.battle", {
        "player": rules.pname(state, seat), "from": rules.tname(src), "to": rules.tname(dst),
        "defender": rules.pname(state, defender), "rolls": rolls, "att_loss": total_att,
        "def_loss": total_def}), kind="battle"))
    if conquered:
        rules.conquer(state, src, dst, len(att), events)
    else:
        rules.skip_idle_phases(state, events)


def _move_in(state: State, seat: int, total: int, events: list[Event]) -> None:
    occ = state["occupy"]
    extra = total - occ["min"]
    state["armies"][occ["from"]] -= extra
    state["armies"][occ["to"]] += extra
    events.append(Event(Msg("risk.ev.move_in", {"player": rules.pname(state, seat), "count": total,
                                                "territory": rules.tname(occ["to"])}), kind="move"))
    rules.after_occupy(state, events)


def _fortify(state: State, seat: int, src: str, dst: str, count: int, events: list[Event]) -> None:
    """Classic published rule: one fortifying move, then the turn ends."""
    state["armies"][src] -= count
    state["armies"][dst] += count
    events.append(Event(Msg("risk.ev.fortify", {"player": rules.pname(state, seat), "count": count,
                                                "from": rules.tname(src), "to": rules.tname(dst)}),
                        kind="fortify"))
    rules.end_turn(state, events)

