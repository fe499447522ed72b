"""The terminal front-end: list, a scripted game through stdin choices, an all-AI game, the ASCII
fallback."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
import svc_toy_engine
from svc_helpers import db_target, toy

from cli.__main__ import main
from cli.ascii import generic, render
from cli.play import play
from cli.terminal import Terminal
from engines import registry
from i18n import t

ROOT = Path(__file__).resolve().parents[2]
HAS_PENTACTIC = "pentactic" in registry.available()
__all__ = ["db_target", "toy"]
pytestmark = pytest.mark.usefixtures("toy")


def scripted(answers: list[str], asked: list[str]) -> Callable[[str], str]:
    """An ``input`` replacement answering from a list, then behaving like a closed stdin."""
    feed = iter(answers)

    def ask(prompt: str) -> str:
        asked.append(prompt)
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    return ask


async def test_scripted_game_walks_steps_and_finishes() -> None:
    svc_toy_engine.install()
    out = io.StringIO()
    asked: list[str] = []
    # Tokens typed directly, a wrong number, going back, then numbered choices for ever.
    answers = ["add 2", "99", "1", "b", "1", "2"] + ["1"] * 400
    code = await play(svc_toy_engine.SLUG, options={"target": "10"}, term=Terminal(out, "en"),
                      ask=scripted(answers, asked))
    text = out.getvalue()
    assert code == 0, text
    assert t("en", "core.cli.game_over") in text
    assert t("en", "core.cli.invalid") not in text  # "99" was typed as a token ...
    assert "toy.err.bad" in text  # ... and refused by the engine, untranslated toy key
    assert t("en", "core.cli.path", path="add") in text
    assert "toy.ev.add" in text and "board:" in text
    assert 3 < len(asked) < len(answers)


async def test_quit_and_closed_stdin() -> None:
    svc_toy_engine.install()
    for answers in (["q"], []):
        out = io.StringIO()
        code = await play(svc_toy_engine.SLUG, term=Terminal(out, "zh-TW"), ask=scripted(answers, []))
        assert code == 0
        assert t("zh-TW", "core.cli.quit") in out.getvalue()
        assert t("zh-TW", "core.cli.game_over") not in out.getvalue()


async def test_watch_plays_all_ai_seats(db_target: Path | str) -> None:
    svc_toy_engine.install()
    out = io.StringIO()
    db = db_target
    code = await play(svc_toy_engine.SLUG, seats=3, options={"target": "30"}, watch=True, db=db,
                      term=Terminal(out, "en"), ask=scripted([], []))
    text = out.getvalue()
    assert code == 0 and t("en", "core.cli.game_over") in text
    assert text.count(t("en", "core.ai.name", number=3)) >= 1
    assert isinstance(db, str) or db.exists()


def test_list_and_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list"]) == 0
    listed = capsys.readouterr().out
    for slug in registry.available():
        assert slug in listed
    assert main(["play", "no-such-game"]) == 2
    assert "no-such-game" in capsys.readouterr().out
    svc_toy_engine.install()
    assert main(["play", svc_toy_engine.SLUG, "--option", "target"]) == 2
    # A bad value is refused before the game starts, listing the values that would do.
    assert main(["--lang", "zh-CN", "play", svc_toy_engine.SLUG, "--option", "target=99"]) == 2
    assert t("zh-CN", "core.cli.bad_value", option="target", value="99", values="x").removesuffix("x") \
        in capsys.readouterr().out


def test_generic_ascii_fallback() -> None:
    lines = generic({"game": "x", "turn": 2, "board": [["a", None], ["bb", "c"]], "hand": [1, 2]})
    assert lines == ["game: x", "turn: 2", 'hand: [1,2]', "board:", "   a  .", "  bb  c"]
    assert render({"game": "no_such_ascii", "n": 1}, [], "en") == ["game: no_such_ascii", "n: 1"]


def _cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "cli", *args], input=stdin, capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=300)


def _board_shown(game: str, locale: str, text: str) -> bool:
    """Whether ``text`` holds the game's own text board (not the generic dump)."""
    if game == "pentactic":
        return t(locale, "core.cli.board_of", name=t(locale, "core.ai.name", number=1)) in text
    if game == "jiwu":
        return t(locale, "core.cli.jiwu.legend") in text
    if game == "kingdoms_battle":
        return t(locale, "core.cli.kingdoms_battle.legend_sides") in text
    head = [t(locale, f"core.cli.sanguosha.{k}") for k in ("player", "hero", "hp", "hand", "equip", "judge", "role")]
    return any(line.split() == " ".join(head).split() for line in text.splitlines())


