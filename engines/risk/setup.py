"""A fresh game: first player by die roll, the deal (or empty board for claiming), missions.

Set-up differs by option: ``setup=classic`` claims one territory at a time and places one army at
a time (the seed's procedure); ``setup=quick`` deals the territories at random and lets everyone
place the rest at once, secretly, revealed together. The neutral and mission variants always deal
territories (their seed set-up does), so ``setup`` only decides how the remaining armies go down.
"""

from __future__ import annotations

from engines.base import Event, State
from engines.risk import rules
from engines.risk.data import Mission, content
from engines.rng import Rng


def roll_for_first(state: State, seats: int) -> int:
    """Everyone rolls one die; the highest starts; tied highest roll again."""
    rng = Rng(state)
    contenders = list(range(seats))
    rounds: list[dict[str, int]] = []
    while True:
        rolls = {s: rng.die() for s in contenders}
        rounds.append({str(s): r for s, r in rolls.items()})
        top = max(rolls.values())
        contenders = [s for s, r in rolls.items() if r == top]
        if len(contenders) == 1:
            state["first_rolls"] = rounds
            return contenders[0]


def _blank(options: dict[str, str], seats: int, seed: int) -> State:
    c = content()
    variant = options.get("variant", "classic")
    start = 40 if variant == "neutral" else rules.START_ARMIES[seats]
    return {
        "game": "risk",
        "variant": variant,
        "setup": options.get("setup", "quick"),
        "seats": seats,
        "rng": Rng.seed_value(seed),
        "phase": "setup_claim",
        "turn": 0,
        "first": 0,
        "round": 0,
        "max_rounds": rules.DEFAULT_MAX_ROUNDS,
        "first_rolls": [],
        "owner": {t: None for t in c.territories},
        "armies": {t: 0 for t in c.territories},
        "players": [{"color": c.colors[s], "alive": True, "cards": [], "to_place": start, "hq": None,
                     "mission": None, "mission_converted": False, "eliminated_by": None}
                    for s in range(seats)],
        "neutral_to_place": start if variant == "neutral" else 0,
        "deck": list(c.card_ids),
        "discard": [],
        "hq_aside": [],
        "hq_holder": {},
        "hidden": {},
        "hq_choice": {},
        "trade_count": 0,
        "reinforcements": 0,
        "bonus_pools": {},
        "post_elim": False,
        "conquered": False,
        "occupy": None,
        "last_battle": None,
        "turn_summary": [],
        "winners": None,
        "end_reason": None,
        "req_seq": 0,
        "req_ids": {},
        "dice_queue": [],
    }


def _give(state: State, territory: str, seat: int) -> None:
    state["owner"][territory] = seat
    state["armies"][territory] = 1
    if seat == rules.NEUTRAL:
        state["neutral_to_place"] -= 1
    else:
        state["players"][seat]["to_place"] -= 1


def _deal(state: State) -> None:
    """Shuffle the territories and deal them round-robin from the first player (neutral: 3 piles)."""
    terrs = list(content().territories)
    Rng(state).shuffle(terrs)
    if state["variant"] == "neutral":
        takers = [state["first"], 1 - state["first"], rules.NEUTRAL]
    else:
        takers = [(state["first"] + k) % state["seats"] for k in range(state["seats"])]
    for i, t in enumerate(terrs):
        _give(state, t, takers[i % len(takers)])


def _spread_neutral(state: State) -> None:
    """Quick set-up of the neutral variant: neutral's remaining armies go down at random."""
    rng = Rng(state)
    mine = [t for t in content().territories if state["owner"][t] == rules.NEUTRAL]
    while state["neutral_to_place"] > 0:
        state["armies"][rng.choice(mine)] += 1
        state["neutral_to_place"] -= 1


def _deal_missions(state: State) -> None:
    """Missions about colours not in the game are removed, the rest shuffled, one dealt to each.

    A territory-count mission that the deal itself already completes is removed too: with two
    players each holds 21 territories and 40 armies, so "18 territories with 2 armies each" would
    be won before the first attack.
    """
    c = content()
    in_game = {p["color"] for p in state["players"]}
    dealt = len(c.territories) // state["seats"]
    pool = [m for m in c.mission_ids if _mission_in_play(c.missions[m], in_game, dealt)]
    Rng(state).shuffle(pool)
    for p in state["players"]:
        p["mission"] = pool.pop()


def _mission_in_play(mission: Mission, in_game: set[str], dealt: int) -> bool:
    if mission.kind == "destroy":
        return mission.color in in_game
    return mission.kind != "territories" or mission.count > dealt


def new_game(options: dict[str, str], seats: int, seed: int) -> tuple[State, list[Event]]:
    state = _blank(options, seats, seed)
    state["first"] = state["turn"] = roll_for_first(state, seats)
    Rng(state).shuffle(state["deck"])
    if state["variant"] == "mission":
        _deal_missions(state)
    deals = state["setup"] == "quick" or state["variant"] in ("neutral", "mission")
    if deals:
        _deal(state)
        state["phase"] = "setup_place"
        if state["variant"] == "neutral" and state["setup"] == "quick":
            _spread_neutral(state)
    return state, []
