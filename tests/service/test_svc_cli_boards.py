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

from cli.ascii import display_width, render
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


# --------------------------------------------------------------------------- 鬪三國

def _kb_grid(lines: list[str], view: dict[str, Any], spots: list[tuple[int, int]]) -> tuple[dict[str, Any], int]:
    """The grid's geometry as its docstring states it: a header of x labels, then per row y a
    border line and two content lines; cells 5 columns wide after a 1-column border; maps wider
    than 80 columns in bands. Returns, per cell, its two inside lines, the border above and
    below, and the upright borders left and right; and the index of the grid's first line."""
    from cli.ascii_kingdoms_battle import CELL, GRID_WIDTH

    cells = [(x, y) for _t, x, y, _r in view["tiles"]] + spots
    x0, x1 = min(c[0] for c in cells), max(c[0] for c in cells)
    y0, y1 = min(c[1] for c in cells), max(c[1] for c in cells)
    label = max(len(str(y)) for y in range(y0, y1 + 1)) + 1
    per_band = (GRID_WIDTH - label - 1) // (CELL + 1)
    out: dict[str, Any] = {}
    first = len(lines)
    for start in range(x0, x1 + 1, per_band):
        xs = range(start, min(start + per_band, x1 + 1))
        header = " " * label + "".join(" " + str(x).center(CELL) for x in xs)
        top = lines.index(header.rstrip())
        first = min(first, top)
        for y in range(y0, y1 + 1):
            at = top + 1 + (y - y0) * 3
            rows = [(lines[at + k] if at + k < len(lines) else "").ljust(label + len(xs) * (CELL + 1) + 1)
                    for k in range(4)]
            assert rows[1].startswith(str(y).rjust(label - 1) + " "), (y, rows[1])
            for x in xs:
                left = label + (x - start) * (CELL + 1)
                out[f"{x},{y}"] = {"inside": [rows[1][left + 1:left + 1 + CELL], rows[2][left + 1:left + 1 + CELL]],
                                   "above": rows[0][left + 1:left + 1 + CELL], "below": rows[3][left + 1:left + 1 + CELL],
                                   "left": rows[1][left], "right": rows[1][left + CELL + 1]}
    return out, first


_ACROSS = {"C": "#####", "B": "xxxxx", "P": "-----"}
_UPRIGHT = {"C": "#", "B": "x", "P": "|"}


