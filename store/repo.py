"""Typed reads and writes of the store's tables; the service never writes SQL itself.

Every write takes a :class:`~store.db.Tx` so it can only happen inside a transaction; reads take
anything with ``fetchone``/``fetchall`` (the Store for committed data, or a Tx inside one).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from store import compact
from store.db import Params, Row, Tx


class Reader(Protocol):
    async def fetchone(self, sql: str, params: Params = ()) -> Row | None: ...
    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]: ...
    async def fetch_many(self, queries: list[tuple[str, Params]],
                         then: Callable[[list[list[Row]]], Any] | None = None) -> Any: ...


#: One encoder for every write: ``json.dumps`` with options builds a new one per call.
_encode = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode


class Encoded(str):
    """JSON text encoded ahead, where the value was made (a match's new state, in the worker
    thread that computed it): :func:`dumps` writes it as it is, so the event loop, which every
    match waits for, does not encode it. Same text as ``dumps(value)``: the stored format is
    unchanged."""

    __slots__ = ()

    @classmethod
    def of(cls, value: Any) -> Encoded:
        return cls(_encode(value))

    @classmethod
    def with_key(cls, value: dict[str, Any], key: str, text: str) -> Encoded:
        """The JSON of ``value`` (without ``key``) with ``key`` set to the JSON ``text`` encoded
        ahead (an outbox payload's events): ``key`` is written first, so nothing in ``value``'s
        own text can be taken for it."""
        rest = _encode(value)
        return cls(f"{{{_encode(key)}:{text}" + ("}" if rest == "{}" else "," + rest[1:]))


def dumps(value: Any) -> str:
    return value if isinstance(value, Encoded) else _encode(value)


def _loads(text: str | None) -> Any:
    return json.loads(text) if text is not None else None


@dataclass
class MatchRecord:
    id: int
    game: str
    options: dict[str, str]
    status: str
    state: dict[str, Any] | None
    version: int
    seed: int | None
    guild_id: int | None
    channel_id: int | None
    thread_id: int | None
    lobby_message_id: int | None
    host_id: int
    locale: str
    turn_seconds: int
    created_at: float
    updated_at: float
    finished_at: float | None
    result: dict[str, Any] | None
    #: Engine.edition of the stored state (None: before editions were recorded, i.e. 1).
    edition: int | None = None


@dataclass
class SeatRecord:
    seat: int
    user_id: int | None
    ai_level: str | None
    name: str
    resigned: bool = False
    #: Consecutive time-outs (turn requests and response windows); reset by any action.
    missed: int = 0
    #: Marked away (托管) after two time-outs in a row: the AI plays the seat until its player acts.
    away: bool = False


@dataclass
class DeadlineRecord:
    match_id: int
    request_id: str
    seat: int
    due_at: float
    remind_at: float | None
    reminded: bool
    window: str = ""
    #: When the request's response window opened (None: not a window, or stored before 0006).
    opened_at: float | None = None
    #: The answer is known to be the default: AUTO_CANNOT (the seat can answer nothing else) or
    #: AUTO_HELD (the player passed before the uniform delay); AUTO_STANDING: the player's
    #: standing answer gives it (``service.standing``); AUTO_NONE: the seat decides.
    auto: int = 0


@dataclass
class OutboxRecord:
    id: int
    match_id: int
    version: int
    payload: dict[str, Any]
    created_at: float


@dataclass
class ActionRecord:
    version: int
    seat: int | None
    request_id: str | None
    action: list[str]
    events: list[dict[str, Any]]
    source: str
    created_at: float


_LIGHT_COLS = ("id, game, options, status, version, seed, guild_id, channel_id, thread_id, "
               "lobby_message_id, host_id, locale, turn_seconds, created_at, updated_at, finished_at, result, edition")
#: Columns a caller may change through :func:`update_match` (state is JSON-encoded on the way).
_UPDATABLE = {"options", "status", "state", "version", "seed", "thread_id", "lobby_message_id",
              "locale", "turn_seconds", "updated_at", "finished_at", "result", "edition"}
_JSON_COLS = {"options", "state", "result"}


def _match(row: Row) -> MatchRecord:
    return MatchRecord(
        id=row["id"], game=row["game"], options=_loads(row["options"]) or {}, status=row["status"],
        state=_loads(row.get("state")), version=row["version"], seed=row["seed"],
        guild_id=row["guild_id"], channel_id=row["channel_id"], thread_id=row["thread_id"],
        lobby_message_id=row["lobby_message_id"], host_id=row["host_id"], locale=row["locale"],
        turn_seconds=row["turn_seconds"], created_at=row["created_at"], updated_at=row["updated_at"],
        finished_at=row["finished_at"], result=_loads(row["result"]), edition=row["edition"],
    )


# ----- matches ----------------------------------------------------------------------------------
async def insert_match(tx: Tx, *, game: str, options: dict[str, str], host_id: int, locale: str,
                       turn_seconds: int, guild_id: int | None, channel_id: int | None, now: float) -> int:
    return await tx.insert_id(
        "INSERT INTO matches (game, options, status, host_id, locale, turn_seconds, guild_id, channel_id,"
        " created_at, updated_at) VALUES (?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?)",
        (game, dumps(options), host_id, locale, turn_seconds, guild_id, channel_id, now, now))


async def get_match(db: Reader, match_id: int, *, with_state: bool = True) -> MatchRecord | None:
    cols = _LIGHT_COLS + (", state" if with_state else "")
    row = await db.fetchone(f"SELECT {cols} FROM matches WHERE id = ?", (match_id,))
    return _match(row) if row else None


@dataclass
class MatchRows:
    """What :func:`load_match` read: the match (None: no such match) and what was asked with it."""

    rec: MatchRecord | None
    seats: list[SeatRecord]
    deadlines: list[DeadlineRecord]
    undelivered: list[OutboxRecord]


async def load_match(db: Reader, match_id: int, *, with_state: bool = True, with_deadlines: bool = False,
                     with_undelivered: bool = False) -> MatchRows:
    """A match row, its seats and (when asked) its deadlines and undelivered outbox rows, read in
    one trip to the connection's thread: what every change and every delivery starts with. The
    rows are decoded (the state's JSON, the payloads') on that thread (``fetch_many``'s
    ``then``), not on the event loop."""
    return await load_match_then(db, match_id, _same, with_state=with_state, with_deadlines=with_deadlines,
                                 with_undelivered=with_undelivered)


_T = TypeVar("_T")


def _same(rows: MatchRows) -> MatchRows:
    return rows


async def load_match_then(db: Reader, match_id: int, then: Callable[[MatchRows], _T], *, with_state: bool = True,
                          with_deadlines: bool = False, with_undelivered: bool = False) -> _T:
    """:func:`load_match`, answered by ``then`` of what it read, which runs where the rows are
    decoded (SQLite: the connection's thread): a delivery turns its payloads into changes there."""
    cols = _LIGHT_COLS + (", state" if with_state else "")
    queries: list[tuple[str, Params]] = [(f"SELECT {cols} FROM matches WHERE id = ?", (match_id,)),
                                         (_SEATS_SQL, (match_id,))]
    if with_deadlines:
        queries.append((_DEADLINES_SQL, (match_id,)))
    if with_undelivered:
        queries.append((_UNDELIVERED_SQL + " AND match_id = ? ORDER BY id LIMIT ?", (match_id, UNDELIVERED_LIMIT)))

    def decode(read: list[list[Row]]) -> _T:
        found = iter(read)
        match, seats = next(found), next(found)
        return then(MatchRows(_match(match[0]) if match else None, [_seat(r) for r in seats],
                              [_deadline(r) for r in next(found)] if with_deadlines else [],
                              [_outbox(r) for r in next(found)] if with_undelivered else []))

    return await db.fetch_many(queries, decode)  # type: ignore[no-any-return]


async def update_match(tx: Tx, match_id: int, **fields: Any) -> None:
    bad = set(fields) - _UPDATABLE
    if bad:
        raise ValueError(f"not updatable: {sorted(bad)}")
    sets = ", ".join(f"{k} = ?" for k in fields)
    values = [dumps(v) if k in _JSON_COLS and v is not None else v for k, v in fields.items()]
    await tx.execute(f"UPDATE matches SET {sets} WHERE id = ?", (*values, match_id))


async def bump_match(tx: Tx, match_id: int, expect_version: int, *, stale: BaseException, **fields: Any) -> None:
    """Optimistic write: changes the row only if nobody (another process) moved it on since it was
    read at ``expect_version``; otherwise the transaction raises ``stale`` (when the write is sent
    to the database: with the next statement that answers, at the latest at the commit)."""
    bad = set(fields) - _UPDATABLE
    if bad:
        raise ValueError(f"not updatable: {sorted(bad)}")
    sets = ", ".join(f"{k} = ?" for k in fields)
    values = [dumps(v) if k in _JSON_COLS and v is not None else v for k, v in fields.items()]
    await tx.execute_one(f"UPDATE matches SET {sets} WHERE id = ? AND version = ?",
                         (*values, match_id, expect_version), stale)


async def matches_for_user(db: Reader, user_id: int, statuses: tuple[str, ...]) -> list[MatchRecord]:
    marks = ",".join("?" * len(statuses))
    rows = await db.fetchall(
        f"SELECT {_LIGHT_COLS} FROM matches WHERE status IN ({marks}) AND id IN "
        "(SELECT match_id FROM seats WHERE user_id = ?) ORDER BY updated_at DESC, id DESC",
        (*statuses, user_id))
    return [_match(r) for r in rows]


async def matches_in_channel(db: Reader, channel_id: int, statuses: tuple[str, ...]) -> list[MatchRecord]:
    marks = ",".join("?" * len(statuses))
    rows = await db.fetchall(
        f"SELECT {_LIGHT_COLS} FROM matches WHERE status IN ({marks}) AND (channel_id = ? OR thread_id = ?)"
        " ORDER BY id", (*statuses, channel_id, channel_id))
    return [_match(r) for r in rows]


async def serialize_on(tx: Tx, name: str) -> None:
    """Until this transaction ends, other transactions asking for the same ``name`` wait: a check
    followed by a write (the lobby rate limits) then holds under concurrent clicks. SQLite's one
    writer serialises every transaction already; PostgreSQL takes a transaction-scoped advisory
    lock (a hash of the name: a collision only makes two unrelated checks take turns)."""
    if tx.dialect == "postgres":
        await tx.execute("SELECT pg_advisory_xact_lock(3, hashtext(?))", (name,))


async def count_created_since(db: Reader, host_id: int, since: float) -> int:
    row = await db.fetchone("SELECT COUNT(*) AS n FROM matches WHERE host_id = ? AND created_at >= ?",
                            (host_id, since))
    return int(row["n"]) if row else 0


async def count_open_lobbies(db: Reader, channel_id: int) -> int:
    row = await db.fetchone("SELECT COUNT(*) AS n FROM matches WHERE channel_id = ? AND status = 'lobby'",
                            (channel_id,))
    return int(row["n"]) if row else 0


async def idle_lobbies(db: Reader, changed_before: float, limit: int) -> list[int]:
    """Lobbies whose last change was at or before ``changed_before``, oldest first."""
    rows = await db.fetchall(
        "SELECT id FROM matches WHERE status = 'lobby' AND updated_at <= ? ORDER BY updated_at, id LIMIT ?",
        (changed_before, limit))
    return [r["id"] for r in rows]


async def oldest_lobby_change(db: Reader) -> float | None:
    """When the least recently changed open lobby last changed (None: no lobby is open)."""
    row = await db.fetchone("SELECT MIN(updated_at) AS t FROM matches WHERE status = 'lobby'")
    return row["t"] if row else None


async def active_match_ids(db: Reader) -> list[int]:
    rows = await db.fetchall("SELECT id FROM matches WHERE status = 'active' ORDER BY id")
    return [r["id"] for r in rows]


async def active_editions(db: Reader) -> list[tuple[int, str, int | None]]:
    """(id, game, edition) of every running match: what a start-up upgrade pass looks at."""
    rows = await db.fetchall("SELECT id, game, edition FROM matches WHERE status = 'active' ORDER BY id")
    return [(r["id"], r["game"], r["edition"]) for r in rows]


# ----- seats --------------------------------------------------------------------------------------
_SEATS_SQL = "SELECT seat, user_id, ai_level, name, resigned, missed, away FROM seats WHERE match_id = ? ORDER BY seat"


def _seat(r: Row) -> SeatRecord:
    return SeatRecord(r["seat"], r["user_id"], r["ai_level"], r["name"], bool(r["resigned"]), r["missed"],
                      bool(r["away"]))


async def get_seats(db: Reader, match_id: int) -> list[SeatRecord]:
    return [_seat(r) for r in await db.fetchall(_SEATS_SQL, (match_id,))]


async def replace_seats(tx: Tx, match_id: int, seats: list[SeatRecord]) -> None:
    """Rewrite all seats, numbered 0..n-1 in list order (engines expect contiguous seats). Used
    before the start only, so time-out counts and away flags start at their defaults."""
    await tx.execute("DELETE FROM seats WHERE match_id = ?", (match_id,))
    for i, s in enumerate(seats):
        await tx.execute(
            "INSERT INTO seats (match_id, seat, user_id, ai_level, name, resigned) VALUES (?, ?, ?, ?, ?, ?)",
            (match_id, i, s.user_id, s.ai_level, s.name, int(s.resigned)))


async def set_resigned(tx: Tx, match_id: int, seat: int) -> None:
    await tx.execute("UPDATE seats SET resigned = 1 WHERE match_id = ? AND seat = ?", (match_id, seat))


async def set_attendance(tx: Tx, match_id: int, seat: int, *, missed: int, away: bool) -> None:
    """A seat's consecutive time-outs and away flag (托管), written with the change that moved them."""
    await tx.execute("UPDATE seats SET missed = ?, away = ? WHERE match_id = ? AND seat = ?",
                     (missed, int(away), match_id, seat))


# ----- action log ------------------------------------------------------------------------------------
async def insert_action(tx: Tx, match_id: int, version: int, seat: int | None, request_id: str | None,
                        action: list[str], events: list[dict[str, Any]] | bytes, source: str, now: float) -> None:
    await tx.execute(
        "INSERT INTO actions (match_id, version, seat, request_id, action, events, source, created_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (match_id, version, seat, request_id, dumps(action), _packed(events), source, now))


async def insert_actions(tx: Tx, match_id: int,
                         rows: list[tuple[int, int | None, str | None, list[str], list[dict[str, Any]] | bytes, str]],
                         now: float) -> None:
    """Several log rows ``(version, seat, request_id, action, events, source)`` at once (an AI run)."""
    await tx.executemany(
        "INSERT INTO actions (match_id, version, seat, request_id, action, events, source, created_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [(match_id, v, seat, rid, dumps(action), _packed(events), source, now)
         for v, seat, rid, action, events, source in rows])


def pack_events(events: list[dict[str, Any]]) -> bytes:
    """A log row's events as :func:`insert_action` stores them, packed ahead (bytes pass through)."""
    return compact.pack(events)


def _packed(events: list[dict[str, Any]] | bytes) -> bytes:
    """A log row's events as stored: packed here, or ahead (bytes of ``compact.pack``) by the
    worker thread that computed them."""
    return events if isinstance(events, bytes) else compact.pack(events)


_ACTION_COLS = "version, seat, request_id, action, events, source, created_at"


async def ai_moves_since_player(db: Reader, match_id: int, seat: int) -> int:
    """How many moves the AI made for ``seat`` since the player's own last move (or the start):
    what an "I'm back" line sums up."""
    row = await db.fetchone(
        "SELECT COUNT(*) AS n FROM actions WHERE match_id = ? AND seat = ? AND source = 'ai' AND version >"
        " COALESCE((SELECT MAX(version) FROM actions WHERE match_id = ? AND seat = ? AND source = 'user'), 0)",
        (match_id, seat, match_id, seat))
    return int(row["n"]) if row else 0


def _action(r: Row) -> ActionRecord:
    return ActionRecord(r["version"], r["seat"], r["request_id"], json.loads(r["action"]),
                        compact.unpack(r["events"]), r["source"], r["created_at"])


async def actions_since_player(db: Reader, match_id: int, seat: int) -> list[ActionRecord]:
    """The actions after ``seat``'s player's own last move (all when they made none), oldest
    first, with that move first when there is one (its time is when they were last here)."""
    rows = await db.fetchall(
        f"SELECT {_ACTION_COLS} FROM actions WHERE match_id = ? AND version >="
        " COALESCE((SELECT MAX(version) FROM actions WHERE match_id = ? AND seat = ? AND source = 'user'), 0)"
        " ORDER BY version", (match_id, match_id, seat))
    return [_action(r) for r in rows]


async def list_actions(db: Reader, match_id: int, limit: int | None = None) -> list[ActionRecord]:
    """The last ``limit`` actions (all when None), oldest first."""
    sql = f"SELECT {_ACTION_COLS} FROM actions WHERE match_id = ? ORDER BY version DESC"
    params: tuple[Any, ...] = (match_id,)
    if limit is not None:
        sql += " LIMIT ?"
        params = (match_id, limit)
    rows = await db.fetchall(sql, params)
    return [_action(r) for r in reversed(rows)]


async def answer_of(db: Reader, match_id: int, request_id: str, seat: int) -> ActionRecord | None:
    """The logged answer of ``seat`` to the request ``request_id`` (None: not answered). Request
    ids are unique within a match, so there is at most one; a rare read (a click whose request is
    no longer pending), served by the primary key's match prefix."""
    row = await db.fetchone(f"SELECT {_ACTION_COLS} FROM actions WHERE match_id = ? AND request_id = ?"
                            " AND seat = ? ORDER BY version DESC LIMIT 1", (match_id, request_id, seat))
    return _action(row) if row else None


# ----- deadlines --------------------------------------------------------------------------------------
AUTO_NONE, AUTO_CANNOT, AUTO_HELD, AUTO_STANDING = 0, 1, 2, 3


def _deadline(r: Row) -> DeadlineRecord:
    return DeadlineRecord(r["match_id"], r["request_id"], r["seat"], r["due_at"], r["remind_at"],
                          bool(r["reminded"]), r["window"], r["opened_at"], r["auto"])


#: ``INSERT OR REPLACE`` in both dialects: a re-armed deadline starts unreminded and unleased.
_UPSERT_DEADLINE = (
    'INSERT INTO deadlines (match_id, request_id, seat, due_at, remind_at, reminded, "window", opened_at, auto)'
    " VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?) ON CONFLICT (match_id, request_id) DO UPDATE SET seat = excluded.seat,"
    ' due_at = excluded.due_at, remind_at = excluded.remind_at, reminded = 0, "window" = excluded."window",'
    " opened_at = excluded.opened_at, auto = excluded.auto, lease_owner = NULL, lease_until = NULL")


_DEADLINES_SQL = "SELECT * FROM deadlines WHERE match_id = ? ORDER BY due_at, request_id"


async def get_deadlines(db: Reader, match_id: int) -> list[DeadlineRecord]:
    return [_deadline(r) for r in await db.fetchall(_DEADLINES_SQL, (match_id,))]


async def delete_deadlines(tx: Tx, match_id: int, keep: set[str] | None = None) -> None:
    """Remove the match's deadlines except those whose request is still pending (``keep``)."""
    if not keep:
        await tx.execute("DELETE FROM deadlines WHERE match_id = ?", (match_id,))
        return
    marks = ",".join("?" * len(keep))
    await tx.execute(f"DELETE FROM deadlines WHERE match_id = ? AND request_id NOT IN ({marks})",
                     (match_id, *sorted(keep)))


async def insert_deadline(tx: Tx, match_id: int, request_id: str, seat: int, due_at: float,
                          remind_at: float | None, window: str = "", opened_at: float | None = None,
                          auto: int = AUTO_NONE) -> None:
    await tx.execute(_UPSERT_DEADLINE, (match_id, request_id, seat, due_at, remind_at, window, opened_at, auto))


async def due_deadlines(db: Reader, now: float, limit: int) -> list[DeadlineRecord]:
    rows = await db.fetchall("SELECT * FROM deadlines WHERE due_at <= ? ORDER BY due_at LIMIT ?", (now, limit))
    return [_deadline(r) for r in rows]


DeadlineRow = tuple[str, int, float, float | None, str, float | None, int]


async def insert_deadlines(tx: Tx, match_id: int, rows: list[DeadlineRow]) -> None:
    """Several ``(request_id, seat, due_at, remind_at, window, opened_at, auto)`` deadlines in
    one statement."""
    if rows:
        await tx.executemany(_UPSERT_DEADLINE, [(match_id, *r) for r in rows])


async def due_match_ids(db: Reader, now: float, limit: int) -> list[int]:
    """Matches with a deadline due at ``now``, the one due longest first (so a match served
    late in one round is among the first of the next)."""
    rows = await db.fetchall(
        "SELECT match_id, MIN(due_at) AS t FROM deadlines WHERE due_at <= ? GROUP BY match_id"
        " ORDER BY t, match_id LIMIT ?", (now, limit))
    return [r["match_id"] for r in rows]


def _skip_locked(tx: Tx) -> str:
    """PostgreSQL: rows another process's claim is locking right now are passed over, not waited
    for. SQLite needs nothing: its one writer makes each claim atomic."""
    return " FOR UPDATE SKIP LOCKED" if tx.dialect == "postgres" else ""


async def claim_due_match_ids(tx: Tx, owner: str, now: float, lease_until: float, limit: int) -> list[int]:
    """Lease the due deadlines nobody else holds (free, expired, or already ours) to ``owner``
    until ``lease_until``, and return their matches, the one due longest first (as
    :func:`due_match_ids`). Several schedulers thus split the due work; a crashed one's leases
    run out and another takes its rows. A lease only steers work: applying a time-out still
    happens under the match lock and the version guard, so a late second claimant finds the
    request answered and does nothing."""
    return list(await claim_due(tx, owner, now, lease_until, limit))


async def claim_due(tx: Tx, owner: str, now: float, lease_until: float,
                    limit: int) -> dict[int, list[tuple[float, str]]]:
    """:func:`claim_due_match_ids` with each match's claimed deadlines as (due_at, request id),
    in that order: what the caller serves, without reading each match's deadlines again."""
    free = "due_at <= ? AND (lease_until IS NULL OR lease_until <= ? OR lease_owner = ?)"
    rows = await tx.fetchall(
        "UPDATE deadlines SET lease_owner = ?, lease_until = ? WHERE (match_id, request_id) IN"
        f" (SELECT match_id, request_id FROM deadlines WHERE {free} AND match_id IN"
        f" (SELECT match_id FROM deadlines WHERE {free} GROUP BY match_id ORDER BY MIN(due_at), match_id"
        f" LIMIT ?){_skip_locked(tx)}) RETURNING match_id, request_id, due_at",
        (owner, lease_until, now, now, owner, now, now, owner, limit))
    found: dict[int, list[tuple[float, str]]] = {}
    for r in rows:
        found.setdefault(r["match_id"], []).append((r["due_at"], r["request_id"]))
    for due in found.values():
        due.sort()
    order = sorted(found, key=lambda m: (found[m][0][0], m))[:limit]
    return {m: found[m] for m in order}


async def claim_undelivered_match_ids(tx: Tx, owner: str, now: float, lease_until: float,
                                      limit: int) -> list[int]:
    """Lease undelivered outbox rows (free, expired or ours) to ``owner``; their matches, oldest
    row first. Delivery itself is serialised per match by the delivery lock and rows are marked
    delivered before it is released, so a lease never decides whether a post is made twice."""
    rows = await tx.fetchall(
        "UPDATE outbox SET lease_owner = ?, lease_until = ? WHERE id IN"
        " (SELECT id FROM outbox WHERE delivered_at IS NULL"
        " AND (lease_until IS NULL OR lease_until <= ? OR lease_owner = ?)"
        f" ORDER BY id LIMIT ?{_skip_locked(tx)}) RETURNING id, match_id",
        (owner, lease_until, now, owner, limit))
    first: dict[int, int] = {}
    for r in rows:
        first[r["match_id"]] = min(r["id"], first.get(r["match_id"], r["id"]))
    return sorted(first, key=lambda m: first[m])


async def due_reminders(db: Reader, now: float, limit: int) -> list[DeadlineRecord]:
    return [d for d, _ in await due_reminders_at(db, now, limit)]


async def due_reminders_at(db: Reader, now: float, limit: int) -> list[tuple[DeadlineRecord, int]]:
    """The due reminders, each with its match's version as read with it: the reminder's change
    carries that version, so sending it needs no load of the match (a trip per reminder)."""
    rows = await db.fetchall(
        "SELECT d.*, m.version AS match_version FROM deadlines d JOIN matches m ON m.id = d.match_id"
        " WHERE d.reminded = 0 AND d.remind_at IS NOT NULL AND d.remind_at <= ?"
        " AND d.due_at > ? ORDER BY d.remind_at LIMIT ?", (now, now, limit))
    return [(_deadline(r), r["match_version"]) for r in rows]


async def next_human_due(db: Reader) -> float | None:
    """The earliest due time or pending reminder among requests a person must answer.

    Deadlines of seats the AI plays (AI seats, resigned or away players) are left out: they are
    due at once and answered by the service's own AI runs, so a clock waking for them would only
    race those runs; ``run_due``'s regular round still picks up any that were left behind. The
    exception are requests of a response window: the AI answers those after a delay, so the clock
    must wake for them.
    """
    row = await db.fetchone(
        "SELECT MIN(CASE WHEN d.reminded = 0 AND d.remind_at IS NOT NULL AND d.remind_at < d.due_at"
        " THEN d.remind_at ELSE d.due_at END) AS t"
        " FROM deadlines d JOIN seats s ON s.match_id = d.match_id AND s.seat = d.seat"
        " WHERE (s.user_id IS NOT NULL AND s.resigned = 0 AND s.away = 0) OR d.\"window\" != ''")
    return row["t"] if row else None


async def mark_reminded(tx: Tx, match_id: int, request_id: str, done: BaseException) -> None:
    """Mark the request reminded; ``done`` is raised (rolling the transaction back) when it was
    already, or has no deadline any more. A check rather than a rowcount: SQLite sends it with
    the reminder's outbox row and the COMMIT in one trip instead of a trip of its own."""
    await tx.execute_one(
        "UPDATE deadlines SET reminded = 1 WHERE match_id = ? AND request_id = ? AND reminded = 0",
        (match_id, request_id), done)


# ----- outbox ------------------------------------------------------------------------------------------
async def insert_outbox(tx: Tx, match_id: int, version: int, payload: dict[str, Any], now: float) -> None:
    await tx.execute(
        "INSERT INTO outbox (match_id, version, payload, created_at) VALUES (?, ?, ?, ?)",
        (match_id, version, dumps(payload), now))


_UNDELIVERED_SQL = "SELECT id, match_id, version, payload, created_at FROM outbox WHERE delivered_at IS NULL"
#: Undelivered rows one delivery reads at most (the rest go with the next).
UNDELIVERED_LIMIT = 500


def _outbox(r: Row) -> OutboxRecord:
    return OutboxRecord(r["id"], r["match_id"], r["version"], json.loads(r["payload"]), r["created_at"])


async def undelivered(db: Reader, match_id: int | None = None, limit: int = UNDELIVERED_LIMIT) -> list[OutboxRecord]:
    if match_id is None:
        rows = await db.fetchall(_UNDELIVERED_SQL + " ORDER BY id LIMIT ?", (limit,))
    else:
        rows = await db.fetchall(_UNDELIVERED_SQL + " AND match_id = ? ORDER BY id LIMIT ?", (match_id, limit))
    return [_outbox(r) for r in rows]


async def mark_delivered(tx: Tx, outbox_ids: list[int], now: float) -> None:
    """One statement for a delivery's rows (at most ``UNDELIVERED_LIMIT``), not one per row."""
    if not outbox_ids:
        return
    marks = ",".join("?" * len(outbox_ids))
    await tx.execute(f"UPDATE outbox SET delivered_at = ? WHERE id IN ({marks})", (now, *outbox_ids))


async def prune_outbox(tx: Tx, delivered_before: float) -> int:
    return await tx.rowcount("DELETE FROM outbox WHERE delivered_at IS NOT NULL AND delivered_at < ?",
                             (delivered_before,))


# ----- front-end bookkeeping ------------------------------------------------------------------------
async def get_meta(db: Reader, match_id: int, key: str) -> str | None:
    row = await db.fetchone("SELECT value FROM match_meta WHERE match_id = ? AND key = ?", (match_id, key))
    return row["value"] if row else None


async def set_meta(tx: Tx, match_id: int, key: str, value: str | None) -> None:
    if value is None:
        await tx.execute("DELETE FROM match_meta WHERE match_id = ? AND key = ?", (match_id, key))
    else:
        await tx.execute("INSERT INTO match_meta (match_id, key, value) VALUES (?, ?, ?)"
                         " ON CONFLICT(match_id, key) DO UPDATE SET value = excluded.value", (match_id, key, value))


# ----- channel pacing shared by processes -------------------------------------------------------------
async def reserve_channel_slot(tx: Tx, channel_id: int, now: float, interval: float) -> float:
    """Take the channel's next posting slot (``interval`` seconds long, Unix time); returns when it
    starts (``now`` when the channel is free). Atomic, so processes posting into one thread queue
    up behind each other instead of each pacing only itself."""
    greatest = "GREATEST" if tx.dialect == "postgres" else "MAX"
    row = await tx.fetchone(
        "INSERT INTO channel_pace (channel_id, next_at) VALUES (?, ?) ON CONFLICT (channel_id) DO UPDATE"
        f" SET next_at = {greatest}(channel_pace.next_at, ?) + ? RETURNING next_at",
        (channel_id, now + interval, now, interval))
    return float(row["next_at"]) - interval if row else now


# ----- user preferences -------------------------------------------------------------------------------
async def get_prefs(db: Reader, user_id: int) -> Row | None:
    return await db.fetchone("SELECT user_id, notify, locale FROM user_prefs WHERE user_id = ?", (user_id,))


async def set_notify(tx: Tx, user_id: int, notify: str) -> None:
    await tx.execute("INSERT INTO user_prefs (user_id, notify) VALUES (?, ?)"
                     " ON CONFLICT(user_id) DO UPDATE SET notify = excluded.notify", (user_id, notify))


async def set_user_locale(tx: Tx, user_id: int, locale: str | None) -> None:
    await tx.execute("INSERT INTO user_prefs (user_id, locale) VALUES (?, ?)"
                     " ON CONFLICT(user_id) DO UPDATE SET locale = excluded.locale", (user_id, locale))


# ----- results and ratings (issue 21; service.results) ---------------------------------------------
@dataclass
class SeatResultRow:
    seat: int
    user_id: int | None
    ai_level: str | None
    team: int
    place: int
    won: bool
    before: tuple[float, float] | None
    after: tuple[float, float] | None


async def next_result_seq(tx: Tx) -> int:
    row = await tx.fetchone("SELECT COALESCE(MAX(seq), 0) + 1 AS n FROM match_results")
    return int(row["n"]) if row else 1


async def insert_result(tx: Tx, match_id: int, seq: int, guild_id: int, game: str, rated: bool,
                        finished_at: float, seats: list[SeatResultRow]) -> None:
    await tx.execute("INSERT INTO match_results (match_id, seq, guild_id, game, rated, finished_at)"
                     " VALUES (?, ?, ?, ?, ?, ?)", (match_id, seq, guild_id, game, int(rated), finished_at))
    await tx.executemany(
        "INSERT INTO seat_results (match_id, seat, user_id, ai_level, team, place, won, mu_before, sigma_before,"
        " mu_after, sigma_after) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(match_id, s.seat, s.user_id, s.ai_level, s.team, s.place, int(s.won),
          *(s.before or (None, None)), *(s.after or (None, None))) for s in seats])


