"""What each seat may see, request prompts, and status lines.

Public: HP, equipment, judgement areas, hand *sizes*, the lord's role and the roles of the dead
(everyone's once the game is over), the cards on the table and the top of the discard pile,
whose turn and phase, each seat's distance from the current player, the public log. A response
window is shown as "waiting for responses" without the seats asked (only a question of one seat
names it, and that seat is known anyway: the target of a 杀, the player whose turn it is).
Private (``"you"``): the seat's hand, its role, and the question it is asked now.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engines.base import Msg, View, key_ref
from engines.flow import Ask, Flow
from engines.sanguosha import rules as R
from engines.sanguosha.data import card
from engines.sanguosha.rules import m, who

State = dict[str, Any]


def card_json(cid: str) -> dict[str, Any]:
    """A face-up card as views show it; its type (basic, trick, delayed, equip) comes from the
    deck's data, so a picture colours it without a copy of the deck."""
    c = card(cid)
    out = {"id": cid, "name": c.name, "suit": c.suit, "rank": c.rank, "type": c.type}
    if c.nature:  # 火杀 / 雷杀: a 杀 (name) with its face and nature
        out.update(face=c.face, nature=c.nature)
    return out


#: Ask kind → its request text from the ask's info, registered beside what asks it (a skill's
#: own question: ``skills_*.py``), so a new hero does not touch this module.
PROMPTS: dict[str, Callable[[dict[str, Any]], Msg]] = {}


def prompt(kind: str) -> Callable[[Callable[[dict[str, Any]], Msg]], Callable[[dict[str, Any]], Msg]]:
    """Decorator registering the request text of asks of ``kind``."""
    def wrap(fn: Callable[[dict[str, Any]], Msg]) -> Callable[[dict[str, Any]], Msg]:
        if kind in PROMPTS:
            raise ValueError(f"prompt for {kind} registered twice")
        PROMPTS[kind] = fn
        return fn
    return wrap


def ask_prompt(ask: Ask) -> Msg:
    """The request text of an ask (what the seat is asked)."""
    info = ask.info
    k = ask.kind
    if k in PROMPTS:
        return PROMPTS[k](info)
    if k in ("need_shan", "need_sha"):
        if info.get("for") is not None and info.get("skill"):
            return m("req.lord_help", skill=key_ref(f"sanguosha.skill.{info['skill']}"), who=who(info["for"]),
                     card=R.cname(k[5:]))
        return m(f"req.{k}", card=R.cname(info.get("card", "sha")), user=who(info.get("user")))
    if k == "skill":
        return m("req.skill", skill=key_ref(f"sanguosha.skill.{info['skill']}"))
    if k == "nullify":
        about = info["about"]
        return m("req.nullify", card=R.cname(about["name"]), target=who(about["target"]),
                 n=info["count"])
    if k == "peach":
        return m("req.peach", who=who(info["dying"]), need=info["need"])
    if k == "discard":
        return m("req.discard", n=info["n"])
    if k == "jiedao":
        return m("req.jiedao", victim=who(info["victim"]), user=who(info["user"]))
    if k in ("pick", "qinglong", "guanshi", "hanbing", "qilin", "cixiong"):
        return m(f"req.{k}", target=who(info["target"]))
    if k == "cixiong_choice":
        return m("req.cixiong_choice", user=who(info["user"]))
    return m(f"req.{k}")


def _offer(state: State, seat: int) -> list[str]:
    """The heroes offered to ``seat`` while it chooses, in option order (its own view only: the
    hero choice is secret), so a reader of the view (the AI) needs no button labels."""
    if "hg" in state:  # hegemony: the seven (or five) heroes dealt, while they are chosen
        from engines.sanguosha.hegemony import offer_of as hg_offer

        return hg_offer(state, seat)
    from engines.sanguosha.setup import offer_of

    return offer_of(state, seat)


def _role(state: State, seat: int) -> str | None:
    return R.mode_of(state).public_allegiance(state, seat)  # type: ignore[no-any-return]


