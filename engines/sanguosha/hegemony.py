"""Hegemony mode (国战): two hidden heroes per seat, kingdoms, 野心家, markers, 鏖战.

The seed's 国战 rules that belong to the mode, not to a card or a hero (docs/rules/sanguosha.md,
"国战"): seven heroes dealt to each seat (five at 9–12 seats), two of one kingdom kept hidden as
main and deputy; max HP from the two heroes' 阴阳鱼 halves; a hidden hero is revealed at the start
phase, when its skill is used (``rules.reveal_for``) or, for a hero with a locked skill, in the play
phase; the first seat to reveal gets 先驱, a leftover half a 阴阳鱼 and a 珠联璧合 pair its marker
when both heroes are first shown; only a seat with a shown hero has a kingdom, and a kingdom whose
shown seats would exceed half the table makes each further one a 野心家 (a kingdom of one); a hidden
victim is revealed, then the killer is rewarded by kingdom; one kingdom alone standing wins; 鏖战
starts when few kingdoms are left and all differ. The lords option (君主) is ``hg_lords.py``: it
changes the 野心家 rule here (``_settle_kingdom``), the death (``before_death``) and the reward.

The seat's state: ``heroes`` ([main, deputy], each ``{"id", "shown"}``), ``ye`` (野心家),
``marks`` (``yinyang``, ``xianqu``, ``zhulian`` counts), ``stacked`` (叠置), ``peeks`` (hidden
heroes it has looked at, its own view only). The table's: ``state["hg"]`` — ``first`` (先驱 given),
``aozhan`` (0 off, 1 from the next turn, 2 on), ``deal`` (heroes offered per seat), ``peek_next``
(the seed's additional rule), ``start`` (the starting seat).
"""

from __future__ import annotations

import random
from typing import Any

from engines.base import Option, Step, key_ref
from engines.flow import Ask, Ctx
from engines.rng import Rng
from engines.sanguosha import (  # noqa: F401 - importing fills the packs
    ai,
    cards_hegemony,
    equipment,
    frames,
    hg_heroes,
    hg_lords,
    modes,
    skills,
)
from engines.sanguosha import rules as R
from engines.sanguosha.choices import STEPS, choose_one, yes_no
from engines.sanguosha.data import HEGEMONY_LORDS, card, deck, with_addition
from engines.sanguosha.heroes import hero
from engines.sanguosha.packs import (
    CARDS_HEGEMONY,
    CORE,
    EQUIPMENT,
    HEGEMONY,
    HEGEMONY_HEROES,
    STANDARD_HEROES,
)
from engines.sanguosha.rules import m, say, who
from engines.tokens import ascii_int

State = dict[str, Any]
Frame = dict[str, Any]

MIN_SEATS, MAX_SEATS = 3, 12
MARKS = ("yinyang", "xianqu", "zhulian")
#: The hegemony heroes' skills marked 锁定技 (标准版): a hidden hero holding one may be revealed in
#: the play phase (the seed: 具有"锁定技"的武将的出牌阶段); 祸水's text lets its hero be shown in
#: the play phase too. A test checks every id here is a hegemony hero's skill.
LOCKED = frozenset({
    "mashu", "kongcheng", "hg_kongcheng", "paoxiao", "bazhen", "xiangle", "huoshou", "juxiang",
    "kuanggu", "qicai", "qianxun", "hg_qianxun", "hongyan", "wushuang", "wansha", "weimu",
    "hg_weimu", "mingshi", "duanchang", "hg_duanchang", "suishi", "huoshui",
})


def offered_each(n: int) -> int:
    """Heroes dealt to each seat (the seed: 7, or 5 at 9–12 players)."""
    return 5 if n >= 9 else 7


# -- kingdoms ---------------------------------------------------------------------------------

def true_kingdom(state: State, seat: int) -> str:
    """The kingdom printed on the seat's heroes (known to the seat itself, not to the table)."""
    return hero(state["players"][seat]["heroes"][0]["id"]).kingdom


