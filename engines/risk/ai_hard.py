"""The ``hard`` Risk AI: the normal AI's play, with each turn's main placement chosen by search.

Where the new armies go decides the whole turn (which continent it can take, what it leaves
open), so that one decision is searched: for each of a few candidate borders (the normal AI's
pick and the next five by its staging score), hard plays the rest of its own turn out with the
normal AI's moves on sampled dice, *and then the next rival's whole turn* with the normal AI's
moves (its model of how a rival answers), on 8 sampled worlds, and keeps the candidate whose position
is best by :func:`evaluate` when that reply is over. Judging at the end of its own turn only
(issue 23's first round) rewarded stacks that looked strong and left a bonus open to the reply;
judging after the reply lifted hard over normal from 57 % to 63 % at 2 players on the tuning
seeds (docs/rules/risk.md, "AI levels"). Every other decision is the normal AI's.

Risk hides the other hands, the deck and the missions, and the dice to come live in the state's
RNG. A rollout therefore runs on a *determinization* (:func:`determinize`): a copy of the state in
which everything the seat may not know is dealt anew from the seat's own random generator (the
unseen cards pooled in sorted order and shuffled, other seats' missions drawn from the ones it
does not hold, a fresh dice seed), so the decision depends only on what ``view(state, seat)``
shows. Every candidate is played on the same determinizations (common random numbers), so
their scores differ by the choice, not by the luck of the deal.
"""

from __future__ import annotations

import random

from engines.base import Action, State
from engines.risk import actions, ai, rules
from engines.risk.data import content
from engines.risk.views import SeatView

#: Candidate borders searched per turn (besides the normal AI's own choice). Issue 23's fourth
#: round widened the search from 4 candidates on 3 worlds to 6 on 8, spending the time headroom
#: (p99 ~23 ms -> ~89 ms of the 250 ms budget): 60.8 % -> 65.7 % over normal at 2 players on the
#: same 1 000 tuning seeds (docs/rules/risk.md, "AI levels").
CANDIDATES = 5
#: Rounds of rollouts (one determinization each, every candidate played on it).
ROLLOUTS = 8
#: Rival turns played out after hard's own (1: the next rival's reply; the time of a search grows
#: with each, and at 5 players a whole round would not fit the 250 ms budget).
REPLY_TURNS = 1
#: A rollout stops after this many moves (a turn and a reply rarely take 150).
MAX_MOVES = 400
#: A search starts no further round once its rollouts made this many moves: a deterministic cap
#: on the decision time (a round of 4 candidates was ~70 moves at the median, ~130 at the 99th
#: percentile, so with 6 candidates 8 rounds are ~850-1 600 moves and the cap only cuts the
#: rare longest searches short; a wall-clock cap would make decisions depend on load).
MOVE_BUDGET = 3000
#: Weights of :func:`evaluate` (first round's; re-tuning them moved nothing beyond the noise).
W_INCOME, W_RIVAL_INCOME, W_ARMIES, W_EXPOSED = 3.0, 1.5, 0.15, 0.3

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
    """How good a position is for ``seat`` once the rollout is over: its income against the
    strongest rival's, its armies against theirs, and its borders left weaker than what could
    attack them."""
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
    return W_INCOME * mine - W_RIVAL_INCOME * best_rival + W_ARMIES * (own_armies - rival_armies) - W_EXPOSED * exposed


def _rollout(state: State, seat: int, first: Action, rng: random.Random) -> tuple[float, int]:
    """Play ``first``, the normal AI's moves to the end of ``seat``'s turn, then ``REPLY_TURNS``
    rival turns with the normal AI's moves; the score and the moves it took."""
    actions.execute(state, seat, list(first))
    turns = 0
    current = seat
    moves = 0
    for moves in range(MAX_MOVES):  # noqa: B007 - the count is returned
        if state["phase"] not in PLAY:
            break
        actor = state["turn"]
        if actor != current:
            turns += 1
            current = actor
            if turns > REPLY_TURNS or actor == seat:
                break
        actions.execute(state, actor, ai.decide(SeatView(state, actor), rng))
    return evaluate(state, seat), moves


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


def _search(state: State, seat: int, options: list[Action], rng: random.Random, rollouts: int) -> Action:
    """The option whose rollouts score best, each option on the same determinized worlds."""
    scores = [0.0] * len(options)
    spent = 0
    for _ in range(rollouts):
        world = determinize(state, seat, rng)
        for i, action in enumerate(options):
            score, moves = _rollout(rules.copy_state(world), seat, action, rng)
            scores[i] += score
            spent += moves
        if spent > MOVE_BUDGET:
            break
    best = max(range(len(options)), key=lambda i: (scores[i], -i))
    return options[best]


def decide(state: State, seat: int, rng: random.Random) -> Action:
    """The hard AI's action for ``seat``'s pending request."""
    view = SeatView(state, seat)
    normal = ai.decide(view, rng)
    if view["phase"] != "reinforce" or normal[0] != "place" or ai._pools(view):
        return normal
    options = _candidates(ai.Board(view), normal)
    if len(options) == 1:
        return normal
    return _search(state, seat, options, rng, ROLLOUTS)
