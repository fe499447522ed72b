"""The action tree: for a path of tokens, what may come next.

``step`` (buttons, autocomplete, the AI's random player) and ``apply`` (validation) both walk this
one tree, so whatever the front-end offers is exactly what ``apply`` accepts. Count steps accept
any whole number in range; the offered options are a short sensible subset (1, half, all ...).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import repeat

from engines.base import EngineError, Msg, Option, State, key_ref
from engines.risk import battle, rules
from engines.risk import cards as cardrules
from engines.risk.data import content
from engines.tokens import ascii_int


@dataclass
class Node:
    prompt: Msg
    options: list[Option] = field(default_factory=list)
    complete: bool = False
    num: tuple[int, int] | None = None  # inclusive range of legal whole numbers

    def accepts(self, token: str) -> bool:
        if any(o.value == token for o in self.options):
            return True
        number = ascii_int(token) if self.num is not None else None
        return number is not None and self.num is not None and self.num[0] <= number <= self.num[1]


def count_values(lo: int, hi: int) -> list[int]:
    """A handful of sensible amounts between lo and hi: the extremes, the middle, 3/5/10."""
    if hi < lo:
        return []
    vals = {lo, hi, (lo + hi) // 2}
    vals.update(v for v in (3, 5, 10) if lo < v < hi)
    return sorted(vals)


def _counts(lo: int, hi: int, prompt: str, label: str = "risk.opt.count") -> Node:
    """A count that ends the action: every offered amount plays at once (no Confirm)."""
    opts = []
    for v in count_values(lo, hi):
        key = "risk.opt.count_all" if v == hi and hi > lo else label
        opts.append(Option(str(v), Msg(key, {"n": v}), "primary" if v == hi else "", commit=True))
    return Node(Msg(prompt, {"min": lo, "max": hi}), opts, num=(lo, hi))


def place_values(hi: int) -> list[int]:
    """Amounts offered when placing: everything here, or a few more (+1, +3, +5, +10, half)."""
    if hi < 1:
        return []
    return sorted({hi, *(v for v in (1, 3, 5, 10, hi // 2) if 1 <= v < hi)})


def _place_counts(hi: int) -> Node:
    """``place <territory> <count>``'s count: "All here" first, then "+1", "+3", "+5" … Each plays
    at once; the step UI then reopens this same count step while the territory can take more, so
    "+1" "+1" "+3" adds up without walking back to the territory list."""
    opts = [Option(str(hi), Msg("risk.opt.place_all", {"n": hi}), "primary", commit=True)]
    opts += [Option(str(v), Msg("risk.opt.place_more", {"n": v}), commit=True) for v in place_values(hi) if v < hi]
    return Node(Msg("risk.prompt.place_count", {"min": 1, "max": hi}), opts, num=(1, hi))


def _terr_opts(state: State, terrs: list[str]) -> list[Option]:
    """Territory choices in map order; ``hint`` is the continent id so a front-end can group
    more than a select menu's worth of territories."""
    armies = state["armies"]
    return [_terr_opt(t, armies[t]) for t in terrs]


@lru_cache(maxsize=8192)
def _terr_opt(territory: str, armies: int) -> Option:
    """One territory choice. Options and their messages are frozen, so equal ones are shared:
    ``apply`` re-walks the tree on every move and building these was most of that walk."""
    return Option(territory, Msg("risk.opt.territory", {"name": rules.tname(territory), "armies": armies}),
                  content().continent_of[territory])


@lru_cache(maxsize=64)
def _verb(value: str, hint: str = "", emoji: str = "", *, label: str = "", commit: bool = False) -> Option:
    return Option(value, Msg(f"risk.verb.{label or value}"), hint, emoji, commit)


def _verbs(prompt: str, verbs: list[Option]) -> Node:
    return Node(Msg(prompt), verbs)


def _bad(token: str) -> EngineError:
    return EngineError("risk.err.bad_token", token=token)


def tree(state: State, seat: int, path: list[str]) -> Node:
    """The node reached by ``path`` (raises EngineError when the path leaves the tree)."""
    phase = state["phase"]
    if phase == "over":
        raise EngineError("risk.err.game_over")
    if not is_pending(state, seat):
        raise EngineError("core.err.not_your_turn")
    handler = _PHASES[phase]
    return _walk(path, handler(state, seat, path))


