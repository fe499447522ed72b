"""The action tree: for a path of tokens, what may come next.

``step`` (buttons, the AI, the random player) and ``apply`` (validation) walk this one tree, so
whatever a front-end offers is exactly what ``apply`` accepts. Actions:

- ``expand`` — draw a tile (then ``place <x,y> <rot> <g>...``: one garrison token per space of the
  new tile, ``-`` none, ``a`` alert, ``f`` fortified)
- ``dispatch in <city> <a|f>`` / ``dispatch out <city> <a|f>`` / ``dispatch move <from> <to>``
- ``switch <to_f|to_a> <city> <n> [<city> <n>]...`` (``to_f``: alert → fortified, ``to_a``: the reverse)
- ``card war <from> <to> <n>`` / ``card in <city> <aa|af|ff>`` / ``card out <city> <aa|af|ff>``
- ``card plot tiger <attacker city> <target>`` / ``card plot chencang <from> <to> <n>`` /
  ``card plot beauty <their city> <a|f> <own city|-> [<a|f>]`` / ``card plot lure <city> <-|from> [<n>]``
- ``occupy <city>``
- during a war: ``go`` / ``retreat``; after it: ``after <n>`` (winner), ``counter <n>`` (defender)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engines.base import EngineError, Msg, Option, State
from engines.kingdoms_battle import board
from engines.kingdoms_battle import rules as R
from engines.kingdoms_battle.data import tiles
from engines.kingdoms_battle.rules import ALERT, FORT, m
from engines.tokens import ascii_int

PAIRS = ("aa", "af", "ff")


@dataclass
class Node:
    prompt: Msg
    options: list[Option] = field(default_factory=list)
    complete: bool = False
    #: ``Step.picture`` for a renderer: the drawn tile over the map with the legal spots
    #: numbered like the options, then its rotations there, then its garrison spaces.
    picture: dict[str, Any] | None = None


def _verb(value: str, hint: str = "", commit: bool = False) -> Option:
    return Option(value, m(f"opt.verb.{value}"), hint, commit=commit)


def _city(state: State, cid: str, commit: bool = False) -> Option:
    troops = R.troops_in(state, cid)
    return Option(cid, m("opt.city", city=R.city_ref(state, cid), troops=len(troops),
                         spaces=len(state["cities"][cid]["spaces"])), commit=commit)


def _count(n: int, commit: bool = True) -> Option:
    return Option(str(n), m("opt.count", n=n), commit=commit)


def _states(present: dict[str, int], commit: bool = False) -> list[Option]:
    return [Option(s, m(f"opt.state.{s}"), commit=commit) for s in (ALERT, FORT) if present.get(s)]


def _mine(state: State, cid: str, seat: int) -> dict[str, int]:
    return R.count_states(state, cid, seat)


def _others_controlled(state: State, seat: int) -> list[str]:
    return [c for c in R.done_cities(state) if R.owner(state, c) not in (None, seat)]


def _war_sources(state: State, seat: int, targets: list[str], need_link: bool) -> list[str]:
    links = board.links(state) if need_link else {}
    out = []
    for c in R.controlled(state, seat):
        if not _mine(state, c, seat)[ALERT]:
            continue
        if any(not need_link or t in links.get(c, set()) for t in targets):
            out.append(c)
    return out


def _war_targets(state: State, seat: int, src: str, need_link: bool) -> list[str]:
    links = board.links(state).get(src, set())
    return [t for t in _others_controlled(state, seat) if not need_link or t in links]


def _pair_ok(pair: str, have: dict[str, int]) -> bool:
    return all(pair.count(s) <= have.get(s, 0) for s in (ALERT, FORT))


# --------------------------------------------------------------------------- per verb

def _place(state: State, seat: int, path: list[str]) -> Node:
    spots = board.legal_spots(state, state["drawn"])
    order = list(spots)
    tile = state["drawn"]
    if not path:
        return Node(m("prompt.cell", tile=tile),
                    [Option(board.cell(*c), m("opt.cell", n=i + 1, cell=board.cell(*c)))
                     for i, c in enumerate(order)],
                    picture={"kind": "spots", "tile": tile, "spots": [list(c) for c in order]})
    xy = board.parse_cell(path[0])
    if xy is None or xy not in spots:
        raise _bad(path[0])
    if len(path) == 1:
        return Node(m("prompt.rot"), [Option(str(r), m("opt.rot", deg=90 * r)) for r in spots[xy]],
                    picture={"kind": "rotations", "tile": tile, "cell": list(xy), "rots": spots[xy]})
    if path[1] not in {str(r) for r in spots[xy]}:
        raise _bad(path[1])
    face = tiles().types[state["drawn"]].face(int(path[1]))
    assert face is not None
    chosen = path[2:]
    used = 0
    supply = state["players"][seat]["supply"]
    for k, g in enumerate(chosen):
        if k >= len(face.spaces) or g not in ("-", ALERT, FORT) or (g != "-" and used >= supply):
            raise _bad(g)
        used += g != "-"
    if len(chosen) == len(face.spaces):
        return Node(m("prompt.done"), [], True)
    last = len(chosen) == len(face.spaces) - 1
    opts = [Option("-", m("opt.state.none"), commit=last)]
    if used < supply:
        opts += [Option(s, m(f"opt.state.{s}"), commit=last) for s in (ALERT, FORT)]
    return Node(m("prompt.garrison", n=len(chosen) + 1, of=len(face.spaces)), opts,
                picture={"kind": "garrison", "tile": tile, "cell": list(xy), "rot": face.rot,
                         "space": len(chosen), "chosen": chosen})


def _dispatch(state: State, seat: int, path: list[str]) -> Node:
    supply = state["players"][seat]["supply"]
    mine = R.controlled(state, seat)
    ins = [c for c in mine if supply and R.free_spaces(state, c)]
    outs = mine
    links = board.links(state)
    moves = {c: [d for d in mine if d != c and R.free_spaces(state, d) and d in links.get(c, set())]
             for c in mine if _mine(state, c, seat)[ALERT]}
    moves = {c: ds for c, ds in moves.items() if ds}
    if not path:
        opts = ([_verb("in")] if ins else []) + ([_verb("out")] if outs else []) + ([_verb("move")] if moves else [])
        return Node(m("prompt.dispatch"), opts)
    verb, rest = path[0], path[1:]
    pool = {"in": ins, "out": outs, "move": list(moves)}.get(verb)
    if pool is None:
        raise _bad(verb)
    if not rest:
        return Node(m(f"prompt.{verb}_city"), [_city(state, c) for c in pool])
    if rest[0] not in pool:
        raise _bad(rest[0])
    if verb == "move":
        if len(rest) == 1:
            return Node(m("prompt.move_to"), [_city(state, c, commit=True) for c in moves[rest[0]]])
        if rest[1] not in moves[rest[0]]:
            raise _bad(rest[1])
        return _end(rest[2:])
    have = {ALERT: 1, FORT: 1} if verb == "in" else _mine(state, rest[0], seat)
    if len(rest) == 1:
        return Node(m(f"prompt.{verb}_state"), _states(have, commit=True))
    if not have.get(rest[1]):
        raise _bad(rest[1])
    return _end(rest[2:])


def _switch(state: State, seat: int, path: list[str]) -> Node:
    mine = R.controlled(state, seat)
    src = {"f": ALERT, "a": FORT}
    dirs = [d for d, s in src.items() if any(_mine(state, c, seat)[s] for c in mine)]
    if not path:
        return Node(m("prompt.switch"), [_verb(f"to_{d}") for d in dirs])
    d = path[0][3:] if path[0].startswith("to_") else ""
    if d not in dirs:
        raise _bad(path[0])
    rest = path[1:]
    pairs = list(zip(rest[0::2], rest[1::2], strict=False))
    chosen = [c for c, _n in pairs]
    for c, n in pairs:
        k = ascii_int(n)
        if c not in mine or chosen.count(c) > 1 or k is None or not 1 <= k <= _mine(state, c, seat)[src[d]]:
            raise _bad(n)
    left = [c for c in mine if c not in chosen and _mine(state, c, seat)[src[d]]]
    if len(rest) % 2 == 1:
        c = rest[-1]
        if c not in left:
            raise _bad(c)
        have = _mine(state, c, seat)[src[d]]
        return Node(m("prompt.switch_count"), [_count(k, commit=False) for k in range(1, have + 1)])
    return Node(m("prompt.switch_city"), [_city(state, c) for c in left], complete=bool(rest))


def _troops_sent(state: State, seat: int, src: str, rest: list[str]) -> Node:
    """The last token of every war from an own city: how many of its alert troops go."""
    alert = _mine(state, src, seat)[ALERT]
    if not rest:
        return Node(m("prompt.war_n"), [_count(k) for k in range(1, alert + 1)])
    k = ascii_int(rest[0])
    if k is None or not 1 <= k <= alert:
        raise _bad(rest[0])
    return _end(rest[1:])


def _war_tail(state: State, seat: int, rest: list[str], need_link: bool, targets: list[str]) -> Node:
    """``<from> <to> <n>``: a national war from an own city."""
    sources = _war_sources(state, seat, targets, need_link)
    if not rest:
        return Node(m("prompt.war_from"), [_city(state, c) for c in sources])
    if rest[0] not in sources:
        raise _bad(rest[0])
    tgts = [t for t in _war_targets(state, seat, rest[0], need_link) if t in targets]
    if len(rest) == 1:
        return Node(m("prompt.war_to"), [_city(state, c) for c in tgts])
    if rest[1] not in tgts:
        raise _bad(rest[1])
    return _troops_sent(state, seat, rest[0], rest[2:])


def _tiger(state: State, seat: int, rest: list[str]) -> Node:
    links = board.links(state)
    others = _others_controlled(state, seat)

    def targets(a: str) -> list[str]:
        att = R.owner(state, a)
        return [t for t in others if R.owner(state, t) != att and t in links.get(a, set())]
    attackers = [a for a in others if R.count_states(state, a, R.owner(state, a) or 0)[ALERT] and targets(a)]
    if not rest:
        return Node(m("prompt.tiger_from"), [_city(state, c) for c in attackers])
    if rest[0] not in attackers:
        raise _bad(rest[0])
    if len(rest) == 1:
        return Node(m("prompt.war_to"), [_city(state, c, commit=True) for c in targets(rest[0])])
    if rest[1] not in targets(rest[0]):
        raise _bad(rest[1])
    return _end(rest[2:])


def _beauty(state: State, seat: int, rest: list[str]) -> Node:
    others = _others_controlled(state, seat)
    if not rest:
        return Node(m("prompt.beauty_from"), [_city(state, c) for c in others])
    if rest[0] not in others:
        raise _bad(rest[0])
    victim = R.owner(state, rest[0])
    have = R.count_states(state, rest[0], victim or 0)
    if len(rest) == 1:
        return Node(m("prompt.beauty_state"), _states(have))
    if not have.get(rest[1]):
        raise _bad(rest[1])
    own = [c for c in R.controlled(state, seat) if R.free_spaces(state, c)] if state["players"][seat]["supply"] else []
    if len(rest) == 2:
        return Node(m("prompt.beauty_to"), [Option("-", m("opt.verb.none"), commit=True)]
                    + [_city(state, c) for c in own])
    if rest[2] == "-":
        return _end(rest[3:])
    if rest[2] not in own:
        raise _bad(rest[2])
    if len(rest) == 3:
        return Node(m("prompt.in_state"), _states({ALERT: 1, FORT: 1}, commit=True))
    if rest[3] not in (ALERT, FORT):
        raise _bad(rest[3])
    return _end(rest[4:])


def _lure(state: State, seat: int, rest: list[str]) -> Node:
    others = _others_controlled(state, seat)
    if not rest:
        return Node(m("prompt.lure_city"), [_city(state, c) for c in others])
    if rest[0] not in others:
        raise _bad(rest[0])
    links = board.links(state)
    sources = [c for c in R.controlled(state, seat) if _mine(state, c, seat)[ALERT]
               and rest[0] in links.get(c, set())]
    if len(rest) == 1:
        return Node(m("prompt.lure_war"), [Option("-", m("opt.verb.no_war"), commit=True)]
                    + [_city(state, c) for c in sources])
    if rest[1] == "-":
        return _end(rest[2:])
    if rest[1] not in sources:
        raise _bad(rest[1])
    return _troops_sent(state, seat, rest[1], rest[2:])


def _plot(state: State, seat: int, path: list[str]) -> Node:
    plots = state["players"][seat]["plots"]
    subs = {"tiger": _tiger, "beauty": _beauty, "lure": _lure}
    if not path:
        opts = [Option(p, m(f"opt.plot.{p}")) for p in R.PLOTS if p in plots and _has_plot(state, seat, p)]
        return Node(m("prompt.plot"), opts)
    if path[0] not in plots or not _has_plot(state, seat, path[0]):
        raise _bad(path[0])
    if path[0] == "chencang":
        return _war_tail(state, seat, path[1:], False, _others_controlled(state, seat))
    return subs[path[0]](state, seat, path[1:])


def _has_plot(state: State, seat: int, plot: str) -> bool:
    try:
        if plot == "chencang":
            return bool(_war_tail(state, seat, [], False, _others_controlled(state, seat)).options)
        return bool({"tiger": _tiger, "beauty": _beauty, "lure": _lure}[plot](state, seat, []).options)
    except EngineError:
        return False


def _card(state: State, seat: int, path: list[str]) -> Node:
    mine = R.controlled(state, seat)
    supply = state["players"][seat]["supply"]
    ins = [c for c in mine if supply >= 2 and len(R.free_spaces(state, c)) >= 2]
    outs = [c for c in mine if sum(_mine(state, c, seat).values()) >= 2]
    war_ok = bool(_war_sources(state, seat, _others_controlled(state, seat), True))
    plot_ok = bool(_plot(state, seat, []).options)
    if not path:
        opts = ([_verb("war")] if war_ok else []) + ([_verb("in")] if ins else []) + (
            [_verb("out")] if outs else []) + ([_verb("plot")] if plot_ok else [])
        return Node(m("prompt.card"), opts)
    verb, rest = path[0], path[1:]
    if verb == "war" and war_ok:
        return _war_tail(state, seat, rest, True, _others_controlled(state, seat))
    if verb == "plot" and plot_ok:
        return _plot(state, seat, rest)
    pool = {"in": ins, "out": outs}.get(verb)
    if pool is None:
        raise _bad(verb)
    if not rest:
        return Node(m(f"prompt.{verb}_city"), [_city(state, c) for c in pool])
    if rest[0] not in pool:
        raise _bad(rest[0])
    have = {ALERT: 2, FORT: 2} if verb == "in" else _mine(state, rest[0], seat)
    if len(rest) == 1:
        return Node(m("prompt.pair"), [Option(p, m(f"opt.pair.{p}"), commit=True) for p in PAIRS if _pair_ok(p, have)])
    if rest[1] not in PAIRS or not _pair_ok(rest[1], have):
        raise _bad(rest[1])
    return _end(rest[2:])


def _occupy(state: State, seat: int, path: list[str]) -> Node:
    pool = R.idle(state) if state["players"][seat]["supply"] else []
    if not path:
        return Node(m("prompt.occupy"), [_city(state, c, commit=True) for c in pool])
    if path[0] not in pool:
        raise _bad(path[0])
    return _end(path[1:])


def _action(state: State, seat: int, path: list[str]) -> Node:
    subs = {"dispatch": _dispatch, "switch": _switch, "card": _card, "occupy": _occupy}
    if not path:
        opts = [_verb("expand", "primary", commit=True)] if state["stack"] else []
        for verb, fn in subs.items():
            if verb == "card" and not state["players"][seat]["cards"]:
                continue
            if fn(state, seat, []).options:
                opts.append(_verb(verb))
        return Node(m("prompt.action"), opts)
    verb = path[0]
    if verb == "expand" and state["stack"]:
        return _end(path[1:])
    if verb == "card" and not state["players"][seat]["cards"]:
        raise _bad(verb)
    if verb not in subs:
        raise _bad(verb)
    sub = subs[verb](state, seat, [])
    if not sub.options:
        raise _bad(verb)
    return subs[verb](state, seat, path[1:])


def _war(state: State, seat: int, path: list[str]) -> Node:
    if not path:
        return Node(m("prompt.war_go"), [_verb("go", "danger", True), _verb("retreat", "", True)])
    if path[0] not in ("go", "retreat"):
        raise _bad(path[0])
    return _end(path[1:])


def _after(state: State, seat: int, path: list[str], verb: str) -> Node:
    hi = after_max(state)
    if not path:
        return Node(m(f"prompt.{verb}"), [_verb(verb)])
    if path[0] != verb:
        raise _bad(path[0])
    if len(path) == 1:
        return Node(m(f"prompt.{verb}"), [_count(k) for k in range(hi, -1, -1)])
    k = ascii_int(path[1])
    if k is None or not 0 <= k <= hi:
        raise _bad(path[1])
    return _end(path[2:])


def after_max(state: State) -> int:
    war = state["war"]
    if state["phase"] == "after":
        return min(war["n"], len(state["cities"][war["dst"]]["spaces"]))
    alert = R.count_states(state, war["dst"], war["def"])[ALERT]
    return min(alert, len(state["cities"][war["src"]]["spaces"]))


def _end(rest: list[str]) -> Node:
    if rest:
        raise _bad(rest[0])
    return Node(m("prompt.done"), [], True)


def _bad(token: str) -> EngineError:
    return EngineError("kingdoms_battle.err.bad_token", token=str(token)[:40])


def asked(state: State) -> int | None:
    """The seat that must decide now (None when the game is over)."""
    phase = state["phase"]
    if phase == "over":
        return None
    if phase in ("war", "after"):
        return int(state["war"]["att"])
    if phase == "counter":
        return int(state["war"]["def"])
    return int(state["turn"])


def tree(state: State, seat: int, path: list[str]) -> Node:
    """The node reached by ``path`` (raises EngineError when the path leaves the tree)."""
    if state["phase"] == "over":
        raise EngineError("kingdoms_battle.err.game_over")
    if asked(state) != seat:
        raise EngineError("core.err.not_your_turn")
    phase = state["phase"]
    if phase == "place":
        if not path:
            return Node(m("prompt.place"), [_verb("place", "primary")])
        if path[0] != "place":
            raise _bad(path[0])
        return _place(state, seat, path[1:])
    if phase == "war":
        return _war(state, seat, path)
    if phase in ("after", "counter"):
        return _after(state, seat, path, phase)
    return _action(state, seat, path)


def validate(state: State, seat: int, path: list[str]) -> None:
    node = tree(state, seat, path)
    if not node.complete:
        raise EngineError("kingdoms_battle.err.incomplete")
