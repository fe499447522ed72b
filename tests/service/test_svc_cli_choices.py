"""The terminal front-end's choices: `play list`, unknown options / values / AI levels listing the
valid ones, counts typed as numbers (not menu indexes), card symbols in the hand, and the
orientation choice drawn as text."""

from __future__ import annotations

import io
from typing import Any

import pytest

from cli.__main__ import main
from cli.ascii import render
from cli.ascii_pentactic import render_step
from cli.play import choose_action, is_count_choice
from cli.terminal import Terminal
from engines import registry
from engines.base import Msg, Option, Step
from engines.pentactic import orientations
from i18n import t, tm


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().out


def test_play_list_lists_the_games(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _run(capsys, "play", "list")
    assert code == 0 and t("en", "core.cli.games") in out
    for slug in registry.available():
        assert f"  {slug}  " in out
    assert t("en", "discord.game.risk") in out and "risk  risk" not in out
    assert t("en", "core.cli.unknown_game", game="list", games="x").split(" list")[0] not in out


def test_unknown_option_lists_the_options(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _run(capsys, "play", "pentactic", "--option", "colour=red")
    names = [s.name for s in registry.get("pentactic").option_specs()]
    assert code == 2 and out.strip() == t("en", "core.cli.unknown_option", option="colour", options=", ".join(names))
    assert all(name in out for name in ("mode", "board", "deal"))


def test_bad_value_lists_the_values(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _run(capsys, "--lang", "zh-TW", "play", "pentactic", "--option", "mode=9")
    spec = next(s for s in registry.get("pentactic").option_specs() if s.name == "mode")
    assert code == 2
    for value, label in spec.choices:
        assert f"{value}（{tm('zh-TW', label)}）" in out


def test_bad_ai_level_lists_the_levels(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _run(capsys, "play", "risk", "--ai-level", "genius")
    levels = registry.get("risk").ai_levels()
    assert code == 2 and out.strip() == t("en", "core.cli.bad_ai_level", level="genius", levels=", ".join(levels))


def _counts(lo: int, hi: int) -> list[Option]:
    return [Option(str(v), Msg("risk.opt.count_all" if v == hi else "risk.opt.count", {"n": v}))
            for v in range(lo, hi + 1)]


class FakeService:
    """Answers ``step`` like the match service: one choice, then a complete action."""

    def __init__(self, first: Step) -> None:
        self.first = first

    async def step(self, match_id: int, user_id: int, request_id: str, path: list[str]) -> Step:
        if not path:
            return self.first
        if len(path) == 1 and path[0] in {o.value for o in self.first.options}:
            return Step(Msg("risk.prompt.done"), [], complete=True)
        from service.errors import UserError
        raise UserError("core.err.bad_option", option="x", value=" ".join(path))


def _ask(answers: list[str]) -> Any:
    feed = iter(answers)
    return lambda prompt: next(feed)


def test_count_choices_are_recognised() -> None:
    assert is_count_choice(_counts(2, 6), "en")
    assert is_count_choice([Option(str(n), Msg("risk.opt.dice", {"n": n})) for n in (1, 2)], "zh-CN")
    pentactic_orientations = [Option(str(o), Msg("pentactic.opt.orientation", {"n": o + 1})) for o in range(4)]
    assert not is_count_choice(pentactic_orientations, "en")
    assert not is_count_choice([Option("0", Msg("risk.color.red")), Option("1", Msg("risk.color.blue"))], "en")
    # 鬪三國's rotations: "0°" shows the token 0, but as an angle; alone (the one way a tile fits)
    # it was taken for a count, so the menu number 1 was refused for ever.
    rotations = [Option(str(r), Msg("kingdoms_battle.opt.rot", {"deg": 90 * r})) for r in range(4)]
    for locale in ("en", "zh-TW"):
        assert not is_count_choice(rotations[:1], locale)
        assert not is_count_choice(rotations, locale)
    # 三国杀's seat targets: token 0 is "Seat 1 · distance 0 · HP 3", which merely contains a 0;
    # taken for a count, a victim choice of that one seat could never be answered with "1".
    from engines.sanguosha import ENGINE as SGS
    from engines.sanguosha.choices import seat_opt

    table = SGS.new_state({"heroes": "beginner"}, 4, 3)
    for locale in ("en", "zh-TW"):
        assert not is_count_choice([seat_opt(table, 0, 0)], locale)  # oneself: distance 0
        assert not is_count_choice([seat_opt(table, s, 0) for s in (1, 2, 3)], locale)


async def test_a_typed_count_is_the_number_not_a_menu_index() -> None:
    """Move-in of 2–6 armies: typing 3 moves 3 (the third menu entry would be 4)."""
    out = io.StringIO()
    service = FakeService(Step(Msg("risk.prompt.place_count", {"min": 2, "max": 6}), _counts(2, 6)))
    action = await choose_action(service, Terminal(out, "en"), 1, "r", _ask(["3"]))  # type: ignore[arg-type]
    assert action == ["3"]
    assert "  3\n" in out.getvalue() and "  6: " in out.getvalue()  # the numbers, no menu indexes
    # A number that is not offered is refused, not taken as an index.
    out = io.StringIO()
    action = await choose_action(service, Terminal(out, "en"), 1, "r", _ask(["1", "6"]))  # type: ignore[arg-type]
    assert action == ["6"] and t("en", "core.cli.invalid") in out.getvalue()


async def test_menu_choices_keep_their_numbers() -> None:
    options = [Option("alaska", Msg("risk.territory.alaska")), Option("peru", Msg("risk.territory.peru"))]
    service = FakeService(Step(Msg("risk.prompt.attack_from"), options))
    action = await choose_action(service, Terminal(io.StringIO(), "en"), 1, "r", _ask(["2"]))  # type: ignore[arg-type]
    assert action == ["peru"]


def test_orientations_drawn_as_text() -> None:
    table = orientations("L")
    options = [Option(str(o), Msg("pentactic.opt.orientation", {"n": o + 1})) for o in range(len(table))]
    lines = render_step({"kind": "orientations", "piece": "L", "seat": 0, "options": [o.value for o in options]},
                        options, "en")
    text = "\n".join(lines)
    assert text.count("#") == 5 * len(table)
    for i, option in enumerate(options, 1):
        assert f"{i}. {tm('en', option.label)}" in text
    # The first drawing is orientation 0, row by row.
    w = max(x for x, _ in table[0]) + 1
    first_rows = [line[2:2 + 2 * w - 1] for line in lines[1:1 + max(y for _, y in table[0]) + 1]]
    assert [[c == "#" for c in row[::2]] for row in first_rows] == \
        [[(x, y) in {tuple(c) for c in table[0]} for x in range(w)] for y in range(len(first_rows))]
    assert all(len(line) <= 80 for line in lines)


async def test_choose_action_prints_the_orientation_art() -> None:
    options = [Option(str(o), Msg("pentactic.opt.orientation", {"n": o + 1})) for o in range(4)]
    picture = {"kind": "orientations", "piece": "T", "seat": 0, "options": [o.value for o in options]}
    service = FakeService(Step(Msg("pentactic.prompt.orientation", {"piece": "T"}), options, picture=picture))
    out = io.StringIO()
    action = await choose_action(service, Terminal(out, "en"), 1, "r", _ask(["2"]), "pentactic")  # type: ignore[arg-type]
    assert action == ["1"] and out.getvalue().count("#") == 20


def test_risk_hand_shows_card_symbols() -> None:
    engine = registry.get("risk")
    state = engine.new_state(engine.normalize_options({}), 3, 5)
    view = engine.view(state, 0)
    view["you"]["cards"] = [{"id": "alaska", "territory": "alaska", "symbol": "cavalry"},
                            {"id": "wild1", "territory": None, "symbol": "wild"}]
    for locale in ("en", "zh-TW"):
        text = "\n".join(render(view, ["A", "B", "C"], locale))
        assert t(locale, "risk.symbol.cavalry") in text and t(locale, "risk.card.wild") in text
