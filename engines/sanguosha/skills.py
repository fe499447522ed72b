"""The hero skill mechanism, on the same trigger registry as the equipment.

A skill is never a special case in card code. It is one or more of:

- **triggered**: a handler on a timing point (``Pack.on`` of its hero pack) whose ``can`` checks
  :func:`rules.has_skill`; an optional one asks its owner a yes/no question first
  (:func:`ask_skill`, kind ``skill``, with a default: ``yes`` for skills that can only help,
  ``pass`` otherwise), so a silent player gets the sensible answer when the window closes;
- **a modifier**: distance, attack range, 杀 limit, who may be targeted (``targetable``),
  damage, healing (``Pack.modifier``);
- **a conversion** (:class:`Conversion`: 武圣, 龙胆, 倾国, 急救, 奇袭, 国色): a card used or
  played as another. ``choices.py`` offers it wherever the converted card could be used or
  played (play phase, a 闪/杀 request, a dying window), as the token ``[skill, card, …]``;
- **active** (:class:`Active`: 制衡, 仁德, 反间 …): a play-phase option ``[skill, …]`` whose
  token walk and effect the skill supplies.

Skills that react to a plain state change wherever it happens (连营: the last hand card is
gone; 枭姬: an equipped card is gone) register in ``rules.WATCH``; ``rules.take`` queues a timing
point and :func:`drain_queue` (the flow's idle hook) fires it at the next frame boundary.

The kingdom modules (``skills_wei`` …) register the 40 skills on import.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engines.base import Step, key_ref
from engines.flow import Ctx, Pack
from engines.sanguosha import rules as R
from engines.sanguosha.frames import ACTIVE, CONVERT, LORD_ASK, PASS
from engines.sanguosha.packs import CORE, STANDARD_HEROES
from engines.sanguosha.rules import say, who

State = dict[str, Any]
Frame = dict[str, Any]
YES = ("yes",)


@dataclass(frozen=True)
class Conversion:
    """``count`` cards used or played as one ``as_name`` (token ``[token, card…, targets…]``).
    ``ok(state, seat, cid)`` says which physical cards qualify; ``equip`` lets equipped cards be
    used too; ``when(state, seat)`` limits it (急救: outside your own turn). A hero skill's
    conversion is gated by :func:`rules.has_skill`; an item's (丈八蛇矛: two hand cards as a 杀)
    by its own ``gate``. ``label`` / ``prompt``: catalog keys of its option and of the card
    choice, when not the generic "use <skill> as <card>"."""

    token: str
    skill: str
    as_name: str
    ok: Callable[[State, int, str], bool]
    equip: bool = False
    when: Callable[[State, int], bool] | None = None
    count: int = 1
    gate: Callable[[State, int], bool] | None = None
    label: str = ""
    prompt: str = ""
    #: What a use costs besides cards (珠联璧合 as 桃: the marker; ``count`` 0), paid as it is used.
    spend: Callable[[Ctx, int], None] | None = None
    #: Where its cards come from when not the seat's own (天兵 on 黄巾天兵符): replaces hand/equip.
    cards: Callable[[State, int], list[str]] | None = None


@dataclass(frozen=True)
class Active:
    """A play-phase skill: ``can`` (offer it now?), ``step`` (the token walk after the skill's
    own token), ``start`` (push the frames that resolve it)."""

    skill: str
    can: Callable[[State, int], bool]
    step: Callable[[State, int, list[str]], Step]
    start: Callable[[Ctx, int, list[str]], None]
    #: Who may use it when it is no hero's skill (a hegemony marker): replaces ``has_skill``.
    gate: Callable[[State, int], bool] | None = None

    def allowed(self, state: State, seat: int) -> bool:
        ok = self.gate(state, seat) if self.gate else R.has_skill(state, seat, self.skill, hidden=True)
        return ok and self.can(state, seat)


def conversion(conv: Conversion, pack: Pack = STANDARD_HEROES) -> Conversion:
    CONVERT[conv.token] = conv
    pack.provides.add(conv.skill)
    return conv


def active(act: Active, pack: Pack = STANDARD_HEROES) -> Active:
    ACTIVE[act.skill] = act
    pack.provides.add(act.skill)
    return act


def convertible(state: State, seat: int, conv: Conversion) -> list[str]:
    """The seat's cards that ``conv`` may turn into its card now (hand first, then equipment)."""
    allowed = conv.gate(state, seat) if conv.gate else R.has_skill(state, seat, conv.skill, hidden=True)
    if not allowed or (conv.when and not conv.when(state, seat)):
        return []
    p = state["players"][seat]
    if conv.cards is not None:
        cards = conv.cards(state, seat)
    else:
        cards = list(p["hand"]) + ([c for c in p["equip"].values() if c] if conv.equip else [])
    return [c for c in cards if conv.ok(state, seat, c)]


