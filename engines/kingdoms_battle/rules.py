"""The rules of 鬪三國: set-up, the five actions, city completion, civil and national war,
scoring and the end.

Functions here mutate the state they are given (``engine.apply`` hands them a copy) and return
``Event``s. Legality is checked by the action tree (``choices``) before anything here runs, so
these functions assume a legal action. Dice go through :func:`roll` so tests can fix them.
"""

from __future__ import annotations

from typing import Any

from engines.base import Event, Msg, State, key_ref, seat_ref
from engines.kingdoms_battle import board
from engines.kingdoms_battle.data import tiles
from engines.rng import Rng

TROOPS = 8
COMMAND_CARDS = 5
PLOTS = ("tiger", "chencang", "beauty", "lure")  # 驅虎吞狼, 暗渡陳倉, 美人計, 調虎離山
WIN_POINTS = 8
ALERT, FORT = "a", "f"
COLORS = ("red", "blue", "yellow", "green", "purple")
HIT = 5  # a die of 5 or 6 hits, in civil and national war alike


def m(key: str, **params: Any) -> Msg:
    return Msg(f"kingdoms_battle.{key}", params)


def who(seat: int) -> dict[str, Any]:
    return seat_ref(seat, f"kingdoms_battle.color.{COLORS[seat]}")


def city_ref(state: State, cid: str) -> dict[str, Any]:
    size = "large" if board.is_large(state, cid) else "small"
    return key_ref(f"kingdoms_battle.city.{size}", id=cid)


def roll(state: State, count: int) -> list[int]:
    """``count`` dice from the in-state generator (tests replace this to fix the dice)."""
    return Rng(state).dice(count) if count > 0 else []


def new_game(seats: int, seed: int) -> State:
    state: State = {"game": "kingdoms_battle", "seats": seats, "rng": Rng.seed_value(seed),
                    "req_seq": 0, "req": None, "turn": 0, "phase": "action", "drawn": None,
                    "troops": {}, "war": None, "dice": None, "winners": None, "end_reason": "",
                    "players": [{"supply": TROOPS, "cards": COMMAND_CARDS, "plots": list(PLOTS)}
                                for _ in range(seats)],
                    "stats": {"turns": 0, "discarded": 0, "civil": 0, "national": 0,
                              "done_small": 0, "done_large": 0}}
    board.new_board(state)
    bag = tiles().bag()
    Rng(state).shuffle(bag)
    state["stack"] = bag
    board.place(state, tiles().start_type, 0, 0, 0)
    return state


# --------------------------------------------------------------------------- reading the table

def troops_in(state: State, cid: str) -> list[tuple[str, list[Any]]]:
    """(space, [seat, state]) of every troop in a city, in space order."""
    tr = state["troops"]
    return [(s, tr[s]) for s in state["cities"][cid]["spaces"] if s in tr]


def free_spaces(state: State, cid: str) -> list[str]:
    tr = state["troops"]
    return [s for s in state["cities"][cid]["spaces"] if s not in tr]


def owner(state: State, cid: str) -> int | None:
    """The controller of a completed city: the one player with troops in it (None: idle)."""
    city = state["cities"][cid]
    if not city["done"]:
        return None
    seats = {t[0] for _s, t in troops_in(state, cid)}
    return next(iter(seats)) if len(seats) == 1 else None


def done_cities(state: State) -> list[str]:
    return sorted((c for c, v in state["cities"].items() if v["done"]), key=_key)


def _key(cid: str) -> tuple[int, ...]:
    return tuple(int(p) for p in cid.split("."))


def controlled(state: State, seat: int) -> list[str]:
    return [c for c in done_cities(state) if owner(state, c) == seat]


def idle(state: State) -> list[str]:
    return [c for c in done_cities(state) if not troops_in(state, c)]


def score(state: State, seat: int) -> int:
    return sum(board.value(state, c) for c in controlled(state, seat))


def count_states(state: State, cid: str, seat: int) -> dict[str, int]:
    out = {ALERT: 0, FORT: 0}
    for _s, (who_, st) in troops_in(state, cid):
        if who_ == seat:
            out[st] += 1
    return out


