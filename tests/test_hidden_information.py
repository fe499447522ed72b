"""Hidden information never reaches what the public sees — checked the same way for every game.

The Discord layer builds thread posts and board images from ``view(state, None)`` only (see
tests/cogs/test_publisher.py and the end-to-end tests). This test pins down the engine side for
every registered game: a seat's view is the public view plus that seat's own private part
(``"you"``) and nothing else differs; the public view never carries a private part; a game without
hidden information shows every seat the same view; and the board image drawn from a seat's view is
byte-for-byte the image drawn from the public view, so a renderer cannot leak what it is given.
"""

from __future__ import annotations

import itertools
import json
import random
import sys
from pathlib import Path

import pytest

from engines import registry
from engines.base import Engine
from render import has_renderer, render_board
from service.replay import ExportError, Timeline, replay
from tools.ai_match import ai_export

PRIVATE_KEY = "you"


def _configs(engine: Engine, limit: int = 6) -> list[tuple[dict[str, str], int]]:
    specs = engine.option_specs()
    combos = itertools.product(*[[c for c, _ in spec.choices] for spec in specs])
    out = []
    for values in combos:
        options = engine.normalize_options({s.name: v for s, v in zip(specs, values, strict=True)})
        low, high = engine.seat_range(options)
        out.append((options, high if high - low < 3 else low + 2))
    rng = random.Random(7)
    rng.shuffle(out)
    hidden = [c for c in out if engine.hidden_for(c[0])]
    open_ = [c for c in out if not engine.hidden_for(c[0])]
    return (hidden[: limit - 2] + open_[:2]) if hidden else open_[:limit]


def _check(engine: Engine, state: dict, options: dict[str, str], seats: int) -> None:
    public = engine.view(state, None)
    assert PRIVATE_KEY not in public, "the public view carries a private part"
    assert json.loads(json.dumps(public)) == public
    for seat in range(seats):
        own = engine.view(state, seat)
        if not engine.hidden_for(options):
            assert own == public, f"seat {seat} sees something the public does not in an open game"
            continue
        extra = {k: own[k] for k in own if k not in public}
        assert set(extra) <= {PRIVATE_KEY}, f"seat view adds unexpected keys {sorted(extra)}"
        differing = [k for k in public if own.get(k) != public[k]]
        assert not differing, f"seat {seat}'s view differs from the public one outside '{PRIVATE_KEY}': {differing}"


@pytest.mark.parametrize("slug", registry.available())
def test_public_views_and_seat_views_of_random_games(slug: str) -> None:
    engine = registry.get(slug)
    for n, (options, seats) in enumerate(_configs(engine)):
        state = engine.new_state(options, seats, seed=1000 + n)
        rng = random.Random(n)
        for _ in range(120):
            _check(engine, state, options, seats)
            pending = engine.pending(state)
            if not pending:
                break
            req = rng.choice(pending)
            state, events = engine.apply(state, req.seat, engine.ai_action(state, req.seat, rng, "easy"))
            for event in events:
                assert event.to is None or all(0 <= s < seats for s in event.to)


@pytest.mark.parametrize("slug", [s for s in registry.available() if has_renderer(s)])
def test_board_image_from_a_seat_view_equals_the_public_image(slug: str) -> None:
    engine = registry.get(slug)
    options, seats = _configs(engine)[0]
    state = engine.new_state(options, seats, seed=5)
    rng = random.Random(5)
    for _ in range(60):
        pending = engine.pending(state)
        if not pending:
            break
        req = pending[0]
        state, _ = engine.apply(state, req.seat, engine.ai_action(state, req.seat, rng, "easy"))
    names = [f"P{i}" for i in range(seats)]
    public_png = render_board(engine.view(state, None), "en", names)
    for seat in range(seats):
        assert render_board(engine.view(state, seat), "en", names) == public_png


