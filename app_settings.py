"""Settings read once at start-up from the environment and an optional ``.env`` file.

Typed and validated in one place so a typo in ``.env`` fails loudly at start instead of deep inside
a cog. Tests build :class:`Settings` directly (temp database, fake token) and never touch ``.env``.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from pathlib import Path

from i18n import LOCALES
from service.settings import DEFAULTS, ServiceSettings

ROOT = Path(__file__).resolve().parent
DEFAULT_DATABASE = ROOT / "var" / "bot.sqlite3"
DEFAULT_SCHEDULER_INTERVAL = 30.0
#: Least seconds between two of the bot's posts/edits in one channel: Discord allows about 5 per
#: 5 s per channel (429 beyond), and ~1.5 s leaves room for everything else in the channel.
DEFAULT_POST_INTERVAL = 1.5
#: Above these a value is surely a typo (a week of outbox rows; more concurrent matches than
#: worker threads could ever serve; a round waiting longer than any scheduler interval).
MAX_OUTBOX_KEEP_SECONDS = 7 * 86400.0
MAX_DUE_CONCURRENCY = 64
MAX_DUE_WAIT = 600.0


class SettingsError(ValueError):
    """A setting has a value we cannot use; the message names the setting."""


@dataclass(frozen=True)
class Settings:
    """What the bot runs with. The match service's settings a server owner may set (response
    windows: ``window_seconds``, ``ai_window_delay``; the scheduler's backlog:
    ``outbox_keep_seconds``, ``due_concurrency``, ``due_wait``) have the names of
    ``service.settings.ServiceSettings`` fields and its defaults, written there once; ``service``
    hands them on."""

    token: str | None
    database_path: Path = DEFAULT_DATABASE
    default_language: str = "en"
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    scheduler_interval: float = DEFAULT_SCHEDULER_INTERVAL
    window_seconds: float = DEFAULTS.window_seconds
    ai_window_delay: float = DEFAULTS.ai_window_delay
    post_interval: float = DEFAULT_POST_INTERVAL
    outbox_keep_seconds: float = DEFAULTS.outbox_keep_seconds
    due_concurrency: int = DEFAULTS.due_concurrency
    due_wait: float | None = DEFAULTS.due_wait  # (None: wait for all; only code may ask for that)
    #: ``DATABASE_URL`` when it is a ``postgresql://`` URL (several processes share it); None:
    #: the SQLite file ``database_path``.
    database_url: str | None = None
    #: ``SHARD_COUNT``: None runs one unsharded connection (as before); 0 means "auto" (one
    #: process, Discord's recommended count); N shards in all, this process running ``shard_ids``.
    shard_count: int | None = None
    #: ``SHARD_IDS``: the shards this process runs (None: all of ``shard_count``).
    shard_ids: tuple[int, ...] | None = None
    #: ``INSTANCE_NAME``: this process's name in the store's leases (None: from the shards).
    instance_name: str | None = None

    @property
    def lease_owner(self) -> str:
        """The store's lease owner id for this process, stable across restarts: the configured
        ``INSTANCE_NAME``, else the process's shard set (each shard is run by exactly one
        process, so it names one process slot of the cluster). A process restarted after kill
        -9 thus finds its leased deadlines and outbox rows its own and serves them at once,
        instead of waiting out the 30 s lease; a different live process still respects them.
        Two live processes given the same name (a misconfiguration, or an overlapping restart)
        only share leases: applying and posting stay guarded by the match locks."""
        if self.instance_name:
            return self.instance_name
        if self.shard_count is None:
            return "unsharded"
        if self.shard_count == 0:
            return "shards auto"
        ids = self.shard_ids if self.shard_ids is not None else range(self.shard_count)
        return f"shards {','.join(map(str, ids))} of {self.shard_count}"

    @property
    def service(self) -> ServiceSettings:
        """The ``MatchService`` settings: every field of ``ServiceSettings`` that is a setting
        here (by name) taken from here, the others the service's defaults."""
        names = {f.name for f in fields(ServiceSettings)} & {f.name for f in fields(Settings)}
        return replace(DEFAULTS, **{name: getattr(self, name) for name in names})

    @property
    def database_target(self) -> str:
        """What ``store.base.open_store`` opens: the PostgreSQL URL, else the SQLite file."""
        return self.database_url or str(self.database_path)


def _seconds(env: Mapping[str, str], name: str, default: float, *, low: float) -> float:
    raw = (env.get(name) or "").strip()
    try:
        value = float(raw) if raw else default
    except ValueError:
        raise SettingsError(f"{name} must be seconds, got {raw!r}") from None
    if value < low:
        raise SettingsError(f"{name} must be at least {low}")
    return value


def _bounded(env: Mapping[str, str], name: str, default: float, low: float, high: float, *, whole: bool = False,
             ) -> float:
    """``name`` as seconds (or, ``whole``, a whole number) between ``low`` and ``high``."""
    raw = (env.get(name) or "").strip()
    what = "a whole number" if whole else "seconds"
    try:
        if not raw.isascii():  # int()/float() would take other scripts' digits
            raise ValueError(raw)
        value = (int(raw) if whole else float(raw)) if raw else default
    except ValueError:
        raise SettingsError(f"{name} must be {what}, got {raw!r}") from None
    if not low <= value <= high:  # also refuses nan
        raise SettingsError(f"{name} must be between {low:g} and {high:g}, got {raw!r}")
    return value


def _int_or_none(name: str, raw: str | None) -> int | None:
    if raw is None or not raw.strip():
        return None
    try:
        return int(raw.strip())
    except ValueError:
        raise SettingsError(f"{name} must be a number (a Discord server id), got {raw!r}") from None