def shown_any(state: State, seat: int) -> bool:
    return any(h["shown"] for h in state["players"][seat].get("heroes", ()))


def shown_both(state: State, seat: int) -> bool:
    hs = state["players"][seat].get("heroes", ())
    return bool(hs) and all(h["shown"] for h in hs)


def _settle_kingdom(state: State, seat: int) -> None:
    """A seat's first reveal fixes its kingdom: a 野心家 when its kingdom's shown seats (the dead
    counted) already fill half the table, rounded down. With the lords option a shown lord lifts
    that limit for its kingdom and a dead one makes the whole kingdom 野心家 (hg_lords.py)."""
    p = state["players"][seat]
    if p.get("settled"):
        return
    p["settled"] = True
    k = true_kingdom(state, seat)
    if hg_lords.fallen(state, k):
        p["ye"] = True
        return
    if hg_lords.lord_standing(state, k):
        return
    same = sum(1 for i, q in enumerate(state["players"])
               if i != seat and q.get("settled") and not q.get("ye") and true_kingdom(state, i) == k)
    if same >= state["n"] // 2:
        p["ye"] = True


# -- the mode ---------------------------------------------------------------------------------

class HegemonyMode(modes.Mode):
    name = "hegemony"
    packs = (CORE, EQUIPMENT, CARDS_HEGEMONY, STANDARD_HEROES, HEGEMONY_HEROES, HEGEMONY)
    deck = "hegemony"

    def cards(self, options: dict[str, str]) -> list[str]:
        """The deck's card ids before the shuffle: with the lords option on, the 君临天下 lord
        cards join the 108 (docs/rules/sanguosha-hegemony-deck.md); off, the 108 as they are."""
        return list(with_addition(HEGEMONY_LORDS) if options.get("lords") == "on" else deck(self.deck))

    def new_game(self, options: dict[str, str], n: int, seed: int) -> State:
        if not MIN_SEATS <= n <= MAX_SEATS:
            raise ValueError(f"hegemony mode is for {MIN_SEATS}-{MAX_SEATS} players")
        state = modes.table(options, n, seed, mode=self.name, hg={
            "first": False, "aozhan": 0, "peek_next": options.get("peek_next") == "on",
            "start": None, "deal": {}, **({"lords": True} if options.get("lords") == "on" else {})})
        # (the lords key only when on: a game without the option has the shape stored 国战 games
        # saved before the option have — tests/upgrade fixtures tag 2026-11-27-hg)
        rng = Rng(state)
        cards = self.cards(options)
        rng.shuffle(cards)
        state["deck"] = cards
        state["lord"] = -1
        for _ in range(n):
            state["players"].append({
                "role": None, "hp": 0, "max": 0, "alive": True, "revealed": False, "hero": None,
                "gender": None, "kingdom": None, "skills": [], "heroes": [], "ye": False,
                "marks": dict.fromkeys(MARKS, 0), "stacked": False,
                "hand": [], "equip": {"weapon": None, "armor": None, "plus": None, "minus": None}, "judge": [],
            })
        start = options.get("first", "")
        state["hg"]["start"] = int(start) if start.isdigit() and int(start) < n else rng.below(n)
        flow = R.flow_of(state)
        ctx = Ctx(flow, state)
        ctx.push("hg_setup", st="start")
        flow.run(ctx)
        return state

    def first_seat(self, state: State) -> int:
        return int(state["hg"]["start"])

    def before_death(self, ctx: Ctx, seat: int) -> None:
        """The victim is shown (验明势力); so is the last seat left standing, which wins — a
        seat with no kingdom could not, and nobody would be left to make it show itself."""
        death_reveal(ctx, seat)
        hg_lords.lord_died(ctx, seat)
        rest = [i for i in R.living(ctx.state) if i != seat]
        if len(rest) == 1 and not shown_any(ctx.state, rest[0]):
            death_reveal(ctx, rest[0])

    def shown(self, ctx: Ctx, seat: int, index: int) -> None:
        shown(ctx, seat)

    def may_hide(self, state: State, seat: int, index: int) -> bool:
        return hg_lords.may_hide(state, seat, index)

    def starts_round(self, state: State, seat: int) -> bool:
        start = state["hg"]["start"]
        if not state["players"][start]["alive"]:  # the round begins where the first seat sat
            start = R.next_living(state, start)
        return bool(seat == start)

    def kingdom(self, state: State, seat: int) -> str | None:
        p = state["players"][seat]
        if not p.get("settled"):
            return None
        return f"ye{seat}" if p.get("ye") else true_kingdom(state, seat)

    def allegiance_ref(self, state: State, seat: int) -> dict[str, Any]:
        k = self.kingdom(state, seat)
        return key_ref("sanguosha.kingdom.ye" if k and k.startswith("ye") else f"sanguosha.kingdom.{k}")

    def winners(self, state: State) -> list[int] | None:
        """One kingdom alone among the living, each of them with a shown hero (a seat with no
        kingdom cannot win); every seat of that kingdom wins, the dead too."""
        alive = R.living(state)
        if len(alive) == 1 and not shown_any(state, alive[0]):
            return None  # the last seat is revealed first (hegemony.reveal_last)
        kingdoms = {self.kingdom(state, s) for s in alive}
        if len(kingdoms) != 1 or None in kingdoms:
            return None
        (k,) = kingdoms
        return [i for i in range(state["n"]) if self.kingdom(state, i) == k]

    def camps(self, state: State) -> list[list[int]]:
        out: dict[str, list[int]] = {}
        for i in range(state["n"]):
            k = self.kingdom(state, i) or f"none{i}"
            out.setdefault(k, []).append(i)
        return list(out.values())

    def side(self, state: State, won: list[int]) -> str:
        k = self.kingdom(state, won[0]) or ""
        return "ye" if k.startswith("ye") else k

    def reward(self, ctx: Ctx, seat: int, src: int) -> None:
        """The seed: killing your own kingdom costs hand and equipment; another kingdom draws as
        many as it has seats (the victim included, the dead of it counted as the kingdom is
        counted: the living, and the victim); a 野心家 draws 3; no kingdom, nothing. A dead lord's
        kingdom is rewarded as it stood when the lord died (hg_lords.death_kingdom)."""
        s = ctx.state
        was = hg_lords.death_kingdom(s, seat)

        def of(i: int) -> str | None:
            return was if was is not None and s["players"][i].get("ye_by_lord") == was else self.kingdom(s, i)

        mine, theirs = of(src), of(seat)
        if mine is None:
            return
        if mine.startswith("ye"):
            say(ctx, "hg_reward", who=who(src), n=3)
            R.draw(ctx, src, 3)
        elif mine == theirs:
            say(ctx, "hg_penalty", who=who(src))
            R.to_discard(s, R.all_cards(s, src, judge=False))  # hand and equipment
        else:
            n = 1 + sum(1 for i in R.living(s) if of(i) == theirs)
            say(ctx, "hg_reward", who=who(src), n=n)
            R.draw(ctx, src, n)

    def public_allegiance(self, state: State, seat: int) -> str | None:
        k = self.kingdom(state, seat)
        return None if k is None else "ye" if k.startswith("ye") else k

    def own_allegiance(self, state: State, seat: int) -> str | None:
        k = self.public_allegiance(state, seat)
        if k is not None or not state["players"][seat].get("heroes"):
            return k
        return true_kingdom(state, seat)

    def decide(self, state: State, seat: int, rng: random.Random, level: str) -> list[str]:
        from engines.sanguosha import hg_ai

        return hg_ai.decide(state, seat, rng, level)

    def timeout(self, state: State, seat: int) -> list[str]:
        from engines.sanguosha import hg_ai

        return hg_ai.timeout(state, seat)


