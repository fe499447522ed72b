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

import pytest

from engines import registry
from engines.base import Engine
from render import has_renderer, render_board

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
