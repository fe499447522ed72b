"""Starting with a token but no Discord to talk to (no network, DNS, refused or timed-out
connections) or a token Discord refuses: ``bot.py`` and ``tools.cluster`` say in one line what
failed and what to check, exit non-zero, and print no traceback."""

from __future__ import annotations

import asyncio
import select
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from start_hooks import ROOT, check_cluster, closed_port, hooked_env, message_lines

import bot as botmod
from app_settings import Settings
from fakediscord import FakeDiscord

UNREACHABLE = "discord.start.unreachable"
BAD_TOKEN = "discord.start.bad_token"
#: Never opened: the bots stop before their set-up opens the store.
UNUSED_PG = "postgresql://nobody@127.0.0.1:1/unused"


def _bot(env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(ROOT / "bot.py")], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=60)


async def _async_run(args: list[str], env: dict[str, str], cwd: Path) -> tuple[int, str, str]:
    """A subprocess that leaves this test's event loop free (the fake Discord runs on it)."""
    proc = await asyncio.create_subprocess_exec(*args, cwd=cwd, env=env, stdout=subprocess.PIPE,
                                                stderr=subprocess.PIPE)
    out, err = await asyncio.wait_for(proc.communicate(), 120)
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


def test_bot_without_a_reachable_discord_says_so_in_one_line(tmp_path: Path) -> None:
    with closed_port() as base:
        proc = _bot(hooked_env(tmp_path, api_base=base, DISCORD_TOKEN="x"), tmp_path)
    assert proc.returncode == 1
    (line,) = message_lines(proc.stderr, UNREACHABLE)
    assert "Cannot connect to host 127.0.0.1" in line
    assert "Traceback" not in proc.stdout + proc.stderr
    assert not (tmp_path / "var").exists(), "nothing is created when Discord cannot be reached"


def test_a_failed_dns_lookup_is_the_same_line(tmp_path: Path) -> None:
    # .invalid never resolves (RFC 2606): the lookup fails like one without a network.
    proc = _bot(hooked_env(tmp_path, api_base="http://discord.invalid/api/v10", DISCORD_TOKEN="x",
                           DEFAULT_LANGUAGE="zh-TW"), tmp_path)
    assert proc.returncode == 1
    assert len(message_lines(proc.stderr, UNREACHABLE, "zh-TW")) == 1
    assert "Traceback" not in proc.stderr


async def test_bot_with_a_token_discord_refuses_says_so_in_one_line(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:  # answers 401 to any other token, like Discord
        code, out, err = await _async_run([sys.executable, str(ROOT / "bot.py")],
                                          hooked_env(tmp_path, api_base=fake.api_base, DISCORD_TOKEN="wrong"),
                                          tmp_path)
        assert fake.requests == ["GET /api/v10/users/@me"]
    assert code == 2
    assert len(message_lines(err, BAD_TOKEN)) == 1
    assert "Traceback" not in out + err


def test_a_stop_signal_while_logging_in_is_a_clean_stop_not_an_outage(tmp_path: Path) -> None:
    """``tasks.py cluster`` stops the other bots with SIGTERM when one fails: one still waiting for
    Discord's answer must stop quietly (closing its HTTP session breaks that request)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as server:
        server.bind(("127.0.0.1", 0))
        server.listen(8)  # never accepted: the kernel completes the connection, nobody answers
        env = hooked_env(tmp_path, api_base=f"http://127.0.0.1:{server.getsockname()[1]}/api/v10",
                         DISCORD_TOKEN="x")
        proc = subprocess.Popen([sys.executable, str(ROOT / "bot.py")], cwd=tmp_path, env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            assert select.select([server], [], [], 60)[0], "the bot never tried to log in"
            proc.send_signal(signal.SIGTERM)
            out, err = proc.communicate(timeout=60)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    assert proc.returncode == 0, err
    assert not message_lines(err, UNREACHABLE) and "Traceback" not in out + err


async def test_a_login_time_out_is_unreachable_but_a_later_one_is_not(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """aiohttp's overall request time-out (5 min) is a bare TimeoutError. While logging in it can
    only be Discord's; once set-up runs (it opens the database) it is left as it is."""
    client = botmod.create_bot(Settings(token="x", database_path=tmp_path / "bot.sqlite3"))

    async def no_answer(token: str) -> None:
        raise TimeoutError

    monkeypatch.setattr(client.http, "static_login", no_answer)
    with pytest.raises(botmod.DiscordUnreachable, match="TimeoutError"):
        await botmod.run_bot(client.settings, install_signals=False, bot=client)

    from store.db import Store

    async def database_time_out(*args: object, **kwargs: object) -> None:
        raise TimeoutError

    monkeypatch.setattr(Store, "open", database_time_out)
    async with FakeDiscord() as fake:
        with fake.patch_discord():
            settings = Settings(token=fake.token, database_path=tmp_path / "bot.sqlite3")
            with pytest.raises(TimeoutError) as err:
                await botmod.run_bot(settings, install_signals=False)
    assert not isinstance(err.value, botmod.DiscordUnreachable)


def test_cluster_without_a_reachable_discord_summarises_each_process(tmp_path: Path) -> None:
    with closed_port() as base:
        env = hooked_env(tmp_path, api_base=base, DISCORD_TOKEN="x", DATABASE_URL=UNUSED_PG)
        done = subprocess.run([sys.executable, "-m", "tools.cluster", "--processes", "3"], capture_output=True,
                              text=True, cwd=tmp_path, env=env, timeout=120)
    failed = check_cluster(done.returncode, done.stdout, done.stderr, 3, exit_code=1)
    assert len(message_lines(done.stderr, UNREACHABLE)) == len(failed), done.stderr  # each said why, once


async def test_cluster_with_a_refused_token_summarises_each_process(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        env = hooked_env(tmp_path, api_base=fake.api_base, DISCORD_TOKEN="wrong", DATABASE_URL=UNUSED_PG)
        code, out, err = await _async_run([sys.executable, "-m", "tools.cluster", "--processes", "2"], env, tmp_path)
    failed = check_cluster(code, out, err, 2, exit_code=2)
    assert len(message_lines(err, BAD_TOKEN)) == len(failed), err

