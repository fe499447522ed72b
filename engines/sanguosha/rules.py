"""Table facts shared by every part of the engine: roles, zones, drawing, distances, events.

Each mode plays on a flow of its own, built from packs (``packs.py``, ``modes.py``): a state
names its mode (``state["mode"]``, identity mode when absent, as in games stored before modes
existed) and :func:`flow_of` / :func:`mode_of` find it. :data:`FLOW` is identity mode's flow.

Card zones: every one of the 108 card ids is in exactly one of ``deck``, ``discard``, ``proc``
(cards being used, judged or shown, e.g. the 五谷丰登 pool) or a player's ``hand``, ``equip`` slot
or ``judge`` area. :func:`take` removes a card from wherever it is, so moving is
``take`` + append, and a property test checks the invariant after every action.
"""

from __future__ import annotations

from typing import Any

from engines.base import Event, Msg, key_ref, seat_ref
from engines.flow import Ctx, Flow, Triggers
from engines.rng import Rng
from engines.sanguosha import judged
from engines.sanguosha.data import card
from engines.sanguosha.heroes import hero

# ``hero`` is imported above, not inside the functions that read a hero: heroes.py has a module
# __getattr__, so a function-level import asked it for ``__path__`` on every call and it raised
# (hidden_with, asked by has_skill, paid ~3 µs for that about 20 times a 三国杀 step).

State = dict[str, Any]

#: Identity mode's flow; ``modes.py`` installs its packs (kept here so every part can name it).
FLOW = Flow(Triggers())
#: mode name → its flow and its mode object (``modes.Mode``), filled by ``modes.py``.
FLOWS: dict[str, Flow] = {}
MODES: dict[str, Any] = {}
DEFAULT_MODE = "identity"


def mode_name(state: State) -> str:
    return state.get("mode", DEFAULT_MODE)  # type: ignore[no-any-return]


def flow_of(state: State) -> Flow:
    """The flow the game in ``state`` plays on."""
    return FLOWS[mode_name(state)]


def mode_of(state: State) -> Any:
    """The mode object (``modes.Mode``) of the game in ``state``."""
    return MODES[mode_name(state)]


def fold(state: State, quantity: str, value: Any, **args: Any) -> Any:
    """``value`` through every modifier of ``quantity`` the game's flow has (distance, range …)."""
    return flow_of(state).triggers.fold(state, quantity, value, **args)

#: Roles by player count (lord, loyalist, rebel, renegade), from the reference table.
ROLES: dict[int, str] = {2: "ZF", 3: "ZFN", 4: "ZNFF", 5: "ZCFFN", 6: "ZCFFFN", 7: "ZCCFFFN",
                         8: "ZCCFFFFN", 9: "ZCCCFFFFN", 10: "ZCCCFFFFFN"}
ROLE_NAMES = {"Z": "lord", "C": "loyalist", "F": "rebel", "N": "renegade"}
PHASES = ("prepare", "judge", "draw", "play", "discard", "finish")
SUIT_SYMBOL = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}
RANK_TEXT = {1: "A", 11: "J", 12: "Q", 13: "K"}


def m(key: str, **params: Any) -> Msg:
    return Msg(f"sanguosha.{key}", params)


def who(seat: int | None) -> dict[str, Any] | str:
    return seat_ref(seat) if seat is not None else key_ref("sanguosha.nobody")


def card_label(cid: str) -> str:
    """``♠7`` — suit and rank, the same in every language."""
    c = card(cid)
    return f"{SUIT_SYMBOL[c.suit]}{RANK_TEXT.get(c.rank, str(c.rank))}"


def cname(name: str) -> str:
    return key_ref(f"sanguosha.card.{name}")


def say(ctx: Ctx, key: str, to: tuple[int, ...] | None = None, **params: Any) -> None:
    """Add an event (public unless ``to``) and, if public, keep it for the turn log."""
    msg = m(f"ev.{key}", **params)
    ctx.events.append(Event(msg, to=to, kind=key))
    if to is None:
        log = ctx.state["log"]
        log.append(msg.to_json())
        if len(log) > 40:
            del log[:-40]


# -- seats ------------------------------------------------------------------------------------

