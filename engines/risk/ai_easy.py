"""The ``easy`` Risk AI: a sensible but short-sighted player.

It plays the move that looks best right now and nothing further: it stacks new armies where the
one easiest conquest is, attacks whatever its stack is not outnumbered by, moves only the
minimum into a conquered territory (so its pushes fizzle out), often stops once it has earned
its card, and pulls one idle stack to the front. It never aims at a continent, never keeps a
guard at home, never defends a bonus, and ignores missions and HQs; some noise keeps it from
being predictable. Like every Risk AI it reads only its own view. Its weaknesses were chosen by
self-play (seeds 100000-199999) so that it beats the random player nearly always and loses
clearly to normal at every table size.
"""

from __future__ import annotations

import random

from engines.base import Action, View
from engines.risk.ai import (
    NEUTRAL,
    Board,
    _general_left,
    _hq_normal,
    _pools,
    trade_due,
)

#: How often a choice is a random one of the sensible candidates instead of the best-looking one.
NOISE = 0.35
#: An attack needs ``armies(src) - 1 - armies(dst) >= EDGE``: -1 attacks even at equal numbers
#: (it underrates the defender's dice).
EDGE = -1
#: After its first conquest of a turn (the card is earned) it stops with this chance per attack.
STOP = 0.3


def _edge(board: Board, t: str) -> int:
    """How far ``t``'s armies outnumber its weakest enemy neighbour (the next easy conquest)."""
    return board.armies(t) - min(board.armies(n) for n in board._enemies(t))


def _pick(ranked: list[str], rng: random.Random) -> str:
    """The first of ``ranked``, or now and then any of the first few."""
    return rng.choice(ranked[:4]) if rng.random() < NOISE else ranked[0]


def _where(board: Board, among: list[str], rng: random.Random) -> str:
    """Of ``among`` (own territories), the border with the best edge over a neighbour."""
    borders = [t for t in among if board._enemies(t)]
    if not borders:
        return rng.choice(among)
    return _pick(sorted(borders, key=lambda t: (-_edge(board, t), t)), rng)


def _reinforce(board: Board, rng: random.Random) -> Action:
    trade = trade_due(board)
    if trade:
        return trade
    view = board.view
    pools = _pools(view)
    if pools:  # a continent's bonus armies stay in it
        cont = min(pools)
        terrs = [t for t in board.c.continents[cont] if board.owner(t) == board.me]
        return ["place", _where(board, terrs, rng), str(pools[cont])]
    return ["place", _where(board, board.mine(), rng), str(_general_left(view))]


def _attack(board: Board, rng: random.Random) -> Action:
    options = []
    for src in board.mine():
        a = board.armies(src)
        if a < 2:
            continue
        for dst in board._enemies(src):
            margin = a - 1 - board.armies(dst)
            if margin >= EDGE:
                options.append((-margin + (2 if board.owner(dst) == NEUTRAL else 0), src, dst))
    if not options or (board.view["conquered_this_turn"] and rng.random() < STOP):
        return ["end"]
    options.sort()
    _, src, dst = rng.choice(options[:3]) if rng.random() < NOISE else options[0]
    return ["attack", src, dst, "blitz", "1"]


def _fortify(board: Board, rng: random.Random) -> Action:
    """The biggest stack with no enemy next to it joins a neighbouring border, if any."""
    idle = [t for t in board.mine() if board.armies(t) >= 2 and not board._enemies(t)]
    for src in sorted(idle, key=lambda t: (-board.armies(t), t)):
        front = [n for n in board.c.adjacent[src] if board.owner(n) == board.me and board._enemies(n)]
        if front:
            return ["fortify", src, rng.choice(front), str(board.armies(src) - 1)]
    return ["end"]


def decide(view: View, rng: random.Random) -> Action:
    """The easy AI's action for its pending request, from its own view only."""
    board = Board(view)
    phase = view["phase"]
    if phase == "setup_claim":
        free = [t for t in board.c.territories if board.owner(t) is None]
        near = [t for t in free if any(board.owner(n) == board.me for n in board.c.adjacent[t])]
        return ["claim", rng.choice(near or free)]
    if phase == "setup_place":
        where = _where(board, board.mine(), rng)
        if view["setup"] == "quick":
            return ["place", where, str(view["players"][board.me]["to_place"])]
        if view["variant"] == "neutral":
            return ["place", where, where, rng.choice([t for t in board.c.territories if board.owner(t) == NEUTRAL])]
        return ["place", where]
    if phase == "setup_hq":
        return _hq_normal(board)
    if phase == "reinforce":
        return _reinforce(board, rng)
    if phase == "attack":
        return _attack(board, rng)
    if phase == "occupy":
        return ["move", str(view["occupy"]["min"])]
    return _fortify(board, rng)
