"""The ``normal`` level: the normal AI's decisions (``engines.risk.ai``) joined into composite
actions (``engines.risk.composite``) up to the next dice, worked out on one board.

Why: a 5-AI game was ~700 moves, each paying an AI decision (the seat's view and board read
anew) and the engine's per-move glue (validation, a state copy, the request refresh, the
caller's ``pending`` and ``result``). Most moves follow from the one before with no dice in
between, and what changes between them is only our own armies, which none of the board's
memos read (threats, the target continent, borders and distances read the owners and the
enemies' armies). So, without copying or stepping a state (issue 22's sixth round lost its
savings doing that):

- a turn's placements are decided one after the other on the board with each placement's
  armies added (:func:`_placements`), and the first attack (or the end of the attack phase with
  the fortify) is joined on;
- an attack carries its move-in as a rule (``ai._occupy_rule``), which the normal AI can state
  before the dice because it reads nothing the battle changes;
- ending the attack phase carries the fortify (``ai.end_attack``).

Every joined step is the step ``ai.decide`` takes in the state it applies to, so a game of this
level is the game of the single-step normal AI (the ``reference`` level), in fewer moves
(``tests/engines/risk/test_risk_composite.py`` proves it move by move). A trade is sent alone:
it changes the hand and the armies to place, which the next decision reads from the view.
"""

from __future__ import annotations

from typing import Any

from engines.base import Action, View
from engines.risk import ai, composite

#: The longest run of parts: the service's bound on a person's action (``composite.MAX_TOKENS``).
_ROOM = composite.MAX_TOKENS - composite.LONGEST_PART - 1


class _Placed:
    """The seat's view after placements of its own: what is left to place differs, the rest is
    the view's (the decisions read only these two keys besides what placements leave alone)."""

    def __init__(self, view: View, left: int, pools: dict[str, int]) -> None:
        self._view, self._left, self._pools = view, left, pools

    def __getitem__(self, key: str) -> Any:
        if key == "reinforcements_left":
            return self._left
        if key == "bonus_pools":
            return self._pools
        return self._view[key]

    def get(self, key: str, default: Any = None) -> Any:
        if key in ("reinforcements_left", "bonus_pools"):
            return self[key]
        return self._view.get(key, default)


def _after_place(board: ai.Board, territory: str, count: int, view: View) -> ai.Board:
    """``board`` with ``count`` more of our armies on ``territory``: its memos read only the
    owners and the enemies' armies, so they are kept (the name-keyed army map is dropped)."""
    new = object.__new__(ai.Board)  # copy.copy's reduce protocol costs more than the decision step
    new.__dict__.update(board.__dict__)
    i = board.tables.index[territory]
    ar = board.ar
    new.ar = (*ar[:i], ar[i] + count, *ar[i + 1:])
    new.__dict__.pop("_armies", None)
    new.view = view
    return new


def _mission_done(board: ai.Board) -> bool:
    """Whether the "N territories with 2+ armies" mission holds on the board: the game is then
    over after the placement, so nothing may follow it."""
    m = board.mission
    ar = board.ar
    return m is not None and sum(1 for i in board.mine_at if ar[i] >= m.min_armies) >= m.count


def _placements(board: ai.Board, view: View) -> Action:
    """Every placement of the turn, then the first attack, or the end of the attack phase with
    the fortify (or the fortify alone when no attack is possible: the engine then skips the
    attack phase), as the phases will ask for them."""
    left: int = view["reinforcements_left"]
    pools = dict(ai._pools(view))
    general = left - sum(pools.values())
    continent_of = board.tables.continent_of
    index = board.tables.index
    parts: list[Action] = []
    size = 0
    while True:
        step, top_up = ai.place_step(board, left, pools)
        parts.append(step)
        size += len(step) + 1
        count = int(step[2])
        cont = board.tables.continents[continent_of[index[step[1]]]]
        from_pool = min(count, pools.get(cont, 0))
        if from_pool:
            pools[cont] -= from_pool
            if pools[cont] == 0:
                del pools[cont]
        general -= count - from_pool
        left = general + sum(pools.values())
        board = _after_place(board, step[1], count, _Placed(view, left, pools))
        if top_up and _mission_done(board):
            return composite.join(parts)
        if left == 0 or size > _ROOM:
            break
    if left == 0 and size <= _ROOM:
        attack = ai._attack_normal(board, compose=True)
        if attack[0] == "attack":
            parts.append(attack)
        elif ai.can_attack(board):
            parts.append(ai.end_attack(board))
        elif ai.can_fortify(board):
            parts.append(ai._fortify_normal(board))
    return composite.join(parts)


def decide(view: View) -> Action:
    """The normal level's action for its pending request (deterministic, like ``ai.decide``)."""
    phase = view["phase"]
    if phase == "attack":
        board = ai.Board(view)
        attack = ai._attack_normal(board, compose=True)
        return attack if attack[0] == "attack" else ai.end_attack(board)
    if phase == "reinforce":
        board = ai.Board(view)
        return ai.trade_due(board) or _placements(board, view)
    return ai.decide(view, None)  # type: ignore[arg-type]  # normal draws no random numbers
