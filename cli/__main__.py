"""``python -m cli play GAME [...]`` and ``python -m cli list``."""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from engines import registry
from engines.base import Engine
from i18n import LOCALES, has, normalize_locale, t, tm

if TYPE_CHECKING:
    from cli.terminal import Terminal


def _parser(locale: str) -> argparse.ArgumentParser:
    def h(key: str) -> str:
        return t(locale, f"core.cli.help.{key}")

    parser = argparse.ArgumentParser(prog="python -m cli", description=h("prog"))
    parser.add_argument("--lang", default="en", help=h("lang"))
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help=h("list"))
    play = sub.add_parser("play", help=h("play"))
    play.add_argument("game", help=h("game"))
    play.add_argument("--seats", type=int, default=None, help=h("seats"))
    play.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help=h("option"))
    play.add_argument("--ai-level", default=None, help=h("ai_level"))
    play.add_argument("--lang", default=None, help=h("lang"))
    play.add_argument("--watch", action="store_true", help=h("watch"))
    play.add_argument("--db", type=Path, default=None, help=h("db"))
    return parser


def _options(pairs: Sequence[str]) -> dict[str, str] | None:
    out: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            return None
        out[name.strip()] = value.strip()
    return out


def _game_name(slug: str, locale: str) -> str:
    """The game's catalog name (its own ``<slug>.name``, else the Discord list's), else the slug."""
    for key in (f"{slug}.name", f"discord.game.{slug}"):
        if has(key, locale):
            return t(locale, key)
    return slug


def check_choices(engine: Engine, options: dict[str, str], ai_level: str | None, locale: str) -> str | None:
    """Why these options or this AI level cannot be used, listing the valid ones; None if fine.

    The engine alone ignores unknown option names and names only the bad value; at a prompt
    the player needs to see what they could have typed instead.
    """
    specs = {spec.name: spec for spec in engine.option_specs()}
    for name, value in options.items():
        spec = specs.get(name)
        if spec is None:
            return t(locale, "core.cli.unknown_option", option=name,
                     options=t(locale, "core.cli.list_sep").join(specs) or "-")
        values = [v for v, _ in spec.choices]
        if value not in values:
            shown = t(locale, "core.cli.list_sep").join(
                t(locale, "core.cli.value_choice", value=v, label=tm(locale, label)) for v, label in spec.choices)
            return t(locale, "core.cli.bad_value", option=name, value=value, values=shown)
    levels = engine.ai_levels()
    if ai_level is not None and ai_level not in levels:
        return t(locale, "core.cli.bad_ai_level", level=ai_level, levels=t(locale, "core.cli.list_sep").join(levels))
    return None


def _list_games(term: Terminal, games: list[str], locale: str) -> int:
    term.say("core.cli.games")
    for slug in games:
        term.say("core.cli.game_line", slug=slug, name=_game_name(slug, locale))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args_in = list(sys.argv[1:] if argv is None else argv)
    pre = argparse.ArgumentParser(add_help=False)
    pre.add_argument("--lang", default="en")
    known, _ = pre.parse_known_args(args_in)
    args = _parser(normalize_locale(known.lang)).parse_args(args_in)
    locale = normalize_locale(getattr(args, "lang", None) or known.lang)
    if locale not in LOCALES:
        locale = "en"
    from cli.terminal import Terminal

    term = Terminal(sys.stdout, locale)
    games = registry.available()
    if args.command == "list" or args.game == "list":  # "play list" lists too
        return _list_games(term, games, locale)
    if args.game not in games:
        term.say("core.cli.unknown_game", game=args.game, games=", ".join(games))
        return 2
    options = _options(args.option)
    if options is None:
        term.say("core.cli.bad_option_arg")
        return 2
    problem = check_choices(registry.get(args.game), options, args.ai_level, locale)
    if problem is not None:
        term.line(problem)
        return 2
    from cli.play import play

    return asyncio.run(play(args.game, seats=args.seats, options=options, ai_level=args.ai_level,
                            locale=locale, watch=args.watch, db=args.db, term=term))


if __name__ == "__main__":
    sys.exit(main())
