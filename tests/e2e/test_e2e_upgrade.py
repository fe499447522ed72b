"""A bot upgraded mid-game: the real bot started on a database an older bot left (an upgrade
fixture at its old schema) migrates it, upgrades the running match at start-up and serves it."""

from __future__ import annotations

import copy
import sys
from pathlib import Path

from e2e_support import RealBots

from engines import registry
from fakediscord import FakeDiscord
from store import migrate, repo
from store.db import Store

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "upgrade"))
import upgrade_kit  # noqa: E402 - the fixtures' own kit lives beside them


async def test_the_bot_upgrades_a_stored_match_at_start_and_serves_it(fake: FakeDiscord,
                                                                       real_bots: RealBots) -> None:
    path = next(p for p in upgrade_kit.FILES if p.parent.name == "pentactic" and upgrade_kit.point_of(p) == "mid")
    fixture = copy.deepcopy(upgrade_kit.load_fixture(path))
    tables = fixture["tables"]
    (match,) = tables["matches"]
    assert "edition" not in match  # saved before editions were recorded
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    users = {s["user_id"]: u.id for s, u in zip([s for s in tables["seats"] if s["user_id"]], (alice, bob),
                                               strict=False)}
    for row in tables["seats"]:
        row["user_id"] = users.get(row["user_id"], row["user_id"])
    match["host_id"] = users.get(match["host_id"], match["host_id"])
    match["channel_id"] = fake.general.id
    for row in tables["outbox"]:  # delivered long ago by the older bot
        row["delivered_at"] = row["created_at"]
    await upgrade_kit.restore(fixture, real_bots.db_path)

    await real_bots.start()
    service = real_bots.service
    rec = await repo.get_match(service.store, match["id"])
    assert rec is not None and rec.edition == registry.get("pentactic").edition  # set by the start-up pass
    view = await service.view(match["id"], None)
    assert view, "the upgraded match is served"
    await real_bots.stop()
    reopened = await Store.open(real_bots.db_path, target_version=fixture["schema_version"])
    try:  # opening at the old version changes nothing: the bot had migrated the file to the newest
        row = await reopened.fetchone("SELECT MAX(version) AS v FROM schema_version")
        assert row is not None and row["v"] == len(migrate.migrations()) > fixture["schema_version"]
    finally:
        await reopened.close()