def build(state: State, seat: int | None, *, distances: bool = True) -> View:
    """``seat``'s view (the public table for None). ``distances=False`` leaves out each seat's
    distance from the seat whose turn it is (None), for the AI: it judges range through the
    token walk, and the distances were a third of building its view."""
    turn = state["turn"]
    players = []
    for i, p in enumerate(state["players"]):
        players.append({
            "seat": i, "hero": p["hero"], "kingdom": p.get("kingdom"), "gender": p.get("gender"),
            "skills": list(p.get("skills", ())), "hp": p["hp"], "max": p["max"], "alive": p["alive"],
            "role": _role(state, i), "hand": len(p["hand"]),
            "equip": {slot: card_json(c) if c else None for slot, c in p["equip"].items()},
            "judge": [dict(card_json(cid), **{"as": name}) for cid, name in p["judge"]],
            "distance": (R.distance(state, turn, i) if distances and p["alive"] and turn is not None
                         and state["players"][turn]["alive"] else None),
        })
        if p.get("piles"):  # cards on its hero (周泰's 创): public
            players[-1]["piles"] = {k: [card_json(c) for c in v] for k, v in p["piles"].items()}
        if p.get("chained"):  # 铁索连环
            players[-1]["chained"] = True
        if "heroes" in p:  # a two-hero seat: main and deputy, a hidden one as null
            players[-1]["heroes"] = [h["id"] if h["shown"] else None for h in p["heroes"]]
        if "marks" in p:  # hegemony: markers held, 叠置
            players[-1]["marks"] = {k: v for k, v in p["marks"].items() if v}
            players[-1]["stacked"] = bool(p.get("stacked"))
    asks = Flow.asks(state)
    waiting = None
    if asks:
        first = asks[0]
        waiting = {"kind": first.kind, "window": first.mode != "one",
                   "seat": first.seat if first.mode == "one" else None, "short": first.short}
    view: View = {
        "game": "sanguosha",
        "heroes": state["heroes"],
        "round": state["round"],
        "turn": turn,
        "phase": state["phase"],
        "lord": state["lord"],
        "players": players,
        "deck": len(state["deck"]),
        "discard": len(state["discard"]),
        "discard_top": [card_json(c) for c in state["discard"][-5:]],
        "table": [card_json(c) for c in state["proc"]],
        "waiting": waiting,
        "stack": _public_stack(state),
        "log": list(state["log"]),
        "acts": [list(row) for row in state["acts"]],
        "winners": list(state["winners"]) if state["winners"] is not None else None,
    }
    if "hg" in state:  # hegemony: 鏖战 (0 off, 1 from the next turn, 2 on)
        view["aozhan"] = state["hg"]["aozhan"]
    if seat is not None and 0 <= seat < state["n"]:
        p = state["players"][seat]
        mine = Flow.ask_of(state, seat)
        view["you"] = {
            "seat": seat,
            "role": R.mode_of(state).own_allegiance(state, seat),
            **({"heroes": [dict(h) for h in p["heroes"]]} if "heroes" in p else {}),
            **({"peeks": [dict(k) for k in p["peeks"]]} if p.get("peeks") else {}),
            **({"offer": offer} if (offer := _offer(state, seat)) else {}),
            "hand": [card_json(c) for c in p["hand"]],
            "ask": ({"kind": mine.kind, "info": mine.info, "prompt": ask_prompt(mine).to_json(),
                     "default": list(mine.default) if mine.default else None}
                    if mine else None),
        }
    return view


_PUBLIC_FRAMES = {"use": ("user", "name"), "effect": ("user", "name", "target"),
                  "dying": ("seat",), "judge": ("seat", "why"), "damage": ("src", "dst", "n")}


def _public_stack(state: State) -> list[dict[str, Any]]:
    """What is resolving, outermost first: card uses, effects, judgements, dying (all public)."""
    out = []
    for f in state["flow"]["stack"]:
        keys = _PUBLIC_FRAMES.get(f["k"])
        if keys:
            out.append({"k": f["k"], **{k: f[k] for k in keys}})
    return out


def describe(view: View) -> list[Msg]:
    lines: list[Msg] = []
    if view["winners"] is not None:
        return [m("desc.over", n=len(view["winners"]))]
    if view["turn"] is not None:
        lines.append(m("desc.turn", who=who(view["turn"]), phase=key_ref(f"sanguosha.phase.{view['phase'] or 'prepare'}"),
                       round=view["round"]))
    w = view["waiting"]
    if w:
        lines.append(m("desc.waiting") if w["seat"] is None else m("desc.waiting_for", who=who(w["seat"])))
    for p in view["players"]:
        role = key_ref(f"sanguosha.role.{p['role']}") if p["role"] else key_ref("sanguosha.role.hidden")
        key = "desc.seat" if p["alive"] else "desc.seat_dead"
        name: Any = who(p["seat"])
        if p.get("kingdom"):  # a standard hero: "Alice (Zhuge Liang)"
            name = key_ref("sanguosha.desc.with_hero", who=name, hero=key_ref(f"sanguosha.hero.{p['hero']}"))
        lines.append(m(key, who=name, hp=p["hp"], max=p["max"], hand=p["hand"], role=role))
    return lines


def private_summary(view: View) -> list[Msg]:
    you = view.get("you")
    if not you:
        return []
    lines = [m("private.role", role=key_ref(f"sanguosha.role.{you['role']}"))]
    me = view["players"][you["seat"]]
    if me.get("kingdom"):
        lines.append(m("private.hero", hero=key_ref(f"sanguosha.hero.{me['hero']}"),
                       kingdom=key_ref(f"sanguosha.kingdom.{me['kingdom']}")))
        for sk in me["skills"]:
            lines.append(m("private.skill", skill=key_ref(f"sanguosha.skill.{sk}"),
                           desc=key_ref(f"sanguosha.skill_desc.{sk}")))
    for c in you["hand"]:
        lines.append(m("private.card", card=R.cname(c.get("face") or c["name"]), sr=R.card_label(c["id"])))
    if you["ask"]:
        lines.append(Msg.from_json(you["ask"]["prompt"]))
    return lines
