"""MatchService: the one place that changes matches.

INTERFACE CONTRACT (implemented by the service helper; the Discord layer and CLI code against it).
Every method raises ``service.errors.UserError`` for anything a user did wrong; the match is then
unchanged. Engine errors are converted to UserError.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from engines.base import Action, Step, View
from service.models import LogEntry, MatchInfo, NotifyMode, Publisher
from store.db import Store


class MatchService:
    def __init__(
        self,
        store: Store,
        *,
        publisher: Publisher | None = None,
        clock: Callable[[], float] = time.time,
        ai_rng: Callable[[int, int], random.Random] | None = None,
    ) -> None:
        """``clock`` is injectable for deadline tests; ``ai_rng(match_id, version)`` seeds AIs."""
        raise NotImplementedError

    def set_publisher(self, publisher: Publisher | None) -> None:
        raise NotImplementedError

    # ----- lobby -------------------------------------------------------------------------
    async def create_lobby(self, game: str, *, host_id: int, host_name: str, locale: str,
                           guild_id: int | None = None, channel_id: int | None = None,
                           options: dict[str, str] | None = None,
                           turn_seconds: int = 86400) -> MatchInfo:
        """Open a lobby; the host takes seat 0. Rate-limited per user and channel."""
        raise NotImplementedError

    async def join(self, match_id: int, user_id: int, name: str) -> MatchInfo: ...
    async def leave(self, match_id: int, user_id: int) -> MatchInfo: ...
    async def add_ai(self, match_id: int, by_user: int, level: str | None = None) -> MatchInfo: ...
    async def remove_ai(self, match_id: int, by_user: int) -> MatchInfo: ...
    async def set_option(self, match_id: int, by_user: int, name: str, value: str) -> MatchInfo: ...
    async def set_turn_seconds(self, match_id: int, by_user: int, seconds: int) -> MatchInfo: ...
    async def set_location(self, match_id: int, *, thread_id: int | None = None,
                           lobby_message_id: int | None = None) -> MatchInfo: ...
    async def start(self, match_id: int, by_user: int) -> MatchInfo:
        """Deal the game (engine.new_state with a fresh seed), arm deadlines, publish 'started'."""
        raise NotImplementedError

    # ----- play ---------------------------------------------------------------------------
    async def step(self, match_id: int, user_id: int, request_id: str, path: Action) -> Step:
        """Choices after ``path`` for the user's request (UserError if stale / not theirs)."""
        raise NotImplementedError

    async def act(self, match_id: int, user_id: int, request_id: str, action: Action) -> MatchInfo:
        """Apply under the match lock; refuse if ``request_id`` is no longer pending for the
        user's seat (stale button, double click). State + log + deadlines + outbox in one
        transaction; publish after commit; then let AI seats answer their requests."""
        raise NotImplementedError

    async def resign(self, match_id: int, user_id: int) -> MatchInfo: ...
    async def abandon(self, match_id: int, by_user: int, *, is_manager: bool = False) -> MatchInfo: ...

    # ----- reading ------------------------------------------------------------------------
    async def get(self, match_id: int) -> MatchInfo: ...
    async def view(self, match_id: int, seat: int | None) -> View: ...
    async def view_for_user(self, match_id: int, user_id: int | None) -> View: ...
    async def pending_for_user(self, match_id: int, user_id: int) -> list[str]:
        """Request ids the user must answer now."""
        raise NotImplementedError

    async def log(self, match_id: int, limit: int = 20) -> list[LogEntry]: ...
    async def matches_for_user(self, user_id: int, *, active_only: bool = True) -> list[MatchInfo]: ...
    async def matches_in_channel(self, channel_id: int) -> list[MatchInfo]: ...

    # ----- users --------------------------------------------------------------------------
    async def set_notify(self, user_id: int, mode: NotifyMode) -> None: ...
    async def get_notify(self, user_id: int) -> NotifyMode: ...

    # ----- time ---------------------------------------------------------------------------
    async def run_due(self) -> int:
        """Send due reminders, apply timeouts (default/AI answer) and pending AI moves, deliver
        undelivered outbox entries. Returns how many things were done. Called by the scheduler
        loop and after start-up, so everything resumes after a restart."""
        raise NotImplementedError