@pytest.mark.parametrize("locale", LOCALES)
def test_kingdoms_battle_board_shows_the_view(locale: str) -> None:
    from engines.kingdoms_battle import board as kb_board
    from engines.kingdoms_battle.data import tiles

    engine = registry.get("kingdoms_battle")
    names = _names(4)
    seen = {"place": 0, "war": 0, "dice": 0, "done": 0, "links": 0, "over": 0}
    for state in _states("kingdoms_battle", 4, 3, every=5):
        view = engine.view(state, 0)
        assert view == engine.view(state, None)  # no private part in this game
        lines = render(view, names, locale)
        text = "\n".join(lines)
        # Players: points, troops in hand, on the map, alert, command cards, stratagems by name.
        for p in view["players"]:
            row = _row(lines, p["seat"], names[p["seat"]])
            alert = sum(1 for s, st in view["troops"].values() if s == p["seat"] and st == "a")
            assert row[1:6] == [str(v) for v in (p["score"], p["supply"], p["on_board"], alert, p["cards"])]
            plots = [t(locale, f"core.cli.kingdoms_battle.plot.{x}") for x in p["plots"]]
            assert row[6] == (t(locale, "core.cli.list_sep").join(plots) or "-")
            assert row[0].startswith(">") == (p["seat"] == view["asked"] and view["phase"] != "over")
        # Whose turn and the phase, or the result.
        if view["phase"] == "over":
            seen["over"] += 1
            assert lines[0].startswith(t(locale, "kingdoms_battle.render.over", players=names[view["winners"][0]]))
        else:
            assert lines[0].startswith(t(locale, "kingdoms_battle.render.turn", player=names[view["turn"]]))
            assert t(locale, f"core.cli.kingdoms_battle.phase.{view['phase']}") in lines[0]
            assert t(locale, "kingdoms_battle.render.left", n=view["stack"]) in lines[0]
        # The legal spots of the drawn tile, numbered like the engine's own options.
        spots: list[tuple[int, int]] = []
        if view["phase"] == "place":
            seen["place"] += 1
            assert t(locale, "core.cli.kingdoms_battle.drawn", tile=view["drawn"]) in text
            options = engine.step(state, view["asked"], ["place"]).options
            spots = [tuple(int(v) for v in o.value.split(",")) for o in options]  # type: ignore[misc]
        grid, first = _kb_grid(lines, view, spots)
        legend = lines.index(t(locale, "core.cli.kingdoms_battle.legend_sides"))
        assert first < legend and all(display_width(line) <= 80 for line in lines[first:legend])
        for n, (x, y) in enumerate(spots, 1):
            assert grid[f"{x},{y}"]["inside"][0].strip() == f"#{n}"
        # Every tile: its number, its garrison spaces, its four sides' terrain.
        for idx, (ttype, x, y, rot) in enumerate(view["tiles"]):
            face = tiles().types[ttype].face(rot)
            assert face is not None
            cell = grid[f"{x},{y}"]
            garrison = []
            for k in range(len(face.spaces)):
                held = view["troops"].get(f"{idx}.{k}")
                garrison.append("." if held is None else f"{held[0] + 1}{held[1]}")
            assert [s.strip() for s in cell["inside"]] == [str(idx), " ".join(garrison)]
            n, e, s, w = face.edges
            assert (cell["above"], cell["right"], cell["below"], cell["left"]) == \
                (_ACROSS[n], _UPRIGHT[e], _ACROSS[s], _UPRIGHT[w]), (idx, face.edges)
        # The cities that matter, with holder, garrison and (read from the engine's own state)
        # the complete cities a plain joins them to.
        links = kb_board.links(state)
        done = {c["id"] for c in view["cities"] if c["done"]}
        for c in view["cities"]:
            name = t(locale, f"kingdoms_battle.city.{'large' if c['large'] else 'small'}", id=c["id"])
            shown = [_cells(line) for line in lines if _cells(line)[0] == name]
            garrison = [view["troops"].get(s) for s in c["spaces"]]
            if not c["done"] and not any(garrison):
                assert not shown
                continue
            assert len(shown) == 1, (c["id"], lines)
            row = shown[0]
            assert row[3] == (" ".join("." if g is None else f"{g[0] + 1}{g[1]}" for g in garrison) or "-")
            if c["done"]:
                seen["done"] += 1
                assert row[1] == t(locale, "core.cli.kingdoms_battle.done", n=c["value"])
                assert row[2] == (t(locale, "core.cli.kingdoms_battle.idle") if c["owner"] is None
                                  else names[c["owner"]])
                joined = sorted(links.get(c["id"], set()) & done, key=lambda k: tuple(map(int, k.split("."))))
                assert row[4] == (t(locale, "core.cli.list_sep").join(joined) or "-")
                seen["links"] += bool(joined)
            else:
                assert row[1] == t(locale, "core.cli.kingdoms_battle.open", n=c["open"])
        # A war in progress and the last dice.
        war = view["war"]
        if war:
            seen["war"] += 1
            size = {c["id"]: "large" if c["large"] else "small" for c in view["cities"]}
            assert t(locale, "core.cli.kingdoms_battle.war", round=war["round"], player=names[war["att"]],
                     defender=names[war["def"]], n=war["n"],
                     src={"key": f"kingdoms_battle.city.{size[war['src']]}", "params": {"id": war["src"]}},
                     dst={"key": f"kingdoms_battle.city.{size[war['dst']]}", "params": {"id": war["dst"]}}) in lines
        dice = view["dice"]
        if dice:
            seen["dice"] += 1
            label = t(locale, f"kingdoms_battle.render.{'civil' if dice['kind'] == 'civil' else 'war'}",
                      round=dice["round"])
            line = next(line for line in lines if line.startswith(label))
            for seat, rolls in ((dice["a"], dice["da"]), (dice["d"], dice["dd"])):
                assert t(locale, "core.cli.kingdoms_battle.dice", player=names[seat], dice=" ".join(map(str, rolls)),
                         hits=sum(1 for d in rolls if d >= 5)) in line
    assert all(seen.values()), seen


def _scramble_kingdoms_battle(state: dict[str, Any], viewer: int) -> dict[str, Any]:
    """The one secret of 鬪三國: the order of the tile stack."""
    out = copy.deepcopy(state)
    random.Random(len(out["stack"])).shuffle(out["stack"])
    return out


def test_kingdoms_battle_board_never_shows_the_stack_order() -> None:
    assert _blind("kingdoms_battle", 3, 5, 6, (1,), _scramble_kingdoms_battle) > 5


