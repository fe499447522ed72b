"""Risk map render time and PNG size, and a turn as a player waits for it: act + view + PNG.

Targets (issue 13): act + view + PNG p99 < 50 ms, every PNG < 400 KB.

Views come from real AI-vs-AI games (fixed seeds) in every variant, taken early, half-way and at the
end, plus a synthetic worst case (six players, three-digit armies, HQs, a conquest). The first
render of a locale also builds the cached map layers; that cold time is reported separately.
Run::

    .venv/bin/python bench/bench_render_risk.py [--repeat N] [--turns N] [--save DIR] [--locale zh-TW]

"act + view + PNG" plays AI moves of 6-player mission games and times, for each move, the
engine's ``apply``, the public ``view`` and the PNG of that view, in sequence, as a post needs them.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402

harness.use_code()

from render import risk  # noqa: E402
from render.risk_map import layout  # noqa: E402

NAMES = ["Alice", "Bob 🐉", "陳小明", "Łukasz", "王大力", "Zoë"]
GAMES = (("classic", 3), ("classic", 6), ("neutral", 2), ("hq", 4), ("mission", 5))
LIMIT_KB = 400


def game_views(variant: str, seats: int, seed: int = 5, max_actions: int = 3000) -> dict[str, dict[str, Any]]:
    """Public views early, half-way and at the end (or after ``max_actions``) of one AI game."""
    from engines.registry import get

    engine = get("risk")
    state = engine.new_state(engine.normalize_options({"variant": variant}), seats, seed)
    rng = random.Random(seed)
    history = [engine.view(state, None)]
    for _ in range(max_actions):
        pending = engine.pending(state)
        if not pending:
            break
        seat = pending[0].seat
        state, _ = engine.apply(state, seat, engine.ai_action(state, seat, rng))
        history.append(engine.view(state, None))
    return {"early": history[len(history) // 10], "mid": history[len(history) // 2], "end": history[-1]}


def worst_case() -> dict[str, Any]:
    ids = list(layout().territories)
    rng = random.Random(1)
    terr = {tid: {"owner": i % 6, "armies": rng.randrange(100, 999)} for i, tid in enumerate(ids)}
    players = [{"seat": s, "color": risk.COLOR_NAMES[s], "cards": 5, "territories": 7,
                "armies": sum(v["armies"] for v in terr.values() if v["owner"] == s), "alive": True,
                "hq": ids[s * 7], "hqs_captured": ids[:2]} for s in range(6)]
    return {"game": "risk", "variant": "hq", "phase": "attack", "turn": 3, "round": 42, "territories": terr,
            "players": players, "trade_count": 9, "next_trade_value": 30, "reinforcements_left": 0,
            "winners": None, "last_battle": {"from": "alaska", "to": "kamchatka", "att_dice": [6, 6, 5],
                                             "def_dice": [4, 4], "att_loss": 0, "def_loss": 2,
                                             "conquered": True}}


def act_view_png(turns: int, locale: str) -> tuple[list[float], list[int]]:
    """Milliseconds and bytes of apply + view + PNG for ``turns`` AI moves (the AI's own thinking
    is not counted: a human's click arrives as an action)."""
    from engines.registry import get

    engine = get("risk")
    times: list[float] = []
    sizes: list[int] = []
    seed = 0
    while len(times) < turns:
        state = engine.new_state(engine.normalize_options({"variant": "mission"}), 6, 100 + seed)
        rng = random.Random(seed)
        seed += 1
        while len(times) < turns and engine.pending(state):
            seat = engine.pending(state)[0].seat
            action = engine.ai_action(state, seat, rng)
            t0 = time.perf_counter()
            state, _ = engine.apply(state, seat, action)
            png = risk.render(engine.view(state, None), locale, NAMES)
            times.append((time.perf_counter() - t0) * 1000)
            sizes.append(len(png))
    return times, sizes


def measure(view: dict[str, Any], locale: str, repeat: int) -> tuple[float, int]:
    times = []
    png = b""
    for _ in range(repeat):
        t0 = time.perf_counter()
        png = risk.render(view, locale, NAMES)
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000, len(png)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=10)
    ap.add_argument("--save", type=Path, help="write every PNG into this folder")
    ap.add_argument("--locale", default="zh-TW")
    ap.add_argument("--turns", type=int, default=400, help="moves timed for act + view + PNG")
    args = ap.parse_args(argv)
    with harness.Session("render_risk") as s:
        return _run(s, args)


def _run(s: harness.Session, args: argparse.Namespace) -> int:
    cases: list[tuple[str, dict[str, Any]]] = [("worst case", worst_case())]
    try:
        for variant, seats in GAMES:
            for stage, view in game_views(variant, seats).items():
                cases.append((f"{variant} {seats}p {stage}", view))
    except ImportError:
        print("(risk engine not importable: synthetic view only)")

    t0 = time.perf_counter()
    risk.render(cases[0][1], args.locale, NAMES)
    s.figure("cold first render (builds the cached layers)", (time.perf_counter() - t0) * 1000, "ms")
    print(f"{'case':<24} {'ms':>7} {'KB':>7}")
    worst_ms, worst_kb = 0.0, 0.0
    for label, view in cases:
        ms, nbytes = measure(view, args.locale, args.repeat)
        worst_ms, worst_kb = max(worst_ms, ms), max(worst_kb, nbytes / 1024)
        print(f"{label:<24} {ms:7.1f} {nbytes / 1024:7.1f}")
        if args.save:
            args.save.mkdir(parents=True, exist_ok=True)
            (args.save / f"risk_{label.replace(' ', '_')}.png").write_bytes(risk.render(view, args.locale, NAMES))
    s.figure("picture, slowest median", worst_ms, "ms")
    s.figure("largest PNG", worst_kb, "KB", note=f"limit {LIMIT_KB} KB")
    try:
        times, sizes = act_view_png(args.turns, args.locale)
    except ImportError:
        return 0 if worst_kb < LIMIT_KB else 1
    s.series("apply + view + PNG", times, note="moves of 6-player mission games")
    s.figure("PNG median", statistics.median(sizes) / 1024, "KB")
    worst_kb = max(worst_kb, max(sizes) / 1024)
    return 0 if worst_kb < LIMIT_KB else 1


if __name__ == "__main__":
    sys.exit(main())
