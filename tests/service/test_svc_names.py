"""Player names as the service stores them: capped and on one line, whatever the front-end sends."""

from __future__ import annotations

import pytest
import svc_toy_engine
from svc_helpers import BOB, CAROL, HOST, clock, db_path, recorder, service, store, toy

from service.lobby import NAME_MAX, cap_name
from service.matches import MatchService

__all__ = ["clock", "db_path", "recorder", "service", "store", "toy"]
pytestmark = pytest.mark.usefixtures("toy")
SLUG = svc_toy_engine.SLUG


async def test_stored_names_are_capped_and_flattened(service: MatchService) -> None:
    """Names are user input shown in every post and image: stored at most NAME_MAX characters,
    one line (an 800-character or multi-line display name must not reach the renderers)."""
    info = await service.create_lobby(SLUG, host_id=HOST, host_name="H" * 800, locale="en", channel_id=9)
    info = await service.join(info.id, BOB, "# big\n\nline\ttwo")
    host, bob = info.seats
    assert len(host.name) == NAME_MAX == 32 and host.name == "H" * (NAME_MAX - 1) + "…"
    assert bob.name == "# big line two"
    info = await service.join(info.id, CAROL, "C" * NAME_MAX)
    assert info.seats[2].name == "C" * NAME_MAX  # exactly at the cap: kept whole
    assert (await service.get(info.id)).seats[0].name == host.name  # what is stored, not only returned


def test_cap_name_counts_characters_not_bytes() -> None:
    assert cap_name("名" * 40) == "名" * 31 + "…"
    assert cap_name("😀🎲") == "😀🎲"