def _shards(env: Mapping[str, str]) -> tuple[int | None, tuple[int, ...] | None]:
    """``SHARD_COUNT`` (empty, ``auto`` or a number ≥ 1) and ``SHARD_IDS`` (comma-separated)."""
    raw_count = (env.get("SHARD_COUNT") or "").strip().lower()
    raw_ids = (env.get("SHARD_IDS") or "").strip()
    count: int | None
    if not raw_count:
        count = None
    elif raw_count == "auto":
        count = 0
    else:
        if not (raw_count.isascii() and raw_count.isdigit()) or int(raw_count) < 1:
            raise SettingsError(f"SHARD_COUNT must be 'auto' or a number of shards (1 or more), got {raw_count!r}")
        count = int(raw_count)
    if not raw_ids:
        return count, None
    if not count:
        raise SettingsError("SHARD_IDS needs SHARD_COUNT set to the total number of shards")
    parts = [p.strip() for p in raw_ids.split(",")]
    if not all(p.isascii() and p.isdigit() for p in parts):
        raise SettingsError(f"SHARD_IDS must be shard numbers separated by commas, got {raw_ids!r}")
    ids = tuple(int(p) for p in parts)
    if any(i >= count for i in ids) or len(set(ids)) != len(ids):
        raise SettingsError(f"SHARD_IDS must be distinct numbers from 0 to {count - 1}, got {raw_ids!r}")
    return count, ids


def from_mapping(env: Mapping[str, str]) -> Settings:
    """Build settings from any mapping (``os.environ`` or a test dict)."""
    language = (env.get("DEFAULT_LANGUAGE") or "en").strip()
    if language not in LOCALES:
        raise SettingsError(f"DEFAULT_LANGUAGE must be one of {', '.join(LOCALES)}, got {language!r}")
    level = (env.get("LOG_LEVEL") or "INFO").strip().upper()
    if not isinstance(logging.getLevelName(level), int):
        raise SettingsError(f"LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, got {level!r}")
    raw_interval = (env.get("SCHEDULER_INTERVAL") or "").strip()
    try:
        interval = float(raw_interval) if raw_interval else DEFAULT_SCHEDULER_INTERVAL
    except ValueError:
        raise SettingsError(f"SCHEDULER_INTERVAL must be seconds, got {raw_interval!r}") from None
    if interval <= 0:
        raise SettingsError("SCHEDULER_INTERVAL must be greater than 0")
    raw_pace = (env.get("POST_INTERVAL") or "").strip()
    try:
        post_interval = float(raw_pace) if raw_pace else DEFAULT_POST_INTERVAL
    except ValueError:
        raise SettingsError(f"POST_INTERVAL must be seconds, got {raw_pace!r}") from None
    if not 0 <= post_interval <= 60:
        raise SettingsError("POST_INTERVAL must be between 0 and 60 seconds")
    raw_url = (env.get("DATABASE_URL") or "").strip()
    database_url = raw_url if raw_url.lower().startswith(("postgresql://", "postgres://")) else None
    if raw_url and database_url is None and "://" in raw_url:
        raise SettingsError(f"DATABASE_URL must be a postgresql:// URL or a file path, got {raw_url.split('://')[0]}://…")
    raw_db = (env.get("DATABASE_PATH") or "").strip() if database_url or not raw_url else raw_url
    db = Path(raw_db) if raw_db else DEFAULT_DATABASE
    shard_count, shard_ids = _shards(env)
    if not db.is_absolute():
        db = ROOT / db
    token = (env.get("DISCORD_TOKEN") or "").strip() or None
    instance = (env.get("INSTANCE_NAME") or "").strip() or None
    if instance is not None and not (instance.isascii() and instance.isprintable() and len(instance) <= 100):
        raise SettingsError("INSTANCE_NAME must be printable ASCII, at most 100 characters")
    return Settings(
        token=token,
        database_path=db,
        default_language=language,
        dev_guild_id=_int_or_none("DEV_GUILD_ID", env.get("DEV_GUILD_ID")),
        log_level=level,
        scheduler_interval=interval,
        window_seconds=_seconds(env, "WINDOW_SECONDS", DEFAULTS.window_seconds, low=1.0),
        ai_window_delay=_seconds(env, "AI_WINDOW_DELAY", DEFAULTS.ai_window_delay, low=0.0),
        post_interval=post_interval,
        outbox_keep_seconds=_bounded(env, "OUTBOX_KEEP_SECONDS", DEFAULTS.outbox_keep_seconds, 0, MAX_OUTBOX_KEEP_SECONDS),
        due_concurrency=int(_bounded(env, "DUE_CONCURRENCY", DEFAULTS.due_concurrency, 1, MAX_DUE_CONCURRENCY,
                                     whole=True)),
        due_wait=_bounded(env, "DUE_WAIT", DEFAULTS.due_wait or MAX_DUE_WAIT, 0.1, MAX_DUE_WAIT),  # None: no limit
        database_url=database_url,
        shard_count=shard_count,
        shard_ids=shard_ids,
        instance_name=instance,
    )


def load(dotenv_path: Path | None = None) -> Settings:
    """Read ``.env`` from the working directory (real environment variables win), then the env.

    The working directory, not the project folder: ``python3 tasks.py bot`` and ``python bot.py``
    run from the project folder anyway, and a test or a second instance started elsewhere must
    never pick up the owner's real token by accident.
    """
    from dotenv import load_dotenv

    load_dotenv(dotenv_path or Path.cwd() / ".env", override=False)
    return from_mapping(os.environ)