MODE = HegemonyMode()


# -- set-up: the hero deal and choice -----------------------------------------------------------

def pairable(offer: list[str]) -> list[str]:
    """The offered heroes that have another of their kingdom in the offer."""
    return [h for h in offer if sum(1 for x in offer if hero(x).kingdom == hero(h).kingdom) >= 2]


def max_hp(main: str, deputy: str) -> tuple[int, bool]:
    """(max HP, whether a half is left over) from the two heroes' 阴阳鱼."""
    total = hero(main).hp + hero(deputy).hp
    return int(total), total % 1 != 0


def seat_heroes(state: State, seat: int, main: str, deputy: str) -> None:
    """Give ``seat`` its hidden main and deputy and the HP they make."""
    p = state["players"][seat]
    p["heroes"] = [{"id": main, "shown": False}, {"id": deputy, "shown": False}]
    p["max"], half = max_hp(main, deputy)
    p["hp"] = p["max"]
    p["half"] = half
    R.refresh_heroes(state, seat)


@HEGEMONY.kind("hg_setup")
def _hg_setup(ctx: Ctx, f: Frame) -> None:
    s = ctx.state
    if f["st"] == "start":
        pool = sorted(hg_heroes.every_hero())
        Rng(s).shuffle(pool)
        each = offered_each(s["n"])
        s["hg"]["deal"] = {str(i): pool[i * each:(i + 1) * each] for i in range(s["n"])}
        f["st"] = "chosen"
        ctx.ask(f, list(range(s["n"])), "hg_heroes", mode="all")
        return
    replies = ctx.take(f, "replies") or {}
    for seat_s, action in replies.items():
        offer = s["hg"]["deal"][seat_s]
        seat_heroes(s, int(seat_s), offer[int(action[0])], offer[int(action[1])])
    say(ctx, "hg_chosen")
    if s["hg"]["peek_next"]:
        for seat in range(s["n"]):
            R.peek_hero(ctx, seat, R.next_living(s, seat), 1)
    start = s["hg"]["start"]
    for seat in R.living(s, start):
        s["players"][seat]["hand"].extend(R.deal(s, 4))
    s["hg"]["deal"] = {}
    ctx.pop(f)
    ctx.push("game", cur=None)


