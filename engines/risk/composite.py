"""Composite actions: one seat's successive single steps sent as one action.

Why: a 5-AI game was ~690 moves, and every move pays the per-move glue (validation, a state
copy, the request refresh, the caller's ``pending`` and ``result``) besides the AI's thinking.
Most of those moves follow from the one before with no dice in between — a turn's placements,
the first attack after them, ending the attack phase and fortifying — and a blitz's move-in
follows from the battle by a rule the AI can state before the dice. So an AI sends such a run
as one action::

    <part> then <part> then ... <part>

where every part is one of the single-step actions of ``engines.risk.choices`` (their shapes are
unchanged and stay what people's buttons, time-outs, stored logs and replays use), only the last
part may be an attack (dice end what can be decided beforehand), and an attack part may end with
a move-in rule ``move <to> <from> <floor>`` (:func:`move_in`), applied only if the territory
falls and more than the minimum may move in.

:func:`play` applies the parts in order on the copy ``apply`` made, each validated in the state
it applies to, refreshing the requests after each exactly as separate moves would. An illegal part
anywhere rejects the whole action (the input state is never changed: ``apply`` works on a copy,
and every part before the dice is checked before the dice roll); the state after a composite is
the state after its last single step, and its events are the single steps' events in order.
"""

from __future__ import annotations

from engines.base import Action, EngineError, Event, State
from engines.risk import actions, choices, requests
from engines.tokens import ascii_int

#: The token between two parts (never a territory, card, verb or number).
THEN = "then"
#: The token that starts an attack's move-in rule.
RULE = "move"
#: The longest composite an AI sends: what the service accepts from a person
#: (``service.matches.MAX_ACTION_TOKENS``), so an AI's action could have been typed.
MAX_TOKENS = 64
#: The longest single part (an attack with its rule), for the AI to know when to stop adding.
LONGEST_PART = 9

#: A move-in rule: (weight toward the conquered territory, weight toward the source, floor).
Rule = tuple[int, int, int]


def move_in(total: int, lo: int, hi: int, rule: Rule) -> int:
    """The armies to move into a conquered territory when the source and it hold ``total``
    together and ``lo``..``hi`` may move: ``total`` split by the weights, clamped to what may
    move, leaving at least ``floor`` on each side where the armies allow it. The normal AI's
    move-in is this (``ai._occupy_rule``), so it can be stated before the battle; the easy AI's
    minimum is the weights 0 : 1."""
    to_w, from_w, floor = rule
    if total >= 2 * floor:
        hi = min(hi, max(lo, total - floor))
        lo = max(lo, min(floor, hi))
    return max(lo, min(hi, round(total * to_w / (from_w + to_w))))


def join(parts: list[Action]) -> Action:
    """One action of ``parts`` (a single part is returned as it is)."""
    out = list(parts[0])
    for part in parts[1:]:
        out.append(THEN)
        out.extend(part)
    return out


def _bad(token: str) -> EngineError:
    return EngineError("risk.err.bad_token", token=token)


def _rule(tokens: list[str]) -> Rule:
    """``<to> <from> <floor>``: whole numbers, weights not both 0, a floor of 1 or more."""
    if len(tokens) != 3:
        raise _bad(RULE)
    to_w, from_w, floor = map(ascii_int, tokens)
    if to_w is None or from_w is None or floor is None or to_w + from_w < 1 or floor < 1:
        raise _bad(RULE)
    return to_w, from_w, floor


def split(action: Action) -> list[tuple[Action, Rule | None]] | None:
    """The parts of a composite action with their move-in rules, or None for a single step
    (which ``apply`` validates and carries out as ever). Raises EngineError for a malformed
    composite: an empty part, an attack before the last part, a bad rule."""
    joined = THEN in action
    if not joined:
        if action[0] != "attack" or RULE not in action:
            return None
        at = action.index(RULE)
        return [(action[:at], _rule(action[at + 1:]))]
    parts: list[Action] = []
    start = 0
    for _ in range(action.count(THEN)):  # cut at each THEN (list.index: a C scan each)
        end = action.index(THEN, start)
        parts.append(action[start:end])
        start = end + 1
    parts.append(action[start:])
    out: list[tuple[Action, Rule | None]] = []
    for part in parts:
        if not part:
            raise _bad(THEN)
        if part[0] == "attack" and part is not parts[-1]:
            raise _bad(THEN)
        out.append((part, None))
    last = parts[-1]
    if last[0] == "attack" and RULE in last:
        at = last.index(RULE)
        out[-1] = (last[:at], _rule(last[at + 1:]))
    return out


def play(state: State, seat: int, parts: list[tuple[Action, Rule | None]]) -> tuple[list[Event], list[Action]]:
    """Carry out ``parts`` on ``state`` (a copy ``apply`` made), each validated in the state it
    applies to; the events and the single steps played (an attack's move-in among them).

    The requests are refreshed once, after the last step. Between steps the refresh would mint
    the acting seat a new id and change nothing else (while its parts go on the seat is the one
    asked, or the next part is refused: in play it is the only request, and in the quick set-up
    the others' unchanged requests keep theirs), so each earlier step only moves the id counter
    on, as its refresh would have: the state is the single steps' state, request ids included."""
    events: list[Event] = []
    steps: list[Action] = []
    for part, rule in parts:
        _step(state, seat, part, events, steps)
        if rule is None:
            continue
        occ = state["occupy"]
        if state["phase"] == "occupy" and occ["from"] == part[1] and occ["to"] == part[2]:
            armies = state["armies"]
            count = move_in(armies[occ["from"]] + armies[occ["to"]], occ["min"], occ["max"], rule)
            # Legal by construction (move_in stays inside min..max, the tree's whole range), so
            # not walked again; the tests play every such step as its own validated move too.
            _step(state, seat, ["move", str(count)], events, steps, checked=True)
    requests.refresh(state, seat)
    return events, steps


def _step(state: State, seat: int, step: Action, events: list[Event], steps: list[Action],
          checked: bool = False) -> None:
    """One single step, as ``apply`` plays a single-step action (validate, carry out), the
    refresh of the step before it standing in as its id counter moved on (see :func:`play`)."""
    if steps:
        state["req_seq"] += 1
    if not checked:
        choices.validate(state, seat, step)
    events += actions.execute(state, seat, step)
    steps.append(step)
