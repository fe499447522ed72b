"""Risk AI players. They see only ``view(state, seat)``: the public board plus their own cards,
mission and HQ, so an AI seat can never use information its human stand-in would not have.

``normal`` plans around continents (finish the one it is closest to, hold its borders, break an
opponent's bonus), trades as soon as it can, attacks only with good odds and fortifies from the
interior toward the front. In the mission and HQ variants it also plays for its own goal (see
``Board.goal_continents``, ``Board.pull`` and ``Board.wins_by_taking``), because a mission or an HQ
race is usually won long before world domination. The other levels live in ``ai_easy`` (greedy and
short-sighted) and ``ai_hard`` (this AI with each turn's placement searched by rollouts).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from functools import cache
from itertools import compress, product, repeat
from operator import eq, ne
from typing import Any, Generic, TypeVar

from engines.base import Action, View
from engines.risk import cards as cardrules
from engines.risk import composite
from engines.risk.data import Mission, content
from engines.risk.rules import hqs_needed
from engines.risk.tables import tables
from engines.risk.views import SeatView

NEUTRAL = -1

# Goal weights of the normal AI (mission and HQ variants), tuned by self-play against the
# goal-blind AI: a goal is worth far more than a continent bonus, because it ends the game.
MISSION_CONTINENT_WORTH = 20.0  # added to a mission continent's bonus in the target choice
FOE_PULL, FOE_PULL_FINISH = 8.0, 15.0  # "destroy X": X's land, and X's last 3 territories
HQ_PULL, HQ_PULL_WIN = 30.0, 60.0  # an HQ to capture (or retake), and the one that wins
HQ_MARGIN = 2  # our HQ should outnumber what could attack it by this much


# ----- odds --------------------------------------------------------------------------------

@cache
def _roll_outcomes(ad: int, dd: int) -> tuple[tuple[int, int, float], ...]:
    """Exact (attacker loss, defender loss, probability) for one roll of ``ad`` v ``dd`` dice."""
    counts: dict[tuple[int, int], int] = {}
    total = 0
    for dice in product(range(1, 7), repeat=ad + dd):
        att = sorted(dice[:ad], reverse=True)
        dfn = sorted(dice[ad:], reverse=True)
        a_loss = sum(1 for a, d in zip(att, dfn, strict=False) if a <= d)
        key = (a_loss, min(ad, dd) - a_loss)
        counts[key] = counts.get(key, 0) + 1
        total += 1
    return tuple((a, d, n / total) for (a, d), n in counts.items())


@cache
def win_chance(attackers: int, defenders: int) -> float:
    """Chance that ``attackers`` spare armies (beyond the one staying home) take ``defenders``."""
    if defenders <= 0:
        return 1.0
    if attackers <= 0:
        return 0.0
    if attackers + defenders > 120:
        return 1.0 if attackers > 1.3 * defenders else 0.0
    p = 0.0
    for a_loss, d_loss, prob in _roll_outcomes(min(3, attackers), min(2, defenders)):
        p += prob * win_chance(attackers - a_loss, defenders - d_loss)
    return p


# ----- board helpers -------------------------------------------------------------------------

_T = TypeVar("_T")


class _once(Generic[_T]):  # noqa: N801 - used like functools.cached_property
    """``functools.cached_property`` without its per-instance lock (Python 3.11 takes an RLock
    on every first read, and a Board reads several of these per decision in one thread)."""

    def __init__(self, fn: Callable[[Any], _T]) -> None:
        self.fn = fn
        self.name = fn.__name__
        self.__doc__ = fn.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, obj: Any, cls: type | None = None) -> _T:
        if obj is None:
            return self  # type: ignore[return-value]
        value = obj.__dict__[self.name] = self.fn(obj)
        return value


@cache
def _base_worths() -> tuple[float, ...]:
    """Each continent's worth for :meth:`Board.target_at` before a mission adds to it."""
    return tuple(b + 1.0 for b in tables().bonus)