def conversions_to(state: State, seat: int, as_name: str) -> list[Conversion]:
    """The seat's conversions into ``as_name`` that have a card to convert now."""
    return [c for c in CONVERT.values() if c.as_name == as_name and (
        len(convertible(state, seat, c)) >= c.count if c.count
        else bool(c.gate and c.gate(state, seat)) and not R.blocked(state, as_name))]


@CORE.modifier("can_respond", "skills")
def _skills_answer(state: State, value: bool, args: dict[str, Any]) -> bool:
    """A conversion into the asked card (龙胆, 武圣, 倾国, 急救 …) or the lord's 护驾 / 激将 is an
    answer, exactly where ``choices.py`` offers it: without this the service would pass at once
    for a 赵云 holding only a 杀 when a 闪 is asked."""
    if value:
        return True
    seat, kind = args["seat"], args["kind"]
    name = R.ANSWERED_BY.get(kind)
    if name is None:
        return False
    if conversions_to(state, seat, name):
        return True
    return any(la.offered(state, seat, name, kind, args["info"]) for la in LORD_ASK.values())


# -- optional triggered skills: a yes/no question with a default ------------------------------

def ask_skill(ctx: Ctx, f: Frame, seat: int, skill: str, *, default_yes: bool = False,
              **info: Any) -> None:
    """Ask ``seat`` whether it uses ``skill`` (kind ``skill``; ``yes`` / ``pass``). A skill that
    can only help defaults to yes, one that costs or chooses defaults to pass."""
    ctx.ask(f, [seat], "skill", default=YES if default_yes else PASS, short=True, window=True,
            info={"skill": skill, **info})


def said_yes(ctx: Ctx, f: Frame) -> bool:
    return ctx.take(f, "reply")["action"] == ["yes"]


def announce(ctx: Ctx, seat: int, skill: str) -> None:
    """The public line "X uses <skill>"."""
    say(ctx, "skill", who=who(seat), skill=skill_ref(skill))


def skill_ref(skill: str) -> dict[str, Any]:
    return key_ref(f"sanguosha.skill.{skill}")


# -- queued timing points (连营, 枭姬) ----------------------------------------------------------

def drain_queue(ctx: Ctx) -> bool:
    """The flow's idle hook: fire one queued timing point above the top frame (keeping the
    value that frame's child returned, which the queued trigger must not overwrite)."""
    queue = ctx.state.get("queued")
    if not queue:
        return False
    if not ctx.stack:
        queue.clear()
        return False
    timing, ev = queue.pop(0)
    below = ctx.stack[-1]
    f = ctx.push("deferred", t=timing, ev=ev, st="start")
    if "ret" in below:
        f["saved"] = [below.pop("ret")]
    return True


CORE.idle = drain_queue


@CORE.kind("deferred")
def _deferred(ctx: Ctx, f: Frame) -> None:
    if f["st"] == "start":
        f["st"] = "fired"
        ctx.fire(f["t"], f["ev"])
        return
    ctx.take(f)
    ctx.stack.pop()
    if "saved" in f and ctx.stack:
        ctx.stack[-1]["ret"] = f["saved"][0]


# -- losing HP (苦肉) ----------------------------------------------------------------------------

