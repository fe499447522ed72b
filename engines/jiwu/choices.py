"""The action tree: for a path of tokens, what may come next.

``step`` (buttons, the AI, the random player) and ``apply`` (validation) walk this one tree, so
whatever a front-end offers is exactly what ``apply`` accepts. Actions:

- set-up: ``start <region>`` (a black start region)
- a turn: ``play <card>``, ``all`` (play every card in hand that only gives 武力 / 银两),
  ``plan <计策>``, ``buy <market card|jiangnan|tieqi>``,
  ``deploy <slot>`` (1 武力), ``kill <slot|spy.<region>.<seat>>`` (3 武力), ``hit <general>``
  (3 武力, 1 damage), ``general <general> <slot>`` (1 武力, put a general on the board),
  ``move <general> <region>``, ``end``
- a card effect asking for a choice: ``<answer>`` or ``-`` (decline)
- a duel: ``atk`` (猛攻) / ``par`` (招架) / ``brk`` (破招), secretly and simultaneously
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engines.base import EngineError, Msg, Option, State
from engines.jiwu import rules as R
from engines.jiwu.data import card
from engines.jiwu.rules import DEPLOY_COST, KILL_COST, m

MOVES = ("atk", "par", "brk")
PILES = ("jiangnan", "tieqi")


@dataclass
class Node:
    prompt: Msg
    options: list[Option] = field(default_factory=list)
    complete: bool = False


def _card_opt(state: State, iid: str, commit: bool = True) -> Option:
    return Option(iid, m("opt.card", card=R.cref(state, iid), cost=card(R.cid(state, iid)).cost), commit=commit)


def _slot_opt(state: State, slot: str) -> Option:
    occ = state["slots"][slot]
    if occ is None:
        return Option(slot, m("opt.slot", where=R.where(slot), slot=slot), commit=True)
    owner = R.who(occ[0]) if occ[0] >= 0 else {"key": "jiwu.neutral"}
    return Option(slot, m("opt.slot_of", where=R.where(slot), slot=slot, owner=owner), commit=True)


def _target_opt(state: State, target: str) -> Option:
    if target.startswith("spy."):
        _, region, o = target.split(".")
        return Option(target, m("opt.spy_of", region=R.rref(region), owner=R.who(int(o))), commit=True)
    return _slot_opt(state, target)


def _region_opt(region: str) -> Option:
    return Option(region, m("opt.region", region=R.rref(region)), commit=True)


def _general_opt(state: State, gid: str, commit: bool = False) -> Option:
    owner = R.general_owner(state, gid)
    hp = state["players"][owner]["generals"][gid]["hp"]
    return Option(gid, m("opt.general", card=R.cref(state, gid), hp=hp), commit=commit)


def buyable(state: State, seat: int) -> list[str]:
    gold = state["players"][seat]["gold"]
    out = [i for i in state["market"] if card(R.cid(state, i)).cost <= gold]
    return out + [p for p in PILES if state["piles"][p] and card(p).cost <= gold]


def unplaced_generals(state: State, seat: int) -> list[str]:
    p = state["players"][seat]
    if p["power"] < DEPLOY_COST:
        return []
    return [g for g, v in p["generals"].items() if v["slot"] is None]


def movable(state: State, seat: int) -> list[str]:
    return [g for g in state["players"][seat]["generals"] if R.move_targets(state, seat, g)]


def _plain(effects: tuple[dict, ...] | list[dict]) -> bool:
    return all(e["op"] in ("power", "gold") or (e["op"] == "link" and _plain(e["then"])) for e in effects)


def plain_cards(state: State, seat: int) -> list[str]:
    """The hand's cards that only give 武力 / 银两 (联动 included) and are no general, in the
    order "play all" plays them: those with a 联动 last, so they find their partners."""
    hand = state["players"][seat]["hand"]
    plain = [i for i in hand if card(R.cid(state, i)).general is None and _plain(card(R.cid(state, i)).effects)]
    return sorted(plain, key=lambda i: any(e["op"] == "link" for e in card(R.cid(state, i)).effects))


def verbs(state: State, seat: int) -> dict[str, list[str]]:
    """Each turn verb with its first-token choices (only verbs with at least one)."""
    p = state["players"][seat]
    out = {
        "all": plain if len(plain := plain_cards(state, seat)) >= 2 else [],
        "play": list(p["hand"]),
        "plan": list(p["plans"]),
        "buy": buyable(state, seat),
        "deploy": R.deployable(state, seat) if p["power"] >= DEPLOY_COST else [],
        "kill": R.kill_targets(state, seat) if p["power"] >= KILL_COST else [],
        "hit": R.hit_targets(state, seat) if p["power"] >= KILL_COST else [],
        "general": [g for g in unplaced_generals(state, seat) if R.general_deploy_slots(state, seat)],
        "move": movable(state, seat),
    }
    return {k: v for k, v in out.items() if v}


def _first_opts(state: State, verb: str, items: list[str]) -> list[Option]:
    if verb in ("play", "plan"):
        return [_card_opt(state, i) for i in items]
    if verb == "buy":
        return [_card_opt(state, i) if i not in PILES else
                Option(i, m("opt.pile", card={"key": f"jiwu_names.card.{i}"}, cost=card(i).cost,
                            left=len(state["piles"][i])), commit=True) for i in items]
    if verb in ("deploy",):
        return [_slot_opt(state, s) for s in items]
    if verb == "kill":
        return [_target_opt(state, t) for t in items]
    if verb == "hit":
        return [_general_opt(state, g, commit=True) for g in items]
    return [_general_opt(state, g) for g in items]


def _turn(state: State, seat: int, path: list[str]) -> Node:
    vs = verbs(state, seat)
    if not path:
        opts = [Option(v, m(f"opt.verb.{v}", n=len(vs[v])), "primary", commit=True) if v == "all"
                else Option(v, m(f"opt.verb.{v}")) for v in vs]
        return Node(m("prompt.turn"), opts + [Option("end", m("opt.verb.end"), "danger", commit=True)])
    verb = path[0]
    if verb == "end" or (verb == "all" and "all" in vs):
        return _end(path[1:])
    if verb not in vs:
        raise _bad(verb)
    if len(path) == 1:
        return Node(m(f"prompt.{verb}"), _first_opts(state, verb, vs[verb]))
    if path[1] not in vs[verb]:
        raise _bad(path[1])
    if verb == "general":
        slots = R.general_deploy_slots(state, seat)
        if len(path) == 2:
            return Node(m("prompt.general_slot"), [_slot_opt(state, s) for s in slots])
        if path[2] not in slots:
            raise _bad(path[2])
        return _end(path[3:])
    if verb == "move":
        targets = R.move_targets(state, seat, path[1])
        if len(path) == 2:
            return Node(m("prompt.move_to"), [_region_opt(r) for r in targets])
        if path[2] not in targets:
            raise _bad(path[2])
        return _end(path[3:])
    return _end(path[2:])


def _effect(state: State, seat: int, path: list[str]) -> Node:
    e = state["queue"][0]
    answers = R.choices_for(state, seat, e)
    if not path:
        op = e["op"]
        if op in ("deploy", "supplant"):
            opts = [_slot_opt(state, s) for s in answers]
        elif op == "kill":
            opts = [_target_opt(state, t) for t in answers]
        elif op in ("spy", "recall"):
            opts = [_region_opt(r) for r in answers]
        elif op == "choose":
            opts = [Option(a, m("opt.choice", n=int(a) + 1, text=effects_ref(e["of"][int(a)])), commit=True)
                    for a in answers]
        else:
            opts = [_card_opt(state, i) for i in answers]
        decline = Option("-", m("opt.decline"), commit=True)
        return Node(m(f"prompt.effect.{op}", card=R.cref(state, e["src"])), opts + [decline])
    if path[0] != "-" and path[0] not in answers:
        raise _bad(path[0])
    return _end(path[1:])


def effects_ref(effects: list[dict]) -> dict:
    """A catalog reference spelling a list of effects (for 二选一 labels and the rules doc)."""
    parts = [effect_ref(e) for e in effects]
    if not parts:
        return {"key": "jiwu.fx.none"}
    out = parts[-1]
    for part in reversed(parts[:-1]):  # "a, b, c" as pair(a, pair(b, c))
        out = {"key": "jiwu.fx.pair", "params": {"a": part, "b": out}}
    return out


def effect_ref(e: dict) -> dict:
    op = e["op"]
    params = {k: v for k, v in e.items() if k in ("n", "max")}
    if op == "gain":
        params["card"] = {"key": f"jiwu_names.card.{e['pile']}"}
    if op == "promote" or op == "trash":
        op = f"{op}_{e['from']}"
    if op == "link":
        params["aspect"] = {"key": f"jiwu_names.aspect.{e['aspect']}"}
        params["then"] = effects_ref(e["then"])
    if op == "recall":
        params["then"] = effects_ref(e["then"])
    if op == "choose":
        params["a"] = effects_ref(e["of"][0])
        params["b"] = effects_ref(e["of"][1])
    return {"key": f"jiwu.fx.{op}", "params": params}


def _duel(state: State, seat: int, path: list[str]) -> Node:
    if str(seat) in state["duel"]["pick"]:
        raise EngineError("jiwu.err.picked")
    if not path:
        return Node(m("prompt.duel"), [Option(v, m("opt.duel", move={"key": f"jiwu_names.duel.{v}"}), commit=True)
                                         for v in MOVES])
    if path[0] not in MOVES:
        raise _bad(path[0])
    return _end(path[1:])


def _setup(state: State, seat: int, path: list[str]) -> Node:
    regions = R.start_regions(state, seat)
    if not path:
        return Node(m("prompt.start"), [Option("start", m("opt.verb.start"))])
    if path[0] != "start":
        raise _bad(path[0])
    if len(path) == 1:
        return Node(m("prompt.start"), [_region_opt(r) for r in regions])
    if path[1] not in regions:
        raise _bad(path[1])
    return _end(path[2:])


def _end(rest: list[str]) -> Node:
    if rest:
        raise _bad(rest[0])
    return Node(m("prompt.done"), [], True)


def _bad(token: str) -> EngineError:
    return EngineError("jiwu.err.bad_token", token=str(token)[:40])


def asked(state: State) -> list[int]:
    """The seats that must decide now (two in a duel, who answer secretly and at once)."""
    phase = state["phase"]
    if phase == "over":
        return []
    if phase == "duel":
        return [s for s in R.duel_seats(state) if str(s) not in state["duel"]["pick"]]
    return [int(state["turn"])]


def tree(state: State, seat: int, path: list[str]) -> Node:
    if state["phase"] == "over":
        raise EngineError("jiwu.err.game_over")
    if seat not in asked(state):
        raise EngineError("core.err.not_your_turn")
    phase = state["phase"]
    if phase == "setup":
        return _setup(state, seat, path)
    if phase == "duel":
        return _duel(state, seat, path)
    if phase == "effect":
        return _effect(state, seat, path)
    return _turn(state, seat, path)


def validate(state: State, seat: int, path: list[str]) -> None:
    if not tree(state, seat, path).complete:
        raise EngineError("jiwu.err.incomplete")


def only_end(state: State, seat: int) -> bool:
    """Nothing left to do but end the turn (the seed: the turn ends when no action is left)."""
    return state["phase"] == "main" and not verbs(state, seat)


