"""Forged and malformed component ids get the one-line "this button is out of date" answer.

Never the apology (which means "our bug, logged") and never silence (discord.py drops a click no
DynamicItem claims; the user then sees "This interaction failed"). ``fake.forge`` sends what a
modified client or a post of another bot version could: ids that match no template, ids that
match one but name a component the message lacks, bad ``~XX`` escapes, match ids beyond SQLite's
range, digits of other scripts, select values that were not offered, paths the engine refuses.
"""

from __future__ import annotations

from typing import Any

import pytest
from e2e_support import RealBots, Table, real_bot_missing

from cogs.utils import ids
from fakediscord import FakeDiscord, FakeInteraction
from fakediscord.limits import FLAG_LOADING
from i18n import t

pytestmark = pytest.mark.skipif(bool(real_bot_missing("pentactic")), reason=str(real_bot_missing("pentactic")))

BIG = 2**63


def answer(ix: FakeInteraction) -> list[tuple[bool, str]]:
    """(ephemeral, text) of each message the interaction answered with (a defer's message once)."""
    return [(m.ephemeral, m.text()) for m in {m.id: m for m in ix.replies()}.values()]


async def test_forged_ids_are_answered_out_of_date(fake: FakeDiscord, real_bots: RealBots, table: Table) -> None:
    await real_bots.start()
    alice, bob = fake.add_user("alice", locale="zh-CN"), fake.add_user("bob", locale="zh-CN")
    match = await table.start_match(real_bots, alice, "pentactic", guests=(bob,))
    mid = match.id
    reqs: list[str] = []
    for user in (alice, bob):
        reqs += await real_bots.service.pending_for_user(mid, user.id)
        if reqs:
            player = user
            break
    req = reqs[0]
    post = await fake.wait_for(lambda: table.status_posts(match.thread_id), 10, "the status post")
    post = post[-1]
    lobby = next(m for m in fake.messages_in(fake.general) if m.id == match.lobby_message_id)
    stale = t("zh-CN", "core.err.stale")
    legal = ids.encode_path(await _legal_action(real_bots.service, mid, player.id, req))
    arabic = "".join(chr(0x660 + int(d)) for d in str(mid))  # int() reads them as the match id

    cases: list[tuple[str, dict]] = [
        # ids no template takes: the catch-all answers
        ("x:y:z", {"on_message": False}),
        ("g:t", {}),
        (f"g:t:{mid}:{req}:extra", {}),
        (f"g:t:\u0661\u0662:{req}", {}),               # Arabic-Indic digits
        (f"g:p:{arabic}:{req}:{legal}", {}),             # ... of a legal move that plays at once
        (f"g:c:{arabic}:{req}:{legal}", {}),
        (f"g:l:{mid}:START", {}),
        # a template matches, but the message has no such component: discord.py drops it
        (f"g:l:{mid}:start", {"on_message": False}),
        (f"g:t:{mid}:r{req}", {"on_message": False}),
        (f"g:c:{mid}:{req}:place", {"on_message": False}),
        # matched and on the message, but malformed inside
        (f"g:t:{mid}:~ZZ", {}),
        (f"g:t:{mid}:~\u0663\u0663", {}),
        (f"g:a:{mid}:{req}:0:place,~ZZ", {}),
        (f"g:a:{mid}:{req}:0:~~~", {}),
        (f"g:l:{BIG}:join", {}),
        (f"g:l:{10**40}:join", {}),
        (f"g:t:{BIG}:{req}", {}),
        (f"g:lo:{BIG}:mode", {"values": ["1"]}),
        (f"g:c:{BIG}:{req}:place", {}),
        # request of another format, path the engine refuses, page far out
        (f"g:a:{mid}:nope:0:", {}),
        (f"g:a:{mid}:{req}:0:place,Q", {}),
        (f"g:a:{mid}:{req}:0:dance", {}),
        (f"g:c:{mid}:{req}:place,F,9,z99", {}),
        (f"g:c:{mid}:{req}:", {}),
        # select values that were not offered
        (f"g:s:{mid}:{req}:", {"values": ["zz"], "offered": ["place"]}),
        (f"g:s:{mid}:{req}:", {"values": ["zz"]}),           # offered, but the engine refuses it
        (f"g:lt:{mid}", {"values": ["999"], "offered": ["60"]}),
        (f"g:lt:{mid}", {"values": ["\u00b2"]}),               # '²'.isdigit() is true
        (f"g:lo:{mid}:mode", {"values": ["1"], "offered": ["2"]}),
        (f"g:rt:{mid}:{req}", {"values": ["a b"]}),
        (f"g:rt:{mid}:{req}", {"values": ["a b c"], "offered": ["d e f"]}),
    ]
    apology = t("zh-CN", "core.err.unexpected", match=mid)
    await fake.wait_for(lambda: not fake.messages[lobby.id].custom_ids(), 10, "the lobby to lose its buttons")
    failures = []
    for custom_id, kwargs in cases:
        where = lobby if custom_id.startswith(("g:l:", "g:lo:", "g:lt:")) else post
        ix = await fake.forge(player, where, custom_id, timeout=10, **kwargs)
        try:  # the first answer may be a defer; the out-of-date line then follows
            await fake.wait_for(lambda i=ix: (True, stale) in answer(i), 5, "the out-of-date answer")
        except AssertionError:
            failures.append(f"{custom_id} {kwargs}: {answer(ix)}")
            continue
        private = [text for ephemeral, text in answer(ix) if ephemeral]
        if private != [stale] or any(apology in text for _, text in answer(ix)):
            failures.append(f"{custom_id} {kwargs}: {answer(ix)}")
    assert not failures, "\n".join(failures)
    # Nothing of this was a bug of ours, so nothing was logged as one, and the match is untouched.
    assert (await real_bots.service.get(mid)).status == "active"
    assert await real_bots.service.pending_for_user(mid, player.id) == [req]
    fake.assert_clean()


