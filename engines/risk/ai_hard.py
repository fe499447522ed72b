"""The ``hard`` Risk AI: the normal AI's play, with each turn's main placement chosen by search.

Where the new armies go decides the whole turn (which continent it can take, what it leaves
open), so that one decision is searched: for each of a few candidate borders (the normal AI's
pick and the next best by its staging score), hard plays the rest of its own turn out with the
normal AI's moves on sampled dice, a few times, and keeps the candidate whose turns end best by
:func:`evaluate`. Every other decision is the normal AI's, which keeps the cost of a game low.

Risk hides the other hands, the deck and the missions, and the dice to come live in the state's
RNG. A rollout therefore runs on a *determinization* (:func:`determinize`): a copy of the state in
which everything the seat may not know is dealt anew from the seat's own random generator (the
unseen cards pooled in sorted order and shuffled, other seats' missions drawn from the ones it
does not hold, a fresh dice seed), so the decision depends only on what ``view(state, seat)``
shows.
"""

from __future__ import annotations

import random

from engines.base import Action, State
from engines.risk import actions, ai, rules
from engines.risk.data import content
from engines.risk.views import SeatView

#: Candidate borders searched per turn (besides the normal AI's own choice).
CANDIDATES = 3
#: Rollouts of the rest of the turn per candidate.
ROLLOUTS = 3
#: A rollout stops after this many moves (a turn rarely takes 60).
MAX_MOVES = 150

PLAY = frozenset(rules.PLAY_PHASES)


def determinize(state: State, seat: int, rng: random.Random) -> State:
    """A copy of ``state`` with every part ``seat`` cannot see dealt anew from ``rng``."""
    out = rules.copy_state(state)
    players = out["players"]
    others = [i for i in range(len(players)) if i != seat]
    pool = sorted([*state["deck"], *(c for i in others for c in players[i]["cards"])])
    rng.shuffle(pool)
    missions = sorted(set(content().missions) - {players[seat]["mission"]})
    rng.shuffle(missions)
    for i in others:
        p = rules.player_to_edit(out, i)
        n = len(p["cards"])
        p["cards"], pool = pool[:n], pool[n:]
        if p["mission"]:
            p["mission"] = missions.pop()
    out["deck"] = pool
    out["dice_queue"] = []
    out["rng"] = rng.getrandbits(64)
    return out


def _income(state: State, seat: int) -> int:
    """The armies ``seat`` would get at the start of its turn (cards aside)."""
    held = rules.continents_held(state, seat)
    c = content()
    return max(3, rules.territory_count(state, seat) // 3) + sum(c.bonus[k] for k in held)


def evaluate(state: State, seat: int) -> float:
    """How good the position after ``seat``'s turn is for it: its income against the strongest
    rival's, its armies, the card a conquest earned, and armies left exposed on its borders."""
    if state["phase"] == "over":
        return 1000.0 if seat in (state["winners"] or []) else -1000.0
    players = state["players"]
    rivals = [i for i, p in enumerate(players) if p["alive"] and i != seat]
    mine = _income(state, seat)
    best_rival = max((_income(state, i) for i in rivals), default=0)
    owner, armies = state["owner"], state["armies"]
    c = content()
    own_armies = exposed = 0
    for t in c.territories:
        if owner[t] != seat:
            continue
        own_armies += armies[t]
        threat = sum(armies[n] - 1 for n in c.adjacent[t] if owner[n] not in (seat, rules.NEUTRAL, None))
        if threat > armies[t]:
            exposed += 1
    rival_armies = max((sum(armies[t] for t in c.territories if owner[t] == i) for i in rivals), default=0)
    return (3.0 * mine - 1.5 * best_rival + 0.15 * (own_armies - rival_armies)
            + 2.0 * bool(state["conquered"]) - 0.3 * exposed)


def _rollout(state: State, seat: int, first: Action, rng: random.Random) -> float:
    """Play ``first`` and then the normal AI's moves to the end of ``seat``'s turn."""
    actions.execute(state, seat, list(first))
    for _ in range(MAX_MOVES):
        if state["phase"] not in PLAY or state["turn"] != seat:
            break
        actions.execute(state, seat, ai.decide(SeatView(state, seat), rng))
    return evaluate(state, seat)


def _candidates(board: ai.Board, normal: Action) -> list[Action]:
    """The normal AI's placement and all the general armies on each of the best few borders."""
    left = board.view["reinforcements_left"]
    target = board.target_continent()
    ranked = sorted(board.borders(), key=lambda t: -ai._stage_score(board, t, target))
    out = [normal]
    for t in ranked[:CANDIDATES + 1]:
        action = ["place", t, str(left)]
        if action != normal:
            out.append(action)
    return out[:CANDIDATES + 1]


def decide(state: State, seat: int, rng: random.Random) -> Action:
    """The hard AI's action for ``seat``'s pending request."""
    view = SeatView(state, seat)
    normal = ai.decide(view, rng)
    if view["phase"] != "reinforce" or normal[0] != "place" or ai._pools(view):
        return normal
    board = ai.Board(view)
    options = _candidates(board, normal)
    if len(options) == 1:
        return normal
    scores = [0.0] * len(options)
    for _ in range(ROLLOUTS):
        world = determinize(state, seat, rng)
        for i, action in enumerate(options):
            scores[i] += _rollout(rules.copy_state(world), seat, action, rng)
    best = max(range(len(options)), key=lambda i: (scores[i], -i))
    return options[best]
