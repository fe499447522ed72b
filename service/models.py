"""Plain data the service hands to its callers (cogs, CLI, tests). No discord types here."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from engines.base import Event, Msg

MatchStatus = Literal["lobby", "active", "finished", "abandoned"]
NotifyMode = Literal["mention", "dm", "both", "none"]


@dataclass(frozen=True)
class SeatInfo:
    seat: int
    user_id: int | None  # None for an AI seat
    name: str
    ai_level: str | None = None  # set for AI seats
    resigned: bool = False
    away: bool = False  # timed out twice in a row: the AI plays for them (托管) until they are back

    @property
    def is_ai(self) -> bool:
        return self.user_id is None


@dataclass(frozen=True)
class MatchInfo:
    id: int
    game: str
    options: dict[str, str]
    status: MatchStatus
    version: int
    host_id: int
    locale: str
    turn_seconds: int
    seats: list[SeatInfo]
    guild_id: int | None = None
    channel_id: int | None = None
    thread_id: int | None = None
    lobby_message_id: int | None = None
    created_at: float = 0.0
    updated_at: float = 0.0
    result: dict[str, Any] | None = None  # {"winners": [...], "scores": {...}} once finished

    def seat_of(self, user_id: int) -> int | None:
        for s in self.seats:
            if s.user_id == user_id:
                return s.seat
        return None

    @property
    def where(self) -> int | None:
        """The channel the match lives in: its thread if it has one."""
        return self.thread_id or self.channel_id


ChangeKind = Literal[
    "lobby", "started", "acted", "timeout", "finished", "resigned", "abandoned", "reminder",
    "window",  # a response window's silent seats got their default answers (one change for all)
    "back",  # a player marked away said they are back (no game step)
]


@dataclass(frozen=True)
class Change:
    """What a publisher is told after a commit (delivered through the outbox, at least once).

    ``events`` include private ones (``Event.to``); a publisher must send those only to their
    seats. ``seat`` is who acted (None for system changes). ``request_ids`` are the requests
    pending after the change, so a publisher can attach fresh buttons; ``request_seats`` names
    the seat of each of them (same order) when the service knows it (game steps), so a publisher
    can tell "the same seat keeps acting" from "somebody new is asked" without another query.
    ``request_windows`` gives each request's response window ("" for a plain request): a public
    post shows a window as "waiting for responses" and never names (or pings) the seats asked,
    since who may respond can reveal a hand.
    """

    kind: ChangeKind
    match_id: int
    version: int
    seat: int | None = None
    events: list[Event] = field(default_factory=list)
    note: Msg | None = None  # e.g. "the AI played for X, who ran out of time"
    request_ids: list[str] = field(default_factory=list)
    request_seats: list[int] = field(default_factory=list)
    request_windows: list[str] = field(default_factory=list)


class Publisher(Protocol):
    """Receives committed changes, in commit order per match.

    Delivery is at least once: a change whose ``publish`` raised, or whose process died before
    it was marked delivered, is sent again by ``MatchService.run_due``. So publishing must be
    idempotent per (match_id, version, kind) — and per ``seat`` for ``reminder`` changes, since
    simultaneous requests can each be reminded at the same version. Raise only for transient
    failures worth retrying (a raised change blocks that match's later changes until it goes
    through); swallow permanent ones (deleted thread, closed DMs). ``match`` is the match as it is
    at delivery time, which may be later than ``change.version``. Never call the service's
    mutating methods from ``publish`` (they would wait for the match being published).
    """

    async def publish(self, match: MatchInfo, change: Change) -> None: ...

    # Optional: ``async def publish_batch(self, match: MatchInfo, changes: list[Change]) -> None``.
    # When a publisher has it, the service hands over the undelivered changes of a match together
    # (in commit order; an AI's run of moves arrives as one batch, or a few during a long run) and
    # marks them delivered only after it returns; raising retries the whole batch, so the same
    # idempotency rules apply per change. Without it the service calls ``publish`` per change.


@dataclass(frozen=True)
class LogEntry:
    version: int
    seat: int | None
    action: list[str]
    events: list[Event]
    source: str  # "user" | "ai" | "timeout" | "system"
    created_at: float


@dataclass(frozen=True)
class PendingRequest:
    """A decision the match waits for, with its clock (``due_at`` None for AI-answered ones)."""

    request_id: str
    seat: int
    kind: str
    prompt: Msg
    user_id: int | None  # None when the AI answers it (AI seat or resigned player)
    due_at: float | None = None
    remind_at: float | None = None
    window: str = ""  # the response window it belongs to: public posts must not name its seat
