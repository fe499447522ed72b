"""Player names are data, never catalog keys: a player called "@everyone" must not resign as
"everyone", and a name survives the outbox's JSON round trip exactly as typed."""

from __future__ import annotations

import pytest
import svc_toy_engine
from svc_helpers import HOST, Recorder, clock, db_path, recorder, service, store, toy

from i18n import t, tm
from service import codec
from service.matches import MatchService

__all__ = ["clock", "db_path", "recorder", "service", "store", "toy"]
pytestmark = pytest.mark.usefixtures("toy")

HOSTILE = ["@everyone", "@core.note.resigned", "@risk.territory.alaska", "{seat}", "{name}", "@"]


@pytest.mark.parametrize("name", HOSTILE)
async def test_resign_note_shows_the_name_as_typed(service: MatchService, recorder: Recorder, name: str) -> None:
    info = await service.create_lobby(svc_toy_engine.SLUG, host_id=HOST, host_name="Host", locale="en",
                                      channel_id=9, options={"target": "15"})
    await service.join(info.id, 202, name)
    await service.start(info.id, HOST)
    await service.resign(info.id, 202)
    change = recorder.changes[-2]
    assert change.note is not None
    expected = t("en", "core.note.resigned", name="\x00").replace("\x00", name)
    assert tm("en", change.note) == expected
    # ...also after the outbox's JSON round trip (what the publisher reads after a restart).
    again = codec.change_from_json(codec.change_to_json(change))
    assert again.note is not None and tm("zh-TW", again.note) == \
        t("zh-TW", "core.note.resigned", name="\x00").replace("\x00", name)
