"""Helpers for the end-to-end tests: run the real bot on one database file, play by clicking.

Kept out of conftest.py so test modules can import them by a unique module name.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import discord

from fakediscord import FakeChannel, FakeDiscord, FakeInteraction, FakeMessage, FakeUser
from fakediscord.limits import FLAG_LOADING

ClientRunner = Callable[[discord.Client], Awaitable[asyncio.Task[None]]]


# ----- the real bot -----------------------------------------------------------------------------------

def real_bot_missing(game: str) -> str | None:
    """Why the real bot cannot run ``game`` (None when it can): only a bot or engine that does
    not exist at all skips a test; one that exists but fails to import makes the test fail."""
    import importlib.util

    from engines import registry

    if importlib.util.find_spec("bot") is None:
        return "bot.py does not exist"
    module = registry.GAMES.get(game)
    if module is None or importlib.util.find_spec(module) is None:
        return f"no engine for {game}"
    return None


class RealBots:
    """Starts the real bot (``bot.create_bot``) on one database file, again after a restart."""

    def __init__(self, fake: FakeDiscord, run_client: ClientRunner, db_path: Path) -> None:
        self.fake = fake
        self.run_client = run_client
        self.db_path = db_path
        self.current: discord.Client | None = None
        self.starts = 0
        #: Extra ``app_settings.Settings`` fields for the next start (short response windows...).
        self.overrides: dict[str, Any] = {}

    async def start(self) -> discord.Client:
        import app_settings
        import bot as botmod

        # The bot paces its posts to the fake's channel limit as it does to Discord's: the
        # default interval for Discord's 5 per 5 s, scaled when the fake runs faster.
        limit = self.fake.rate_limit
        pace = app_settings.DEFAULT_POST_INTERVAL * (limit[1] / 5.0) if limit else 0.0
        settings = app_settings.Settings(token=self.fake.token, database_path=self.db_path,
                                         **{"scheduler_interval": 0.2, "post_interval": pace, **self.overrides})
        client = botmod.create_bot(settings)
        await self.run_client(client)
        self.starts += 1
        self.current = client
        # setup_hook (store, cogs, command sync) runs before the gateway connects.
        await self.fake.wait_for(lambda: self.fake.commands(), 10, "the bot's commands")
        return client

    async def stop(self) -> None:
        client, self.current = self.current, None
        if client is not None:
            # Closing inside discord.py's 2 s READY delay leaves a task that logs an error.
            await asyncio.wait_for(client.wait_until_ready(), 10)
            await client.close()
            await self.fake.wait_for(lambda: not self.fake.gateway.connected(), 10, "the bot to disconnect")

    @property
    def service(self) -> Any:
        assert self.current is not None
        return self.current.service  # type: ignore[attr-defined]


# ----- playing through the bot's components ----------------------------------------------------------

class Table:
    """Plays a match the way people do: only by clicking what the bot's messages offer.

    Custom ids follow the layout documented in ``cogs/utils/ids.py`` (``g:l:`` lobby buttons,
    ``g:lo:``/``g:lt:`` lobby selects, ``g:t:`` take-your-turn, ``g:a:`` step and ``g:h:`` group buttons,
    ``g:p:`` options that play at once, ``g:s:`` step selects, ``g:c:`` confirm). At every step the first
    offered option is chosen.
    """

    def __init__(self, fake: FakeDiscord, patience: float = 10.0) -> None:
        self.fake = fake
        self.clicks = 0
        #: how long to wait for the bot to update a message after a click
        self.patience = patience
        #: seconds from each Confirm click until the step message showed the result
        self.confirm_waits: list[float] = []

    # lobby
    async def open_lobby(self, host: FakeUser, game: str) -> tuple[int, FakeMessage]:
        ix = await self.fake.slash(host, self.fake.general, "play", game=game)
        lobby = ix.original
        assert lobby is not None and not lobby.ephemeral, f"/play answered {ix.replies()}"
        match_id = next(int(c.split(":")[2]) for c in lobby.custom_ids() if c.startswith("g:l:"))
        return match_id, lobby

    async def lobby_click(self, user: FakeUser, lobby: FakeMessage, match_id: int, op: str) -> FakeInteraction:
        self.clicks += 1
        return await self.fake.click(user, lobby, f"g:l:{match_id}:{op}", timeout=10)

    async def add_ai(self, host: FakeUser, lobby: FakeMessage, match_id: int, level: str = "normal") -> FakeInteraction:
        """Add an AI seat the way a host does: "Add AI" opens the level picker (an ephemeral
        message), and the level's button adds the seat."""
        ix = await self.lobby_click(host, lobby, match_id, "ai")
        picker = ix.original
        assert picker is not None and picker.ephemeral, f"Add AI answered {ix.replies()}"
        self.clicks += 1
        return await self.fake.click(host, picker, f"g:la:{match_id}:{level}", timeout=10)

    async def lobby_option(self, host: FakeUser, lobby: FakeMessage, match_id: int, name: str,
                           value: str) -> FakeInteraction:
        from cogs.utils import ids

        custom_id = ids.lobby_option_id(match_id, name)
        if custom_id not in lobby.custom_ids():  # behind "More options"
            ix = await self.lobby_click(host, lobby, match_id, "more")
            extra = ix.original
            assert extra is not None and extra.ephemeral
            self.clicks += 1
            return await self.fake.select(host, extra, custom_id, [value])
        self.clicks += 1
        return await self.fake.select(host, lobby, custom_id, [value])

    async def turn_time(self, host: FakeUser, lobby: FakeMessage, match_id: int, seconds: int) -> FakeInteraction:
        self.clicks += 1
        return await self.fake.select(host, lobby, f"g:lt:{match_id}", [str(seconds)])

    async def start_match(self, bots: RealBots, host: FakeUser, game: str, *, guests: tuple[FakeUser, ...] = (),
                          ais: int = 0, options: dict[str, str] | None = None) -> Any:
        """Open a lobby, set ``options``, let ``guests`` join, add ``ais`` AI seats, start; returns
        the running match (with its thread)."""
        match_id, lobby = await self.open_lobby(host, game)
        for name, value in (options or {}).items():
            await self.lobby_option(host, lobby, match_id, name, value)
        for guest in guests:
            await self.lobby_click(guest, lobby, match_id, "join")
        for _ in range(ais):
            await self.add_ai(host, lobby, match_id)
        await self.lobby_click(host, lobby, match_id, "start")

        async def active() -> Any:
            info = await bots.service.get(match_id)
            return info if info.status == "active" and info.thread_id else None

        return await self.until(active, 10, f"match {match_id} to start")

    @staticmethod
    async def until(probe: Callable[[], Awaitable[Any]], timeout: float = 10.0, what: str = "condition") -> Any:
        """Poll an async probe (a service query) until it returns something truthy."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            value = await probe()
            if value:
                return value
            if loop.time() > end:
                raise AssertionError(f"timed out waiting for {what}")
            await asyncio.sleep(0.05)

    # play
    def status_posts(self, where: FakeChannel | int) -> list[FakeMessage]:
        """Public posts in the match thread that carry a take-your-turn button."""
        return [m for m in self.fake.messages_in(where) if any(c.startswith("g:t:") for c in m.custom_ids())]

    async def open_turn(self, user: FakeUser, post: FakeMessage, custom_id: str) -> FakeMessage:
        """Click take-your-turn; returns the ephemeral step message (or the error reply)."""
        self.clicks += 1
        ix = await self.fake.click(user, post, custom_id, timeout=10)
        await self.fake.wait_for(lambda: ix.original is not None and not ix.original.flags & FLAG_LOADING,
                                 self.patience, "the step message")
        assert ix.original is not None
        return ix.original

    async def walk(self, user: FakeUser, step_msg: FakeMessage, locale_key_labels: set[str], max_steps: int = 40, *,
                   biggest_number: bool = False, prefer: str | None = None) -> None:
        """From a step message, pick the first option each time and Confirm when offered; an
        option that plays at once (``g:p:``) ends the walk like Confirm.

        With ``biggest_number`` a step whose options are all numbers (army counts) takes the
        largest, so games with "how many" steps progress in fewer clicks. With ``prefer`` an
        option whose label contains that text is taken first (a named hero, card or skill).
        """
        for _ in range(max_steps):
            ids_now = step_msg.custom_ids()
            confirm = [c for c in ids_now if c.startswith("g:c:")]
            selects = [s for s in step_msg.selects() if s["custom_id"].startswith("g:s:")]
            options = [b for b in step_msg.buttons() if b["custom_id"].startswith(("g:a:", "g:h:", "g:p:"))
                       and not b.get("disabled") and b.get("label") not in locale_key_labels]
            before = step_msg.edits
            clicked_at = asyncio.get_running_loop().time()
            self.clicks += 1
            commits = False
            if confirm:
                ix = await self.fake.click(user, step_msg, confirm[0], timeout=10)
            elif selects:
                values = [o["value"] for o in selects[0]["options"]]
                first = max(values, key=int) if biggest_number and all(v.isdigit() for v in values) else values[0]
                ix = await self.fake.select(user, step_msg, selects[0]["custom_id"], [first], timeout=10)
            elif options:
                chosen = next((b for b in options if prefer and prefer in (b.get("label") or "")), options[0])
                last = [b["custom_id"].rsplit(",", 1)[-1].rsplit(":", 1)[-1] for b in options]
                if biggest_number and all(v.isdigit() for v in last):
                    chosen = options[max(range(len(options)), key=lambda i: int(last[i]))]
                commits = chosen["custom_id"].startswith("g:p:")
                ix = await self.fake.click(user, step_msg, chosen["custom_id"], timeout=10)
            else:
                raise AssertionError(f"step message offers nothing to click: {step_msg.text()!r}")
            await self.fake.wait_for(lambda b=before, i=ix: step_msg.edits > b or i.followups, self.patience,
                                     "the step message to update")
            if ix.followups or self.refused(step_msg):
                raise AssertionError(f"the bot refused a click: {[m.text() for m in [step_msg, *ix.followups]]}")
            if confirm or commits or (selects and await self._played(step_msg, ix)):
                self.confirm_waits.append(asyncio.get_running_loop().time() - clicked_at)
                return
        raise AssertionError("no Confirm after many steps")


    @staticmethod
    def refused(step_msg: FakeMessage) -> bool:
        """Whether a refusal replaced the step message (a dead step: out of date, match over,
        resigned), which then offers nothing to click."""
        from cogs.errors import FINAL_REFUSALS
        from i18n import LOCALES, t

        texts = {t(loc, key) for loc in LOCALES for key in FINAL_REFUSALS}
        return not step_msg.custom_ids() and step_msg.content in texts

    @staticmethod
    async def _played(step_msg: FakeMessage, ix: FakeInteraction) -> bool:
        """Whether a select choice played the action at once (the reply starts with "Played")."""
        from i18n import LOCALES, t

        heads = {t(loc, "discord.play.done", action="").strip() for loc in LOCALES}
        return any(step_msg.text().startswith(h) for h in heads)


def control_labels() -> set[str]:
    """Labels of the step message's Back/Prev/Next/Confirm buttons in every shipped language."""
    from i18n import LOCALES, t

    return {t(loc, f"discord.button.{k}") for loc in LOCALES for k in ("back", "prev", "next", "confirm")}