def test_jiwu_hands_decks_stratagems_and_a_duel_move_stay_private() -> None:
    """极武三国: hands, 计策, decks and discard piles are only counted in public, and a duellist's
    secret move is in its own view alone until both have chosen."""
    sys.path.insert(0, str(Path(__file__).resolve().parent / "engines" / "jiwu"))
    from jiwu_testkit import face_to_face

    engine = registry.get("jiwu")
    state = engine.new_state({}, 2, 3)
    rng = random.Random(3)
    for _ in range(60):
        req = engine.pending(state)[0]
        state, _ = engine.apply(state, req.seat, engine.ai_action(state, req.seat, rng))
    scrambled = json.loads(json.dumps(state))
    for p in scrambled["players"]:
        pool = p["hand"] + p["deck"] + p["discard"] + p["plans"]
        rng.shuffle(pool)
        sizes = [len(p[k]) for k in ("hand", "deck", "discard", "plans")]
        for key, n in zip(("hand", "deck", "discard", "plans"), sizes, strict=True):
            p[key], pool = pool[:n], pool[n:]
    assert engine.view(scrambled, None) == engine.view(state, None)
    assert engine.view(scrambled, 1)["you"] != engine.view(state, 1)["you"] or \
        engine.view(scrambled, 0)["you"] != engine.view(state, 0)["you"]
    # A duel: 吕布 walks into 刘备's region; seat 0 picks first.
    gens = face_to_face(state)
    state, _ = engine.apply(state, 0, ["move", gens[0], "xuchang"])
    state, events = engine.apply(state, 0, ["brk"])
    assert not events  # nothing is told until both have chosen
    assert engine.view(state, 0)["you"]["duel_pick"] == "brk"
    for seen in (engine.view(state, None), engine.view(state, 1)):
        assert "brk" not in json.dumps(seen)
        assert seen["duel"]["picked"] == [0]


@pytest.mark.parametrize("slug", registry.available())
def test_every_step_of_a_replay_is_the_public_view_then(slug: str) -> None:
    """The replay viewer (``Timeline``, keyframes every few steps) shows at each step exactly the
    public view of that moment, never a seat's private part."""
    export, states = ai_export(slug, 11, 45)
    engine = registry.get(slug)
    timeline = Timeline(export, every=7)
    assert len(timeline) == len(states)
    for i in [*range(0, len(states), 3), len(states) - 1]:
        view = timeline.view_at(i)
        assert view == engine.view(states[i], None), f"step {i}"
        assert PRIVATE_KEY not in view
    assert replay(export) == states[-1]


def test_a_running_export_cannot_replay_hidden_parts() -> None:
    """What ``/match export`` gives for a running match has no seed (``MatchService.shared_export``;
    tests/service/test_svc_replay.py checks it leaves out secret tokens and private events): a
    replay refuses it instead of guessing."""
    export, _ = ai_export("risk", 5, 10)
    with pytest.raises(ExportError):
        Timeline({**export, "seed": None})


def test_a_replay_reveals_roles_only_at_the_end() -> None:
    """三国杀 in the viewer: while the match runs a living non-lord's role stays hidden at every
    step; the last step of the finished match shows what the rules reveal at the end (all roles)."""
    export, _ = ai_export("sanguosha", 1, 2000, 5)
    assert export["status"] == "finished"
    timeline = Timeline(export)
    last = len(timeline) - 1
    assert all(p["role"] for p in timeline.view_at(last)["players"])
    for i in range(1, last, 25):
        players = timeline.view_at(i)["players"]
        assert all(p["role"] is None for p in players if p["alive"] and p["role"] != "lord"), f"step {i}"


@pytest.mark.parametrize("slug", [s for s in registry.available()
                                  if type(registry.get(s)).standing_specs is not Engine.standing_specs])
def test_standing_answers_are_legal_answers_from_the_seats_own_view(slug: str) -> None:
    """Issue 19: a standing answer is computed from ``view(state, seat)`` and the request alone
    (the signature has no state), whatever the settings; it is always a legal answer (the
    service applies it as the player's move), and the settings are in no view."""
    engine = registry.get(slug)
    given = 0
    configs = _configs(engine, limit=4)
    for n in range(12):  # until some game asked a question a standing answer covers (a 极武三国 duel)
        if given and n >= len(configs):
            break
        options = configs[n % len(configs)][0]
        seats = max(2, engine.seat_range(options)[0])  # 2 seats: generals meet most often (国战: 3)
        state = engine.new_state(options, seats, seed=2000 + n)
        rng = random.Random(n)
        for _ in range(3000):
            pending = engine.pending(state)
            if not pending:
                break
            for req in pending:
                view = engine.view(state, req.seat)
                specs = engine.standing_specs(view)
                settings = {s.name: rng.choice(s.choices)[0] for s in specs}
                answer = engine.standing_answer(view, req, settings)
                if answer is not None:
                    engine.apply(state, req.seat, answer, request=req)
                    given += 1
                assert "standing" not in json.dumps(view)
            req = rng.choice(pending)
            state, _ = engine.apply(state, req.seat, engine.ai_action(state, req.seat, rng, "normal"), request=req)
    assert given > 0


