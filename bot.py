"""The Discord bot: ``python bot.py`` (or ``python3 tasks.py bot``).

For tests and embedding::

    bot = create_bot(settings)        # app_settings.Settings; nothing is opened yet
    await run_bot(settings)           # open DB, log in, serve until SIGINT/SIGTERM or bot.close()

``create_bot`` only builds the client; ``setup_hook`` (run by discord.py after login) starts
warming the renderers' caches in a worker thread (the first Risk board after a restart would
otherwise take ~0.6 s longer), opens the store, builds the match service, publisher and scheduler
(which the service tells about new deadlines), loads the cogs, registers the dynamic
(restart-proof) components, syncs the command tree (to DEV_GUILD_ID when set, else globally) and
prints the invite link. ``close`` stops taking interactions, waits for the one in flight, stops
the scheduler and closes the database. The end-to-end tests point ``discord.http.Route.BASE`` at a
local fake and call ``run_bot``/``create_bot`` with a temp database and a fake token.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import importlib
import logging
import re
import signal
import sys
import time
from typing import Any

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

import app_settings
from app_settings import Settings, SettingsError
from cogs.errors import ShuttingDown, answer_error
from cogs.publisher import DiscordPublisher
from cogs.utils.ids import PathStore
from cogs.utils.inflight import InFlight
from cogs.utils.logfmt import setup_logging
from cogs.utils.pacing import GlobalPacer
from cogs.utils.translator import CatalogTranslator
from cogs.utils.userprefs import remember_locale
from i18n import t
from service.core import settle_heap

log = logging.getLogger("bot")

EXTENSIONS = ("cogs.errors", "cogs.lobby", "cogs.play", "cogs.match", "cogs.risk", "cogs.help", "cogs.stats")
#: What the bot needs in a channel; nothing privileged, no Administrator.
PERMISSIONS = discord.Permissions(
    send_messages=True, send_messages_in_threads=True, create_public_threads=True, embed_links=True,
    attach_files=True, read_message_history=True,
)
SCOPES = ("bot", "applications.commands")
#: How long shutdown waits for an interaction that is mid-action.
SHUTDOWN_GRACE = 10.0
#: What starting raises when Discord cannot be reached: no network, a failed DNS lookup, a refused,
#: reset or timed-out connection (all ``aiohttp.ClientError``; aiohttp is only discord.py's here,
#: so a database that cannot be reached is never mistaken for Discord), Discord's own 5xx answers
#: after discord.py's retries, or no gateway. Once connected, discord.py reconnects by itself.
UNREACHABLE = (aiohttp.ClientError, discord.DiscordServerError, discord.GatewayNotFound)


class DiscordUnreachable(Exception):
    """Discord could not be reached while the bot was starting; the message says how it failed."""


def intents() -> discord.Intents:
    """Guilds only: interactions (slash commands, components) arrive without any intent, and the
    guild events keep the channel and thread cache the publisher and permission checks read.
    No message, typing, reaction, voice or member events: each shard would otherwise receive (and
    parse) every message of thousands of servers for nothing; nothing privileged."""
    return discord.Intents(guilds=True)


def invite_url(application_id: int) -> str:
    return discord.utils.oauth_url(application_id, permissions=PERMISSIONS, scopes=SCOPES)


class BotTree(app_commands.CommandTree):
    """Counts slash commands as in flight and refuses new ones while shutting down."""

    async def _call(self, interaction: discord.Interaction) -> None:
        bot: TabletopBot = self.client  # type: ignore[assignment]
        if bot.closing_down:
            if interaction.type is discord.InteractionType.application_command:
                await answer_error(interaction, ShuttingDown())
            return
        async with bot.inflight:
            try:
                await super()._call(interaction)
            finally:
                await remember_locale(bot, interaction)


class _ClockWork:
    """What the scheduler drives: ``service.run_due``, counted as in flight and skipped once the
    bot is closing, so shutdown never cancels it half-way through a transaction."""

    def __init__(self, bot: TabletopBot) -> None:
        self.bot = bot

    async def run_due(self) -> int:
        if self.bot.closing_down:
            return 0
        async with self.bot.inflight:
            return await self.bot.service.run_due()

    async def next_due_at(self) -> float | None:
        if self.bot.closing_down:
            return None
        return await self.bot.service.next_due_at()


#: Renderer modules whose ``prepare()`` builds their cached layers (the Risk map: ~0.6 s; the
#: 鬪三國 tile faces at every board size: ~0.7 s).
WARM_RENDERERS = ("render.risk", "render.kingdoms_battle")


async def warm_renderers(modules: tuple[str, ...] = WARM_RENDERERS) -> list[str]:
    """Build renderers' cached layers in a worker thread, so the first board after a restart is
    drawn as fast as the others, then settle the heap (``service.core.settle_heap``). A module
    without ``prepare`` is skipped; a failure is only logged (the cache then fills on first use,
    as before). Returns the modules prepared."""
    done = []
    for name in modules:
        try:
            prepare = getattr(importlib.import_module(name), "prepare", None)
            if callable(prepare):
                await asyncio.to_thread(prepare)
                done.append(name)
        except Exception:
            log.warning("renderer warm-up failed", extra={"renderer": name}, exc_info=True)
    settle_heap()  # the caches just built live as long as the process
    log.info("renderers warmed", extra={"renderers": ",".join(done)})
    return done


async def _reserve_slot(store: Any, channel_id: int, interval: float) -> float:
    """``ChannelPacer.reserve`` on the shared store: seconds until this process's slot."""
    from store import repo

    now = time.time()
    async with store.transaction() as tx:
        start = await repo.reserve_channel_slot(tx, channel_id, now, interval)
    return max(0.0, start - time.time())


