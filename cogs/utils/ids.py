"""Component custom ids: compact, restart-proof, and never longer than Discord's 100 characters.

Every button and select the bot sends carries its whole context in its custom id (match id,
request id, the action path chosen so far, the page), so a click can be handled by a
``DynamicItem`` after a restart without any view kept in memory.

Layout (``{path}`` is the token path, see :func:`encode_path`)::

    g:t:{match}:{req}                  "Take your turn" on the public status message
    g:a:{match}:{req}:{page}:{path}    show the step after {path} (option button, Back, Prev/Next)
    g:s:{match}:{req}:{path}           select menu; the chosen value is the next token
    g:c:{match}:{req}:{path}           Confirm: play {path}
    g:p:{match}:{req}:{path}           an option that plays at once (its token ends {path});
                                       template in cogs/utils/layout.py
    g:l:{match}:{op}                   lobby button (join, leave, ai, unai, start, more)
    g:lo:{match}:{name}                lobby select for the engine option {name}
    g:lt:{match}                       lobby select for the turn time
    g:h:{match}:{req}:{group}:{page}:{path}   a group of a long option list (Risk continents);
                                       template in cogs/utils/layout.py
    g:rt:{match}:{req}                 /risk trade card-set select; template in cogs/risk.py

Tokens are short, so paths almost always fit. When one would not, the path is kept in memory
under a random key and the id carries ``*{key}`` instead (see :class:`PathStore`); after a restart
such a key is unknown and the player is simply asked again from the first step.
"""

from __future__ import annotations

import secrets
from collections import OrderedDict
from dataclasses import dataclass

from store.base import ID_MAX, is_row_id

MAX_CUSTOM_ID = 100
PREFIX = "g"
_RAW = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.+-")
_EMPTY_TOKEN = "~~"
_HEX = frozenset("0123456789ABCDEF")
#: Match ids are 64-bit row ids: a larger number in a (forged) id is no match of ours, and would
#: make the database driver raise OverflowError instead of "not found".
MATCH_ID_MAX = ID_MAX

# Regex templates for discord.ui.DynamicItem (kept here next to the encoders they must match).
# Digits are [0-9], not \d: \d also matches other scripts' digits, which we never write.
TURN_TEMPLATE = r"g:t:(?P<match>[0-9]+):(?P<req>[^:]+)$"
NAV_TEMPLATE = r"g:a:(?P<match>[0-9]+):(?P<req>[^:]+):(?P<page>[0-9]+):(?P<path>[^:]*)$"
SELECT_TEMPLATE = r"g:s:(?P<match>[0-9]+):(?P<req>[^:]+):(?P<path>[^:]*)$"
CONFIRM_TEMPLATE = r"g:c:(?P<match>[0-9]+):(?P<req>[^:]+):(?P<path>[^:]*)$"
LOBBY_TEMPLATE = r"g:l:(?P<match>[0-9]+):(?P<op>[a-z]+)$"
LOBBY_OPTION_TEMPLATE = r"g:lo:(?P<match>[0-9]+):(?P<name>[^:]+)$"
LOBBY_TURN_TEMPLATE = r"g:lt:(?P<match>[0-9]+)$"
#: The AI level picker's buttons (an ephemeral message opened by the lobby's "Add AI").
LOBBY_AI_TEMPLATE = r"g:la:(?P<match>[0-9]+):(?P<level>[a-z]+)$"
#: The replay viewer (``cogs.replay``): a button names the step it goes to, the select carries steps.
REPLAY_TEMPLATE = r"g:r:(?P<match>[0-9]+):(?P<step>[0-9]+):(?P<op>[fpnl])$"
REPLAY_SELECT_TEMPLATE = r"g:rs:(?P<match>[0-9]+)$"


class BadCustomId(ValueError):
    """A custom id we did not produce (or produced by an incompatible version)."""


def encode_token(token: str) -> str:
    """Keep safe ASCII as is; every other byte becomes ``~XX`` (so ``:``/``,``/``*`` never appear)."""
    if token == "":
        return _EMPTY_TOKEN
    out = []
    for ch in token:
        if ch in _RAW:
            out.append(ch)
        else:
            out.extend(f"~{b:02X}" for b in ch.encode("utf-8"))
    return "".join(out)


def decode_token(text: str) -> str:
    if text == _EMPTY_TOKEN:
        return ""
    raw = bytearray()
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "~":
            pair = text[i + 1:i + 3]
            # Only what encode_token writes: int(x, 16) would also take " A", "+1" or "٣٣".
            if len(pair) != 2 or not set(pair) <= _HEX:
                raise BadCustomId(text)
            raw.append(int(pair, 16))
            i += 3
        elif ch in _RAW:
            raw.append(ord(ch))
            i += 1
        else:
            raise BadCustomId(text)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise BadCustomId(text) from None


