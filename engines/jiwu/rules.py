"""极武三国 rules: set-up, cards and their effects, the board actions, generals and duels, the end
of a turn, the end of the game and the score. Pure functions over the JSON state.

Every physical card is an instance id ``k<n>`` mapped to its card id in ``state["cards"]``, so a
card can be followed through deck, hand, play, discard, promotion and kill zone, and the tests can
count that none appears or vanishes.

Effects run from a queue (``state["queue"]``): automatic ops (resources, draws, gains) resolve at
once; an op that needs a choice (a slot, a region, a card) stops the queue and asks the player
(``phase == "effect"``); an op with nothing legal to choose is skipped.
"""

from __future__ import annotations

from typing import Any

from engines.base import Event, Msg, State, key_ref, seat_ref
from engines.jiwu import board as B
from engines.jiwu.data import DUEL_CYCLE, board, card, cards
from engines.rng import Rng

COLORS = ("red", "blue", "yellow", "green")
SOLDIERS = 40
SPIES = 5
GENERAL_TOKENS = 3
HAND = 5
ROW = 6
PLAN_LIMIT = 3
DEPLOY_COST, KILL_COST = 1, 3
HIT = 4  # a duel die of 4+ hits
ENDINGS = ("turn", "round")
SOURCES = ("kill", "city", "region", "total", "promoted", "deck")
#: The rules a new game plays by, stamped in its state (``state["ed"]``, :func:`rules_edition`)
#: so a game started earlier plays on, and its export replays, by its own. 2 (issue 23): the
#: last seat places its first soldier first (:func:`placement_order`) and the central deck is
#: dealt by player count (:data:`DEAL`); 1 (no stamp): turn order, all 80 market cards.
RULES = 2
#: Market cards dealt at set-up from rules 2 on (the row of 6 included), by player count; the
#: rest stay in the box. With all 80 the central deck outlasted the soldiers in every game, so
#: the seed's second end never came (docs/rules/jiwu.md, "Fair start and both ends").
DEAL = {2: 40, 3: 54, 4: 66}


def m(key: str, **params: Any) -> Msg:
    return Msg(f"jiwu.{key}", params)


def who(seat: int) -> dict[str, Any]:
    return seat_ref(seat, f"jiwu.color.{COLORS[seat]}")


def cref(state: State, iid: str) -> dict[str, Any]:
    return key_ref(f"jiwu_names.card.{state['cards'][iid]}")


def rref(region: str) -> dict[str, Any]:
    return key_ref(f"jiwu_names.region.{region}")


def cid(state: State, iid: str) -> str:
    return str(state["cards"][iid])


# --------------------------------------------------------------------------- set-up

def rules_edition(state: State) -> int:
    """Which rules a game plays by: games stored before rules 2 carry no stamp."""
    return int(state.get("ed", 1))


def new_game(seats: int, seed: int, ending_rule: str = "turn", rules: int = RULES) -> State:
    state: State = {"game": "jiwu", "seats": seats, "ending_rule": ending_rule, "rng": Rng.seed_value(seed), "cards": {}, "phase": "setup",
                    "turn": 0, "first": 0, "turns": 0, "queue": [], "duel": None, "req_seq": 0, "req": None,
                    "winners": [], "end_reason": "", "ending": "", "log_n": 0}
    if rules >= 2:
        state["ed"] = rules
    rng = Rng(state)
    n = 0

    def make(card_ids: list[str]) -> list[str]:
        nonlocal n
        out = []
        for c in card_ids:
            iid = f"k{n}"
            n += 1
            state["cards"][iid] = c
            out.append(iid)
        return out

    all_cards = cards()
    deck = make(all_cards.pile("market"))
    rng.shuffle(deck)
    boxed = deck[dealt(state) + ROW:]
    for iid in boxed:  # back in the box: out of this game, so no state names them
        del state["cards"][iid]
    state["market_deck"] = deck[ROW:dealt(state) + ROW]
    state["market"] = deck[:ROW]
    state["piles"] = {p: make([p] * card(p).copies) for p in ("jiangnan", "tieqi", "canbing")}
    plans = make(all_cards.pile("plan"))
    rng.shuffle(plans)
    state["plan_deck"], state["plan_discard"] = plans, []
    state["arts"] = {c.id: make([c.id])[0] for c in all_cards.of_kind("art")}
    b = board()
    state["slots"] = {s: None for s in B.all_slots(state)}
    for r in B.regions(state):
        for i in range(b.regions[r].neutral):
            state["slots"][f"{r}.{i}"] = [B.NEUTRAL, ""]
    for pid, slots in B.layout(seats)[2].items():
        for i in range(b.paths[pid].neutral):
            state["slots"][slots[i]] = [B.NEUTRAL, ""]
    state["spies"] = {}
    state["cities"] = {r: None for r in B.regions(state) if b.regions[r].city}
    players = []
    for _ in range(seats):
        start = make(all_cards.pile("start"))
        rng.shuffle(start)
        players.append({"deck": start[HAND:], "hand": start[:HAND], "discard": [], "played": [], "promoted": [],
                        "trashed": [], "kills": {}, "supply": SOLDIERS, "spies": SPIES, "plans": [],
                        "generals": {}, "power": 0, "gold": 0, "aspects": [], "plan_drawn": False,
                        "vp": dict.fromkeys(SOURCES, 0), "bought": []})
    state["players"] = players
    state["stats"] = {"buys": [], "duels": 0, "general_deaths": 0}
    state["turn"] = placement_order(state)[0]
    return state