def on_board(state: State, seat: int) -> int:
    return sum(1 for t in state["troops"].values() if t[0] == seat)


def linked(state: State, a: str, b: str) -> bool:
    return b in board.links(state).get(a, set())


# --------------------------------------------------------------------------- troop moves

def add_troop(state: State, seat: int, cid: str, st: str) -> str:
    space = free_spaces(state, cid)[0]
    state["troops"][space] = [seat, st]
    state["players"][seat]["supply"] -= 1
    return space


def remove_troop(state: State, cid: str, seat: int, prefer: str) -> str:
    """Send one of ``seat``'s troops in ``cid`` home, of state ``prefer`` if it has one (else
    the other state). Returns the state of the troop removed."""
    mine = [(s, t) for s, t in troops_in(state, cid) if t[0] == seat]
    pick = next(((s, t) for s, t in mine if t[1] == prefer), mine[0])
    del state["troops"][pick[0]]
    state["players"][seat]["supply"] += 1
    return str(pick[1][1])


# --------------------------------------------------------------------------- expand

def draw(state: State) -> list[Event]:
    """Draw until a tile fits (rule C: an unplaceable tile leaves the game)."""
    events = []
    while state["stack"]:
        t = state["stack"].pop()
        if board.legal_spots(state, t):
            state["drawn"] = t
            state["phase"] = "place"
            events.append(Event(m("ev.draw", player=who(state["turn"]), tile=t)))
            return events
        state["stats"]["discarded"] += 1
        events.append(Event(m("ev.discard", tile=t)))
    events.append(Event(m("ev.stack_empty")))
    end_turn(state, events)
    return events


def place(state: State, seat: int, x: int, y: int, rot: int, garrison: list[str]) -> list[Event]:
    t = state["drawn"]
    idx = board.place(state, t, x, y, rot)
    state["drawn"] = None
    events = [Event(m("ev.place", player=who(seat), tile=t, cell=board.cell(x, y), deg=90 * rot))]
    for k, g in enumerate(garrison):
        if g in (ALERT, FORT):
            state["troops"][f"{idx}.{k}"] = [seat, g]
            state["players"][seat]["supply"] -= 1
            events.append(Event(m(f"ev.garrison_{g}", player=who(seat))))
    for cid in board.tile_cities(state, idx):
        city = state["cities"][cid]
        if city["open"] == 0 and not city["done"]:
            events += complete(state, cid)
    return events


def complete(state: State, cid: str) -> list[Event]:
    """A city closes: civil war if several players are in it, else control or idleness."""
    city = state["cities"][cid]
    city["done"] = True
    state["stats"]["done_large" if board.is_large(state, cid) else "done_small"] += 1
    events = [Event(m("ev.complete", city=city_ref(state, cid), tiles=board.size(state, cid)))]
    seats = sorted({t[0] for _s, t in troops_in(state, cid)})
    if len(seats) > 1:
        state["stats"]["civil"] += 1
        events += civil_war(state, cid, seats)
    holder = owner(state, cid)
    if holder is None:
        events.append(Event(m("ev.idle", city=city_ref(state, cid))))
    else:
        events.append(Event(m("ev.control", player=who(holder), city=city_ref(state, cid),
                              points=board.value(state, cid))))
    return events


