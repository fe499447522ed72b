"""Pentactic AI: "normal" plays with purpose; "easy" and "hard" are in :mod:`levels` and reuse
this module's measures ("uniform", never offered, plays uniformly random legal moves).

The normal AI judges a board by how well the attacker's remaining pieces can still go on it:
for every piece, how many legal placements survive, and how many pieces the connected empty
areas can hold at most (area // 5 each: squares in pockets too small for a piece are wasted).
The placement counts come from bitsets over the board size's placements (one bit per placement,
one set per square, built once: ``geometry.placement_index``), so the effect of covering five
squares or one disc square on every piece is a handful of big-int operations; the capacity is
worked out from the parts of the empty area a move touches, and only for the candidates it can
still decide. A decision takes at most ~12 ms (issue 22; it was ~75 ms with the same choices).

* Attacker: keep as many pieces placeable as possible and as flexible as possible; because the
  score term is concave, placing scarce pieces (X, I, ...) early is preferred automatically.
* Defender: shortlist the discs that hurt the attacker most (the same measure, minimised), then
  pick among them by playing the board out many times at random (modes 1 and 2).
* Discard: remove the opponent's most accommodating piece (compact shapes fit into the last
  holes; X and I are the hardest to place and are left to hurt their owner).
* Solo: follow an exact solution when the solver finds one quickly, else the attacker rule.
"""

from __future__ import annotations

import heapq
import math
import random
from collections.abc import Callable
from functools import cache
from typing import Any

from engines.base import EngineError
from engines.pentactic import rules
from engines.pentactic.board import board_masks, geo, legal_disc_mask
from engines.pentactic.geometry import (
    Geometry,
    Placement,
    PlacementIndex,
    cell_token,
    disc_cells,
    geometry,
    nth_bit,
    placement_index,
)
from engines.pentactic.solver import SearchLimit, solve

State = dict[str, Any]

#: Most useful to its owner first (fits in the smallest, most irregular holes).
DISCARD_PREFERENCE = ("P", "L", "Y", "N", "F", "V", "T", "Z", "U", "W", "I", "X")
DEAD_PENALTY = 100.0
#: A disc the defender can never place is worth a point, like a piece that can never be placed.
STUCK_WEIGHT = 100.0
#: log(1 + n) for every possible count of placements of one piece (at most 8 * 11 * 6).
_LOG = [math.log1p(n) for n in range(8 * 11 * 6 + 1)]
SOLO_NODES = 5_000
#: How many of the best one-ply candidates get a one-ply deeper look (fixed: decisions must not
#: depend on the machine's speed, only on the rng).
ATTACK_LOOKAHEAD = 24
#: The defender plays each of its best ROLLOUT_CANDIDATES discs out ROLLOUTS times (a few ms);
#: strength in tests/engines/pentactic/test_pentactic_ai_strength.py.
ROLLOUT_CANDIDATES = 6
ROLLOUTS = 24


#: The uniformly random player (what "easy" was before issue 23's levels): never offered in a
#: lobby, kept for the tests that explore the rules with random play.
UNIFORM = "uniform"


def choose(state: State, seat: int, rng: random.Random, level: str) -> list[str]:
    if state["phase"] == "over" or state["turn"] != seat:
        raise EngineError("core.err.not_your_turn")
    if level in ("easy", "hard"):
        from engines.pentactic import levels  # the levels reuse this module's helpers

        return levels.choose(state, seat, rng, level)
    phase = state["phase"]
    if phase == "discard":
        return _discard(state, seat, rng, level)
    if phase == "defend":
        return _defend(state, seat, rng, level)
    return _attack(state, seat, rng, level)


# ----- discard ------------------------------------------------------------------------------

def _discard(state: State, seat: int, rng: random.Random, level: str) -> list[str]:
    targets = rules.discard_targets(state, seat)
    if level == UNIFORM:
        target = rng.choice(targets)
        piece = rng.choice(rules.discardable(state, seat, target))
    else:
        target, piece = discard_choice(state, seat, targets)
    prefix = [str(target)] if state["mode"] == "3" else []
    return ["discard", *prefix, piece]