@dataclass
class RatingRecord:
    guild_id: int
    game: str
    user_id: int
    mu: float
    sigma: float
    games: int


def _rating(r: Row) -> RatingRecord:
    return RatingRecord(r["guild_id"], r["game"], r["user_id"], float(r["mu"]), float(r["sigma"]), r["games"])


async def get_ratings(db: Reader, guild_id: int, game: str, user_ids: list[int]) -> dict[int, RatingRecord]:
    if not user_ids:
        return {}
    marks = ",".join("?" * len(user_ids))
    rows = await db.fetchall(f"SELECT guild_id, game, user_id, mu, sigma, games FROM ratings WHERE guild_id = ?"
                             f" AND game = ? AND user_id IN ({marks})", (guild_id, game, *user_ids))
    return {r["user_id"]: _rating(r) for r in rows}


async def put_ratings(tx: Tx, rows: list[RatingRecord], now: float) -> None:
    await tx.executemany(
        "INSERT INTO ratings (guild_id, game, user_id, mu, sigma, games, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (guild_id, game, user_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,"
        " games = excluded.games, updated_at = excluded.updated_at",
        [(r.guild_id, r.game, r.user_id, r.mu, r.sigma, r.games, now) for r in rows])


async def all_ratings(db: Reader) -> list[RatingRecord]:
    rows = await db.fetchall("SELECT guild_id, game, user_id, mu, sigma, games FROM ratings"
                             " ORDER BY guild_id, game, user_id")
    return [_rating(r) for r in rows]


