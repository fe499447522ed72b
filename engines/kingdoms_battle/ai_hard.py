"""The hard 鬪三國 player: the normal AI's judgement, checked by a sampled lookahead.

On its own turn it lists the moves worth comparing (draw a tile, occupy the best idle city, each
national war with a fair chance, fortifying a threatened city, a second troop for a one-troop
city, and whatever the normal AI would do) and plays each out on *determinized* copies of the
table: the stack is re-dealt from the tiles nobody has seen (the view shows the tiles on the map
and how many are left, never the order) and the dice get a seed of its own, so nothing it may not
know steers it. Each copy runs to the end of the turn (the tile laid, the war fought with the
normal AI's answers) and is scored by :func:`standing`: points held, discounted by the threat of
linked enemy troops, plus open cities it alone garrisons, minus the best rival's standing, after
what the rivals take before its next turn (idle cities, a 美人計 on the leader). Where only one
move is on the list it spends no time. Its own lays are chosen by the same standing among the
best few by the normal level's rules of thumb.

It also lays tiles to start civil wars it expects to win: closing a city another player holds
while garrisoning the new tile's spaces there, when the duel's odds (every troop one life, hits on
5–6) make it worth the risk; the normal AI only ever joins a city it would otherwise hand over.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any, NamedTuple

from engines.base import Action, State
from engines.jsoncopy import clone
from engines.kingdoms_battle import actions, ai, board, choices
from engines.kingdoms_battle import rules as R
from engines.kingdoms_battle.data import tiles
from engines.kingdoms_battle.rules import ALERT, FORT

Links = dict[str, set[str]]

#: Determinized copies a tile drawn is played on (the stack re-dealt on each)...
SAMPLES = 3
#: ... and a war (the dice are what decides it); a move without chance is played once.
WAR_SAMPLES = 6
#: How much of a city's points a sure national war against it takes off its holder's standing.
THREAT = 0.6
#: Standing of an open city only this seat garrisons, per point, divided by (1 + open walls).
OPEN_CITY = 0.3
#: Standing of a troop in hand and of a command card left.
SUPPLY, CARD = 0.05, 0.1
#: Wars worth comparing: at least these odds of taking the city.
CANDIDATE_ODDS = 0.3
#: A city is worth fortifying when a linked enemy could take it with at least these odds.
FORTIFY_THREAT = 0.2
#: A tie between the normal AI's move and another goes to the normal AI's.
PREFER_NORMAL = 0.01
#: The chance a rival's 美人計 (played on the leader's first one-troop city) costs it that city.
BEAUTY_RISK = 0.5
#: Its own lays weighed by the standing they leave: the best few by the normal level's scores...
LAY_SHORTLIST = 8
#: ... each laid once, and when the lay starts a civil war, on this many dice seeds of its own.
LAY_SAMPLES = 3


@lru_cache(maxsize=1024)
def duel_win(a: int, b: int) -> float:
    """P(side ``a`` is the one left) in a civil war's duel: every troop one life, each 5–6 sends
    one enemy troop home, rounds without a hit are rolled again (divided out)."""
    if a == 0:
        return 0.0
    if b == 0:
        return 1.0
    pa, pb = ai._binom(a), ai._binom(b)
    total = 0.0
    for ha, p1 in enumerate(pa):
        for hb, p2 in enumerate(pb):
            if ha or hb:
                total += p1 * p2 * duel_win(a - min(hb, a), b - min(ha, b))
    return total / (1 - pa[0] * pb[0])


def _civil(g: dict[str, Any], pts: int, mine: int, theirs: int, garrison: list[str], left: int) -> tuple[float, int]:
    """Closing a city others hold: put every troop the tile's spaces there take in (alert), and
    weigh the city won against it handed over by the duel's odds."""
    k = 0
    for space in g["spaces"]:
        if left:
            garrison[space] = ALERT
            left -= 1
            k += 1
    p = duel_win(mine + k, theirs)
    return 10 * pts * p - 6 * pts * (1 - p) - 0.5 * k, left


def placement(state: State, seat: int) -> Action:
    """The lay by the normal level's rules of thumb with hard's civil-war rule: how the search
    plays its own lays out (cheap, no copies)."""
    _v, cell, rot, garrison = ai._placement(state, seat, _civil)
    return ["place", cell, str(rot), *garrison]