def offer_of(state: State, seat: int) -> list[str]:
    return list(state["hg"]["deal"].get(str(seat), []))


def _hero_opt(hid: str) -> Option:
    h = hero(hid)
    return Option(hid, m("opt.hg_hero", hero=key_ref(f"sanguosha.hero.{hid}"),
                         kingdom=key_ref(f"sanguosha.kingdom.{h.kingdom}"), halves=int(h.hp * 2)))


def _heroes_step(state: State, seat: int, path: list[str], ask: Ask) -> Step:
    """Two tokens: the main hero's index in the offer, then the deputy's (same kingdom)."""
    offer = offer_of(state, seat)
    ok = pairable(offer)
    mains = [Option(str(i), _hero_opt(h).label) for i, h in enumerate(offer) if h in ok]
    if not path:
        return Step(m("step.hg_main"), mains)
    if path[0] not in {o.value for o in mains}:
        from engines.base import EngineError

        raise EngineError("sanguosha.err.illegal")
    main = offer[int(path[0])]
    deputies = [Option(str(i), _hero_opt(h).label) for i, h in enumerate(offer)
                if h != main and hero(h).kingdom == hero(main).kingdom]
    return choose_one(m("step.hg_deputy", hero=key_ref(f"sanguosha.hero.{main}")), deputies, path[1:])


STEPS["hg_heroes"] = _heroes_step


# -- revealing --------------------------------------------------------------------------------

