"""Small text helpers for Discord's length limits."""

from __future__ import annotations

ELLIPSIS = "…"


def clamp(text: str, limit: int) -> str:
    """Cut ``text`` to ``limit`` characters, marking the cut, so a long name never breaks a send."""
    text = str(text)
    if len(text) <= limit:
        return text
    return text[:max(0, limit - 1)] + ELLIPSIS


def join_lines(lines: list[str], limit: int) -> str:
    """Join lines, dropping the tail (marked) once ``limit`` would be exceeded."""
    out: list[str] = []
    size = 0
    for line in lines:
        extra = len(line) + (1 if out else 0)
        if size + extra > limit - 2:
            out.append(ELLIPSIS)
            break
        out.append(line)
        size += extra
    return clamp("\n".join(out), limit)
