"""The terminal's text boards of 三国杀 and 极武三国: built from the playing seat's own view, they
show what that view holds (seats, HP, equipment, roles shown; regions, slots, market, scores)
and the seat's own hand, in every locale, and never another seat's hand or hidden role."""

from __future__ import annotations

import copy
import random
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from cli.ascii import render
from engines import registry
from engines.jiwu.data import board
from engines.sanguosha.rules import card_label
from i18n import t

LOCALES = ("en", "zh-TW", "zh-CN")


def _states(game: str, seats: int, seed: int, every: int = 7, options: dict[str, str] | None = None) -> Iterator[Any]:
    """Every ``every``-th state of a seeded AI game, and the last one (the game over)."""
    engine = registry.get(game)
    state = engine.new_state(engine.normalize_options(options or {}), seats, seed)
    rng = random.Random(seed)
    n = 0
    while True:
        pending = engine.pending(state)
        if n % every == 0 or not pending:
            yield state
        if not pending:
            return
        req = pending[0]
        action = engine.ai_action(state, req.seat, rng, request=req)
        state, _ = engine.apply(state, req.seat, action, request=req)
        n += 1


def _names(seats: int) -> list[str]:
    return ["Ann", *(f"AI {i}" for i in range(2, seats + 1))]


def _cells(line: str) -> list[str]:
    return re.split(r"\s{2,}", line.strip())


def _row(lines: list[str], seat: int, name: str) -> list[str]:
    """The table row of ``seat``: its first cell is the seat number and name (and 极武三国's
    colour), after ``>`` when it is asked."""
    head = f"{seat + 1} {name}"
    rows = [_cells(line) for line in lines
            if _cells(line)[0].lstrip(">") == head or _cells(line)[0].lstrip(">").startswith(head + " (")]
    assert len(rows) == 1, (seat, name, lines)
    return rows[0]


# --------------------------------------------------------------------------- 三国杀

def _short(locale: str, name: str) -> str:
    return t(locale, f"render.sanguosha.short.{name}")


@pytest.mark.parametrize("locale", LOCALES)
def test_sanguosha_board_shows_the_seat_view(locale: str) -> None:
    engine = registry.get("sanguosha")
    names = _names(5)
    seen_equip = seen_dead = 0
    for state in _states("sanguosha", 5, 3):
        for seat in (0, 2, None):
            view = engine.view(state, seat)
            lines = render(view, names, locale)
            for p in view["players"]:
                row = _row(lines, p["seat"], names[p["seat"]])
                assert row[2] == (f"{max(0, p['hp'])}/{p['max']}" if p["max"] else "…")
                assert row[3] == str(p["hand"])
                for card in filter(None, p["equip"].values()):
                    assert _short(locale, card["name"]) in row[4]
                    seen_equip += 1
                if p["role"]:
                    assert t(locale, f"sanguosha.role.{p['role']}") in row[6]
                else:
                    assert row[6] == t(locale, "sanguosha.role.hidden")
                if not p["alive"]:
                    assert row[6].startswith(t(locale, "core.cli.sanguosha.dead", role="x").split("x")[0]) or \
                        view["winners"] is not None
                    seen_dead += 1
                if p["seat"] == view["turn"] and p["alive"] and view["winners"] is None:
                    assert row[0].startswith(">")
            you = view.get("you")
            hand_title = t(locale, "render.sanguosha.hand_title", n=len(you["hand"]) if you else 0)
            if you is None:
                assert hand_title not in lines
                continue
            assert t(locale, "sanguosha.private.role", role={"key": f"sanguosha.role.{you['role']}"}) in lines
            text = "\n".join(lines)
            for card in you["hand"]:
                assert f"{_short(locale, card['name'])} {card_label(card['id'])}" in text
    assert seen_equip and seen_dead  # the game went far enough to show both


def _scramble_sanguosha(state: dict[str, Any], viewer: int) -> dict[str, Any]:
    """The same public table with other seats' secrets changed: hands traded for deck cards,
    hidden roles exchanged."""
    out = copy.deepcopy(state)
    deck = out["deck"]
    hidden = []
    for seat, p in enumerate(out["players"]):
        if seat == viewer:
            continue
        k = len(p["hand"])
        p["hand"], deck[:k] = list(deck[:k]), list(p["hand"])
        if not p["revealed"] and seat != out["lord"]:
            hidden.append(p)
    if len(hidden) >= 2:
        hidden[0]["role"], hidden[1]["role"] = hidden[1]["role"], hidden[0]["role"]
    return out


