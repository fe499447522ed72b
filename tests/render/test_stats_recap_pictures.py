"""Issue 21's pictures: the stats and leaderboard pictures are drawn at the 550 px Discord shows,
with names as typed; the recap GIF keeps to 550 px, ≤ 20 s and ≤ 4 MB; 三国杀's recap is its HP
timeline picture."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from render.recap import FRAMES, MAX_BYTES, MAX_SECONDS, WIDTH, frame_steps, recap
from render.stats import BoardLine, GameBlock, leaderboard_png, me_png
from service.replay import Timeline
from tools.ai_match import ai_export


def _steps(timeline: Timeline):  # type: ignore[no-untyped-def]
    return lambda: ((view, [e.msg for e in events]) for view, events in timeline.views())


@pytest.mark.parametrize("locale", ["en", "zh-TW", "zh-CN"])
def test_leaderboard_and_me_pictures_are_550_px(locale: str) -> None:
    rows = [BoardLine(i, f"player {i} <@{i}>", 1100 - i, 3 * i, False) for i in range(1, 11)]
    rows.append(BoardLine(17, "陳小明 " * 20, 980, 4, True))
    board = Image.open(io.BytesIO(leaderboard_png("Risk", rows, locale)))
    assert board.width == 550 and board.height > 11 * 40
    blocks = [GameBlock("risk", 1042, 2, 9, 12, 7, [True, False, True]), GameBlock("pentactic", None, None, 0, 1, 0, [])]
    me = Image.open(io.BytesIO(me_png("Zoë", blocks, {"risk": "Risk"}, locale)))
    assert me.width == 550


def test_frames_spread_over_the_whole_match() -> None:
    assert frame_steps(5, 36) == [0, 1, 2, 3, 4]
    picks = frame_steps(751, 36)
    assert picks[0] == 0 and picks[-1] == 750 and len(picks) == 36


def test_a_recap_animation_keeps_its_limits() -> None:
    export, _ = ai_export("pentactic", 2, 200)
    timeline = Timeline(export)
    made = recap("pentactic", len(timeline), timeline.view_at, _steps(timeline), "en", ["A", "B"], "Recap")
    assert made is not None
    data, name = made
    assert name == "recap.gif" and len(data) <= MAX_BYTES
    gif = Image.open(io.BytesIO(data))
    assert gif.width == WIDTH and gif.n_frames <= FRAMES
    total = 0
    for i in range(gif.n_frames):
        gif.seek(i)
        total += gif.info["duration"]
    assert total <= MAX_SECONDS * 1000


def test_sanguosha_gets_an_hp_timeline_naming_killers() -> None:
    export, _ = ai_export("sanguosha", 1, 750, 8)
    timeline = Timeline(export)
    names = [s["name"] for s in export["seats"]]
    made = recap("sanguosha", len(timeline), timeline.view_at, _steps(timeline), "en", names, "HP")
    assert made is not None and made[1] == "recap.png"
    img = Image.open(io.BytesIO(made[0]))
    assert img.width == WIDTH
    deaths = [e.msg for s in timeline.steps for e in s.public if e.msg.key == "sanguosha.ev.death"]
    assert deaths, "the AI game has deaths to list"
    assert img.height >= 360 + 26 * len(deaths)