class TabletopBot(commands.Bot):
    def __init__(self, settings: Settings, **client_options: Any) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=intents(), help_command=None,
                         tree_cls=BotTree, allowed_mentions=discord.AllowedMentions.none(), **client_options)
        self.settings = settings
        self.store: Any = None
        self.service: Any = None
        self.scheduler: Any = None
        self.publisher = DiscordPublisher(self, post_interval=settings.post_interval)
        #: Discord's global limit (50 requests/s per bot): every REST request takes a slot first.
        self.request_pacer = GlobalPacer()
        self.request_pacer.install(self.http)
        self.publisher.pacer.requests = self.request_pacer
        self.paths = PathStore()
        self.inflight = InFlight()
        self.closing_down = False
        self.user_locales: dict[int, str] = {}  # last language stored per user (saves writes)
        self.warm_up: asyncio.Task[list[str]] | None = None
        #: Set when ``setup_hook`` starts, i.e. once login's own calls to Discord succeeded.
        self.logged_in = False
        #: templates of the registered DynamicItems, for the catch-all (cogs.errors.answer_unclaimed)
        self.dynamic_templates: list[re.Pattern[str]] = []

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        super().add_dynamic_items(*items)
        self.dynamic_templates.extend(item.__discord_ui_compiled_template__ for item in items)

    async def setup_hook(self) -> None:
        from service.matches import MatchService
        from service.scheduler import Scheduler
        from store.db import Store

        self.logged_in = True
        # In the background: connecting and command sync must not wait for the map cache.
        self.warm_up = asyncio.get_running_loop().create_task(warm_renderers(), name="warm-renderers")
        # DATABASE_URL=postgresql://… shares one store between processes; else the SQLite file.
        if self.settings.database_url is None:
            self.settings.database_path.parent.mkdir(parents=True, exist_ok=True)
        # A stable lease owner: restarted after a crash, this process takes its leases back at once.
        self.store = await Store.open(self.settings.database_target, owner=self.settings.lease_owner)
        if self.store.dialect == "postgres":  # other processes post into the same threads, to the same Discord
            self.publisher.pacer.reserve = functools.partial(_reserve_slot, self.store)
            self.request_pacer.reserve = functools.partial(_reserve_slot, self.store)  # one bucket for all
        self.service = MatchService(self.store, publisher=self.publisher, settings=self.settings.service)
        # Matches stored by an older bot move to today's editions before anyone can act on them.
        upgraded = await self.service.upgrade_matches()
        if upgraded:
            log.info("matches upgraded", extra={"count": upgraded})
        await self.tree.set_translator(CatalogTranslator())
        for ext in EXTENSIONS:
            await self.load_extension(ext)
        from cogs.lobby import DYNAMIC_ITEMS as LOBBY_ITEMS
        from cogs.play import DYNAMIC_ITEMS as PLAY_ITEMS
        from cogs.replay import DYNAMIC_ITEMS as REPLAY_ITEMS
        from cogs.standing import DYNAMIC_ITEMS as STANDING_ITEMS
        self.add_dynamic_items(*LOBBY_ITEMS, *PLAY_ITEMS, *REPLAY_ITEMS, *STANDING_ITEMS)
        await self.sync_commands()
        self.scheduler = Scheduler(_ClockWork(self), self.settings.scheduler_interval)  # type: ignore[arg-type]
        self.service.set_due_listener(self.scheduler.reschedule)
        self.scheduler.start()
        if self.application_id:
            lang = self.settings.default_language
            print(t(lang, "discord.start.invite", url=invite_url(self.application_id)), flush=True)

    async def sync_commands(self) -> None:
        guild_id = self.settings.dev_guild_id
        if guild_id:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        else:
            synced = await self.tree.sync()
        log.info("commands synced", extra={"count": len(synced), "guild": guild_id})

    async def on_ready(self) -> None:
        log.info("ready", extra={"user": str(self.user), "guilds": len(self.guilds)})

    async def close(self) -> None:
        """Stop accepting, let the action in flight finish, stop the clock, close the database."""
        if not self.closing_down:
            self.closing_down = True
            if not await self.inflight.wait_idle(SHUTDOWN_GRACE):
                log.warning("shutdown with interactions still running", extra={"count": self.inflight.count})
            if self.warm_up is not None and not self.warm_up.done():
                self.warm_up.cancel()  # its worker thread finishes on its own; nothing waits for it
            if self.scheduler is not None:
                await self.scheduler.stop()
            if self.store is not None:
                await self.store.close()
                self.store = None
            log.info("closed")
        await super().close()


