"""The 极武三国 AI: a greedy scorer with a purpose, and the random walker baseline.

The greedy AI plays its whole hand (cards with a 联动 or a 晋升 of played cards last, so they
find their partners), then fights for regions: each soldier goes where it changes who 称霸s the
most 功勋 (a region's end value, its 城池卡 counted over the turns left), a kill is bought when
it breaks an enemy's hold or is cheap 功勋, and silver buys the card worth most for the stage of
the game (drawing and silver early, might in the middle, cost-as-功勋 at the end), thinning 勤恳农夫
and 残兵败将 out of the deck. It reads only public facts and its own cards (the board, the market,
its hand), never another seat's hand or a deck's order.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from engines.base import Action, State
from engines.jiwu import board as B
from engines.jiwu import choices
from engines.jiwu import rules as R
from engines.jiwu.data import board, card

#: What one unit of each resource is worth when a card is judged (early game, late game).
EARLY = {"power": 1.0, "gold": 1.1, "draw": 1.4, "deploy": 1.3, "kill": 3.2, "spy": 1.2, "supplant": 4.0,
         "promote": 1.2, "trash": 1.0, "outcast": 0.8, "plan": 0.8, "gain": 1.5, "gain_market": 2.0}
LATE = dict(EARLY, gold=0.5, draw=0.9, promote=2.5, trash=0.2, deploy=1.6, kill=3.6)
#: A kill (3 武力) is chosen over three deploys when worth this share of them.
KILL_BIAS = 0.4
#: How often a duellist picks its general's skill move (else any move): known to the hard
#: level, which answers this habit (``levels.duel_move``).
SKILL_HABIT = 0.45


@dataclass(frozen=True)
class Style:
    """The knobs of the turn's spending that the hard level varies to draw up rival plans
    (``levels.hard``); the defaults are the normal AI's."""

    kill_bias: float = KILL_BIAS
    #: The weight of a card's cost (end-game 功勋 of a card kept) early and late.
    cost_early: float = 0.3
    cost_late: float = 1.0
    #: What one unit of each resource is worth when a card is judged, early and late.
    early: dict[str, float] = field(default_factory=lambda: EARLY, compare=False)
    late: dict[str, float] = field(default_factory=lambda: LATE, compare=False)
    #: The rival whose holds and soldiers are worth more to break (hard, at 3–4 players, aims
    #: at the leader: a win taken from the leader is a win its own seat may get, one taken from a
    #: trailing rival mostly helps the leader); None: every rival alike, as normal plays.
    target: int | None = None
    #: How much more breaking the target's hold is worth (its swing times 1 + this), and what
    #: killing one of its soldiers adds.
    target_hold: float = 0.0
    target_kill: float = 0.0
    #: The board weights (round 5, so hard can be tuned apart from normal): the turns a
    #: region's 城池卡 is counted over at most and the share of it counted, a broken hold's share
    #: of the region, what any soldier in a region adds, a contested region's share per slot, a
    #: region slot's and a road slot's base, the road's share of the regions it reaches.
    city_turns: int = 8
    city_share: float = 0.5
    break_share: float = 0.6
    presence: float = 2.0
    contest: float = 0.4
    region_base: float = 0.3
    road_base: float = 0.2
    road_reach: float = 0.15
    #: A general's 武力值 as card worth (early, late), a 联动 partner in the deck, and the worth a
    #: card must pass to be bought before the late stage.
    force_early: float = 0.8
    force_late: float = 0.5
    partner: float = 0.15
    buy_floor: float = 1.0


NORMAL = Style()


def random_action(state: State, seat: int, rng: random.Random) -> Action:
    """Walk the action tree choosing uniformly at each step (ends the turn 1 time in 8)."""
    path: list[str] = []
    while True:
        node = choices.tree(state, seat, path)
        if node.complete and (not node.options or rng.random() < 0.5):
            return path
        opts = [o.value for o in node.options]
        if not path and state["phase"] == "main" and len(opts) > 1 and rng.random() >= 0.125:
            opts = [o for o in opts if o != "end"]
        path.append(rng.choice(opts))


def _late(state: State) -> bool:
    """The last stretch: the central deck below 40 % of its deal (30 of rules 1's 74) or a
    player nearly out of soldiers."""
    return len(state["market_deck"]) < 0.4 * R.dealt(state) or min(p["supply"] for p in state["players"]) < 12


def _turns_left(state: State) -> int:
    market = len(state["market_deck"]) / (1.5 * state["seats"])
    soldiers = min(p["supply"] for p in state["players"]) / 3
    return max(1, int(min(market, soldiers)))


