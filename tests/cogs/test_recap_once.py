"""The end-of-match recap is claimed once per match (review of issue 21): a finished batch that is
published again — a retry after an error, a restart, another process taking over before the rows
were marked delivered — posts no second recap; the lobby switch "off" posts none."""

from __future__ import annotations

from typing import Any

from cogs.recap import RECAP_META, Recaps


class _Service:
    def __init__(self) -> None:
        self.meta: dict[tuple[int, str], str] = {}

    async def get_meta(self, match_id: int, key: str) -> str | None:
        return self.meta.get((match_id, key))

    async def set_meta(self, match_id: int, key: str, value: str | None) -> None:
        if value is None:
            self.meta.pop((match_id, key), None)
        else:
            self.meta[(match_id, key)] = value


class _Publisher:
    def __init__(self) -> None:
        self.service = _Service()


def _match(mid: int) -> Any:
    """What the recap reads of a match (its id, game and locale)."""
    return type("Match", (), {"id": mid, "game": "risk", "locale": "en"})()


async def test_a_finished_batch_published_twice_builds_one_recap(monkeypatch: Any) -> None:
    publisher = _Publisher()
    recaps = Recaps(publisher)
    built: list[int] = []

    async def post(self: Recaps, match: Any, channel: Any) -> None:
        built.append(match.id)

    monkeypatch.setattr(Recaps, "_post", post)
    for _ in range(3):
        await recaps.after_finish(_match(7), channel=None)
    await recaps.wait()
    assert built == [7] and publisher.service.meta[(7, RECAP_META)] == "posted"
    fresh = Recaps(publisher)  # a restarted publisher: the claim is in the store, not in memory
    await fresh.after_finish(_match(7), channel=None)
    await fresh.wait()
    assert built == [7]


async def test_the_lobby_switch_off_builds_none(monkeypatch: Any) -> None:
    publisher = _Publisher()
    await publisher.service.set_meta(8, RECAP_META, "off")
    built: list[int] = []

    async def post(self: Recaps, match: Any, channel: Any) -> None:
        built.append(match.id)

    monkeypatch.setattr(Recaps, "_post", post)
    recaps = Recaps(publisher)
    await recaps.after_finish(_match(8), channel=None)
    await recaps.wait()
    assert built == [] and publisher.service.meta[(8, RECAP_META)] == "off"
