"""Discord's error bodies, so discord.py raises exactly what it would raise against the real API.

discord.py flattens ``{"errors": {"content": {"_errors": [...]}}}`` into readable text; building
the same nested shape here keeps the exceptions the bot sees identical to production ones.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class FieldError:
    """One broken rule: ``path`` is the dotted field path (``embeds.0.title``)."""

    path: str
    code: str
    message: str


class ApiError(Exception):
    """Raised inside a handler to answer with a Discord error status and body."""

    def __init__(self, status: int, code: int, message: str,
                 errors: list[FieldError] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors or []

    def body(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.errors:
            out["errors"] = nest_errors(self.errors)
        return out


def nest_errors(errors: list[FieldError]) -> dict[str, Any]:
    """Turn dotted paths into Discord's nested ``_errors`` tree."""
    root: dict[str, Any] = {}
    for err in errors:
        node = root
        for part in err.path.split(".") if err.path else []:
            node = node.setdefault(part, {})
        node.setdefault("_errors", []).append({"code": err.code, "message": err.message})
    return root


def invalid_form(errors: list[FieldError]) -> ApiError:
    return ApiError(400, 50035, "Invalid Form Body", errors)


def unknown(kind: str) -> ApiError:
    """The 404s Discord answers for missing objects (codes from Discord's JSON error code list)."""
    codes = {
        "channel": 10003, "message": 10008, "user": 10013, "webhook": 10015,
        "interaction": 10062, "guild": 10004, "member": 10007, "application": 10002,
        "command": 10063,
    }
    return ApiError(404, codes.get(kind, 0), f"Unknown {kind.title()}")
