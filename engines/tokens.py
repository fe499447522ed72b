"""Reading numbers out of action tokens: ASCII digits only.

Tokens come from buttons, but also from typed text (``/move``, the terminal), and ``str``'s own
tests are Unicode-wide: ``'²'.isdigit()`` is true while ``int('²')`` raises ValueError (a crash,
not a refusal), and ``'٣'.isdecimal()`` is true with ``int('٣') == 3`` (an action nobody meant).
Every parser of a count, a seat or an orientation goes through :func:`ascii_int`, so a token is
either a number the player typed with ASCII digits or not a number at all.
"""

from __future__ import annotations

#: More digits than any count, seat or orientation needs; bounds int() on a hostile token.
MAX_DIGITS = 6


def ascii_int(token: object, max_digits: int = MAX_DIGITS) -> int | None:
    """The whole number ``token`` spells with 1..max_digits ASCII digits (no sign), else None."""
    if not isinstance(token, str) or not 0 < len(token) <= max_digits:
        return None
    if not (token.isascii() and token.isdigit()):
        return None
    return int(token)