class Board:
    """Read-only helpers over a view for one seat.

    The helpers are asked ~100 times per decision on a view that never changes while the Board
    lives, so the board is read once as two tuples in map order (owners and armies, one C call
    each; see :mod:`engines.risk.tables`) and every helper works on territory indices; the
    name-keyed methods (``owner``, ``threat`` ...) are for the other AI levels and tests. Each
    memo is made on first use: a decision asks only a few of them.
    """

    def __init__(self, view: View) -> None:
        self.view = view
        self.c = content()
        self.tables = tb = tables()
        #: Owner and armies of every territory, by index.
        self.ow: tuple[int | None, ...]
        self.ar: tuple[int, ...]
        if isinstance(view, SeatView):
            self.me: int = view.seat  # type: ignore[assignment]
            self.ow, self.ar = view.board_rows()
        else:
            self.me = view["you"]["seat"]
            terr: dict[str, dict[str, Any]] = view["territories"]
            self.ow = tb.row({t: v["owner"] for t, v in terr.items()})
            self.ar = tb.row({t: v["armies"] for t, v in terr.items()})
        self._threat_at: dict[int, int] = {}
        #: :func:`_stage_score_at`'s parts that do not read our armies, by (territory, target).
        self.stage_parts: dict[tuple[int, int], tuple[float, int, float, float, float]] = {}
        self._enemy_nb: dict[str, list[str]] = {}
        self._land: dict[Any, int] = {}
        self._target: int | None = None
        # What every decision asks about the goals, read from the view once (the lazy view's
        # entries and a memo each cost more than the answer): our mission as the view gives it,
        # the *effective* one (a dead "destroy X" reads as 24 territories).
        self.variant: str = view["variant"]
        found = view["you"].get("mission")
        mission = self.c.missions[found["id"]] if found else None
        self.mission: Mission | None = mission
        #: A territory-count mission: every conquest is progress, wherever it is.
        self.spread = bool(mission and mission.kind == "territories")
        #: The "18 territories with 2+ armies" mission: a territory left with 1 army does not count.
        self.keep_two = bool(mission and mission.kind == "territories" and mission.min_armies >= 2)
        self.my_hq: str | None = view["you"]["hq"] if self.variant == "hq" else None
        #: A goal other than domination to play for (a mission, or enemy HQs to capture).
        self.has_goal = mission is not None or (self.variant == "hq" and bool(self.enemy_hqs))

    @_once
    def _owner(self) -> Mapping[str, int | None]:
        """Territory -> owner (the name-keyed form of ``ow``)."""
        return dict(zip(self.tables.names, self.ow, strict=True))

    @_once
    def _armies(self) -> Mapping[str, int]:
        """Territory -> armies (the name-keyed form of ``ar``)."""
        return dict(zip(self.tables.names, self.ar, strict=True))

    def owner(self, t: str) -> int | None:
        return self.ow[self.tables.index[t]]

    def armies(self, t: str) -> int:
        return self.ar[self.tables.index[t]]

    def land_count(self, seat: Any) -> int:
        """How many territories ``seat`` holds (the view's player row says the same; counted
        from the board, so a decision need not build the rows)."""
        found = self._land.get(seat)
        if found is None:
            found = self._land[seat] = self.ow.count(seat)
        return found

    @_once
    def mine_at(self) -> tuple[int, ...]:
        """Indices of our territories in map order, picked in C (owners may be None during the
        claim)."""
        ow = self.ow
        return tuple(compress(range(len(ow)), map(eq, ow, repeat(self.me))))

    @_once
    def _mine(self) -> list[str]:
        """Our territories in map order."""
        return list(map(self.tables.names.__getitem__, self.mine_at))

    def mine(self) -> list[str]:
        return list(self._mine)

    def enemy_neighbours(self, t: str) -> list[str]:
        return list(self._enemies(t))

    def _enemies(self, t: str) -> list[str]:
        """``enemy_neighbours`` without the copy, for the loops here (never change the list)."""
        found = self._enemy_nb.get(t)
        if found is None:
            names = self.tables.names
            found = self._enemy_nb[t] = [names[n] for n in self.enemies_at(self.tables.index[t])]
        return found

    def enemies_at(self, i: int) -> list[int]:
        """Indices of the neighbours of territory ``i`` that are not ours, in map order."""
        ow, me = self.ow, self.me
        return [n for n in self.tables.adjacent[i] if ow[n] != me]

    def threat(self, t: str) -> int:
        """Armies that could attack ``t`` next turn (neutral never attacks)."""
        return self.threat_at(self.tables.index[t])

    def threat_at(self, i: int) -> int:
        """:meth:`threat` of territory ``i``."""
        found = self._threat_at.get(i)
        if found is None:
            ow, ar, me = self.ow, self.ar, self.me
            found = 0
            for n in self.tables.adjacent[i]:  # a plain loop: a generator costs more than 4 neighbours
                o = ow[n]
                if o != me and o != NEUTRAL and o is not None:
                    found += ar[n] - 1
            self._threat_at[i] = found
        return found

    @_once
    def continent_owners(self) -> tuple[tuple[int | None, ...], ...]:
        """Each continent's owners, in map order."""
        ow = self.ow
        return tuple([get(ow) for get in self.tables.member_rows])

    def missing(self, cont: str) -> tuple[str, ...]:
        """The territories of ``cont`` we do not hold, in map order."""
        owner, me = self._owner, self.me
        return tuple([t for t in self.c.continents[cont] if owner[t] != me])

    def sole_owner(self, cont: str) -> int | None:
        """The owner value every territory of ``cont`` shares, or None when owners differ."""
        owners = self.continent_owners[self.tables.continent_index[cont]]
        first = owners[0]
        return first if owners.count(first) == len(owners) else None

    @_once
    def borders_at(self) -> list[int]:
        """Indices of our territories with an enemy neighbour, in map order."""
        ow, me, adjacent = self.ow, self.me, self.tables.adjacent
        out = []
        for i in self.mine_at:
            for n in adjacent[i]:
                if ow[n] != me:
                    out.append(i)
                    break
        return out

    def borders(self) -> list[str]:
        return list(map(self.tables.names.__getitem__, self.borders_at))

    def continent_score(self, cont: str) -> float:
        """How attractive finishing ``cont`` is: bonus per remaining enemy strength. A continent
        of our mission counts as worth far more than its bonus, since holding the pair wins."""
        terrs = self.c.continents[cont]
        owner, armies, me = self._owner, self._armies, self.me
        mine = sum(1 for t in terrs if owner[t] == me)
        enemy = sum(armies[t] for t in terrs if owner[t] != me)
        return self._score(cont, len(terrs), mine, enemy)

    def _score(self, cont: str, size: int, mine: int, enemy: int) -> float:
        if mine == size:
            return 100.0 + self.c.bonus[cont]
        worth = self.c.bonus[cont] + 1.0 + (MISSION_CONTINENT_WORTH if cont in self.goal_continents else 0.0)
        return worth * (mine + 1) / (size * (enemy + 1))

    def target_at(self) -> int:
        """The open continent with the best :meth:`continent_score` (the first on ties), by
        index, worked out once per Board: each continent's owners and armies are read in one
        C call."""
        if self._target is None:
            tb, ar, me = self.tables, self.ar, self.me
            rows, sizes = tb.member_rows, tb.sizes
            goal = self.goal_continents
            # continent_score's worth of each continent (bonus + 1.0 + 0.0 is bonus + 1.0 exactly)
            worths = _base_worths()
            if goal:
                worths = tuple(w + (MISSION_CONTINENT_WORTH if cont in goal else 0.0)
                               for w, cont in zip(worths, tb.continents, strict=True))
            best, best_score = None, 0.0
            for k, owners in enumerate(self.continent_owners):
                mine = owners.count(me)
                size = sizes[k]
                if mine == size:
                    continue  # held: not open
                # The enemy armies: every army there when none of it is ours.
                armies = rows[k](ar)
                enemy = sum(compress(armies, map(ne, owners, repeat(me)))) if mine else sum(armies)
                # continent_score of an open continent, inline (this runs on most decisions)
                score = worths[k] * (mine + 1) / (size * (enemy + 1))
                if best is None or score > best_score:
                    best, best_score = k, score
            self._target = best if best is not None else 0
        return self._target

    def target_continent(self) -> str:
        """:meth:`target_at` by name."""
        return self.tables.continents[self.target_at()]

    # ----- goals (mission and HQ variants) -----

    @property
    def goal_continents(self) -> tuple[str, ...]:
        return self.mission.continents if self.mission else ()

    @_once
    def foe(self) -> int | None:
        """The living seat a "destroy X" mission is about (the view never shows a dead one: the
        mission then reads as the 24-territory fallback)."""
        if not self.mission or self.mission.kind != "destroy":
            return None
        for p in self.view["players"]:
            if p["color"] == self.mission.color and p["alive"] and p["seat"] != self.me:
                return p["seat"]
        return None

    @_once
    def enemy_hqs(self) -> list[str]:
        """Other players' HQs (public once revealed) that we do not hold yet. Holding an HQ card
        and holding its territory go together: only a conquest moves either."""
        if self.variant != "hq":
            return []
        return [p["hq"] for p in self.view["players"]
                if p["seat"] != self.me and p["hq"] and self.owner(p["hq"]) != self.me]

    @_once
    def hqs_to_win(self) -> int:
        """HQ captures still missing for the HQ victory."""
        players = self.view["players"]
        return hqs_needed(len(players)) - len(players[self.me]["hqs_captured"])

    @_once
    def pull(self) -> dict[str, float]:
        """How much taking each enemy territory serves the goal: the goal territories themselves
        (enemy HQs, our own lost HQ, the mission foe's land) and, halving per step, the enemy land
        on the way to them, so attacks and new armies drift toward a goal that is not adjacent yet."""
        seeds: dict[str, float] = {}
        if self.variant != "hq" and self.foe is None:
            return seeds
        if self.variant == "hq":  # (no HQs, and no HQ seeds, in the other variants)
            for t in self.enemy_hqs:
                seeds[t] = HQ_PULL_WIN if self.hqs_to_win <= 1 else HQ_PULL
            if self.my_hq and self.owner(self.my_hq) != self.me:
                seeds[self.my_hq] = HQ_PULL
        if self.foe is not None:
            small = self.view["players"][self.foe]["territories"] <= 3
            for t in self.c.territories:
                if self.owner(t) == self.foe:
                    seeds[t] = max(seeds.get(t, 0.0), FOE_PULL_FINISH if small else FOE_PULL)
        if not seeds:
            return seeds
        pull = dict(seeds)
        frontier = [t for t in seeds if seeds[t] >= 1.0]
        owner, me, adjacent = self._owner, self.me, self.c.adjacent
        while frontier:
            nxt = []
            for t in frontier:
                half = pull[t] / 2
                for n in adjacent[t]:
                    if owner[n] != me and pull.get(n, 0.0) < half:
                        pull[n] = half
                        if half >= 1.0:
                            nxt.append(n)
            frontier = nxt
        return pull

    def wins_by_taking(self, dst: str) -> bool:
        """Whether conquering ``dst`` completes our goal at once (worth a riskier attack)."""
        if not self.has_goal:
            return False
        if dst in self.enemy_hqs and self.hqs_to_win <= 1:
            return True
        m = self.mission
        if m is None:
            return False
        if m.kind == "destroy":
            return self.owner(dst) == self.foe and self.view["players"][self.foe]["territories"] == 1
        if m.kind == "territories":
            return m.min_armies <= 1 and self.view["players"][self.me]["territories"] + 1 >= m.count
        return self.c.continent_of[dst] in m.continents and all(
            self.owner(t) == self.me for c in m.continents for t in self.c.continents[c] if t != dst)

    def distance_to_front(self) -> dict[str, int]:
        """Steps from each own territory to the nearest enemy-bordering one (BFS inside own land)."""
        names = self.tables.names
        return {names[i]: d for i, d in self.distance_at.items()}

    @_once
    def distance_at(self) -> dict[int, int]:
        """:meth:`distance_to_front` by index, in the same order."""
        ow, me, adjacent = self.ow, self.me, self.tables.adjacent
        dist = dict.fromkeys(self.borders_at, 0)
        frontier = list(dist)
        while frontier:
            nxt = []
            for t in frontier:
                step = dist[t] + 1
                for n in adjacent[t]:
                    if ow[n] == me and n not in dist:
                        dist[n] = step
                        nxt.append(n)
            frontier = nxt
        return dist