async def play_to_end(fake: FakeDiscord, bots: RealBots, table: Table, match_id: int, thread_id: int,
                      players: list[FakeUser], max_moves: int = 200, ai_patience: float = 30.0) -> int:
    """Whoever is asked clicks take-your-turn and walks the first options; returns the move count.

    While only AI seats are asked it waits for them, so a game against the AI is played through.
    """
    from cogs.utils import ids

    labels = control_labels()
    moves = 0
    loop = asyncio.get_running_loop()
    ai_deadline = loop.time() + ai_patience
    while moves < max_moves:
        pending = []
        for user in players:
            pending += [(user, r) for r in await bots.service.pending_for_user(match_id, user.id)]
        if not pending:
            if (await bots.service.get(match_id)).status != "active":
                return moves
            if loop.time() > ai_deadline:
                raise AssertionError(f"match {match_id}: nobody was asked for {ai_patience} s")
            await asyncio.sleep(0.05)
            continue
        ai_deadline = loop.time() + ai_patience
        user, req = pending[0]
        turn_id = ids.turn_id(match_id, req)

        def post_with_turn(tid: str = turn_id) -> FakeMessage | None:
            return next((m for m in reversed(fake.messages_in(thread_id)) if tid in m.custom_ids()), None)

        post = await fake.wait_for(post_with_turn, table.patience, f"a post with {turn_id}")
        step = await table.open_turn(user, post, turn_id)
        await table.walk(user, step, labels)
        moves += 1
    raise AssertionError(f"match {match_id} not over after {max_moves} moves")


