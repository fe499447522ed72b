"""Risk's own Discord UX through the real bot and the fake Discord: a territory chosen by continent
buttons (the single "Claim" verb taken automatically), and a whole turn played with /risk
commands whose autocomplete offers only legal, localized choices."""

from __future__ import annotations

import re
from typing import Any

import pytest
from e2e_support import RealBots, Table, real_bot_missing

from cogs.utils import ids
from cogs.utils.layout import COMMIT_TEMPLATE, GROUP_TEMPLATE
from engines import registry
from fakediscord import FakeChannel, FakeDiscord, FakeInteraction, FakeUser
from fakediscord.limits import FLAG_LOADING
from i18n import normalize_locale, t, tm

pytestmark = pytest.mark.skipif(bool(real_bot_missing("risk")), reason=str(real_bot_missing("risk")))


async def _active(service: Any, match_id: int) -> Any:
    info = await service.get(match_id)
    return info if info.status == "active" else None


async def _start(fake: FakeDiscord, real_bots: RealBots, table: Table, setup: str,
                 locales: tuple[str, str]) -> tuple[int, FakeChannel, FakeUser, FakeUser]:
    await real_bots.start()
    alice = fake.add_user("alice", locale=locales[0])
    bob = fake.add_user("bob", locale=locales[1])
    match_id, lobby = await table.open_lobby(alice, "risk")
    await table.lobby_option(alice, lobby, match_id, "setup", setup)
    await table.lobby_click(bob, lobby, match_id, "join")
    await table.lobby_click(alice, lobby, match_id, "start")
    info = await table.until(lambda: _active(real_bots.service, match_id), 10, "the match to start")
    return match_id, fake.channel(info.thread_id), alice, bob


def _settled(ix: FakeInteraction) -> bool:
    return bool(ix.followups) or (ix.original is not None and not ix.original.flags & FLAG_LOADING)


def _group_buttons(msg: Any) -> list[dict[str, Any]]:
    return [b for b in msg.buttons() if b["custom_id"].startswith("g:h:")]


async def test_territory_chosen_by_continent_buttons(fake: FakeDiscord, real_bots: RealBots, table: Table) -> None:
    match_id, thread, first, second = await _start(fake, real_bots, table, "classic", ("zh-TW", "zh-TW"))
    service = real_bots.service
    alice = first if await service.pending_for_user(match_id, first.id) else second  # whoever claims first
    (req,) = await service.pending_for_user(match_id, alice.id)
    turn_id = ids.turn_id(match_id, req)
    post = await fake.wait_for(lambda: next((m for m in fake.messages_in(thread) if turn_id in m.custom_ids()),
                                            None), 10, "the status post")
    step = await table.open_turn(alice, post, turn_id)
    loc = normalize_locale(alice.locale)
    # "Claim" is the only verb: taken for her; the 42 free territories come as 6 continent buttons.
    assert t(loc, "risk.verb.claim") in step.text()
    groups = _group_buttons(step)
    assert len(groups) == 6 and not step.selects()
    assert not [b for b in step.buttons() if b.get("label") == t(loc, "discord.button.back")], \
        "nothing to go back to: the only earlier step was forced"
    asia_label = t(loc, "discord.step.group", group=t(loc, "risk.continent.asia"), n=12)
    asia = next(b for b in groups if b["label"] == asia_label)
    assert re.fullmatch(GROUP_TEMPLATE, asia["custom_id"])

    edits = step.edits
    await fake.click(alice, step, asia["custom_id"])
    await fake.wait_for(lambda: step.edits > edits, 10, "the Asian territories")
    options = [b for b in step.buttons() if b["custom_id"].startswith("g:p:")
               and b.get("label") != t(loc, "discord.button.back")]
    assert len(options) == 12, "a claim is one click: every territory button plays at once"
    siam = next(b for b in options if t(loc, "risk.territory.siam") in b["label"])

    # Back from a group returns to the continents of the same step.
    back = next(b for b in step.buttons() if b.get("label") == t(loc, "discord.button.back"))
    edits = step.edits
    await fake.click(alice, step, back["custom_id"])
    await fake.wait_for(lambda: step.edits > edits, 10, "the continents again")
    assert len(_group_buttons(step)) == 6

    edits = step.edits
    await fake.click(alice, step, asia["custom_id"])
    await fake.wait_for(lambda: step.edits > edits, 10, "Asia again")
    assert ids.decode_path(re.fullmatch(COMMIT_TEMPLATE, siam["custom_id"])["path"]) == ["claim", "siam"]
    edits = step.edits
    await fake.click(alice, step, siam["custom_id"])
    await fake.wait_for(lambda: step.edits > edits, 10, "played")
    assert step.text().startswith(t(loc, "discord.play.done", action="").strip())
    assert step.custom_ids() == [], "bob claims next: nothing more for alice in this reply"
    view = await service.view(match_id, None)
    seat = (await service.get(match_id)).seat_of(alice.id)
    assert view["territories"]["siam"]["owner"] == (seat if isinstance(seat, int) else seat.seat)
    fake.assert_clean()