def region_worth(state: State, region: str, style: Style = NORMAL) -> float:
    r = board().regions[region]
    return r.vp + r.city * min(_turns_left(state), style.city_turns) * style.city_share


def _swing(state: State, seat: int, slot: str, occupant: list[Any] | None, style: Style = NORMAL) -> float:
    """How much seat gains when ``slot`` becomes ``occupant``: control won or broken (more when
    the region was ``style``'s target's)."""
    region = B.region_of(slot)
    if region is None:
        return 0.0
    before = B.dominator(state, region)
    old = state["slots"][slot]
    state["slots"][slot] = occupant
    after = B.dominator(state, region)
    total_after = B.total(state, region, seat)
    state["slots"][slot] = old
    worth = region_worth(state, region, style)
    gain = 0.0
    if before != seat and after == seat:
        gain += worth
    elif before not in (None, seat, B.NEUTRAL) and after != before:
        gain += worth * style.break_share
    if total_after:
        gain += style.presence
    if style.target is not None and before == style.target:
        gain *= 1 + style.target_hold
    return gain


def deploy_value(state: State, seat: int, slot: str, style: Style = NORMAL) -> float:
    region = B.region_of(slot)
    v = _swing(state, seat, slot, [seat, ""], style)
    if region is not None:
        counts = B.counts(state, region)
        mine = counts.get(seat, 0)
        rival = max([n for o, n in counts.items() if o != seat] or [0])
        if mine <= rival:
            v += style.contest * region_worth(state, region, style) / board().regions[region].slots
        return v + style.region_base
    # a path slot: presence toward regions not yet reached
    pid = slot.split(".")[0]
    p = board().paths[pid]
    reach = [r for r in (p.a, p.b) if not B.present_in_region(state, seat, r)]
    return style.road_base + style.road_reach * sum(region_worth(state, r, style) for r in reach)


def kill_value(state: State, seat: int, target: str, style: Style = NORMAL) -> float:
    if target.startswith("spy."):
        return 1.2
    victim = state["slots"][target][0]
    v = 1.0 + _swing(state, seat, target, None, style)
    if victim == B.NEUTRAL:
        v -= 0.3
    if style.target is not None and victim == style.target:
        v += style.target_kill
    return v


def _effects_value(effects: list[dict[str, Any]], w: dict[str, float]) -> float:
    total = 0.0
    for e in effects:
        op = e["op"]
        if op == "link":
            total += 0.5 * _effects_value(e["then"], w)
        elif op == "choose":
            total += max(_effects_value(o, w) for o in e["of"])
        elif op == "recall":
            total += 0.5 * _effects_value(e["then"], w)
        else:
            total += w[op] * e.get("n", 1)
    return total


def card_value(state: State, seat: int, cid: str, style: Style = NORMAL) -> float:
    c = card(cid)
    late = _late(state)
    w = style.late if late else style.early
    v = _effects_value(list(c.effects), w)
    if c.general:
        v += c.general.force * (style.force_late if late else style.force_early)
    v += c.cost / 2 * (style.cost_late if late else style.cost_early)  # end-game 功勋 of a card kept in the deck
    if c.kind == "plan":
        return v
    mine = [card(R.cid(state, i)).aspect for i in state["players"][seat]["hand"] + state["players"][seat]["discard"]]
    v += style.partner * mine.count(c.aspect)  # 联动 partners
    return v


def _best(items: list[str], key: Any) -> str:
    return max(items, key=key)


def _effect_answer(state: State, seat: int, style: Style = NORMAL) -> str:
    e = state["queue"][0]
    op = e["op"]
    answers = R.choices_for(state, seat, e)
    if op == "deploy":
        return _best(answers, lambda s: deploy_value(state, seat, s, style))
    if op in ("kill", "supplant"):
        return _best(answers, lambda t: kill_value(state, seat, t, style) + (
            _swing(state, seat, t, [seat, ""], style) if op == "supplant" else 0))
    if op == "spy":
        return _best(answers, lambda r: region_worth(state, r) * (
            0.5 if B.present_in_region(state, seat, r) else 1.0) + len(B.counts(state, r)))
    if op == "recall":
        return answers[0]
    if op == "promote":
        if _late(state):
            return _best(answers, lambda i: card(R.cid(state, i)).cost)
        weak = [i for i in answers if card(R.cid(state, i)).kind in ("start", "supply")]
        return _best(weak or answers, lambda i: -card_value(state, seat, R.cid(state, i))
                     if weak else card(R.cid(state, i)).cost)
    if op == "trash":
        if e["from"] == "market":
            return _best(answers, lambda i: card(R.cid(state, i)).cost)
        junk = [i for i in answers if R.cid(state, i) in ("canbing", "nongfu", "bubing")]
        if not junk:
            return "-"
        order = {"canbing": 0, "nongfu": 1, "bubing": 2}
        return min(junk, key=lambda i: order[R.cid(state, i)])
    if op == "gain_market":
        return _best(answers, lambda i: card_value(state, seat, R.cid(state, i), style))
    if op == "choose":
        w = style.late if _late(state) else style.early
        return _best(answers, lambda a: _effects_value(e["of"][int(a)], w))
    return answers[0] if answers else "-"


