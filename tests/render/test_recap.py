"""End-of-match recaps: an animation within Discord's limits for the board games, a timeline for
三国杀, both built from public views only."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from PIL import Image

from engines import registry
from render import recap as R


def _export(game: str, seats: int, seed: int, most: int = 10_000) -> dict[str, Any]:
    engine = registry.get(game)
    rng = random.Random(seed)
    state = engine.new_state({}, seats, seed)
    actions = []
    while engine.result(state) is None and len(actions) < most:
        req = engine.pending(state)[0]
        action = engine.ai_action(state, req.seat, rng, request=req)
        state, _ = engine.apply(state, req.seat, action, request=req)
        actions.append({"seat": req.seat, "action": action, "source": "ai"})
    return {"game": game, "edition": engine.edition, "options": {}, "seed": seed,
            "seats": [{"seat": i} for i in range(seats)], "actions": actions}


def _public_only(monkeypatch: pytest.MonkeyPatch, game: str) -> list[Any]:
    engine = registry.get(game)
    seen: list[Any] = []
    real = engine.view

    def view(state: dict, seat: int | None) -> dict:
        seen.append(seat)
        return real(state, seat)

    monkeypatch.setattr(engine, "view", view)
    return seen


@pytest.mark.parametrize(("game", "seats", "most"), [("pentactic", 2, 10_000), ("risk", 3, 160),
                                                     ("kingdoms_battle", 3, 90), ("jiwu", 2, 90)])
def test_a_board_game_recap_is_an_animation_within_discords_limits(
        monkeypatch: pytest.MonkeyPatch, game: str, seats: int, most: int) -> None:
    export = _export(game, seats, 7, most)
    seen = _public_only(monkeypatch, game)
    got = R.recap(export, "en", [f"P{i}" for i in range(seats)])
    assert got is not None and got.filename == "recap.gif"
    assert seen and set(seen) == {None}  # public views only
    assert len(got.data) <= R.MAX_BYTES and got.seconds <= R.MAX_SECONDS
    img = Image.open(io.BytesIO(got.data))
    assert img.n_frames == got.frames <= R.MAX_FRAMES and img.width <= R.WIDTH
    assert 2 <= got.frames <= min(R.MAX_FRAMES, len(R.turn_ends(export)))


def test_frames_are_taken_where_the_turn_passes_and_thinned_evenly() -> None:
    export = {"actions": [{"seat": s} for s in (0, 0, 1, 1, 1, 0, 2)]}
    assert R.turn_ends(export) == [1, 4, 5, 6]
    assert R.thin(list(range(100)), 5) == [0, 25, 50, 74, 99]
    assert R.thin([3, 4], 5) == [3, 4]
    for n in (1, 2, 10, 40, 400):
        assert R.FRAME_MS[0] <= R.frame_ms(n) <= R.FRAME_MS[1]
    assert (R.MAX_FRAMES - 1) * R.frame_ms(R.MAX_FRAMES) + R.HOLD_MS <= R.MAX_SECONDS * 1000


def test_the_sanguosha_timeline_shows_hp_deaths_and_winners_from_public_views(monkeypatch: pytest.MonkeyPatch) -> None:
    export = _export("sanguosha", 6, 3)
    engine = registry.get("sanguosha")
    seen = _public_only(monkeypatch, "sanguosha")
    line = R.timeline(export)
    assert set(seen) == {None}
    final = engine.view(_final(export), None)
    dead = {p["seat"] for p in final["players"] if not p["alive"]}
    assert {seat for _r, seat, _src in line.deaths} == dead
    assert sorted(line.winners) == sorted(final["winners"])
    assert line.rounds == sorted(line.rounds) and line.rounds[0] == 1
    for seat, values in enumerate(line.hp):
        assert all(v is None or v <= line.max_hp[seat] for v in values)
        if seat in dead:
            assert values[-1] is None
    got = R.recap(export, "zh-TW", [f"玩家{i}" for i in range(6)])
    assert got is not None and got.filename == "timeline.png"
    assert Image.open(io.BytesIO(got.data)).width >= 550


def _final(export: dict[str, Any]) -> dict:
    from service.replay import replay

    return replay(export)


def test_an_empty_log_has_no_recap() -> None:
    for game in ("risk", "sanguosha"):
        export = _export(game, 3, 1, most=0)
        assert R.recap(export, "en", ["a", "b", "c"]) is None
