"""极武三国: AI self-play figures for the board and market design (issue 11) and the speed of a full
4-AI game.

For each player count (2, 3, 4) it plays N seeded all-AI games and reports how games end (all
soldiers deployed vs central deck empty), length (turns and rounds), the first player's win rate,
the spread of final scores, 功勋 by source, duels fought, and per card how often the winner bought
it against a loser (a card bought far more by winners may win by itself). Run::

    .venv/bin/python -m bench jiwu [--games N] [--markdown]

``--fair`` prints only the start player's figures, each with its 95 % interval (Wilson) and the
seed range it was played on: tuning and reporting seeds are kept apart (issue 23; the ranges used
are named in ``docs/rules/jiwu.md``), e.g. the reported figures::

    python3 tasks.py bench --load 0 jiwu --fair --games 1000 --seeds 900000

``--rules 1`` plays the rules games stored before edition 2 followed (turn-order placement, all
80 market cards), for before/after figures on the same seeds.

The board, market and hand pictures are measured by ``bench/bench_render_jiwu.py``.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(os.environ.get("BENCH_ROOT") or Path(__file__).resolve().parent.parent)
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402

from engines.jiwu import ENGINE  # noqa: E402
from engines.jiwu import rules as R  # noqa: E402
from engines.jiwu.data import cards  # noqa: E402
from engines.jiwu.engine import JiwuEngine  # noqa: E402

PARTS = ("kill", "city", "total", "region", "total_end", "promoted", "deck")


def play(seats: int, seed: int, levels: list[str] | None = None,
         ending: str = "round", rules: int = R.RULES) -> tuple[dict[str, Any], float, int]:
    """One game: (final state, seconds, actions)."""
    levels = levels or ["normal"] * seats
    rng = random.Random(seed)
    engine = ENGINE if rules == R.RULES else JiwuEngine(rules_edition=rules)
    state = engine.new_state({"ending": ending}, seats, seed)
    actions = 0
    start = time.perf_counter()
    while not ENGINE.result(state):
        req = ENGINE.pending(state)[0]
        state, _ = ENGINE.apply(state, req.seat, ENGINE.ai_action(state, req.seat, rng, levels[req.seat]))
        actions += 1
    return state, time.perf_counter() - start, actions


def figures(seats: int, games: int, base: int = 0, ending: str = "round", rules: int = R.RULES) -> dict[str, Any]:
    rows = []
    by_winner: Counter[str] = Counter()
    by_loser: Counter[str] = Counter()
    parts: Counter[str] = Counter()
    for g in range(games):
        state, secs, actions = play(seats, base + g, ending=ending, rules=rules)
        scores = [R.score(state, s) for s in range(seats)]
        win = state["winners"][0]
        for s in range(seats):
            target = by_winner if s == win else by_loser
            target.update(state["players"][s]["bought"])
            parts.update({k: v for k, v in R.score_parts(state, s).items()})
        ordered = sorted(scores, reverse=True)
        rows.append({"market": state["end_reason"] == "market", "turns": state["turns"],
                     "rounds": state["turns"] / seats, "actions": actions, "first": win == state["first"],
                     "win": win,
                     "top": ordered[0], "margin": ordered[0] - ordered[1], "low": ordered[-1],
                     "sd": statistics.pstdev(scores), "duels": state["stats"]["duels"],
                     "deaths": state["stats"]["general_deaths"], "ms": secs * 1000})

    def mean(k: str) -> float:
        return statistics.fmean(r[k] for r in rows)
    total_vp = sum(parts.values()) or 1
    losers = games * (seats - 1)
    ratio = {}
    for c in cards().of_kind("market") + cards().of_kind("supply"):
        w, lo = by_winner[c.id] / games, by_loser[c.id] / losers
        ratio[c.id] = (w, lo)
    return {"seats": seats, "games": games, "seeds": (base, base + games - 1), "rules": rules,
            "first_won": sum(r["first"] for r in rows),
            "by_market": sum(r["market"] for r in rows) / games,
            "turns": mean("turns"), "turns_min": min(r["turns"] for r in rows),
            "turns_max": max(r["turns"] for r in rows), "rounds": mean("rounds"), "actions": mean("actions"),
            "first": sum(r["first"] for r in rows) / games,
            "by_seat": [sum(r["win"] == s for r in rows) / games for s in range(seats)], "top": mean("top"), "low": mean("low"),
            "margin": mean("margin"), "sd": mean("sd"), "duels": mean("duels"), "deaths": mean("deaths"),
            "parts": {k: parts[k] / total_vp for k in PARTS}, "cards": ratio,
            "ms": statistics.median(r["ms"] for r in rows), "ms_max": max(r["ms"] for r in rows)}


def table(results: list[dict[str, Any]]) -> list[str]:
    out = ["| players | games | ends: soldiers / market | turns (min–max) | rounds | first player wins | "
           "wins by seat | top score | lowest | winner's margin | score s.d. | duels | generals killed | ms/game (max) |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for f in results:
        out.append(f"| {f['seats']} | {f['games']} | {1 - f['by_market']:.0%} / {f['by_market']:.0%} | "
                   f"{f['turns']:.1f} ({f['turns_min']}–{f['turns_max']}) | {f['rounds']:.1f} | {f['first']:.0%} | "
                   f"{' / '.join(f'{w:.0%}' for w in f['by_seat'])} | "
                   f"{f['top']:.1f} | {f['low']:.1f} | {f['margin']:.1f} | {f['sd']:.1f} | {f['duels']:.2f} | "
                   f"{f['deaths']:.2f} | {f['ms']:.0f} ({f['ms_max']:.0f}) |")
    out += ["", "功勋 by source (share of all 功勋 scored):", "",
            "| players | " + " | ".join(PARTS) + " |", "|---" * (len(PARTS) + 1) + "|"]
    for f in results:
        out.append(f"| {f['seats']} | " + " | ".join(f"{f['parts'][k]:.0%}" for k in PARTS) + " |")
    out += ["", "Copies bought per game by the winner vs by one loser (all player counts):", "",
            "| card | winner | loser | ratio |", "|---|---|---|---|"]
    merged: dict[str, list[float]] = {}
    for f in results:
        for cid, (w, lo) in f["cards"].items():
            acc = merged.setdefault(cid, [0.0, 0.0])
            acc[0] += w / len(results)
            acc[1] += lo / len(results)
    for cid, (w, lo) in sorted(merged.items(), key=lambda kv: -(kv[1][0] / max(kv[1][1], 0.01))):
        out.append(f"| {cid} | {w:.2f} | {lo:.2f} | {w / lo:.2f} |" if lo else f"| {cid} | {w:.2f} | {lo:.2f} | – |")
    return out


def fairness(results: list[dict[str, Any]]) -> list[str]:
    """The start player's edge per player count: wins, 95 % interval, points over a fair share."""
    out = ["| players | rules | seeds | games | start player wins (95 %) | edge over fair | wins by seat | "
           "ends: soldiers / market | rounds |", "|---|---|---|---|---|---|---|---|---|"]
    for f in results:
        lo, hi = harness.wilson_bounds(f["first_won"], f["games"])
        fair = 1 / f["seats"]
        out.append(f"| {f['seats']} | {f['rules']} | {f['seeds'][0]}–{f['seeds'][1]} | {f['games']} | "
                   f"{f['first']:.1%} ({lo:.1%}–{hi:.1%}) | {100 * (f['first'] - fair):+.1f} "
                   f"({100 * (lo - fair):+.1f} to {100 * (hi - fair):+.1f}) | "
                   f"{' / '.join(f'{w:.1%}' for w in f['by_seat'])} | "
                   f"{1 - f['by_market']:.0%} / {f['by_market']:.0%} | {f['rounds']:.1f} |")
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--ending", choices=("turn", "round"), default="round",
                    help="the game-end option: the seed's end of turn, or the end of the round")
    ap.add_argument("--seats", type=int, nargs="+", default=[2, 3, 4], choices=(2, 3, 4))
    ap.add_argument("--seeds", type=int, default=None,
                    help="first seed of every player count's games (default: 1000 × players)")
    ap.add_argument("--rules", type=int, default=R.RULES, choices=range(1, R.RULES + 1),
                    help="the rules edition (1: before issue 23's fair start and deal)")
    ap.add_argument("--fair", action="store_true", help="only the start player's figures")
    args = ap.parse_args()
    results = []
    for seats in args.seats:
        base = 1000 * seats if args.seeds is None else args.seeds
        results.append(figures(seats, args.games, base=base, ending=args.ending, rules=args.rules))
        if args.fair:
            print("\n".join(fairness(results[-1:])[-1:]), flush=True)
    if args.fair:
        print("\n".join(fairness(results)))
        return 0
    if args.markdown:
        print("\n".join(table(results)))
    else:
        for line in table(results)[:6]:
            print(line)
    state, secs, actions = play(4, 7)
    print(f"full 4-AI game: {actions} actions, {state['turns']} turns, {secs * 1000:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
