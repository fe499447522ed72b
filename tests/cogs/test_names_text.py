"""Player names in Discord text: inert (no ping, link, heading, spoiler), still readable as typed;
posts ping exactly the users they mean to."""

from __future__ import annotations

import random
import re

import discord

from cogs.utils.text import pings, pings_in, safe_name, safe_names, tm_text
from engines.base import Msg, seat_ref
from service.models import SeatInfo

HOSTILE = ["<@123456789012345678>", "[x](https://e.com)", "# big", "||spoiler||", "@everyone", "@here",
           "**bold** _it_ ~~s~~ `code`", "> quote", "- list", "1. list", "<#1234>", "<t:0:R>", "a\\b",
           "line\none", "<:e:1234>", "https://e.com"]
_PAIR = re.compile(r"\\(.)", re.S)


def _unescape(text: str) -> str:
    return _PAIR.sub(r"\1", text)


def _bare(text: str) -> str:
    """What is left when every backslash pair is taken out: the characters Discord parses."""
    return _PAIR.sub("", text)


def test_hostile_names_keep_no_active_markup_and_read_as_typed() -> None:
    for name in HOSTILE:
        out = safe_name(name)
        assert _unescape(out) == " ".join(name.split()), name
        bare = _bare(out)
        for mark in "<@[]()#|*_~`>-:.":
            assert mark not in bare, (name, out)
        assert "\n" not in out


def test_random_unicode_names_never_leave_markup() -> None:
    rng = random.Random(7)
    alphabet = "ab 名😀\\*_~`|>#[]()-+.:<@!\n\t\u200b"
    for _ in range(500):
        name = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 20)))
        out = safe_name(name)
        assert _unescape(out) == " ".join(name.split())
        assert not set(_bare(out)) & set("\\*_~`|>#[]()-+.:<@")


def test_seat_names_and_service_name_params_are_escaped_for_discord_only() -> None:
    seats = [SeatInfo(1, 2, "@everyone", None), SeatInfo(0, 1, "# big", None)]
    assert safe_names(seats) == ["\\# big", "\\@everyone"]  # by seat number
    engine_line = Msg("pentactic.prompt.discard_piece", {"player": seat_ref(0)})
    assert tm_text("en", engine_line, seats) == "Which of \\# big's pieces do you discard?"
    service_note = Msg("core.note.resigned", {"name": "@everyone"})
    assert tm_text("en", service_note, seats) == "\\@everyone resigned."
    other = Msg("risk.event.x", {"name": "@riskmap.alaska"})  # an engine's own key param: untouched
    assert tm_text("en", other, seats) == tm_text("en", Msg("risk.event.x", {"name": "@riskmap.alaska"}), [])


def test_pings_list_exactly_the_users_meant() -> None:
    assert pings([]).to_dict() == {"parse": []}
    rules = pings([5, 7, 5]).to_dict()
    assert rules["parse"] == [] and rules["users"] == [5, 7]
    line = "Your turn: <@11> <@!12> \\<\\@13\\>"
    assert pings_in(line).to_dict()["users"] == [11, 12]
    assert pings_in(None).to_dict() == {"parse": []}
    assert isinstance(pings_in(""), discord.AllowedMentions)