def dealt(state: State) -> int:
    """How many cards the central deck held under the market row after the deal."""
    if rules_edition(state) >= 2:
        return DEAL[state["seats"]] - ROW
    return len(cards().pile("market")) - ROW


def placement_order(state: State) -> list[int]:
    """Who places a first soldier when. From rules 2 the last seat in turn order chooses its
    start region first, then the start player and the others in turn order: the seat that
    moves last in every round gets the pick of the start regions, the start player keeps its
    first move (rules 1: turn order; the start player won 56 % at 2 players and 48 % at 3)."""
    n, first = state["seats"], state["first"]
    order = [(first + k) % n for k in range(n)]
    return order[-1:] + order[:-1] if rules_edition(state) >= 2 else order


def start_regions(state: State, seat: int) -> list[str]:
    """Black regions with a free slot and no other player's soldier."""
    out = []
    for r in B.regions(state):
        if not board().regions[r].start:
            continue
        owners = {B.owner(state, s) for s in B.region_slots(state, r)} - {None}
        if owners - {seat} or all(B.owner(state, s) is not None for s in B.region_slots(state, r)):
            continue
        out.append(r)
    return out


def place_start(state: State, seat: int, region: str) -> list[Event]:
    slot = next(s for s in B.region_slots(state, region) if B.owner(state, s) is None)
    _put(state, seat, slot)
    events = [Event(m("ev.start", player=who(seat), region=rref(region)))]
    if all(B.on_board(state, s) for s in range(state["seats"])):
        state["phase"] = "main"
        state["turn"] = state["first"]
    else:
        state["turn"] = next(s for s in placement_order(state) if not B.on_board(state, s))
    return events


# --------------------------------------------------------------------------- cards

def draw(state: State, seat: int, n: int) -> int:
    """Draw ``n`` cards, shuffling the discard pile into the deck when it runs out."""
    p = state["players"][seat]
    got = 0
    for _ in range(n):
        if not p["deck"] and p["discard"]:
            p["deck"] = p["discard"]
            p["discard"] = []
            Rng(state).shuffle(p["deck"])
        if not p["deck"]:
            break
        p["hand"].append(p["deck"].pop())
        got += 1
    return got


def refill(state: State) -> None:
    while len(state["market"]) < ROW and state["market_deck"]:
        state["market"].append(state["market_deck"].pop())


def draw_plan(state: State, seat: int) -> bool:
    p = state["players"][seat]
    if len(p["plans"]) >= PLAN_LIMIT:
        return False
    if not state["plan_deck"] and state["plan_discard"]:
        state["plan_deck"] = state["plan_discard"]
        state["plan_discard"] = []
        Rng(state).shuffle(state["plan_deck"])
    if not state["plan_deck"]:
        return False
    p["plans"].append(state["plan_deck"].pop())
    return True