def has_skill(state: State, seat: int | None, skill: str, *, hidden: bool = False) -> bool:
    """Does the living ``seat`` have ``skill`` (lord skills are only given to the lord)? The one
    gate for skills. Only shown heroes count, unless ``hidden``: then also a hidden hero of a
    two-hero seat whose skill could be used by revealing it as part of the use (what offers a
    skill asks; the use then calls :func:`reveal_for`)."""
    if seat is None:
        return False
    p = state["players"][seat]
    if not p["alive"]:
        return False
    if skill in p.get("skills", ()):
        return True
    return hidden and hidden_with(state, seat, skill) is not None and may_reveal(state, seat)


def may_reveal(state: State, seat: int) -> bool:
    """May ``seat`` show a hidden hero now? 祸水 says no to the others in its owner's turn
    (modifier ``may_reveal``); a mode's own reveal action asks the same."""
    return bool(fold(state, "may_reveal", True, seat=seat))


# -- seats with two heroes, shown or hidden ---------------------------------------------------
# A seat of a two-hero mode keeps ``heroes``: [main, deputy], each {"id", "shown"}. Its
# ``hero``, ``gender``, ``kingdom`` and ``skills`` are derived from the shown heroes only
# (:func:`refresh_heroes`), so everything that reads them — ``has_skill`` above all — sees only
# what the table sees. Identity mode's seats have one shown hero and no ``heroes`` list.

def hidden_with(state: State, seat: int, skill: str) -> int | None:
    """The index of the seat's hidden hero that has ``skill`` (None: none)."""
    for i, h in enumerate(state["players"][seat].get("heroes", ())):
        if not h["shown"] and not h.get("lost") and skill in hero(h["id"]).skills:
            return i
    return None


def refresh_heroes(state: State, seat: int) -> None:
    """Derive the seat's hero, gender, kingdom and skills from its shown heroes: the first shown
    names the seat, the kingdom is the shown heroes' (both of one kingdom), the gender is the
    main hero's once it is shown (the deputy's while only it is), skills are both shown heroes'
    (less those a skill took away, plus those a skill gave: ``lost_skills``, ``gained``)."""
    p = state["players"][seat]
    shown = [h["id"] for h in p.get("heroes", ()) if h["shown"]]
    lost = [h["id"] for h in p.get("heroes", ()) if h["shown"] and h.get("lost")]
    p["hero"] = shown[0] if shown else None
    p["kingdom"] = hero(shown[0]).kingdom if shown else None
    p["gender"] = hero(shown[0]).gender if shown else None
    skills: list[str] = []
    for hid in shown:
        if hid not in lost:  # a hero whose skills were taken (断肠) keeps only its name
            skills += [k for k in hero(hid).skills if k not in skills]
    gone = p.get("lost_skills", ())  # taken away by a skill (敛资); ``gained``: given by one (激诏)
    p["skills"] = [k for k in skills if k not in gone] + [k for k in p.get("gained", ()) if k not in skills]


def reveal(ctx: Ctx, seat: int, index: int) -> None:
    """Show the seat's hero ``index`` (0 main, 1 deputy): public from now on, its skills count.
    Timing point ``hero_shown`` (``seat``, ``hero``, ``index``) for what reacts to it."""
    p = ctx.state["players"][seat]
    h = p["heroes"][index]
    if h["shown"]:
        return
    h["shown"] = True
    refresh_heroes(ctx.state, seat)
    say(ctx, "hero_shown", who=who(seat), hero=key_ref(f"sanguosha.hero.{h['id']}"))
    mode_of(ctx.state).shown(ctx, seat, index)
    notice(ctx.state, "hero_shown", {"seat": seat, "hero": h["id"], "index": index})


def hide(ctx: Ctx, seat: int, index: int) -> None:
    """Turn the seat's shown hero ``index`` face down again (倾城): its skills stop counting;
    the kingdom stays known while the other hero is shown. The mode may refuse (a shown 国战 lord:
    ``Mode.may_hide``). Timing point ``hero_hidden``."""
    p = ctx.state["players"][seat]
    h = p["heroes"][index]
    if not h["shown"] or not mode_of(ctx.state).may_hide(ctx.state, seat, index):
        return
    h["shown"] = False
    refresh_heroes(ctx.state, seat)
    say(ctx, "hero_hidden", who=who(seat), hero=key_ref(f"sanguosha.hero.{h['id']}"))
    notice(ctx.state, "hero_hidden", {"seat": seat, "hero": h["id"], "index": index})