def _play_order(state: State, seat: int, iid: str) -> tuple[int, int]:
    c = card(R.cid(state, iid))
    ops = {e["op"] for e in c.effects}
    promote_played = any(e["op"] == "promote" and e["from"] == "played" for e in c.effects)
    return (2 if promote_played else 1 if "link" in ops else 0, -c.cost)


def _main(state: State, seat: int, rng: random.Random, style: Style = NORMAL) -> Action:
    p = state["players"][seat]
    vs = choices.verbs(state, seat)
    if "plan" in vs:
        return ["plan", vs["plan"][0]]
    if "play" in vs:
        return ["play", min(vs["play"], key=lambda i: _play_order(state, seat, i))]
    if "move" in vs:
        best = _best_move(state, seat, style)
        if best:
            return best
    if "general" in vs:
        gid = vs["general"][0]
        slots = R.general_deploy_slots(state, seat)
        return ["general", gid, _best(slots, lambda s: deploy_value(state, seat, s, style))]
    if "hit" in vs:
        for gid in vs["hit"]:
            owner = R.general_owner(state, gid)
            if state["players"][owner]["generals"][gid]["hp"] * 3 <= p["power"]:
                return ["hit", gid]
    kill_best = max(vs.get("kill", []), key=lambda t: kill_value(state, seat, t, style), default=None)
    deploy_best = max(vs.get("deploy", []), key=lambda s: deploy_value(state, seat, s, style), default=None)
    if kill_best is not None:
        kv = kill_value(state, seat, kill_best, style)
        dv = deploy_value(state, seat, deploy_best, style) * min(3, p["supply"]) if deploy_best else 0.0
        if kv >= dv * style.kill_bias or deploy_best is None:
            return ["kill", kill_best]
    if deploy_best is not None:
        return ["deploy", deploy_best]
    if "buy" in vs:
        choice = _best(vs["buy"], lambda i: card_value(state, seat, R.cid(state, i) if i in state["cards"] else i, style))
        cid = R.cid(state, choice) if choice in state["cards"] else choice
        if card_value(state, seat, cid, style) > style.buy_floor or _late(state):
            return ["buy", choice]
    return ["end"]


def _best_move(state: State, seat: int, style: Style = NORMAL) -> Action | None:
    best, score = None, 0.5
    for gid, g in state["players"][seat]["generals"].items():
        for region in R.move_targets(state, seat, gid):
            v = region_worth(state, region, style) * 0.3
            foes = R.enemy_generals(state, seat, region)
            if foes:
                their = max(state["players"][R.general_owner(state, f)]["generals"][f]["hp"] for f in foes)
                v += 3 if g["hp"] > their else -5
            dom = B.dominator(state, region)
            if dom is not None and dom not in (seat, B.NEUTRAL):
                v += 1 + region_worth(state, region, style) * 0.5
            here = B.region_of(g["slot"]) if g["slot"] else None
            if here and B.dominator(state, here) == seat and B.counts(state, here).get(seat, 0) <= 1:
                v -= region_worth(state, here, style)  # leaving would give up a region
            if v > score:
                best, score = ["move", gid, region], v
    return best


def _duel_pick(state: State, seat: int, rng: random.Random) -> str:
    d = state["duel"]
    mine = d["a"] if R.general_owner(state, d["a"]) == seat else d["b"]
    skill = card(R.cid(state, mine)).general.skill  # type: ignore[union-attr]
    if skill["on"] in choices.MOVES and rng.random() < SKILL_HABIT:
        return str(skill["on"])
    return rng.choice(choices.MOVES)


def decide(state: State, seat: int, rng: random.Random) -> Action:
    phase = state["phase"]
    if phase == "setup":
        regions = R.start_regions(state, seat)
        return ["start", _best(regions, lambda r: sum(region_worth(state, o) for _, o in B.neighbours(state, r)))]
    if phase == "duel":
        return [_duel_pick(state, seat, rng)]
    if phase == "effect":
        return [_effect_answer(state, seat)]
    return _main(state, seat, rng)