async def _give_cards(real_bots: RealBots, match_id: int, seat: int, cards: list[str]) -> None:
    """Put ``cards`` in a seat's hand (out of the deck), as if drawn: no Discord way to get there fast."""
    from store import repo

    store = real_bots.service.store
    rec = await repo.get_match(store, match_id)
    state = rec.state
    state["deck"] = [c for c in state["deck"] if c not in cards]
    for player in state["players"]:
        player["cards"] = [c for c in player["cards"] if c not in cards]
    state["players"][seat]["cards"] = list(cards)
    async with store.transaction() as tx:
        await repo.update_match(tx, match_id, state=state)


async def _slash(fake: FakeDiscord, user: FakeUser, thread: FakeChannel, command: str,
                 **options: Any) -> FakeInteraction:
    ix = await fake.slash(user, thread, command, **options)
    await fake.wait_for(lambda: _settled(ix), 10, f"/{command}")
    assert not ix.followups or all(m.ephemeral for m in ix.followups)
    return ix


async def _autocomplete(fake: FakeDiscord, user: FakeUser, thread: FakeChannel, command: str, focused: str,
                        **options: Any) -> list[dict[str, Any]]:
    return await fake.autocomplete(user, thread, command, focused, **options)


async def _legal(service: Any, match_id: int, user: FakeUser, path: list[str]) -> list[str]:
    (req,) = await service.pending_for_user(match_id, user.id)
    return [o.value for o in (await service.step(match_id, user.id, req, path)).options]


async def _place_all(fake: FakeDiscord, service: Any, match_id: int, thread: FakeChannel, user: FakeUser) -> None:
    """/risk place with the largest suggested count on a suggested territory at the front (so an
    attack is possible afterwards whatever the deal)."""
    from engines.risk.data import content

    places = await _autocomplete(fake, user, thread, "risk place", "territory")
    assert [c["value"] for c in places] == (await _legal(service, match_id, user, ["place"]))[:25]
    owners = {k: v["owner"] for k, v in (await service.view(match_id, None))["territories"].items()}
    seat = (await service.get(match_id)).seat_of(user.id)
    front = [c["value"] for c in places if any(owners[n] != seat for n in content().adjacent[c["value"]])]
    territory = (front or [places[0]["value"]])[0]
    counts = await _autocomplete(fake, user, thread, "risk place", "count", territory=territory)
    assert counts and all(isinstance(c["value"], int) for c in counts)
    ix = await _slash(fake, user, thread, "risk place", territory=territory, count=max(c["value"] for c in counts))
    assert ix.original.ephemeral and not ix.followups, [m.text() for m in ix.replies()]