async def leaderboard(db: Reader, guild_id: int, game: str, limit: int) -> list[RatingRecord]:
    """Best first by the shown (conservative) rating, mu - 3 sigma; ties by user id."""
    rows = await db.fetchall("SELECT guild_id, game, user_id, mu, sigma, games FROM ratings WHERE guild_id = ?"
                             " AND game = ? ORDER BY mu - 3 * sigma DESC, user_id LIMIT ?", (guild_id, game, limit))
    return [_rating(r) for r in rows]


async def rank_of(db: Reader, guild_id: int, game: str, user_id: int) -> tuple[int, int] | None:
    """(1-based rank, players on the board) of a rated person, in :func:`leaderboard`'s order."""
    row = await db.fetchone(
        "SELECT (SELECT COUNT(*) FROM ratings o WHERE o.guild_id = r.guild_id AND o.game = r.game"
        " AND (o.mu - 3 * o.sigma > r.mu - 3 * r.sigma OR (o.mu - 3 * o.sigma = r.mu - 3 * r.sigma"
        " AND o.user_id < r.user_id))) + 1 AS pos,"
        " (SELECT COUNT(*) FROM ratings o WHERE o.guild_id = r.guild_id AND o.game = r.game) AS n"
        " FROM ratings r WHERE r.guild_id = ? AND r.game = ? AND r.user_id = ?", (guild_id, game, user_id))
    return (int(row["pos"]), int(row["n"])) if row else None


