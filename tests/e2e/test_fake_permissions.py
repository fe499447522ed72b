"""The fake's permission computation follows Discord's order: @everyone, grants, then the
channel's @everyone, role and member overwrites; a thread is judged by its parent."""

from __future__ import annotations

from fakediscord import FakeDiscord
from fakediscord.model import ALL_PERMISSIONS, MANAGE_GUILD, MANAGE_THREADS, VIEW_CHANNEL, FakeChannel


async def test_overwrites_apply_in_discords_order(fake: FakeDiscord) -> None:
    secret = fake.add_channel("secret")
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    assert fake.permissions_in(secret, alice) & VIEW_CHANNEL
    await fake.set_overwrite(secret, None, deny=VIEW_CHANNEL)
    await fake.set_overwrite(secret, alice, allow=VIEW_CHANNEL | MANAGE_THREADS)
    assert fake.permissions_in(secret, alice) & (VIEW_CHANNEL | MANAGE_THREADS) == VIEW_CHANNEL | MANAGE_THREADS
    assert not fake.permissions_in(secret, bob) & VIEW_CHANNEL
    assert not fake.permissions_in(fake.general, alice) & MANAGE_THREADS, "overwrites are per channel"
    fake.grant(bob, MANAGE_GUILD)
    assert fake.permissions_in(fake.general, bob) & MANAGE_GUILD
    assert not fake.permissions_in(secret, bob) & VIEW_CHANNEL, "a grant does not beat a channel's deny"
    thread = FakeChannel(1, 11, name="t", guild_id=fake.guild_id, parent_id=secret.id)
    fake.channels[thread.id] = thread
    assert fake.permissions_in(thread, bob) == fake.permissions_in(secret, bob)
    assert fake.permissions_in(secret, fake.owner) == ALL_PERMISSIONS
    json = secret.to_json()["permission_overwrites"]
    assert {"id": str(alice.id), "type": 1, "allow": str(VIEW_CHANNEL | MANAGE_THREADS), "deny": "0"} in json
