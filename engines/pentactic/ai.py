"""Pentactic AI: "easy" plays uniformly random legal moves, "normal" plays with purpose.

The normal AI judges a board by how well the attacker's remaining pieces can still go on it:
for every piece, how many legal placements survive, and how many pieces the connected empty
areas can hold at most (area // 5 each: squares in pockets too small for a piece are wasted).
The placement counts come from bitsets over the legal placements (one bit per placement, one
set per square), so the effect of covering five squares or one disc square on every piece is a
handful of big-int operations, and a decision over thousands of candidates stays well under the
200 ms budget.

* Attacker: keep as many pieces placeable as possible and as flexible as possible; because the
  score term is concave, placing scarce pieces (X, I, ...) early is preferred automatically.
* Defender: shortlist the discs that hurt the attacker most (the same measure, minimised), then
  pick among them by playing the board out many times at random (modes 1 and 2).
* Discard: remove the opponent's most accommodating piece (compact shapes fit into the last
  holes; X and I are the hardest to place and are left to hurt their owner).
* Solo: follow an exact solution when the solver finds one quickly, else the attacker rule.
"""

from __future__ import annotations

import math
import random
from typing import Any

from engines.base import EngineError
from engines.pentactic import rules
from engines.pentactic.board import board_masks, geo, legal_disc_mask
from engines.pentactic.geometry import Geometry, Placement, cell_token, disc_cells
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
#: The defender plays each of its best ROLLOUT_CANDIDATES discs out ROLLOUTS times: about 75 ms at
#: worst (early on 11x6); strength in tests/engines/pentactic/test_pentactic_ai_strength.py.
ROLLOUT_CANDIDATES = 6
ROLLOUTS = 24


def choose(state: State, seat: int, rng: random.Random, level: str) -> list[str]:
    if state["phase"] == "over" or state["turn"] != seat:
        raise EngineError("core.err.not_your_turn")
    phase = state["phase"]
    if phase == "discard":
        return _discard(state, seat, rng, level)
    if phase == "defend":
        return _defend(state, seat, rng, level)
    return _attack(state, seat, rng, level)


# ----- discard ------------------------------------------------------------------------------

def _discard(state: State, seat: int, rng: random.Random, level: str) -> list[str]:
    targets = rules.discard_targets(state, seat)
    if level == "easy":
        target = rng.choice(targets)
        piece = rng.choice(rules.discardable(state, seat, target))
    else:
        # Hurt the opponent who is doing best (fewest points), lowest seat on ties.
        target = min(targets, key=lambda t: (rules.live_score(state, t), t))
        allowed = rules.discardable(state, seat, target)
        piece = next(p for p in DISCARD_PREFERENCE if p in allowed)
    prefix = [str(target)] if state["mode"] == "3" else []
    return ["discard", *prefix, piece]


# ----- evaluation ---------------------------------------------------------------------------

class _Field:
    """The attacker's legal placements on one board as bitsets, for fast what-if questions."""

    def __init__(self, g: Geometry, occ: int, pieces: list[str]) -> None:
        self.g = g
        self.occ = occ
        self.pieces = pieces
        self._caps: dict[int, int] = {}
        self.legal: list[Placement] = []
        self.by_piece: dict[str, int] = {}
        index: dict[int, int] = {}
        for p in pieces:
            bits = 0
            for pl in g.placements[p]:
                if not (pl.mask & occ):
                    i = len(self.legal)
                    self.legal.append(pl)
                    index[id(pl)] = i
                    bits |= 1 << i
            self.by_piece[p] = bits
        self.kill: list[int] = []
        for cell in g.covering:
            bits = 0
            for pl in cell:
                i = index.get(id(pl))
                if i is not None:
                    bits |= 1 << i
            self.kill.append(bits)

    def killed_by(self, mask: int) -> int:
        out = 0
        while mask:
            low = mask & -mask
            out |= self.kill[low.bit_length() - 1]
            mask ^= low
        return out

    def capacity(self, extra: int) -> int:
        free = self.g.full & ~(self.occ | extra)
        cap = self._caps.get(free)
        if cap is None:
            cap = self._caps[free] = region_capacity(self.g, free)
        return cap

    def value(self, killed: int, skip: str | None = None, extra: int = 0) -> float:
        """Higher is better for the attacker: concave in each piece's surviving placements."""
        alive = ~killed
        total = 0.0
        dead = 0
        count = 0
        for p, bits in self.by_piece.items():
            if p == skip:
                continue
            count += 1
            n = (bits & alive).bit_count()
            if n:
                total += _LOG[n]
            else:
                dead += 1
        # Pieces that cannot all fit, even if each one alone still does, are as dead.
        dead = max(dead, count - self.capacity(extra))
        return total - DEAD_PENALTY * dead


