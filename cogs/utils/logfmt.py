"""Structured logging: one ``key=value`` line per record, so logs can be grepped by match id.

Callers pass context through ``extra={"match": 12, "user": 34}``; every non-standard attribute of
the record is appended as a field. Values with spaces or quotes are quoted.
"""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Sequence
from typing import Any

from engines import registry
from engines.base import Engine
from service.models import MatchInfo

#: What an action of a hidden-information game shows in INFO logs.
HIDDEN_ACTION = "<hidden>"

#: Attribute names a ``LogRecord`` already has (plus the two ``Logger.makeRecord`` also refuses):
#: a key of ``extra=`` with one of these names makes the logging call raise KeyError — at INFO,
#: the bot's default level, "match started" once crashed the Start button that way.
RESERVED_KEYS = frozenset(vars(logging.LogRecord("x", 0, "", 0, "", None, None))) | {"message", "asctime",
                                                                                    "taskName"}


def _quote(value: object) -> str:
    text = str(value)
    if text == "" or any(c in text for c in ' "=\n\t'):
        text = '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
    return text


class KeyValueFormatter(logging.Formatter):
    """``ts=... level=INFO logger=cogs.play msg="..." match=12`` (+ ``exc="..."`` on errors)."""

    def format(self, record: logging.LogRecord) -> str:
        ts = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z"
        parts = [f"ts={ts}", f"level={record.levelname}", f"logger={record.name}",
                 f"msg={_quote(record.getMessage())}"]
        for key, value in record.__dict__.items():
            if key not in RESERVED_KEYS and not key.startswith("_"):
                parts.append(f"{key}={_quote(value)}")
        if record.exc_info:
            parts.append(f"exc={_quote(self.formatException(record.exc_info))}")
        return " ".join(parts)


def setup_logging(level: str = "INFO") -> None:
    """Route the root logger (and discord.py's) to stderr as key=value lines."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(KeyValueFormatter())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    # discord.py's gateway chatter is useful at DEBUG only.
    logging.getLogger("discord").setLevel(max(logging.getLevelName(level), logging.INFO))


def action_for_log(engine: Engine, options: dict[str, str], tokens: Sequence[str]) -> str:
    """The action as an operator log may show it: an action of a game with hidden information
    (a secret HQ choice, a card) is a secret the operator must not learn from INFO logs."""
    if engine.hidden_for(options):
        return HIDDEN_ACTION
    return " ".join(tokens)


def log_played(logger: logging.Logger, match: MatchInfo, tokens: Sequence[str], **extra: Any) -> None:
    """The "played" line of a user's action: at INFO with the action unless it is secret
    (:func:`action_for_log`); a secret action's tokens go to a DEBUG line only."""
    fields: dict[str, Any] = {"match": match.id, **extra}
    try:
        engine = registry.get(match.game)
    except (KeyError, ImportError):
        logger.info("played", extra={**fields, "action": HIDDEN_ACTION})
        return
    shown = action_for_log(engine, match.options, tokens)
    logger.info("played", extra={**fields, "action": shown})
    if shown == HIDDEN_ACTION:
        logger.debug("played (hidden action)", extra={**fields, "action": " ".join(tokens)})
