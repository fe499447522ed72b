"""The 极武三国 AI levels around the normal AI (issue 23): ``easy``, a short-sighted player, and
``hard``, the normal AI with its own weights and look-ahead over sampled hidden cards.

Easy plays like a beginner who knows the rules: cards in the order they were drawn (so a 联动
finds its partner only by luck), the dearest card it can afford, each soldier where it takes a
region at once, a kill only when it breaks a hold on the spot; it never moves a general and a
duel is a guess. Hard: see :func:`hard`.
"""

from __future__ import annotations

import random
from dataclasses import replace
from math import comb

from engines.base import Action, State
from engines.jiwu import actions, ai, choices
from engines.jiwu import rules as R
from engines.jiwu.data import card
from engines.jsoncopy import clone

#: How often easy answers a card's question without thinking (any legal answer).
EASY_SLIP = 0.25


def _immediate(state: State, seat: int, slot: str) -> float:
    """What a soldier on ``slot`` wins this very moment: a region's hold, nothing later."""
    return ai._swing(state, seat, slot, [seat, ""])


def easy(state: State, seat: int, rng: random.Random) -> Action:
    """A sensible move that looks no further than the moment (see the module docstring): it
    beats the random walker by fighting for regions and building a deck at all, and loses to
    normal by missing 联动s, buying on price and spending soldiers where nothing lasts."""
    phase = state["phase"]
    if phase == "setup":
        return ["start", rng.choice(R.start_regions(state, seat))]
    if phase == "duel":
        return [rng.choice(choices.MOVES)]
    if phase == "effect":
        if rng.random() < EASY_SLIP:
            return [rng.choice(R.choices_for(state, seat, state["queue"][0]))]
        return [ai._effect_answer(state, seat)]
    vs = choices.verbs(state, seat)
    if "plan" in vs:
        return ["plan", vs["plan"][0]]
    if "play" in vs:
        return ["play", vs["play"][0]]
    if "general" in vs:
        gid = vs["general"][0]
        return ["general", gid, max(R.general_deploy_slots(state, seat), key=lambda s: _immediate(state, seat, s))]
    kills = [t for t in vs.get("kill", []) if not t.startswith("spy.") and ai._swing(state, seat, t, None) > 2]
    if kills:
        return ["kill", max(kills, key=lambda t: ai._swing(state, seat, t, None))]
    if "deploy" in vs:
        return ["deploy", max(vs["deploy"], key=lambda s: _immediate(state, seat, s) + rng.random())]
    if "buy" in vs:
        return ["buy", max(vs["buy"], key=lambda i: card(R.cid(state, i) if i in state["cards"] else i).cost
                           + rng.random() * 0.5)]
    return ["end"]


#: Hard's weights at each table size (tuned on seeds 100000–199999, docs/rules/jiwu.md "AI
#: levels"). A soldier on a region's slot is worth 1.3 more than normal's 0.3 (round 5: normal
#: spreads soldiers on the roads toward regions it has not reached and spends 武力 on kills,
#: where holding and widening its regions, the 城池卡 and control that decide the game, wins
#: more; it lifted hard over normal by 10–16 points at every table size). At 2 players the
#: end-game 功勋 of a card's cost also weighs double (a card kept is half its cost at the end,
#: so the dear cards win more than their effects say); at 3 and 4 players every other spending
#: style tried lost to normal's (the 2-player one two games in three at 4), so there hard spends
#: as normal does and aims at the leader (:func:`aim`).
REGION_BASE = 1.3
STYLES = {2: ai.Style(cost_early=0.6, cost_late=1.2, region_base=REGION_BASE),
          3: ai.Style(region_base=REGION_BASE), 4: ai.Style(region_base=REGION_BASE)}
#: At 3 and 4 players, breaking the leading rival's hold is worth twice the swing and killing
#: one of its soldiers one 功勋 more (:func:`aim`; tuned on seeds 100000–100499).
TARGET_HOLD = 1.0
TARGET_KILL = 1.0
#: Sampled deals of the hidden cards per plan.
SAMPLES = 2
#: Decisions a plan may take before it is judged (a turn's spending is rarely longer).
PLAN_STEPS = 40
#: Decisions the other seats may take to finish the round after a plan (three turns at most).
ROUND_STEPS = 400


def determinize(state: State, seat: int, rng: random.Random) -> State:
    """A copy of ``state`` in which everything ``seat`` cannot see is dealt again from the cards
    it cannot see: the central deck, the 计策 deck, its own deck's order and the other seats'
    hands, decks and discards. The unseen cards are sorted before the shuffle, so any deal that
    agrees with the seat's view gives the same sample for the same ``rng``."""
    det = clone(state)
    others = [o for o in range(state["seats"]) if o != seat]
    pool = sorted(state["market_deck"] + [i for o in others for k in ("hand", "deck", "discard")
                                           for i in state["players"][o][k]])
    rng.shuffle(pool)
    det["market_deck"], pool = pool[:len(state["market_deck"])], pool[len(state["market_deck"]):]
    for o in others:
        for k in ("hand", "deck", "discard"):
            n = len(state["players"][o][k])
            det["players"][o][k], pool = pool[:n], pool[n:]
    for deck in (det["plan_deck"], det["players"][seat]["deck"]):
        deck.sort()
        rng.shuffle(deck)
    return det


def public_score(state: State, seat: int) -> int:
    """A seat's 功勋 as every player can count it: all but the cards kept in its deck, hand and
    discard, which are secret until the end."""
    return sum(v for k, v in R.score_parts(state, seat).items() if k != "deck")


