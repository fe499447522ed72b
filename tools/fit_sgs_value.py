"""Re-fit the 三国杀 hard search's chance-to-win model (``engines/sanguosha/ai_value.py``).

    python3 tools/fit_sgs_value.py --seats 5 --first 110000 --games 1500

Plays normal at every seat from each seed (identity mode, standard heroes), takes the table's
:func:`ai_value.features` at every turn start (one in ``--step`` kept: neighbouring turns say
nearly the same), labels each with the side that won the game, and fits a multinomial logistic
model by full-batch gradient steps on standardised features with a small L2 penalty. It prints
the held-out log loss (last fifth of the games) and the ``MODELS`` entry to paste. Pure Python
(the project has no numpy): about 0.1–0.2 s per game and a few minutes for the fit.

Use tuning seeds only (docs/rules/sanguosha.md "AI levels"): the ladder's reported ranges must
stay fresh.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engines.sanguosha import ENGINE, ai_value  # noqa: E402

Sample = tuple[list[float], int]


def collect(seats: int, seeds: range, step: int) -> list[tuple[int, list[Sample]]]:
    """Per seed, the kept turn-start samples of one all-normal game (games without a winner
    are left out)."""
    out = []
    for seed in seeds:
        state = ENGINE.new_state({"heroes": "standard"}, seats, seed)
        rng = random.Random(seed * 7919 + 17)
        turns: list[list[float]] = []
        turn = None
        for _ in range(20000):
            pending = ENGINE.pending(state)
            if not pending:
                break
            if state["turn"] != turn and state["winners"] is None:
                turn = state["turn"]
                if turn is not None:
                    turns.append(ai_value.features(state))
            req = pending[0]
            state, _ = ENGINE.apply(state, req.seat, ENGINE.ai_action(state, req.seat, rng, "normal", req), req)
        won = state["winners"]
        if not won:
            continue
        roles = {state["players"][i]["role"] for i in won}
        side = ai_value.SIDES.index("Z" if "Z" in roles else "N" if roles == {"N"} else "F")
        out.append((seed, [(x, side) for i, x in enumerate(turns) if (i + seed) % step == 0]))
    return out


def fit(samples: list[Sample], l2: float = 1e-3, steps: int = 250, lr: float = 1.0) -> list[ai_value.Weights]:
    """Softmax regression by gradient descent on standardised features; the weights returned
    act on the raw features."""
    d, n, k = len(samples[0][0]), len(samples), len(ai_value.SIDES)
    mu = [sum(x[j] for x, _ in samples) / n for j in range(d)]
    sd = [max(1e-6, math.sqrt(sum((x[j] - mu[j]) ** 2 for x, _ in samples) / n)) for j in range(d)]
    zs = [([(x[j] - mu[j]) / sd[j] for j in range(d)] + [1.0], y) for x, y in samples]
    w = [[0.0] * (d + 1) for _ in range(k)]
    for _ in range(steps):
        grad = [[0.0] * (d + 1) for _ in range(k)]
        for z, y in zs:
            p = _softmax([sum(a * b for a, b in zip(w[c], z, strict=True)) for c in range(k)])
            for c in range(k):
                g = p[c] - (c == y)
                row = grad[c]
                for j, v in enumerate(z):
                    row[j] += g * v
        for c in range(k):
            for j in range(d + 1):
                w[c][j] -= lr * (grad[c][j] / n + l2 * w[c][j])
    return [(w[c][d] - sum(w[c][j] * mu[j] / sd[j] for j in range(d)),
             tuple(w[c][j] / sd[j] for j in range(d))) for c in range(k)]


def _softmax(scores: list[float]) -> list[float]:
    top = max(scores)
    exp = [math.exp(s - top) for s in scores]
    total = sum(exp)
    return [e / total for e in exp]


def log_loss(model: list[ai_value.Weights], samples: list[Sample]) -> float:
    total = 0.0
    for x, y in samples:
        p = _softmax([b + sum(a * v for a, v in zip(ws, x, strict=True)) for b, ws in model])
        total -= math.log(max(p[y], 1e-12))
    return total / len(samples)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seats", type=int, required=True)
    parser.add_argument("--first", type=int, required=True, help="first seed (tuning seeds only)")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--step", type=int, default=3, help="keep one turn start in STEP")
    args = parser.parse_args(argv)
    games = collect(args.seats, range(args.first, args.first + args.games), args.step)
    cut = len(games) * 4 // 5
    train = [s for _, g in games[:cut] for s in g]
    held = [s for _, g in games[cut:] for s in g]
    model = fit(train)
    base = [sum(y == c for _, y in train) / len(train) for c in range(len(ai_value.SIDES))]
    prior = -sum(math.log(max(base[y], 1e-12)) for _, y in held) / len(held)
    print(f"{len(games)} games, {len(train) + len(held)} samples; held-out log loss "
          f"{log_loss(model, held):.3f} (base rates {prior:.3f})")
    print(f"    {args.seats}: (")
    for side, (b, ws) in zip(ai_value.SIDES, fit(train + held), strict=True):
        print(f"        ({b:+.4f}, ({', '.join(f'{v:+.4f}' for v in ws)})),  # {side}")
    print("    ),")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