def civil_war(state: State, cid: str, seats: list[int]) -> list[Event]:
    """3+ players: highest die wins, the rest go home, ties at the top roll again; with two
    left, a duel where every 5–6 sends one enemy troop home (every troop has 1 life)."""
    events = [Event(m("ev.civil", city=city_ref(state, cid), n=len(seats)))]
    alive = list(seats)
    rnd = 0
    while len(alive) > 2:
        rnd += 1
        rolls = {s: roll(state, sum(count_states(state, cid, s).values())) for s in alive}
        best = max(max(r) for r in rolls.values())
        for s, r in rolls.items():
            events.append(Event(m("ev.civil_roll", round=rnd, player=who(s), dice="-".join(map(str, r)))))
        events.append(Event(m("ev.civil_high", round=rnd, best=best)))
        losers = [s for s in alive if max(rolls[s]) < best]
        for s in losers:
            for _ in range(sum(count_states(state, cid, s).values())):
                remove_troop(state, cid, s, ALERT)
            events.append(Event(m("ev.civil_out", player=who(s))))
        alive = [s for s in alive if s not in losers]
    if len(alive) == 2:
        a, b = alive
        while all(sum(count_states(state, cid, s).values()) for s in alive):
            rnd += 1
            ra = roll(state, sum(count_states(state, cid, a).values()))
            rb = roll(state, sum(count_states(state, cid, b).values()))
            hits_a = sum(1 for d in ra if d >= HIT)
            hits_b = sum(1 for d in rb if d >= HIT)
            for _ in range(min(hits_a, sum(count_states(state, cid, b).values()))):
                remove_troop(state, cid, b, ALERT)
            for _ in range(min(hits_b, sum(count_states(state, cid, a).values()))):
                remove_troop(state, cid, a, ALERT)
            state["dice"] = {"kind": "civil", "round": rnd, "a": a, "d": b, "da": ra, "dd": rb}
            events.append(Event(m("ev.duel", round=rnd, a=who(a), b=who(b), da="-".join(map(str, ra)),
                                  db="-".join(map(str, rb)), ha=hits_a, hb=hits_b)))
    return events


# --------------------------------------------------------------------------- national war

def start_war(state: State, att: int, src: str, dst: str, n: int, retreat: bool) -> list[Event]:
    """Take ``n`` alert troops out of ``src`` and fight ``dst`` round by round."""
    defender = owner(state, dst)
    assert defender is not None
    for _ in range(n):
        remove_troop(state, src, att, ALERT)
    state["players"][att]["supply"] -= n  # the attackers are in the field, not at home
    state["war"] = {"att": att, "def": defender, "src": src, "dst": dst, "n": n, "retreat": retreat,
                    "round": 0}
    state["stats"]["national"] += 1
    events = [Event(m("ev.war", a=who(att), d=who(defender), src=city_ref(state, src),
                      dst=city_ref(state, dst), n=n))]
    return events + war_rounds(state)


def war_rounds(state: State) -> list[Event]:
    """Roll rounds until somebody is gone, or (when retreat is allowed) for one round."""
    war = state["war"]
    dst, d = war["dst"], war["def"]
    events: list[Event] = []
    while True:
        defenders = troops_in(state, dst)
        if war["n"] == 0 or not defenders:
            return events + war_end(state)
        war["round"] += 1
        ra = roll(state, war["n"])
        rd = roll(state, len(defenders))
        ha = sum(1 for x in ra if x >= HIT)
        hd = sum(1 for x in rd if x >= HIT)
        for _ in range(ha):
            defenders = troops_in(state, dst)
            if not defenders:
                break
            fort = [s for s, t in defenders if t[1] == FORT]
            if fort:
                state["troops"][fort[0]][1] = ALERT
            else:
                remove_troop(state, dst, d, ALERT)
        state["dice"] = {"kind": "national", "round": war["round"], "a": war["att"], "d": d, "da": ra, "dd": rd}
        lost = min(hd, war["n"])
        war["n"] -= lost
        state["players"][war["att"]]["supply"] += lost
        events.append(Event(m("ev.war_round", round=war["round"], da="-".join(map(str, ra)),
                              dd="-".join(map(str, rd)), ha=ha, hd=hd, left_a=war["n"],
                              left_d=len(troops_in(state, dst)))))
        if war["retreat"] and war["n"] and troops_in(state, dst):
            state["phase"] = "war"
            return events


def retreat(state: State) -> list[Event]:
    war = state["war"]
    for _ in range(war["n"]):
        state["players"][war["att"]]["supply"] += 1
        add_troop(state, war["att"], war["src"], ALERT)
    events = [Event(m("ev.retreat", player=who(war["att"]), n=war["n"]))]
    state["war"] = None
    state["phase"] = "action"
    return events