# ----- clicking toward a planned action ----------------------------------------------------------

def _tail(custom_id: str) -> str:
    return custom_id.rsplit(":", 1)[-1]


def _path_of(custom_id: str) -> list[str]:
    from cogs.utils import ids

    tail = _tail(custom_id)
    assert not tail.startswith("*"), f"stored path in {custom_id}: Risk paths should fit"
    return ids.decode_path(tail)


def _group_of(custom_id: str) -> str:
    from cogs.utils import ids

    return ids.decode_token(custom_id.split(":")[4])


def _nearest(values: list[str], wanted: str) -> str:
    return min(values, key=lambda v: (abs(int(v) - int(wanted)), int(v)))


async def click_plan(fake: FakeDiscord, table: Table, user: FakeUser, step_msg: FakeMessage,
                     plan: list[str]) -> list[str]:
    """Click the step message's options toward ``plan`` and play it (Confirm, or the option
    that plays at once); returns what was played.

    Counts the step UI does not offer (it shows a few sensible amounts) become the nearest offered
    one; territory lists too long for buttons are reached through their continent group buttons
    or the select's pages."""
    from engines.risk.data import content
    from i18n import LOCALES, t

    controls = control_labels()
    nexts = {t(loc, "discord.button.next") for loc in LOCALES}
    played_heads = {t(loc, "discord.play.done", action="").strip() for loc in LOCALES}
    target = list(plan)
    for _ in range(40):
        confirm = [c for c in step_msg.custom_ids() if c.startswith("g:c:")]
        selects = [s for s in step_msg.selects() if s["custom_id"].startswith("g:s:")]
        buttons = [b for b in step_msg.buttons() if not b.get("disabled")]
        options = [b for b in buttons if b["custom_id"].startswith(("g:a:", "g:p:")) and b.get("label") not in controls]
        groups = [b for b in buttons if b["custom_id"].startswith("g:h:")]
        paging = [b for b in buttons if b.get("label") in nexts]
        plays = {tuple(_path_of(b["custom_id"])): b for b in options if b["custom_id"].startswith("g:p:")}
        # Where the message stands: the longest path its components name ("End attack" beside the
        # attack sources names a shorter one).
        candidates = ([_path_of(c) for c in confirm] + [_path_of(s["custom_id"]) for s in selects]
                      + [_path_of(b["custom_id"])[:-1] for b in options] + [_path_of(b["custom_id"]) for b in groups])
        if not candidates:
            raise AssertionError(f"step message offers nothing to click: {step_msg.text()!r}")
        current = max(candidates, key=len)
        before = step_msg.edits
        table.clicks += 1
        played = False
        if tuple(target) in plays:  # one click plays it
            ix = await fake.click(user, step_msg, plays[tuple(target)]["custom_id"], timeout=10)
            played = True
        elif confirm and current == target:
            ix = await fake.click(user, step_msg, confirm[0], timeout=10)
            played = True
        else:
            assert current == target[:len(current)], f"walked off the plan: {current} v {target} ({step_msg.text()!r})"
            token = target[len(current)]
            by_token = {_path_of(b["custom_id"])[-1]: b for b in options if _path_of(b["custom_id"])[:-1] == current}
            values = [o["value"] for o in selects[0]["options"]] if selects else list(by_token)
            if token not in values and token.isdigit() and values and all(v.isdigit() for v in values):
                token = _nearest(values, token)
                target = [*current, token]
            if token in by_token:
                played = by_token[token]["custom_id"].startswith("g:p:")
                ix = await fake.click(user, step_msg, by_token[token]["custom_id"], timeout=10)
            elif selects and token in values:
                ix = await fake.select(user, step_msg, selects[0]["custom_id"], [token], timeout=10)
            elif groups:
                group = content().continent_of.get(token)
                chosen = next((b for b in groups if _group_of(b["custom_id"]) == group), None)
                assert chosen is not None, f"no group for {token} in {[b['label'] for b in groups]}"
                ix = await fake.click(user, step_msg, chosen["custom_id"], timeout=10)
            elif paging:
                ix = await fake.click(user, step_msg, paging[0]["custom_id"], timeout=10)
            else:
                raise AssertionError(f"{token!r} is not offered: {values} ({step_msg.text()!r})")
        await fake.wait_for(lambda b=before, i=ix: step_msg.edits > b or i.followups, table.patience,
                            "the step message to update")
        if ix.followups:
            raise AssertionError(f"the bot refused a click: {[m.text() for m in ix.followups]}")
        if played or any(step_msg.text().startswith(h) for h in played_heads):
            return target
    raise AssertionError(f"no Confirm after many steps toward {plan}")


