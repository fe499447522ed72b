"""The fake itself, exercised through a small discord.py bot of our own.

These tests prove the fake behaves like Discord where the real bot depends on it: discord.py's
HTTP, multipart and zlib gateway code runs unchanged, limits are refused with Discord's errors
and recorded as violations, DMs to closed users fail with 50007, slow answers are flagged, and
a client can resume or be replaced by a new one.
"""

from __future__ import annotations

import asyncio
import io
import re
import struct
import zlib

import discord
import pytest
from discord import app_commands
from discord.ext import commands
from discord.http import Route

from fakediscord import FakeDiscord, FakeUsageError
from fakediscord.commands import check_command, check_command_list
from fakediscord.limits import check_message


def tiny_png(width: int = 3, height: int = 2) -> bytes:
    """A valid PNG without Pillow, so the fake's tests do not depend on the renderer."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    raw = b"".join(b"\x00" + b"\xff\x00\x00" * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


class Counter(discord.ui.DynamicItem[discord.ui.Button], template=r"count:(?P<n>\d+)"):
    """A restart-proof button: its state is its custom id."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"n={n}", custom_id=f"count:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item,
                             match: re.Match[str]) -> Counter:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(Counter(self.n + 1))
        await interaction.response.edit_message(content=f"count {self.n + 1}", view=view)