def play_card(state: State, seat: int, iid: str) -> list[Event]:
    p = state["players"][seat]
    p["hand"].remove(iid)
    c = card(cid(state, iid))
    events = [Event(m("ev.play", player=who(seat), card=cref(state, iid)))]
    general = c.general
    if general and may_field_general(state, seat, iid):
        p["generals"][iid] = {"hp": general.force, "slot": None, "moved": False}
        p["supply"] -= general.force
        events.append(Event(m("ev.general_in", player=who(seat), card=cref(state, iid), n=general.force)))
        art = state["arts"].pop(general.art, None)
        if art is not None:
            p["discard"].append(art)
            events.append(Event(m("ev.art", player=who(seat), card=cref(state, art))))
    else:
        p["played"].append(iid)
    if c.aspect == "zhi" and not p["plan_drawn"]:
        p["plan_drawn"] = True
        if draw_plan(state, seat):
            events.append(Event(m("ev.plan_draw", player=who(seat))))
    state["queue"] = [dict(e, src=iid) for e in c.effects] + state["queue"]
    if c.aspect:
        p["aspects"].append([c.aspect, iid])
    return events + run_queue(state, seat)


def may_field_general(state: State, seat: int, iid: str) -> bool:
    """A general comes to the table when no general of that name is in play, a general token is
    free and the supply holds its 武力值 in soldiers."""
    c = card(cid(state, iid))
    if c.general is None:
        return False
    p = state["players"][seat]
    in_play = {cid(state, g) for q in state["players"] for g in q["generals"]}
    return c.id not in in_play and len(p["generals"]) < GENERAL_TOKENS and p["supply"] >= c.general.force


def play_plan(state: State, seat: int, iid: str) -> list[Event]:
    p = state["players"][seat]
    p["plans"].remove(iid)
    state["plan_discard"].append(iid)
    state["queue"] = [dict(e, src=iid) for e in card(cid(state, iid)).effects] + state["queue"]
    return [Event(m("ev.plan", player=who(seat), card=cref(state, iid)))] + run_queue(state, seat)


def buy(state: State, seat: int, what: str) -> list[Event]:
    p = state["players"][seat]
    if what in state["piles"]:
        iid = state["piles"][what].pop()
    else:
        iid = what
        state["market"].remove(iid)
        refill(state)
    p["gold"] -= card(cid(state, iid)).cost
    p["discard"].append(iid)
    p["bought"].append(cid(state, iid))
    return [Event(m("ev.buy", player=who(seat), card=cref(state, iid)))]


# --------------------------------------------------------------------------- board actions

def _put(state: State, seat: int, slot: str, general: str = "") -> None:
    state["slots"][slot] = [seat, general]
    if not general:
        state["players"][seat]["supply"] -= 1


def deployable(state: State, seat: int, region: str | None = None) -> list[str]:
    """Empty slots the seat may deploy a soldier to (the 交战 rule; with no piece on the board,
    anywhere open)."""
    if state["players"][seat]["supply"] <= 0:
        return []
    reach = B.Reach(state, seat)
    anywhere = not reach.mine
    return [s for s, occ in state["slots"].items() if occ is None and (not region or B.region_of(s) == region)
            and (anywhere or s in reach.slots)]


def deploy(state: State, seat: int, slot: str) -> list[Event]:
    _put(state, seat, slot)
    return [Event(m("ev.deploy", player=who(seat), where=where(slot)))]


def where(slot: str) -> dict[str, Any]:
    region = B.region_of(slot)
    if region:
        return rref(region)
    pid = slot.split(".")[0]
    p = board().paths[pid]
    return key_ref("jiwu.path", a=rref(p.a), b=rref(p.b))


def kill_targets(state: State, seat: int, region: str | None = None, spies: bool = True) -> list[str]:
    """Soldiers (another player's or grey) and enemy spies the seat may kill under the 交战 rule.
    Generals are hurt, not killed outright (``hit_targets``)."""
    reach = B.Reach(state, seat)
    out = [s for s, occ in state["slots"].items() if occ is not None and occ[0] != seat and not occ[1]
           and (not region or B.region_of(s) == region) and s in reach.slots]
    if spies:
        for r, owners in state["spies"].items():
            if region and r != region:
                continue
            if reach.in_region(r):
                out += [f"spy.{r}.{o}" for o in owners if o != seat]
    return out


def add_vp(state: State, seat: int, source: str, n: int) -> None:
    state["players"][seat]["vp"][source] += n


