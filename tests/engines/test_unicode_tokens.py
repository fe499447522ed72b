"""Every game's ``step`` and ``apply`` answer any token list with a result or EngineError.

Typed input (``/move action:"disc İ1"``, the terminal) reaches the engines unfiltered, and
Unicode is full of traps for a parser written for ASCII: ``'²'.isdigit()`` is true but
``int('²')`` raises; ``'İ'.lower()`` is two characters; ``'٣'.isdecimal()`` is true and
``int('٣') == 3``. Any exception other than EngineError becomes the front-ends' apology ("our
bug"), so this feeds random Unicode — alone, appended to a legal prefix, or spliced into a legal
token — to every registered game, in states taken from random legal play.
"""

from __future__ import annotations

import contextlib
import random
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines import registry
from engines.base import Engine, EngineError

GAMES = registry.available()

#: Characters that pass str.isdigit / isdecimal / isalpha or change length in lower()/upper().
TRAPS = ["²", "³", "¹", "½", "①", "Ⅻ", "１", "٣", "߃", "𝟗", "İ", "ı", "ß", "ﬁ", "ǅ", "Σ", "ς", "K", "Å",
         "\u0307", "\u200b", "\x00", " ", "\n", "-", "+", "_", "e", "0", "٠"]
TRAP_TOKENS = ["", " ", "-1", "+1", "0", "00", "1e3", "1_0", "9" * 40, "1 2", "İ1", "a²", "b١", "Ｆ", "ｐｌａｃｅ"]

unicode_tokens = st.one_of(
    st.sampled_from(TRAPS + TRAP_TOKENS),
    st.text(max_size=6),
    st.text(alphabet=st.sampled_from(TRAPS + list("abcdefghijklmnopqrstuvwxyz0123456789")), max_size=5),
)


def _random_action(engine: Engine, state: dict[str, Any], seat: int, rng: random.Random) -> list[str] | None:
    path: list[str] = []
    for _ in range(30):
        step = engine.step(state, seat, path)
        if step.complete and (not step.options or rng.random() < 0.5):
            return path
        if not step.options:
            return None
        path.append(rng.choice(step.options).value)
    return None


@cache
def sample_states(slug: str) -> list[tuple[dict[str, Any], int]]:
    """(state, seat asked) from random legal play, for each option choice and both seat extremes."""
    engine = registry.get(slug)
    variants: list[dict[str, str]] = [{}]
    for spec in engine.option_specs():
        variants += [{spec.name: value} for value, _ in spec.choices if value != spec.default]
    rng = random.Random(7)
    out: list[tuple[dict[str, Any], int]] = []
    for options in variants:
        options = engine.normalize_options(options)
        low, high = engine.seat_range(options)
        for seats in sorted({max(low, 1), high}):
            state = engine.new_state(options, seats, rng.randrange(2**32))
            for move in range(80):
                requests = engine.pending(state)
                if not requests:
                    break
                request = rng.choice(requests)
                if move % 5 == 0:
                    out.append((state, request.seat))
                action = _random_action(engine, state, request.seat, rng)
                if action is None:
                    break
                state, _ = engine.apply(state, request.seat, action)
    return out


def _mutate(token: str, trap: str, where: int) -> str:
    if not token:
        return trap
    i = where % (len(token) + 1)
    return token[:i] + trap + token[i + 1:]


@st.composite
def probes(draw: st.DrawFn, slug: str) -> tuple[dict[str, Any], int, list[str]]:
    engine = registry.get(slug)
    state, seat = draw(st.sampled_from(sample_states(slug)))
    path: list[str] = []
    for _ in range(draw(st.integers(0, 5))):  # a legal prefix
        options = engine.step(state, seat, path).options
        if not options:
            break
        path.append(draw(st.sampled_from(options)).value)
    how = draw(st.sampled_from(["append", "splice", "replace"]))
    if how == "append" or not path:
        path += draw(st.lists(unicode_tokens, min_size=1, max_size=3))
    else:
        i = draw(st.integers(0, len(path) - 1))
        if how == "splice":
            path[i] = _mutate(path[i], draw(st.sampled_from(TRAPS)), draw(st.integers(0, 10)))
        else:
            path[i] = draw(unicode_tokens)
        path += draw(st.lists(unicode_tokens, max_size=1))
    return state, seat, path