async def _legal_action(service: Any, mid: int, uid: int, req: str) -> list[str]:
    path: list[str] = []
    while True:
        step = await service.step(mid, uid, req, path)
        if step.complete:
            return path
        path.append(step.options[0].value)


async def test_typed_unicode_gets_a_one_line_refusal(fake: FakeDiscord, real_bots: RealBots, table: Table) -> None:
    """The reported ``/move action:"disc İ1"`` ('İ'.lower() is two characters) and its cousins, in
    the phase where discs are placed."""
    await real_bots.start()
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    match = await table.start_match(real_bots, alice, "pentactic", guests=(bob,))
    service, mid = real_bots.service, match.id
    for _ in range(20):  # play (through the service) until somebody is asked for a disc
        asked = [(u, r) for u in (alice, bob) for r in await service.pending_for_user(mid, u.id)]
        user, req = asked[0]
        verbs = [o.value for o in (await service.step(mid, user.id, req, [])).options]
        if "disc" in verbs:
            break
        await service.act(mid, user.id, req, await _legal_action(service, mid, user.id, req))
    else:
        raise AssertionError("no disc phase in 20 moves")
    thread = fake.channel(match.thread_id)
    apology = t("en", "core.err.unexpected", match=mid)
    for typed in ("disc İ1", "disc b²", "disc ｂ１", "disc b\u0661", "disc İ"):
        ix = await fake.slash(user, thread, "move", action=typed)
        await fake.wait_for(lambda i=ix: i.replies() and not i.replies()[-1].flags & FLAG_LOADING, 10, "the answer")
        reply = ix.replies()[-1]
        assert reply.ephemeral and reply.text() != apology, (typed, reply.text())
        assert reply.text() == t("en", "pentactic.err.disc_cell", cell=typed.split()[1]), reply.text()
    assert await service.pending_for_user(mid, user.id) == [req]
    fake.assert_clean()
