"""The easy 鬪三國 player: sensible but short-sighted.

It takes the obvious move of the moment and never plans: it occupies an idle city when one lies
open, strikes only a linked city it is very likely to take (never preparing the strike, never
playing a stratagem), and otherwise draws a tile. It lays the tile where it closes a city of its
own or an empty one (garrisoning it), else anywhere that looks fine, with some noise; it never
joins another player's city and never counts what other players will do next.
"""

from __future__ import annotations

import random

from engines.base import Action, State
from engines.kingdoms_battle import ai, board, choices
from engines.kingdoms_battle import rules as R
from engines.kingdoms_battle.rules import ALERT

#: Strike only at these odds or better (normal strikes from 0.55 and prepares strikes).
SURE_ODDS = 0.8
#: How often its turn is a whim: any legal action, chosen at random.
SLIP = 0.25
#: How much noise blurs its placement scores (a city closed is worth 10 a point).
NOISE = 6.0


def _placement(state: State, seat: int, rng: random.Random) -> Action:
    best: tuple[float, Action] | None = None
    supply = state["players"][seat]["supply"]
    for x, y, rot, face in ai.lays(state):
        garrison = ["-"] * len(face.spaces)
        left = supply
        value = rng.random() * NOISE
        for g in ai._groups(state, face, x, y):
            pts = 2 if g["tiles"] > board.SMALL_MAX_TILES else 1
            mine = sum(1 for t in g["troops"] if t[0] == seat)
            theirs = len(g["troops"]) - mine
            if theirs or g["open"] or not (mine or (g["spaces"] and left)):
                continue  # only a city it closes now for itself counts
            value += 10 * pts
            if not mine:
                garrison[g["spaces"][0]] = ALERT
                left -= 1
        if best is None or value > best[0]:
            best = (value, ["place", board.cell(x, y), str(rot), *garrison])
    assert best is not None
    return best[1]


def _turn(state: State, seat: int, rng: random.Random) -> Action:
    if rng.random() < SLIP:
        return ai.random_action(state, seat, rng)
    p = state["players"][seat]
    idle = R.idle(state)
    if idle and p["supply"]:
        return ["occupy", rng.choice(idle)]
    if p["cards"]:
        links = board.links(state)
        for src in R.controlled(state, seat):
            alert = R.count_states(state, src, seat)[ALERT]
            for dst in sorted(links.get(src, set())):
                if alert and R.owner(state, dst) not in (None, seat) and ai._odds(state, alert, dst) >= SURE_ODDS:
                    return ["card", "war", src, dst, str(alert)]
    if state["stack"]:
        return ["expand"]
    return ai.random_action(state, seat, rng)


def decide(state: State, seat: int, rng: random.Random) -> Action:
    phase = state["phase"]
    if phase == "place":
        return _placement(state, seat, rng)
    if phase == "war":
        war = state["war"]
        return ["go"] if ai._odds(state, war["n"], war["dst"]) >= 0.5 else ["retreat"]
    if phase == "after":
        return ["after", str(choices.after_max(state))]
    if phase == "counter":
        return ["counter", "0"]
    return _turn(state, seat, rng)
