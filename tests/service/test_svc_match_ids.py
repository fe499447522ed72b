"""Ids no match can have (below 1, past 64 bits) are answered by every public method taking a
match id as an id no match has, on both backends: not with the driver's OverflowError (SQLite
cannot bind 2**63) or a lock-key error (PostgreSQL's advisory locks are 64-bit too)."""

from __future__ import annotations

import inspect
from typing import Any

import pytest
from svc_helpers import HOST, clock, db_path, recorder, service, store, toy, two_humans

from service.errors import UserError
from service.matches import MatchService

__all__ = ["clock", "db_path", "recorder", "service", "store", "toy"]
pytestmark = pytest.mark.usefixtures("toy")

#: An argument for each parameter name the public methods use after ``match_id``.
_ARGS: dict[str, Any] = {"user_id": HOST, "by_user": HOST, "request_id": "r1", "action": ["add", "1"],
                         "path": [], "key": "post", "name": "target", "value": "15", "seconds": 3600,
                         "seat": None}
UNKNOWN = 987_654_321
IMPOSSIBLE = [2**63, 2**64 + 5, -1, 0, -(2**63) - 1]


def _methods() -> list[str]:
    """Every public method of the service whose first parameter is a match id."""
    return [name for name, fn in inspect.getmembers(MatchService, inspect.isfunction)
            if not name.startswith("_") and list(inspect.signature(fn).parameters)[1:2] == ["match_id"]]


async def _outcome(service: MatchService, name: str, match_id: int) -> tuple[str, Any]:
    fn = getattr(service, name)
    params = list(inspect.signature(fn).parameters.values())[1:]
    missing = [p.name for p in params if p.default is inspect.Parameter.empty and p.name not in _ARGS]
    assert not missing, f"{name}: give the test an argument for {missing}"
    args = {p.name: _ARGS[p.name] for p in params if p.default is inspect.Parameter.empty}
    try:
        return "returned", await fn(match_id, **args)
    except UserError as err:
        return "refused", err.msg.key
    except Exception as err:  # noqa: BLE001 - what the store raised is the outcome
        return "raised", type(err).__name__


def test_the_list_of_methods_is_complete() -> None:
    assert {"get", "view", "act", "act_with_events", "step", "log", "export", "join", "start", "set_meta",
            "get_meta", "resign", "abandon", "pending_requests"} <= set(_methods())


@pytest.mark.parametrize("name", _methods())
async def test_an_impossible_match_id_is_no_such_match(service: MatchService, name: str) -> None:
    await two_humans(service)  # a store with a match in it
    unknown = await _outcome(service, name, UNKNOWN)
    for match_id in IMPOSSIBLE:
        outcome = await _outcome(service, name, match_id)
        if name == "get_meta":  # "nothing kept", as for any id without a match
            assert outcome == unknown == ("returned", None)
        else:
            assert outcome == ("refused", "core.err.no_match"), (name, match_id)
            if name != "set_meta":  # an unknown id there is the store's foreign-key error
                assert unknown == outcome
