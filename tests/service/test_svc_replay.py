"""Replays (issue 21): the keyframed Timeline gives at every step the public view a step-by-step
replay gives; ``tasks.py replay FILE`` prints or draws an export and refuses a bad file clearly;
the export of a running match carries nothing hidden."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import svc_toy_engine
from svc_helpers import BOB, HOST, Recorder, clock, db_path, play_own_turn, recorder, store, toy, two_humans

from cli import replay as replay_cli
from i18n import t
from service.matches import MatchService
from store.db import Store
from tools.ai_match import ai_export

__all__ = ["clock", "db_path", "recorder", "store", "toy"]


def test_the_terminal_replay_prints_every_step_and_boards(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    export, states = ai_export("pentactic", 3, 12)
    path = tmp_path / "m.json"
    path.write_text(json.dumps(export), encoding="utf-8")
    assert replay_cli.main([str(path), "--every", "5"]) == 0
    out = capsys.readouterr().out
    total = len(states) - 1
    for i in range(len(states)):
        assert t("en", "stats.cli.step", step=i, total=total, line="").rstrip() in out
    assert replay_cli.main([str(path), "--images", str(tmp_path / "img")]) == 0
    written = sorted((tmp_path / "img").glob("*.png"))
    assert len(written) == len(states) and written[0].read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize(("content", "why"), [
    ("not json", "Expecting value"),
    ("[1, 2]", "no JSON object"),
    ('{"game": "risk"}', "missing options, seats"),
    ('{"game": "chess", "options": {}, "seats": [{}, {}], "seed": 1, "actions": []}', "unknown game"),
])
def test_a_bad_file_gets_one_clear_line(capsys: pytest.CaptureFixture[str], tmp_path: Path, content: str,
                                        why: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    assert replay_cli.main([str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(t("en", "stats.cli.bad_file", file=str(path), error="").split("(")[0]) and why in err
    assert "Traceback" not in err


def test_an_illegal_action_in_a_file_is_named(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    export, _ = ai_export("pentactic", 3, 4)
    export["actions"][1]["action"] = ["nonsense", "x"]
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(export), encoding="utf-8")
    assert replay_cli.main([str(path)]) == 2
    assert "do not replay" in capsys.readouterr().err


async def test_a_running_match_exports_nothing_hidden(store: Store, recorder: Recorder,
                                                      toy: svc_toy_engine.ToyEngine, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """The toy game's secret bids (tokens and private events) and its seed stay out of a running
    match's export; the terminal replay of that file prints the public lines only."""
    service = MatchService(store, publisher=recorder, offload=False, rate_limits=False)
    mid = (await two_humans(service, target="30")).id
    for user in (HOST, BOB, HOST):  # 2 + 2 + 2 passes 5: everyone bids in secret
        await play_own_turn(service, mid, user, "2")
    (rid,) = await service.pending_for_user(mid, HOST)
    await service.act(mid, HOST, rid, ["bid", "2"])  # a secret bid: Bob has not bid yet
    full = await service.export(mid)
    assert ["bid", "2"] in [a["action"] for a in full["actions"]]
    shared = await service.shared_export(mid)
    text = json.dumps(shared)
    assert shared["seed"] is None and "actions" not in shared and "state" not in shared
    assert "bid_secret" not in text and '"bid"' not in text and str(full["seed"]) not in text
    assert len(shared["public_log"]) == len(full["actions"])
    path = tmp_path / "running.json"
    path.write_text(text, encoding="utf-8")
    assert replay_cli.main([str(path)]) == 0
    assert "bid_secret" not in capsys.readouterr().out
    timeline = await service.timeline(mid)
    assert all("secret" not in timeline.view_at(i) for i in range(len(timeline)))
