"""Why a lone 三国杀 AI renegade loses: the AI plays the renegade seat(s), random players the
rest (as in ``bench_sanguosha_ai.win_rate``), and every game is sorted into

- won;
- lost with the renegade dead (with how many others were still alive when it died);
- lost with the renegade alive: the lord died first (with who dealt the lord's last damage,
  by role and cause);

plus the HP the renegade lost and dealt, by cause (杀, 决斗, 南蛮入侵, 闪电 …) and by the other
seat's role; damage dealt to the lord is split into before and in the final 1-v-1.

The cause comes from the engine's ``damage`` frame (its ``via``), read by wrapping the frame
handler for the run only (restored afterwards); decisions are untouched.

Run::

    .venv/bin/python -m bench.bench_sanguosha_renegade [--games 100] [--seats 8 10] [--heroes standard]
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.bench_sanguosha_ai import OPTIONS, ai_player, random_player  # noqa: E402
from engines.sanguosha import ENGINE, ai, frames  # noqa: E402

State = dict[str, Any]


def breakdown(n: int, games: int, seed0: int = 7000) -> Counter[str]:
    """Outcome and damage counters over ``games`` seeded games at ``n`` seats (same seeds as
    the win-rate test and bench)."""
    out: Counter[str] = Counter()
    rens: list[int] = []
    last_on_lord: list[str] = ["?"]
    handler = frames.FLOW.kinds["damage"]

    def role(state: State, seat: int | None) -> str:
        return "-" if seat is None else state["players"][seat]["role"]

    def watched(ctx: Any, f: dict[str, Any]) -> None:
        stage = f["st"]
        state = ctx.state
        dst = f["dst"]
        before = state["players"][dst]["hp"]
        handler(ctx, f)
        lost = before - state["players"][dst]["hp"]
        if stage != 2 or lost <= 0:
            return
        src = f["src"]
        if dst == state["lord"]:
            last_on_lord[0] = f"{role(state, src)} {f['via']}"
        if dst in rens:
            out[f"HP lost: {f['via']} from {role(state, src)}"] += lost
        elif src in rens:
            final = dst == state["lord"] and sum(p["alive"] for p in state["players"]) == 2
            out[f"HP dealt: {f['via']} to {role(state, dst)}{' (final 1-v-1)' if final else ''}"] += lost

    frames.FLOW.kinds["damage"] = watched
    try:
        for g in range(games):
            seed = seed0 + g
            state = ENGINE.new_state(dict(OPTIONS), n, seed)
            rng = random.Random(seed)
            rens[:] = [i for i, p in enumerate(state["players"]) if p["role"] == "N"]
            died_with: int | None = None
            while ENGINE.result(state) is None:
                seat = ENGINE.pending(state)[0].seat
                player = ai_player if seat in rens else random_player
                state, _ = ENGINE.apply(state, seat, player(state, seat, rng))
                if died_with is None and not any(state["players"][r]["alive"] for r in rens):
                    died_with = sum(p["alive"] for p in state["players"])
            won = ENGINE.result(state).winners
            if any(s in rens for s in won):
                out["game: won"] += 1
            elif died_with is not None:
                out["game: lost, renegade dead"] += 1
                out[f"  renegade died with {died_with} others alive"] += 1
            else:
                out["game: lost, lord died first"] += 1
                out[f"  lord's last damage: {last_on_lord[0]}"] += 1
    finally:
        frames.FLOW.kinds["damage"] = handler
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seats", type=int, nargs="*", default=[8, 10])
    parser.add_argument("--heroes", default="")
    args = parser.parse_args()
    ai.STRICT = True
    if args.heroes:
        OPTIONS["heroes"] = args.heroes
    for n in args.seats:
        print(f"{n} seats, {args.games} games, AI renegade(s) vs random players")
        for key, count in sorted(breakdown(n, args.games).items()):
            print(f"  {key}: {count}")


if __name__ == "__main__":
    main()