def shown(ctx: Ctx, seat: int) -> None:
    """A hero shown: the seat's kingdom is settled, 先驱 to the first seat ever to reveal; when
    both heroes are up for the first time, a leftover half gives 阴阳鱼 and a pair 珠联璧合."""
    s = ctx.state
    p = s["players"][seat]
    _settle_kingdom(s, seat)
    if hg_lords.shown_lord(s, seat):
        hg_lords.lord_shown(ctx, seat)
    if not s["hg"]["first"]:
        s["hg"]["first"] = True
        _gain(ctx, seat, "xianqu")
    if shown_both(s, seat) and not p.get("both"):
        p["both"] = True
        if p.pop("half", False):
            _gain(ctx, seat, "yinyang")
        main, deputy = (h["id"] for h in p["heroes"])
        if deputy in hero(main).pairs or main in hero(deputy).pairs or hg_lords.pairs_all(main, deputy):
            _gain(ctx, seat, "zhulian")


@HEGEMONY.on("hero_shown", "hg.won")
def _won(ctx: Ctx, ev: dict[str, Any]) -> None:
    """The game is won the moment a kingdom stands alone — also by a reveal (at the next frame
    boundary, so the frame that revealed is not cut in the middle of its step)."""
    s = ctx.state
    won = MODE.winners(s)
    if won is not None and s["winners"] is None:
        frames.finish_game(ctx, won)


def _gain(ctx: Ctx, seat: int, mark: str) -> None:
    ctx.state["players"][seat]["marks"][mark] += 1
    say(ctx, "hg_mark_gain", who=who(seat), mark=key_ref(f"sanguosha.mark.{mark}"))


@HEGEMONY.on("phase_start", "hg.reveal_prepare",
             can=lambda ctx, ev: ev["phase"] == "prepare" and R.mode_name(ctx.state) == MODE.name
             and any(not h["shown"] for h in ctx.state["players"][ev["seat"]]["heroes"])
             and R.may_reveal(ctx.state, ev["seat"]))
def _prepare(ctx: Ctx, ev: dict[str, Any]) -> None:
    """At the start phase a seat with a hidden hero may reveal one or both."""
    ctx.push("hg_reveal", seat=ev["seat"], st="ask")


@HEGEMONY.kind("hg_reveal")
def _reveal_frame(ctx: Ctx, f: Frame) -> None:
    if f["st"] == "ask":
        f["st"] = "answered"
        ctx.ask(f, [f["seat"]], "hg_reveal", default=("pass",), short=True, window=True,
                info={"seat": f["seat"]})
        return
    action = ctx.take(f, "reply")["action"]
    ctx.pop(f)
    if action[0] != "pass":
        for tok in action[0].split("+"):
            R.reveal(ctx, f["seat"], int(tok))


def _reveal_step(state: State, seat: int, path: list[str], ask: Ask) -> Step:
    hs = state["players"][seat]["heroes"]
    hidden = [i for i, h in enumerate(hs) if not h["shown"]]
    opts = [Option(str(i), m("opt.hg_reveal", hero=key_ref(f"sanguosha.hero.{hs[i]['id']}"))) for i in hidden]
    if len(hidden) == 2:
        opts.append(Option("0+1", m("opt.hg_reveal_both")))
    opts.append(Option("pass", m("opt.pass")))
    return choose_one(m("step.hg_reveal"), opts, path)


STEPS["hg_reveal"] = _reveal_step


def death_reveal(ctx: Ctx, seat: int) -> None:
    """A dying seat's hidden heroes are shown before its death is told (验明势力): its kingdom
    is settled, but no marker is earned this way."""
    p = ctx.state["players"][seat]
    for h in p.get("heroes", ()):
        if not h["shown"]:
            h["shown"] = True
            say(ctx, "hero_shown", who=who(seat), hero=key_ref(f"sanguosha.hero.{h['id']}"))
    R.refresh_heroes(ctx.state, seat)
    _settle_kingdom(ctx.state, seat)


# -- markers: play-phase uses -----------------------------------------------------------------

def _has_mark(mark: str) -> Any:
    def can(state: State, seat: int) -> bool:
        return R.mode_name(state) == MODE.name and state["players"][seat]["marks"][mark] > 0
    return can