class MiniBot(commands.Bot):
    """One of each thing the real bot does, with behaviour switches for the tests."""

    def __init__(self, guild_id: int) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default())
        self.guild_id = guild_id
        self.slow_seconds = 0.0
        self.dm_errors: list[discord.HTTPException] = []
        self.send_errors: list[discord.HTTPException] = []
        self.readies = 0
        self._register()

    async def on_ready(self) -> None:
        self.readies += 1

    async def setup_hook(self) -> None:
        self.add_dynamic_items(Counter)
        await self.tree.sync()

    def _register(self) -> None:
        tree = self.tree

        @tree.command(name="echo", description="Say something back")
        async def echo(interaction: discord.Interaction, text: str, secret: bool = False) -> None:
            try:
                await interaction.response.send_message(text, ephemeral=secret)
            except discord.HTTPException as exc:
                self.send_errors.append(exc)
                await interaction.response.send_message("too long", ephemeral=True)

        @tree.command(name="counter", description="A button that counts")
        async def counter(interaction: discord.Interaction) -> None:
            view = discord.ui.View(timeout=None)
            view.add_item(Counter(0))
            await interaction.response.send_message("count 0", view=view)

        @tree.command(name="wide", description="Post a row of buttons")
        async def wide(interaction: discord.Interaction, buttons: int) -> None:
            await interaction.response.defer(ephemeral=True)
            row = [{"type": 2, "style": 1, "label": str(i), "custom_id": f"b{i}"} for i in range(buttons)]
            try:
                await self.http.request(Route("POST", "/channels/{channel_id}/messages",
                                              channel_id=interaction.channel_id),
                                        json={"content": "row", "components": [{"type": 1, "components": row}]})
            except discord.HTTPException as exc:
                self.send_errors.append(exc)
            await interaction.followup.send("done", ephemeral=True)

        @tree.command(name="dm", description="Send somebody a direct message")
        async def dm(interaction: discord.Interaction, who: discord.User) -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            try:
                await who.send("a secret card")
                await interaction.followup.send("sent", ephemeral=True)
            except discord.Forbidden as exc:
                self.dm_errors.append(exc)
                await interaction.followup.send("dms closed", ephemeral=True)

        @tree.command(name="slow", description="Answer late")
        async def slow(interaction: discord.Interaction) -> None:
            await asyncio.sleep(self.slow_seconds)
            try:
                await interaction.response.send_message("finally")
            except discord.NotFound as exc:
                self.send_errors.append(exc)

        @tree.command(name="silent", description="Never answer")
        async def silent(interaction: discord.Interaction) -> None:
            return None

        @tree.command(name="board", description="Open a thread with a picture")
        async def board(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("a board follows")
            message = await interaction.original_response()
            thread = await message.create_thread(name="match 1")
            posted = await thread.send("turn 1", file=discord.File(io.BytesIO(tiny_png()), "board.png"))
            await posted.edit(content="turn 1 (edited)", attachments=[
                *posted.attachments, discord.File(io.BytesIO(tiny_png(5, 4)), "zoom.png")])
            await thread.edit(archived=True)

        @tree.command(name="pick", description="Pick a fruit")
        async def pick(interaction: discord.Interaction, fruit: str) -> None:
            await interaction.response.send_message(f"picked {fruit}", ephemeral=True)

        @pick.autocomplete("fruit")
        async def pick_fruit(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
            fruits = ["apple", "apricot", "banana", "cherry"]
            return [app_commands.Choice(name=f, value=f) for f in fruits if f.startswith(current)]

        @tree.command(name="menu", description="A select menu")
        async def menu(interaction: discord.Interaction) -> None:
            view = discord.ui.View(timeout=60)
            select = discord.ui.Select(custom_id="menu:pick", options=[
                discord.SelectOption(label=f"option {i}", value=f"v{i}") for i in range(3)])

            async def chosen(inner: discord.Interaction) -> None:
                await inner.response.send_message(f"you chose {select.values[0]}", ephemeral=True)

            select.callback = chosen
            view.add_item(select)
            await interaction.response.send_message("choose", view=view, ephemeral=True)

        @tree.command(name="form", description="A modal")
        async def form(interaction: discord.Interaction) -> None:
            modal = discord.ui.Modal(title="Name your army", custom_id="form:army")
            field = discord.ui.TextInput(label="Army name", custom_id="army")
            modal.add_item(field)

            async def submitted(inner: discord.Interaction) -> None:
                await inner.response.send_message(f"army {field.value}", ephemeral=True)

            modal.on_submit = submitted  # type: ignore[method-assign]
            await interaction.response.send_modal(modal)


@pytest.fixture
async def bot(fake: FakeDiscord, run_client) -> MiniBot:
    client = MiniBot(fake.guild_id)
    await run_client(client)
    await fake.wait_for(lambda: fake.global_commands, 5, "commands synced")
    return client


# ----- pure rule checks ---------------------------------------------------------------------------

def test_command_rules_reject_what_discord_rejects() -> None:
    good = {"name": "play", "description": "Start a game", "options": [
        {"type": 3, "name": "game", "description": "Which game", "required": True,
         "choices": [{"name": "Pentactic", "value": "pentactic", "name_localizations": {"zh-TW": "戰術棋"}}]}],
        "name_localizations": {"zh-TW": "開局", "zh-CN": "开局"}, "description_localizations": {"zh-CN": "开始游戏"}}
    assert check_command(good) == []
    assert check_command({**good, "name": "Play"})[0].code == "APPLICATION_COMMAND_INVALID_NAME"
    assert check_command({**good, "name": "play game"})[0].path == "name"
    assert check_command({**good, "name": "x" * 33})
    assert check_command({**good, "description": ""})[0].path == "description"
    assert check_command({**good, "description": "d" * 101})
    assert check_command({**good, "name_localizations": {"zh": "开局"}})[0].code == "LOCALE_INVALID"
    assert check_command({**good, "name_localizations": {"zh-TW": "開 局"}})
    many = [{"type": 3, "name": f"o{i}", "description": "d"} for i in range(26)]
    assert check_command({**good, "options": many})[0].path == "options"
    choices = [{"name": f"c{i}", "value": f"c{i}"} for i in range(26)]
    opt = {"type": 3, "name": "c", "description": "d", "choices": choices}
    assert check_command({**good, "options": [opt]})[0].path == "options.0.choices"
    order = [{"type": 3, "name": "a", "description": "d"}, {"type": 3, "name": "b", "description": "d",
                                                            "required": True}]
    assert check_command({**good, "options": order})[0].path == "options.1.required"
    big_loc = {loc: "字" * 100 for loc in ("zh-TW", "zh-CN", "ja", "ko", "fr", "de", "it", "ru", "uk", "pl")}
    heavy = [{"type": 3, "name": f"o{i}", "description": "d" * 100, "description_localizations": big_loc}
             for i in range(8)]
    assert any(e.code == "APPLICATION_COMMAND_TOO_LARGE" for e in check_command({**good, "options": heavy}))
    assert check_command({"type": 2, "name": "Show Hand", "description": ""}) == []
    assert check_command_list([good, good], is_global=True)[0].code == "APPLICATION_COMMAND_ALREADY_EXISTS"
    hundred = [{**good, "name": f"c{i}", "options": []} for i in range(101)]
    assert check_command_list(hundred, is_global=True)[-1].code == "APPLICATION_COMMANDS_TOO_MANY"
    assert check_command({**good, "name": "गिनती"}) == [] and check_command({**good, "name": "สวัสดี"}) == []


def test_message_rules_cover_the_documented_limits() -> None:
    def paths(payload: dict, files: list[tuple[str, bytes]] | None = None) -> list[str]:
        return [e.path for e in check_message(payload, files or [], creating=True)]

    assert paths({"content": "x" * 2000}) == []
    assert paths({"content": "x" * 2001}) == ["content"]
    assert paths({"embeds": [{"title": "t"}] * 11}) == ["embeds"]
    assert paths({"embeds": [{"title": "t" * 257}]}) == ["embeds.0.title"]
    assert paths({"embeds": [{"description": "d" * 4097}]}) == ["embeds.0.description"]
    assert paths({"embeds": [{"fields": [{"name": "n", "value": "v"}] * 26}]}) == ["embeds.0.fields"]
    assert paths({"embeds": [{"fields": [{"name": "n" * 257, "value": "v" * 1025}]}]}) == [
        "embeds.0.fields.0.name", "embeds.0.fields.0.value"]
    assert paths({"embeds": [{"footer": {"text": "f" * 2049}, "author": {"name": "a" * 257}}]}) == [
        "embeds.0.footer.text", "embeds.0.author.name"]
    assert paths({"embeds": [{"description": "d" * 4000}, {"description": "d" * 2001}]}) == ["embeds"]

    def button(cid: str, label: str = "ok") -> dict:
        return {"type": 2, "style": 1, "label": label, "custom_id": cid}

    def select(cid: str, n: int) -> dict:
        return {"type": 3, "custom_id": cid, "options": [{"label": f"l{i}", "value": f"v{i}"} for i in range(n)]}

    rows = [{"type": 1, "components": [button(f"r{r}")]} for r in range(6)]
    assert paths({"components": rows}) == ["components"]
    assert paths({"components": [{"type": 1, "components": [button(f"b{i}") for i in range(6)]}]}) == [
        "components.0.components"]
    assert paths({"components": [{"type": 1, "components": [select("s", 3), button("b")]}]}) == [
        "components.0.components"]
    assert paths({"components": [{"type": 1, "components": [select("s", 26)]}]}) == [
        "components.0.components.0.options"]
    assert paths({"components": [{"type": 1, "components": [button("x" * 101)]}]}) == [
        "components.0.components.0.custom_id"]
    assert paths({"components": [{"type": 1, "components": [button("a"), button("a")]}]}) == [
        "components.0.components.1.custom_id"]
    assert paths({"components": [{"type": 1, "components": [button("a", "l" * 81)]}]}) == [
        "components.0.components.0.label"]
    long_option = {"type": 3, "custom_id": "s", "options": [{"label": "l" * 101, "value": "v" * 101}]}
    assert paths({"components": [{"type": 1, "components": [long_option]}]}) == [
        "components.0.components.0.options.0.label", "components.0.components.0.options.0.value"]
    assert paths({}, [("a.png", b"x" * (10 * 1024 * 1024 + 1))]) == ["files.0"]
    assert paths({}, [(f"{i}.png", b"x" * (9 * 1024 * 1024)) for i in range(3)]) == ["files"]
    assert paths({}, [(f"{i}.png", b"x") for i in range(11)]) == ["files"]
    assert paths({}) == [""]


# ----- through discord.py ---------------------------------------------------------------------------

async def test_login_sync_and_slash_command_roundtrip(fake: FakeDiscord, bot: MiniBot) -> None:
    assert fake.gateway.compress_modes == ["zlib-stream"], "discord.py should ask for zlib transport"
    assert {c["name"] for c in fake.global_commands} >= {"echo", "counter", "dm", "slow"}
    alice = fake.add_user("alice", locale="zh-TW")
    ix = await fake.slash(alice, fake.general, "echo", text="hello")
    assert ix.response_type == 4 and ix.original is not None
    assert [m.content for m in fake.messages_in(fake.general)] == ["hello"]
    ix = await fake.slash(alice, fake.general, "echo", text="psst", secret=True)
    assert [m.content for m in fake.ephemerals_of(alice)] == ["psst"]
    assert "psst" not in [m.content for m in fake.messages_in(fake.general)]
    with pytest.raises(FakeUsageError):
        await fake.slash(alice, fake.general, "echo")  # required option missing
    with pytest.raises(FakeUsageError):
        await fake.slash(alice, fake.general, "nope")
    await fake.wait_for(lambda: bot.readies, 5, "on_ready")
    fake.assert_clean()


async def test_too_long_message_is_refused_and_recorded(fake: FakeDiscord, bot: MiniBot) -> None:
    alice = fake.add_user("alice")
    await fake.slash(alice, fake.general, "echo", text="x" * 2001)
    assert len(bot.send_errors) == 1 and bot.send_errors[0].status == 400
    assert bot.send_errors[0].code == 50035 and "content" in str(bot.send_errors[0])
    assert [v.kind for v in fake.violations] == ["invalid_form"]
    assert "content" in fake.violations[0].detail
    assert [m.content for m in fake.ephemerals_of(alice)] == ["too long"]


async def test_six_buttons_in_a_row_is_refused(fake: FakeDiscord, bot: MiniBot) -> None:
    alice = fake.add_user("alice")
    ix = await fake.slash(alice, fake.general, "wide", buttons=5)
    await fake.wait_for(lambda: ix.followups, 5, "followup")
    assert not fake.violations and len(fake.messages_in(fake.general)) == 1
    ix = await fake.slash(alice, fake.general, "wide", buttons=6)
    await fake.wait_for(lambda: ix.followups, 5, "followup")
    assert bot.send_errors and bot.send_errors[0].status == 400
    assert "components.0.components" in fake.violations[0].detail
    assert len(fake.messages_in(fake.general)) == 1


async def test_closed_dms_surface_as_forbidden_50007(fake: FakeDiscord, bot: MiniBot) -> None:
    alice = fake.add_user("alice")
    bob = fake.add_user("bob", dms_open=False)
    ix = await fake.slash(alice, fake.general, "dm", who=alice)
    await fake.wait_for(lambda: ix.followups, 5, "followup")
    assert [m.content for m in fake.dms_of(alice)] == ["a secret card"]
    assert ix.original is ix.followups[0] and ix.original.content == "sent"
    ix = await fake.slash(alice, fake.general, "dm", who=bob)
    await fake.wait_for(lambda: ix.followups, 5, "followup")
    assert len(bot.dm_errors) == 1 and isinstance(bot.dm_errors[0], discord.Forbidden)
    assert bot.dm_errors[0].code == 50007
    assert fake.dms_of(bob) == [] and ix.followups[0].content == "dms closed"
    fake.assert_clean()


async def test_slow_answer_is_flagged_and_token_expires(fake: FakeDiscord, bot: MiniBot) -> None:
    fake.response_deadline = 0.3
    bot.slow_seconds = 0.5
    alice = fake.add_user("alice")
    ix = await fake.slash(alice, fake.general, "slow", wait=False)
    await fake.wait_for(lambda: bot.send_errors, 5, "the late answer")
    assert ix.response_type is None
    assert [v.kind for v in fake.violations] == ["late_response"]
    assert isinstance(bot.send_errors[0], discord.NotFound) and bot.send_errors[0].code == 10062
    bot.slow_seconds = 0.0
    fake.violations.clear()
    await fake.slash(alice, fake.general, "slow")
    fake.assert_clean()
    assert max(fake.response_times) < 0.3
    ignored = await fake.slash(alice, fake.general, "silent", wait=False)
    await asyncio.sleep(0.4)
    with pytest.raises(AssertionError, match="no_response"):
        fake.assert_clean()
    assert ignored.response_type is None and fake.unanswered() == []


async def test_dynamic_button_clicks_and_stale_state(fake: FakeDiscord, bot: MiniBot) -> None:
    alice = fake.add_user("alice")
    await fake.slash(alice, fake.general, "counter")
    msg = fake.messages_in(fake.general)[0]
    ix = await fake.click(alice, msg, "count:0")
    assert ix.response_type == 7 and msg.content == "count 1" and msg.custom_ids() == ["count:1"]
    with pytest.raises(FakeUsageError):
        await fake.click(alice, msg, "count:0")  # that button is gone from the message now
    await fake.click(alice, msg, "count:1")
    assert msg.content == "count 2" and msg.edits == 2
    fake.assert_clean()


async def test_an_update_answer_edits_the_clicked_message_as_stored(fake: FakeDiscord, bot: MiniBot) -> None:
    """A forged click shows the bot a copy of the message carrying the forged button; Discord's
    update answer (type 7, or 6 and then ``@original``) still edits the real message."""
    alice = fake.add_user("alice")
    await fake.slash(alice, fake.general, "counter")
    msg = fake.messages_in(fake.general)[0]
    ix = await fake.forge(alice, msg, "count:5")
    assert ix.response_type == 7 and ix.original is msg
    assert msg.content == "count 6" and msg.custom_ids() == ["count:6"]
    fake.assert_clean()


async def test_ephemeral_messages_are_edited_only_through_a_live_interaction_token(
        fake: FakeDiscord, bot: MiniBot) -> None:
    """Discord: an ephemeral message cannot be reached through the channel routes, only through
    the webhook of an interaction, and an interaction's token works for 15 minutes."""
    import aiohttp

    alice = fake.add_user("alice")
    ix = await fake.slash(alice, fake.general, "echo", text="hello", secret=True)
    secret = ix.original
    assert secret is not None and secret.ephemeral
    auth = {"Authorization": f"Bot {fake.token}"}
    hook = f"{fake.api_base}/webhooks/{fake.application_id}/{ix.token}"
    async with aiohttp.ClientSession() as http:
        async with http.patch(f"{fake.api_base}/channels/{fake.general.id}/messages/{secret.id}",
                              json={"content": "by channel"}, headers=auth) as resp:
            assert resp.status == 404 and (await resp.json())["code"] == 10008
        async with http.patch(f"{hook}/messages/@original", json={"content": "by webhook"}) as resp:
            assert resp.status == 200
        assert secret.content == "by webhook"
        fake.token_lifetime = 0.05
        await asyncio.sleep(0.1)
        async with http.patch(f"{hook}/messages/@original", json={"content": "too late"}) as resp:
            assert resp.status == 401 and (await resp.json())["code"] == 50027
        async with http.post(hook, json={"content": "too late", "flags": 64}) as resp:
            assert resp.status == 401 and (await resp.json())["code"] == 50027
    assert secret.content == "by webhook" and ix.followups == []


async def test_thread_files_and_archive(fake: FakeDiscord, bot: MiniBot) -> None:
    alice = fake.add_user("alice")
    await fake.slash(alice, fake.general, "board")
    thread = await fake.wait_for(lambda: [t for t in fake.threads() if t.archived], 5, "archived thread")
    thread = thread[0]
    starter = fake.messages_in(fake.general)[0]
    assert thread.id == starter.id and thread.parent_id == fake.general.id and thread.type == 11
    (posted,) = fake.messages_in(thread)
    assert posted.content == "turn 1 (edited)"
    assert [a.filename for a in posted.attachments] == ["board.png", "zoom.png"]
    assert posted.attachments[0].data == tiny_png() and posted.attachments[1].data == tiny_png(5, 4)
    assert posted.attachments[0].to_json()["width"] == 3
    fake.assert_clean()


async def test_autocomplete_select_and_modal(fake: FakeDiscord, bot: MiniBot) -> None:
    alice = fake.add_user("alice")
    choices = await fake.autocomplete(alice, fake.general, "pick", "fruit", fruit="ap")
    assert [c["value"] for c in choices] == ["apple", "apricot"]
    await fake.slash(alice, fake.general, "menu")
    (menu,) = fake.ephemerals_of(alice)
    ix = await fake.select(alice, menu, "menu:pick", ["v2"])
    assert ix.original is not None and ix.original.content == "you chose v2"
    with pytest.raises(FakeUsageError):
        await fake.select(alice, menu, "menu:pick", ["v9"])
    bob = fake.add_user("bob")
    with pytest.raises(FakeUsageError):
        await fake.select(bob, menu, "menu:pick", ["v1"])  # not his ephemeral message
    opened = await fake.slash(alice, fake.general, "form")
    assert opened.response_type == 9 and opened.modal is not None
    ix = await fake.submit_modal(alice, opened, {"army": "Red Legion"})
    assert ix.original is not None and ix.original.content == "army Red Legion"
    fake.assert_clean()


async def test_bad_command_sync_is_refused(fake: FakeDiscord, bot: MiniBot) -> None:
    before = list(fake.global_commands)
    bad = [{"name": "Bad Name", "description": "x", "type": 1}]
    with pytest.raises(discord.HTTPException) as info:
        await bot.http.bulk_upsert_global_commands(fake.application_id, bad)
    assert info.value.status == 400 and info.value.code == 50035
    assert "0.name" in str(info.value)
    assert "APPLICATION_COMMAND_INVALID_NAME" in fake.violations[0].detail
    assert fake.global_commands == before, "a refused sync keeps the old commands"
    bad_locale = [{"name": "ok", "description": "x", "name_localizations": {"zh": "好"}}]
    with pytest.raises(discord.HTTPException):
        await bot.http.bulk_upsert_guild_commands(fake.application_id, fake.guild_id, bad_locale)
    assert [v.kind for v in fake.violations] == ["invalid_form", "invalid_form"]


async def test_resume_after_reconnect_and_a_new_client(fake: FakeDiscord, bot: MiniBot, run_client) -> None:
    alice = fake.add_user("alice")
    await fake.gateway.force_reconnect()
    await fake.wait_for(lambda: fake.gateway.resume_count == 1 and fake.gateway.connected(), 10, "resume")
    await fake.slash(alice, fake.general, "counter")
    msg = fake.messages_in(fake.general)[0]
    await bot.close()
    assert not fake.gateway.connected()
    second = MiniBot(fake.guild_id)
    await run_client(second)
    assert fake.gateway.identify_count == 2
    ix = await fake.click(alice, msg, "count:0")  # a button from before the restart still works
    assert ix.response_type == 7 and msg.content == "count 1"
    fake.assert_clean()


async def test_wrong_token_is_refused(fake: FakeDiscord) -> None:
    client = discord.Client(intents=discord.Intents.none())
    with pytest.raises(discord.LoginFailure):
        await client.login("not-the-token")
    await client.close()


async def test_mentions_embed_files_and_dm_only_rules(fake: FakeDiscord, bot: MiniBot) -> None:
    alice = fake.add_user("alice")
    bob = fake.add_user("bob")
    channel_route = Route("POST", "/channels/{channel_id}/messages", channel_id=fake.general.id)
    text = f"<@{alice.id}> and <@{bob.id}>"
    await bot.http.request(channel_route, json={"content": text, "allowed_mentions": {"users": [str(bob.id)]}})
    await bot.http.request(channel_route, json={"content": text})
    quiet, loud = fake.messages_in(fake.general)
    assert quiet.pinged == [bob] and loud.pinged == [alice, bob]
    with pytest.raises(discord.HTTPException):
        await bot.http.request(channel_route, json={"content": text, "allowed_mentions": {
            "parse": ["users"], "users": [str(bob.id)]}})
    fake.violations.clear()
    embed = {"title": "board", "image": {"url": "attachment://missing.png"}}
    await bot.http.request(channel_route, json={"embeds": [embed]})
    assert [v.kind for v in fake.violations] == ["embed_attachment_missing"]
    fake.violations.clear()
    channel = await bot.fetch_channel(fake.general.id)
    await channel.send(embed=discord.Embed(title="board").set_image(url="attachment://board.png"),
                       file=discord.File(io.BytesIO(tiny_png()), "board.png"))
    history = [m async for m in channel.history(limit=10)]
    assert len(history) == 4 and history[0].attachments[0].filename == "board.png"
    assert fake.burst(fake.general) == 4 and fake.burst(fake.general, window=-1) == 1
    assert await history[0].attachments[0].read() == tiny_png()
    dm = fake.dm_channel_for(alice)
    ix = await fake.slash(alice, dm, "echo", text="in a DM")
    assert ix.original is not None and fake.dms_of(alice) == [ix.original]
    fake.assert_clean()


# ----- raw protocol (no discord.py), so framing bugs in the fake cannot hide behind the client -----

class RawGateway:
    """A bare zlib-stream gateway client."""

    def __init__(self, ws) -> None:
        self.ws = ws
        self.inflate = zlib.decompressobj()

    async def recv(self) -> dict:
        import json

        msg = await asyncio.wait_for(self.ws.receive(), 5)
        assert msg.data[-4:] == b"\x00\x00\xff\xff", "each payload ends with a Z_SYNC_FLUSH marker"
        return json.loads(self.inflate.decompress(msg.data))


async def test_raw_gateway_zlib_identify_resume_and_bad_token(fake: FakeDiscord) -> None:
    import aiohttp

    url = fake.gateway_url + "?v=10&encoding=json&compress=zlib-stream"
    async with aiohttp.ClientSession() as http:
        async with http.ws_connect(url) as ws:
            gw = RawGateway(ws)
            assert (await gw.recv())["op"] == 10
            await ws.send_json({"op": 2, "d": {"token": "wrong", "intents": 1, "properties": {}}})
            closed = await asyncio.wait_for(ws.receive(), 5)
            assert closed.type == aiohttp.WSMsgType.CLOSE and closed.data == 4004
        async with http.ws_connect(url) as ws:
            gw = RawGateway(ws)
            await gw.recv()
            await ws.send_json({"op": 1, "d": None})
            assert (await gw.recv())["op"] == 11
            await ws.send_json({"op": 2, "d": {"token": fake.token, "intents": 1, "properties": {}}})
            ready, guild = await gw.recv(), await gw.recv()
            assert ready["t"] == "READY" and ready["d"]["resume_gateway_url"] == fake.gateway_url
            assert guild["t"] == "GUILD_CREATE" and guild["s"] == 2
            assert [c["name"] for c in guild["d"]["channels"]] == ["general"]
            session = ready["d"]["session_id"]
        # Events while disconnected are replayed on RESUME after the sequence the client saw.
        await fake.gateway.dispatch("THREAD_UPDATE", {"id": "1"})
        async with http.ws_connect(url) as ws:
            gw = RawGateway(ws)
            await gw.recv()
            await ws.send_json({"op": 6, "d": {"token": fake.token, "session_id": session, "seq": 2}})
            missed, resumed = await gw.recv(), await gw.recv()
            assert (missed["t"], missed["s"]) == ("THREAD_UPDATE", 3) and resumed["t"] == "RESUMED"
        async with http.ws_connect(url) as ws:
            gw = RawGateway(ws)
            await gw.recv()
            await ws.send_json({"op": 6, "d": {"token": fake.token, "session_id": "nope", "seq": 0}})
            assert await gw.recv() == {"op": 9, "d": False}


async def test_raw_rest_auth_uploads_and_unknown_routes(fake: FakeDiscord) -> None:
    import json

    import aiohttp

    auth = {"Authorization": f"Bot {fake.token}"}
    base = fake.api_base
    async with aiohttp.ClientSession() as http:
        async with http.get(f"{base}/users/@me") as resp:
            assert resp.status == 401
        form = aiohttp.FormData(quote_fields=False)
        form.add_field("payload_json", json.dumps({"content": "pic",
                                                   "attachments": [{"id": 0, "filename": "a.png"}]}))
        form.add_field("files[0]", tiny_png(), filename="a.png", content_type="application/octet-stream")
        async with http.post(f"{base}/channels/{fake.general.id}/messages", data=form, headers=auth) as resp:
            assert resp.status == 200 and resp.headers["Content-Type"] == "application/json"
            sent = await resp.json()
        assert sent["attachments"][0]["content_type"] == "image/png"
        assert fake.messages_in(fake.general)[0].attachments[0].data == tiny_png()
        # An edit that uploads a file without listing it in attachments would lose it on Discord.
        form = aiohttp.FormData(quote_fields=False)
        form.add_field("payload_json", json.dumps({"attachments": [{"id": sent["attachments"][0]["id"]}]}))
        form.add_field("files[0]", tiny_png(), filename="b.png")
        url = f"{base}/channels/{fake.general.id}/messages/{sent['id']}"
        async with http.patch(url, data=form, headers=auth) as resp:
            assert resp.status == 400 and (await resp.json())["code"] == 50035
        async with http.patch(url, json={"content": "", "attachments": []}, headers=auth) as resp:
            assert resp.status == 400, "an edit may not leave the message empty"
        async with http.patch(url, data=b"{not json", headers={**auth, "Content-Type": "application/json"}) as resp:
            assert resp.status == 400 and (await resp.json())["code"] == 50109
        async with http.get(f"{base}/channels/{fake.general.id}/pins", headers=auth) as resp:
            assert resp.status == 404
        async with http.get(f"{base}/channels/1/messages", headers=auth) as resp:
            assert resp.status == 404 and (await resp.json())["code"] == 10003
    assert [v.kind for v in fake.violations] == ["invalid_form", "invalid_form", "bad_request", "unknown_route"]
    assert "ATTACHMENT_NOT_REFERENCED" in fake.violations[0].detail


def test_upload_names_and_emoji_like_discord() -> None:
    from fakediscord.messages import discord_filename

    assert discord_filename("board.png") == "board.png"
    assert discord_filename("my board.png") == "my_board.png"
    assert discord_filename("棋盘.png") == "unknown.png"
    button = {"type": 2, "style": 1, "custom_id": "a"}
    row = {"type": 1, "components": [{**button, "emoji": {"name": "ok"}}]}
    assert [e.code for e in check_message({"components": [row]}, [], creating=True)] == [
        "BUTTON_COMPONENT_INVALID_EMOJI"]
    row = {"type": 1, "components": [{**button, "emoji": {"name": "🎲"}}, {**button, "custom_id": "b",
                                                                          "emoji": {"name": "1\ufe0f\u20e3"}}]}
    assert check_message({"components": [row]}, [], creating=True) == []


async def test_non_ascii_upload_name_breaks_embed_image(fake: FakeDiscord, bot: MiniBot) -> None:
    channel = await bot.fetch_channel(fake.general.id)
    await channel.send(embed=discord.Embed(title="棋盘").set_image(url="attachment://棋盘.png"),
                       file=discord.File(io.BytesIO(tiny_png()), "棋盘.png"))
    assert [v.kind for v in fake.violations] == ["embed_attachment_missing"]
    assert fake.messages_in(fake.general)[0].attachments[0].filename == "unknown.png"


async def test_optional_channel_rate_limit_slows_but_does_not_break(fake: FakeDiscord, bot: MiniBot) -> None:
    fake.rate_limit = (2, 0.5)
    channel = await bot.fetch_channel(fake.general.id)
    loop = asyncio.get_running_loop()
    started = loop.time()
    for i in range(3):
        await channel.send(f"post {i}")
    assert loop.time() - started >= 0.3, "discord.py waited out the 429"
    assert len(fake.rate_limited) >= 1 and [m.content for m in fake.messages_in(fake.general)] == [
        "post 0", "post 1", "post 2"]
    with pytest.raises(AssertionError, match="answered 429"):
        fake.assert_clean()  # a 429 counts as a violation of its own
    fake.rate_limited.clear()
    fake.assert_clean()


async def test_channel_rate_limit_counts_edits_like_posts(fake: FakeDiscord, bot: MiniBot) -> None:
    """Discord's channel bucket: POST and PATCH of messages share it; the 429 carries the body
    and headers discord.py honours, so it waits and the edits all land."""
    fake.rate_limit = (3, 0.6)
    channel = await bot.fetch_channel(fake.general.id)
    message = await channel.send("v0")
    for i in range(1, 4):
        await message.edit(content=f"v{i}")
    assert fake.rate_limited and all(r.startswith("PATCH ") for r in fake.rate_limited)
    assert fake.messages_in(fake.general)[0].content == "v3"
    assert [m for _, _, m in fake.message_calls] == ["POST", "PATCH", "PATCH", "PATCH"]
    assert fake.calls_in(fake.general) == 4
    with pytest.raises(AssertionError, match="answered 429"):
        fake.assert_not_rate_limited()
    fake.rate_limited.clear()  # provoked on purpose
    fake.assert_clean()



async def test_global_rate_limit_holds_the_bot_back(fake: FakeDiscord, bot: MiniBot) -> None:
    """Discord's global limit (``global_limit`` requests per second per bot; the interaction
    routes, exempt, are not counted): the 429 says ``global``, discord.py holds the process's
    requests and they all land."""
    fake.global_limit = 5
    loop = asyncio.get_running_loop()
    started = loop.time()
    for _ in range(7):
        await bot.fetch_channel(fake.general.id)
    assert loop.time() - started >= 0.3, "discord.py waited out the global 429"
    assert fake.rate_limited and all(r.startswith("GET ") for r in fake.rate_limited)
    assert len(fake.global_calls) >= 7 and fake.global_peak() <= 5
    fake.rate_limited.clear()  # provoked on purpose