def kill(state: State, seat: int, target: str) -> list[Event]:
    """Kill: a soldier goes to the killer's 斩杀区; a spy goes home. Either is 1 功勋."""
    if target.startswith("spy."):
        _, region, o = target.split(".")
        victim = int(o)
        state["spies"][region].remove(victim)
        if not state["spies"][region]:
            del state["spies"][region]
        state["players"][victim]["spies"] += 1
        add_vp(state, seat, "kill", 1)
        return [Event(m("ev.kill_spy", player=who(seat), victim=who(victim), region=rref(region)))]
    victim = int(state["slots"][target][0])
    state["slots"][target] = None
    kills = state["players"][seat]["kills"]
    kills[str(victim)] = kills.get(str(victim), 0) + 1
    add_vp(state, seat, "kill", 1)
    vref = who(victim) if victim >= 0 else key_ref("jiwu.neutral")
    return [Event(m("ev.kill", player=who(seat), victim=vref, where=where(target)))]


def supplant(state: State, seat: int, target: str) -> list[Event]:
    """策反: kill the soldier, then put an own soldier in its place."""
    events = kill(state, seat, target)
    if state["players"][seat]["supply"] > 0:
        _put(state, seat, target)
        events.append(Event(m("ev.supplant", player=who(seat), where=where(target))))
    return events


def spy_regions(state: State, seat: int) -> list[str]:
    if state["players"][seat]["spies"] <= 0:
        return []
    return [r for r in B.regions(state) if seat not in state["spies"].get(r, [])]


def place_spy(state: State, seat: int, region: str) -> list[Event]:
    state["spies"].setdefault(region, []).append(seat)
    state["players"][seat]["spies"] -= 1
    return [Event(m("ev.spy", player=who(seat), region=rref(region)))]


def recall(state: State, seat: int, region: str) -> list[Event]:
    state["spies"][region].remove(seat)
    if not state["spies"][region]:
        del state["spies"][region]
    state["players"][seat]["spies"] += 1
    return [Event(m("ev.recall", player=who(seat), region=rref(region)))]


def own_spies(state: State, seat: int) -> list[str]:
    return [r for r, owners in state["spies"].items() if seat in owners]


# --------------------------------------------------------------------------- generals

def general_owner(state: State, gid: str) -> int:
    return next(s for s, p in enumerate(state["players"]) if gid in p["generals"])


def general_deploy_slots(state: State, seat: int) -> list[str]:
    """Generals go to region slots only, under the 交战 rule."""
    reach = B.Reach(state, seat)
    return [s for s, occ in state["slots"].items() if occ is None and s in reach.slots and B.region_of(s)]


def field_general(state: State, seat: int, gid: str, slot: str) -> list[Event]:
    state["slots"][slot] = [seat, gid]
    state["players"][seat]["generals"][gid]["slot"] = slot
    return [Event(m("ev.general_deploy", player=who(seat), card=cref(state, gid), where=where(slot)))]


def enemy_generals(state: State, seat: int, region: str) -> list[str]:
    return [occ[1] for s in B.region_slots(state, region) if (occ := state["slots"][s]) and occ[1] and occ[0] != seat]


def move_targets(state: State, seat: int, gid: str) -> list[str]:
    """Regions one step away along a path of own or empty slots that the general can enter: an
    empty slot, an enemy general to duel, or an enemy-dominated region to break into."""
    g = state["players"][seat]["generals"][gid]
    if g["slot"] is None or g["moved"]:
        return []
    here = B.region_of(g["slot"])
    assert here is not None
    out = []
    for pid, other in B.neighbours(state, here):
        if not B.path_open_for(state, seat, pid) or other in out:
            continue
        dom = B.dominator(state, other)
        free = any(B.owner(state, s) is None for s in B.region_slots(state, other))
        if free or enemy_generals(state, seat, other) or (dom is not None and dom not in (seat, B.NEUTRAL)):
            out.append(other)
    return out


def move_general(state: State, seat: int, gid: str, region: str) -> list[Event]:
    g = state["players"][seat]["generals"][gid]
    state["slots"][g["slot"]] = None
    g["slot"] = None
    g["moved"] = True
    g["target"] = region
    events = [Event(m("ev.move", player=who(seat), card=cref(state, gid), region=rref(region)))]
    return events + continue_entry(state, seat, gid)