def discard_choice(state: State, seat: int, targets: list[int]) -> tuple[int, str]:
    """Hurt the opponent who is doing best (fewest points), lowest seat on ties, by taking their
    most accommodating piece."""
    target = min(targets, key=lambda t: (rules.live_score(state, t), t))
    allowed = rules.discardable(state, seat, target)
    return target, next(p for p in DISCARD_PREFERENCE if p in allowed)


# ----- evaluation ---------------------------------------------------------------------------

class _Field:
    """The attacker's legal placements on one board as bitsets, for fast what-if questions.

    Bits are the board size's placement numbers (``geometry.placement_index``), so the sets of
    what each square rules out are shared by every decision and cost nothing to set up; only
    ``legal`` (the candidates, in the order of ``pieces``) and the pieces' live bits are built.
    The empty area's connected parts are found once, so the capacity after covering a few more
    squares is usually known without flooding the board again (:meth:`capacity`)."""

    def __init__(self, g: Geometry, occ: int, pieces: list[str]) -> None:
        self.g = g
        self.occ = occ
        self.pieces = pieces
        index = placement_index(g.width, g.height)
        self.legal: list[Placement] = [pl for p in pieces for pl in g.placements[p] if not (pl.mask & occ)]
        blocked = index.covering(occ)
        self.by_piece: dict[str, int] = {p: index.piece_bits[p] & ~blocked for p in pieces}
        #: (piece, live bits, how many) in the order of ``pieces``.
        self._live = [(p, bits, bits.bit_count()) for p, bits in self.by_piece.items()]
        self.kill = index.cover
        self._spent, self._number = index.spent, index.number
        self.area = _Area(g, g.full & ~occ)

    def spent_by(self, pl: Placement) -> int:
        """What placing ``pl`` rules out: :meth:`killed_by` of its squares plus the rest of its
        piece, which a value that skips the piece never counts (one lookup, not five ORs)."""
        return self._spent[self._number[id(pl)]]

    def killed_by(self, mask: int) -> int:
        out = 0
        kill = self.kill
        while mask:
            low = mask & -mask
            out |= kill[low.bit_length() - 1]
            mask ^= low
        return out

    def upper(self, killed: int, skip: str | None = None) -> tuple[float, int, int]:
        """(the value's sum of log terms, pieces with no placement left, pieces counted): the
        value without the capacity term, an upper bound of :meth:`value` that costs no flood."""
        total = 0.0
        dead = 0
        count = 0
        for p, bits, n in self._live:
            if p == skip:
                continue
            count += 1
            n -= (bits & killed).bit_count()
            if n:
                total += _LOG[n]
            else:
                dead += 1
        return total, dead, count

    def value(self, killed: int, skip: str | None = None, extra: int = 0) -> float:
        """Higher is better for the attacker: concave in each piece's surviving placements.
        ``extra``: the squares covered besides the board's."""
        total, dead, count = self.upper(killed, skip)
        # Pieces that cannot all fit, even if each one alone still does, are as dead.
        if count > dead:
            dead = max(dead, count - self.area.capacity(extra))
        return total - DEAD_PENALTY * dead

    def value_less_square(self, killed: int, skip: str | None, area: _Area, square: int) -> float:
        """:meth:`value` where ``area`` is this board's empty area less what a placement covers,
        and square ``square`` is covered too."""
        total, dead, count = self.upper(killed, skip)
        if count > dead:
            dead = max(dead, count - area.capacity_less_square(square))
        return total - DEAD_PENALTY * dead