def _no_more(state: State, seat: int, path: list[str]) -> Step:
    from engines.sanguosha.choices import _exact

    _exact(path, 0)
    return Step(m("step.play"), [], complete=True)


def _use_mark(mark: str) -> Any:
    def start(ctx: Ctx, seat: int, rest: list[str]) -> None:
        s = ctx.state
        s["players"][seat]["marks"][mark] -= 1
        say(ctx, "hg_mark_use", who=who(seat), mark=key_ref(f"sanguosha.mark.{mark}"))
        if mark == "yinyang":
            R.draw(ctx, seat, 1)
        elif mark == "zhulian":
            R.draw(ctx, seat, 2)
        else:  # 先驱: refill to four, then look at one hidden hero of another seat
            short = 4 - len(s["players"][seat]["hand"])
            if short > 0:
                R.draw(ctx, seat, short)
            if rest:  # no other seat may have a hidden hero left
                R.peek_hero(ctx, seat, int(rest[0]), int(rest[1]))
    return start


def _xianqu_step(state: State, seat: int, path: list[str]) -> Step:
    """先驱: a seat with a hidden hero, then which of its hidden heroes (or none to look at)."""
    from engines.sanguosha.choices import _exact

    seats = [t for t in R.living(state, seat + 1) if t != seat
             and any(not h["shown"] for h in state["players"][t]["heroes"])]
    if not seats:
        _exact(path, 0)
        return Step(m("step.play"), [], complete=True)
    if not path:
        return Step(m("step.hg_peek_seat"), [Option(str(t), m("opt.seat_plain", who=who(t))) for t in seats])
    if ascii_int(path[0]) not in seats:  # ASCII digits only ('²'.isdigit() is true)
        from engines.base import EngineError

        raise EngineError("sanguosha.err.illegal")
    t = int(path[0])
    hs = state["players"][t]["heroes"]
    opts = [Option(str(i), m(f"opt.hg_{'main' if i == 0 else 'deputy'}")) for i, h in enumerate(hs) if not h["shown"]]
    return choose_one(m("step.hg_peek_which"), opts, path[1:])


def _lockable(state: State, seat: int) -> list[int]:
    """The seat's hidden heroes with a locked skill (the ones it may show in the play phase)."""
    return [i for i, h in enumerate(state["players"][seat]["heroes"])
            if not h["shown"] and set(hero(h["id"]).skills) & LOCKED]


def _play_reveal_can(state: State, seat: int) -> bool:
    """A hidden hero with a locked skill may be shown in the play phase."""
    if R.mode_name(state) != MODE.name or not R.may_reveal(state, seat):  # 祸水
        return False
    return bool(_lockable(state, seat))


def _play_reveal_step(state: State, seat: int, path: list[str]) -> Step:
    hs = state["players"][seat]["heroes"]
    opts = [Option(str(i), m("opt.hg_reveal", hero=key_ref(f"sanguosha.hero.{hs[i]['id']}")))
            for i in _lockable(state, seat)]
    return choose_one(m("step.hg_reveal"), opts, path)


def _play_reveal(ctx: Ctx, seat: int, rest: list[str]) -> None:
    R.reveal(ctx, seat, int(rest[0]))


def _anytime(state: State, seat: int) -> bool:
    """No condition beyond the gate (the gate already says all: asking it twice is waste)."""
    return True


# the gate alone decides (Active.allowed asks gate and can; the same test as both ran twice on
# every play-phase menu)
for _mark, _step in (("yinyang", _no_more), ("zhulian", _no_more), ("xianqu", _xianqu_step)):
    skills.active(skills.Active(f"mark_{_mark}", _anytime, _step, _use_mark(_mark),
                                gate=_has_mark(_mark)), HEGEMONY)
skills.active(skills.Active("hg_reveal", _anytime, _play_reveal_step, _play_reveal,
                            gate=_play_reveal_can), HEGEMONY)