# ----- 三国杀 hegemony (国战): hidden heroes, hidden kingdoms, peeked heroes ------------------------

def _hg_known(state: dict, observer: int | None) -> set[tuple[int, int]]:
    """The (seat, index) heroes ``observer`` may know while hidden: its own two and those it has
    peeked at (先驱, 知己知彼, the next-deputy rule)."""
    if observer is None:
        return set()
    own = {(observer, i) for i in range(len(state["players"][observer].get("heroes", ())))}
    return own | {(k["seat"], k["index"]) for k in state["players"][observer].get("peeks", ())}


def _hg_hidden(state: dict) -> list[tuple[int, int, str]]:
    return [(s, i, h["id"]) for s, p in enumerate(state["players"]) for i, h in enumerate(p.get("heroes", ()))
            if not h["shown"]]


def _hg_scramble(state: dict, observer: int | None, rng: random.Random) -> dict:
    """The same table with every hero ``observer`` may not know replaced by another hero — of
    another kingdom where the seat's kingdom is not known to it (no hero shown, none peeked) —
    and, while heroes are being chosen, the other seats' offers, so a view that tells a hidden
    hero or kingdom, or a peek of another seat, differs."""
    from engines.sanguosha import hg_heroes

    every = hg_heroes.every_hero()
    pool = sorted(every)
    out = json.loads(json.dumps(state))
    known = _hg_known(state, observer)
    for seat, p in enumerate(out["players"]):
        hs = p.get("heroes") or []
        secret = [i for i, h in enumerate(hs) if not h["shown"] and (seat, i) not in known]
        if not secret:
            continue
        if len(secret) == len(hs):  # nothing about the seat is known: any kingdom
            kingdom = rng.choice(sorted({h.kingdom for h in every.values()}))
        else:
            kingdom = every[hs[0]["id"] if 0 not in secret else hs[1]["id"]].kingdom
        for i in secret:
            others = [h for h in pool if every[h].kingdom == kingdom and h != hs[i]["id"]]
            hs[i]["id"] = rng.choice(others or [hs[i]["id"]])
    for seat, offer in out["hg"]["deal"].items():
        if int(seat) != observer:
            out["hg"]["deal"][seat] = rng.sample(pool, len(offer))
    for seat, p in enumerate(out["players"]):
        if seat != observer and p.get("peeks"):
            p["peeks"] = [dict(k, hero=rng.choice(pool)) for k in p["peeks"]]
    return out


def _hg_check(engine: Engine, state: dict, rng: random.Random, events: list, *, unique: bool,
              image: bool = False) -> None:
    """Nothing hidden in what an observer sees: each seat's view and the public view are the same
    whatever the heroes (and offers, and other seats' peeks) it may not know; a seat with no shown
    hero has no kingdom, hero or skills in public; where hero ids are unique at the table, no
    hidden hero's id is in the public view (log and stack included) or in an event sent to a seat
    that may not know it; a seat's view draws the public image."""
    seats = state["n"]
    public = engine.view(state, None)
    for observer in [None, *range(seats)]:
        seen = engine.view(state, observer)
        assert engine.view(_hg_scramble(state, observer, rng), observer) == seen, f"observer {observer}"
    for p in public["players"]:
        if not any(p["heroes"]):
            assert (p["role"], p["kingdom"], p["hero"], p["skills"]) == (None, None, None, []), p
    if unique:
        text = json.dumps(public, ensure_ascii=False)
        for seat, index, hid in _hg_hidden(state):
            assert f'{hid}"' not in text, f"seat {seat}'s hidden hero {hid} in the public view"
            for event in events:
                readers = range(seats) if event.to is None else event.to
                if any((seat, index) not in _hg_known(state, r) for r in readers):
                    assert f'{hid}"' not in json.dumps(event.msg.to_json(), ensure_ascii=False), (hid, event)
    if image:
        names = [f"P{i}" for i in range(seats)]
        png = render_board(public, "zh-CN", names)
        for seat in range(seats):
            assert render_board(engine.view(state, seat), "zh-CN", names) == png