def turn_over(ctx: Ctx, seat: int) -> None:
    """叠置 ⇄ 平置 (``player["stacked"]``): a stacked seat skips its next turn, coming back flat
    (the turn frame does that). Timing point ``turned_over`` (``seat``, ``stacked``)."""
    p = ctx.state["players"][seat]
    p["stacked"] = not p.get("stacked")
    say(ctx, "stacked" if p["stacked"] else "unstacked", who=who(seat))
    notice(ctx.state, "turned_over", {"seat": seat, "stacked": p["stacked"]})


def peek_hero(ctx: Ctx, viewer: int, target: int, index: int) -> None:
    """``viewer`` looks at ``target``'s hidden hero ``index`` (先驱, 知己知彼, the next-deputy
    rule): kept in the viewer's ``peeks`` — its own view shows it, no other view does — and told
    to the viewer alone."""
    h = ctx.state["players"][target]["heroes"][index]
    peeks = ctx.state["players"][viewer].setdefault("peeks", [])
    entry = {"seat": target, "index": index, "hero": h["id"]}
    if entry not in peeks:
        peeks.append(entry)
    say(ctx, "peeked_hero", to=(viewer,), who=who(target), hero=key_ref(f"sanguosha.hero.{h['id']}"))


def reveal_for(ctx: Ctx, seat: int, skill: str) -> None:
    """A skill of a hidden hero is being used: reveal that hero as part of the use."""
    if skill in ctx.state["players"][seat].get("skills", ()):
        return
    index = hidden_with(ctx.state, seat, skill)
    if index is not None:
        reveal(ctx, seat, index)


def kingdom(state: State, seat: int) -> str | None:
    """The seat's kingdom as the rules count it (None: not known — in hegemony mode a seat with no
    shown hero; a 野心家 is a kingdom of its own). Identity mode: the hero's kingdom."""
    return mode_of(state).kingdom(state, seat)  # type: ignore[no-any-return]


def same_kingdom(state: State, a: int, b: int) -> bool:
    """Are ``a`` and ``b`` of the same kingdom? Never when either kingdom is not known (国战:
    未确定势力的角色不能判断与另一名角色是否势力相同)."""
    ka = kingdom(state, a)
    return ka is not None and ka == kingdom(state, b)


def can_target(state: State, user: int, target: int, name: str) -> bool:
    """May ``target`` be chosen as a target of ``name`` used by ``user``? Skills such as 空城 and
    谦逊 say no through the ``targetable`` modifier. (Kept for a walk's state: ``judged.py``.)"""
    checks = judged.kept(state)
    if checks is None:
        return fold(state, "targetable", True, user=user, target=target, name=name)  # type: ignore[no-any-return]
    key = ("t", user, target, name)
    found = checks.get(key)
    if found is None:
        found = checks[key] = fold(state, "targetable", True, user=user, target=target, name=name)
    return found  # type: ignore[no-any-return]


def flag(state: State, key: str) -> int:
    """A per-turn counter (skills used this turn, ...), reset at every turn start."""
    return state.setdefault("tflags", {}).get(key, 0)


def bump(state: State, key: str, n: int = 1) -> None:
    flags = state.setdefault("tflags", {})
    flags[key] = flags.get(key, 0) + n


def alive(state: State, seat: int) -> bool:
    return state["players"][seat]["alive"]


def living(state: State, start: int | None = None) -> list[int]:
    """Living seats in turn order (seat number increasing), beginning at ``start`` (inclusive)."""
    n = state["n"]
    first = start if start is not None else 0
    return [s % n for s in range(first, first + n) if state["players"][s % n]["alive"]]


def next_living(state: State, seat: int) -> int:
    n = state["n"]
    for k in range(1, n + 1):
        if state["players"][(seat + k) % n]["alive"]:
            return (seat + k) % n
    return seat


def others_from(state: State, seat: int) -> list[int]:
    """Other living seats in turn order starting after ``seat`` (AoE order)."""
    return [s for s in living(state, seat + 1) if s != seat]


def role(state: State, seat: int) -> str:
    return state["players"][seat]["role"]


def side(role_letter: str) -> str:
    return {"Z": "lord", "C": "lord", "F": "rebel", "N": "renegade"}[role_letter]


# -- zones ------------------------------------------------------------------------------------

#: Skills that act when a seat loses its last hand card / an equipped card, wherever that happens
#: (filled by the skill modules). :func:`take` queues a timing point for them; the flow's idle
#: hook fires it at the next frame boundary (``skills.drain_queue``).
WATCH: dict[str, set[str]] = {"hand_empty": set(), "equip_lost": set()}


