"""Embeds built from match data and engine *views* through catalog strings.

Builders never see the full game state: public embeds get the public view's ``describe`` lines,
so a hidden hand cannot end up in a channel. Every builder passes through :func:`fit_embed` so
Discord's limits (title 256, description 4096, 25 fields, field 1024, total 6000) always hold.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import discord

from engines.base import Engine, Msg
from i18n import has, t, tm
from service import reaction
from service.models import MatchInfo, SeatInfo

from .layout import ai_level_name, turn_label
from .text import clamp, join_lines, safe_name, tm_text

TITLE_MAX = 256
DESCRIPTION_MAX = 4096
FIELDS_MAX = 25
FIELD_NAME_MAX = 256
FIELD_VALUE_MAX = 1024
FOOTER_MAX = 2048
TOTAL_MAX = 6000

COLOR = discord.Colour(0x3B82F6)
COLOR_DONE = discord.Colour(0x22C55E)
COLOR_ENDED = discord.Colour(0x6B7280)


@dataclass(frozen=True)
class Pending:
    """A request someone must answer now, as the Discord layer needs it."""

    request_id: str
    seat: int
    due_at: float | None = None
    window: str = ""  # a response window's request: shown as "waiting for responses", never by seat


def game_name(slug: str, locale: str) -> str:
    """The game's own catalog name (``<slug>.name``) when it has one, else ours, else the slug."""
    for key in (f"{slug}.name", f"discord.game.{slug}"):
        if has(key, locale):
            return t(locale, key)
    return slug.title()


def seat_label(seat: SeatInfo, locale: str) -> str:
    if seat.is_ai:
        if seat.ai_level:
            return t(locale, "discord.seat.ai_level", name=safe_name(seat.name),
                     level=ai_level_name(seat.ai_level, locale))
        return t(locale, "discord.seat.ai", name=safe_name(seat.name))
    return t(locale, "discord.seat.human", name=safe_name(seat.name), mention=f"<@{seat.user_id}>")


def timestamp(at: float, style: str = "R") -> str:
    return f"<t:{int(at)}:{style}>"


def match_marker(match_id: int, version: int | None = None) -> str:
    """Footer text; the version part lets the publisher recognise a post it already made."""
    return f"#{match_id}" + (f" · v{version}" if version is not None else "")


def fit_embed(embed: discord.Embed) -> discord.Embed:
    """Clamp every part to Discord's limits, dropping trailing fields if the total is too big."""
    if embed.title:
        embed.title = clamp(embed.title, TITLE_MAX)
    if embed.description:
        embed.description = clamp(embed.description, DESCRIPTION_MAX)
    fields = [(clamp(f.name or "-", FIELD_NAME_MAX), clamp(f.value or "-", FIELD_VALUE_MAX), f.inline)
              for f in embed.fields][:FIELDS_MAX]
    embed.clear_fields()
    for name, value, inline in fields:
        embed.add_field(name=name, value=value, inline=inline)
    if embed.footer.text:
        embed.set_footer(text=clamp(embed.footer.text, FOOTER_MAX))
    while len(embed) > TOTAL_MAX and embed.fields:
        embed.remove_field(len(embed.fields) - 1)
    if len(embed) > TOTAL_MAX and embed.description:
        embed.description = clamp(embed.description, max(1, len(embed.description) - (len(embed) - TOTAL_MAX)))
    return embed


def lobby_embed(match: MatchInfo, engine: Engine, locale: str) -> discord.Embed:
    low, high = engine.seat_range(match.options)
    seats = [f"{s.seat + 1}. {seat_label(s, locale)}" for s in match.seats]
    embed = discord.Embed(
        title=t(locale, "discord.lobby.title", game=game_name(match.game, locale), match=match.id),
        description=t(locale, "discord.lobby.description"),
        colour=COLOR,
    )
    embed.add_field(name=t(locale, "discord.lobby.host"), value=f"<@{match.host_id}>", inline=True)
    embed.add_field(name=t(locale, "discord.lobby.turn_time"), value=turn_label(locale, match.turn_seconds),
                    inline=True)
    embed.add_field(name=t(locale, "discord.lobby.seats", count=len(match.seats), min=low, max=high),
                    value=join_lines(seats, FIELD_VALUE_MAX) or "-", inline=False)
    options = []
    specs = reaction.lobby_specs(engine)
    shown = {*engine.visible_options({s.name: match.options.get(s.name, s.default) for s in specs}),
             reaction.OPTION}
    for spec in (s for s in specs if s.name in shown):
        value = match.options.get(spec.name, spec.default)
        label = next((lab for v, lab in spec.choices if v == value), None)
        options.append(f"{tm(locale, spec.label)}: {tm(locale, label) if label else value}")
    if options:
        embed.add_field(name=t(locale, "discord.lobby.options"), value=join_lines(options, FIELD_VALUE_MAX),
                        inline=False)
    if match.status != "lobby":
        embed.description = t(locale, f"discord.lobby.status_{match.status}")
    embed.set_footer(text=match_marker(match.id))
    return fit_embed(embed)


