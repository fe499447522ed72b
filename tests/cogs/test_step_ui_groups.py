"""Step UI polish without a gateway: forced steps taken automatically, Back skipping them, and long
hinted option lists offered as groups (Risk's 42 territories by continent) with restart-proof ids."""

from __future__ import annotations

import re
from typing import Any

import pytest
from test_layout import _check_limits

from cogs import play
from cogs.utils import ids, layout
from cogs.utils.layout import GROUP_TEMPLATE, ButtonSpec, SelectSpec
from engines import registry
from engines.base import Msg, Option, Step
from i18n import t, tm


def _claim_step(locale_game: str = "risk") -> tuple[Step, Any]:
    engine = registry.get("risk")
    state = engine.new_state({"setup": "classic"}, 3, 7)
    return engine.step(state, 0, ["claim"]), state


def _buttons(lay: layout.Layout) -> list[ButtonSpec]:
    return [b for row in lay.rows for b in row if isinstance(b, ButtonSpec)]


def _hinted(n: int, groups: int, hint: str = "g") -> list[Option]:
    return [Option(f"o{i}", Msg("test.x"), f"{hint}{i % groups}") for i in range(n)]


@pytest.mark.parametrize("locale", ["en", "zh-TW", "zh-CN"])
def test_risk_territories_are_offered_by_continent(locale: str) -> None:
    step, _ = _claim_step()
    assert len(step.options) == 42
    lay = layout.step_layout(step, 12, "r1", ["claim"], 0, locale, ids.PathStore(), game="risk")
    _check_limits(lay)
    assert not any(isinstance(r[0], SelectSpec) for r in lay.rows), "groups replace the paged select"
    groups = [b for b in _buttons(lay) if b.custom_id.startswith("g:h:")]
    continents = {o.hint for o in step.options}
    assert len(groups) == len(continents) == 6
    labels = {b.label for b in groups}
    for cont in continents:
        n = sum(o.hint == cont for o in step.options)
        assert t(locale, "discord.step.group", group=t(locale, f"risk.continent.{cont}"), n=n) in labels
    for b in groups:
        m = re.fullmatch(GROUP_TEMPLATE, b.custom_id)
        assert m is not None and int(m["match"]) == 12 and m["req"] == "r1" and m["page"] == "0"
        assert ids.decode_path(m["path"]) == ["claim"] and ids.decode_token(m["group"]) in continents


def test_chosen_group_shows_only_its_options_and_back_returns_to_the_groups() -> None:
    step, _ = _claim_step()
    asia = [o.value for o in step.options if o.hint == "asia"]
    lay = layout.step_layout(step, 12, "r1", ["claim"], 0, "en", ids.PathStore(), game="risk", group="asia")
    _check_limits(lay)
    option_buttons = [b for b in _buttons(lay) if b.custom_id.startswith(("g:a:", "g:p:"))
                      and b.label != t("en", "discord.button.back")]
    # A claim is the action's last token: each territory button plays it at once (g:p:).
    chosen = [ids.decode_path(re.fullmatch(layout.COMMIT_TEMPLATE, b.custom_id)["path"]) for b in option_buttons]
    assert chosen == [["claim", v] for v in asia]
    labels = [b.label for b in option_buttons]
    assert labels == [tm("en", o.label) for o in step.options if o.hint == "asia"]
    (back,) = [b for b in _buttons(lay) if b.label == t("en", "discord.button.back")]
    m = re.fullmatch(ids.NAV_TEMPLATE, back.custom_id)
    assert ids.decode_path(m["path"]) == ["claim"] and m["page"] == "0"


def test_unknown_group_falls_back_to_the_group_buttons() -> None:
    step, _ = _claim_step()
    lay = layout.step_layout(step, 1, "r1", ["claim"], 0, "en", game="risk", group="atlantis")
    assert {b.custom_id[:4] for b in _buttons(lay)} == {"g:h:", "g:a:"}  # groups + Back


@pytest.mark.parametrize("case", ["no_game", "unnamed", "some_unhinted", "too_many_groups", "few_options"])
def test_grouping_falls_back_to_paging(case: str) -> None:
    step, _ = _claim_step()
    options, game = list(step.options), "risk"
    if case == "no_game":
        game = ""
    elif case == "unnamed":
        options = _hinted(42, 6)
    elif case == "some_unhinted":
        options[5] = Option(options[5].value, options[5].label)
    elif case == "too_many_groups":
        options = [Option(f"o{i}", Msg("test.x"), f"h{i}") for i in range(42)]
        game = "test"
    else:
        options = options[:25]
    lay = layout.step_layout(Step(step.prompt, options), 1, "r", ["claim"], 0, "en", game=game)
    _check_limits(lay)
    assert not any(b.custom_id.startswith("g:h:") for b in _buttons(lay))
    assert isinstance(lay.rows[0][0], SelectSpec)


