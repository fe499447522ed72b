"""Carry out a validated action (``choices.validate`` has accepted the whole path)."""

from __future__ import annotations

from engines.base import Event, State
from engines.kingdoms_battle import board
from engines.kingdoms_battle import rules as R
from engines.kingdoms_battle.rules import ALERT, FORT, m, who


def execute(state: State, seat: int, path: list[str]) -> list[Event]:
    verb, rest = path[0], path[1:]
    if verb == "expand":
        return R.draw(state)
    if verb == "place":
        xy = board.parse_cell(rest[0])
        assert xy is not None
        events = R.place(state, seat, xy[0], xy[1], int(rest[1]), rest[2:])
        state["phase"] = "action"
    elif verb == "go":
        state["phase"] = "action"
        events = R.war_rounds(state)
    elif verb == "retreat":
        events = R.retreat(state)
    elif verb == "after":
        events = R.after_war(state, int(rest[0]))
    elif verb == "counter":
        events = R.counter(state, int(rest[0]))
    else:
        handler = {"dispatch": _dispatch, "switch": _switch, "card": _card, "occupy": _occupy}[verb]
        events = handler(state, seat, rest)
    if state["phase"] in ("war", "after", "counter", "over"):
        return events
    return events + R.after_action(state)


def _dispatch(state: State, seat: int, rest: list[str]) -> list[Event]:
    verb, city = rest[0], rest[1]
    if verb == "in":
        R.add_troop(state, seat, city, rest[2])
        return [Event(m("ev.in", player=who(seat), n=1, city=R.city_ref(state, city)))]
    if verb == "out":
        R.remove_troop(state, city, seat, rest[2])
        return [Event(m("ev.out", player=who(seat), n=1, city=R.city_ref(state, city)))]
    R.remove_troop(state, city, seat, ALERT)
    R.add_troop(state, seat, rest[2], ALERT)
    return [Event(m("ev.move", player=who(seat), src=R.city_ref(state, city), dst=R.city_ref(state, rest[2])))]


def _switch(state: State, seat: int, rest: list[str]) -> list[Event]:
    to = rest[0][3:]
    frm = ALERT if to == FORT else FORT
    total = 0
    for cid, n in zip(rest[1::2], rest[2::2], strict=True):
        k = int(n)
        for space, troop in R.troops_in(state, cid):
            if k and troop[0] == seat and troop[1] == frm:
                state["troops"][space][1] = to
                k -= 1
                total += 1
    return [Event(m(f"ev.switch_{to}", player=who(seat), n=total))]


def _card(state: State, seat: int, rest: list[str]) -> list[Event]:
    state["players"][seat]["cards"] -= 1
    verb = rest[0]
    if verb == "war":
        return R.start_war(state, seat, rest[1], rest[2], int(rest[3]), retreat=True)
    if verb in ("in", "out"):
        city, pair = rest[1], rest[2]
        for st in pair:
            if verb == "in":
                R.add_troop(state, seat, city, st)
            else:
                R.remove_troop(state, city, seat, st)
        return [Event(m(f"ev.{verb}", player=who(seat), n=2, city=R.city_ref(state, city)))]
    plot, args = rest[1], rest[2:]
    state["players"][seat]["plots"].remove(plot)
    events = [Event(m("ev.plot", player=who(seat), plot=R.key_ref(f"kingdoms_battle.opt.plot.{plot}")))]
    if plot == "tiger":
        src, dst = args
        att = R.owner(state, src)
        assert att is not None
        n = R.count_states(state, src, att)[ALERT]
        return events + R.start_war(state, att, src, dst, n, retreat=False)
    if plot == "chencang":
        return events + R.start_war(state, seat, args[0], args[1], int(args[2]), retreat=True)
    if plot == "beauty":
        victim = R.owner(state, args[0])
        assert victim is not None
        R.remove_troop(state, args[0], victim, args[1])
        events.append(Event(m("ev.out", player=who(victim), n=1, city=R.city_ref(state, args[0]))))
        if args[2] != "-":
            R.add_troop(state, seat, args[2], args[3])
            events.append(Event(m("ev.in", player=who(seat), n=1, city=R.city_ref(state, args[2]))))
        return events
    # lure: every fortified troop there turns alert, then an optional war without a card
    target = args[0]
    for space, troop in R.troops_in(state, target):
        if troop[1] == FORT:
            state["troops"][space][1] = ALERT
    events.append(Event(m("ev.lured", city=R.city_ref(state, target))))
    if args[1] != "-":
        events += R.start_war(state, seat, args[1], target, int(args[2]), retreat=True)
    return events


def _occupy(state: State, seat: int, rest: list[str]) -> list[Event]:
    city = rest[0]
    need = 5 if board.is_large(state, city) else 4
    die = R.roll(state, 1)[0]
    ok = die >= need
    events = [Event(m("ev.occupy_ok" if ok else "ev.occupy_fail", player=who(seat), die=die, need=need,
                      city=R.city_ref(state, city)))]
    if ok:
        R.add_troop(state, seat, city, ALERT)
    return events
