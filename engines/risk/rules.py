"""State queries and the transitions shared by several actions (turns, conquest, victory).

Everything here mutates a state the caller already copied; ``apply`` copies once, validates, then
lets these helpers change the copy, so an error never leaves a half-changed state behind.
"""

from __future__ import annotations

from typing import Any

from engines.base import Event, Msg, State, key_ref, seat_ref
from engines.jsoncopy import clone
from engines.risk import cards as cardrules
from engines.risk.data import content
from engines.risk.tables import tables
from engines.rng import Rng

NEUTRAL = -1
START_ARMIES = {2: 40, 3: 35, 4: 30, 5: 25, 6: 20}
DEFAULT_MAX_ROUNDS = 500
PLAY_PHASES = ("reinforce", "attack", "occupy", "fortify")
#: The variants with a goal besides domination (HQs, missions): only there can a move that
#: eliminates nobody end the game, so only there is victory judged after every play move.
GOAL_VARIANTS = frozenset({"hq", "mission"})


#: How ``apply`` copies a state: the tables nearly every move changes are copied (owner and
#: army maps, the player list); everything else is shared with the state it came from, because
#: it is either replaced whole when it changes (``_REPLACED``) or made the copy's own by
#: :func:`table_to_edit` / :func:`player_to_edit` just before it is changed in place. Copying
#: every table on every move was a tenth of an AI game.
_COPIED = ("owner", "armies", "players")

#: Entries only ever replaced whole, never edited in place (``requests.refresh`` builds a new
#: request table after every move, a battle record is replaced by the next, the move-in limits
#: and the winners are set anew, the first-player rolls once).
_REPLACED = frozenset({"req_ids", "last_battle", "occupy", "winners", "first_rolls"})

#: Entries edited in place by a few moves, each of which asks :func:`table_to_edit` first; the
#: copier says how deep (the secret placements nest one level).
_EDITED: dict[str, Any] = {
    **dict.fromkeys(("deck", "discard", "hq_aside", "hq_holder", "hq_choice", "bonus_pools", "dice_queue",
                     "turn_summary"), lambda v: v.copy()),
    "hidden": lambda v: clone(v),
}

#: Every entry a state has (``setup.new_game``); an entry not named here is copied deeply, so
#: a field added later is safe before anyone decides how to share it.
_KNOWN = frozenset({"game", "variant", "setup", "seats", "rng", "phase", "turn", "first", "round", "max_rounds",
                    "neutral_to_place", "trade_count", "reinforcements", "post_elim", "conquered", "end_reason",
                    "req_seq", *_COPIED, *_REPLACED, *_EDITED})


def _copy_player(player: dict[str, Any]) -> dict[str, Any]:
    """A player record: ``dict.copy`` for the scalars, then a deep copy of each container (the
    hand) in place, so a new field that holds a list is still copied deeply."""
    out = player.copy()
    for k, v in player.items():
        if type(v) is list or type(v) is dict:
            out[k] = clone(v)
    return out


def player_to_edit(state: State, seat: int) -> dict[str, Any]:
    """The seat's player record, made the state's own before it is changed.

    A copied state shares its player records with the state it was copied from (most moves
    change none, and copying six records was half of copying a state), so every change to a
    player goes through here: the record is copied and put in place first. Copying it again
    when it already is the state's own is harmless."""
    players = state["players"]
    own = players[seat] = _copy_player(players[seat])
    return own


def table_to_edit(state: State, key: str) -> Any:
    """``state[key]`` (one of ``_EDITED``), made the state's own before it is changed in place;
    like :func:`player_to_edit`, every in-place change of those tables goes through here."""
    own = state[key] = _EDITED[key](state[key])
    return own


def copy_state(state: State) -> State:
    """The copy ``apply`` works on, in the same key order as ``state`` (stored JSON keeps its
    shape; ``dict.copy`` keeps the order and shares the scalars): see ``_COPIED``."""
    out = state.copy()
    for k in _COPIED:
        out[k] = state[k].copy()
    if not _KNOWN.issuperset(state):
        for k, v in state.items():
            if k not in _KNOWN:
                out[k] = clone(v)
    return out