async def play_one(fake: FakeDiscord, table: Table, service: Any, match_id: int, thread_id: int,
                   user: FakeUser, request_id: str, plan: list[str]) -> list[str]:
    """Take-your-turn on the status post carrying the request, then click the plan through."""
    from cogs.utils import ids

    turn_id = ids.turn_id(match_id, request_id)
    post = await fake.wait_for(lambda: next(
        (m for m in reversed(fake.messages_in(thread_id)) if turn_id in m.custom_ids()), None), 10, turn_id)
    step = await table.open_turn(user, post, turn_id)
    assert step.ephemeral and step.ephemeral_for == user.id
    return await click_plan(fake, table, user, step, plan)


# ----- private DM panels (三国杀, 极武三国) -----------------------------------------------------------

#: Custom-id prefixes of the step UI's buttons and selects (every id carries its request id).
STEP_PREFIXES = ("g:a:", "g:p:", "g:c:", "g:s:")


def bot_dms(fake: FakeDiscord, user: FakeUser, game: str) -> list[FakeMessage]:
    """The bot's DMs to ``user`` but the lobby's "you joined" note: the panel (it has the hand
    picture) and anything else the bot sent. Ephemeral answers to clicks in the DM ("that button
    is out of date" when a window closed between reading the panel and clicking) are not posts."""
    from cogs.utils.embeds import game_name
    from i18n import LOCALES, t

    hello = {t(loc, "discord.lobby.dm_hello", game=game_name(game, loc), match=m)
             for loc in LOCALES for m in range(1, 4)}
    return [m for m in fake.dms_of(user) if m.author.bot and not m.ephemeral and m.content not in hello]


def offers(message: FakeMessage, request_id: str) -> bool:
    """Whether the message's step buttons are for ``request_id`` (the id is in every custom id)."""
    return any(c.startswith(STEP_PREFIXES) and f":{request_id}:" in c for c in message.custom_ids())
