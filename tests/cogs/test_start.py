"""Start-up: settings parsing, the no-token message, structured log lines."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

import app_settings
from app_settings import SettingsError
from cogs.utils.logfmt import KeyValueFormatter
from i18n import t

ROOT = Path(__file__).resolve().parents[2]


def _run_bot(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    base = {"PATH": os.environ.get("PATH", ""), "PYTHONIOENCODING": "utf-8", "LANG": "C.UTF-8"}
    return subprocess.run([sys.executable, str(ROOT / "bot.py")], cwd=tmp_path, env={**base, **env},
                          capture_output=True, text=True, timeout=60)


def test_no_token_prints_one_clear_message_and_exits_2(tmp_path: Path) -> None:
    proc = _run_bot(tmp_path)
    assert proc.returncode == 2
    out = proc.stdout + proc.stderr
    assert out.strip() == t("en", "discord.start.no_token").strip()
    assert "Reset Token" in out and ".env.example" in out and "Traceback" not in out
    assert not (tmp_path / "var").exists(), "nothing is created without a token"


def test_no_token_message_follows_default_language(tmp_path: Path) -> None:
    proc = _run_bot(tmp_path, DEFAULT_LANGUAGE="zh-TW")
    assert proc.returncode == 2
    assert "權杖" in proc.stderr


def test_bad_setting_is_reported_without_traceback(tmp_path: Path) -> None:
    proc = _run_bot(tmp_path, DISCORD_TOKEN="x", SCHEDULER_INTERVAL="soon")
    assert proc.returncode == 2
    assert "SCHEDULER_INTERVAL" in proc.stderr and "Traceback" not in proc.stderr


def test_dotenv_in_working_directory_is_read(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("DEFAULT_LANGUAGE=zh-CN\n", encoding="utf-8")
    proc = _run_bot(tmp_path)
    assert proc.returncode == 2 and "令牌" in proc.stderr


def test_settings_from_mapping_defaults_and_values() -> None:
    s = app_settings.from_mapping({})
    assert s.token is None and s.default_language == "en" and s.dev_guild_id is None
    assert s.database_path == app_settings.ROOT / "var" / "bot.sqlite3"
    s = app_settings.from_mapping({"DISCORD_TOKEN": " abc ", "DATABASE_PATH": "data/x.db", "DEV_GUILD_ID": "123",
                                   "LOG_LEVEL": "debug", "SCHEDULER_INTERVAL": "2.5", "DEFAULT_LANGUAGE": "zh-CN"})
    assert s.token == "abc" and s.dev_guild_id == 123 and s.log_level == "DEBUG"
    assert s.scheduler_interval == 2.5 and s.default_language == "zh-CN"
    assert s.database_path == app_settings.ROOT / "data" / "x.db"


@pytest.mark.parametrize("env", [{"DEFAULT_LANGUAGE": "fr"}, {"DEV_GUILD_ID": "abc"}, {"LOG_LEVEL": "LOUD"},
                                 {"SCHEDULER_INTERVAL": "0"}])
def test_settings_errors_name_the_setting(env: dict[str, str]) -> None:
    with pytest.raises(SettingsError) as err:
        app_settings.from_mapping(env)
    assert next(iter(env)) in str(err.value)


def test_env_example_documents_every_setting() -> None:
    text = (ROOT / ".env.example").read_text(encoding="utf-8")
    for name in ("DISCORD_TOKEN", "DATABASE_PATH", "DEFAULT_LANGUAGE", "DEV_GUILD_ID", "LOG_LEVEL",
                 "SCHEDULER_INTERVAL"):
        assert f"\n{name}=" in text
    assert app_settings.from_mapping(dict(line.split("=", 1) for line in text.splitlines()
                                          if line and not line.startswith("#"))).token is None


def test_log_lines_are_key_value_with_match_id() -> None:
    record = logging.LogRecord("cogs.play", logging.WARNING, __file__, 1, "could not post %s", ("x y",), None)
    record.match = 12
    record.custom_id = 'g:a:"1"'
    line = KeyValueFormatter().format(record)
    assert line.startswith("ts=") and " level=WARNING " in line and " logger=cogs.play " in line
    assert 'msg="could not post x y"' in line and " match=12" in line
    assert 'custom_id="g:a:\\"1\\""' in line
    try:
        raise ValueError("boom")
    except ValueError:
        record.exc_info = sys.exc_info()
    assert "exc=" in KeyValueFormatter().format(record) and "\n" not in KeyValueFormatter().format(record)