@pytest.mark.parametrize("game", ["pentactic", "jiwu", "sanguosha", "kingdoms_battle"])
def test_cli_watch_to_the_end(game: str) -> None:
    if game not in registry.available():
        pytest.skip(f"{game} not available")
    done = _cli("play", game, "--watch")
    assert done.returncode == 0, done.stderr
    assert t("en", "core.cli.game_over") in done.stdout
    assert _board_shown(game, "en", done.stdout)


@pytest.mark.parametrize(("game", "answers"), [("pentactic", 3000), ("jiwu", 20000), ("sanguosha", 20000),
                                               ("kingdoms_battle", 20000)])
def test_cli_from_stdin_choices_to_the_end(game: str, answers: int) -> None:
    """The player's seat answers "1" to everything, the AI the rest, to the end: a 三国杀
    response window (the AI's answer, the player's pass) must not stall the terminal, nor a
    鬪三國 tile that fits one way only (its one rotation, "0°", once read as a count)."""
    if game not in registry.available():
        pytest.skip(f"{game} not available")
    done = _cli("play", game, "--lang", "zh-TW", stdin="1\n" * answers)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr
    assert t("zh-TW", "core.cli.game_over") in done.stdout
    assert t("zh-TW", "core.cli.choose") in done.stdout
    assert _board_shown(game, "zh-TW", done.stdout)


@pytest.mark.skipif(not HAS_PENTACTIC, reason="Pentactic engine not available")
def test_pentactic_ascii_board_shape() -> None:
    engine = registry.get("pentactic")
    state = engine.new_state(engine.normalize_options({}), 2, 5)
    view = engine.view(state, None)
    lines = render(view, ["Ann", "Bo"], "en")
    header = t("en", "core.cli.board_of", name="Ann")
    start = lines.index(header)
    grid = lines[start + 2:start + 2 + view["height"]]
    assert [row.split()[0] for row in grid] == [str(y + 1) for y in range(view["height"])]
    assert all(len(row.split()) == view["width"] + 1 for row in grid)


@pytest.mark.skipif("risk" not in registry.available(), reason="Risk engine not available")
def test_risk_ascii_lists_every_territory_once() -> None:
    engine = registry.get("risk")
    state = engine.new_state(engine.normalize_options({}), 3, 11)
    view = engine.view(state, 0)
    lines = render(view, ["A", "B", "C"], "en")
    from engines.risk.data import content

    continents = content().continents
    entries = [e for line in lines[:len(continents)] for e in line.split(": ", 1)[1].split(", ")]
    assert len(entries) == len(view["territories"])
    assert all(e.rsplit(" ", 1)[1].split(":")[1].isdigit() for e in entries)
    assert sum(1 for line in lines if line.startswith(("1. A", "2. B", "3. C"))) == 3
    assert any(line.startswith(t("en", "core.cli.risk_cards", cards="")) for line in lines)


def test_long_option_lists_are_packed_in_columns() -> None:
    from cli.play import display_width, option_rows
    from engines.base import Msg, Option

    few = option_rows([Option("a", Msg("x.a"))], "en")
    assert few == ["  1. x.a [a]"]
    cells = [Option(f"{c}{r}", Msg("core.cli.game_line", {"slug": f"{c}{r}", "name": ""}))
             for c in "abcdefgh" for r in range(1, 9)]
    rows = option_rows(cells, "en", width=60)
    assert 64 / len(rows) > 2 and all(display_width(r) <= 60 for r in rows)
    assert "64." in rows[-1] and display_width("中a") == 3


async def test_a_superscript_digit_is_a_typed_token_not_a_menu_number() -> None:
    """'²'.isdigit() is true but int('²') raises: the prompt once crashed on it."""
    svc_toy_engine.install()
    out = io.StringIO()
    asked: list[str] = []
    await play(svc_toy_engine.SLUG, options={"target": "10"}, term=Terminal(out, "en"),
               ask=scripted(["²", "q"], asked))
    assert "toy.err.bad" in out.getvalue()  # sent to the engine as a token, refused there