def continue_entry(state: State, seat: int, gid: str) -> list[Event]:
    """The general arrives: duel each enemy general there in turn, then break in or take a slot."""
    g = state["players"][seat]["generals"][gid]
    region = g["target"]
    foes = enemy_generals(state, seat, region)
    if foes:
        state["duel"] = {"a": gid, "b": foes[0], "pick": {}, "round": 0, "last": None}
        state["phase"] = "duel"
        state["stats"]["duels"] += 1
        return [Event(m("ev.duel", a=cref(state, gid), b=cref(state, foes[0]), region=rref(region)))]
    del g["target"]
    events: list[Event] = []
    dom = B.dominator(state, region)
    if dom is not None and dom not in (seat, B.NEUTRAL):
        slot = next(s for s in B.region_slots(state, region)
                    if (occ := state["slots"][s]) and occ[0] == dom and not occ[1])
        events += kill(state, seat, slot)
    else:
        free = [s for s in B.region_slots(state, region) if state["slots"][s] is None]
        if not free:  # cannot happen after move_targets, kept as a guard: the general goes home
            return events + general_dies(state, gid, None)
        slot = free[0]
    state["slots"][slot] = [seat, gid]
    g["slot"] = slot
    return events


def hurt(state: State, by: int, gid: str, n: int) -> list[Event]:
    """``by`` takes ``n`` soldiers off the general's card into its 斩杀区 (1 功勋 each)."""
    owner_seat = general_owner(state, gid)
    g = state["players"][owner_seat]["generals"][gid]
    n = min(n, g["hp"])
    g["hp"] -= n
    kills = state["players"][by]["kills"]
    kills[str(owner_seat)] = kills.get(str(owner_seat), 0) + n
    add_vp(state, by, "kill", n)
    events = [Event(m("ev.hurt", player=who(by), card=cref(state, gid), n=n, left=g["hp"]))]
    if g["hp"] <= 0:
        events += general_dies(state, gid, by)
    return events


def general_dies(state: State, gid: str, by: int | None) -> list[Event]:
    owner_seat = general_owner(state, gid)
    g = state["players"][owner_seat]["generals"].pop(gid)
    if g["slot"] is not None:
        state["slots"][g["slot"]] = None
    # the dead general's card goes to the killer's 斩杀区 (the owner's own when nobody killed it)
    state["players"][owner_seat if by is None else by]["trashed"].append(gid)
    state["players"][owner_seat]["supply"] += g["hp"]  # soldiers left on the card go home
    state["stats"]["general_deaths"] += 1
    return [Event(m("ev.general_dead", card=cref(state, gid)))]


def hit_targets(state: State, seat: int) -> list[str]:
    reach = B.Reach(state, seat)
    return [occ[1] for s, occ in state["slots"].items() if occ and occ[1] and occ[0] != seat and s in reach.slots]


def duel_seats(state: State) -> tuple[int, int]:
    d = state["duel"]
    return general_owner(state, d["a"]), general_owner(state, d["b"])


def duel_pick(state: State, seat: int, move: str) -> list[Event]:
    d = state["duel"]
    d["pick"][str(seat)] = move
    a_seat, b_seat = duel_seats(state)
    if str(a_seat) not in d["pick"] or str(b_seat) not in d["pick"]:
        return []
    return duel_round(state)


def _dice(skill: dict[str, Any], mine: str, theirs: str) -> tuple[int, int]:
    """Dice and block for one side: one die each, +1 with the advantage and -1 against it; a
    skill adds on its move or on the advantage."""
    adv = DUEL_CYCLE[mine] == theirs
    dis = DUEL_CYCLE[theirs] == mine
    dice = 1 + (1 if adv else 0) - (1 if dis else 0)
    block = 0
    if skill["on"] == mine or (skill["on"] == "adv" and adv):
        dice += skill["dice"]
        block += skill["block"]
    return max(0, dice), block