def weighed_placement(state: State, seat: int, rng: random.Random) -> Action:
    """The lay it makes: the best few by the rules of thumb, each laid on copies and judged by
    the :func:`standing` it leaves, which sees what the rules of thumb miss — a city closed idle
    goes to the next rival, a city closed beside a rival's alert troops is theirs to strike."""
    ranked = sorted(ai.scored_lays(state, seat, _civil), key=lambda lay: -lay[0])[:LAY_SHORTLIST]
    if len(ranked) == 1:
        _v, cell, rot, garrison = ranked[0]
        return ["place", cell, str(rot), *garrison]
    dice = [rng.getrandbits(64) for _ in range(LAY_SAMPLES)]
    civil = state["stats"]["civil"]
    best: tuple[float, Action] | None = None
    for rank, (_v, cell, rot, garrison) in enumerate(ranked):
        move = ["place", cell, str(rot), *garrison]
        scores: list[float] = []
        for seed in dice:
            after = clone(state)
            after["rng"] = seed
            actions.execute(after, seat, move)
            scores.append(standing(after, seat))
            if after["stats"]["civil"] == civil:
                break  # no dice were rolled: one lay tells all
        score = sum(scores) / len(scores) + (PREFER_NORMAL if rank == 0 else 0.0)
        if best is None or score > best[0]:
            best = (score, move)
    assert best is not None
    return best[1]


# --------------------------------------------------------------------------- what the seat may know

def unseen(state: State) -> list[int]:
    """The tiles neither on the map nor drawn: what the stack (and the rare discards) may hold.
    Read from the public table only (the tiles laid, the drawn tile); the stack's order is not."""
    pool = tiles().bag()
    for t, *_rest in state["tiles"][1:]:  # the first tile is the start tile, not in the bag
        pool.remove(t)
    if state["drawn"] is not None:
        pool.remove(state["drawn"])
    return pool


def determinize(state: State, rng: random.Random, pool: list[int]) -> State:
    """A copy of the table with the hidden part dealt afresh: a stack of the right size from the
    unseen tiles, and dice of its own."""
    sample = clone(state)
    sample["stack"] = rng.sample(pool, len(state["stack"]))
    sample["rng"] = rng.getrandbits(64)
    return sample


# --------------------------------------------------------------------------- judging a table

def threat(state: State, seat: int, cid: str, fort: int, alert: int, links: Links) -> float:
    """The best odds a linked enemy with a command card has against ``cid`` so garrisoned."""
    best = 0.0
    for src in links.get(cid, set()):
        holder = R.owner(state, src)
        if holder in (None, seat) or not state["players"][holder]["cards"]:
            continue
        n = R.count_states(state, src, holder)[ALERT]
        if n:
            best = max(best, ai.win_chance(n, fort, alert))
    return best


def _threat_now(state: State, seat: int, cid: str, links: Links) -> float:
    troops = R.troops_in(state, cid)
    fort = sum(1 for _s, t in troops if t[1] == FORT)
    return threat(state, seat, cid, fort, len(troops) - fort, links)


class Table(NamedTuple):
    """What :func:`standing` reads off a table, per seat and from one pass over the cities (a
    lookahead judges thousands of tables a game, so no per-seat rescans)."""

    #: Points held, each city discounted by the best odds a linked rival with a command card has
    #: against it; open cities it alone garrisons; troops and command cards in hand.
    worth: list[float]
    points: list[int]
    #: The value of the first city (in the engine's order) it holds with one troop, else 0.
    weak: list[int]
    #: The values of the idle cities.
    idle: list[int]


def read_table(state: State) -> Table:
    tr = state["troops"]
    worth = [SUPPLY * p["supply"] + CARD * p["cards"] for p in state["players"]]
    held: dict[str, tuple[int, list[list[Any]]]] = {}
    idle: list[int] = []
    for cid, city in state["cities"].items():
        troops = [tr[sp] for sp in city["spaces"] if sp in tr]
        pts = 2 if len(city["tiles"]) > board.SMALL_MAX_TILES else 1
        if city["done"] and not troops:
            idle.append(pts)
            continue
        holders = {t[0] for t in troops}
        if len(holders) != 1:
            continue
        holder = troops[0][0]
        if city["done"]:
            held[cid] = (holder, troops)
        else:
            worth[holder] += OPEN_CITY * pts / (1 + city["open"])
    links = board.links(state)
    players = state["players"]
    points = [0] * state["seats"]
    weak = [0] * state["seats"]
    for cid in sorted(held, key=R._key):
        holder, troops = held[cid]
        points[holder] += board.value(state, cid)
        if len(troops) == 1 and not weak[holder]:
            weak[holder] = board.value(state, cid)
    for cid, (holder, troops) in held.items():
        fort = sum(1 for t in troops if t[1] == FORT)
        best = 0.0
        for src in links.get(cid, ()):
            rival = held.get(src)
            if rival is None or rival[0] == holder or not players[rival[0]]["cards"]:
                continue
            n = sum(1 for t in rival[1] if t[1] == ALERT)
            if n:
                best = max(best, ai.win_chance(n, fort, len(troops) - fort))
        worth[holder] += board.value(state, cid) * (1 - THREAT * best)
    return Table(worth, points, weak, idle)