def _hand(view: View) -> list[str]:
    return [c["id"] for c in view["you"]["cards"]]


def _must_trade(view: View) -> bool:
    n = len(view["you"]["cards"])
    if view["post_elim"]:
        return n > cardrules.ELIMINATION_TRADE_DOWN_TO
    return n >= cardrules.FORCED_TRADE_AT_TURN_START


def _best_set(board: Board, hand: list[str]) -> list[str] | None:
    """Prefer a set without wilds and with a bonus territory we hold."""
    sets = cardrules.sets_in(hand)
    if not sets:
        return None

    def key(s: tuple[str, ...]) -> tuple[int, int]:
        syms = [board.c.cards[c].symbol for c in s]
        owned = sum(1 for c in s if board.c.cards[c].territory and board.owner(board.c.cards[c].territory) == board.me)
        return (-syms.count("wild"), owned)
    return list(max(sets, key=key))


def _trade_action(board: Board, chosen: list[str]) -> Action:
    bonus = [board.c.cards[c].territory for c in chosen]
    bonus = [t for t in bonus if t is not None and board.owner(t) == board.me]
    action = ["trade", *chosen]
    if len(bonus) >= 2:
        action.append(max(bonus, key=board.threat))
    return action


# ----- normal --------------------------------------------------------------------------------