def _hg_play(engine: Engine, state: dict, moves: int, seed: int, *, unique: bool) -> dict:
    """AI moves from ``state`` with the checks after each; the state reached."""
    rng = random.Random(seed)
    _hg_check(engine, state, rng, [], unique=unique, image=True)
    for k in range(moves):
        pending = engine.pending(state)
        if not pending:
            break
        req = rng.choice(pending)
        state, events = engine.apply(state, req.seat, engine.ai_action(state, req.seat, rng), request=req)
        _hg_check(engine, state, rng, events, unique=unique, image=k % 40 == 0)
    return state


def _hg_table(n: int, *, peeks: bool = True) -> dict:
    """An ``n``-seat 国战 table in seat 0's play phase built from the heroes registered today (one
    kingdom per pair; more than ten seats repeat pairs): some seats with both heroes hidden, some
    with one shown, a few peeks as 先驱 and the next-deputy rule leave them."""
    from engines.sanguosha.hegemony import MODE
    from tests.engines.sanguosha import hg_testkit as K

    pairs = [("hg_caocao", "hg_xuchu"), ("hg_guanyu", "hg_zhangfei"), ("hg_ganning", "hg_lvmeng"),
             ("hg_lvbu", "hg_diaochan"), ("hg_xiahoudun", "hg_zhangliao"), ("hg_zhugeliang", "hg_zhaoyun"),
             ("hg_huanggai", "hg_zhouyu"), ("hg_guojia", "hg_simayi"), ("hg_machao", "hg_huangyueying"),
             ("hg_daqiao", "hg_sunshangxiang")]
    heroes = [pairs[i % len(pairs)] for i in range(n)]
    shown = {i: (i % 3 == 1, i % 4 == 2) for i in range(n)}
    state = K.table(heroes, shown=shown, turn=0, hands={i: ["sha", "shan"] for i in range(n)})
    if peeks:
        for seat in range(n):  # the next-deputy rule, and 先驱's look at a main
            nxt = (seat + 1) % n
            for viewer, target, index in ((seat, nxt, 1), (seat, (seat + 2) % n, 0)):
                if not state["players"][target]["heroes"][index]["shown"]:
                    state["players"][viewer].setdefault("peeks", []).append(
                        {"seat": target, "index": index, "hero": state["players"][target]["heroes"][index]["id"]})
    assert MODE.name == state["mode"]
    return state


def test_hegemony_three_seats_hidden_heroes_kingdoms_and_peeks_stay_hidden() -> None:
    """A real 3-seat 国战 game (the next-deputy rule on), AI-played to its end or 400 moves: from
    the secret hero choice on, no hidden hero, hidden kingdom or peek reaches a public view, an
    event for others, another seat's view or the image."""
    engine = registry.get("sanguosha")
    for seed in (1, 2):
        state = engine.new_state({"mode": "hegemony", "peek_next": "on"}, 3, seed)
        state = _hg_play(engine, state, 400, seed, unique=True)
        assert any(p.get("peeks") for p in state["players"]), "the next-deputy rule peeks"


@pytest.mark.parametrize("seats", [8, 12])
def test_hegemony_tables_of_eight_and_twelve_keep_hidden_heroes_hidden(seats: int) -> None:
    """Tables built by hand from today's heroes (12 seats repeat pairs, so only the scramble
    checks apply there), then AI-played for a while."""
    engine = registry.get("sanguosha")
    state = _hg_table(seats)
    _hg_play(engine, state, 250, seats, unique=seats <= 10)


@pytest.mark.parametrize("seats", [8, 12])
def test_hegemony_real_games_of_eight_and_twelve_keep_hidden_heroes_hidden(seats: int) -> None:
    """A real deal of the 60 heroes (7 each at 8 seats, 5 each at 12)."""
    engine = registry.get("sanguosha")
    state = engine.new_state({"mode": "hegemony", "peek_next": "on"}, seats, 3)
    _hg_play(engine, state, 300, seats, unique=True)
