"""Who may have a hint (boardlab.server.hints): games with no other person in them (against the computer,
a hot-seat table whose browser gives every seat's token), and any position of a finished game (the
analysis board); never a game against another person. Also a hot-seat table's draw, and how a step
back through a finished game is described."""

from __future__ import annotations

from typing import Any

import boardlab
from boardlab import records
from tests.server.conftest import Api

SMALL = {"size": 3, "length": 3}


def _guests(api: Api, **more: Any) -> tuple[int, dict[str, str], dict[str, str], dict[str, str]]:
    """A game of two guest seats: its id, seat 0's token, seat 1's, and both (a hot-seat browser)."""
    created = api.client.post("/api/games", json={"game": "ndengrod", "options": SMALL,
                                                  "seats": [{"kind": "guest"}, {"kind": "guest"}], **more})
    assert created.status_code == 201, created.text
    body = created.json()
    first, second = body["invitations"]["0"], body["invitations"]["1"]
    return (body["game"]["id"], {"X-Seat-Token": first}, {"X-Seat-Token": second},
            {"X-Seat-Token": f"{first},{second}"})


def _first_moves_to_the_end() -> boardlab.State:
    """A small Ndengrod played to its end, always the first legal move."""
    state = boardlab.load("ndengrod", size=2, length=2).new_game()
    while not state.is_over:
        state = state.play(state.legal_moves()[0].text)
    return state


def _opened(api: Api, record: dict[str, Any]) -> int:
    created = api.client.post("/api/games", json={"record": record, "seats": [{"kind": "guest"}] * 2})
    assert created.status_code == 201, created.text
    return int(created.json()["game"]["id"])


def test_a_hot_seat_table_gets_hints_and_two_people_apart_never_do(sqlite_api: Api) -> None:
    api = sqlite_api
    game_id, first, second, both = _guests(api)
    table = api.client.get(f"/api/games/{game_id}", headers=both, params={"seat": 0}).json()
    assert table["your_seats"] == [0, 1] and table["can_hint"] is True
    hint = api.client.post(f"/api/games/{game_id}/hint", json={"seat": 0}, headers=both)
    assert hint.status_code == 200, hint.text
    assert hint.json()["seat"] == 0
    assert {c["move"] for c in hint.json()["candidates"]} <= set(table["view"]["legal_moves"])
    # The same game asked with one seat's token: a person is at the other seat, so no hint, for either.
    for alone in (first, second):
        seen = api.client.get(f"/api/games/{game_id}", headers=alone).json()
        assert seen["can_hint"] is False
        refused = api.client.post(f"/api/games/{game_id}/hint", headers=alone)
        assert refused.status_code == 403 and "against another person" in refused.json()["detail"]
    # Nor in a game between two accounts, nor for a spectator.
    paired = api.pair("ndengrod", SMALL)
    assert api.show(paired, "ann")["can_hint"] is False
    assert api.client.post(f"/api/games/{paired}/hint", headers=api.user("ann")).status_code == 403
    assert api.client.post(f"/api/games/{game_id}/hint").status_code == 403
    # The table's hint is for the seat to move now, and only at the position now.
    wrong_seat = api.client.post(f"/api/games/{game_id}/hint", json={"seat": 1}, headers=both)
    assert wrong_seat.status_code == 403 and "seat to move" in wrong_seat.json()["detail"]
    assert api.client.post(f"/api/games/{game_id}/moves", json={"ply": 0, "move": "b2", "seat": 0},
                           headers=both).status_code == 201
    back = api.client.get(f"/api/games/{game_id}", headers=both, params={"seat": 1, "ply": 0}).json()
    assert back["can_hint"] is False
    earlier = api.client.post(f"/api/games/{game_id}/hint", json={"seat": 1, "ply": 0}, headers=both)
    assert earlier.status_code == 403 and "position now" in earlier.json()["detail"]


def test_more_seat_tokens_than_seats_are_refused_with_a_reason(sqlite_api: Api) -> None:
    game_id, *_ = _guests(sqlite_api)
    refused = sqlite_api.client.get(f"/api/games/{game_id}", headers={"X-Seat-Token": "a,b,c,d,e"})
    assert refused.status_code == 422 and "at most 4" in refused.json()["detail"]


def test_a_finished_game_is_an_analysis_board_with_hints_for_anyone(sqlite_api: Api) -> None:
    api = sqlite_api
    state = _first_moves_to_the_end()
    record = records.GameRecord.from_state(state, players=["x", "y"]).to_dict()
    created = api.client.post("/api/games", json={"record": record, "seats": [{"kind": "guest"}, {"kind": "guest"}]})
    game_id = created.json()["game"]["id"]
    assert created.json()["game"]["status"] == "finished"
    # At the end no seat is to move: no hint; one move in, anyone may ask (the record is public).
    assert api.show(game_id)["can_hint"] is False
    over = api.client.post(f"/api/games/{game_id}/hint", json={"ply": len(state.history())})
    assert over.status_code == 403 and "no seat is to move" in over.json()["detail"]
    assert api.show(game_id, ply=1)["can_hint"] is True
    hint = api.client.post(f"/api/games/{game_id}/hint", json={"ply": 1})
    assert hint.status_code == 200, hint.text
    at_one = boardlab.load("ndengrod", size=2, length=2).new_game().play(state.history()[0].text)
    assert hint.json()["seat"] == at_one.to_move and hint.json()["ply"] == 1
    assert {c["move"] for c in hint.json()["candidates"]} <= {m.text for m in at_one.legal_moves()}
    beyond = api.client.post(f"/api/games/{game_id}/hint", json={"ply": 99})
    assert beyond.status_code == 409 and "accepted: 0 to" in beyond.json()["detail"]