def duel_round(state: State) -> list[Event]:
    d = state["duel"]
    a_seat, b_seat = duel_seats(state)
    pa, pb = d["pick"][str(a_seat)], d["pick"][str(b_seat)]
    sa = card(cid(state, d["a"])).general
    sb = card(cid(state, d["b"])).general
    assert sa and sb
    da, ba = _dice(sa.skill, pa, pb)
    db, bb = _dice(sb.skill, pb, pa)
    rng = Rng(state)
    ra, rb = rng.dice(da), rng.dice(db)
    ha = max(0, sum(1 for x in ra if x >= HIT) - bb)
    hb = max(0, sum(1 for x in rb if x >= HIT) - ba)
    d["round"] += 1
    d["last"] = {"a": pa, "b": pb, "ra": ra, "rb": rb}
    d["pick"] = {}
    events = [Event(m("ev.duel_round", round=d["round"], a=cref(state, d["a"]), b=cref(state, d["b"]),
                      ma=key_ref(f"jiwu_names.duel.{pa}"), mb=key_ref(f"jiwu_names.duel.{pb}"),
                      da=" ".join(map(str, ra)) or "-", db=" ".join(map(str, rb)) or "-", ha=ha, hb=hb))]
    gid_a, gid_b = d["a"], d["b"]
    if ha:
        events += hurt(state, a_seat, gid_b, ha)
    if hb:
        events += hurt(state, b_seat, gid_a, hb)
    a_alive = gid_a in state["players"][a_seat]["generals"]
    b_alive = gid_b in state["players"][b_seat]["generals"]
    if a_alive and b_alive:
        return events
    state["duel"] = None
    state["phase"] = "main"
    if a_alive:
        events += continue_entry(state, a_seat, gid_a)
    return events


# --------------------------------------------------------------------------- effects

def run_queue(state: State, seat: int) -> list[Event]:
    """Resolve queued effects until one needs the player's choice (phase "effect") or none is left."""
    p = state["players"][seat]
    events: list[Event] = []
    while state["queue"]:
        e = state["queue"][0]
        op = e["op"]
        if op in ("power", "gold"):
            p[op] += e["n"]
        elif op == "draw":
            draw(state, seat, e["n"])
        elif op == "plan":
            if draw_plan(state, seat):
                events.append(Event(m("ev.plan_draw", player=who(seat))))
        elif op == "outcast":
            for o in range(state["seats"]):
                if o != seat and state["piles"]["canbing"]:
                    state["players"][o]["discard"].append(state["piles"]["canbing"].pop())
                    events.append(Event(m("ev.outcast", player=who(o))))
        elif op == "gain":
            if state["piles"][e["pile"]]:
                iid = state["piles"][e["pile"]].pop()
                p["discard"].append(iid)
                events.append(Event(m("ev.gain", player=who(seat), card=cref(state, iid))))
        elif op == "link":
            state["queue"].pop(0)
            if any(a == e["aspect"] and i != e["src"] for a, i in p["aspects"]):
                state["queue"] = [dict(x, src=e["src"]) for x in e["then"]] + state["queue"]
            continue
        elif choices_for(state, seat, e):
            state["phase"] = "effect"
            return events
        state["queue"].pop(0)
    state["phase"] = "main"
    return events


def choices_for(state: State, seat: int, e: dict[str, Any]) -> list[str]:
    """The legal answers to a queued effect that needs a choice (empty: it is skipped)."""
    op = e["op"]
    p = state["players"][seat]
    region = e.get("region")
    if op == "deploy":
        return deployable(state, seat, region)
    if op == "kill":
        return kill_targets(state, seat, region)
    if op == "supplant":
        return kill_targets(state, seat, region, spies=False)
    if op == "spy":
        return spy_regions(state, seat)
    if op == "recall":
        return own_spies(state, seat)
    if op == "promote":
        pool = p["played"] if e["from"] == "played" else p["discard"]
        return [i for i in pool if i != e["src"]]
    if op == "trash":
        if e["from"] == "market":
            return list(state["market"])
        return list(p["hand"]) + list(p["discard"])
    if op == "gain_market":
        return [i for i in state["market"] if card(cid(state, i)).cost <= e["max"]]
    if op == "choose":
        return [str(i) for i in range(len(e["of"]))]
    return []


