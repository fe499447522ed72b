"""``python -m cli play GAME [...]`` and ``python -m cli list``."""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence
from pathlib import Path

from engines import registry
from i18n import LOCALES, has, normalize_locale, t


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
    key = f"{slug}.name"
    return t(locale, key) if has(key, locale) else slug


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
    if args.command == "list":
        term.say("core.cli.games")
        for slug in games:
            term.say("core.cli.game_line", slug=slug, name=_game_name(slug, locale))
        return 0
    if args.game not in games:
        term.say("core.cli.unknown_game", game=args.game, games=", ".join(games))
        return 2
    options = _options(args.option)
    if options is None:
        term.say("core.cli.bad_option_arg")
        return 2
    from cli.play import play

    return asyncio.run(play(args.game, seats=args.seats, options=options, ai_level=args.ai_level,
                            locale=locale, watch=args.watch, db=args.db, term=term))


if __name__ == "__main__":
    sys.exit(main())