def _only_engine_errors(engine: Engine, state: dict[str, Any], seat: int, path: list[str]) -> None:
    for call in (engine.step, engine.apply):
        with contextlib.suppress(EngineError):  # anything else fails the test
            call(state, seat, list(path))


@pytest.mark.parametrize("slug", GAMES)
def test_sample_states_cover_several_phases(slug: str) -> None:
    """Phases, or the kinds of request asked (三国杀 answers its windows inside the play phase)."""
    engine = registry.get(slug)
    states = sample_states(slug)
    assert len(states) >= 10
    asked = {(s.get("phase"), r.kind) for s, seat in states for r in engine.pending(s) if r.seat == seat}
    assert len(asked) >= 2


@pytest.mark.parametrize("slug", GAMES)
def test_random_unicode_tokens_give_engine_errors_only(slug: str) -> None:
    engine = registry.get(slug)

    @settings(max_examples=400, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(probes(slug))
    def check(probe: tuple[dict[str, Any], int, list[str]]) -> None:
        _only_engine_errors(engine, *probe)

    check()


@pytest.mark.parametrize(("slug", "tokens"), [
    ("pentactic", ["disc", "İ1"]), ("pentactic", ["disc", "b²"]), ("pentactic", ["disc", "b١"]),
    ("pentactic", ["place", "F", "²"]), ("pentactic", ["place", "F", "٣"]), ("pentactic", ["discard", "²"]),
    ("risk", ["place", "alaska", "٣"]), ("risk", ["place", "alaska", "²"]), ("risk", ["move", "١"]),
])
def test_the_reported_traps(slug: str, tokens: list[str]) -> None:
    """The reported inputs, in every sampled state: an EngineError, never an accepted action or a
    crash (a non-ASCII digit is not a number a player typed on purpose)."""
    if slug not in GAMES:
        pytest.skip(f"no {slug}")
    engine = registry.get(slug)
    for state, seat in sample_states(slug):
        for call in (engine.step, engine.apply):
            with pytest.raises(EngineError):
                call(state, seat, list(tokens))


def _numeric_states(slug: str) -> list[tuple[dict[str, Any], int]]:
    """States at a game's rare numeric steps that random play seldom reaches: 极武三国's only
    numbers are a 二选一 card's two answers ("0", "1"), so its first hand card is made one
    (先登死士) and played."""
    if slug != "jiwu":
        return []
    engine = registry.get(slug)
    state = engine.new_state({}, 2, 3)
    while state["phase"] != "main":
        seat = engine.pending(state)[0].seat
        state, _ = engine.apply(state, seat, engine.ai_action(state, seat, random.Random(1)))
    seat = state["turn"]
    iid = state["players"][seat]["hand"][0]
    state["cards"][iid] = "xiandeng"
    state, _ = engine.apply(state, seat, ["play", iid])
    assert state["phase"] == "effect" and state["queue"][0]["op"] == "choose"
    return [(state, seat)]


#: Non-ASCII digits: '²'.isdigit() is true and int('²') raises; int('٣') == 3.
DIGIT_TRAPS = ["²", "٣", "1٣", "１", "𝟗"]


@pytest.mark.parametrize("slug", GAMES)
def test_every_numeric_step_refuses_non_ascii_digits(slug: str) -> None:
    """Wherever a step offers numbers (counts, seats, orientations), a non-ASCII digit in their
    place is an EngineError — checked at every such step one or two tokens deep in every sampled
    state, not left to random search (三国杀's target seats crashed on '²')."""
    engine = registry.get(slug)
    checked = 0
    for state, seat in sample_states(slug) + _numeric_states(slug):
        frontier: list[list[str]] = [[]]
        for _depth in range(3):
            nxt: list[list[str]] = []
            for path in frontier:
                try:
                    options = engine.step(state, seat, path).options
                except EngineError:
                    continue
                if any(o.value.isascii() and o.value.isdigit() for o in options):
                    for trap in DIGIT_TRAPS:
                        for call in (engine.step, engine.apply):
                            with pytest.raises(EngineError):
                                call(state, seat, [*path, trap])
                        checked += 1
                nxt += [[*path, o.value] for o in options[:6]]
            frontier = nxt
    assert checked, f"{slug}: no numeric step reached"
