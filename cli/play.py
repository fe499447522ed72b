"""One terminal game: a lobby with the player and AI seats, then the play loop.

The player's decisions are walked token by token through ``MatchService.step`` exactly as the
Discord buttons do: choose a numbered option, or type tokens directly.
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Callable
from pathlib import Path

from cli.ascii import LINE_WIDTH, display_width, packed, render_step_picture  # noqa: F401 - display_width re-exported
from cli.terminal import Terminal, TerminalPublisher
from engines import registry
from engines.base import Action, Option
from engines.tokens import ascii_int
from i18n import tm
from service.errors import UserError
from service.matches import MAX_TURN_SECONDS, MatchService
from service.models import MatchInfo
from service.settings import ServiceSettings
from store.db import Store

#: The terminal player's user id (any id works; there is only one human).
PLAYER_ID = 1
#: Option lists longer than this are printed in columns no wider than ``cli.ascii.LINE_WIDTH``.
COLUMNS_FROM = 12
#: Refuse to loop forever if the AI stops making progress (an engine bug).
MAX_IDLE_ROUNDS = 3

Input = Callable[[str], str]


class Quit(Exception):
    """The player typed q or closed stdin."""


async def choose_action(service: MatchService, term: Terminal, match_id: int, request_id: str,
                        ask: Input, game: str = "") -> Action:
    path: list[str] = []
    while True:
        try:
            step = await service.step(match_id, PLAYER_ID, request_id, path)
        except UserError as err:
            term.line(tm(term.locale, err.msg))
            path = path[:-1]
            continue
        if step.complete and not step.options:
            return path
        term.line(tm(term.locale, step.prompt))
        if path:
            term.say("core.cli.path", path=" ".join(path))
        counts = is_count_choice(step.options, term.locale)
        if step.complete:
            term.line("  0. " + term.text("core.cli.submit"))
        if step.picture is not None:
            for row in render_step_picture(game, step.picture, step.options, term.locale):
                term.line(row)
        for row in option_rows(step.options, term.locale, counts=counts):
            term.line(row)
        if not step.options and not step.complete:
            term.say("core.cli.dead_end")
            path = path[:-1]
            continue
        try:
            raw = ask(term.text("core.cli.choose_count" if counts else "core.cli.choose") + " ").strip()
        except EOFError as err:
            raise Quit from err
        if raw in ("q", "quit"):
            raise Quit
        if raw == "b":
            path = path[:-1]
        elif counts and raw in {o.value for o in step.options}:
            path = [*path, raw]  # a count is the number itself, never a menu index
        elif raw == "0" and step.complete:
            return path
        elif counts and ascii_int(raw) is not None:
            term.say("core.cli.invalid")
        elif (index := ascii_int(raw)) is not None and 1 <= index <= len(step.options):  # '²'.isdigit()
            path = [*path, step.options[index - 1].value]
        elif raw:
            candidate = [*path, *raw.split()]
            try:
                await service.step(match_id, PLAYER_ID, request_id, candidate)
            except UserError as err:
                term.line(tm(term.locale, err.msg))
            else:
                path = candidate
        else:
            term.say("core.cli.invalid")


def is_count_choice(options: list[Option], locale: str) -> bool:
    """A choice of a number (armies to move, dice to roll): every value is a number its label
    shows ("3", "All (5)", "Roll 2"). There the player types the number itself; a menu index
    would make "3" mean the third option, which is easily 4 armies. Pentactic's orientations
    ("↻1" for token 0), seat targets ("Seat 1 · distance 0" for token 0) and 鬪三國's rotations
    ("0°" for token 0: a number with a degree sign is an angle) are not counts and keep their
    menu numbers."""
    if not options:
        return False
    for option in options:
        if not option.value.isdecimal() or not option.value.isascii():
            return False
        # The label's first number must be the value: a seat target "Seat 1 · distance 0" (token
        # 0) merely contains a 0, and a 三国杀 victim choice with that one seat was unanswerable.
        first = re.search(r"\d+°?", tm(locale, option.label))
        if first is None or first.group() != option.value:
            return False
    return True


def option_rows(options: list[Option], locale: str, width: int = LINE_WIDTH, *, counts: bool = False) -> list[str]:
    """Numbered choices (or, for a count, the numbers themselves); long lists (board cells) are
    packed into columns to stay on one screen."""
    entries = []
    for i, option in enumerate(options, 1):
        label = tm(locale, option.label)
        if counts:
            entries.append(option.value if label == option.value else f"{option.value}: {label}")
        else:
            entries.append(f"{i}. {label}" if label == option.value else f"{i}. {label} [{option.value}]")
    if len(entries) <= COLUMNS_FROM:
        return ["  " + e for e in entries]
    return packed(entries, width)


def default_seats(game: str, options: dict[str, str]) -> int:
    least, most = registry.get(game).seat_range(options)
    return max(least, min(2, most))


async def _setup(service: MatchService, game: str, *, seats: int | None, options: dict[str, str],
                 ai_level: str | None, locale: str, watch: bool, term: Terminal) -> MatchInfo:
    info = await service.create_lobby(game, host_id=PLAYER_ID, host_name=term.text("core.cli.you"),
                                      locale=locale, options=options, turn_seconds=MAX_TURN_SECONDS,
                                      seat_host=not watch)
    total = seats or default_seats(game, info.options)
    for _ in range(total - len(info.seats)):
        await service.add_ai(info.id, PLAYER_ID, ai_level)
    info = await service.get(info.id)
    for s in info.seats:
        term.say("core.cli.seat_line", seat=s.seat + 1, name=s.name)
    return await service.start(info.id, PLAYER_ID)


async def _loop(service: MatchService, term: Terminal, match_id: int, ask: Input, watch: bool) -> MatchInfo:
    idle = 0
    while True:
        info = await service.get(match_id)
        if info.status != "active":
            return info
        rids = [] if watch else await service.pending_for_user(match_id, PLAYER_ID)
        if not rids:
            done = await service.run_due()
            idle = 0 if done else idle + 1
            if idle >= MAX_IDLE_ROUNDS:
                term.say("core.cli.stalled", match=match_id)
                return info
            continue
        seat = info.seat_of(PLAYER_ID)
        await term.show_match(service, info, seat)
        for req in await service.requests_for_user(match_id, PLAYER_ID):
            term.say("core.cli.your_request", seat=(seat or 0) + 1, prompt=tm(term.locale, req.prompt))
        action = await choose_action(service, term, match_id, rids[0], ask, info.game)
        try:
            await service.act(match_id, PLAYER_ID, rids[0], action)
        except UserError as err:
            term.line(tm(term.locale, err.msg))


def _report(term: Terminal, info: MatchInfo) -> None:
    if info.status == "abandoned":
        term.say("core.cli.abandoned")
        return
    if info.status != "finished" or info.result is None:
        return
    term.say("core.cli.game_over")
    names = [info.seats[w].name for w in info.result["winners"] if 0 <= w < len(info.seats)]
    if names:
        term.say("core.cli.winners", names=", ".join(names))
    else:
        term.say("core.cli.no_winner")


async def play(game: str, *, seats: int | None = None, options: dict[str, str] | None = None,
               ai_level: str | None = None, locale: str = "en", watch: bool = False,
               db: Path | None = None, term: Terminal, ask: Input = input) -> int:
    """Play one game; returns a process exit code (0 finished or quit, 1 stalled or refused).

    ``watch`` seats only AIs and narrates; ``db`` keeps the match in a file instead of a
    temporary one (to inspect or resume it with other tools).
    """
    with tempfile.TemporaryDirectory(prefix="tabletop-cli-") as tmp:
        store = await Store.open(db or Path(tmp) / "cli.sqlite3")
        # One person at the table: nobody to hide a window's answer timing from (the uniform AI
        # delay exists for that), and a delayed AI answer or held pass would only stall the loop.
        service = MatchService(store, rate_limits=False, settings=ServiceSettings(ai_window_delay=0.0))
        publisher = TerminalPublisher(term, None, service, show_board=watch)
        service.set_publisher(publisher)
        try:
            info = await _setup(service, game, seats=seats, options=dict(options or {}), ai_level=ai_level,
                                locale=locale, watch=watch, term=term)
            publisher.seat = info.seat_of(PLAYER_ID)
            info = await _loop(service, term, info.id, ask, watch)
            if info.status == "finished" and not watch:
                await term.show_match(service, info, publisher.seat)
        except UserError as err:
            term.line(tm(locale, err.msg))
            return 1
        except Quit:
            term.say("core.cli.quit")
            return 0
        finally:
            await store.close()
    _report(term, info)
    return 0 if info.status == "finished" else 1
