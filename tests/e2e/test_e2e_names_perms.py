"""Hostile display names and who may look at a match, through the real bot and the fake Discord.

Names are user input: ``<@id>`` must not ping, ``[x](url)`` must not link, ``# big`` must not
become a heading, ``||x||`` not a spoiler, ``@everyone`` nobody. And a match id is a small number
anyone can type: ``/match status|log|spectate|abandon`` are judged by the *match's* channel.
"""

from __future__ import annotations

import pytest
from e2e_support import RealBots, Table, real_bot_missing

from cogs.utils.text import safe_name
from fakediscord import FakeDiscord, FakeInteraction, FakeMessage
from fakediscord.limits import FLAG_LOADING
from fakediscord.model import MANAGE_THREADS, VIEW_CHANNEL
from i18n import t

pytestmark = pytest.mark.skipif(bool(real_bot_missing("pentactic")), reason=str(real_bot_missing("pentactic")))


async def answered(fake: FakeDiscord, ix: FakeInteraction) -> FakeMessage:
    await fake.wait_for(lambda: ix.replies() and not ix.replies()[-1].flags & FLAG_LOADING, 10, "the answer")
    return ix.replies()[-1]


async def test_hostile_names_are_escaped_and_ping_nobody(fake: FakeDiscord, real_bots: RealBots,
                                                         table: Table) -> None:
    await real_bots.start()
    victim = fake.add_user("victim")  # not playing: a name that mentions them must not ping them
    host = fake.add_user(f"<@{victim.id}>")
    guests = tuple(fake.add_user(n) for n in ("[x](https://e.com)", "# big", "||spoiler||", "@everyone"))
    players = (host, *guests)
    info = await table.start_match(real_bots, host, "pentactic", guests=guests,
                                   options={"mode": "3", "board": "11x6"})
    thread = fake.channel(info.thread_id)
    assert [s.name for s in info.seats] == [u.name for u in players], "stored as typed (images show them so)"

    # A resignation puts the name into a service note ("… resigned"): escaped there too.
    everyone = guests[-1]
    await answered(fake, await fake.slash(everyone, thread, "match resign"))
    resigned = t("en", "core.note.resigned", name=safe_name(everyone.name))
    await fake.wait_for(lambda: any(resigned in m.text() for m in fake.messages_in(thread)), 10, "the note")

    posts = [m for m in (*fake.messages_in(fake.general), *fake.messages_in(thread)) if m.author == fake.bot_user]
    started = t("en", "discord.publish.started", game="", players="").split("**")[-1].split("{")[0]
    assert any(started.strip() and started.strip() in m.text() for m in posts)
    for user in players:
        escaped = safe_name(user.name)
        assert escaped != user.name
        assert any(escaped in m.text() for m in fake.messages_in(thread)), f"{user.name!r} in the thread"
    for m in posts:
        text = m.text()
        assert f"<@{victim.id}>" not in text.replace(f"\\<\\@{victim.id}>", "")
        assert "[x](https://e.com)" not in text and "||spoiler||" not in text
        assert not any(line.startswith("# big") for line in text.splitlines())
        assert victim not in m.pinged and victim not in m.mentions
        assert {u.id for u in m.pinged} <= {u.id for u in players}
        assert m.allowed_mentions[0] is not None, f"a post without allowed_mentions: {text[:80]!r}"
        for rules in filter(None, m.allowed_mentions):  # (an edit without content may leave them out)
            assert not rules.get("parse"), "nothing is pinged by kind (@everyone, roles, any user)"
            assert {int(u) for u in rules.get("users") or ()} <= {u.id for u in players}
    pinged = [m for m in posts if m.pinged]
    assert pinged, "the players to move are still pinged"
    for m in pinged:
        assert all(f"<@{u.id}>" in m.content for u in m.pinged)
    fake.assert_clean()


async def test_match_commands_are_scoped_to_who_can_see_the_match_channel(fake: FakeDiscord, real_bots: RealBots,
                                                                          table: Table) -> None:
    secret = fake.add_channel("secret")
    await real_bots.start()
    alice = fake.add_user("alice")
    bob = fake.add_user("bob")
    mallory = fake.add_user("mallory")  # moderator of #general only, cannot see #secret
    dave = fake.add_user("dave")  # may read #secret, no moderator rights
    erin = fake.add_user("erin")  # moderator of #secret
    await fake.set_overwrite(secret, None, deny=VIEW_CHANNEL)
    for user in (fake.bot_user, alice, bob, dave):
        await fake.set_overwrite(secret, user, allow=VIEW_CHANNEL)
    await fake.set_overwrite(secret, erin, allow=VIEW_CHANNEL | MANAGE_THREADS)
    await fake.set_overwrite(fake.general, mallory, allow=MANAGE_THREADS)

    lobby = (await fake.slash(alice, secret, "play", game="pentactic")).original
    assert lobby is not None and not lobby.ephemeral
    match_id = next(int(c.split(":")[2]) for c in lobby.custom_ids() if c.startswith("g:l:"))
    await fake.click(bob, lobby, f"g:l:{match_id}:join")
    await fake.click(alice, lobby, f"g:l:{match_id}:start")

    async def active():
        info = await real_bots.service.get(match_id)
        return info if info.status == "active" and info.thread_id else None

    info = await table.until(active, 10, "the match to start")
    thread = fake.channel(info.thread_id)
    unknown = t("en", "core.err.no_match", match=match_id)

    for command in ("match status", "match log", "match spectate", "match abandon"):
        reply = await answered(fake, await fake.slash(mallory, fake.general, command, match=match_id))
        assert reply.ephemeral and reply.content == unknown and not reply.embeds and not reply.attachments, command
    assert mallory.id not in thread.members, "spectate must not add her to the thread"
    choices = await fake.autocomplete(mallory, fake.general, "match status", "match", match="")
    assert all(int(c["value"]) != match_id for c in choices)
    assert (await real_bots.service.get(match_id)).status == "active"

    # Dave can read #secret: he may look, not end the match.
    seen = await answered(fake, await fake.slash(dave, fake.general, "match status", match=match_id))
    assert seen.embeds and any(a.content_type == "image/png" for a in seen.attachments)
    refused = await answered(fake, await fake.slash(dave, fake.general, "match abandon", match=match_id))
    assert refused.content != t("en", "discord.match.abandoned", match=match_id)
    assert (await real_bots.service.get(match_id)).status == "active"
    mine = await fake.autocomplete(dave, secret, "match status", "match", match="")
    assert any(int(c["value"]) == match_id for c in mine), "a match of a channel he sees is offered"

    # Erin moderates #secret: she may end it, typing in #general.
    done = await answered(fake, await fake.slash(erin, fake.general, "match abandon", match=match_id))
    assert done.content == t("en", "discord.match.abandoned", match=match_id)
    assert (await real_bots.service.get(match_id)).status == "abandoned"
    fake.assert_clean()