def _staging(board: Board, among: list[str] | None = None) -> str:
    """Where new armies do most good: the front of the target continent, else the most threatened
    border, weighted toward territories that can strike a weak neighbour. ``among`` limits the
    choice to some borders (a continent's, for its bonus armies)."""
    index = board.tables.index
    best = _staging_at(board, board.borders_at if among is None else [index[t] for t in among])
    return board.tables.names[best] if best is not None else max(board.mine(), key=board.armies)


def _staging_at(board: Board, among: list[int]) -> int | None:
    """:func:`_staging` over territory indices; None when ``among`` is empty."""
    target = board.target_at()
    best, best_score = None, -1e9
    for i in among:
        score = _stage_score_at(board, i, target)
        if score > best_score:
            best, best_score = i, score
    return best


def _stage_score(board: Board, t: str, target: str) -> float:
    """How much good new armies do on the border ``t`` (see :func:`_staging`); the hard AI
    ranks its candidate placements by it too."""
    tb = board.tables
    return _stage_score_at(board, tb.index[t], tb.continent_index[target])


def _stage_score_at(board: Board, i: int, target: int) -> float:
    """:func:`_stage_score` of territory ``i`` for the continent index ``target``.

    Only ``i``'s own armies are read from our side; the rest (its enemy neighbours, their armies,
    the threat, the goal pull) is kept in ``board.stage_parts``, which the boards of a turn's
    successive placements share (``ai_turn``: they differ only in our armies). The score is
    summed in the same order as ever, so ties stay ties."""
    key = (i, target)
    parts = board.stage_parts.get(key)
    if parts is None:
        cont_of, armies, pull = board.tables.continent_of, board.ar, board.pull
        enemies = board.enemies_at(i)
        near_target = [cont_of[n] for n in enemies].count(target)  # enemy neighbours in the target
        weakest = min([armies[n] for n in enemies])
        in_target = cont_of[i] == target or near_target > 0
        goal = 0.0
        if pull:  # (0.5 * 0.0 added to a score leaves it as it is)
            names = board.tables.names
            goal = 0.5 * max([pull.get(names[n], 0.0) for n in enemies])
        parts = board.stage_parts[key] = (4.0 if in_target else 0.0, board.threat_at(i), 0.15 * weakest,
                                          0.5 * near_target, goal)
    base, threat, weak, near, goal = parts
    score = base + threat / (board.ar[i] + 1.0) - weak
    score += near
    if goal:
        score += goal
    return score