def region_capacity(g: Geometry, free: int) -> int:
    """At most how many pentominoes fit in ``free``: the sum over its connected areas of
    (area // 5). Squares in areas too small for a piece, and the remainders, are wasted."""
    cap = 0
    while free:
        comp = free & -free
        while True:
            grow = g.neighbours(comp) & free
            if grow == comp:
                break
            comp = grow
        cap += comp.bit_count() // 5
        free &= ~comp
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


def _best(scored: list[tuple[float, Any]], rng: random.Random) -> Any:
    top = max(s for s, _ in scored)
    ties = [c for s, c in scored if s >= top - 1e-9]
    return ties[rng.randrange(len(ties))] if len(ties) > 1 else ties[0]


# ----- defence ------------------------------------------------------------------------------

def _defend(state: State, seat: int, rng: random.Random, level: str) -> list[str]:
    g = geo(state)
    targets = rules.disc_targets(state, seat)
    prefix = (lambda t: [str(t)]) if state["mode"] == "3" else (lambda t: [])
    if level == "easy":
        choices = [(t, c) for t in targets
                   for c in g.mask_cells(legal_disc_mask(g, rules.board_of(state, t)))]
        t, (x, y) = choices[rng.randrange(len(choices))]
        return ["disc", *prefix(t), cell_token(x, y)]
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
            drop = base - field.value(field.kill[y * g.width + x], extra=g.bit(x, y))
            if state["mode"] != "3" and STUCK_WEIGHT:
                bit = g.bit(x, y)
                drop -= STUCK_WEIGHT * _stuck(g, occ | bit, discs | bit, left)
            scored.append((drop + lead, (t, x, y)))
    if state["mode"] != "3":
        scored = _defence_rollouts(state, seat, g, scored, rng)
    t, x, y = _best(scored, rng)
    return ["disc", *prefix(t), cell_token(x, y)]


def _rollout(g: Geometry, occ: int, discs: int, legal: list[tuple[str, int]], pieces: int, in_hand: int,
             rng: random.Random) -> int:
    """Play one board to its end from a position where the attacker is to move: the attacker
    places a random legal piece (``legal``: (piece, mask) pairs still free), then the defender
    a random legal disc, and so on. Returns the attacker's pieces left minus the defender's discs
    left: the attacker's mode-1 round score, and in mode 2 the points this board costs its owner
    minus those it costs the defender."""
    while legal:
        piece, mask = legal[rng.randrange(len(legal))]
        occ |= mask
        pieces -= 1
        if in_hand:
            cells = disc_cells(g, occ, discs)
            if cells:
                k = rng.randrange(cells.bit_count())
                while k:
                    cells &= cells - 1
                    k -= 1
                b = cells & -cells
                occ |= b
                discs |= b
                in_hand -= 1
        legal = [(p, m) for p, m in legal if p != piece and not (m & occ)]
    return pieces - in_hand


