"""Small text helpers: Discord's length limits, and player names made inert in Discord text."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

import discord

from engines.base import Msg
from i18n import tm

ELLIPSIS = "…"
#: Characters that start Discord markdown, mentions (``<@id>``, ``@everyone``), masked links
#: (``[x](url)``), headings, quotes, lists and bare links (``https:``). Each is backslash-escaped in
#: a name: Discord's markdown treats ``\`` + any ASCII punctuation as that character, so the name
#: still reads as typed. Stricter than ``discord.utils.escape_markdown``, which leaves ``<@…>``,
#: ``#`` or ``-`` that are not at the start of the *name* alone, although a name is usually put at
#: the start of a line (``"{player} placed …"``).
_MARKUP = frozenset("\\*_~`|>#[]()-+.:<@")
#: Params of the match service's own messages (``core.*``) that carry display names as text.
_NAME_PARAMS = ("name", "names")
_USER_MENTION = re.compile(r"<@!?(\d+)>")


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


def safe_name(name: str) -> str:
    """A display name as inert Discord text: no mention, link, heading, spoiler or formatting.

    Names are chosen by users, so a name ``<@id>`` would ping that user in every post and
    ``[x](url)`` would become a link. Whitespace runs (newlines, tabs) become one space, so a name
    cannot start a new line either. Only for message content, embed descriptions and field values
    and DMs — button labels and images show the plain name.
    """
    flat = " ".join(str(name).split())
    return "".join("\\" + ch if ch in _MARKUP else ch for ch in flat)


def safe_names(seats: Sequence[Any]) -> list[str]:
    """Seat names by seat number, escaped (:func:`safe_name`): the ``seat_names`` for ``tm`` in
    Discord text (images get the plain names from ``cogs.utils.board.seat_names``)."""
    return [safe_name(s.name) for s in sorted(seats, key=lambda s: s.seat)]


def safe_msg(msg: Msg) -> Msg:
    """``msg`` with the display names the match service puts into its ``core.*`` messages
    (time-outs, resignations, excluded winners) escaped; engine messages name seats by reference
    and get their names from :func:`safe_names`."""
    if not msg.key.startswith("core."):
        return msg
    params = {k: safe_name(v) if k in _NAME_PARAMS and isinstance(v, str) else v for k, v in msg.params.items()}
    return Msg(msg.key, params)


def tm_text(locale: str | None, msg: Msg, seats: Sequence[Any]) -> str:
    """:func:`i18n.tm` for Discord text: seat references and name params give escaped names."""
    return tm(locale, safe_msg(msg), safe_names(seats))


def pings(user_ids: Iterable[int]) -> discord.AllowedMentions:
    """Allowed mentions for a post that means to ping exactly these users (none when empty).

    Discord pings whatever the content mentions unless told otherwise; the bot's default is
    :meth:`discord.AllowedMentions.none`, and a post that pings its players lists them here, so
    a mention that slipped into other text (a name, an engine line) can never ping anybody.
    """
    users = [discord.Object(int(u)) for u in dict.fromkeys(user_ids)]
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False, users=users or False)


def pings_in(mention_line: str | None) -> discord.AllowedMentions:
    """:func:`pings` for the users a line the bot built from ``<@id>`` mentions names (the "your
    turn" line of a post), so an edit keeps pinging/highlighting exactly them."""
    return pings(int(u) for u in _USER_MENTION.findall(mention_line or ""))
