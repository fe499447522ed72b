"""Pentactic AI: "easy" plays uniformly random legal moves, "normal" plays with purpose.

The normal AI judges a board by how well the attacker's remaining pieces can still go on it:
for every piece, how many legal placements survive. Those counts come from bitsets over the
legal placements (one bit per placement, one set per square), so the effect of covering five
squares or one disc square on every piece is a handful of big-int operations, and a decision
over thousands of candidates stays well under the 200 ms budget.

* Attacker: keep as many pieces placeable as possible and as flexible as possible; because the
  score term is concave, placing scarce pieces (X, I, ...) early is preferred automatically.
* Defender: put the disc where it hurts the attacker most (the same measure, minimised).
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
DEFENCE_LOOKAHEAD = 5


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
        self.pieces = pieces
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
        self._kills: list[int] | None = None
        self.kill: list[int] = []
        for cell in g.covering:
            bits = 0
            for pl in cell:
                i = index.get(id(pl))
                if i is not None:
                    bits |= 1 << i
            self.kill.append(bits)

    def kills(self) -> list[int]:
        """For every legal placement, the placements it rules out (computed once, on demand)."""
        if self._kills is None:
            self._kills = [self.killed_by(pl.mask) for pl in self.legal]
        return self._kills

    def killed_by(self, mask: int) -> int:
        out = 0
        while mask:
            low = mask & -mask
            out |= self.kill[low.bit_length() - 1]
            mask ^= low
        return out

    def value(self, killed: int, skip: str | None = None) -> float:
        """Higher is better for the attacker: concave in each piece's surviving placements."""
        alive = ~killed
        total = 0.0
        for p, bits in self.by_piece.items():
            if p == skip:
                continue
            n = (bits & alive).bit_count()
            total += _LOG[n] if n else -DEAD_PENALTY
        return total


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
            drop = base - field.value(field.kill[y * g.width + x])
            if state["mode"] != "3" and STUCK_WEIGHT:
                bit = g.bit(x, y)
                drop -= STUCK_WEIGHT * _stuck(g, occ | bit, discs | bit, left)
            scored.append((drop + lead, (t, x, y)))
    if level == "normal" and state["mode"] != "3":
        scored = _defence_lookahead(state, g, scored)
    t, x, y = _best(scored, rng)
    return ["disc", *prefix(t), cell_token(x, y)]


def _top(scored: list[tuple[float, Any]], k: int) -> list[tuple[float, Any]]:
    """The ``k`` best candidates, ties kept in generation order (deterministic)."""
    order = sorted(range(len(scored)), key=lambda i: (-scored[i][0], i))
    return [scored[i] for i in order[:k]]


def _defence_lookahead(state: State, g: Geometry, scored: list[tuple[float, Any]]) -> list[tuple[float, Any]]:
    """Re-rank the best discs by the attacker's best reply to each (one ply deeper)."""
    out = []
    fields: dict[int, _Field] = {}
    for drop, (t, x, y) in _top(scored, DEFENCE_LOOKAHEAD):
        if t not in fields:
            occ, _ = board_masks(g, rules.board_of(state, t))
            victim = rules.attacker(state) if state["mode"] == "1" else t
            fields[t] = _Field(g, occ, state["players"][victim]["pieces"])
        field = fields[t]
        disc = field.kill[y * g.width + x]
        kills = field.kills()
        replies = [field.value(disc | kills[i], skip=pl.piece)
                   for i, pl in enumerate(field.legal) if not (disc >> i) & 1]
        if not replies:
            out.append((DEAD_PENALTY * 10 + drop, (t, x, y)))
            continue
        out.append((-max(replies) + 0.01 * drop, (t, x, y)))
    return out


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
    scored = [(field.value(field.killed_by(pl.mask), skip=pl.piece), pl) for pl in field.legal]
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
            worst = min(worst, field.value(placed | field.kill[low.bit_length() - 1], skip=pl.piece))
            squares ^= low
        if STUCK_WEIGHT and in_hand:
            worst += STUCK_WEIGHT * _stuck(g, occ | pl.mask, discs, in_hand)
        out.append((worst + 0.01 * first, pl))
    return out