def _watch(state: State, seat: int, p: dict[str, Any], what: str, cid: str) -> None:
    if WATCH[what] and WATCH[what] & (set(p.get("skills", ())) | _hidden_skills(p)):
        state.setdefault("queued", []).append([what, {"seat": seat, "card": cid}])


def _hidden_skills(p: dict[str, Any]) -> set[str]:
    """The skills of a seat's hidden heroes (a hidden 田丰's 死谏 may still be used, showing him)."""
    if "heroes" not in p:
        return set()
    return {k for h in p["heroes"] if not h["shown"] and not h.get("lost") for k in hero(h["id"]).skills}


def notice(state: State, timing: str, event: dict[str, Any]) -> None:
    """A timing point a plain state change causes wherever it happens (HP lost or recovered,
    cards moved, a phase or turn over): queued, and fired by the flow's idle hook at the next
    frame boundary (``skills.drain_queue``), like :data:`WATCH`. Queued only when the game's flow
    has a handler there, so a timing point nobody listens to costs nothing and changes nothing."""
    if flow_of(state).triggers.handlers(timing):
        state.setdefault("queued", []).append([timing, event])


def _moved(state: State, cids: list[str], to: tuple[int | None, str], reason: str) -> Any:
    """Before a move: the ``cards_moved`` event to notice after it (None: nobody listens)."""
    if not cids or not flow_of(state).triggers.handlers("cards_moved"):
        return None
    return {"cards": list(cids), "from": [list(owner_zone(state, c)) for c in cids], "to": list(to),
            "reason": reason}


def take(state: State, cid: str) -> str:
    """Remove ``cid`` from its zone; returns the zone's name."""
    for zone in ("proc", "discard", "deck"):
        if cid in state[zone]:
            state[zone].remove(cid)
            return zone
    for i, p in enumerate(state["players"]):
        if cid in p["hand"]:
            p["hand"].remove(cid)
            if not p["hand"]:
                _watch(state, i, p, "hand_empty", cid)
            return "hand"
        for slot in p["equip"]:  # the four SLOTS, and a treasure's slot once one was put there
            if p["equip"][slot] == cid:
                p["equip"][slot] = None
                _watch(state, i, p, "equip_lost", cid)
                return "equip"
        for entry in p["judge"]:
            if entry[0] == cid:
                p["judge"].remove(entry)
                return "judge"
        for pile in p.get("piles", {}).values():
            if cid in pile:
                pile.remove(cid)
                return "pile"
    raise KeyError(cid)


def owner_zone(state: State, cid: str) -> tuple[int | None, str]:
    for zone in ("proc", "discard", "deck"):
        if cid in state[zone]:
            return None, zone
    for i, p in enumerate(state["players"]):
        if cid in p["hand"]:
            return i, "hand"
        if cid in p["equip"].values():
            return i, "equip"
        if any(e[0] == cid for e in p["judge"]):
            return i, "judge"
        if any(cid in pile for pile in p.get("piles", {}).values()):
            return i, "pile"
    raise KeyError(cid)


def to_discard(state: State, cids: list[str], reason: str = "discard") -> None:
    moved = _moved(state, cids, (None, "discard"), reason)
    for cid in cids:
        take(state, cid)
        state["discard"].append(cid)
    if moved:
        notice(state, "cards_moved", moved)


def to_hand(state: State, seat: int, cids: list[str], reason: str = "obtain") -> None:
    moved = _moved(state, cids, (seat, "hand"), reason)
    for cid in cids:
        take(state, cid)
        state["players"][seat]["hand"].append(cid)
    if moved:
        notice(state, "cards_moved", moved)


def to_proc(state: State, cids: list[str], reason: str = "use") -> None:
    moved = _moved(state, cids, (None, "proc"), reason)
    for cid in cids:
        take(state, cid)
        state["proc"].append(cid)
    if moved:
        notice(state, "cards_moved", moved)


def to_equip(state: State, seat: int, cid: str, reason: str = "equip") -> None:
    """Into ``seat``'s equipment slot; an item already there goes to the discard pile."""
    moved = _moved(state, [cid], (seat, "equip"), reason)
    take(state, cid)
    slot = card(cid).slot
    old = state["players"][seat]["equip"].get(slot)
    if old:
        to_discard(state, [old], reason="replaced")
    state["players"][seat]["equip"][slot] = cid
    if moved:
        notice(state, "cards_moved", moved)