def aim(state: State, seat: int, style: ai.Style) -> ai.Style:
    """``style`` aimed at the leading rival by public 功勋 when more than one rival is left: a
    hold or a soldier taken from the leader is a step toward winning, one taken from a trailing
    rival mostly helps the leader. With one rival there is nobody else to prefer."""
    if state["seats"] < 3:
        return style
    leader = max((o for o in range(state["seats"]) if o != seat), key=lambda o: public_score(state, o))
    return replace(style, target=leader, target_hold=TARGET_HOLD, target_kill=TARGET_KILL)


def _policy(state: State, seat: int, rng: random.Random, style: ai.Style) -> Action:
    """The normal AI's move with ``style``'s spending (its card questions included)."""
    if state["phase"] == "effect":
        return [ai._effect_answer(state, seat, style)]
    if state["phase"] == "main":
        return ai._main(state, seat, rng, style)
    return ai.decide(state, seat, rng)


def _margin(state: State, seat: int) -> float:
    """The seat's final 功勋 less the best rival's, were the game scored now."""
    return R.score(state, seat) - max(R.score(state, o) for o in range(state["seats"]) if o != seat)


def _play_plan(state: State, seat: int, rng: random.Random, style: ai.Style) -> float:
    """Follow ``style`` to the end of the seat's turn on a sampled deal, then the round out with
    the normal AI's moves for every seat (the game ends with the round once an end is met, so
    the seats still to play answer a plan that ends it); the margin after the round."""
    for _ in range(PLAN_STEPS):
        actions.execute(state, seat, _policy(state, seat, rng, style))
        if state["phase"] not in ("main", "effect") or state["turn"] != seat:
            break
    for _ in range(ROUND_STEPS):
        asked = choices.asked(state)
        if not asked or (state["phase"] == "main" and state["turn"] == state["first"] and not state["queue"]):
            break
        actions.execute(state, asked[0], ai.decide(state, asked[0], rng))
    return _margin(state, seat)


def _hits(dice: int, block: int) -> float:
    """The wounds ``dice`` duel dice are expected to deal through ``block``: each die hits on
    4+ (half the time)."""
    return sum(comb(dice, k) * max(0, k - block) for k in range(dice + 1)) / 2 ** dice


def duel_move(state: State, seat: int) -> str:
    """The duel move with the best expected wounds dealt less wounds taken, against the rival's
    habit as the normal AI has it (its general's skill move 45 % of the time, else any move):
    both generals' skills are public, so this reads nothing hidden."""
    d = state["duel"]
    mine, theirs = (d["a"], d["b"]) if R.general_owner(state, d["a"]) == seat else (d["b"], d["a"])
    ms = card(R.cid(state, mine)).general.skill  # type: ignore[union-attr]
    ts = card(R.cid(state, theirs)).general.skill  # type: ignore[union-attr]
    habit = {o: (1 - ai.SKILL_HABIT) / 3 + (ai.SKILL_HABIT if o == ts["on"] else 0.0) if ts["on"] in choices.MOVES
             else 1 / 3 for o in choices.MOVES}

    def worth(move: str) -> float:
        total = 0.0
        for o, p in habit.items():
            dm, bm = R._dice(ms, move, o)
            dt, bt = R._dice(ts, o, move)
            total += p * (_hits(dm, bt) - _hits(dt, bm))
        return total

    return max(choices.MOVES, key=worth)


def endgame(state: State, seat: int) -> bool:
    """The last turns, where the score is nearly final: the end is already met (the game ends
    with this round or turn) or the seat can deploy its last soldiers now."""
    p = state["players"][seat]
    return bool(R.ending(state)) or p["supply"] <= p["power"] or ai._turns_left(state) <= 1


def plans(state: State, own: ai.Style | None = None) -> tuple[ai.Style, ...]:
    """The rival plans hard plays out in the last turns: its own spending (``own``, by default
    its table size's), the normal AI's, buying by cost alone, killing at every chance, deploying
    before killing."""
    own = STYLES[state["seats"]] if own is None else own
    return (own, ai.NORMAL, ai.Style(cost_early=3.0, cost_late=3.0), replace(own, kill_bias=0.0),
            replace(own, kill_bias=5.0))


def hard(state: State, seat: int, rng: random.Random) -> Action:
    """The normal AI with its table size's weights (:data:`STYLES`: it holds its regions, and at
    2 players weighs a card's cost more), aimed at the leader at 3–4 players (:func:`aim`),
    and the duel move that answers the rival's habit (:func:`duel_move`);
    in the last turns (:func:`endgame`), once its cards are played, each of the :func:`plans` is
    played out on :data:`SAMPLES` deals of the cards it cannot see (:func:`determinize`), its
    turn by the plan and the rest of the round by the normal AI for every seat, and the first
    step of the plan that ends the round with the best margin is taken. Set-up is the normal
    AI's."""
    phase = state["phase"]
    if phase == "duel":
        return [duel_move(state, seat)]
    if phase not in ("main", "effect"):
        return ai.decide(state, seat, rng)
    own = aim(state, seat, STYLES[state["seats"]])
    if phase == "effect" or not endgame(state, seat):
        return _policy(state, seat, rng, own)
    vs = choices.verbs(state, seat)
    if "play" in vs or "plan" in vs:
        return _policy(state, seat, rng, own)
    rivals = plans(state, own)
    firsts = [ai._main(state, seat, rng, style) for style in rivals]
    if all(f == firsts[0] for f in firsts):
        return firsts[0]
    deals = [determinize(state, seat, rng) for _ in range(SAMPLES)]
    scores = [sum(_play_plan(clone(det), seat, random.Random(k), style) for det in deals)
              for k, style in enumerate(rivals)]
    return firsts[max(range(len(rivals)), key=lambda k: (scores[k], -k))]