def test_kingdoms_battle_wide_map_in_bands(monkeypatch: pytest.MonkeyPatch) -> None:
    """A map wider than the terminal is printed in bands of columns, each cell still whole."""
    import cli.ascii_kingdoms_battle as kb

    engine = registry.get("kingdoms_battle")
    *_, state = _states("kingdoms_battle", 5, 11, every=1000)
    view = engine.view(state, None)
    monkeypatch.setattr(kb, "GRID_WIDTH", 40)
    lines = render(view, _names(5), "en")
    grid, first = _kb_grid(lines, view, [])
    legend = lines.index(t("en", "core.cli.kingdoms_battle.legend_sides"))
    band = lines[first:legend]
    assert all(display_width(line) <= 40 for line in band)
    xs = {x for _t, x, _y, _r in view["tiles"]}
    assert len(xs) > (40 - 4) // 6  # really more than one band
    for idx, (_t, x, y, _r) in enumerate(view["tiles"]):
        assert grid[f"{x},{y}"]["inside"][0].strip() == str(idx)


def test_kingdoms_battle_every_tile_face_reads_differently() -> None:
    """The drawn tile's art and words tell every distinct face apart (types 7 and 10 share their
    edges: two caps, one bridge), and the art's edge middles are the face's terrain."""
    from cli.ascii_kingdoms_battle import face_art, face_text
    from engines.kingdoms_battle.data import tiles

    symbol = {"C": "#", "B": "x", "P": "."}
    seen: dict[tuple[str, ...], tuple[int, int]] = {}
    for tid, tt in tiles().types.items():
        for face in tt.faces:
            art = face_art(face)
            assert [len(row) for row in art] == [5, 5, 5]
            assert (art[0][2], art[1][4], art[2][2], art[1][0]) == tuple(symbol[e] for e in face.edges)
            key = (*art, *face_text(face, "en"))
            assert key not in seen, (tid, face.rot, seen.get(key))
            seen[key] = (tid, face.rot)
    assert face_art(tiles().types[7].faces[0]) != face_art(tiles().types[10].faces[0])


@pytest.mark.parametrize("locale", LOCALES)
def test_kingdoms_battle_placement_steps_as_text(locale: str) -> None:
    """The rotation choice shows each offered rotation's art under its menu number; the garrison
    choice names the city of every space and marks the one asked."""
    from cli.ascii_kingdoms_battle import face_art, render_step
    from engines.kingdoms_battle.data import tiles

    engine = registry.get("kingdoms_battle")
    seen_rot = seen_garrison = 0
    for state in _states("kingdoms_battle", 3, 2, every=1):
        if state["phase"] != "place":
            continue
        seat = state["turn"]
        for option in engine.step(state, seat, ["place"]).options:
            step = engine.step(state, seat, ["place", option.value])
            lines = render_step(step.picture or {}, step.options, locale)
            text = "\n".join(lines)
            for i, rot in enumerate(step.options, 1):
                assert f"{i}. {t(locale, 'kingdoms_battle.opt.rot', deg=90 * int(rot.value))}" in text
                face = tiles().types[state["drawn"]].face(int(rot.value))
                assert face is not None
                caption = next(n for n, line in enumerate(lines) if f"{i}. " in line)
                column = lines[caption].index(f"{i}. ")
                assert [row[column:column + 5] for row in lines[caption + 1:caption + 4]] == face_art(face)
                seen_rot += 1
            rot = step.options[0].value
            face = tiles().types[state["drawn"]].face(int(rot))
            assert face is not None
            chosen: list[str] = []
            for k in range(len(face.spaces)):
                step = engine.step(state, seat, ["place", option.value, rot, *chosen])
                lines = render_step(step.picture or {}, step.options, locale)
                assert len(lines) == len(face.spaces)
                assert [line.startswith(">") for line in lines] == [j == k for j in range(len(face.spaces))]
                for j, segment in enumerate(face.spaces):
                    sides = "".join(t(locale, f"core.cli.kingdoms_battle.side.{'NESW'[s]}")
                                    for s in face.cities[segment])
                    assert lines[j][2:].startswith(t(locale, "core.cli.kingdoms_battle.space", n=j + 1, sides=sides))
                    if j < k and chosen[j] != "-":
                        assert lines[j].endswith(t(locale, f"kingdoms_battle.opt.state.{chosen[j]}"))
                chosen.append(step.options[-1].value)
                seen_garrison += 1
        if seen_rot > 40:
            break
    assert seen_rot and seen_garrison