def whose_turn_lines(match: MatchInfo, pending: Sequence[Pending], locale: str) -> list[str]:
    """One line per seat asked; the requests of response windows make one "waiting for
    responses" line instead, since who may respond can reveal a hand."""
    names = {s.seat: safe_name(s.name) for s in match.seats}
    lines = []
    windows = [p for p in pending if p.window]
    if windows:
        due = min((p.due_at for p in windows if p.due_at), default=None)
        lines.append(t(locale, "publish.waiting_window_due", due=timestamp(due)) if due
                     else t(locale, "publish.waiting_window"))
    for p in (p for p in pending if not p.window):
        name = names.get(p.seat, str(p.seat + 1))
        if p.due_at:
            lines.append(t(locale, "discord.status.turn_due", name=name, due=timestamp(p.due_at)))
        else:
            lines.append(t(locale, "discord.status.turn", name=name))
    return lines


def status_embed(match: MatchInfo, describe: list[str], pending: Sequence[Pending], locale: str, *,
                 image: str | None = None, version: int | None = None) -> discord.Embed:
    """The public status: describe() lines of the public view, whose turn and the deadline."""
    embed = discord.Embed(
        title=t(locale, "discord.status.title", game=game_name(match.game, locale), match=match.id),
        description=join_lines(describe, DESCRIPTION_MAX) if describe else None,
        colour=COLOR if match.status == "active" else COLOR_ENDED,
    )
    turn = whose_turn_lines(match, pending, locale)
    if turn:
        embed.add_field(name=t(locale, "discord.status.whose_turn"), value=join_lines(turn, FIELD_VALUE_MAX),
                        inline=False)
    if match.status == "finished":
        embed.add_field(name=t(locale, "discord.status.result"), value=result_text(match, locale), inline=False)
    elif match.status == "abandoned":
        embed.add_field(name=t(locale, "discord.status.result"), value=t(locale, "discord.status.abandoned"),
                        inline=False)
    if image:
        embed.set_image(url=f"attachment://{image}")
    embed.set_footer(text=match_marker(match.id, version))
    return fit_embed(embed)


def turn_embed(match: MatchInfo, pending: Sequence[Pending], locale: str, *, version: int) -> discord.Embed:
    """A finished turn's post when several turns arrive together: who was asked, no board.

    Only the newest post of a batch can show the board and the buttons (the public view is the
    current one), so earlier turns get this light card; its footer still lets the publisher
    recognise the post after a restart.
    """
    embed = discord.Embed(title=t(locale, "discord.status.title", game=game_name(match.game, locale),
                                  match=match.id), colour=COLOR)
    turn = whose_turn_lines(match, pending, locale)
    if turn:
        embed.add_field(name=t(locale, "discord.status.whose_turn"), value=join_lines(turn, FIELD_VALUE_MAX),
                        inline=False)
    embed.set_footer(text=match_marker(match.id, version))
    return fit_embed(embed)


def marker_version(text: str | None, match_id: int) -> int | None:
    """The version in a footer made by :func:`match_marker` for this match, else None."""
    prefix = match_marker(match_id) + " · v"
    if not text or not text.startswith(prefix) or not text[len(prefix):].isdigit():
        return None
    return int(text[len(prefix):])


def result_text(match: MatchInfo, locale: str) -> str:
    result = match.result or {}
    winners = [int(w) for w in result.get("winners", [])]
    names = {s.seat: safe_name(s.name) for s in match.seats}
    if not winners:
        text = t(locale, "discord.status.no_winner")
    else:
        text = t(locale, "discord.status.winners", names=", ".join(names.get(w, str(w + 1)) for w in winners))
    summary = result.get("summary")
    if isinstance(summary, dict) and summary.get("key"):
        text = tm_text(locale, Msg.from_json(summary), match.seats) + "\n" + text
    scores = result.get("scores") or {}
    if scores:
        parts = [f"{names.get(int(k), str(int(k) + 1))}: {v}" for k, v in scores.items()]
        text += "\n" + t(locale, "discord.status.scores", scores=", ".join(parts))
    return text


def lines_embed(title: str, lines: list[str], *, empty: str = "-", footer: str | None = None) -> discord.Embed:
    """A titled list (log, hand, help): lines in the description, clamped."""
    embed = discord.Embed(title=title, description=join_lines(lines, DESCRIPTION_MAX) if lines else empty,
                          colour=COLOR)
    if footer:
        embed.set_footer(text=footer)
    return fit_embed(embed)