def is_pending(state: State, seat: int) -> bool:
    phase = state["phase"]
    if not 0 <= seat < state["seats"]:
        return False
    if phase == "setup_place" and state["setup"] == "quick":
        return state["players"][seat]["to_place"] > 0
    if phase == "setup_hq":
        return str(seat) not in state["hq_choice"]
    return phase != "over" and state["turn"] == seat


def _expect(node: Node, token: str) -> None:
    if not node.accepts(token):
        raise _bad(token)


Steps = Iterator[Node]
"""A phase's questions in order. Each is a generator so that the next question is only built
once the token answering the previous one has been checked: later steps may read ``path[i]``."""


def _walk(path: list[str], steps: Steps) -> Node:
    """The node ``path`` stops at: the next unanswered step, or the finished leaf once every step
    has its token (one token too many is an error)."""
    at = 0
    for node in steps:
        if len(path) == at:
            return node
        _expect(node, path[at])
        at += 1
    if len(path) == at:
        return Node(Msg("risk.prompt.done"), complete=True)
    raise _bad(path[at])


def _action(verb: str) -> Node:
    """The single-verb first step of the phases that only do one thing."""
    return Node(Msg("risk.prompt.action"), [_verb(verb, "primary")])


def _pick(state: State, prompt: str, terrs: list[str], *, commit: bool = False) -> Node:
    """A territory choice; ``commit`` when it is the action's last token (one click plays it)."""
    opts = _terr_opts(state, terrs)
    if commit:
        opts = [Option(o.value, o.label, o.hint, o.emoji, True) for o in opts]
    return Node(Msg(prompt), opts)


# ----- set-up ------------------------------------------------------------------------------

def _claim(state: State, seat: int, path: list[str]) -> Steps:
    free = [t for t in content().territories if state["owner"][t] is None]
    yield _action("claim")
    yield _pick(state, "risk.prompt.claim", free, commit=True)


def _setup_place(state: State, seat: int, path: list[str]) -> Steps:
    yield _action("place")
    mine = rules.owned(state, seat)
    if state["setup"] == "quick":
        yield from _chunk(state, seat, path, mine, state["players"][seat]["to_place"])
        return
    if state["variant"] == "neutral":
        neutral = rules.owned(state, rules.NEUTRAL)
        prompts = ["risk.prompt.place_own", "risk.prompt.place_own", "risk.prompt.place_neutral"]
        pools = [mine, mine, neutral]
        for i in range(3):
            yield _pick(state, prompts[i], pools[i], commit=i == 2)
        return
    # Published classic rule: one army at a time, in turn. One click plays it (docs/rules/risk.md).
    yield _pick(state, "risk.prompt.place_one", mine, commit=True)


def _chunk(state: State, seat: int, path: list[str], terrs: list[str], left: int) -> Steps:
    """``place <territory> <count>`` with a count up to what is left."""
    pick = Node(Msg("risk.prompt.place_where", {"left": left}), _terr_opts(state, terrs))
    yield from _chunk_from(path, pick, lambda _t: left)


def _chunk_from(path: list[str], pick: Node, limit: Callable[[str], int]) -> Steps:
    """The rest of ``place <territory> <count>`` once the territory choice is known; ``limit``
    says how many the chosen territory may take."""
    yield pick
    yield _place_counts(limit(path[1]))


def _hq(state: State, seat: int, path: list[str]) -> Steps:
    yield _action("hq")
    yield _pick(state, "risk.prompt.hq", rules.owned(state, seat))


# ----- play ----------------------------------------------------------------------------------

def trade_allowed(state: State, seat: int) -> bool:
    hand = state["players"][seat]["cards"]
    if state["post_elim"] and not rules.must_trade(state, seat):
        return False
    return cardrules.has_set(hand)


def bonus_territories(state: State, seat: int, chosen: list[str]) -> list[str]:
    """Traded cards showing a territory the player holds: +2 armies on one of them."""
    terrs = [content().cards[c].territory for c in chosen]
    return [t for t in terrs if t is not None and state["owner"][t] == seat]


