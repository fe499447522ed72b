"""Embed builders stay within Discord's embed limits whatever the input size."""

from __future__ import annotations

import discord
import pytest

from cogs.help import help_embed, rules_embed
from cogs.utils import embeds
from cogs.utils.embeds import Pending
from engines.base import Engine, Msg, OptionSpec
from service.models import MatchInfo, SeatInfo


def _assert_limits(embed: discord.Embed) -> None:
    assert len(embed.title or "") <= 256
    assert len(embed.description or "") <= 4096
    assert len(embed.fields) <= 25
    for field in embed.fields:
        assert 1 <= len(field.name or "") <= 256
        assert 1 <= len(field.value or "") <= 1024
    assert len(embed.footer.text or "") <= 2048
    assert len(embed) <= 6000


class _Toy(Engine):
    slug = "toy"
    min_seats, max_seats = 2, 6

    def option_specs(self) -> list[OptionSpec]:
        return [OptionSpec(f"o{i}", Msg("x." + "l" * 200), [("a", Msg("y." + "v" * 300))], "a") for i in range(30)]

    def new_state(self, options, seats, seed):  # pragma: no cover - unused
        raise NotImplementedError

    pending = step = apply = view = result = ai_action = new_state


def _match(status: str = "active", seats: int = 6, name_len: int = 200) -> MatchInfo:
    return MatchInfo(id=42, game="toy", options={}, status=status, version=7, host_id=1, locale="en",
                     turn_seconds=86400,
                     seats=[SeatInfo(i, 100 + i if i % 2 else None, "N" * name_len, None if i % 2 else "hard")
                            for i in range(seats)],
                     result={"winners": [0, 1], "scores": {str(i): 10 * i for i in range(seats)}})


@pytest.mark.parametrize("locale", ["en", "zh-TW", "zh-CN"])
def test_lobby_embed_limits(locale: str) -> None:
    embed = embeds.lobby_embed(_match("lobby"), _Toy(), locale)
    _assert_limits(embed)
    assert "42" in embed.title


@pytest.mark.parametrize("status", ["active", "finished", "abandoned"])
def test_status_embed_limits_with_huge_input(status: str) -> None:
    describe = ["line " * 200] * 100
    pending = [Pending(f"r{i}", i % 6, 1_900_000_000.0) for i in range(40)]
    embed = embeds.status_embed(_match(status), describe, pending, "zh-CN", image="board.png", version=7)
    _assert_limits(embed)
    assert embed.image.url == "attachment://board.png"
    assert embed.footer.text == embeds.match_marker(42, 7)
    assert (status == "finished") == any("N" in f.value and "10" in f.value for f in embed.fields)


def test_status_embed_shows_deadline_timestamp() -> None:
    embed = embeds.status_embed(_match(seats=2, name_len=5), ["a"], [Pending("r", 1, 1_900_000_000.0)], "en")
    assert any("<t:1900000000:R>" in f.value for f in embed.fields)


def test_fit_embed_trims_oversized_embed() -> None:
    embed = discord.Embed(title="t" * 1000, description="d" * 5000)
    for _ in range(40):
        embed.add_field(name="n" * 300, value="v" * 2000)
    embed.set_footer(text="f" * 3000)
    _assert_limits(embeds.fit_embed(embed))


def test_lines_help_and_rules_embeds() -> None:
    _assert_limits(embeds.lines_embed("x" * 300, ["y" * 500] * 50))
    for locale in ("en", "zh-TW", "zh-CN"):
        _assert_limits(help_embed(locale))
        embed = rules_embed("no-such-game", locale)
        _assert_limits(embed)
        assert embed.description


def test_game_name_prefers_catalogs() -> None:
    assert embeds.game_name("pentactic", "zh-TW") == "戰術棋"
    assert embeds.game_name("unknown_game", "en") == "Unknown_Game"