def _pools(view: View) -> dict[str, int]:
    return view.get("bonus_pools") or {}


def _general_left(view: View) -> int:
    """Reinforcements that may go anywhere (the rest are continent-bonus armies)."""
    return view["reinforcements_left"] - sum(_pools(view).values())


def _place_bonus(board: Board, cont: str, count: int) -> Action:
    """A continent's bonus armies must stay inside it: on the border of the continent that does
    most good (as for other reinforcements), or, for a continent with no enemy neighbour, on the
    territory nearest the front so a later fortify brings them out."""
    tb, ow, me = board.tables, board.ow, board.me
    terrs = [i for i in tb.members[tb.continent_index[cont]] if ow[i] == me]
    hq_gap = _hq_gap(board)
    if hq_gap and tb.index[board.my_hq] in terrs:
        return ["place", board.my_hq, str(min(hq_gap, count))]
    borders = [i for i in terrs if board.enemies_at(i)]
    if borders:
        return ["place", tb.names[_staging_at(board, borders)], str(count)]  # type: ignore[index]
    dist, ar = board.distance_at, board.ar
    return ["place", tb.names[min(terrs, key=lambda i: (dist.get(i, 99), -ar[i]))], str(count)]


def _hq_gap(board: Board) -> int:
    """Armies our HQ lacks to outnumber what could attack it next turn: losing it hands a rival
    a step toward the HQ victory, so it is defended before anything else."""
    hq = board.my_hq
    if not hq or board.owner(hq) != board.me:
        return 0
    return max(0, board.threat(hq) + HQ_MARGIN - board.armies(hq))


def _top_up(board: Board) -> Action | None:
    """For "18 territories with 2+ armies": when putting one army on enough of our 1-army
    territories completes the mission during this placement, do that instead of massing armies."""
    m = board.mission
    if m is None or not board.keep_two:
        return None
    view = board.view
    mine = board.mine()
    short = m.count - sum(1 for t in mine if board.armies(t) >= 2)
    pools, general = _pools(view), _general_left(view)
    ones = [t for t in mine if board.armies(t) == 1]
    usable = general + sum(min(n, sum(1 for t in ones if board.c.continent_of[t] == c)) for c, n in pools.items())
    if short <= 0 or min(usable, len(ones)) < short:
        return None
    # Pool armies first: they cannot go anywhere else.
    ones.sort(key=lambda t: (board.c.continent_of[t] not in pools, -board.threat(t)))
    if general <= 0:
        ones = [t for t in ones if board.c.continent_of[t] in pools]
    return ["place", ones[0], "1"]