def to_deck_bottom(state: State, cids: list[str], reason: str = "bottom") -> None:
    """Under the deck, the first of ``cids`` lowest (章武 puts 飞龙夺凤 there)."""
    moved = _moved(state, cids, (None, "deck"), reason)
    for cid in cids:
        take(state, cid)
    state["deck"][:0] = list(reversed(cids))
    if moved:
        notice(state, "cards_moved", moved)


def to_judge(state: State, seat: int, cid: str, name: str, reason: str = "delay") -> None:
    """Into ``seat``'s judgement area as the delayed trick ``name``."""
    moved = _moved(state, [cid], (seat, "judge"), reason)
    take(state, cid)
    state["players"][seat]["judge"].append([cid, name])
    if moved:
        notice(state, "cards_moved", moved)


def to_pile(state: State, seat: int, name: str, cids: list[str], reason: str = "pile") -> None:
    """Onto ``seat``'s hero as the pile ``name`` (周泰's 创): a zone of its own, public, kept in
    ``player["piles"]`` and discarded with the seat's other cards when it dies."""
    moved = _moved(state, cids, (seat, "pile"), reason)
    for cid in cids:
        take(state, cid)
        state["players"][seat].setdefault("piles", {}).setdefault(name, []).append(cid)
    if moved:
        notice(state, "cards_moved", moved)


def pile_cards(state: State, seat: int) -> list[str]:
    """Every card in the seat's piles on its heroes."""
    return [c for pile in state["players"][seat].get("piles", {}).values() for c in pile]


def flush_proc(state: State) -> None:
    """Cards left on the table go to the discard pile (end of a use, a cut-short turn)."""
    state["discard"].extend(state["proc"])
    state["proc"] = []


def deal(state: State, n: int) -> list[str]:
    """Take ``n`` cards from the top of the deck, shuffling the discard pile into a new deck
    when it runs out. With no card anywhere, fewer cards are dealt (docs/rules/sanguosha.md)."""
    out: list[str] = []
    for _ in range(n):
        if not state["deck"]:
            if not state["discard"]:
                break
            pile = state["discard"]
            state["discard"] = []
            Rng(state).shuffle(pile)
            state["deck"] = pile
            state["reshuffles"] += 1
        out.append(state["deck"].pop())
    return out


def draw(ctx: Ctx, seat: int, n: int) -> list[str]:
    got = deal(ctx.state, n)
    ctx.state["players"][seat]["hand"].extend(got)
    if got:
        notice(ctx.state, "cards_moved", {"cards": list(got), "from": [[None, "deck"]] * len(got),
                                          "to": [seat, "hand"], "reason": "draw"})
        say(ctx, "draw", who=who(seat), n=len(got))
        for c in got:
            say(ctx, "draw_private", to=(seat,), card=cname(card(c).shown), sr=card_label(c))
    return got


def rules_edition(state: State) -> int:
    """Which rulings a game plays by (``engine.SanguoshaEngine.edition``): games started before
    edition 4 carry no stamp and play by edition 3's until upgraded."""
    return int(state.get("ed", 3))


def without_equipped(state: State, seat: int, cids: list[str]) -> State:
    """``state`` as it reads once ``cids`` have left ``seat``'s equipment — a card being used has
    left its slot when the use's targets are judged (武圣 with the weapon itself or a −1 horse:
    the range or distance is judged without it). A shallow copy to read, never to change."""
    equip = state["players"][seat]["equip"]
    gone = [slot for slot, c in equip.items() if c and c in cids]
    if not gone:
        return state
    players = list(state["players"])
    players[seat] = {**players[seat], "equip": {**equip, **dict.fromkeys(gone)}}
    return {**state, "players": players}


def all_cards(state: State, seat: int, judge: bool = True) -> list[str]:
    p = state["players"][seat]
    out = list(p["hand"]) + [c for c in p["equip"].values() if c]
    if judge:
        out += [e[0] for e in p["judge"]]
    return out


def has_cards(state: State, seat: int, judge: bool = True) -> bool:
    return bool(all_cards(state, seat, judge))


def equipped(state: State, seat: int, name: str) -> bool:
    p = state["players"][seat]
    return any(c and card(c).name == name for c in p["equip"].values())


def weapon_name(state: State, seat: int) -> str:
    cid = state["players"][seat]["equip"]["weapon"]
    return card(cid).name if cid else ""


