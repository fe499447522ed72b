"""A purposeful 鬪三國 player, and the random player it is measured against.

The AI plays greedy with rules of thumb, in this order: occupy an idle city (a cheap point),
strike a weaker linked enemy city (a national war it expects to win), use a stratagem when it
pays (美人計 on a one-troop city of a leader, 調虎離山 before a strike on a fortified city), and
otherwise expand. Placement is scored without copying the state: each candidate's effect on the
cities it touches (open walls left, who garrisons them, whether it closes now) is computed from
the neighbours' city records, so a turn stays cheap enough for hundreds of self-play games.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from functools import lru_cache
from math import comb
from typing import Any

from engines.adapter import random_walk
from engines.base import Action, State
from engines.kingdoms_battle import board, choices
from engines.kingdoms_battle import rules as R
from engines.kingdoms_battle.data import CITY, Face, tiles
from engines.kingdoms_battle.rules import ALERT, FORT


def random_action(state: State, seat: int, rng: random.Random) -> Action:
    """Walk the action tree choosing uniformly, stopping at a complete action half the time
    when it could go on (the 'easy' level, the baseline the AI must beat)."""
    return random_walk(lambda path: choices.tree(state, seat, path), rng)


def _binom(n: int) -> list[float]:
    """P(k hits) for n dice hitting on 5–6."""
    return [comb(n, k) * (1 / 3) ** k * (2 / 3) ** (n - k) for k in range(n + 1)]


@lru_cache(maxsize=4096)
def win_chance(att: int, fort: int, alert: int) -> float:
    """P(the attacker wipes out the defenders) fighting to the end: ``att`` alert attackers
    against ``fort`` fortified and ``alert`` alert defenders (a hit turns a fortified one alert
    first). Rounds where nobody hits repeat, so they are divided out."""
    if att == 0:
        return 0.0  # also when both sides fell together: the city is lost to both
    if fort + alert == 0:
        return 1.0
    pa, pd = _binom(att), _binom(fort + alert)
    total = stay = 0.0
    for ha, p1 in enumerate(pa):
        conv = min(ha, fort)
        f, a = fort - conv, alert + conv
        a -= min(ha - conv, a)
        for hd, p2 in enumerate(pd):
            left = att - min(hd, att)
            if (f, a, left) == (fort, alert, att):
                stay += p1 * p2
            else:
                total += p1 * p2 * win_chance(left, f, a)
    return total / (1 - stay)


def _odds(state: State, src_alert: int, dst: str) -> float:
    troops = [t for _s, t in R.troops_in(state, dst)]
    return win_chance(src_alert, sum(1 for t in troops if t[1] == FORT), sum(1 for t in troops if t[1] == ALERT))


def _hp(state: State, cid: str) -> int:
    return sum(2 if t[1] == FORT else 1 for _s, t in R.troops_in(state, cid))


def _groups(state: State, face: Face, x: int, y: int) -> list[dict[str, Any]]:
    """What placing ``face`` at (x, y) would do to cities: one record per resulting city."""
    at = state["at"]
    seg_nb: list[set[str]] = [set() for _ in face.cities]
    matched = [0] * len(face.cities)
    for side, (dx, dy) in enumerate(board.STEP):
        if face.edges[side] != CITY:
            continue
        other = at.get(board.cell(x + dx, y + dy))
        if other is None:
            continue
        oface = board.face_of(state, other)
        oside = (side + 2) % 4
        oseg = next(i for i, c in enumerate(oface.cities) if oside in c)
        s = next(i for i, c in enumerate(face.cities) if side in c)
        seg_nb[s].add(state["seg_city"][f"{other}.{oseg}"])
        matched[s] += 1
    groups: list[dict[str, Any]] = []
    for s in range(len(face.cities)):
        g = next((g for g in groups if g["nb"] & seg_nb[s]), None)
        if g is None:
            g = {"segs": [], "nb": set(), "matched": 0}
            groups.append(g)
        g["segs"].append(s)
        g["nb"] |= seg_nb[s]
        g["matched"] += matched[s]
    for g in groups:
        cities = [state["cities"][c] for c in g["nb"]]
        g["open"] = sum(len(face.cities[s]) for s in g["segs"]) + sum(c["open"] for c in cities) - 2 * g["matched"]
        g["tiles"] = 1 + len({t for c in cities for t in c["tiles"]})
        g["troops"] = [t for c in g["nb"] for _s, t in R.troops_in(state, c)]
        g["spaces"] = [k for k, seg in enumerate(face.spaces) if seg in g["segs"]]
    return groups


#: ``civil(group, pts, mine, theirs, garrison, left) -> (value, left)``: how a level scores laying
#: a tile that closes a city other players hold (it may fill ``garrison`` with the tile's spaces
#: there, ``left`` troops in hand); without one, the normal level's rule of thumb.
CivilRule = Callable[[dict[str, Any], int, int, int, list[str], int], tuple[float, int]]


def lays(state: State) -> Iterator[tuple[int, int, int, Face]]:
    """Every legal lay of the drawn tile: (x, y, rotation, the face so turned), in the engine's
    spot order: the one enumeration every level scores its lays over."""
    ttype = tiles().types[state["drawn"]]
    for (x, y), rots in board.legal_spots(state, state["drawn"]).items():
        for rot in rots:
            face = ttype.face(rot)
            assert face is not None
            yield x, y, rot, face


def scored_lays(state: State, seat: int, civil: CivilRule | None = None) -> Iterator[tuple[float, str, int, list[str]]]:
    """(value, cell, rotation, garrison) of every lay by the normal level's rules of thumb (with a
    level's own civil-war rule, if given); a level that looks further ranks by these first."""
    supply = state["players"][seat]["supply"]
    for x, y, rot, face in lays(state):
        garrison = ["-"] * len(face.spaces)
        left = supply
        value = 0.0
        for g in _groups(state, face, x, y):
            pts = 2 if g["tiles"] > board.SMALL_MAX_TILES else 1
            mine = sum(1 for t in g["troops"] if t[0] == seat)
            theirs = len(g["troops"]) - mine
            if g["open"] == 0:
                if theirs == 0 and (mine or (g["spaces"] and left)):
                    value += 10 * pts
                    if not mine:
                        garrison[g["spaces"][0]] = FORT
                        left -= 1
                elif theirs and civil is not None:
                    gain, left = civil(g, pts, mine, theirs, garrison, left)
                    value += gain
                elif theirs and not mine:
                    value -= 6 * pts
                    if g["spaces"] and left >= 2:
                        for k in g["spaces"]:
                            if left:
                                garrison[k] = ALERT
                                left -= 1
                        value += 4 * pts
                elif mine and theirs:
                    value += 3 * pts * (mine - theirs)
                else:
                    value += 1  # an idle city to occupy later
            else:
                if mine and not theirs:
                    value += 4 - min(g["open"], 4)
                elif theirs and not mine:
                    value -= 1
                elif not g["troops"] and g["spaces"] and left > 3 and g["open"] <= 3:
                    garrison[g["spaces"][0]] = ALERT
                    left -= 1
                    value += 2
        yield value, board.cell(x, y), rot, garrison