async def test_a_turn_by_risk_commands(fake: FakeDiscord, real_bots: RealBots, table: Table) -> None:
    match_id, thread, alice, bob = await _start(fake, real_bots, table, "quick", ("en-US", "zh-CN"))
    service = real_bots.service
    players = (alice, bob)

    # A typed count the suggestions don't list is offered when the engine accepts it, not otherwise.
    territory = (await _autocomplete(fake, alice, thread, "risk place", "territory"))[0]["value"]
    suggested = await _autocomplete(fake, alice, thread, "risk place", "count", territory=territory)
    assert 2 not in [c["value"] for c in suggested]
    typed = await _autocomplete(fake, alice, thread, "risk place", "count", territory=territory, count="2")
    assert typed[0]["value"] == 2
    too_many = await _autocomplete(fake, alice, thread, "risk place", "count", territory=territory, count="999")
    assert 999 not in [c["value"] for c in too_many]

    # Quick set-up: both deploy at once, each with one /risk place of everything left.
    for _ in range(6):
        deploying = [u for u in players if (await service.requests_for_user(match_id, u.id))
                     and (await service.requests_for_user(match_id, u.id))[0].kind == "deploy"]
        if not deploying:
            break
        for user in deploying:
            await _place_all(fake, service, match_id, thread, user)
    mover = [u for u in players if await service.pending_for_user(match_id, u.id)][0]
    other = bob if mover is alice else alice
    loc = normalize_locale(mover.locale)

    # Not your turn: the other player gets an ephemeral refusal and no suggestions.
    assert await _autocomplete(fake, other, thread, "risk attack", "from") == []
    # /risk trade: the valid sets in a private select; the chosen set continues as the step message.
    await _give_cards(real_bots, match_id, (await service.get(match_id)).seat_of(mover.id),
                      ["alaska", "northwest_territory", "greenland"])
    before_armies = (await service.view_for_user(match_id, mover.id))["reinforcements_left"]
    ix = await _slash(fake, mover, thread, "risk trade")
    menu = ix.original
    assert menu.ephemeral and not ix.followups, [m.text() for m in ix.replies()]
    (select,) = menu.selects()
    assert [o["value"] for o in select["options"]] == ["alaska northwest_territory greenland"]
    assert t(loc, "risk.territory.alaska") in select["options"][0]["label"]
    edits = menu.edits
    await fake.select(mover, menu, select["custom_id"], [select["options"][0]["value"]])
    await fake.wait_for(lambda: menu.edits > edits, 10, "the trade step")
    confirm = [c for c in menu.custom_ids() if c.startswith("g:c:")]
    if not confirm:  # two traded territories are hers: pick where the +2 go
        bonus = next(b for b in menu.buttons() if b["custom_id"].startswith("g:a:")
                     and b.get("label") != t(loc, "discord.button.back"))
        edits = menu.edits
        await fake.click(mover, menu, bonus["custom_id"])
        await fake.wait_for(lambda: menu.edits > edits, 10, "the confirm")
        confirm = [c for c in menu.custom_ids() if c.startswith("g:c:")]
    edits = menu.edits
    await fake.click(mover, menu, confirm[0])
    await fake.wait_for(lambda: menu.edits > edits, 10, "the trade")
    mine = await service.view_for_user(match_id, mover.id)
    assert mine["reinforcements_left"] > before_armies, "the set was traded for armies"

    # Reinforce everything, then the attack phase.
    while (await service.requests_for_user(match_id, mover.id))[0].kind == "reinforce":
        await _place_all(fake, service, match_id, thread, mover)
    assert (await service.requests_for_user(match_id, mover.id))[0].kind == "attack"

    sources = await _autocomplete(fake, mover, thread, "risk attack", "from")
    legal_sources = await _legal(service, match_id, mover, ["attack"])
    assert sources and [c["value"] for c in sources] == legal_sources[:25]
    # Labelled with the localized territory name, in the user's language.
    first = sources[0]["value"]
    assert sources[0]["name"].startswith(t(loc, f"risk.territory.{first}"))
    # Typing filters by the localized name.
    typed = t(loc, f"risk.territory.{first}")[:2]
    narrowed = await _autocomplete(fake, mover, thread, "risk attack", "from", **{"from": typed})
    assert first in [c["value"] for c in narrowed] and len(narrowed) <= len(sources)
    targets = await _autocomplete(fake, mover, thread, "risk attack", "to", **{"from": first})
    assert [c["value"] for c in targets] == await _legal(service, match_id, mover, ["attack", first])
    target = targets[0]["value"]

    before = len(await service.log(match_id, limit=500))
    ix = await _slash(fake, mover, thread, "risk attack", **{"from": first, "to": target, "mode": "once"})
    assert not ix.followups, [m.text() for m in ix.followups]
    reply = ix.original
    assert reply.ephemeral and reply.ephemeral_for == mover.id
    assert reply.text().startswith(t(loc, "discord.play.done", action="")[:3])
    entries = await service.log(match_id, limit=500)
    assert len(entries) == before + 1
    last = max(entries, key=lambda e: e.version)
    assert last.action == ["attack", first, target, "once"]
    names = [s.name for s in (await service.get(match_id)).seats]
    shown = [tm(loc, ev.msg, names) for ev in last.events if ev.to is None]
    assert shown and all(line in reply.text() for line in shown), "the dice are shown to the attacker"

    # An illegal target is refused ephemerally, nothing is played.
    ix = await _slash(fake, mover, thread, "risk attack", **{"from": first, "to": first, "mode": "once"})
    assert ix.followups and ix.followups[-1].ephemeral
    assert len(await service.log(match_id, limit=500)) == before + 1

    # /risk cards: private, same lines as the engine's private summary.
    ix = await _slash(fake, mover, thread, "risk cards")
    view = await service.view_for_user(match_id, mover.id)
    lines = [tm(loc, m) for m in registry.get("risk").private_summary(view)]
    card_reply = ix.replies()[-1]
    assert card_reply.ephemeral and all(line in card_reply.text() for line in lines)
    # /risk trade outside the reinforce phase: told so, privately.
    ix = await _slash(fake, mover, thread, "risk trade")
    assert ix.replies()[-1].ephemeral and t(loc, "discord.risk.no_sets") in ix.replies()[-1].text()
    fake.assert_clean()