def _card_opt(card_id: str) -> Option:
    card = content().cards[card_id]
    return Option(card_id, Msg("risk.opt.card", {"name": rules.card_label(card_id),
                                                 "symbol": key_ref(f"risk.symbol.{card.symbol}")}))


def _place_reinforcements(state: State, seat: int, path: list[str]) -> Steps:
    """``place <territory> <count>`` where a territory takes up to the general pool plus its own
    continent's bonus pool, so continent-bonus armies can only land inside their continent. The
    territories that can take bonus armies say so in their label."""
    pools = rules.bonus_pools(state)
    cont = content().continent_of
    terrs = [t for t in rules.owned(state, seat) if rules.place_limit(state, t) > 0]
    left = rules.reinforcements_left(state)
    if pools:
        prompt = Msg("risk.prompt.place_where_bonus", {"left": left, "general": state["reinforcements"]})
        opts = [Option(t, Msg("risk.opt.territory_bonus", {"name": rules.tname(t), "armies": state["armies"][t],
                                                           "bonus": pools[cont[t]]}), cont[t])
                if cont[t] in pools else _terr_opts(state, [t])[0] for t in terrs]
    else:
        prompt = Msg("risk.prompt.place_where", {"left": left})
        opts = _terr_opts(state, terrs)
    yield from _chunk_from(path, Node(prompt, opts), lambda t: rules.place_limit(state, t))


def _reinforce(state: State, seat: int, path: list[str]) -> Steps:
    verbs = []
    forced = rules.must_trade(state, seat)
    if trade_allowed(state, seat):
        verbs.append(_verb("trade", "primary" if forced else ""))
    if not forced and rules.reinforcements_left(state) > 0:
        verbs.append(_verb("place", "primary"))
    yield _verbs("risk.prompt.forced_trade" if forced else "risk.prompt.reinforce", verbs)
    if path[0] == "place":
        yield from _place_reinforcements(state, seat, path)
        return
    hand = state["players"][seat]["cards"]
    sets = cardrules.sets_in(hand)
    chosen: list[str] = []
    for i in range(3):
        avail = sorted({c for s in sets if all(x in s for x in chosen) for c in s if c not in chosen},
                       key=hand.index)
        yield Node(Msg("risk.prompt.trade_card", {"n": i + 1}), [_card_opt(c) for c in avail])
        chosen.append(path[1 + i])
    bonus = bonus_territories(state, seat, chosen)
    if len(bonus) >= 2:
        yield _pick(state, "risk.prompt.trade_bonus", bonus)


