"""The record of a finished Hidden Move Double Gomoku game follows the rules' ``reveal_at_end`` for every
viewer: what the rules reveal at the end is shown to everybody; a hidden stone they do not reveal stays
hidden except to its owner, however the game ended (docs/rules/hmdg.md, "After the game")."""

from __future__ import annotations

import random
from typing import Any

import boardlab
from boardlab import records
from boardlab.core.state import State
from tests.server.conftest import Api

HMDG = {"setup": "fixed", "size": 5, "line_length": 3}
# Two games that differ only in where seat 0 (o) hides its stones (a1, b1 against a2, b2); seat 1 (x)
# hides e5 and d5 in both. Everything seat 1 and spectators may know of seat 0 is the same in both.
MOVES_A = ["a1/row", "none", "e5/row", "none", "b1/row", "none", "d5/col", "none"]
MOVES_B = ["a2/row", "none", "e5/row", "none", "b2/row", "none", "d5/col", "none"]
SEAT_0_COMMITS = {"a1/row", "b1/row", "a2/row", "b2/row"}
SEAT_1_COMMITS = {"e5/row", "d5/col"}


def played(api: Api, moves: list[str], options: dict[str, Any] | None = None) -> int:
    game_id = api.pair("hmdg", {**HMDG, **(options or {})})
    for ply, move in enumerate(moves):
        mover = api.show(game_id)["to_move"]
        response = api.move("ann" if mover == 0 else "bob", game_id, move, ply=ply)
        assert response.status_code == 201, response.text
    return game_id


def end(api: Api, game_id: int, how: str, who: str) -> None:
    if how == "resign":
        response = api.client.post(f"/api/games/{game_id}/resign", headers=api.user(who))
    else:
        response = api.client.post(f"/api/games/{game_id}/draw", json={"action": "offer"}, headers=api.user(who))
        assert response.status_code == 200, response.text
        other = "bob" if who == "ann" else "ann"
        response = api.client.post(f"/api/games/{game_id}/draw", json={"action": "accept"}, headers=api.user(other))
    assert response.status_code == 200 and response.json()["status"] == "finished", response.text


def record(api: Api, game_id: int, who: str | None) -> dict[str, Any]:
    response = api.client.get(f"/api/games/{game_id}/record", headers=api.user(who) if who else {})
    assert response.status_code == 200, response.text
    return response.json()  # type: ignore[no-any-return]


def told(data: dict[str, Any]) -> tuple[Any, ...]:
    """What a record tells of the game (not its dates, which differ between two games)."""
    return data.get("perspective"), data["moves"], data["result"], data["termination"], data["tags"].get("loser")


def test_the_losers_hidden_stones_stay_hidden_after_a_resignation(api: Api) -> None:
    """The issue's case: seat 0 resigns; seat 1 and spectators must not learn where its stones were."""
    games = []
    for moves in (MOVES_A, MOVES_B):
        game_id = played(api, moves)
        end(api, game_id, "resign", "ann")
        games.append(game_id)
    for who in ("bob", None):
        a, b = (record(api, game_id, who) for game_id in games)
        assert told(a) == told(b), who  # nothing of seat 0's hidden stones
        assert not SEAT_0_COMMITS & set(a["moves"]), (who, a["moves"])
        assert set(a["moves"]) >= SEAT_1_COMMITS  # the winner's, revealed at the end
    assert record(api, games[0], "bob")["perspective"] == "seat 1"
    assert record(api, games[0], None)["perspective"] == "spectator"
    own = record(api, games[0], "ann")  # seat 0 knows its own stones, and the winner's are revealed: all of it
    assert "perspective" not in own and records.from_dict(own).replay().to_move is not None


def test_the_winners_stones_are_revealed_to_everybody(api: Api) -> None:
    game_id = played(api, MOVES_A)
    end(api, game_id, "resign", "bob")
    spectator = record(api, game_id, None)
    assert {"a1/row", "b1/row"} <= set(spectator["moves"]) and not SEAT_1_COMMITS & set(spectator["moves"])
    assert spectator["result"] == [1.0, 0.0] and spectator["tags"]["loser"] == "seat 1"
    assert spectator["termination"] == "resignation" and spectator["seed"] is None
    # The loser knows its own stones and is shown the winner's: the referee's full record, which replays.
    losers = record(api, game_id, "bob")
    assert "perspective" not in losers and records.from_dict(losers).moves == MOVES_A


def test_reveal_at_end_all_shows_everybody_everything(api: Api) -> None:
    game_id = played(api, MOVES_A, {"reveal_at_end": "all"})
    end(api, game_id, "resign", "ann")
    for who in (None, "bob", "ann"):
        full = record(api, game_id, who)
        assert "perspective" not in full and full["moves"] == MOVES_A, who
        assert records.from_dict(full).replay().ply == len(MOVES_A)


