"""The token walk: which tokens a seat may choose next for its open ask.

One function per ask kind returns the next :class:`Step`; :func:`validate` walks a whole action
through the same functions, so the buttons, the AI's move list and ``apply`` agree by
construction. Only legal targets are ever offered (distance, range, the one-杀 limit, a
judgement area without a card of the same name...).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engines.base import EngineError, Msg, Option, Step, key_ref
from engines.flow import Ask, Flow
from engines.sanguosha import cards
from engines.sanguosha import rules as R
from engines.sanguosha.data import card, kind_of
from engines.sanguosha.frames import ACTIVE, CONVERT, LORD_ASK, default_targets
from engines.sanguosha.rules import m, who
from engines.sanguosha.skills import convertible
from engines.tokens import ascii_int

State = dict[str, Any]


def card_opt(cid: str) -> Option:
    c = card(cid)
    return Option(cid, m("opt.card", card=R.cname(c.shown), sr=R.card_label(cid)),
                  hint="danger" if c.red else "")


def seat_opt(state: State, seat: int, src: int) -> Option:
    return Option(str(seat), m("opt.seat", who=who(seat), d=R.distance(state, src, seat),
                               hp=state["players"][seat]["hp"]))


PASS_OPT = Option("pass", m("opt.pass"))


def _named(state: State, seat: int, name: str) -> list[str]:
    if R.blocked(state, name):
        return []
    return [c for c in state["players"][seat]["hand"] if card(c).name == name]


# -- play phase -------------------------------------------------------------------------------

#: The cards a conversion may make in the play phase, in option order (a skill module adds the
#: card its conversion makes there, e.g. 度势's 以逸待劳).
PLAY_AS: list[str] = ["sha", "guohe", "lebu"]

def target_choices(state: State, seat: int, name: str, cids: list[str], chosen: list[int]) -> tuple[list[int], bool]:
    """(seats that may be added as the next target, whether ``chosen`` is already enough): the
    card's own target rule (``cards.CardDef.targets``) over the living others it may target,
    judged with the used cards out of the equipment (rules edition 4)."""
    if cids and R.rules_edition(state) >= 4:
        state = R.without_equipped(state, seat, cids)
    others = [s for s in R.living(state, seat + 1) if s != seat and s not in chosen
              and R.can_target(state, seat, s, name)]
    pick = cards.of(name).targets
    if pick is None:
        return [], True
    return pick(state, seat, cids, chosen, others)


def usable(state: State, seat: int, cid: str) -> bool:
    """May ``seat`` use this hand card now, in its play phase?"""
    return usable_as(state, seat, card(cid).name, [cid])


def usable_as(state: State, seat: int, name: str, cids: list[str]) -> bool:
    """May ``seat`` use ``cids`` as a ``name`` now, in its play phase?"""
    d = cards.of(name)
    if not d.usable or (d.can_use is not None and not d.can_use(state, seat)) or R.blocked(state, name, seat):
        return False
    if card_kind(name) == "equip" or not needs_target(name):
        return True
    cand, done = target_choices(state, seat, name, cids, [])
    return bool(cand) or done


def card_kind(name: str) -> str:
    return kind_of(name)


def _conv_cards(state: State, seat: int, token: str) -> list[str]:
    return convertible(state, seat, CONVERT[token])


def conv_options(state: State, seat: int, as_name: str, play: bool = False) -> list[Option]:
    """Options for the seat's conversions into ``as_name`` (武圣, 龙胆 …) that have a card now;
    in the play phase only those with a card that may really be used."""
    out = []
    for token, conv in CONVERT.items():
        if conv.as_name != as_name:
            continue
        cards = _conv_cards(state, seat, token)
        if play:
            cards = [c for c in cards if usable_as(state, seat, as_name, [c])]
        if (len(cards) >= conv.count and cards) or (conv.count == 0 and _cardless_ok(state, seat, conv, play)):
            label = m(conv.label) if conv.label else m("opt.convert", skill=_skill_ref(conv.skill),
                                                       card=R.cname(as_name))
            out.append(Option(token, label))
    return out


def _skill_ref(skill: str) -> dict[str, Any]:
    return key_ref(f"sanguosha.skill.{skill}")


def _conv_allowed(state: State, seat: int, token: str, play: bool) -> list[str]:
    """The cards the conversion ``token`` may use now (in the play phase: only really usable ones)."""
    conv = CONVERT[token]
    cards = _conv_cards(state, seat, token)
    if play:
        cards = [c for c in cards if usable_as(state, seat, conv.as_name, [c])]
    if conv.count == 0:  # no card (珠联璧合 as 桃): its gate alone says whether it may be used
        if not _cardless_ok(state, seat, conv, play):
            raise EngineError("sanguosha.err.illegal")
        return []
    if len(cards) < conv.count or not cards:
        raise EngineError("sanguosha.err.illegal")
    return cards


def _cardless_ok(state: State, seat: int, conv: Any, play: bool) -> bool:
    """A conversion of no card (珠联璧合 as 桃): its gate, the card not blocked (鏖战), usable now."""
    return bool(conv.gate and conv.gate(state, seat)) and not R.blocked(state, conv.as_name) \
        and (not play or usable_as(state, seat, conv.as_name, []))


def _conv_path(state: State, seat: int, path: list[str], play: bool = False) -> list[str] | None:
    """Check ``[token, card…]`` of a conversion; returns its physical cards once all ``count``
    are chosen (None while more are to be chosen)."""
    conv = CONVERT[path[0]]
    cards = _conv_allowed(state, seat, path[0], play)
    picked = path[1:1 + conv.count]
    if len(set(picked)) != len(picked) or any(c not in cards for c in picked):
        raise EngineError("sanguosha.err.illegal")
    return picked if len(picked) == conv.count else None


def _conv_pick(state: State, seat: int, path: list[str], play: bool = False) -> Step:
    """The next card of a conversion to choose."""
    conv = CONVERT[path[0]]
    prompt = m(conv.prompt) if conv.prompt else m("step.convert", skill=_skill_ref(conv.skill),
                                                  card=R.cname(conv.as_name))
    picked = path[1:]
    return Step(prompt, [card_opt(c) for c in _conv_allowed(state, seat, path[0], play) if c not in picked])


def _conv_step(state: State, seat: int, path: list[str], prompt: Msg) -> Step:
    """A response by conversion: ``[token, card…]``."""
    got = _conv_path(state, seat, path)
    if got is None:
        return _conv_pick(state, seat, path)
    _exact(path[1 + len(got):], 0)
    return Step(prompt, [], complete=True)


def needs_target(name: str) -> bool:
    return cards.of(name).targets is not None


#: Cards a conversion may make in the play phase, offered first and in this order (identity
#: mode's three; a skill may append its card, as 连环 铁索连环 and 火计 火攻 do).
PLAY_AS: list[str] = ["sha", "guohe", "lebu"]


def _play_conversions() -> list[str]:
    """The cards a conversion may make in the play phase: :data:`PLAY_AS`, then whatever else a
    skill converts into (桃 by 珠联璧合, 兵粮寸断 by 断粮 …), in registration order; a card that
    is never used in the play phase (闪) offers nothing."""
    names = list(PLAY_AS)
    for conv in CONVERT.values():
        if conv.as_name not in names:
            names.append(conv.as_name)
    return names


#: The same list under the name another branch used.
PLAY_CONVERSIONS = PLAY_AS


def _play(state: State, seat: int, path: list[str]) -> Step:
    p = state["players"][seat]
    if not path:
        opts = [card_opt(c) for c in p["hand"] if usable(state, seat, c)]
        for name in _play_conversions():
            if name in cards.DEFS:  # a deck's card not loaded: nothing to convert into
                opts += conv_options(state, seat, name, play=True)
        opts += [Option(k, m("opt.skill", skill=_skill_ref(k))) for k, a in ACTIVE.items()
                 if a.allowed(state, seat)]
        if _recastable(state, seat):
            opts.append(Option("recast", m("opt.recast")))
        opts.append(Option("end", m("opt.end"), hint="primary"))
        return Step(m("step.play"), opts)
    head = path[0]
    if head == "end":
        _exact(path, 1)
        return Step(m("step.play"), [], complete=True)
    if head == "recast":  # 重铸: ["recast", card]
        return choose_one(m("step.recast"), [card_opt(c) for c in _recastable(state, seat)], path[1:])
    if head in ACTIVE:
        act = ACTIVE[head]
        if not act.allowed(state, seat):
            raise EngineError("sanguosha.err.illegal")
        return act.step(state, seat, path[1:])
    if head in CONVERT:
        got = _conv_path(state, seat, path, play=True)
        if got is None:
            return _conv_pick(state, seat, path, play=True)
        name, cids, rest = CONVERT[head].as_name, got, path[1 + len(got):]
    else:
        if head not in p["hand"] or not usable(state, seat, head):
            raise EngineError("sanguosha.err.illegal")
        name, cids, rest = card(head).name, [head], path[1:]
    if not needs_target(name):
        _exact(rest, 0)
        return Step(m("step.play"), [], complete=True)
    chosen = [_seat_token(t) for t in rest]
    for i in range(len(chosen)):
        cand, _ = target_choices(state, seat, name, cids, chosen[:i])
        if chosen[i] not in cand:
            raise EngineError("sanguosha.err.illegal")
    cand, done = target_choices(state, seat, name, cids, chosen)
    key = "step.victim" if name == "jiedao" and len(chosen) == 1 else "step.target"
    return Step(m(key, card=R.cname(name)), [seat_opt(state, s, seat) for s in cand], complete=done)


def _recastable(state: State, seat: int) -> list[str]:
    """The hand cards that may be recast (重铸) now (``CardDef.recast``)."""
    return [c for c in state["players"][seat]["hand"] if cards.of(card(c).name).recast]


def _seat_token(tok: str) -> int:
    """A target seat typed or clicked: ASCII digits only ('²'.isdigit() is true, int('²') raises)."""
    seat = ascii_int(tok)
    if seat is None:
        raise EngineError("sanguosha.err.illegal")
    return seat


def _exact(rest: list[str], n: int) -> None:
    if len(rest) != n:
        raise EngineError("sanguosha.err.illegal")


# -- other asks -------------------------------------------------------------------------------

def _discard(state: State, seat: int, path: list[str], ask: Ask) -> Step:
    hand = state["players"][seat]["hand"]
    n = ask.info["n"]
    if len(set(path)) != len(path) or any(c not in hand for c in path) or len(path) > n:
        raise EngineError("sanguosha.err.illegal")
    if len(path) == n:
        return Step(m("step.discard", n=n - len(path)), [], complete=True)
    return Step(m("step.discard", n=n - len(path)), [card_opt(c) for c in hand if c not in path])


def _one_card(cards: list[str], prompt: Msg, path: list[str], extra: list[Option] | None = None,
              allow_pass: bool = True) -> Step:
    opts = [card_opt(c) for c in cards] + (extra or []) + ([PASS_OPT] if allow_pass else [])
    return choose_one(prompt, opts, path)


def choose_one(prompt: Msg, opts: list[Option], path: list[str]) -> Step:
    """A step that is one token among ``opts`` and then complete."""
    if not path:
        return Step(prompt, opts)
    if path[0] not in {o.value for o in opts}:
        raise EngineError("sanguosha.err.illegal")
    _exact(path[1:], 0)
    return Step(prompt, [], complete=True)


def _sha_like(state: State, seat: int, path: list[str], prompt: Msg, ask: Ask | None = None) -> Step:
    """A 杀 from hand, two cards via 丈八蛇矛, or pass."""
    if path and path[0] in CONVERT and CONVERT[path[0]].as_name == "sha":
        return _conv_step(state, seat, path, prompt)
    extra = conv_options(state, seat, "sha") + lord_options(state, seat, "sha", ask)
    return _one_card(_named(state, seat, "sha"), prompt, path, extra)


def lord_options(state: State, seat: int, what: str, ask: Ask | None) -> list[Option]:
    """护驾 / 激将 while answering a 闪 / 杀 request (once per request)."""
    if ask is None:
        return []
    return [Option(k, m("opt.skill", skill=_skill_ref(k))) for k, fn in LORD_ASK.items()
            if fn.offered(state, seat, what, ask.kind, ask.info)]


def _response(state: State, seat: int, path: list[str], prompt: Msg, what: str, ask: Ask) -> Step:
    """A 闪 (or 桃) from hand, by a conversion, or through a lord skill; or pass."""
    if path and path[0] in CONVERT and CONVERT[path[0]].as_name == what:
        return _conv_step(state, seat, path, prompt)
    extra = conv_options(state, seat, what) + lord_options(state, seat, what, ask)
    return _one_card(_named(state, seat, what), prompt, path, extra)


#: ``pick`` reasons that choose among hand and equipment only, never the judgement area (skills
#: whose text says 手牌或装备区 add theirs).
PICK_NO_JUDGE = {"hanbing", "fankui", "lieren"}


def _peach(state: State, seat: int, path: list[str], prompt: Msg, ask: Ask) -> Step:
    """A 桃 for whoever is dying; the dying seat may also use its own 酒 (the 国战 deck)."""
    jiu = _named(state, seat, "jiu") if seat == ask.info["dying"] else []
    if path and path[0] in jiu:
        return choose_one(prompt, [card_opt(path[0])], path)
    step = _response(state, seat, path, prompt, "tao", ask)
    if jiu and not path:  # before "pass", which stays last
        return Step(step.prompt, step.options[:-1] + [card_opt(c) for c in jiu] + step.options[-1:])
    return step


def _nullify(state: State, seat: int, path: list[str], prompt: Msg, ask: Ask) -> Step:
    """A 无懈可击 (``[card]``, or a conversion into one: 看破), a 无懈可击·国 (``[card, "one"]``: this target only; ``[card,
    "kingdom"]``: every target of its kingdom, offered against a card's own effect on a target
    of a known kingdom), or pass."""
    guo = _named(state, seat, "wuxie_guo")
    if path and path[0] in guo:
        opts = [Option("one", m("opt.wuxie_one"))]
        about = ask.info["about"]
        if ask.info["count"] == 0 and about["user"] is not None and R.kingdom(state, about["target"]):
            opts.append(Option("kingdom", m("opt.wuxie_kingdom",
                                            kingdom=key_ref(f"sanguosha.kingdom.{R.kingdom(state, about['target'])}"))))
        return choose_one(m("step.wuxie_guo"), opts, path[1:])
    step = _response(state, seat, path, prompt, "wuxie", ask)  # a 无懈可击 or a conversion (看破)
    if guo and not path:  # before "pass", which stays last
        return Step(step.prompt, step.options[:-1] + [card_opt(c) for c in guo] + step.options[-1:])
    return step


def _pick(state: State, seat: int, path: list[str], ask: Ask) -> Step:
    target = ask.info["target"]
    tp = state["players"][target]
    opts = [Option("hand", m("opt.hand", n=len(tp["hand"])))] if tp["hand"] else []
    opts += [card_opt(c) for c in tp["equip"].values() if c]
    if ask.info["why"] not in PICK_NO_JUDGE:
        opts += [card_opt(e[0]) for e in tp["judge"]]
    return choose_one(m("step.pick", target=who(target)), opts, path)


def _guanshi(state: State, seat: int, path: list[str]) -> Step:
    axe = state["players"][seat]["equip"]["weapon"]
    mine = [c for c in R.all_cards(state, seat, judge=False) if c != axe]
    return two_or_pass(mine, path, m("step.guanshi"), PASS_OPT)


def two_or_pass(pool: list[str], path: list[str], prompt: Msg, pass_opt: Option) -> Step:
    """Two distinct cards of ``pool`` (贯石斧, 刚烈's discard), or ``pass`` first."""
    if path == ["pass"]:
        return Step(prompt, [], complete=True)
    if len(set(path)) != len(path) or any(c not in pool for c in path) or len(path) > 2:
        raise EngineError("sanguosha.err.illegal")
    if len(path) == 2:
        return Step(prompt, [], complete=True)
    opts = [card_opt(c) for c in pool if c not in path]
    return Step(prompt, opts + ([] if path else [pass_opt]))


def yes_no(path: list[str], prompt: Msg, yes: str = "yes") -> Step:
    opts = [Option(yes, m(f"opt.{yes}")), PASS_OPT]
    if not path:
        return Step(prompt, opts)
    if path[0] not in (yes, "pass"):
        raise EngineError("sanguosha.err.illegal")
    _exact(path[1:], 0)
    return Step(prompt, [], complete=True)


def _req_prompt(ask: Ask) -> Msg:
    from engines.sanguosha.views import ask_prompt

    return ask_prompt(ask)


Tree = Callable[[State, int, list[str], Ask], Step]


def step(state: State, seat: int, path: list[str]) -> Step:
    ask = Flow.ask_of(state, seat)
    if ask is None:
        raise EngineError("sanguosha.err.not_asked")
    kind = ask.kind
    prompt = _req_prompt(ask)
    if kind == "play":
        return _play(state, seat, path)
    if kind == "discard":
        return _discard(state, seat, path, ask)
    if kind == "need_shan":
        return _response(state, seat, path, prompt, "shan", ask)
    if kind in ("need_sha", "jiedao", "qinglong"):
        return _sha_like(state, seat, path, prompt, ask)
    if kind == "nullify":
        return _nullify(state, seat, path, prompt, ask)
    if kind == "peach":
        return _peach(state, seat, path, prompt, ask)
    if kind == "pick":
        return _pick(state, seat, path, ask)
    if kind == "wugu":
        return _one_card([c for c in ask.info["pool"] if c in state["proc"]], prompt, path, allow_pass=False)
    if kind == "guanshi":
        return _guanshi(state, seat, path)
    if kind in ("hanbing", "cixiong"):
        return yes_no(path, prompt)
    if kind == "qilin":
        tp = state["players"][ask.info["target"]]["equip"]
        return _one_card([c for c in (tp["plus"], tp["minus"]) if c], prompt, path)
    if kind == "cixiong_choice":
        return _one_card(list(state["players"][seat]["hand"]), prompt, path)
    if kind == "skill":
        return yes_no(path, prompt)
    if kind in STEPS:
        return STEPS[kind](state, seat, path, ask)
    raise EngineError("sanguosha.err.illegal")


#: Token walks of the skills' own asks (kind → step function), filled by the skill modules.
STEPS: dict[str, Tree] = {}


def validate(state: State, seat: int, action: list[str],
             walk: Callable[[list[str]], Step] | None = None) -> None:
    """Raise EngineError unless ``action`` is a complete legal answer of ``seat``. ``walk(path)``
    gives the steps when they may be known already (``walks.validate``: the AI's)."""
    walk = walk or (lambda path: step(state, seat, path))
    if not action:
        raise EngineError("sanguosha.err.illegal")
    for i in range(len(action)):
        st = walk(action[:i])
        if action[i] not in {o.value for o in st.options}:
            raise EngineError("sanguosha.err.illegal")
    if not walk(action).complete:
        raise EngineError("sanguosha.err.incomplete")


def auto_targets(state: State, seat: int, name: str) -> list[int]:
    return default_targets(state, seat, name)
