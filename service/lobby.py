"""Lobby operations: open, join, leave, AI seats, options, turn time, start."""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from typing import Any

from engines import registry
from engines.base import EngineError, Msg
from i18n import t
from service import reaction
from service.core import LoadedMatch, MatchCore
from service.errors import UserError
from service.models import Change, MatchInfo
from store import repo
from store.repo import SeatRecord

__all__ = ["LOBBY_EXPIRED", "NAME_MAX", "LobbyOps", "cap_name"]

log = logging.getLogger(__name__)

#: Note of the 'abandoned' change of a lobby closed for inactivity (a front-end may treat it
#: apart: the lobby message already says the lobby is closed).
LOBBY_EXPIRED = "core.note.lobby_expired"
#: Lobby rate limits: at most this many lobbies per user per window, open lobbies per channel.
LOBBIES_PER_USER = 3
LOBBY_WINDOW_SECONDS = 600.0
OPEN_LOBBIES_PER_CHANNEL = 5
#: Longest stored player name, in characters: Discord's own display names stop at 32, and every
#: post, embed line and image label has to make room for one name per seat.
NAME_MAX = 32
#: Accepted turn lengths (seconds).
MIN_TURN_SECONDS = 30
MAX_TURN_SECONDS = 30 * 86400


def cap_name(name: str) -> str:
    """A player name as stored: whitespace runs (newlines, tabs) as one space, at most
    :data:`NAME_MAX` characters (a cut name ends with "…").

    Names come from front-ends (Discord display names, terminal input, guests) and are shown in
    every post and image, so the service caps them once where seats are made instead of trusting
    each front-end.
    """
    flat = " ".join(str(name).split())
    return flat if len(flat) <= NAME_MAX else flat[:NAME_MAX - 1] + "…"


