"""Replays and exports for front-ends: the step viewer's :class:`service.replay.Timeline` (built
in a worker thread, cached per match version) and the export a player may download."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from service import codec
from service.core import MatchCore
from service.errors import UserError
from service.replay import Timeline
from store import repo

#: Timelines kept in memory (a viewer's clicks then cost a view and a picture, not a rebuild).
TIMELINE_CACHE = 8
#: Statuses whose export is the whole match (seed and every action); others are running.
OVER = ("finished", "abandoned")


class ReplayOps(MatchCore):
    """``timeline`` for the viewer, ``shared_export`` for ``/match export``."""

    _timelines: OrderedDict[tuple[int, int], Timeline]

    async def timeline(self, match_id: int) -> Timeline:
        """Every step of the match so far (public views only are ever drawn from it)."""
        info = await self.get(match_id)  # type: ignore[attr-defined]
        if info.status == "lobby":
            raise UserError("core.err.not_started")
        cache = self.__dict__.setdefault("_timelines", OrderedDict())
        key = (match_id, info.version)
        found = cache.get(key)
        if found is not None:
            cache.move_to_end(key)
            return found
        export = await self.export(match_id)  # type: ignore[attr-defined]
        built: Timeline = await self._cpu_now(Timeline, export)  # somebody waits for it
        cache[key] = built
        while len(cache) > TIMELINE_CACHE:
            cache.popitem(last=False)
        return built

    async def shared_export(self, match_id: int) -> dict[str, Any]:
        """The export a player may take away. A match that is over: everything (seed, options,
        edition, every action), so ``tasks.py replay`` rebuilds it. A running match: no seed,
        no action tokens and no private events (the seed is the deck order; a token may be a
        secret choice not yet revealed), only the steps that told the table something, with what
        they told it. Not the rows' source or time either, nor the silent rows: in a response
        window "answered by a standing answer" vs "could not answer", or a time a second after
        the window opened, would tell who holds a 桃 or a 无懈 (the uniform delay and the thread
        hide exactly that)."""
        full = await self.export(match_id)  # type: ignore[attr-defined]
        if full["status"] in OVER:
            return full
        rows = await repo.list_actions(self.store, match_id)
        return {
            "format": full["format"], "id": full["id"], "game": full["game"], "edition": full["edition"],
            "options": full["options"], "status": full["status"], "version": full["version"], "seed": None,
            "hidden": True,
            "seats": [{k: s[k] for k in ("seat", "name", "ai_level", "human", "resigned")} for s in full["seats"]],
            "public_log": [{"version": r.version, "seat": r.seat, "events": public}
                           for r in rows if (public := [e for e in r.events if codec.event_from_json(e).to is None])],
        }