class ShardedTabletopBot(TabletopBot, commands.AutoShardedBot):
    """The same bot on discord.py's sharded client (``SHARD_COUNT`` set): this process runs
    ``SHARD_IDS`` of ``SHARD_COUNT`` shards (or, with ``auto``, all of Discord's recommended
    count). Every process serves any match: interactions (also from DMs, which reach shard 0)
    act through the shared store, and posts go by REST to the thread's channel id whichever
    shard's guild it is in."""


def create_bot(settings: Settings) -> TabletopBot:
    if settings.shard_count is None:
        return TabletopBot(settings)
    count = settings.shard_count or None  # 0: "auto", Discord's recommended count
    ids = list(settings.shard_ids) if settings.shard_ids is not None else None
    return ShardedTabletopBot(settings, shard_count=count, shard_ids=ids)


async def run_bot(settings: Settings, *, install_signals: bool = True, bot: TabletopBot | None = None) -> None:
    """Run until closed; SIGINT/SIGTERM close cleanly (when we own the main thread's loop), also
    while still logging in. Raises :class:`DiscordUnreachable` when Discord cannot be reached.

    ``bot`` lets a caller (tests) keep a handle on the instance it passes in.
    """
    bot = bot or create_bot(settings)
    loop = asyncio.get_running_loop()
    installed: list[signal.Signals] = []
    if install_signals:
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError):  # Windows / not main thread
                loop.add_signal_handler(sig, lambda: asyncio.ensure_future(bot.close()))
                installed.append(sig)
    try:
        async with bot:
            try:
                await bot.start(settings.token or "")
            except (*UNREACHABLE, TimeoutError) as exc:
                if bot.closing_down:
                    # Stopped while logging in (SIGTERM, e.g. from tasks.py cluster): closing the
                    # HTTP session broke the login request; that is the shutdown asked for.
                    return
                # aiohttp's overall request time-out is a bare TimeoutError: Discord's only while
                # logging in (setup_hook, which opens the database, has not started yet).
                if isinstance(exc, UNREACHABLE) or not bot.logged_in:
                    raise DiscordUnreachable(one_line(exc)) from exc
                raise
    finally:
        for sig in installed:
            loop.remove_signal_handler(sig)


def main() -> int:
    try:
        settings = app_settings.load()
    except SettingsError as exc:
        return start_failed(t("en", "discord.start.bad_setting", error=str(exc)), 2)
    lang = settings.default_language
    if not settings.token:
        return start_failed(t(lang, "discord.start.no_token"), 2)
    setup_logging(settings.log_level)
    try:
        asyncio.run(run_bot(settings))
    except discord.LoginFailure:
        return start_failed(t(lang, "discord.start.bad_token"), 2)
    except discord.PrivilegedIntentsRequired:
        return start_failed(t(lang, "discord.start.intents"), 2)
    except DiscordUnreachable as exc:
        return start_failed(t(lang, "discord.start.unreachable", error=str(exc)), 1)
    return 0


def start_failed(message: str, code: int) -> int:
    """Say why the bot cannot start (stderr) and return the exit code. SIGTERM is ignored from
    here on, since the process is ending anyway: a stop signal arriving while it exits would
    otherwise turn a failure it has already reported into "stopped by a signal", and
    ``tasks.py cluster``, which stops the other bots once one ended, reports each bot by how it
    ended (printed a reason ⇔ exited with its code)."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    print(message, file=sys.stderr, flush=True)
    return code


def one_line(exc: BaseException) -> str:
    """The error as one line for a start-up message: what failed, without a traceback."""
    text = " ".join(str(exc).split())
    return text or type(exc).__name__


if __name__ == "__main__":
    sys.exit(main())
