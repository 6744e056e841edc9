"""A new game's rules are built once per game, variant and options, and kept (boardlab.server.positions.new_rules):
the same rules as ``load`` gives, refusals included."""

from __future__ import annotations

import pytest

import boardlab
from boardlab.errors import OptionError
from boardlab.server.positions import new_rules
from tests.server.conftest import Api


def test_the_rules_are_kept_for_the_same_game_variant_and_options() -> None:
    rules = new_rules("ndengrod", None, {"size": 4, "swap": True})
    assert new_rules("ndengrod", None, {"swap": True, "size": 4}) is rules
    assert dict(rules.options) == dict(boardlab.load("ndengrod", size=4, swap=True).options)
    pentalath = new_rules("ndengrod", "pentalath", {})
    assert pentalath is not rules and new_rules("ndengrod", "pentalath", {}) is pentalath
    assert dict(pentalath.options) == dict(boardlab.load("ndengrod", variant="pentalath").options)


def test_an_option_equal_to_an_accepted_one_but_of_another_type_is_still_refused() -> None:
    assert new_rules("ndengrod", None, {"swap": True}).options["swap"] is True
    with pytest.raises(OptionError, match="swap=1 is not accepted"):  # 1 == True, but not an option value
        new_rules("ndengrod", None, {"swap": 1})
    assert new_rules("ndengrod", None, {"size": 3}).options["size"] == 3
    with pytest.raises(OptionError, match="size=True is not accepted"):
        new_rules("ndengrod", None, {"size": True})


def test_games_created_one_after_another_are_each_created_as_asked(sqlite_api: Api) -> None:
    api = sqlite_api
    for _ in range(2):
        created = api.game("ann", "ndengrod", [{"kind": "me"}, {"kind": "me"}], {"swap": True, "size": 3})
        assert created["game"]["options"]["swap"] is True and created["game"]["options"]["size"] == 3
        assert created["game"]["ply"] == 0 and len(created["game"]["view"]["legal_moves"]) == 19
    refused = api.client.post("/api/games", json={"game": "ndengrod", "options": {"swap": 1, "size": 3},
                                                  "seats": [{"kind": "me"}, {"kind": "me"}]}, headers=api.user("ann"))
    assert refused.status_code == 422 and "swap=1 is not accepted" in refused.json()["detail"]