def _defence_rollouts(state: State, seat: int, g: Geometry, scored: list[tuple[float, Any]],
                      rng: random.Random) -> list[tuple[float, Any]]:
    """Re-rank the best discs (by the one-ply measure) by the mean result of random play-outs.

    The one-ply measure cannot see how a disc makes the attacker's later pieces collide; playing
    the board out many times can. Every candidate is played out with the same random streams
    (common random numbers), so differences come from the disc, not from luck; the one-ply
    measure breaks ties. Fixed counts keep the decision independent of the machine's speed."""
    seeds = [rng.randrange(1 << 30) for _ in range(ROLLOUTS)]
    in_hand = state["players"][seat]["discs"] - 1
    out = []
    for drop, (t, x, y) in _top(scored, ROLLOUT_CANDIDATES):
        board = rules.board_of(state, t)
        occ, discs = board_masks(g, board)
        victim = rules.attacker(state) if state["mode"] == "1" else t
        pieces = state["players"][victim]["pieces"]
        b = g.bit(x, y)
        legal = [(p, pl.mask) for p in pieces for pl in g.placements[p] if not (pl.mask & (occ | b))]
        total = sum(_rollout(g, occ | b, discs | b, legal, len(pieces), in_hand, random.Random(sd))
                    for sd in seeds)
        out.append((total / ROLLOUTS + 0.001 * drop, (t, x, y)))
    return out


def _top(scored: list[tuple[float, Any]], k: int) -> list[tuple[float, Any]]:
    """The ``k`` best candidates, ties kept in generation order (deterministic)."""
    order = sorted(range(len(scored)), key=lambda i: (-scored[i][0], i))
    return [scored[i] for i in order[:k]]


# ----- attack -------------------------------------------------------------------------------

def _place(pl: Placement) -> list[str]:
    return ["place", pl.piece, str(pl.orientation), pl.anchor]


def _attack(state: State, seat: int, rng: random.Random, level: str) -> list[str]:
    g = geo(state)
    occ, _ = board_masks(g, rules.own_board(state, seat))
    pieces = list(state["players"][seat]["pieces"])
    if level == "easy":
        legal = [pl for p in pieces for pl in g.placements[p] if not (pl.mask & occ)]
        return _place(legal[rng.randrange(len(legal))])
    if state["mode"] == "4":
        try:
            sol = solve(g.width, g.height, occ, pieces, spare=0, node_limit=SOLO_NODES)
        except SearchLimit:
            sol = None
        if sol:
            return _place(sol[0])
    field = _Field(g, occ, pieces)
    scored = [(field.value(field.killed_by(pl.mask), skip=pl.piece, extra=pl.mask), pl) for pl in field.legal]
    if level == "normal" and state["mode"] != "4":
        scored = _attack_lookahead(state, seat, g, field, occ, scored)
    return _place(_best(scored, rng))


def _threat(state: State, seat: int) -> bool:
    """Whether some opponent may still put a disc on this seat's board."""
    mode = state["mode"]
    if mode == "1":
        return state["players"][rules.defender(state)]["discs"] > 0
    return any(p["discs"] > 0 for s, p in enumerate(state["players"]) if s != seat)


def _attack_lookahead(state: State, seat: int, g: Geometry, field: _Field, occ: int,
                      scored: list[tuple[float, Any]]) -> list[tuple[float, Any]]:
    """Re-rank the best placements by the worst disc the defender can answer with."""
    if not _threat(state, seat):
        return scored
    _, discs = board_masks(g, rules.own_board(state, seat))
    mode = state["mode"]
    foe = rules.defender(state) if mode == "1" else (1 - seat if mode == "2" else None)
    in_hand = state["players"][foe]["discs"] if foe is not None else 0
    out = []
    for first, pl in _top(scored, ATTACK_LOOKAHEAD):
        placed = field.killed_by(pl.mask)
        squares = disc_cells(g, occ | pl.mask, discs)
        worst = first
        while squares:
            low = squares & -squares
            worst = min(worst, field.value(placed | field.kill[low.bit_length() - 1], skip=pl.piece,
                                           extra=pl.mask | low))
            squares ^= low
        if STUCK_WEIGHT and in_hand:
            worst += STUCK_WEIGHT * _stuck(g, occ | pl.mask, discs, in_hand)
        out.append((worst + 0.01 * first, pl))
    return out