@CORE.kind("lose_hp")
def _lose_hp(ctx: Ctx, f: Frame) -> None:
    """Losing HP is not damage: no source, no damage triggers; below 1 HP the seat is dying. A flow
    that listens to ``before_lose_hp`` (黄巾天兵符) may cancel it first; one that does not never
    fires it, so its games step exactly as before."""
    s = ctx.state
    p = s["players"][f["seat"]]
    if f["st"] == "start" and R.flow_of(s).triggers.handlers("before_lose_hp"):
        f["st"] = "before"
        ctx.fire("before_lose_hp", {"seat": f["seat"], "n": f["n"]})
        return
    if f["st"] == "before" and ctx.take(f).get("cancel"):
        ctx.pop(f)
        return
    if f["st"] in ("start", "before"):
        p["hp"] -= f["n"]
        say(ctx, "lose_hp", who=who(f["seat"]), n=f["n"], hp=p["hp"])
        R.notice(s, "hp_lost", {"seat": f["seat"], "n": f["n"]})
        f["st"] = "dying"
        if p["hp"] < 1:
            ctx.push("dying", seat=f["seat"], src=None, st="start")
            return
    ctx.take(f)
    ctx.pop(f)



# -- lord skills that ask other heroes (护驾, 激将) ----------------------------------------------

@dataclass(frozen=True)
class LordAsk:
    """护驾 / 激将: the lord needs a ``what`` (闪 / 杀); the other living heroes of ``kingdom``
    are asked one by one in turn order from the lord's right; the first who plays one plays it
    for the lord."""

    skill: str
    what: str
    kingdom: str

    def helpers(self, state: State, seat: int) -> list[int]:
        return [s for s in R.living(state, seat + 1)
                if s != seat and state["players"][s].get("kingdom") == self.kingdom]

    def offered(self, state: State, seat: int, what: str, kind: str, info: dict[str, Any]) -> bool:
        """Whether ``seat`` may call this skill while asked (ask ``kind``/``info``) for a ``what``:
        its own 闪/杀 request, once per request, with a helper alive. The one rule both the
        options (``choices.lord_options``) and the "can answer" test (``can_respond``) use."""
        return (self.what == what and kind.startswith("need_") and not info.get("lord_asked")
                and R.has_skill(state, seat, self.skill) and bool(self.helpers(state, seat)))

    def __call__(self, ctx: Ctx, seat: int, what: str, keep: bool = False) -> None:
        announce(ctx, seat, self.skill)
        ctx.push("lordask", seat=seat, what=what, skill=self.skill, left=self.helpers(ctx.state, seat),
                 keep=keep, st="start")


def lord_asker(la: LordAsk, pack: Pack = STANDARD_HEROES) -> LordAsk:
    LORD_ASK[la.skill] = la
    pack.provides.add(la.skill)
    return la


@CORE.kind("lordask")
def _lordask(ctx: Ctx, f: Frame) -> None:
    """Ask the helpers in order (each a 闪/杀 request of its own, which their own skills and
    armour may answer); returns True (or, with ``keep``, the cards, left on the table for the
    lord's own use) when one played, else False."""
    s = ctx.state
    if "ret" in f:
        got = ctx.take(f)
        if got:
            ctx.pop(f, got)
            return
    while f["left"]:
        helper = f["left"].pop(0)
        if not R.alive(s, helper):
            continue
        ctx.push("need", seat=helper, what=f["what"], ignore_armor=False, keep=f["keep"],
                 reason={"card": f["what"], "user": f["seat"], "for": f["seat"], "skill": f["skill"],
                         "lord_asked": True}, st="start")
        return
    say(ctx, "lord_nobody", who=who(f["seat"]), skill=skill_ref(f["skill"]))
    ctx.pop(f, False)


# -- optional triggered skills in one frame ----------------------------------------------------

#: Ask kinds a skill's owner answers through the skill's own frame (鬼才, 突袭, 观星, 流离): a
#: real answer (not the ask's default) uses the skill, so it shows a hidden hero that has it
#: (``engine.apply`` → :func:`rules.reveal_for`), as a yes does for an optional skill.
ASK_SKILL: dict[str, str] = {"guicai": "guicai", "tuxi": "tuxi", "guanxing": "guanxing", "liuli": "liuli"}

#: skill → effect(ctx, frame, event) run after its owner said yes (may push frames).
EFFECT: dict[str, Callable[[Ctx, Frame, dict[str, Any]], None]] = {}