def test_a_hot_seat_tables_draw_offer_is_its_agreement(sqlite_api: Api) -> None:
    api = sqlite_api
    game_id, first, _, both = _guests(api)
    alone = api.client.post(f"/api/games/{game_id}/draw", json={"action": "offer"}, headers=first).json()
    assert alone["status"] == "active" and alone["draw_offers"] == [0]  # the other person has not agreed
    drawn = api.client.post(f"/api/games/{game_id}/draw", json={"action": "offer", "seat": 0}, headers=both).json()
    assert drawn["status"] == "finished" and drawn["termination"] == "agreement" and drawn["result"] == [0.5, 0.5]


def test_a_step_back_through_a_finished_game_says_where_and_how_it_ended(sqlite_api: Api) -> None:
    api = sqlite_api
    state = _first_moves_to_the_end()
    record = records.GameRecord.from_state(state, players=["x", "y"]).to_dict()
    game_id = _opened(api, record)
    final = api.show(game_id)["view"]["description"]
    assert final == f"Game over: guest (x) won by {state.view(None).end_reason}."  # the seats are guests here
    total = len(state.history())
    earlier = api.show(game_id, ply=1)["view"]["description"]
    assert earlier == f"After move 1 of {total}: o to move. {final}"
    assert "None" not in earlier
    resigned = boardlab.load("ndengrod", **SMALL).new_game().play("b2").play("a1")
    record = records.GameRecord.from_state(resigned, players=["x", "y"]).to_dict()
    record.update(result=[1, 0], termination="resignation")
    game_id = _opened(api, record)
    assert api.show(game_id)["view"]["description"] == "Game over: guest (x) won (guest (o) resigned)."
    assert api.show(game_id, ply=0)["view"]["description"] == \
        "After move 0 of 2: x to move. Game over: guest (x) won (guest (o) resigned)."


def test_a_hint_is_searched_on_the_asking_seats_view_only() -> None:
    """Two HMDG games that differ only where seat 0 hid its stones (tests/server/test_security.py's
    pair): seat 1's hint, with the same seed, is the same in both, so it can tell nothing of them."""
    from boardlab.server import ai
    from tests.server.test_security import HMDG, MOVES_A, MOVES_B

    # After six moves seat 1 is to move; seat 0 has hidden two stones, on different points in each game.
    hints = [ai.analyse(ai.Job("hmdg", HMDG, None, moves[:6], 1, ai.HINT_AGENT, seed=7))
             for moves in (MOVES_A, MOVES_B)]
    assert hints[0]["candidates"] and hints[0] == hints[1]
    # Seat 0's own hint knows its stones, so the two games may differ for it; both are its legal moves.
    state = boardlab.load("hmdg", **HMDG).new_game()
    for move in MOVES_A:
        state = state.play(move)
    own = ai.analyse(ai.Job("hmdg", HMDG, None, MOVES_A, 0, ai.HINT_AGENT, seed=7))
    assert {c["move"] for c in own["candidates"]} <= {m.text for m in state.view(0).legal_moves()}


def test_a_hint_says_how_its_values_were_searched_visits_or_plies(sqlite_api: Api) -> None:
    # Monte Carlo tree search counts visits; alpha-beta (GTBM's search) counts no visits, and says how
    # many plies ahead it looked instead of showing "0 visits" (issue 29).
    api = sqlite_api
    game_id, _, _, both = _guests(api)
    mcts = api.client.post(f"/api/games/{game_id}/hint", json={"seat": 0}, headers=both).json()["candidates"]
    assert all(c["visits"] > 0 and c["depth"] is None for c in mcts)
    created = api.client.post("/api/games", json={"game": "gtbm", "options": {"size": 4},
                                                  "seats": [{"kind": "guest"}, {"kind": "guest"}]})
    assert created.status_code == 201, created.text
    body = created.json()
    tokens = {"X-Seat-Token": f"{body['invitations']['0']},{body['invitations']['1']}"}
    hint = api.client.post(f"/api/games/{body['game']['id']}/hint", json={"seat": 0}, headers=tokens)
    assert hint.status_code == 200, hint.text
    searched = hint.json()["candidates"]
    assert searched and all(c["visits"] == 0 and c["depth"] >= 1 for c in searched)
    assert searched[0]["value"] is not None