def tname(territory: str) -> dict[str, Any]:
    return key_ref(f"risk.territory.{territory}")


def cname(continent: str) -> dict[str, Any]:
    return key_ref(f"risk.continent.{continent}")


def pname(state: State, seat: int) -> str | dict[str, Any]:
    """Players are named by colour in engine messages; front-ends that know the user names show
    them with the colour (a seat reference, see engines.base.seat_ref)."""
    if seat == NEUTRAL:
        return key_ref("risk.color.neutral")
    return seat_ref(seat, f"risk.color.{state['players'][seat]['color']}")


def owned(state: State, seat: int) -> list[str]:
    owner = state["owner"]
    return [t for t in content().territories if owner[t] == seat]


def territory_count(state: State, seat: int) -> int:
    return [*state["owner"].values()].count(seat)  # counted in C


def continents_held(state: State, seat: int) -> list[str]:
    owner = state["owner"]
    # A continent is held when its first territory is ours and every other one is too; checking
    # the first alone rules out most continents without building a generator.
    return [c for c, ts in content().continents.items()
            if owner[ts[0]] == seat and all(owner[t] == seat for t in ts)]


def territory_reinforcements(state: State, seat: int) -> int:
    """max(3, territories // 3): the armies that may go anywhere the player holds."""
    return max(3, territory_count(state, seat) // 3)


def continent_pools(state: State, seat: int) -> dict[str, int]:
    """The bonus of every whole continent held, kept per continent because the seed says those
    armies go inside the conquered continent (將自家軍隊放在玩家所征服大陸區域的任一佔領領土地區內)."""
    bonus = content().bonus
    return {c: bonus[c] for c in continents_held(state, seat)}


def base_reinforcements(state: State, seat: int) -> int:
    """All armies a turn starts with: the territory count part plus every continent pool."""
    return territory_reinforcements(state, seat) + sum(continent_pools(state, seat).values())


def bonus_pools(state: State) -> dict[str, int]:
    """Unplaced continent-bonus armies by continent (states saved before pools existed have none)."""
    return state.get("bonus_pools") or {}


def reinforcements_left(state: State) -> int:
    """Everything still to place this phase: the general pool plus every continent pool."""
    return state["reinforcements"] + sum(bonus_pools(state).values())


def place_limit(state: State, territory: str) -> int:
    """How many armies may go on ``territory`` now: the general pool plus its continent's pool."""
    return state["reinforcements"] + bonus_pools(state).get(content().continent_of[territory], 0)


def take_reinforcements(state: State, territory: str, count: int) -> None:
    """Spend ``count`` placed on ``territory``: its continent's bonus pool first (those armies can
    go nowhere else), then the general pool. The caller checked ``count <= place_limit``."""
    cont = content().continent_of[territory]
    from_pool = min(count, bonus_pools(state).get(cont, 0))
    if from_pool:
        pools = table_to_edit(state, "bonus_pools")
        pools[cont] -= from_pool
        if pools[cont] == 0:
            del pools[cont]
    state["reinforcements"] -= count - from_pool


def alive_seats(state: State) -> list[int]:
    return [i for i, p in enumerate(state["players"]) if p["alive"]]


def next_seat(state: State, seat: int, need: Any = None) -> int:
    """The next seat clockwise (increasing index) that is alive and passes ``need``."""
    n = state["seats"]
    for k in range(1, n + 1):
        s = (seat + k) % n
        if state["players"][s]["alive"] and (need is None or need(s)):
            return s
    return seat


def can_attack_from(state: State, territory: str) -> bool:
    seat = state["owner"][territory]
    if state["armies"][territory] < 2:
        return False
    owner = state["owner"]
    return any(owner[n] != seat for n in content().adjacent[territory])


def attack_sources(state: State, seat: int) -> list[str]:
    """The seat's territories that can attack (2+ armies, an enemy next door), in map order;
    one pass over the tables, as ``apply`` asks this on every attack it validates."""
    owner, armies, adj = state["owner"], state["armies"], content().adjacent
    return [t for t in content().territories
            if owner[t] == seat and armies[t] >= 2 and any(owner[n] != seat for n in adj[t])]


def can_attack(state: State, seat: int) -> bool:
    """Whether ``attack_sources`` is non-empty, stopping at the first source (asked after every
    attack that did not take its target)."""
    owner, armies, adj = state["owner"], state["armies"], content().adjacent
    for t in content().territories:
        if owner[t] == seat and armies[t] >= 2:
            for n in adj[t]:
                if owner[n] != seat:
                    return True
    return False


def can_fortify(state: State, seat: int) -> bool:
    """Whether ``fortify_sources`` is non-empty, stopping at the first source."""
    owner, armies, adj = state["owner"], state["armies"], content().adjacent
    for t in content().territories:
        if owner[t] == seat and armies[t] >= 2:
            for n in adj[t]:
                if owner[n] == seat:
                    return True
    return False


def fortify_sources(state: State, seat: int) -> list[str]:
    owner, armies, adj = state["owner"], state["armies"], content().adjacent
    return [t for t in owned(state, seat) if armies[t] >= 2 and any(owner[n] == seat for n in adj[t])]


def must_trade(state: State, seat: int) -> bool:
    """A trade is forced: 5+ cards in the reinforcement phase, or still above 4 after an elimination."""
    hand = state["players"][seat]["cards"]
    if state["post_elim"]:
        return len(hand) > cardrules.ELIMINATION_TRADE_DOWN_TO
    return len(hand) >= cardrules.FORCED_TRADE_AT_TURN_START


# ----- turn flow -------------------------------------------------------------------------------

def begin_turn(state: State, seat: int, events: list[Event]) -> None:
    state["turn"] = seat
    state["phase"] = "reinforce"
    state["conquered"] = False
    state["post_elim"] = False
    state["occupy"] = None
    state["turn_summary"] = []
    state["reinforcements"] = territory_reinforcements(state, seat)
    state["bonus_pools"] = continent_pools(state, seat)
    events.append(Event(Msg("risk.ev.turn", {"player": pname(state, seat), "round": state["round"],
                                             "armies": reinforcements_left(state)}), kind="turn"))
    for cont, n in state["bonus_pools"].items():
        events.append(Event(Msg("risk.ev.continent_bonus", {"player": pname(state, seat), "count": n,
                                                            "continent": cname(cont)}), kind="turn"))


def after_reinforce(state: State, events: list[Event]) -> None:
    """Leave the reinforcement phase once everything is placed and no trade is forced."""
    if state["phase"] != "reinforce" or reinforcements_left(state) > 0 or must_trade(state, state["turn"]):
        return
    state["phase"] = "attack"
    state["post_elim"] = False
    skip_idle_phases(state, events)


def skip_idle_phases(state: State, events: list[Event]) -> None:
    """Attack and fortify phases with no possible move end by themselves (fewer empty clicks)."""
    seat = state["turn"]
    if state["phase"] == "attack" and not can_attack(state, seat):
        end_attack(state, events)
    if state["phase"] == "fortify" and not can_fortify(state, seat):
        end_turn(state, events)


def end_attack(state: State, events: list[Event]) -> None:
    """One card after at least one conquest this turn, then the fortify phase."""
    seat = state["turn"]
    if state["conquered"]:
        draw_card(state, seat, events)
    state["phase"] = "fortify"
    if not can_fortify(state, seat):
        end_turn(state, events)


def draw_card(state: State, seat: int, events: list[Event]) -> None:
    if not state["deck"] and state["discard"]:
        state["deck"] = list(state["discard"])
        state["discard"] = []
        Rng(state).shuffle(state["deck"])
    if not state["deck"]:
        return
    card = table_to_edit(state, "deck").pop()
    player_to_edit(state, seat)["cards"].append(card)
    events.append(Event(Msg("risk.ev.draw", {"player": pname(state, seat)}), kind="card"))
    events.append(Event(Msg("risk.ev.draw_private", {"card": card_label(card)}), to=(seat,), kind="card"))


def card_label(card_id: str) -> dict[str, Any]:
    card = content().cards[card_id]
    return tname(card.territory) if card.territory else key_ref("risk.card.wild")


def end_turn(state: State, events: list[Event]) -> None:
    if state["phase"] == "over":
        return
    current = state["turn"]
    nxt = next_seat(state, current)
    first = state["first"]
    n = state["seats"]
    if (nxt - first) % n <= (current - first) % n:
        state["round"] += 1
        if state["round"] > state["max_rounds"]:
            finish_by_cap(state, events)
            return
    begin_turn(state, nxt, events)


def finish_by_cap(state: State, events: list[Event]) -> None:
    """The round cap ends a stalled game: most territories wins, then most armies; ties share."""
    def key(s: int) -> tuple[int, int]:
        return territory_count(state, s), sum(a for t, a in state["armies"].items() if state["owner"][t] == s)
    alive = alive_seats(state)
    best = max(key(s) for s in alive)
    finish(state, [s for s in alive if key(s) == best], "cap", events)


def finish(state: State, winners: list[int], reason: str, events: list[Event]) -> None:
    state["phase"] = "over"
    state["winners"] = sorted(winners)
    state["end_reason"] = reason
    state["occupy"] = None
    state["reinforcements"] = 0
    state["bonus_pools"] = {}
    events.append(Event(Msg("risk.ev.over", {"reason": key_ref(f"risk.end.{reason}"), "count": len(winners)}),
                        kind="over"))
    for s in winners:
        events.append(Event(Msg("risk.ev.winner", {"player": pname(state, s)}), kind="over"))
    if state["variant"] == "mission":
        for i, p in enumerate(state["players"]):
            if p["mission"]:
                events.append(Event(Msg("risk.ev.mission_reveal", {"player": pname(state, i),
                                                                   "mission": key_ref(mission_msg(state, i).key)}),
                                    kind="over"))


# ----- combat consequences -------------------------------------------------------------------

def conquer(state: State, src: str, dst: str, dice_used: int, events: list[Event]) -> None:
    """Take ``dst``: move the minimum in now (never an empty territory), ask for more if possible."""
    seat = state["owner"][src]
    loser = state["owner"][dst]
    state["owner"][dst] = seat
    state["armies"][src] -= dice_used
    state["armies"][dst] = dice_used
    state["conquered"] = True
    events.append(Event(Msg("risk.ev.conquer", {"player": pname(state, seat), "territory": tname(dst),
                                                "loser": pname(state, loser)}), kind="conquer"))
    owner = state["owner"]
    tb = tables()
    k = tb.continent_of[tb.index[dst]]  # the conquest completed its continent (one C read)
    held = tb.member_tables[k](owner)
    if held.count(seat) == len(held):
        events.append(Event(Msg("risk.ev.continent_taken", {"player": pname(state, seat),
                                                             "continent": cname(tb.continents[k])}),
                            kind="continent"))
    if state["variant"] == "hq" and dst in state["hq_holder"] and state["hq_holder"][dst] != seat:
        table_to_edit(state, "hq_holder")[dst] = seat
        hq_owner = hq_owner_of(state, dst)
        events.append(Event(Msg("risk.ev.hq_captured", {"player": pname(state, seat), "territory": tname(dst),
                                                        "owner": pname(state, hq_owner)}), kind="hq"))
    eliminated = loser != NEUTRAL and loser not in owner.values()  # no territory left
    if eliminated:
        eliminate(state, loser, seat, events)
    # Without a goal variant only an elimination can end the game (the last seat standing).
    if (eliminated or state["variant"] in GOAL_VARIANTS) and check_victory(state, events):
        return
    extra = state["armies"][src] - 1
    if extra > 0:
        state["phase"] = "occupy"
        state["occupy"] = {"from": src, "to": dst, "min": dice_used, "max": dice_used + extra}
    else:
        after_occupy(state, events)


def after_occupy(state: State, events: list[Event]) -> None:
    state["occupy"] = None
    if state["post_elim"]:
        state["phase"] = "reinforce"
        return
    state["phase"] = "attack"
    skip_idle_phases(state, events)


def eliminate(state: State, loser: int, winner: int, events: list[Event]) -> None:
    lp, wp = player_to_edit(state, loser), player_to_edit(state, winner)
    lp["alive"] = False
    lp["eliminated_by"] = winner
    taken = lp["cards"]
    lp["cards"] = []
    wp["cards"].extend(taken)
    events.append(Event(Msg("risk.ev.eliminated", {"player": pname(state, loser), "by": pname(state, winner),
                                                   "cards": len(taken)}), kind="eliminated"))
    if taken:
        events.append(Event(Msg("risk.ev.cards_taken", {"count": len(taken)}), to=(winner,), kind="card"))
    if len(wp["cards"]) >= cardrules.ELIMINATION_TRADE_AT:
        state["post_elim"] = True
    for i, p in enumerate(state["players"]):
        if p["mission"] and p["alive"] and i != winner:
            m = content().missions[p["mission"]]
            if m.kind == "destroy" and not p["mission_converted"] and seat_of_color(state, m.color) == loser:
                player_to_edit(state, i)["mission_converted"] = True


# ----- victory -------------------------------------------------------------------------------

def seat_of_color(state: State, color: str | None) -> int | None:
    for i, p in enumerate(state["players"]):
        if p["color"] == color:
            return i
    return None


def hq_owner_of(state: State, territory: str) -> int:
    for i, p in enumerate(state["players"]):
        if p["hq"] == territory:
            return i
    return NEUTRAL


def hqs_captured(state: State, seat: int) -> list[str]:
    return sorted(t for t, holder in state["hq_holder"].items()
                  if holder == seat and hq_owner_of(state, t) != seat)


def hqs_needed(seats: int) -> int:
    """Seed: 2–3 players all other HQs, 4 players any 2, 5–6 players any 3."""
    if seats <= 3:
        return seats - 1
    return 2 if seats == 4 else 3


def effective_mission(state: State, seat: int) -> str | None:
    """The mission that counts now: 'destroy your own colour' and 'destroy someone already
    eliminated by another player' both become the fallback (24 territories)."""
    p = state["players"][seat]
    if not p["mission"]:
        return None
    m = content().missions[p["mission"]]
    if m.kind == "destroy" and (m.color == p["color"] or p["mission_converted"]
                                or seat_of_color(state, m.color) is None):
        return content().fallback_mission
    return m.id


def mission_msg(state: State, seat: int) -> Msg:
    mid = effective_mission(state, seat)
    if mid is None:
        return Msg("risk.mission.none")
    return Msg(f"risk.mission.{mid}")


def mission_done(state: State, seat: int) -> bool:
    mid = effective_mission(state, seat)
    if mid is None:
        return False
    m = content().missions[mid]
    if m.kind == "destroy":
        target = seat_of_color(state, m.color)
        return target is not None and not state["players"][target]["alive"] \
            and state["players"][target]["eliminated_by"] == seat
    # Asked for every living seat after every move of a mission game: the cheap tests first.
    owner = state["owner"]
    if m.kind == "territories":
        held = territory_count(state, seat)
        if held < m.count or m.min_armies <= 1:
            return held >= m.count
        armies = state["armies"]
        return sum(1 for t in owner if owner[t] == seat and armies[t] >= m.min_armies) >= m.count
    continents = content().continents
    return all(owner[t] == seat for c in m.continents for t in continents[c])


def check_victory(state: State, events: list[Event]) -> bool:
    """Domination (last player standing) in every variant, plus HQ and mission goals."""
    if state["phase"] == "over":
        return True
    alive = alive_seats(state)
    if len(alive) == 1:
        whole_world = territory_count(state, alive[0]) == len(state["owner"])
        finish(state, alive, "domination" if whole_world else "last_standing", events)
        return True
    if state["phase"] not in PLAY_PHASES:
        return False
    variant = state["variant"]
    if variant not in GOAL_VARIANTS:
        return False
    order = [state["turn"]] + [s for s in alive if s != state["turn"]]
    if variant == "hq":
        need = hqs_needed(state["seats"])
        for s in order:
            if state["players"][s]["alive"] and len(hqs_captured(state, s)) >= need:
                finish(state, [s], "hq", events)
                return True
    if state["variant"] == "mission":
        for s in order:
            if state["players"][s]["alive"] and mission_done(state, s):
                finish(state, [s], "mission", events)
                return True
    return False