def _blind(game: str, seats: int, seed: int, every: int, viewers: tuple[int, ...],
           scramble: Callable[[dict[str, Any], int], dict[str, Any]]) -> int:
    """Each viewer's board, in every locale, is the same for a state and for that state with
    the other seats' secrets scrambled; returns how many scrambles changed the state."""
    engine = registry.get(game)
    names = _names(seats)
    changed = 0
    for state in _states(game, seats, seed, every=every):
        if not engine.pending(state):
            continue  # at the end everything is shown (三国杀's roles)
        for viewer in viewers:
            other = scramble(state, viewer)
            changed += other != state
            for locale in LOCALES:
                assert render(engine.view(state, viewer), names, locale) == \
                    render(engine.view(other, viewer), names, locale)
    return changed


def test_sanguosha_board_never_shows_another_seat_hand_or_role() -> None:
    assert _blind("sanguosha", 6, 11, 5, (0, 3), _scramble_sanguosha) > 10


# --------------------------------------------------------------------------- 极武三国

def _jiwu_slot(view: dict[str, Any], slot: str) -> str:
    occ = view["slots"].get(slot)
    if occ is None:
        return "."
    return "N" if occ[0] == -1 else f"{occ[0] + 1}{'*' if occ[1] else ''}"


@pytest.mark.parametrize("locale", LOCALES)
def test_jiwu_board_shows_the_seat_view(locale: str) -> None:
    engine = registry.get("jiwu")
    names = _names(3)
    seen_general = 0
    for state in _states("jiwu", 3, 5, every=11):
        for seat in (1, None):
            view = engine.view(state, seat)
            lines = render(view, names, locale)
            text = "\n".join(lines)
            open_ = {s.split(".", 1)[0] for s in view["slots"]}
            for rid, r in board().regions.items():
                name = t(locale, f"jiwu_names.region.{rid}")
                shown = [_cells(line) for line in lines
                         if _cells(line)[0] in (name, t(locale, "core.cli.jiwu.start", region=name))]
                if rid not in open_:
                    assert not shown  # closed at this player count
                    continue
                assert len(shown) == 1, (rid, lines)
                assert shown[0][1] == str(r.vp)
                assert shown[0][2] == " ".join(_jiwu_slot(view, f"{rid}.{i}") for i in range(r.slots))
            scores = view["scores"] or {}
            for p in view["players"]:
                row = _row(lines, p["seat"], names[p["seat"]])
                merit = scores.get(str(p["seat"]), sum(p["vp"].values()))
                assert row[1] == t(locale, "core.cli.jiwu.merit", n=merit)
                assert row[2] == t(locale, "jiwu.render.row", supply=p["supply"], spies=p["spies"], hand=p["hand"],
                                   deck=p["deck"], power=p["power"], gold=p["gold"])
                for g in p["generals"].values():
                    assert t(locale, f"jiwu_names.card.{g['card']}") in row[3]
                    seen_general += 1
            for c in view["market"]:
                assert t(locale, f"jiwu_names.card.{c['card']}") in text
            you = view.get("you")
            if you is None:  # the public table: no hand, no purse
                assert not any(line.startswith((t(locale, "jiwu.render.hand", n=1)[:4],
                                                t(locale, "jiwu.render.no_cards"))) for line in lines)
                continue
            hand = you["hand"]
            title = t(locale, "jiwu.render.hand", n=len(hand)) if hand else t(locale, "jiwu.render.no_cards")
            start = lines.index(title) + 1
            for c, line in zip(hand, lines[start:start + len(hand)], strict=True):
                assert line.strip().startswith(t(locale, f"jiwu_names.card.{c['card']}"))
    assert seen_general


def _scramble_jiwu(state: dict[str, Any], viewer: int) -> dict[str, Any]:
    """Other seats' hands, decks and discard piles shuffled together (their sizes kept)."""
    out = copy.deepcopy(state)
    rng = random.Random(1)
    for seat, p in enumerate(out["players"]):
        if seat == viewer:
            continue
        pool = p["hand"] + p["deck"] + p["discard"]
        rng.shuffle(pool)
        sizes = len(p["hand"]), len(p["deck"])
        p["hand"], p["deck"], p["discard"] = pool[:sizes[0]], pool[sizes[0]:sum(sizes)], pool[sum(sizes):]
    return out


def test_jiwu_board_never_shows_another_seat_hand() -> None:
    assert _blind("jiwu", 4, 9, 13, (2,), _scramble_jiwu) > 5
