"""The scheduler's backlog settings (OUTBOX_KEEP_SECONDS, DUE_CONCURRENCY, DUE_WAIT): parsed and
validated at start-up, documented in ``.env.example``, and handed to the match service; the
service settings' defaults written once (``service.settings``)."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import fields, replace
from pathlib import Path

import pytest

import app_settings
from app_settings import Settings
from service.matches import MatchService
from service.settings import DEFAULTS, ServiceSettings
from store.db import Store

ROOT = Path(__file__).resolve().parents[2]
NAMES = ("OUTBOX_KEEP_SECONDS", "DUE_CONCURRENCY", "DUE_WAIT")


def test_defaults_are_the_services_own() -> None:
    """One source: the settings read from an empty environment, and ``Settings``' own field
    defaults, hand the service exactly ``ServiceSettings()``, field by field; a service setting
    set here reaches the service (``Settings.service``, what the bot builds its service with)."""
    shared = {f.name for f in fields(ServiceSettings)} & {f.name for f in fields(Settings)}
    assert shared == {"window_seconds", "ai_window_delay", "outbox_keep_seconds", "due_concurrency", "due_wait"}
    assert app_settings.from_mapping({}).service == ServiceSettings() == Settings(token=None).service
    for name in sorted(shared):
        assert getattr(app_settings.from_mapping({}), name) == getattr(DEFAULTS, name), name
        changed = getattr(DEFAULTS, name) * 2
        assert replace(Settings(token=None), **{name: changed}).service == replace(DEFAULTS, **{name: changed})


def test_values_are_read() -> None:
    s = app_settings.from_mapping({"OUTBOX_KEEP_SECONDS": " 3600 ", "DUE_CONCURRENCY": "3", "DUE_WAIT": "0.5"})
    assert (s.outbox_keep_seconds, s.due_concurrency, s.due_wait) == (3600.0, 3, 0.5)
    assert isinstance(s.due_concurrency, int)
    assert app_settings.from_mapping({"OUTBOX_KEEP_SECONDS": "0"}).outbox_keep_seconds == 0.0


@pytest.mark.parametrize(("name", "raw"), [
    ("OUTBOX_KEEP_SECONDS", "a day"), ("OUTBOX_KEEP_SECONDS", "-1"), ("OUTBOX_KEEP_SECONDS", "1e9"),
    ("DUE_CONCURRENCY", "0"), ("DUE_CONCURRENCY", "2.5"), ("DUE_CONCURRENCY", "65"), ("DUE_CONCURRENCY", "８"),
    ("DUE_WAIT", "0"), ("DUE_WAIT", "nan"), ("DUE_WAIT", "inf"), ("DUE_WAIT", "١"),
])
def test_bad_values_are_refused_naming_the_setting(name: str, raw: str) -> None:
    with pytest.raises(app_settings.SettingsError) as err:
        app_settings.from_mapping({name: raw})
    assert name in str(err.value)


def test_a_bad_value_stops_the_bot_with_one_clear_line(tmp_path: Path) -> None:
    env = {"PATH": os.environ.get("PATH", ""), "PYTHONIOENCODING": "utf-8", "LANG": "C.UTF-8",
           "DISCORD_TOKEN": "x", "DUE_CONCURRENCY": "many"}
    proc = subprocess.run([sys.executable, str(ROOT / "bot.py")], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert "DUE_CONCURRENCY" in proc.stderr and "Traceback" not in proc.stderr


def test_env_example_explains_each_and_its_values_are_the_defaults() -> None:
    lines = (ROOT / ".env.example").read_text(encoding="utf-8").splitlines()
    for name in (*NAMES, "WINDOW_SECONDS", "AI_WINDOW_DELAY"):
        (i,) = [i for i, line in enumerate(lines) if line.startswith(f"{name}=")]
        while "=" in lines[i - 1] and not lines[i - 1].startswith("#"):  # settings explained together
            i -= 1
        assert lines[i - 1].startswith("# "), f"{name} has no explanation above it"
    values = dict(line.split("=", 1) for line in lines if line and not line.startswith("#"))
    assert app_settings.from_mapping(values) == app_settings.from_mapping({})  # every value written is the default


async def test_the_service_keeps_delivered_rows_as_long_as_the_setting_says(tmp_path: Path) -> None:
    """OUTBOX_KEEP_SECONDS reaches the service the bot builds (``Settings.service``)."""
    now = [1_000_000.0]
    settings = app_settings.from_mapping({"OUTBOX_KEEP_SECONDS": "60", "DUE_CONCURRENCY": "2", "DUE_WAIT": "1"})
    assert (settings.service.due_concurrency, settings.service.due_wait) == (2, 1.0)
    store = await Store.open(tmp_path / "m.sqlite3")
    try:
        service = MatchService(store, publisher=_Sink(), clock=lambda: now[0], settings=settings.service)
        await service.create_lobby("risk", host_id=1, host_name="A", locale="en")
        count = "SELECT COUNT(*) AS n FROM outbox WHERE delivered_at IS NOT NULL"
        assert (await store.fetchone(count))["n"] == 1
        now[0] += 59
        await service.run_due()
        assert (await store.fetchone(count))["n"] == 1
        now[0] += 2
        await service.run_due()
        assert (await store.fetchone(count))["n"] == 0
    finally:
        await store.close()


class _Sink:
    async def publish(self, match: object, change: object) -> None:
        return None
