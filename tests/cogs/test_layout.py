"""Component layouts stay within Discord's limits for any number of options."""

from __future__ import annotations

import re

import pytest

from cogs.utils import ids, layout
from cogs.utils.layout import ButtonSpec, Layout, SelectSpec
from cogs.utils.views import build_view
from engines.base import Msg, Option, OptionSpec, Step
from i18n import t
from service.models import MatchInfo, SeatInfo


def _step(n: int, *, complete: bool = False, long_labels: bool = False) -> Step:
    label = "x" * 300 if long_labels else "opt"
    return Step(Msg("core.err.illegal"),
                [Option(f"o{i}", Msg(f"test.{label}", {})) for i in range(n)], complete=complete)


def _check_limits(lay: Layout) -> None:
    assert len(lay.rows) <= layout.MAX_ROWS
    seen: set[str] = set()
    for row in lay.rows:
        assert row, "empty row"
        kinds = {type(item) for item in row}
        assert len(kinds) == 1
        if isinstance(row[0], SelectSpec):
            assert len(row) == 1
            assert 1 <= len(row[0].options) <= layout.MAX_SELECT_OPTIONS
            assert len(row[0].placeholder) <= layout.PLACEHOLDER_MAX
            assert all(len(o.label) <= layout.SELECT_LABEL_MAX for o in row[0].options)
            assert len({o.value for o in row[0].options}) == len(row[0].options)
        else:
            assert len(row) <= layout.MAX_BUTTONS_PER_ROW
            assert all(len(b.label) <= layout.BUTTON_LABEL_MAX for b in row)  # type: ignore[union-attr]
        for item in row:
            assert len(item.custom_id) <= ids.MAX_CUSTOM_ID
            assert item.custom_id not in seen, f"duplicate custom id {item.custom_id}"
            seen.add(item.custom_id)


@pytest.mark.parametrize("n", [0, 1, 5, 6, 19, 20, 21, 25, 26, 60, 200])
@pytest.mark.parametrize("path", [[], ["a"], ["a", "b", "c"]])
@pytest.mark.parametrize("complete", [False, True])
def test_step_layout_within_limits(n: int, path: list[str], complete: bool) -> None:
    lay = layout.step_layout(_step(n, complete=complete, long_labels=n == 21), 99, "r1", path, 0, "en",
                             ids.PathStore())
    _check_limits(lay)
    buttons = [b for row in lay.rows for b in row if isinstance(b, ButtonSpec)]
    if n <= 5:
        option_rows = [r for r in lay.rows if any(b.custom_id.endswith(f",o{i}") or b.custom_id.endswith(f":o{i}")
                                                  for b in r for i in range(n))]
        assert len(option_rows) == (1 if n else 0)
    if n <= layout.MAX_OPTION_BUTTONS:
        assert not any(isinstance(r[0], SelectSpec) for r in lay.rows)
    else:
        assert isinstance(lay.rows[0][0], SelectSpec)
    confirms = [b for b in buttons if b.custom_id.startswith("g:c:")]
    assert len(confirms) == (1 if complete else 0)
    backs = [b for b in buttons if b.label == t("en", "discord.button.back")]
    assert bool(backs) == bool(path)
    for back in backs:
        m = re.fullmatch(ids.NAV_TEMPLATE, back.custom_id)
        assert m is not None and ids.decode_path(m["path"]) == path[:-1] and m["page"] == "0"


def test_sixty_options_page_into_selects_of_at_most_25() -> None:
    step = _step(60)
    collected: list[str] = []
    pages = layout.page_count(60)
    assert pages == 3
    for page in range(pages):
        lay = layout.step_layout(step, 1, "r", [], page, "en")
        _check_limits(lay)
        select = lay.rows[0][0]
        assert isinstance(select, SelectSpec)
        collected += [o.value for o in select.options]
        labels = [b.label for b in lay.rows[1]]
        # Prev/Next only where they lead somewhere.
        assert (t("en", "discord.button.prev") in labels) == (page > 0)
        assert (t("en", "discord.button.next") in labels) == (page < pages - 1)
    assert collected == [f"o{i}" for i in range(60)]
    # Out-of-range pages are clamped instead of showing nothing.
    assert layout.step_layout(step, 1, "r", [], 99, "en").page == 2


def test_page_slice() -> None:
    assert layout.page_slice(60, 0) == (0, 25, 0)
    assert layout.page_slice(60, 2) == (50, 60, 2)
    assert layout.page_slice(60, -3) == (0, 25, 0)
    assert layout.page_slice(0, 0) == (0, 0, 0)


def _match(specs: list[OptionSpec]) -> MatchInfo:
    return MatchInfo(id=3, game="toy", options={s.name: s.default for s in specs}, status="lobby", version=1,
                     host_id=10, locale="en", turn_seconds=86400,
                     seats=[SeatInfo(0, 10, "host"), SeatInfo(1, None, "AI 1", "normal")])


def _specs(n: int, choices: int = 3) -> list[OptionSpec]:
    return [OptionSpec(f"opt{i}", Msg("x.label"), [(f"v{j}", Msg("x.v")) for j in range(choices)], "v0")
            for i in range(n)]


@pytest.mark.parametrize("n", [0, 1, 2, 3, 4, 7])
def test_lobby_layout_within_limits_and_extra_options(n: int) -> None:
    specs = _specs(n, choices=30)
    match = _match(specs)
    lay = layout.lobby_layout(match, specs, "zh-TW")
    _check_limits(lay)
    extra = layout.extra_option_layout(match, specs, "en")
    _check_limits(extra)
    shown = {s.custom_id for row in lay.rows for s in row if isinstance(s, SelectSpec)}
    hidden = {s.custom_id for row in extra.rows for s in row}
    expected = {ids.lobby_option_id(3, s.name) for s in specs}
    assert (shown | hidden) - {ids.lobby_turn_id(3)} == expected
    assert not (shown & hidden)
    more = any(b.custom_id == ids.lobby_id(3, "more") for row in lay.rows for b in row)
    assert more == bool(hidden)
    # every lobby can switch the end-of-match recap off, however many options it has
    assert any(b.custom_id == ids.lobby_id(3, "recap") for row in lay.rows for b in row)
    turn = next(s for row in lay.rows for s in row if s.custom_id == ids.lobby_turn_id(3))
    assert [o.value for o in turn.options if o.default] == ["86400"]


def test_turn_buttons_fit() -> None:
    lay = layout.turn_buttons(4, [(f"r{i}", f"name{i}" * 30) for i in range(30)], "en")
    _check_limits(lay)
    assert sum(len(r) for r in lay.rows) == 25


async def test_discord_view_accepts_every_layout() -> None:
    """discord.py itself raises when a row overflows; build the real views to be sure."""
    lays = [layout.step_layout(_step(n, complete=True), 1, "r", ["a"], 1, "en") for n in (3, 12, 20, 60)]
    lays.append(layout.lobby_layout(_match(_specs(7)), _specs(7), "en"))
    for lay in lays:
        view = build_view(lay)
        assert view is not None
        rows = view.to_components()
        assert len(rows) == len(lay.rows) <= 5
    assert build_view(Layout()) is None