def trade_due(board: Board) -> Action | None:
    """The trade a player makes at the start of its placement (normal and easy alike): its best
    set, whenever it must trade or, outside a kill's trade-down, whenever it holds one."""
    view = board.view
    chosen = _best_set(board, _hand(view))
    if chosen and (_must_trade(view) or not view["post_elim"]):
        return _trade_action(board, chosen)
    return None


def place_step(board: Board, left: int, pools: dict[str, int]) -> tuple[Action, bool]:
    """The normal AI's next placement with ``left`` armies to place, ``pools`` of them
    continent-bound, and whether it is a top-up of the "2 armies" mission (a placement that may
    win the game, after which ``engines.risk.ai_turn`` joins nothing)."""
    top_up = _top_up(board)
    if top_up:
        return top_up, True
    if pools:
        cont = max(pools, key=lambda c: (pools[c], c))
        return _place_bonus(board, cont, pools[cont]), False
    return _place_normal(board, left), False


def _place_normal(board: Board, left: int) -> Action:
    hq_gap = _hq_gap(board)
    if hq_gap:
        return ["place", board.my_hq, str(min(hq_gap, left))]
    # Defend a held continent's threatened border first, with what is needed (at most half).
    me, ar, members = board.me, board.ar, board.tables.members
    for k, owners in enumerate(board.continent_owners):
        if owners.count(me) != len(owners):
            continue
        for i in members[k]:
            gap = board.threat_at(i) - ar[i]
            if gap > 0 and left > 1:
                return ["place", board.tables.names[i], str(max(1, min(gap, left // 2)))]
    return ["place", _staging(board), str(left)]


def _attack_value(board: Board, src: str, dst: str, target: str, conquered: bool) -> float:
    """What taking ``dst`` is worth (``target``: the target continent), apart from the odds."""
    tb = board.tables
    return _attack_worth(board, tb.index[dst], tb.continent_index[target], conquered)


def _attack_worth(board: Board, dst: int, target: int, conquered: bool) -> float:
    """:func:`_attack_value` of territory ``dst`` for the continent index ``target``. The sums
    are made in the same order as ever: a score that ties another must still tie."""
    tb = board.tables
    owner = board.ow[dst]
    k = tb.continent_of[dst]
    owners = board.continent_owners[k]
    size, bonus = tb.sizes[k], tb.bonus[k]
    seat_owner = owner != NEUTRAL and owner is not None
    value = 1.0
    if k == target:
        value += 3.0
    if size - owners.count(board.me) == 1:  # dst (not ours) is the last one missing
        value += 2.0 * bonus
    if seat_owner and owners.count(owner) == size:
        value += 1.5 * bonus  # break an opponent's bonus
    if not conquered:
        value += 2.0  # a card needs one conquest
    if owner == NEUTRAL:
        value -= 1.5
    if seat_owner and board.land_count(owner) <= 3:
        value += 3.0 + 2.0 * board.view["players"][owner]["cards"]
    pull = board.pull
    if pull:  # (adding 0.0 leaves the value as it is)
        value += pull.get(tb.names[dst], 0.0)
    if board.spread:
        value += 3.0 / (board.ar[dst] + 1)  # any territory counts: the cheap ones first
    return value


def _attack_normal(board: Board, compose: bool = False) -> Action:
    """The best attack by odds and worth, or the end of the attack phase; with ``compose`` the
    attack carries its move-in rule (:func:`_occupy_rule`, ``engines.risk.composite``)."""
    view = board.view
    conquered = view["conquered_this_turn"]
    best: tuple[float, int, int, int] | None = None
    ow, ar, me, adjacent = board.ow, board.ar, board.me, board.tables.adjacent
    plain_need = 0.55 if not conquered else 0.7
    goal = board.has_goal
    names = board.tables.names
    # An attack's worth depends on the target territory only, so it is worked out once per
    # target however many of our territories border it (this loop runs on every attack move).
    wins_at: dict[int, bool] = {}
    worth: dict[int, float] = {}
    for src in board.mine_at:
        a = ar[src]
        if a < 2:
            continue
        enemies = [n for n in adjacent[src] if ow[n] != me]
        if not enemies:
            continue
        # With other enemies next door, keep a guard back (the same for every target from here).
        keep = 1 if len(enemies) == 1 else max(1, min(a - 1, board.threat_at(src) // 3))
        spare = a - keep
        if spare <= 0:
            continue
        for dst in enemies:
            d = ar[dst]
            p = win_chance(spare, d)
            wins = False
            if goal:  # without a goal no single conquest wins at once
                found = wins_at.get(dst)
                if found is None:
                    found = wins_at[dst] = board.wins_by_taking(names[dst])
                wins = found
            # An attack that wins the game at once is worth long odds.
            need = 0.25 if wins else plain_need
            if p < need:
                continue
            value = worth.get(dst)
            if value is None:
                # The target continent is only worked out once an attack has the odds.
                value = worth[dst] = _attack_worth(board, dst, board.target_at(), conquered) \
                    + (50.0 if wins else 0.0)
            score = p * value - 0.02 * d
            if best is None or score > best[0]:
                best = (score, src, dst, keep)
    if best is None:
        return ["end"]
    _, src, dst, keep = best
    action = ["attack", names[src], names[dst], "blitz", str(keep)]
    if compose:
        action += [composite.RULE, *map(str, _occupy_rule(board, src, dst))]
    return action


def can_attack(board: Board) -> bool:
    """``rules.can_attack`` on the board: one of our territories with 2+ armies next to an enemy."""
    ow, ar, me, adjacent = board.ow, board.ar, board.me, board.tables.adjacent
    return any(ar[i] >= 2 and any(ow[n] != me for n in adjacent[i]) for i in board.mine_at)


def can_fortify(board: Board) -> bool:
    """``rules.can_fortify`` on the board: one of our territories with 2+ armies next to another."""
    ow, ar, me, adjacent = board.ow, board.ar, board.me, board.tables.adjacent
    return any(ar[i] >= 2 and any(ow[n] == me for n in adjacent[i]) for i in board.mine_at)


def end_attack(board: Board) -> Action:
    """Ending the attack phase with the fortify joined on (``engines.risk.composite``) when the
    fortify phase will ask: a fortify reads only the board, which ending the attack leaves as it
    is (the card it may draw is not read), so it is decided now, on this very board."""
    if not can_fortify(board):
        return ["end"]
    return composite.join([["end"], _fortify_normal(board)])


def _occupy_rule(board: Board, src: int, dst: int) -> composite.Rule:
    """How the normal AI shares a conquering stack between ``src`` and the conquered ``dst``
    (``composite.move_in``'s weights): by what threatens each side, an HQ's side counting
    double, leaving 2+ on both for the "2 armies" mission; everything forward when ``src`` has
    no other enemy (its weight is then 0). The same on the board before the battle as after the
    conquest, since ``dst`` is left out of ``src``'s side (it is ours afterwards) and ``src`` is
    ours either way: so an attack can carry its move-in."""
    ow, ar, me = board.ow, board.ar, board.me
    enemies = threat = 0
    for n in board.tables.adjacent[src]:  # threat_at(src) and enemies_at(src), without dst
        o = ow[n]
        if n != dst and o != me:
            enemies += 1
            if o != NEUTRAL and o is not None:
                threat += ar[n] - 1
    src_threat = threat + 3 * enemies
    if board.tables.names[src] == board.my_hq:
        src_threat *= 2
    dst_threat = board.threat_at(dst) + 3 * len(board.enemies_at(dst)) + 1
    return dst_threat, src_threat, 2 if board.keep_two else 1


def _occupy_normal(board: Board) -> Action:
    occ = board.view["occupy"]
    index, ar = board.tables.index, board.ar
    src, dst = index[occ["from"]], index[occ["to"]]
    count = composite.move_in(ar[src] + ar[dst], occ["min"], occ["max"], _occupy_rule(board, src, dst))
    return ["move", str(count)]


def _fortify_hq(board: Board) -> Action | None:
    """Bring the strongest neighbour's spare armies into a threatened HQ."""
    gap = _hq_gap(board)
    if not gap:
        return None
    hq = board.my_hq
    helpers = [n for n in board.c.adjacent[hq] if board.owner(n) == board.me and board.armies(n) >= 2]
    if not helpers:
        return None
    src = max(helpers, key=lambda n: (board.armies(n) - board.threat(n), n))
    spare = board.armies(src) - 1 if not board.enemy_neighbours(src) else (board.armies(src) - 1) // 2
    return ["fortify", src, hq, str(spare)] if spare > 0 else None


def _fortify_normal(board: Board) -> Action:
    hq_move = _fortify_hq(board)
    if hq_move:
        return hq_move
    dist = board.distance_at
    keep = 2 if board.keep_two else 1  # a 1-army territory does not count for the 2-army mission
    best: tuple[int, int, int] | None = None
    ow, ar, me, adjacent, names = board.ow, board.ar, board.me, board.tables.adjacent, board.tables.names
    threat = board.threat_at
    for t in board.mine_at:
        if ar[t] <= keep or t not in dist or dist[t] == 0:
            continue
        here = dist[t]
        steps = [n for n in adjacent[t] if ow[n] == me and dist.get(n, 99) < here]
        if steps:
            dst = max(steps, key=lambda n: (threat(n), -dist[n]))
            if best is None or ar[t] > best[0]:
                best = (ar[t], t, dst)
    if best is None:
        # Nothing in the interior: shift spare armies to the more threatened of two fronts.
        hq = board.my_hq
        for t in board.borders_at:
            if names[t] == hq:
                continue
            for n in adjacent[t]:
                if ow[n] != me or ar[t] < 3:
                    continue
                if threat(n) - ar[n] > threat(t) - ar[t] + 4:
                    return ["fortify", names[t], names[n], str((ar[t] - 1) // 2)]
        return ["end"]
    _, src, dst = best
    return ["fortify", names[src], names[dst], str(ar[src] - keep)]


def _claim_normal(board: Board) -> Action:
    """The free territory whose continent we are likeliest to hold (weighted by its bonus), plus
    a little for our neighbours there. A continent's part is worked out once per decision, not
    once per free territory in it (the classic set-up's ~40 claims asked it ~1 000 times a game)."""
    c = board.c
    owner, me = board._owner, board.me
    free = [t for t in c.territories if owner[t] is None]
    worth: dict[str, float] = {}
    for cont, terrs in c.continents.items():
        owners = [owner[x] for x in terrs]
        mine = owners.count(me)
        theirs = len(owners) - mine - owners.count(None)
        worth[cont] = (mine + 1) * c.bonus[cont] / (len(terrs) * (theirs + 1))

    def score(t: str) -> float:
        near = sum(1 for n in c.adjacent[t] if owner[n] == me)
        return worth[c.continent_of[t]] + 0.3 * near
    return ["claim", max(free, key=score)]


def _hq_normal(board: Board) -> Action:
    return ["hq", max(board.mine(), key=lambda t: (board.armies(t) - board.threat(t),
                                                      -len(board.enemy_neighbours(t))))]


def _setup_place(board: Board) -> Action:
    view = board.view
    where = _staging(board)
    if view["setup"] == "quick":
        left = view["players"][board.me]["to_place"]
        chunk = left if left < 6 else left // 2
        return ["place", where, str(chunk)]
    if view["variant"] == "neutral":
        neutral = [t for t in board.c.territories if board.owner(t) == NEUTRAL]
        opp = 1 - board.me
        block = max(neutral, key=lambda t: sum(1 for n in board.c.adjacent[t] if board.owner(n) == opp)
                    - 0.1 * board.armies(t))
        return ["place", where, where, block]
    return ["place", where]


def decide(view: View, rng: random.Random) -> Action:
    """The normal AI's action for its pending request, from its own view only (the other
    levels: ``ai_easy``, ``ai_hard``; ``rng`` is unused by normal, which is deterministic)."""
    board = Board(view)
    phase = view["phase"]
    if phase == "setup_claim":
        return _claim_normal(board)
    if phase == "setup_place":
        return _setup_place(board)
    if phase == "setup_hq":
        return _hq_normal(board)
    if phase == "reinforce":
        return trade_due(board) or place_step(board, view["reinforcements_left"], _pools(view))[0]
    if phase == "attack":
        return _attack_normal(board)
    if phase == "occupy":
        return _occupy_normal(board)
    return _fortify_normal(board)


# ----- time-outs -----------------------------------------------------------------------------

def timeout(view: View) -> Action:
    """An absent player's default: trade if forced, place each continent's bonus on that
    continent's most threatened border and the rest on the most threatened border, stop
    attacking, move in the minimum, skip fortifying."""
    board = Board(view)
    phase = view["phase"]
    if phase == "reinforce":
        if _must_trade(view):
            return _trade_action(board, _best_set(board, _hand(view)) or [])
        pools = _pools(view)
        if pools:
            cont = min(pools)
            terrs = [t for t in board.c.continents[cont] if board.owner(t) == board.me]
            where = max(terrs, key=lambda t: (bool(board.enemy_neighbours(t)), board.threat(t), t))
            return ["place", where, str(pools[cont])]
        where = max(board.borders() or board.mine(), key=lambda t: (board.threat(t), t))
        return ["place", where, str(view["reinforcements_left"])]
    if phase in ("attack", "fortify"):
        return ["end"]
    if phase == "occupy":
        return ["move", str(view["occupy"]["min"])]
    if phase == "setup_place" and view["setup"] == "quick":
        where = max(board.borders() or board.mine(), key=lambda t: (board.threat(t), t))
        return ["place", where, str(view["players"][board.me]["to_place"])]
    return decide(view, random.Random(0))