# -- distances --------------------------------------------------------------------------------

def seat_distance(state: State, a: int, b: int) -> int:
    """Steps between two living seats around the table, counting living seats only."""
    if a == b:
        return 0
    order = living(state, a)
    i = order.index(b)
    return min(i, len(order) - i)


def distance(state: State, a: int, b: int) -> int:
    """Distance from ``a`` to ``b``: seats, then horses and skills (modifier ``distance``),
    never below 1."""
    if a == b:
        return 0
    checks = judged.kept(state)  # kept for a walk's state (judged.py)
    if checks is None:
        return max(1, fold(state, "distance", seat_distance(state, a, b), src=a, dst=b))
    key = ("d", a, b)
    found = checks.get(key)
    if found is None:
        found = checks[key] = max(1, fold(state, "distance", seat_distance(state, a, b), src=a, dst=b))
    return found  # type: ignore[no-any-return]


def attack_range(state: State, seat: int) -> int:
    checks = judged.kept(state)  # kept for a walk's state (judged.py)
    found = None if checks is None else checks.get(("r", seat))
    if found is None:
        cid = state["players"][seat]["equip"]["weapon"]
        found = fold(state, "attack_range", card(cid).range if cid else 1, seat=seat)
        if checks is not None:
            checks[("r", seat)] = found
    return found  # type: ignore[no-any-return]


def in_range(state: State, a: int, b: int) -> bool:
    return a != b and alive(state, b) and distance(state, a, b) <= attack_range(state, a)


def sha_limit(state: State, seat: int) -> int:
    return fold(state, "sha_limit", 1, seat=seat)


#: The card that answers each pure response ask (``need_*``, ``nullify``, ``peach``...): a seat
#: holding none, and given no other way by the ``can_respond`` modifier, may only pass.
ANSWERED_BY = {"need_shan": "shan", "need_sha": "sha", "jiedao": "sha", "qinglong": "sha",
               "nullify": "wuxie", "peach": "tao"}


def can_respond(state: State, seat: int, kind: str, info: dict[str, Any] | None = None) -> bool:
    """Whether ``seat`` could answer an ask of ``kind`` with something other than "pass".

    This is the one place that knows it: the service answers "pass" at once (after the uniform
    delay) for a seat that cannot, and a 无懈可击 window is not opened when no living seat can.
    Hand cards of the answering name count; equipment and (part 2) hero skills that turn other
    cards into an answer (丈八蛇矛, 龙胆, 武圣, 看破, 急救...) say so through the ``can_respond``
    modifier, so the rule stays in the skill. Asks that are decisions rather than responses
    (which card to take, a weapon's yes/no) always count as answerable. ``info`` is the ask's
    (a lord skill is offered once per request: ``lord_asked``).
    """
    name = ANSWERED_BY.get(kind)
    if name is None:
        return True
    held = not blocked(state, name) and any(card(c).name == name for c in state["players"][seat]["hand"])
    return bool(fold(state, "can_respond", held, seat=seat, kind=kind, info=info or {}))


def blocked(state: State, name: str, seat: int | None = None) -> bool:
    """May no card of ``name`` be used or played as itself now (鏖战: 桃; by ``seat``, when the
    asker knows who: 六龙骖驾 bars its wearer's horses)? A mode's or a card's rule, asked through
    the ``card_blocked`` modifier (identity mode has none)."""
    return bool(fold(state, "card_blocked", False, name=name, seat=seat))


def hand_limit(state: State, seat: int) -> int:
    return fold(state, "hand_limit", max(0, state["players"][seat]["hp"]), seat=seat)


def suit(state: State, seat: int, cid: str) -> str:
    """The suit ``cid`` counts as for ``seat`` (its own cards and judgements): the card's, unless a
    skill says otherwise (红颜: ♠ counts as ♥) through the ``suit`` modifier."""
    return fold(state, "suit", card(cid).suit, seat=seat, cid=cid)  # type: ignore[no-any-return]


def color(cids: list[str]) -> str:
    """The colour of a card made of ``cids``: red, black, or none when mixed."""
    colours = {"red" if card(c).red else "black" for c in cids}
    return colours.pop() if len(colours) == 1 else "none"  # none also for no card (离间)


def note_act(state: State, actor: int | None, target: int, weight: int) -> None:
    """Public record of hostile (+) and friendly (−) acts, which the AI reads."""
    if actor is None or actor == target:
        return
    state["acts"][actor][target] += weight