@HEGEMONY.on("phase_start", "hg.yinyang_limit",
             can=lambda ctx, ev: ev["phase"] == "discard" and R.mode_name(ctx.state) == MODE.name
             and R.alive(ctx.state, ev["seat"]) and ctx.state["players"][ev["seat"]]["marks"]["yinyang"] > 0
             and len(ctx.state["players"][ev["seat"]]["hand"]) > R.hand_limit(ctx.state, ev["seat"]))
def _yinyang_limit(ctx: Ctx, ev: dict[str, Any]) -> None:
    """阴阳鱼 in the discard phase: +2 hand limit this turn (asked only when it would matter)."""
    ctx.push("hg_yinyang", seat=ev["seat"], st="ask")


@HEGEMONY.kind("hg_yinyang")
def _yinyang_frame(ctx: Ctx, f: Frame) -> None:
    s, seat = ctx.state, f["seat"]
    if f["st"] == "ask":
        f["st"] = "answered"
        skills.ask_skill(ctx, f, seat, "mark_yinyang", default_yes=True)
        return
    yes = skills.said_yes(ctx, f)
    ctx.pop(f)
    if yes:
        s["players"][seat]["marks"]["yinyang"] -= 1
        s["tflags"]["yinyang"] = 1
        say(ctx, "hg_mark_use", who=who(seat), mark=key_ref("sanguosha.mark.yinyang"))


@HEGEMONY.modifier("hand_limit", "hg.yinyang")
def _limit(state: State, value: int, args: dict[str, Any]) -> int:
    return value + (2 if state["tflags"].get("yinyang") and args["seat"] == state["turn"] else 0)


# -- 鏖战 ----------------------------------------------------------------------------------------

@HEGEMONY.on("turn_start", "hg.aozhan", priority=100)
def _aozhan(ctx: Ctx, ev: dict[str, Any]) -> None:
    """鏖战 (the seed): at most four seats left (three in games under 7) whose kingdoms all differ
    — from the next turn on 桃 is only played as 杀 or 闪; it never switches off. A seat with no
    shown hero has no kingdom to compare, so 鏖战 waits until every living seat has one."""
    s = ctx.state
    hg = s["hg"]
    if hg["aozhan"] == 1:
        hg["aozhan"] = 2
        say(ctx, "hg_aozhan")
        return
    if hg["aozhan"]:
        return
    alive = R.living(s)
    cap = 4 if s["n"] >= 7 else 3
    ks = [MODE.kingdom(s, i) for i in alive]
    if len(alive) <= cap and None not in ks and len(set(ks)) == len(ks):
        hg["aozhan"] = 1
        say(ctx, "hg_aozhan_next")


def aozhan(state: State) -> bool:
    return R.mode_name(state) == MODE.name and state["hg"]["aozhan"] == 2


@HEGEMONY.modifier("card_blocked", "hg.aozhan_tao")
def _no_tao(state: State, value: bool, args: dict[str, Any]) -> bool:
    """In 鏖战 a 桃 is no heal: it is only played as 杀 or 闪 (the conversions below)."""
    return value or (args["name"] == "tao" and aozhan(state))


for _as in ("sha", "shan"):
    skills.conversion(skills.Conversion(
        f"aozhan_{_as}", "aozhan", _as, lambda state, seat, cid: card(cid).name == "tao",
        gate=lambda state, seat: aozhan(state)), HEGEMONY)


def _spend_zhulian(ctx: Ctx, seat: int) -> None:
    ctx.state["players"][seat]["marks"]["zhulian"] -= 1
    say(ctx, "hg_mark_use", who=who(seat), mark=key_ref("sanguosha.mark.zhulian"))


skills.conversion(skills.Conversion(
    "mark_zhulian_tao", "mark_zhulian", "tao", lambda state, seat, cid: False, count=0,
    gate=_has_mark("zhulian"), label="opt.zhulian_tao", spend=_spend_zhulian), HEGEMONY)


# -- the mode's flow --------------------------------------------------------------------------

modes.install(MODE)
__all__ = ["MODE", "HegemonyMode", "yes_no"]