def check_match_id(match_id: int) -> int:
    """``match_id`` if it can be one of ours (1 .. 2**63-1), else :class:`BadCustomId`."""
    if not is_row_id(match_id):
        raise BadCustomId(f"match id out of range: {match_id}")
    return match_id


def encode_path(path: list[str]) -> str:
    return ",".join(encode_token(t) for t in path)


def decode_path(text: str) -> list[str]:
    if text == "":
        return []
    if text.startswith("*"):
        raise BadCustomId("stored path key, not a path")
    return [decode_token(part) for part in text.split(",")]


@dataclass(frozen=True)
class StoredPath:
    match_id: int
    request_id: str
    path: tuple[str, ...]


class PathStore:
    """Paths too long for a custom id, kept in memory under a short random key (bounded LRU).

    Random keys (not a counter) so that a key from before a restart can never name a different,
    newer path; such a key simply is not found and the player is asked again.
    """

    def __init__(self, capacity: int = 5000) -> None:
        self._items: OrderedDict[str, StoredPath] = OrderedDict()
        self._capacity = capacity

    def put(self, match_id: int, request_id: str, path: list[str]) -> str:
        key = secrets.token_hex(5)
        self._items[key] = StoredPath(match_id, request_id, tuple(path))
        while len(self._items) > self._capacity:
            self._items.popitem(last=False)
        return key

    def get(self, key: str, match_id: int, request_id: str) -> list[str] | None:
        item = self._items.get(key)
        if item is None or item.match_id != match_id or item.request_id != request_id:
            return None
        self._items.move_to_end(key)
        return list(item.path)


def _fit(head: str, path: list[str], match_id: int, req: str, store: PathStore | None) -> str:
    cid = head + encode_path(path)
    if len(cid) <= MAX_CUSTOM_ID:
        return cid
    if store is None:
        raise BadCustomId(f"path too long for a custom id and no store: {cid[:40]}...")
    cid = head + "*" + store.put(match_id, req, path)
    if len(cid) > MAX_CUSTOM_ID:
        raise BadCustomId("request id too long for a custom id")
    return cid


def fit_id(head: str, path: list[str], match_id: int, req: str, store: PathStore | None) -> str:
    """``head`` + the encoded path, or + ``*{key}`` of a stored path when that is too long
    (for custom id kinds defined next to their handlers)."""
    return _fit(head, path, match_id, req, store)


def turn_id(match_id: int, req: str) -> str:
    cid = f"{PREFIX}:t:{match_id}:{encode_token(req)}"
    if len(cid) > MAX_CUSTOM_ID:
        raise BadCustomId("request id too long for a custom id")
    return cid


def nav_id(match_id: int, req: str, page: int, path: list[str], store: PathStore | None = None) -> str:
    return _fit(f"{PREFIX}:a:{match_id}:{encode_token(req)}:{page}:", path, match_id, req, store)


def select_id(match_id: int, req: str, path: list[str], store: PathStore | None = None) -> str:
    return _fit(f"{PREFIX}:s:{match_id}:{encode_token(req)}:", path, match_id, req, store)


def confirm_id(match_id: int, req: str, path: list[str], store: PathStore | None = None) -> str:
    return _fit(f"{PREFIX}:c:{match_id}:{encode_token(req)}:", path, match_id, req, store)


def lobby_id(match_id: int, op: str) -> str:
    return f"{PREFIX}:l:{match_id}:{op}"


def lobby_option_id(match_id: int, name: str) -> str:
    return f"{PREFIX}:lo:{match_id}:{encode_token(name)}"


def lobby_turn_id(match_id: int) -> str:
    return f"{PREFIX}:lt:{match_id}"


def lobby_ai_id(match_id: int, level: str) -> str:
    return f"{PREFIX}:la:{match_id}:{level}"


def resolve_path(text: str, match_id: int, req: str, store: PathStore | None) -> list[str] | None:
    """The path a custom id carries; None when it names a stored path that is gone (restart)."""
    if text.startswith("*"):
        return store.get(text[1:], match_id, req) if store is not None else None
    return decode_path(text)


def replay_id(match_id: int, step: int, op: str) -> str:
    """A replay button: go to ``step`` (``op`` f/p/n/l keeps the four buttons' ids distinct)."""
    return f"{PREFIX}:r:{match_id}:{step}:{op}"


def replay_select_id(match_id: int) -> str:
    return f"{PREFIX}:rs:{match_id}"
