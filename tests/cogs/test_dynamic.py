"""The parts of an interaction the DynamicItems trust: claimed ids, offered select values, paths."""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

import pytest

from cogs.utils import ids
from cogs.utils.dynamic import STALE, chosen_value, is_claimed, stale_if_rejected
from engines.base import EngineError
from service.errors import UserError


def interaction(custom_id: str, kind: int = 3, values: list[str] | None = None,
                offered: list[str] | None = None, on_message: bool = True) -> Any:
    comp = SimpleNamespace(custom_id=custom_id, type=SimpleNamespace(value=kind),
                           options=[SimpleNamespace(value=v) for v in offered or []])
    row = SimpleNamespace(children=[comp] if on_message else [], type=SimpleNamespace(value=1))
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": kind}
    if values is not None:
        data["values"] = values
    return SimpleNamespace(data=data, message=SimpleNamespace(components=[row]),
                           client=SimpleNamespace(persistent_views=[]))


def test_a_value_the_select_offered_is_taken() -> None:
    assert chosen_value(interaction("g:lt:1", values=["60"], offered=["60", "300"])) == "60"


@pytest.mark.parametrize(("values", "offered"), [(["999"], ["60"]), ([], ["60"]), (["60", "300"], ["60", "300"]),
                                                 (["60"], [])])
def test_values_not_offered_are_out_of_date(values: list[str], offered: list[str]) -> None:
    with pytest.raises(UserError) as err:
        chosen_value(interaction("g:lt:1", values=values, offered=offered))
    assert err.value.msg.key == STALE


def test_claimed_needs_a_template_and_the_component_on_the_message() -> None:
    templates = [re.compile(ids.LOBBY_TEMPLATE)]
    assert is_claimed(interaction("g:l:1:join", kind=2), templates)
    assert not is_claimed(interaction("g:l:1:join", kind=2, on_message=False), templates)
    other_type = interaction("g:l:1:join", kind=2)
    other_type.data["component_type"] = 3  # a select with the id of a button on the message
    assert not is_claimed(other_type, templates)
    assert not is_claimed(interaction("x:y", kind=2), templates)


def test_engine_refusals_of_a_path_from_an_id_read_out_of_date() -> None:
    for error in (EngineError("pentactic.err.piece", piece="Q"), UserError("core.err.illegal")):
        with pytest.raises(UserError) as err, stale_if_rejected():
            raise error
        assert err.value.msg.key == STALE
    with pytest.raises(UserError) as err, stale_if_rejected():
        raise UserError("core.err.not_a_player")  # the service's own answers stay as they are
    assert err.value.msg.key == "core.err.not_a_player"