def _beauty_target(state: State, rival: int, points: list[int]) -> int | None:
    """Whom ``rival``'s 美人計 would hit, by the normal level's rule (``ai._leader``)."""
    p = state["players"][rival]
    if "beauty" not in p["plots"] or not p["cards"]:
        return None
    others = [s for s in range(state["seats"]) if s != rival]
    top = max(others, key=lambda s: points[s])
    return top if points[top] >= max(3, points[rival]) else None


def standing(state: State, seat: int) -> float:
    """``seat``'s worth less the best rival's: what the lookahead maximises. Idle cities count as
    the rivals': each rival in turn order with a troop in hand occupies the best one left before
    this seat moves again (every level occupies first)."""
    if state["phase"] == "over":
        return 100.0 if seat in state["winners"] else 0.0
    table = read_table(state)
    worth, idle = table.worth, sorted(table.idle, reverse=True)
    n = state["seats"]
    for k in range(1, n):
        rival = (seat + k) % n
        if idle and state["players"][rival]["supply"]:
            worth[rival] += idle.pop(0)
    if table.weak[seat] and any(_beauty_target(state, (seat + k) % n, table.points) == seat for k in range(1, n)):
        worth[seat] -= BEAUTY_RISK * table.weak[seat]
    mine = worth.pop(seat)
    return mine - max(worth)


# --------------------------------------------------------------------------- the search

def _finish_turn(state: State, seat: int, rng: random.Random) -> None:
    """Play the rest of the move: its own tile laid as the hard level lays it, a war's answers
    (its own and the defender's) as the normal AI gives them."""
    while state["phase"] in ("place", "war", "after", "counter"):
        asked = choices.asked(state)
        assert asked is not None
        move = placement(state, seat) if state["phase"] == "place" else ai.decide(state, asked, rng)
        actions.execute(state, asked, move)


def candidates(state: State, seat: int) -> list[Action]:
    """The turn's moves worth playing out."""
    p = state["players"][seat]
    out: list[Action] = [["expand"]] if state["stack"] else []
    idle = R.idle(state)
    if idle and p["supply"]:
        out.append(["occupy", max(idle, key=lambda c: (board.value(state, c), c))])
    links = board.links(state)
    mine = R.controlled(state, seat)
    if p["cards"]:
        for src in mine:
            alert = R.count_states(state, src, seat)[ALERT]
            for dst in sorted(links.get(src, set())):
                if alert and R.owner(state, dst) not in (None, seat) and ai._odds(state, alert, dst) >= CANDIDATE_ODDS:
                    out.append(["card", "war", src, dst, str(alert)])
    for cid in mine:
        alert = R.count_states(state, cid, seat)[ALERT]
        if alert and _threat_now(state, seat, cid, links) > FORTIFY_THREAT:
            out.append(["switch", "to_f", cid, str(alert)])
    if p["supply"]:
        weak = [c for c in mine if len(R.troops_in(state, c)) == 1 and R.free_spaces(state, c)]
        if weak:
            out.append(["dispatch", "in", weak[0], FORT])  # a second troop: no 美人計 empties it
    return out


def _copies(move: Action) -> int:
    """How many determinized copies a move is played on: its outcome by the end of the turn
    depends on the tile drawn, on dice, or on nothing hidden at all."""
    if move[0] == "expand":
        return SAMPLES
    if move[0] == "card" and (move[1] == "war" or move[2:3] in (["tiger"], ["lure"], ["chencang"])):
        return WAR_SAMPLES
    return 1


def _turn(state: State, seat: int, rng: random.Random) -> Action:
    usual = ai.decide(state, seat, rng)
    moves = candidates(state, seat)
    if usual not in moves:
        moves.append(usual)
    if len(moves) == 1:
        return usual
    pool = unseen(state)
    samples = [determinize(state, rng, pool) for _ in range(max(SAMPLES, WAR_SAMPLES))]
    best: tuple[float, Action] | None = None
    for move in moves:
        copies = samples[:_copies(move)]
        total = 0.0
        for sample in copies:
            after = clone(sample)
            actions.execute(after, seat, move)
            _finish_turn(after, seat, rng)
            total += standing(after, seat)
        score = total / len(copies) + (PREFER_NORMAL if move == usual else 0.0)
        if best is None or score > best[0]:
            best = (score, move)
    assert best is not None
    return best[1]


def decide(state: State, seat: int, rng: random.Random) -> Action:
    if state["phase"] == "action":
        return _turn(state, seat, rng)
    if state["phase"] == "place":
        return weighed_placement(state, seat, rng)
    return ai.decide(state, seat, rng)