def test_a_draw_reveals_nothing_and_who_holds_every_seat_knows_everything(api: Api) -> None:
    game_id = played(api, MOVES_A)
    end(api, game_id, "draw", "ann")
    spectator = record(api, game_id, None)
    assert not (SEAT_0_COMMITS | SEAT_1_COMMITS) & set(spectator["moves"])
    assert spectator["result"] == [0.5, 0.5] and spectator["termination"] == "agreement"
    ann, bob = record(api, game_id, "ann"), record(api, game_id, "bob")
    assert {"a1/row", "b1/row"} <= set(ann["moves"]) and not SEAT_1_COMMITS & set(ann["moves"])
    assert set(bob["moves"]) >= SEAT_1_COMMITS and not SEAT_0_COMMITS & set(bob["moves"])
    # A hot-seat table holds both seats: it gets the referee's record.
    table = api.client.post("/api/games", json={"game": "hmdg", "options": HMDG,
                                                 "seats": [{"kind": "guest"}, {"kind": "guest"}]}).json()
    both = {"X-Seat-Token": ",".join(table["invitations"].values())}
    table_id = table["game"]["id"]
    for ply, move in enumerate(MOVES_A):
        assert api.client.post(f"/api/games/{table_id}/moves", json={"ply": ply, "move": move},
                               headers=both).status_code == 201
    api.client.post(f"/api/games/{table_id}/draw", json={"action": "offer"}, headers=both)
    full = api.client.get(f"/api/games/{table_id}/record", headers=both).json()
    assert "perspective" not in full and full["moves"] == MOVES_A
    assert api.client.get(f"/api/games/{table_id}/record").json()["perspective"] == "spectator"


def game_won_by_lines_with_hidden_stones_left() -> State:
    """A game (random, seeded) that the rules end by lines while the loser still has a hidden stone."""
    game = boardlab.load("hmdg", **HMDG)
    for seed in range(500):
        rng = random.Random(seed)
        state = game.new_game()
        while not state.is_over:
            state = state.play(rng.choice(state.legal_moves()))
        if state.end_reason != "lines":
            continue
        loser = state.result.index(0.0) if state.result else None
        if loser is not None and any(c.pieces and any(p.seat == loser and p.kind == "hidden" for p in c.pieces)
                                     for c in game.cell_contents(state.view(loser))):
            return state
    raise AssertionError("no such game in 500 seeds")


def test_a_game_won_by_lines_keeps_the_losers_hidden_stones_hidden(api: Api) -> None:
    state = game_won_by_lines_with_hidden_stones_left()
    moves = [m.text for m in state.history()]
    game_id = played(api, moves)
    assert api.show(game_id)["status"] == "finished" and api.show(game_id)["termination"] == "rules"
    assert state.result is not None
    loser = state.result.index(0.0)
    referee = records.GameRecord.from_state(state)
    theirs = {m.text for m, mover in zip(state.history(), records.movers(state), strict=True)
              if mover == loser and m.text not in {v.text for v in state.view(1 - loser).history()}}
    assert theirs, "the loser made no move the winner could not read"
    for who in (None, ["ann", "bob"][1 - loser]):
        shown = record(api, game_id, who)
        assert shown["perspective"] in ("spectator", f"seat {1 - loser}")
        assert not theirs & set(shown["moves"]), (who, theirs)
        assert shown["result"] == list(state.result)
    assert record(api, game_id, ["ann", "bob"][loser])["moves"] == referee.moves  # its owner knows all


def test_no_hints_after_the_end_where_a_hidden_stone_stays_hidden(api: Api) -> None:
    game_id = played(api, MOVES_A)
    end(api, game_id, "resign", "ann")
    for who in (None, "bob"):
        headers = api.user(who) if who else {}
        assert not api.client.get(f"/api/games/{game_id}", params={"ply": 4}, headers=headers).json()["can_hint"]
        refused = api.client.post(f"/api/games/{game_id}/hint", json={"ply": 4}, headers=headers)
        assert refused.status_code == 403 and "hidden stone" in refused.json()["detail"], who
    # Seat 0 knows its own stones, and seat 1's were revealed: its full record is its, and so are hints.
    assert api.show(game_id, "ann", ply=4)["can_hint"]
    # With every stone revealed at the end, the record is everybody's, and so are hints.
    shown = played(api, MOVES_A, {"reveal_at_end": "all"})
    end(api, shown, "resign", "ann")
    assert api.client.get(f"/api/games/{shown}", params={"ply": 4}).json()["can_hint"]
