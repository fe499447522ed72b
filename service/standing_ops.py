"""A player's standing answers for one match: read, change one, or switch them all to "ask me
every time" / back to the defaults. Private: nothing is published, no version moves (the
settings are not game state; the answers they give are logged when given)."""

from __future__ import annotations

from service import standing
from service.core import LoadedMatch, MatchCore
from service.errors import UserError
from service.standing import StandingAnswers
from store import repo

__all__ = ["StandingOps"]

#: ``set_standing_preset`` presets.
PRESET_ASK, PRESET_DEFAULTS = "ask", "defaults"


class StandingOps(MatchCore):
    async def standing_answers(self, match_id: int, user_id: int) -> StandingAnswers:
        m = await self._load(match_id)
        return await self._standing_of(m, user_id)

    async def _standing_of(self, m: LoadedMatch, user_id: int) -> StandingAnswers:
        seat = self._player(m, user_id)
        if m.rec.state is None:
            raise UserError("core.err.not_started")
        specs = m.engine.standing_specs(m.engine.view(m.rec.state, seat.seat))
        stored = standing.decode(await repo.get_meta(self.store, m.id, standing.meta_key(seat.seat)))
        return StandingAnswers(specs, standing.settings_of(specs, stored), stored is None)

    async def set_standing(self, match_id: int, user_id: int, name: str, value: str) -> StandingAnswers:
        """Change one setting (any time while the match runs); the others keep their values."""
        async with self._locks(match_id):
            m = await self._load(match_id)
            self._need_status(m, "active")
            now = await self._standing_of(m, user_id)
            spec = next((s for s in now.specs if s.name == name), None)
            if spec is None or value not in {v for v, _ in spec.choices}:
                raise UserError("core.err.bad_option", option=name, value=value)
            return await self._write_standing(m, user_id, {**now.values, name: value})

    async def set_standing_preset(self, match_id: int, user_id: int, preset: str) -> StandingAnswers:
        """``ask``: one click to "ask me every time"; ``defaults``: back to the game's defaults."""
        async with self._locks(match_id):
            m = await self._load(match_id)
            self._need_status(m, "active")
            seat = self._player(m, user_id)
            assert m.rec.state is not None
            if preset == PRESET_ASK:
                return await self._write_standing(
                    m, user_id, m.engine.standing_ask_always(m.engine.view(m.rec.state, seat.seat)))
            if preset == PRESET_DEFAULTS:
                return await self._write_standing(m, user_id, None)
            raise UserError("core.err.bad_option", option="preset", value=preset)

    async def _write_standing(self, m: LoadedMatch, user_id: int, values: dict[str, str] | None) -> StandingAnswers:
        seat = self._player(m, user_id)
        async with self.store.transaction() as tx:
            await repo.set_meta(tx, m.id, standing.meta_key(seat.seat),
                                None if values is None else standing.encode(values))
        return await self._standing_of(m, user_id)