class LobbyOps(MatchCore):
    """Before the game: every edit bumps the match version and publishes a 'lobby' change."""

    async def create_lobby(self, game: str, *, host_id: int, host_name: str, locale: str,
                           guild_id: int | None = None, channel_id: int | None = None,
                           options: dict[str, str] | None = None,
                           turn_seconds: int = 86400, seat_host: bool = True) -> MatchInfo:
        """Open a lobby; the host takes seat 0. Rate-limited per user and channel.

        ``seat_host=False`` opens a lobby the host only manages (all-AI matches, spectating).
        """
        try:
            engine = registry.get(game)
        except (KeyError, ImportError) as err:
            raise UserError("core.err.unknown_game", game=game) from err
        try:
            opts = reaction.with_reaction(engine, engine.normalize_options(dict(options or {})), dict(options or {}))
        except EngineError as err:
            raise UserError.from_engine(err) from err
        except ValueError as err:
            raise UserError("core.err.bad_option", option=reaction.OPTION, value=str(err)) from err
        self._check_turn_seconds(turn_seconds)
        now = self._clock()
        async with self.store.transaction() as tx:
            if self._rate_limits:  # checked inside the transaction so two quick clicks cannot both pass
                await repo.serialize_on(tx, f"lobbies:{host_id}")  # (and on a shared store, in order)
                if channel_id is not None:
                    await repo.serialize_on(tx, f"channel-lobbies:{channel_id}")
                recent = await repo.count_created_since(tx, host_id, now - LOBBY_WINDOW_SECONDS)
                if recent >= LOBBIES_PER_USER:
                    raise UserError("core.err.rate_user", count=LOBBIES_PER_USER,
                                    minutes=int(LOBBY_WINDOW_SECONDS // 60))
                if channel_id is not None and \
                        await repo.count_open_lobbies(tx, channel_id) >= OPEN_LOBBIES_PER_CHANNEL:
                    raise UserError("core.err.rate_channel", count=OPEN_LOBBIES_PER_CHANNEL)
            match_id = await repo.insert_match(tx, game=game, options=opts, host_id=host_id, locale=locale,
                                               turn_seconds=turn_seconds, guild_id=guild_id,
                                               channel_id=channel_id, now=now)
            if seat_host:
                await repo.replace_seats(tx, match_id, [SeatRecord(0, host_id, None, cap_name(host_name))])
            await self._emit(tx, Change("lobby", match_id, 0))
        self._due_changed(now + self._lobby_ttl)
        await self._deliver(match_id)
        return await self.get(match_id)

    async def discard_lobby(self, match_id: int) -> MatchInfo:
        """Close a lobby whose message the front-end failed to send (so it does not hold the
        channel's open-lobby quota). Without a lobby message nothing is published; with one, it
        is an ordinary 'abandoned' change. Idempotent; refuses a match that already started."""
        async with self._locks(match_id):
            m = await self._load(match_id, with_state=False)
            if m.rec.status == "abandoned":
                return self._info(m)
            self._need_status(m, "lobby")
            kind = "abandoned" if m.rec.lobby_message_id else None
            await self._commit_meta(m, kind, status="abandoned", finished_at=self._clock())
        await self._deliver(match_id)
        return await self.get(match_id)

    async def _expire_lobby(self, match_id: int) -> int:
        """Close one lobby idle for longer than the lobby TTL (1 if closed, else 0)."""
        async with self._locks(match_id):
            try:
                m = await self._load(match_id, with_state=False)
            except UserError as err:  # its game is gone: close the row itself, or it is retried forever
                log.warning("closing lobby %s that cannot be loaded: %s", match_id, err.msg.key)
                now = self._clock()
                async with self.store.transaction() as tx:
                    await repo.update_match(tx, match_id, status="abandoned", finished_at=now, updated_at=now)
                return 1
            now = self._clock()
            if m.rec.status != "lobby" or m.rec.updated_at > now - self._lobby_ttl:
                return 0  # started, closed or touched since it was listed
            note = Msg(LOBBY_EXPIRED, {"hours": max(1, round(self._lobby_ttl / 3600))})
            try:
                await self._commit_meta(m, "abandoned", note=note, status="abandoned", finished_at=now)
            except UserError:  # another writer changed it first: looked at again next round
                return 0
        await self._deliver(match_id)
        return 1

    async def _lobby_edit(self, match_id: int, edit: Callable[[LoadedMatch], dict[str, Any]]) -> MatchInfo:
        """Run ``edit`` (checks + new seats/fields) on a lobby under its lock and commit it."""
        async with self._locks(match_id):
            m = await self._load(match_id, with_state=False)
            self._need_status(m, "lobby")
            fields = edit(m)
            await self._commit_meta(m, "lobby", **fields)
        await self._deliver(match_id)
        return await self.get(match_id)

    async def join(self, match_id: int, user_id: int, name: str) -> MatchInfo:
        def edit(m: LoadedMatch) -> dict[str, Any]:
            if m.seat_of(user_id) is not None:
                raise UserError("core.err.already_joined")
            _, most = m.engine.seat_range(m.rec.options)
            if len(m.seats) >= most:
                raise UserError("core.err.lobby_full", seats=most)
            return {"seats": [*m.seats, SeatRecord(len(m.seats), user_id, None, cap_name(name))]}

        return await self._lobby_edit(match_id, edit)

    async def leave(self, match_id: int, user_id: int) -> MatchInfo:
        """Leave a lobby; the host leaving closes it (abandoned). In a running game, use resign."""
        def edit(m: LoadedMatch) -> dict[str, Any]:
            if m.rec.host_id == user_id:
                return {"status": "abandoned", "finished_at": self._clock()}
            seat = self._player(m, user_id)
            return {"seats": [s for s in m.seats if s.seat != seat.seat]}

        return await self._lobby_edit(match_id, edit)

    async def add_ai(self, match_id: int, by_user: int, level: str | None = None) -> MatchInfo:
        def edit(m: LoadedMatch) -> dict[str, Any]:
            self._need_host(m, by_user)
            levels = m.engine.ai_levels()
            chosen = level or ("normal" if "normal" in levels else levels[0])
            if chosen not in levels:
                raise UserError("core.err.bad_ai_level", level=chosen)
            _, most = m.engine.seat_range(m.rec.options)
            if len(m.seats) >= most:
                raise UserError("core.err.lobby_full", seats=most)
            number = sum(1 for s in m.seats if s.user_id is None) + 1
            name = t(m.rec.locale, "core.ai.name", number=number)
            return {"seats": [*m.seats, SeatRecord(len(m.seats), None, chosen, cap_name(name))]}

        return await self._lobby_edit(match_id, edit)

    async def remove_ai(self, match_id: int, by_user: int) -> MatchInfo:
        """Remove the most recently added AI seat."""
        def edit(m: LoadedMatch) -> dict[str, Any]:
            self._need_host(m, by_user)
            bots = [s for s in m.seats if s.user_id is None]
            if not bots:
                raise UserError("core.err.no_ai")
            return {"seats": [s for s in m.seats if s.seat != bots[-1].seat]}

        return await self._lobby_edit(match_id, edit)

    async def set_option(self, match_id: int, by_user: int, name: str, value: str) -> MatchInfo:
        def edit(m: LoadedMatch) -> dict[str, Any]:
            self._need_host(m, by_user)
            if name not in {spec.name for spec in reaction.lobby_specs(m.engine)}:
                raise UserError("core.err.bad_option", option=name, value=value)
            given = {**m.rec.options, name: value}
            try:
                opts = reaction.with_reaction(m.engine, m.engine.normalize_options(given), given)
            except EngineError as err:
                raise UserError.from_engine(err) from err
            except ValueError as err:
                raise UserError("core.err.bad_option", option=name, value=value) from err
            return {"options": opts}

        return await self._lobby_edit(match_id, edit)

    @staticmethod
    def _check_turn_seconds(seconds: int) -> None:
        if not MIN_TURN_SECONDS <= seconds <= MAX_TURN_SECONDS:
            raise UserError("core.err.bad_turn_seconds", min=MIN_TURN_SECONDS, max=MAX_TURN_SECONDS)

    async def set_turn_seconds(self, match_id: int, by_user: int, seconds: int) -> MatchInfo:
        """Host only, in the lobby or during play (applies from the next request on)."""
        self._check_turn_seconds(seconds)
        async with self._locks(match_id):
            m = await self._load(match_id, with_state=False)
            self._need_status(m, "lobby", "active")
            self._need_host(m, by_user)
            # During play nothing visible changes, so nothing is published.
            await self._commit_meta(m, "lobby" if m.rec.status == "lobby" else None, turn_seconds=seconds)
        await self._deliver(match_id)
        return await self.get(match_id)

    async def set_location(self, match_id: int, *, thread_id: int | None = None,
                           lobby_message_id: int | None = None) -> MatchInfo:
        """Record where the Discord layer put the match; no change is published."""
        fields = {k: v for k, v in (("thread_id", thread_id), ("lobby_message_id", lobby_message_id))
                  if v is not None}
        if fields:
            async with self._locks(match_id):
                await self._load(match_id, with_state=False)
                async with self.store.transaction() as tx:
                    await repo.update_match(tx, match_id, **fields)
        return await self.get(match_id)

    async def _carry_over(self, m: LoadedMatch) -> dict[str, str]:
        """What the new match takes from the previous finished match of its game in its channel
        (``Engine.carry_over``; stored with its options, so replays deal the same game)."""
        if m.rec.channel_id is None:
            return {}
        done = [r for r in await repo.matches_in_channel(self.store, m.rec.channel_id, ("finished",))
                if r.game == m.rec.game and r.id != m.id]
        if not done:
            return {}
        prev = await repo.load_match(self.store, max(done, key=lambda r: (r.finished_at or 0, r.id)).id)
        if prev.rec is None or prev.rec.state is None:
            return {}
        users = {s.user_id: s.seat for s in m.seats if s.user_id is not None}
        seat_map = {s.seat: users[s.user_id] for s in prev.seats if s.user_id in users}
        try:
            return m.engine.carry_over(prev.rec.state, seat_map, m.rec.options)
        except Exception:  # noqa: BLE001 - an old state the hook cannot read: start as new
            log.exception("carry_over failed for match %s", m.id)
            return {}

    async def start(self, match_id: int, by_user: int) -> MatchInfo:
        """Deal the game (engine.new_state with a fresh seed), arm deadlines, publish 'started'."""
        async with self._locks(match_id):
            m = await self._load(match_id, with_state=False)
            self._need_status(m, "lobby")
            self._need_host(m, by_user)
            least, most = m.engine.seat_range(m.rec.options)
            if not least <= len(m.seats) <= most:
                raise UserError("core.err.seat_count", min=least, max=most)
            seed = secrets.randbits(63)
            carried = await self._carry_over(m)
            options = {**m.rec.options, **carried}
            try:
                state = await self._cpu_now(m.engine.new_state, reaction.engine_options(options),
                                          len(m.seats), seed)
            except EngineError as err:
                raise UserError.from_engine(err) from err
            async with self.store.transaction() as tx:
                version = await self._bump(tx, m, status="active", state=state, seed=seed,
                                            edition=m.engine.edition, **({"options": options} if carried else {}))
                pending_ids = await self._sync_deadlines(tx, m, state)
                await self._emit(tx, Change("started", m.id, version, None, [], None, pending_ids))
            self._due_changed(m.new_due)
        await self._after_change(match_id)
        return await self.get(match_id)

