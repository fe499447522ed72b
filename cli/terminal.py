"""Printing to the terminal: a Publisher that narrates committed changes, and the board view."""

from __future__ import annotations

from typing import TextIO

from engines import registry
from engines.base import Event
from i18n import t, tm
from service.matches import MatchService
from service.models import Change, MatchInfo


class Terminal:
    """Everything the terminal front-end prints goes through here (one place for the locale)."""

    def __init__(self, out: TextIO, locale: str) -> None:
        self.out = out
        self.locale = locale

    def text(self, key: str, **params: object) -> str:
        return t(self.locale, key, **params)

    def say(self, key: str, **params: object) -> None:
        self.line(self.text(key, **params))

    def line(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    async def show_match(self, service: MatchService, info: MatchInfo, seat: int | None) -> None:
        """describe() lines (unless the board says it all) and the ASCII picture of what ``seat``
        may see."""
        from cli.ascii import covers_status, render

        engine = registry.get(info.game)
        view = await service.view(info.id, seat)
        self.say("core.cli.header", game=info.game, version=info.version)
        names = [s.name for s in info.seats]
        if not covers_status(info.game):
            for msg in engine.describe(view):
                self.line(tm(self.locale, msg, names))
        for text in render(view, names, self.locale):
            self.line(text)


class TerminalPublisher:
    """Narrates changes: public events for all, private ones only for the player's own seat."""

    def __init__(self, term: Terminal, seat: int | None, service: MatchService | None = None,
                 show_board: bool = False) -> None:
        self.term = term
        self.seat = seat
        self.service = service
        self.show_board = show_board
        self.seen: set[tuple[int, int, str, int | None]] = set()

    def _visible(self, event: Event) -> bool:
        return event.to is None or (self.seat is not None and self.seat in event.to)

    async def publish(self, match: MatchInfo, change: Change) -> None:
        key = (change.match_id, change.version, change.kind, change.seat)
        if key in self.seen:  # delivery is at least once
            return
        self.seen.add(key)
        for event in change.events:
            if not self._visible(event):
                continue
            text = tm(self.term.locale, event.msg, [s.name for s in match.seats])
            if event.to is not None:
                text = t(self.term.locale, "core.cli.private", text=text)
            self.term.line(text)
        if change.note is not None:
            self.term.line(tm(self.term.locale, change.note))
        if self.show_board and self.service is not None and change.kind in ("started", "acted", "timeout"):
            await self.term.show_match(self.service, match, self.seat)
