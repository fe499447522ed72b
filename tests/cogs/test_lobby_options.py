"""Lobby selects show only the options that matter for the current choices (engine's
``visible_options``), and every option when the engine has no opinion."""

from __future__ import annotations

import pytest

from cogs.lobby import lobby_message, shown_specs
from cogs.utils import ids
from cogs.utils.layout import extra_option_layout
from engines import registry
from engines.base import Engine, Msg, OptionSpec
from service.models import MatchInfo, SeatInfo


def _match(game: str, options: dict[str, str]) -> MatchInfo:
    return MatchInfo(id=8, game=game, options=options, status="lobby", version=1, host_id=1, locale="en",
                     turn_seconds=86400, seats=[SeatInfo(0, 1, "host")])


@pytest.mark.parametrize(("mode", "deal_shown"), [("1", False), ("2", False), ("3", False), ("4", True)])
def test_pentactic_deal_only_in_the_solo_mode(mode: str, deal_shown: bool) -> None:
    engine = registry.get("pentactic")
    names = [s.name for s in shown_specs(engine, {"mode": mode})]
    assert ("deal" in names) == deal_shown
    assert {"mode", "board"} <= set(names)
    assert engine.visible_options(engine.normalize_options({"mode": mode})) == names


def test_defaults_apply_when_an_option_was_never_set() -> None:
    engine = registry.get("pentactic")
    default_mode = next(s.default for s in engine.option_specs() if s.name == "mode")
    names = [s.name for s in shown_specs(engine, {})]
    assert ("deal" in names) == (default_mode == "4")


def test_engine_keeping_the_default_visible_options_shows_everything() -> None:
    risk = registry.get("risk")
    assert type(risk).visible_options is Engine.visible_options
    assert shown_specs(risk, {}) == risk.option_specs()

    class Picky:
        def option_specs(self) -> list[OptionSpec]:
            return [OptionSpec(n, Msg("x"), [("a", Msg("x")), ("b", Msg("x"))], "a") for n in ("p", "q", "r")]

        def visible_options(self, options: dict[str, str]) -> list[str]:
            return ["p", "r"] if options["p"] == "a" else ["p", "q", "r"]

    assert [s.name for s in shown_specs(Picky(), {})] == ["p", "r"]  # type: ignore[arg-type]
    assert [s.name for s in shown_specs(Picky(), {"p": "b"})] == ["p", "q", "r"]  # type: ignore[arg-type]


async def test_lobby_message_has_no_deal_select_outside_mode_4() -> None:
    """The deal select is offered in mode 4 only — on the lobby message or, when the message is
    full (two option selects beside the turn select and the recap switch), behind "More options"."""
    deal = ids.lobby_option_id(8, "deal")
    offered = []
    for mode in ("2", "4"):
        match = _match("pentactic", {"mode": mode, "board": "8x8", "deal": "solvable"})
        on_message = [c.custom_id for c in lobby_message(match, "en")["view"].children]
        more = extra_option_layout(match, shown_specs(registry.get("pentactic"), match.options), "en")
        offered.append(on_message + [c.custom_id for row in more.rows for c in row])
        assert ids.lobby_option_id(8, "mode") in on_message
    assert deal not in offered[0]
    assert deal in offered[1]


class _Response:
    def __init__(self) -> None:
        self.edits: list[dict] = []

    async def edit_message(self, **kwargs: object) -> None:
        self.edits.append(kwargs)


@pytest.mark.parametrize("ephemeral", [False, True])
async def test_a_setting_on_a_lobby_whose_id_is_not_stored_yet_keeps_the_lobby(ephemeral: bool,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """With several bot processes a select on a fresh lobby can arrive before the process that
    posted it stored its id: the (non-ephemeral) lobby is still re-rendered as the lobby, buttons and
    all; only the ephemeral extra-options message gets the extra-options layout."""
    from types import SimpleNamespace

    import cogs.lobby as lobby_cog

    refreshed: list[int] = []

    async def refresh(client: object, match: MatchInfo) -> None:
        refreshed.append(match.id)

    monkeypatch.setattr(lobby_cog, "refresh_lobby", refresh)
    match = _match("pentactic", {"mode": "2", "board": "8x8"})
    assert match.lobby_message_id is None
    flags = SimpleNamespace(ephemeral=ephemeral)
    interaction = SimpleNamespace(message=SimpleNamespace(id=77, flags=flags), response=_Response(), client=None,
                                  locale="en-US")
    await lobby_cog._after_setting(interaction, match)  # type: ignore[arg-type]
    (edit,) = interaction.response.edits
    join = "g:l:8:join"  # the lobby's join button (cogs/utils/ids.py layout)
    shown = [c.custom_id for c in edit["view"].children] if edit["view"] is not None else []
    if ephemeral:
        assert join not in shown and "embed" not in edit and refreshed == [8]
    else:
        assert join in shown and "embed" in edit and refreshed == []
