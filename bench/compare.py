"""Before/after figures on a shared machine: one bench run against two checkouts, interleaved.

Other work on the machine shifts timings from minute to minute, so the two sides are run in
turn (before, after, before, after ...) and each output is printed with its side; compare the
medians of the rounds. ``BASE`` is a checkout of the code before the change (for example
``git worktree add /tmp/base main`` or ``git archive main | tar -x -C /tmp/base``). Run::

    .venv/bin/python bench/compare.py BASE NAME [--rounds 3] [-- bench args]

The bench script is always the one of this checkout (it reaches the code under test through the
``BENCH_ROOT`` variable), so both sides are measured the same way.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("base", type=Path, help="checkout of the code before the change")
    ap.add_argument("name", help="bench name (risk, render, render_risk, png ...)")
    ap.add_argument("--rounds", type=int, default=3)
    argv = list(sys.argv[1:] if argv is None else argv)
    extra = argv[argv.index("--") + 1:] if "--" in argv else []
    ns = ap.parse_args(argv[:argv.index("--")] if "--" in argv else argv)
    script = HERE / f"bench_{ns.name.removeprefix('bench_').removesuffix('.py')}.py"
    if not script.exists():
        print(f"no bench {script.name}")
        return 2
    sides = {"before": ns.base.resolve(), "after": HERE.parent}
    for r in range(ns.rounds):
        for side, root in sides.items():
            print(f"== round {r + 1} {side} ({root}) ==", flush=True)
            env = dict(os.environ, BENCH_ROOT=str(root))
            subprocess.call([sys.executable, str(script), *extra], cwd=root, env=env)
    return 0


if __name__ == "__main__":
    sys.exit(main())