def war_end(state: State) -> list[Event]:
    war = state["war"]
    att, d, src, dst = war["att"], war["def"], war["src"], war["dst"]
    if war["n"] and not troops_in(state, dst):
        state["phase"] = "after"  # the attacker places the survivors
        return [Event(m("ev.war_won", player=who(att), city=city_ref(state, dst)))]
    events = []
    if war["n"] == 0 and troops_in(state, dst):
        events.append(Event(m("ev.war_held", player=who(d), city=city_ref(state, dst))))
        alert = count_states(state, dst, d)[ALERT]
        if not troops_in(state, src) and alert:
            state["phase"] = "counter"
            return events
    else:
        events.append(Event(m("ev.war_both", city=city_ref(state, dst))))
    state["war"] = None
    state["phase"] = "action"
    return events


def after_war(state: State, k: int) -> list[Event]:
    """The winning attacker sends ``k`` survivors into the target (alert), the rest home."""
    war = state["war"]
    att = war["att"]
    state["players"][att]["supply"] += war["n"]
    for _ in range(k):
        add_troop(state, att, war["dst"], ALERT)
    for _ in range(war["n"] - k):
        add_troop(state, att, war["src"], ALERT)
    events = [Event(m("ev.war_move", player=who(att), n=k, city=city_ref(state, war["dst"])))]
    state["war"] = None
    state["phase"] = "action"
    return events


def counter(state: State, k: int) -> list[Event]:
    """The defender sends ``k`` alert troops from the target into the empty launching city."""
    war = state["war"]
    d = war["def"]
    for _ in range(k):
        remove_troop(state, war["dst"], d, ALERT)
        add_troop(state, d, war["src"], ALERT)
    events = [Event(m("ev.counter", player=who(d), n=k, city=city_ref(state, war["src"])))] if k else []
    state["war"] = None
    state["phase"] = "action"
    return events


# --------------------------------------------------------------------------- turn and end

def winners_by_tiebreak(state: State, seats: list[int]) -> list[int]:
    """Most points, then the seed's four criteria in order: troops in completed cities, unused
    command cards, unused stratagem cards, alert troops (on the map)."""
    def key(s: int) -> tuple[int, ...]:
        in_done = sum(1 for c in done_cities(state) for _sp, t in troops_in(state, c) if t[0] == s)
        alert = sum(1 for t in state["troops"].values() if t[0] == s and t[1] == ALERT)
        p = state["players"][s]
        return score(state, s), in_done, p["cards"], len(p["plots"]), alert
    best = max(key(s) for s in seats)
    return [s for s in seats if key(s) == best]


def scores(state: State) -> list[int]:
    """Every seat's points from one pass over the cities: checked after every action (and
    many times a decision by the hard AI's lookahead), so not one :func:`score` per seat."""
    out = [0] * state["seats"]
    for cid in state["cities"]:
        if (seat := owner(state, cid)) is not None:
            out[seat] += board.value(state, cid)
    return out


def check_win(state: State) -> bool:
    points = scores(state)
    reached = [s for s in range(state["seats"]) if points[s] >= WIN_POINTS]
    if reached:
        state["winners"] = winners_by_tiebreak(state, reached)
        state["phase"] = "over"
        state["end_reason"] = "points"
        return True
    return False


def after_action(state: State) -> list[Event]:
    """The turn's action is over (nothing left to decide): 8 points end the game at once."""
    events: list[Event] = []
    if check_win(state):
        return [Event(m("ev.win_points", player=who(state["winners"][0])))]
    end_turn(state, events)
    return events


def end_turn(state: State, events: list[Event]) -> None:
    if check_win(state):
        events.append(Event(m("ev.win_points", player=who(state["winners"][0]))))
        return
    state["stats"]["turns"] += 1
    if not state["stack"]:
        state["winners"] = winners_by_tiebreak(state, list(range(state["seats"])))
        state["phase"] = "over"
        state["end_reason"] = "tiles"
        events.append(Event(m("ev.end_tiles")))
        return
    state["turn"] = (state["turn"] + 1) % state["seats"]
    state["phase"] = "action"
