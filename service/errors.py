"""The one error type users can cause through the service; carries a translatable message."""

from __future__ import annotations

from typing import Any

from engines.base import EngineError, Msg


class UserError(Exception):
    """Anything a user did wrong (wrong turn, stale button, not a player, illegal move).

    Front-ends answer it with ``msg`` translated, ephemerally; the match is unchanged.
    """

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.msg = Msg(key, params)

    @staticmethod
    def from_engine(err: EngineError) -> UserError:
        e = UserError(err.msg.key)
        e.msg = err.msg
        return e