def _skill_trigger(timing: str, skill: str, seat_key: str, priority: int,
                   can: Callable[[Ctx, dict[str, Any]], bool] | None, pack: Pack,
                   start: Callable[[Ctx, dict[str, Any]], None]) -> Callable[[Callable[[Ctx, Frame, dict[str, Any]], None]],
                                                              Callable[[Ctx, Frame, dict[str, Any]], None]]:
    """Register ``skill``'s effect and its handler at ``timing`` for the seat ``event[seat_key]``
    (a hidden hero's too), which ``start``s it: what :func:`optional` and :func:`locked` share."""

    def wrap(effect: Callable[[Ctx, Frame, dict[str, Any]], None]) -> Callable[[Ctx, Frame, dict[str, Any]], None]:
        EFFECT[skill] = effect
        pack.provides.add(skill)

        def _can(ctx: Ctx, ev: dict[str, Any]) -> bool:
            return R.has_skill(ctx.state, ev.get(seat_key), skill, hidden=True) and (can is None or can(ctx, ev))

        def _run(ctx: Ctx, ev: dict[str, Any]) -> None:
            start(ctx, ev)

        pack.on(timing, skill, priority, can=_can)(_run)
        return effect

    return wrap


def optional(timing: str, skill: str, seat_key: str = "seat", *, priority: int = 0,
             can: Callable[[Ctx, dict[str, Any]], bool] | None = None,
             default_yes: bool = True, pack: Pack = STANDARD_HEROES,
             info: Callable[[Ctx, dict[str, Any]], dict[str, Any]] | None = None) -> Callable[[Callable[[Ctx, Frame, dict[str, Any]], None]],
                                                   Callable[[Ctx, Frame, dict[str, Any]], None]]:
    """Register an optional skill at ``timing`` for the seat ``event[seat_key]``: asked yes/no
    (default yes unless it costs something), then ``effect`` runs with the live event (which it
    may change, as 裸衣 changes the draw count). ``info(ctx, event)``: what the question shows
    besides the skill (鞬出: whose card), so a player and the AI can judge it."""

    def start(ctx: Ctx, ev: dict[str, Any]) -> None:
        f = ctx.push("optional", skill=skill, seat=ev[seat_key], dy=default_yes, st="start")
        if info is not None:
            f["info"] = info(ctx, ev)

    return _skill_trigger(timing, skill, seat_key, priority, can, pack, start)


def push_locked(ctx: Ctx, seat: int, skill: str, *, default_yes: bool = True) -> None:
    """A locked skill (锁定技) of ``seat`` applies now (its effect in :data:`EFFECT`): at once
    while its hero is shown; a hidden hero's is asked as a yes/no whose yes shows the hero (国战:
    a hidden hero's locked skill does not act, but its owner may show the hero when it would)."""
    shown = R.has_skill(ctx.state, seat, skill)
    ctx.push("optional", skill=skill, seat=seat, dy=default_yes, st="forced" if shown else "start")


def locked(timing: str, skill: str, seat_key: str = "seat", *, priority: int = 0,
           can: Callable[[Ctx, dict[str, Any]], bool] | None = None, default_yes: bool = True,
           pack: Pack = STANDARD_HEROES) -> Callable[[Callable[[Ctx, Frame, dict[str, Any]], None]],
                                                     Callable[[Ctx, Frame, dict[str, Any]], None]]:
    """Register a locked skill at ``timing`` for the seat ``event[seat_key]``, run through
    :func:`push_locked` (as :func:`optional` registers an optional one)."""
    return _skill_trigger(timing, skill, seat_key, priority, can, pack,
                          lambda ctx, ev: push_locked(ctx, ev[seat_key], skill, default_yes=default_yes))


@CORE.kind("optional")
def _optional(ctx: Ctx, f: Frame) -> None:
    if f["st"] == "start":
        f["st"] = "asked"
        ask_skill(ctx, f, f["seat"], f["skill"], default_yes=f["dy"], **f.get("info", {}))
        return
    if f["st"] in ("asked", "forced"):  # forced: a shown hero's locked skill (push_locked)
        if f["st"] == "asked" and not said_yes(ctx, f):
            ctx.pop(f)
            return
        R.reveal_for(ctx, f["seat"], f["skill"])  # a hidden hero's skill: the yes shows it
        announce(ctx, f["seat"], f["skill"])
        f["st"] = "effect"
        trigger = ctx.below(f)
        assert trigger is not None
        EFFECT[f["skill"]](ctx, f, trigger["ev"])
        return
    ctx.take(f)
    ctx.pop(f)
