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
