"""Structured logging: one ``key=value`` line per record, so logs can be grepped by match id.

Callers pass context through ``extra={"match": 12, "user": 34}``; every non-standard attribute of
the record is appended as a field. Values with spaces or quotes are quoted.
"""

from __future__ import annotations

import logging
import sys
import time

_STANDARD = set(vars(logging.LogRecord("x", 0, "", 0, "", None, None))) | {"message", "asctime", "taskName"}


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
            if key not in _STANDARD and not key.startswith("_"):
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