@dataclass
class HistoryRow:
    match_id: int
    game: str
    guild_id: int
    finished_at: float
    rated: bool
    seat: int
    place: int
    won: bool
    before: tuple[float, float] | None
    after: tuple[float, float] | None
    thread_id: int | None
    channel_id: int | None


async def history(db: Reader, user_id: int, limit: int, *, game: str | None = None,
                  guild_id: int | None = None) -> list[HistoryRow]:
    """A person's finished matches, newest first."""
    where, params = ["s.user_id = ?"], [user_id]
    if game is not None:
        where.append("r.game = ?")
        params.append(game)  # type: ignore[arg-type]
    if guild_id is not None:
        where.append("r.guild_id = ?")
        params.append(guild_id)
    rows = await db.fetchall(
        "SELECT r.match_id, r.game, r.guild_id, r.finished_at, r.rated, s.seat, s.place, s.won, s.mu_before,"
        " s.sigma_before, s.mu_after, s.sigma_after, m.thread_id, m.channel_id FROM seat_results s"
        " JOIN match_results r ON r.match_id = s.match_id JOIN matches m ON m.id = s.match_id"
        f" WHERE {' AND '.join(where)} ORDER BY r.seq DESC LIMIT ?", (*params, limit))
    return [HistoryRow(r["match_id"], r["game"], r["guild_id"], float(r["finished_at"]), bool(r["rated"]),
                       r["seat"], r["place"], bool(r["won"]),
                       None if r["mu_before"] is None else (float(r["mu_before"]), float(r["sigma_before"])),
                       None if r["mu_after"] is None else (float(r["mu_after"]), float(r["sigma_after"])),
                       r["thread_id"], r["channel_id"]) for r in rows]