def _placement(state: State, seat: int, civil: CivilRule | None = None) -> tuple[float, str, int, list[str]]:
    best: tuple[float, str, int, list[str]] | None = None
    for lay in scored_lays(state, seat, civil):
        if best is None or lay[0] > best[0]:
            best = lay
    assert best is not None
    return best


#: Fight when the chance to take the city is at least this.
STRIKE_ODDS = 0.55


def _strike(state: State, seat: int, need_link: bool) -> tuple[str, str, int] | None:
    """The best national war: enough alert troops to beat the defenders' hit points."""
    links = board.links(state)
    best = None
    for src in R.controlled(state, seat):
        alert = R.count_states(state, src, seat)[ALERT]
        if not alert:
            continue
        for dst in [c for c in R.done_cities(state) if R.owner(state, c) not in (None, seat)]:
            if need_link and dst not in links.get(src, set()):
                continue
            odds = _odds(state, alert, dst)
            if odds >= STRIKE_ODDS:
                key = (board.value(state, dst) * odds, alert)
                if best is None or key > best[0]:
                    best = (key, src, dst, alert)
    return None if best is None else (best[1], best[2], best[3])


def _leader(state: State, seat: int) -> int | None:
    others = [s for s in range(state["seats"]) if s != seat]
    top = max(others, key=lambda s: R.score(state, s))
    return top if R.score(state, top) >= max(3, R.score(state, seat)) else None


def _turn(state: State, seat: int, rng: random.Random) -> Action:
    p = state["players"][seat]
    idle = R.idle(state)
    if idle and p["supply"]:
        return ["occupy", max(idle, key=lambda c: (board.value(state, c), c))]
    if p["cards"]:
        strike = _strike(state, seat, True)
        if strike:
            lure = _lure(state, seat, anyway=True) if "lure" in p["plots"] else None
            if lure and lure[0] == strike[1]:
                return ["card", "plot", "lure", *lure]  # the same war for the same card, likelier won
            return ["card", "war", strike[0], strike[1], str(strike[2])]
        leader = _leader(state, seat)
        if leader is not None and "beauty" in p["plots"]:
            weak = beauty_targets(state, leader)
            if weak:
                return beauty(state, seat, weak[0])
        if leader is not None and "tiger" in p["plots"]:
            tiger = _tiger(state, seat, leader)
            if tiger:
                return ["card", "plot", "tiger", *tiger]
        if "lure" in p["plots"]:
            lure = _lure(state, seat)
            if lure:
                return ["card", "plot", "lure", *lure]
        if "chencang" in p["plots"] and state["stats"]["turns"] > 20:
            strike = _strike(state, seat, False)
            if strike:
                return ["card", "plot", "chencang", strike[0], strike[1], str(strike[2])]
    prep = _prepare(state, seat)
    if prep and rng.random() < 0.5:
        return prep
    if state["stack"]:
        return ["expand"]
    return random_action(state, seat, rng)