def blitz_values(armies: int) -> list[int]:
    """Stop values for a blitz: all-in (1) up to keeping most of the force at home."""
    hi = armies - 1
    return [v for v in sorted({1, 2, 3, armies // 2, (3 * armies) // 4}) if 1 <= v <= hi]


def _attack(state: State, seat: int, path: list[str]) -> Steps:
    sources = rules.attack_sources(state, seat)
    verbs = ([_verb("attack", "danger", "⚔️")] if sources else []) + [_verb("end", label="end_attack", commit=True)]
    yield _verbs("risk.prompt.attack", verbs)
    if path[0] == "end":
        return
    yield _pick(state, "risk.prompt.attack_from", sources)
    src = path[1]
    owner = state["owner"]
    # Adjacency is kept in map order (engines.risk.data), so the targets are too.
    targets = [n for n in content().adjacent[src] if owner[n] != seat]
    yield _pick(state, "risk.prompt.attack_to", targets)
    armies = state["armies"][src]
    most = battle.attack_dice(armies)
    modes = [_verb("once", "primary", "🎲", commit=True), _verb("blitz", "danger")]
    yield Node(Msg("risk.prompt.attack_mode"), modes + ([_verb("dice")] if most > 1 else []))
    if path[3] == "once":
        return
    if path[3] == "dice":  # published rule: the attacker may roll fewer dice than allowed
        yield Node(Msg("risk.prompt.attack_dice", {"max": most}),
                   [Option(str(n), Msg("risk.opt.dice", {"n": n}), commit=True) for n in range(1, most)])
        return
    yield Node(Msg("risk.prompt.blitz_stop"), list(_blitz_opts(armies)), num=(1, armies - 1))


@lru_cache(maxsize=1024)
def _blitz_opts(armies: int) -> tuple[Option, ...]:
    """The blitz stop choices for ``armies`` (frozen, so shared between walks)."""
    return tuple(Option(str(v), Msg("risk.opt.blitz_stop", {"n": v}), commit=True) for v in blitz_values(armies))


def _occupy(state: State, seat: int, path: list[str]) -> Steps:
    occ = state["occupy"]
    yield _action("move")
    lo, hi = occ["min"], occ["max"]
    opts = [Option(str(hi), Msg("risk.opt.move_all", {"n": hi}), "primary", commit=True),
            Option(str(lo), Msg("risk.opt.move_min", {"n": lo}), commit=True)]
    opts += [Option(str(v), Msg("risk.opt.count", {"n": v}), commit=True) for v in count_values(lo, hi) if lo < v < hi]
    yield Node(Msg("risk.prompt.occupy", {"min": lo, "max": hi, "to": rules.tname(occ["to"])}), opts,
               num=(lo, hi))


def _fortify(state: State, seat: int, path: list[str]) -> Steps:
    sources = rules.fortify_sources(state, seat)
    verbs = ([_verb("fortify", "primary")] if sources else []) + [_verb("end", label="end_turn", commit=True)]
    yield _verbs("risk.prompt.fortify", verbs)
    if path[0] == "end":
        return
    yield _pick(state, "risk.prompt.fortify_from", sources)
    src = path[1]
    dests = [n for n in content().adjacent[src] if state["owner"][n] == seat]  # map order, as above
    yield _pick(state, "risk.prompt.fortify_to", dests)
    yield _counts(1, state["armies"][src] - 1, "risk.prompt.fortify_count")


_PHASES = {
    "setup_claim": _claim,
    "setup_place": _setup_place,
    "setup_hq": _hq,
    "reinforce": _reinforce,
    "attack": _attack,
    "occupy": _occupy,
    "fortify": _fortify,
}


def validate(state: State, seat: int, action: list[str]) -> None:
    """Raise EngineError unless ``action`` is a complete path of the tree.

    The moves of the play phases are first checked directly (:func:`plainly_legal`); anything it
    does not vouch for, legal or not, walks the tree, so every refusal and its message come from
    the tree itself."""
    if not isinstance(action, list) or not action or not all(map(isinstance, action, repeat(str))):
        raise EngineError("risk.err.bad_action")
    if plainly_legal(state, seat, action):
        return
    node = tree(state, seat, action)
    if not node.complete:
        raise EngineError("risk.err.incomplete")


def _in_range(token: str, lo: int, hi: int) -> bool:
    """A count node's test when every offered option is a number inside its range."""
    n = ascii_int(token)
    return n is not None and lo <= n <= hi


def plainly_legal(state: State, seat: int, path: list[str]) -> bool:
    """True only when ``path`` is a complete path of :func:`tree`, worked out without building
    the option lists. ``apply`` re-validates every move, and walking the tree was a third of it.

    Covers the moves of a turn (trade, place, attack, move in, fortify, end) and the classic
    set-up's claims and placements; the quick set-up and HQ choice answer False and walk the
    tree, as does every illegal path. False never means illegal: a
    property test checks that whatever this accepts the tree accepts, and that it accepts the
    AI's moves of those kinds."""
    phase = state["phase"]
    if phase not in _DIRECT or state["turn"] != seat or not 0 <= seat < state["seats"]:
        return False
    return _DIRECT[phase](state, seat, path)


def _direct_attack(state: State, seat: int, path: list[str]) -> bool:
    n = len(path)
    if path[0] == "end":
        return n == 1
    if path[0] != "attack" or n < 4:
        return False
    src, dst, mode = path[1], path[2], path[3]
    owner, armies, adj = state["owner"], state["armies"], content().adjacent
    # The source is one of rules.attack_sources (ours, 2+ armies, an enemy next door): the
    # target being an enemy neighbour is the "enemy next door".
    if owner.get(src, NO_OWNER) != seat or dst not in adj[src] or owner[dst] == seat:
        return False
    a = armies[src]
    if a < 2:
        return False
    if mode == "once":
        return n == 4
    if n != 5:
        return False
    if mode == "blitz":
        return _in_range(path[4], 1, a - 1)
    if mode == "dice":  # offered options only: 1 .. most-1, no typed numbers
        return path[4] in _DICE_TOKENS[battle.attack_dice(a)]
    return False


#: NO_OWNER differs from every owner value (seats, NEUTRAL, None for unclaimed).
NO_OWNER = object()
_DICE_TOKENS = {most: frozenset(str(k) for k in range(1, most)) for most in range(battle.MAX_ATTACK_DICE + 1)}


def _direct_reinforce(state: State, seat: int, path: list[str]) -> bool:
    if path[0] == "trade":
        return _direct_trade(state, seat, path)
    if path[0] != "place" or len(path) != 3 or rules.must_trade(state, seat):
        return False
    terr = path[1]
    if state["owner"].get(terr, NO_OWNER) != seat:
        return False
    limit = rules.place_limit(state, terr)
    # limit > 0 also means reinforcements are left, so "place" was offered.
    return limit > 0 and _in_range(path[2], 1, limit)


def _direct_trade(state: State, seat: int, path: list[str]) -> bool:
    """``trade c1 c2 c3 [territory]``: the tree offers, card by card, those that still complete
    a set with the cards chosen so far, so its complete paths are exactly three different cards
    of the hand that form a set; then a bonus territory when two or more are offered."""
    if len(path) not in (4, 5) or not trade_allowed(state, seat):
        return False
    chosen = path[1:4]
    hand = state["players"][seat]["cards"]
    if not all(c in hand for c in chosen) or not cardrules.is_set(chosen):  # is_set: 3 different
        return False
    bonus = bonus_territories(state, seat, chosen)
    if len(bonus) >= 2:
        return len(path) == 5 and path[4] in bonus
    return len(path) == 4


def _direct_occupy(state: State, seat: int, path: list[str]) -> bool:
    occ = state["occupy"]
    return path[0] == "move" and len(path) == 2 and _in_range(path[1], occ["min"], occ["max"])


def _direct_fortify(state: State, seat: int, path: list[str]) -> bool:
    n = len(path)
    if path[0] == "end":
        return n == 1
    if path[0] != "fortify" or n != 4:
        return False
    src, dst = path[1], path[2]
    owner = state["owner"]
    # A source is ours with 2+ armies and a neighbour of ours: the destination is that neighbour.
    if owner.get(src, NO_OWNER) != seat or dst not in content().adjacent[src] or owner[dst] != seat:
        return False
    a = state["armies"][src]
    return a >= 2 and _in_range(path[3], 1, a - 1)


def _direct_claim(state: State, seat: int, path: list[str]) -> bool:
    """``claim <territory>``: any unclaimed territory (the tree's only step after the verb)."""
    return len(path) == 2 and path[0] == "claim" and state["owner"].get(path[1], NO_OWNER) is None


def _direct_setup_place(state: State, seat: int, path: list[str]) -> bool:
    """The classic set-up's ``place <own territory>`` (neutral variant: ``place <own> <own>
    <neutral>``); the quick set-up's chunks walk the tree (a few moves a game)."""
    if state["setup"] == "quick" or path[0] != "place":
        return False
    owner = state["owner"]
    if state["variant"] == "neutral":
        return len(path) == 4 and owner.get(path[1], NO_OWNER) == seat and owner.get(path[2], NO_OWNER) == seat \
            and owner.get(path[3], NO_OWNER) == rules.NEUTRAL
    return len(path) == 2 and owner.get(path[1], NO_OWNER) == seat


_DIRECT: dict[str, Callable[[State, int, list[str]], bool]] = {
    "setup_claim": _direct_claim,
    "setup_place": _direct_setup_place,
    "reinforce": _direct_reinforce,
    "attack": _direct_attack,
    "occupy": _direct_occupy,
    "fortify": _direct_fortify,
}