def answer(state: State, seat: int, value: str) -> list[Event]:
    """Answer the effect at the head of the queue (``-`` declines it)."""
    e = state["queue"].pop(0)
    op = e["op"]
    p = state["players"][seat]
    events: list[Event] = []
    if value == "-":
        return events + run_queue(state, seat)
    if op == "deploy":
        events += deploy(state, seat, value)
        if e["n"] > 1:
            state["queue"].insert(0, dict(e, n=e["n"] - 1))
    elif op == "kill":
        events += kill(state, seat, value)
    elif op == "supplant":
        events += supplant(state, seat, value)
    elif op == "spy":
        events += place_spy(state, seat, value)
    elif op == "recall":
        events += recall(state, seat, value)
        state["queue"] = [dict(x, src=e["src"], region=value) for x in e["then"]] + state["queue"]
    elif op == "promote":
        (p["played"] if e["from"] == "played" else p["discard"]).remove(value)
        p["promoted"].append(value)
        events.append(Event(m("ev.promote", player=who(seat), card=cref(state, value))))
    elif op == "trash":
        if e["from"] == "market":
            state["market"].remove(value)
            refill(state)
        else:
            (p["hand"] if value in p["hand"] else p["discard"]).remove(value)
        p["trashed"].append(value)
        events.append(Event(m("ev.trash", player=who(seat), card=cref(state, value))))
    elif op == "gain_market":
        state["market"].remove(value)
        refill(state)
        p["discard"].append(value)
        p["bought"].append(cid(state, value))
        events.append(Event(m("ev.gain", player=who(seat), card=cref(state, value))))
    elif op == "choose":
        state["queue"] = [dict(x, src=e["src"]) for x in e["of"][int(value)]] + state["queue"]
    return events + run_queue(state, seat)


# --------------------------------------------------------------------------- turn end, scoring

def update_cities(state: State) -> list[Event]:
    """A 城池卡 belongs to whoever 称霸 its region; with nobody (or the grey soldiers) on top it
    goes back to the board."""
    events = []
    for r, holder in state["cities"].items():
        dom = B.dominator(state, r)
        new = dom if dom is not None and dom >= 0 else None
        if new != holder:
            state["cities"][r] = new
            if new is not None:
                events.append(Event(m("ev.city", player=who(new), region=rref(r))))
    return events


def end_turn(state: State, seat: int) -> list[Event]:
    p = state["players"][seat]
    events: list[Event] = []
    for r, holder in state["cities"].items():
        if holder == seat:
            n = board().regions[r].city
            add_vp(state, seat, "city", n)
            bonus = 1 if B.total(state, r, seat) else 0
            add_vp(state, seat, "total", bonus)
            events.append(Event(m("ev.city_vp", player=who(seat), region=rref(r), n=n + bonus)))
    p["discard"] += p["hand"] + p["played"]
    p["hand"], p["played"] = [], []
    p["power"] = p["gold"] = 0
    p["aspects"], p["plan_drawn"] = [], False
    for g in p["generals"].values():
        g["moved"] = False
    draw(state, seat, HAND)
    state["turns"] += 1
    last_of_round = (seat + 1) % state["seats"] == state["first"]
    reason = ending(state) if state["ending_rule"] == "turn" or last_of_round else ""
    if reason:
        state["end_reason"] = reason
        state["phase"] = "over"
        state["winners"] = winners(state)
        return events + [Event(m(f"end.{reason}"))]
    state["turn"] = (seat + 1) % state["seats"]
    return events


def ending(state: State) -> str:
    """The seed's two ends: a player has deployed every soldier, or the central deck is empty
    (checked at the end of every turn, or of every round with the ``round`` option)."""
    if any(p["supply"] <= 0 for p in state["players"]):
        return "soldiers"
    if not state["market_deck"]:
        return "market"
    return ""


def score_parts(state: State, seat: int) -> dict[str, int]:
    p = state["players"][seat]
    parts = {k: p["vp"][k] for k in ("kill", "city", "total")}
    b = board()
    parts["region"] = sum(b.regions[r].vp for r in B.regions(state) if B.dominator(state, r) == seat)
    parts["total_end"] = sum(2 for r in B.regions(state) if B.total(state, r, seat))
    parts["promoted"] = sum(card(cid(state, i)).cost for i in p["promoted"])
    kept = p["hand"] + p["deck"] + p["discard"]
    parts["deck"] = sum(card(cid(state, i)).cost for i in kept if card(cid(state, i)).kind != "start") // 2
    return parts


def score(state: State, seat: int) -> int:
    return sum(score_parts(state, seat).values())


def winners(state: State) -> list[int]:
    """Most 功勋; a tie goes to the tied player nearest the 玉玺 holder in turn order."""
    n = state["seats"]
    scores = [score(state, s) for s in range(n)]
    best = max(scores)
    tied = [s for s in range(n) if scores[s] == best]
    return [min(tied, key=lambda s: (s - state["first"]) % n)]
