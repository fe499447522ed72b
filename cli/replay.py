"""``python3 tasks.py replay FILE [--images DIR] [--every N] [--lang L]``: play a ``/match export``
file back in the terminal (each step's public log lines, and the board as text art every
``--every`` steps and at the end), or write the board image of every step into ``--images``.

Only public views are shown, as in the Discord viewer. A running match's export has no seed (it
would reveal the deck), so only its public log lines are printed. A file that is not an export,
or whose actions the rules refuse, ends with one clear line and exit code 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from cli.ascii import render as ascii_board
from engines.base import Msg
from i18n import normalize_locale, t, tm
from service.replay import ExportError, Timeline

REQUIRED = ("game", "options", "seats")


def load(path: Path) -> dict[str, Any]:
    """The export in ``path``, checked for the fields a replay needs (ExportError otherwise)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise ExportError(str(err)) from err
    if not isinstance(data, dict):
        raise ExportError("the file holds no JSON object")
    missing = [k for k in REQUIRED if k not in data]
    if missing or not isinstance(data.get("seats"), list):
        raise ExportError(f"missing {', '.join(missing) or 'seats'}")
    if data.get("seed") is not None and not isinstance(data.get("actions"), list):
        raise ExportError("missing actions")
    return data


def _names(data: dict[str, Any]) -> list[str]:
    return [str(s.get("name", i + 1)) for i, s in enumerate(data["seats"])]


def _line(locale: str, events: list[Msg], names: list[str]) -> str:
    return " ".join(tm(locale, m, names) for m in events) or "…"


def run(data: dict[str, Any], locale: str, *, images: Path | None = None, every: int = 10) -> list[str]:
    """The terminal text (and the images written, when ``images``); raises ExportError."""
    names = _names(data)
    out: list[str] = []
    if data.get("seed") is None:  # a running match's export: its public log only
        rows = data.get("public_log") or []
        for i, row in enumerate(rows, 1):
            msgs = [Msg.from_json(e["msg"]) for e in row.get("events", [])]
            out.append(t(locale, "stats.cli.step", step=i, total=len(rows), line=_line(locale, msgs, names)))
        return out
    try:
        timeline = Timeline(data)
    except ExportError:
        raise
    except Exception as err:  # a hand-edited file can break an engine in any way: say where, not a traceback
        raise ExportError(f"the actions do not replay: {type(err).__name__}: {err}") from err
    total = len(timeline) - 1
    if images is not None:
        from render import has_renderer, render_board

        images.mkdir(parents=True, exist_ok=True)
        if not has_renderer(timeline.game):
            raise ExportError(f"no pictures for {timeline.game}")
        for i in range(len(timeline)):
            (images / f"step-{i:04d}.png").write_bytes(render_board(timeline.view_at(i), locale, names))
        out.append(t(locale, "stats.cli.images", count=len(timeline), dir=str(images)))
        return out
    for i, step in enumerate(timeline.steps):
        line = t(locale, "stats.replay.start") if i == 0 else _line(locale, [e.msg for e in step.public], names)
        out.append(t(locale, "stats.cli.step", step=i, total=total, line=line))
        if i == total or (every > 0 and i % every == 0 and i):
            out.extend(ascii_board(timeline.view_at(i), names, locale))
    return out


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="tasks.py replay", description=__doc__.splitlines()[0])
    parser.add_argument("file", type=Path)
    parser.add_argument("--images", type=Path, default=None, help="write every step's board image here")
    parser.add_argument("--every", type=int, default=10, help="print the board every N steps (0: only at the end)")
    parser.add_argument("--lang", default="en")
    args = parser.parse_args(argv)
    locale = normalize_locale(args.lang)
    try:
        lines = run(load(args.file), locale, images=args.images, every=args.every)
    except ExportError as err:
        print(t(locale, "stats.cli.bad_file", file=str(args.file), error=str(err)), file=sys.stderr)
        return 2
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