async def game_totals(db: Reader, user_id: int, guild_id: int) -> list[tuple[str, int, int]]:
    """(game, matches, wins) of a person's finished matches in a server."""
    rows = await db.fetchall(
        "SELECT r.game, COUNT(*) AS n, SUM(s.won) AS w FROM seat_results s JOIN match_results r"
        " ON r.match_id = s.match_id WHERE s.user_id = ? AND r.guild_id = ? GROUP BY r.game ORDER BY r.game",
        (user_id, guild_id))
    return [(r["game"], int(r["n"]), int(r["w"] or 0)) for r in rows]


async def result_order(db: Reader) -> list[tuple[int, int | None]]:
    """Every finished match as (id, seq): those finished before results were recorded (no seq,
    by finish time) first, then in the order their ratings were taken."""
    rows = await db.fetchall(
        "SELECT m.id, r.seq, m.finished_at FROM matches m LEFT JOIN match_results r ON r.match_id = m.id"
        " WHERE m.status = 'finished'")
    ordered = sorted(rows, key=lambda r: (r["seq"] is not None, r["seq"] or 0, r["finished_at"] or 0.0, r["id"]))
    return [(r["id"], r["seq"]) for r in ordered]


async def clear_results(tx: Tx) -> None:
    await tx.execute("DELETE FROM seat_results")
    await tx.execute("DELETE FROM match_results")
    await tx.execute("DELETE FROM ratings")


async def seat_names(db: Reader, user_ids: list[int], guild_id: int = 0) -> dict[int, str]:
    """Each person's name in the newest match they sat in on this server (``guild_id``, 0: none):
    what its tables called them — never a nickname from another server."""
    if not user_ids:
        return {}
    marks = ",".join("?" * len(user_ids))
    rows = await db.fetchall(f"SELECT s.user_id, s.name, s.match_id FROM seats s JOIN matches m ON m.id = s.match_id"
                             f" WHERE s.user_id IN ({marks}) AND COALESCE(m.guild_id, 0) = ? ORDER BY s.match_id",
                             (*user_ids, guild_id))
    return {r["user_id"]: r["name"] for r in rows}
