"""End-of-match recaps (issue 21, ``render/recap.py``): for one full all-AI game of each game, the
recap's kind, frames, length, size and the time to build it (replay + views + pictures + GIF),
what the publisher's worker thread spends after a match ends. Targets: ≤ 4 MB, ≤ 20 s, a full
Risk game in < 5 s. Run::

    .venv/bin/python -m bench recap [--save DIR]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, os.environ.get("BENCH_ROOT") or str(Path(__file__).resolve().parent.parent))

from engines import registry  # noqa: E402
from render.recap import recap  # noqa: E402

GAMES = (("risk", 5), ("pentactic", 2), ("kingdoms_battle", 4), ("jiwu", 3), ("sanguosha", 8))
NAMES = ["Alice", "Bob 🐉", "陳小明", "Łukasz", "Eve", "Zoë", "王五", "Mallory"]


def export_of(game: str, seats: int, seed: int) -> dict[str, Any]:
    """A whole all-AI game as the service exports it (seed, options, actions)."""
    engine = registry.get(game)
    rng = random.Random(seed)
    state = engine.new_state({}, seats, seed)
    actions = []
    while engine.result(state) is None:
        req = engine.pending(state)[0]
        action = engine.ai_action(state, req.seat, rng, request=req)
        state, _ = engine.apply(state, req.seat, action, request=req)
        actions.append({"seat": req.seat, "action": action, "source": "ai"})
    return {"game": game, "edition": engine.edition, "options": {}, "seed": seed,
            "seats": [{"seat": i} for i in range(seats)], "actions": actions}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--save", type=Path, help="write each recap into this folder")
    ap.add_argument("--seed", type=int, default=11)
    args = ap.parse_args(argv)
    print("| game | seats | actions | recap | frames | length (s) | size (KB) | built in (s) |")
    print("|---|---|---|---|---|---|---|---|")
    for game, seats in GAMES:
        export = export_of(game, seats, args.seed)
        start = time.perf_counter()
        got = recap(export, "en", NAMES[:seats])
        took = time.perf_counter() - start
        assert got is not None
        print(f"| {game} | {seats} | {len(export['actions'])} | {got.filename} | {got.frames} | "
              f"{got.seconds:.1f} | {len(got.data) / 1024:.0f} | {took:.2f} |", flush=True)
        if args.save:
            args.save.mkdir(parents=True, exist_ok=True)
            (args.save / f"{game}_{got.filename}").write_bytes(got.data)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