def test_a_big_group_pages_inside_the_group(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(layout, "group_label", lambda game, hint, locale: hint.upper())
    options = _hinted(80, 2)  # 40 per group: a paged select inside the group
    step = Step(Msg("test.prompt"), options)
    lay = layout.step_layout(step, 5, "r9", ["x"], 1, "en", game="toy", group="g1")
    _check_limits(lay)
    select = lay.rows[0][0]
    assert isinstance(select, SelectSpec)
    g1 = [o.value for o in options if o.hint == "g1"]
    assert [o.value for o in select.options] == g1[25:40]
    prev, back = lay.rows[1]  # last page of the group: no Next
    assert prev.label == t("en", "discord.button.prev")
    m = re.fullmatch(GROUP_TEMPLATE, prev.custom_id)
    assert m["group"] == "g1" and m["page"] == "0"
    first = layout.step_layout(step, 5, "r9", ["x"], 0, "en", game="toy", group="g1")
    (nxt, _) = first.rows[1]
    assert nxt.label == t("en", "discord.button.next") and re.fullmatch(GROUP_TEMPLATE, nxt.custom_id)["page"] == "1"
    assert re.fullmatch(ids.NAV_TEMPLATE, back.custom_id)["path"] == "x"


def test_group_ids_stay_short_and_use_the_store_for_long_paths() -> None:
    store = ids.PathStore()
    long_path = ["y" * 45, "z" * 45]
    cid = layout.group_id(123456789012345678, "r99", "north_america", 3, long_path, store)
    assert len(cid) <= ids.MAX_CUSTOM_ID
    m = re.fullmatch(GROUP_TEMPLATE, cid)
    assert m["path"].startswith("*")
    assert ids.resolve_path(m["path"], 123456789012345678, "r99", store) == long_path
    with pytest.raises(ids.BadCustomId):
        layout.group_id(1, "r", "g", 0, long_path, None)


# ----- forced steps and Back --------------------------------------------------------------------

def test_is_forced() -> None:
    one = [Option("a", Msg("x"))]
    assert play.is_forced(Step(Msg("p"), one))
    assert not play.is_forced(Step(Msg("p"), one, complete=True))
    assert not play.is_forced(Step(Msg("p"), [*one, Option("b", Msg("x"))]))
    assert play.is_forced(Step(Msg("p"), [*one, Option("a", Msg("y"))])), "duplicates are one choice"
    assert not play.is_forced(Step(Msg("p"), []))


@pytest.mark.parametrize(("path", "forced", "expected"), [
    (["a"], [True], False),
    (["a", "b"], [True, False], ["a"]),
    (["a", "b", "c"], [False, True, True], []),
    (["a", "b", "c"], [False, False, True], ["a"]),
    (["a", "b"], [False, False], ["a"]),
])
def test_back_skips_forced_steps(path: list[str], forced: list[bool], expected: Any) -> None:
    assert play.back_target(path, forced) == expected


class _TreeService:
    """A service whose steps come from a dict: path tuple -> options (complete when absent)."""

    def __init__(self, tree: dict[tuple[str, ...], list[str]]) -> None:
        self.tree = tree
        self.calls = 0

    async def step(self, match_id: int, user_id: int, req: str, path: list[str]) -> Step:
        self.calls += 1
        opts = self.tree.get(tuple(path))
        if opts is None:
            return Step(Msg("done"), [], complete=True)
        return Step(Msg("p"), [Option(v, Msg("x")) for v in opts])


async def test_advance_takes_single_options_until_a_real_choice() -> None:
    service = _TreeService({(): ["place"], ("place",): ["f"], ("place", "f"): ["1", "2"]})
    path, step = await play.advance(service, 1, 2, "r", [])
    assert path == ["place", "f"] and [o.value for o in step.options] == ["1", "2"]
    path, step = await play.advance(service, 1, 2, "r", ["place", "f", "2"])
    assert path == ["place", "f", "2"] and step.complete
    labels, forced = await play._path_info(service, 1, 2, "r", ["place", "f", "2"], "en")
    assert forced == [True, True, False] and play.back_target(["place", "f", "2"], forced) == ["place", "f"]
    _, forced = await play._path_info(service, 1, 2, "r", ["place", "f"], "en")
    assert play.back_target(["place", "f"], forced) is False, "nothing before was a real choice: no Back"


async def test_advance_stops_on_an_endless_single_option_engine() -> None:
    class Endless(_TreeService):
        async def step(self, match_id: int, user_id: int, req: str, path: list[str]) -> Step:
            self.calls += 1
            return Step(Msg("p"), [Option("again", Msg("x"))])

    service = Endless({})
    path, _ = await play.advance(service, 1, 2, "r", [])
    assert len(path) == play.AUTO_STEPS_MAX and service.calls == play.AUTO_STEPS_MAX + 1


@pytest.mark.parametrize("mode", ["1", "2", "3"])
def test_pentactic_first_step_is_forced(mode: str) -> None:
    """The case the feature is for: a Pentactic turn opens with a single verb."""
    engine = registry.get("pentactic")
    state = engine.new_state({"mode": mode}, engine.seat_range({"mode": mode})[0], 3)
    req = engine.pending(state)[0]
    step = engine.step(state, req.seat, [])
    assert len(step.options) == 1 and play.is_forced(step)


async def test_discord_view_accepts_group_layouts() -> None:
    """discord.py raises on a row overflow or a too long custom id: build the real views."""
    from cogs.utils.views import build_view

    step, _ = _claim_step()
    for group in (None, "asia", "australia"):
        lay = layout.step_layout(step, 10**18, "r100", ["claim"], 0, "zh-CN", ids.PathStore(), game="risk",
                                 group=group)
        view = build_view(lay)
        assert view is not None and len(view.to_components()) == len(lay.rows) <= layout.MAX_ROWS