class _Area:
    """Empty squares as connected parts with their capacity (:func:`region_capacity`), so the
    capacity once a few more squares are covered is worked out from the parts they touch."""

    def __init__(self, g: Geometry, free: int) -> None:
        self.g = g
        self.parts = components(g, free)
        self.cap = sum(size // 5 for _, size in self.parts)

    def capacity(self, extra: int) -> int:
        """The capacity once ``extra`` (empty squares) is covered too (:func:`part_capacity`)."""
        cap = self.cap
        if not extra:
            return cap
        g = self.g
        for part, size in self.parts:
            hit = part & extra
            if hit:
                cap += part_capacity(g, part ^ hit, hit) - size // 5
        return cap

    def capacity_less_square(self, i: int) -> int:
        """:meth:`capacity` with ``extra`` the one square ``i``: when taking the square out
        provably leaves its part in one piece (:func:`_keeps_part`), the part just shrinks."""
        b = 1 << i
        for part, size in self.parts:
            if part & b:
                rest = (size - 1) // 5 if _keeps_part(self.g, i, part) else part_capacity(self.g, part ^ b, b)
                return self.cap - size // 5 + rest
        return self.cap


#: (width, square, its part's squares round it) -> whether the squares of the part next to the
#: square reach each other round it; at most 256 patterns a square, filled as they come.
_KEEPS: dict[tuple[int, int, int], bool] = {}


@cache
def _rings(width: int, height: int) -> tuple[int, ...]:
    """Square index -> the mask of the (up to) eight squares round it."""
    g = geometry(width, height)
    out = []
    for i in range(width * height):
        b = 1 << i
        out.append((((b << 1) & g.not_first_col) | ((b >> 1) & g.not_last_col) | (b << width) | (b >> width)
                    | ((b << (width + 1)) & g.not_first_col) | ((b << (width - 1)) & g.not_last_col)
                    | ((b >> (width - 1)) & g.not_first_col) | ((b >> (width + 1)) & g.not_last_col)) & g.full)
    return tuple(out)


def _keeps_part(g: Geometry, i: int, part: int) -> bool:
    """Whether ``part`` (connected) less square ``i`` is provably still connected: the part's
    squares next to ``i`` reach each other through the ring round it, so any path through ``i``
    can go round. A 3x3 pattern, looked up once computed. False: maybe not."""
    ring = part & _rings(g.width, g.height)[i]
    key = (g.width, i, ring)
    found = _KEEPS.get(key)
    if found is None:
        w, not_first, not_last = g.width, g.not_first_col, g.not_last_col
        b = 1 << i
        near = (((b << 1) & not_first) | ((b >> 1) & not_last) | (b << w) | (b >> w)) & ring
        comp = near & -near
        while True:
            grow = (comp | ((comp << 1) & not_first) | ((comp >> 1) & not_last) | (comp << w) | (comp >> w)) & ring
            if grow == comp:
                break
            comp = grow
        found = _KEEPS[key] = not (near & ~comp)
    return found


def components(g: Geometry, free: int) -> list[tuple[int, int]]:
    """The connected parts of ``free`` with their sizes."""
    w, not_first, not_last = g.width, g.not_first_col, g.not_last_col
    out = []
    while free:
        comp = free & -free
        while True:
            grow = (comp | ((comp << 1) & not_first) | ((comp >> 1) & not_last) | (comp << w) | (comp >> w)) & free
            if grow == comp:
                break
            comp = grow
        out.append((comp, comp.bit_count()))
        free ^= comp
    return out


def part_capacity(g: Geometry, rest: int, removed: int) -> int:
    """:func:`region_capacity` of ``rest``, a connected area less ``removed``, without flooding
    all of it: each part of ``rest`` touches ``removed``, so floods start from the squares next
    to ``removed`` (those already joined through the ring of squares round it start as one) and
    grow together; a flood that stops growing is a part of its own, and once one flood is left,
    it is everything not yet counted."""
    w, not_first, not_last = g.width, g.not_first_col, g.not_last_col
    near = (((removed << 1) & not_first) | ((removed >> 1) & not_last) | (removed << w) | (removed >> w)) & rest
    ring = (near | ((removed << (w + 1)) & not_first) | ((removed << (w - 1)) & not_last)
            | ((removed >> (w - 1)) & not_first) | ((removed >> (w + 1)) & not_last)) & rest
    floods = []
    while near:
        comp = near & -near
        while True:
            grow = (comp | ((comp << 1) & not_first) | ((comp >> 1) & not_last) | (comp << w) | (comp >> w)) & ring
            if grow == comp:
                break
            comp = grow
        floods.append(comp)
        near &= ~comp
    left = rest.bit_count()
    cap = 0
    while len(floods) > 1:
        grown = []
        for comp in floods:
            grow = (comp | ((comp << 1) & not_first) | ((comp >> 1) & not_last) | (comp << w) | (comp >> w)) & rest
            if grow == comp:  # a whole part (floods are disjoint, so no other one is in it)
                n = comp.bit_count()
                cap += n // 5
                left -= n
            else:
                grown.append(grow)
        floods = []
        for comp in grown:  # floods that met are one part
            apart = []
            for other in floods:
                if other & comp:
                    comp |= other
                else:
                    apart.append(other)
            apart.append(comp)
            floods = apart
    return cap + left // 5


def region_capacity(g: Geometry, free: int) -> int:
    """At most how many pentominoes fit in ``free``: the sum over its connected areas of
    (area // 5). Squares in areas too small for a piece, and the remainders, are wasted."""
    w, not_first, not_last = g.width, g.not_first_col, g.not_last_col  # Geometry.neighbours, inlined
    cap = 0
    while free:
        comp = free & -free
        while True:
            grow = (comp | ((comp << 1) & not_first) | ((comp >> 1) & not_last) | (comp << w) | (comp >> w)) & free
            if grow == comp:
                break
            comp = grow
        cap += comp.bit_count() // 5
        free ^= comp
    return cap


def disc_capacity(g: Geometry, occ: int, discs: int) -> int:
    """How many more discs the board can take at most: a matching of disc-free rows to disc-free
    columns through empty squares (each disc uses up one row and one column)."""
    empty = g.full & ~occ
    rows = [y for y in range(g.height) if not discs & g.row_masks[y]]
    cols = [x for x in range(g.width) if not discs & g.col_masks[x]]
    adj = {y: [x for x in cols if (empty >> (y * g.width + x)) & 1] for y in rows}
    owner: dict[int, int] = {}

    def augment(y: int, seen: set[int]) -> bool:
        for x in adj[y]:
            if x in seen:
                continue
            seen.add(x)
            if x not in owner or augment(owner[x], seen):
                owner[x] = y
                return True
        return False

    return sum(1 for y in rows if augment(y, set()))


def _stuck(g: Geometry, occ: int, discs: int, in_hand: int) -> int:
    """Discs a defender holding ``in_hand`` can surely never place (each is a point for the attacker)."""
    return max(0, in_hand - disc_capacity(g, occ, discs)) if in_hand > 0 else 0


def best(scored: list[tuple[float, Any]], rng: random.Random) -> Any:
    top = max(s for s, _ in scored)
    ties = [c for s, c in scored if s >= top - 1e-9]
    return ties[rng.randrange(len(ties))] if len(ties) > 1 else ties[0]


# ----- defence ------------------------------------------------------------------------------

def _defend(state: State, seat: int, rng: random.Random, level: str) -> list[str]:
    g = geo(state)
    targets = rules.disc_targets(state, seat)
    if level == UNIFORM:
        choices = [(t, c) for t in targets
                   for c in g.mask_cells(legal_disc_mask(g, rules.board_of(state, t)))]
        t, (x, y) = choices[rng.randrange(len(choices))]
        return ["disc", *disc_prefix(state, t), cell_token(x, y)]
    scored = disc_scores(state, seat, g, targets)
    if state["mode"] != "3":
        scored = defence_rollouts(state, seat, g, scored, rng)
    t, x, y = best(scored, rng)
    return ["disc", *disc_prefix(state, t), cell_token(x, y)]


def disc_prefix(state: State, target: int) -> list[str]:
    """The target seat token of a disc action: only in mode 3, where it is a choice."""
    return [str(target)] if state["mode"] == "3" else []


def disc_scores(state: State, seat: int, g: Geometry, targets: list[int]) -> list[tuple[float, Any]]:
    """Every legal disc as (how much it lowers its victim's :meth:`_Field.value`, (target, x,
    y)), in generation order: the one-ply measure of the normal defender."""
    scored: list[tuple[float, Any]] = []
    for t in targets:
        board = rules.board_of(state, t)
        occ, _ = board_masks(g, board)
        victim = rules.attacker(state) if state["mode"] == "1" else t
        field = _Field(g, occ, state["players"][victim]["pieces"])
        base = field.value(0)
        # In mode 3 prefer hurting whoever is doing best.
        lead = -0.01 * rules.live_score(state, victim) if state["mode"] == "3" else 0.0
        _, discs = board_masks(g, board)
        left = state["players"][seat]["discs"] - 1
        for x, y in g.mask_cells(legal_disc_mask(g, board)):
            drop = base - field.value_less_square(field.kill[y * g.width + x], None, field.area, y * g.width + x)
            if state["mode"] != "3" and STUCK_WEIGHT:
                bit = g.bit(x, y)
                drop -= STUCK_WEIGHT * _stuck(g, occ | bit, discs | bit, left)
            scored.append((drop + lead, (t, x, y)))
    return scored


#: A play-out of one board, as :func:`_rollout`.
Playout = Callable[[Geometry, PlacementIndex, int, int, int, int, int, random.Random], int]


def _rollout(g: Geometry, index: PlacementIndex, occ: int, banned: int, alive: int, pieces: int, in_hand: int,
             rng: random.Random) -> int:
    """Play one board to its end from a position where the attacker is to move: the attacker
    places a random legal piece (``alive``: the placement numbers still free, of pieces still in
    hand), then the defender a random legal disc (``banned``: the rows and columns that already
    hold a disc), and so on. Returns the attacker's pieces left minus the defender's discs left:
    the attacker's mode-1 round score, and in mode 2 the points this board costs its owner minus
    those it costs the defender.

    A draw picks the k-th free placement in placement-number order, which is the order of the
    list of (piece, placement) pairs this once filtered after every move (pieces in hand are in
    ``PIECES`` order in modes 1 and 2), so the games played are the same, only cheaper."""
    full, width = g.full, g.width
    rows, cols, spent, cover = g.row_masks, g.col_masks, index.spent, index.cover
    while alive:
        i = nth_bit(alive, rng.randrange(alive.bit_count()))
        occ |= index.order[i].mask
        pieces -= 1
        gone = spent[i]
        if in_hand:
            cells = full & ~(occ | banned)
            if cells:
                at = nth_bit(cells, rng.randrange(cells.bit_count()))
                b = 1 << at
                occ |= b
                banned |= rows[at // width] | cols[at % width]
                gone |= cover[at]
                in_hand -= 1
        alive &= ~gone
    return pieces - in_hand


def defence_rollouts(state: State, seat: int, g: Geometry, scored: list[tuple[float, Any]],
                     rng: random.Random, candidates: int = ROLLOUT_CANDIDATES,
                     rollouts: int = ROLLOUTS, playout: Playout | None = None) -> list[tuple[float, Any]]:
    """Re-rank the best discs (by the one-ply measure) by the mean result of random play-outs.

    The one-ply measure cannot see how a disc makes the attacker's later pieces collide; playing
    the board out many times can. Every candidate is played out with the same random streams
    (common random numbers), so differences come from the disc, not from luck; the one-ply
    measure breaks ties. Fixed counts keep the decision independent of the machine's speed."""
    seeds = [rng.randrange(1 << 30) for _ in range(rollouts)]
    in_hand = state["players"][seat]["discs"] - 1
    index = placement_index(g.width, g.height)
    out = []
    for drop, (t, x, y) in top(scored, candidates):
        board = rules.board_of(state, t)
        occ, discs = board_masks(g, board)
        victim = rules.attacker(state) if state["mode"] == "1" else t
        pieces = state["players"][victim]["pieces"]
        b = g.bit(x, y)
        alive = index.pieces_bits(pieces) & ~index.covering(occ | b)
        banned = g.full & ~disc_cells(g, 0, discs | b)
        total = sum((playout or _rollout)(g, index, occ | b, banned, alive, len(pieces), in_hand, random.Random(sd))
                    for sd in seeds)
        out.append((total / rollouts + 0.001 * drop, (t, x, y)))
    return out


def top(scored: list[tuple[float, Any]], k: int) -> list[tuple[float, Any]]:
    """The ``k`` best candidates, ties kept in generation order (deterministic)."""
    order = sorted(range(len(scored)), key=lambda i: (-scored[i][0], i))
    return [scored[i] for i in order[:k]]


# ----- attack -------------------------------------------------------------------------------

def place(pl: Placement) -> list[str]:
    return ["place", pl.piece, str(pl.orientation), pl.anchor]


def _attack(state: State, seat: int, rng: random.Random, level: str) -> list[str]:
    g = geo(state)
    occ, _ = board_masks(g, rules.own_board(state, seat))
    pieces = list(state["players"][seat]["pieces"])
    if level == UNIFORM:
        legal = [pl for p in pieces for pl in g.placements[p] if not (pl.mask & occ)]
        return place(legal[rng.randrange(len(legal))])
    if state["mode"] == "4":
        try:
            sol = solve(g.width, g.height, occ, pieces, spare=0, node_limit=SOLO_NODES)
        except SearchLimit:
            sol = None
        if sol:
            return place(sol[0])
    field = _Field(g, occ, pieces)
    scored = first_ply(field, ATTACK_LOOKAHEAD if level == "normal" and state["mode"] != "4" else 1)
    if level == "normal" and state["mode"] != "4":
        scored = attack_lookahead(state, seat, g, field, occ, scored)
    return place(best(scored, rng))


def first_ply(field: _Field, keep: int) -> list[tuple[float, Placement]]:
    """Every legal placement that may be among the ``keep`` best by :meth:`_Field.value` (or tie
    with the best), with that value, in generation order: what :func:`top` and :func:`best`
    would take from all of them scored. The value without its capacity term is an upper bound, so
    placements are scored in that bound's order and the rest are dropped once the bound falls
    below the ``keep``-th value found (floods only for those that can matter)."""
    bounds = []
    for i, pl in enumerate(field.legal):
        total, dead, count = field.upper(field.spent_by(pl), pl.piece)
        bounds.append((total - DEAD_PENALTY * dead, i, total, dead, count))
    bounds.sort(key=lambda b: (-b[0], b[1]))
    found: list[tuple[float, int]] = []
    best: list[float] = []  # the ``keep`` highest values so far, a min-heap
    for bound, i, total, dead, count in bounds:
        if len(best) == keep and bound < best[0] - 1e-9:
            break
        pl = field.legal[i]
        if count > dead:
            dead = max(dead, count - field.area.capacity(pl.mask))
        value = total - DEAD_PENALTY * dead
        found.append((value, i))
        if len(best) < keep:
            heapq.heappush(best, value)
        elif value > best[0]:
            heapq.heapreplace(best, value)
    found.sort(key=lambda f: f[1])
    return [(v, field.legal[i]) for v, i in found]


def threat(state: State, seat: int) -> bool:
    """Whether some opponent may still put a disc on this seat's board."""
    mode = state["mode"]
    if mode == "1":
        return state["players"][rules.defender(state)]["discs"] > 0
    return any(p["discs"] > 0 for s, p in enumerate(state["players"]) if s != seat)


def attack_lookahead(state: State, seat: int, g: Geometry, field: _Field, occ: int,
                      scored: list[tuple[float, Any]]) -> list[tuple[float, Any]]:
    """Re-rank the best placements by the worst disc the defender can answer with.

    Only the best of them (and any within 1e-9 of it) matter to :func:`best`, so a placement is
    given up as soon as one disc already sinks it below the best fully worked out so far (its
    score then stays that bound, below the best, which :func:`best` never picks); the discs that
    hurt the first placement most are tried first. The choice is the one of looking at every disc."""
    if not threat(state, seat):
        return scored
    _, discs = board_masks(g, rules.own_board(state, seat))
    mode = state["mode"]
    foe = rules.defender(state) if mode == "1" else (1 - seat if mode == "2" else None)
    in_hand = state["players"][foe]["discs"] if foe is not None else 0
    out = []
    kill = field.kill
    best = -math.inf
    hurt: dict[int, float] = {}  # square -> the value a disc there left the first placement
    for first, pl in top(scored, ATTACK_LOOKAHEAD):
        placed = field.spent_by(pl)
        squares = disc_cells(g, occ | pl.mask, discs)
        area = _Area(g, g.full & ~(occ | pl.mask))
        bonus = STUCK_WEIGHT * _stuck(g, occ | pl.mask, discs, in_hand) if STUCK_WEIGHT and in_hand else 0.0
        order = []
        while squares:
            low = squares & -squares
            order.append(low.bit_length() - 1)
            squares ^= low
        if hurt:
            order.sort(key=lambda i: hurt.get(i, math.inf))
        worst = first
        complete = True
        for i in order:
            value = field.value_less_square(placed | kill[i], pl.piece, area, i)
            if not out:
                hurt[i] = value
            worst = min(worst, value)
            if (worst + bonus) + 0.01 * first < best - 1e-9:
                complete = False
                break
        score = (worst + bonus) + 0.01 * first
        if complete:
            best = max(best, score)
        out.append((score, pl))
    return out