def beauty_targets(state: State, holder: int) -> list[str]:
    """``holder``'s cities that 美人計 can take: those held by one troop."""
    return [c for c in R.controlled(state, holder) if len(R.troops_in(state, c)) == 1]


def beauty(state: State, seat: int, city: str) -> Action:
    """美人計 on ``city``'s one troop, sending a troop (fortified) into a city of its own with a
    free space if it has one in hand: the one way every level words it."""
    st = R.troops_in(state, city)[0][1][1]
    own = [c for c in R.controlled(state, seat) if R.free_spaces(state, c)] if state["players"][seat]["supply"] else []
    return ["card", "plot", "beauty", city, st] + ([own[0], FORT] if own else ["-"])


def _tiger(state: State, seat: int, leader: int) -> tuple[str, str] | None:
    """驅虎吞狼 against the leader: a third player's city that likely takes a leader's city."""
    links = board.links(state)
    best = None
    for dst in R.controlled(state, leader):
        for src in sorted(links.get(dst, set())):  # a set's order changes from process to process
            att = R.owner(state, src)
            if att in (None, seat, leader):
                continue
            odds = _odds(state, R.count_states(state, src, att)[ALERT], dst)
            if odds >= STRIKE_ODDS and (best is None or odds > best[0]):
                best = (odds, src, dst)
    return None if best is None else (best[1], best[2])


def _lure(state: State, seat: int, anyway: bool = False) -> tuple[str, str, str] | None:
    """調虎離山 (one command card, like a war): turn a linked enemy city's fortified defenders alert
    and strike it at once — where that makes the strike worth it, or (``anyway``) where the strike
    was worth it already and is likelier won lured; the most valuable such war."""
    links = board.links(state)
    best = None
    for src in R.controlled(state, seat):
        alert = R.count_states(state, src, seat)[ALERT]
        if not alert:
            continue
        for dst in sorted(links.get(src, set())):
            if R.owner(state, dst) in (None, seat):
                continue
            troops = R.troops_in(state, dst)
            if not any(t[1] == FORT for _s, t in troops):
                continue  # nothing to lure out
            lured = win_chance(alert, 0, len(troops))
            plain = _odds(state, alert, dst)
            if lured < STRIKE_ODDS or (plain >= STRIKE_ODDS and not anyway):
                continue
            key = (board.value(state, dst) * lured, alert)
            if best is None or key > best[0]:
                best = (key, dst, src, alert)
    return None if best is None else (best[1], best[2], str(best[3]))


def _prepare(state: State, seat: int) -> Action | None:
    """Reinforce an alert troop where one more would make a strike worth a command card."""
    if not state["players"][seat]["supply"] or not state["players"][seat]["cards"]:
        return None
    links = board.links(state)
    for src in R.controlled(state, seat):
        if not R.free_spaces(state, src):
            continue
        alert = R.count_states(state, src, seat)[ALERT]
        for dst in sorted(links.get(src, set())):
            if R.owner(state, dst) in (None, seat):
                continue
            if _odds(state, alert, dst) < STRIKE_ODDS <= _odds(state, alert + 1, dst):
                return ["dispatch", "in", src, ALERT]
    return None


def decide(state: State, seat: int, rng: random.Random) -> Action:
    phase = state["phase"]
    if phase == "place":
        _v, cell, rot, garrison = _placement(state, seat)
        return ["place", cell, str(rot), *garrison]
    if phase == "war":
        war = state["war"]
        return ["go"] if _odds(state, war["n"], war["dst"]) >= 0.35 else ["retreat"]
    if phase == "after":
        war = state["war"]
        hi = choices.after_max(state)
        keep_home = 1 if not R.troops_in(state, war["src"]) and war["n"] >= 2 else 0
        return ["after", str(max(0, min(hi, war["n"] - keep_home)) if hi else 0)]
    if phase == "counter":
        war = state["war"]
        hi = choices.after_max(state)
        return ["counter", "1" if hi and len(R.troops_in(state, war["dst"])) >= 2 else "0"]
    return _turn(state, seat, rng)
