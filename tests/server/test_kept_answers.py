"""The parts of an answer made once for their values and shared (boardlab.server.views: seats, time control,
move list entries) are what a model made afresh from the game as stored says, as the game changes: a
challenge accepted, labels that change with a side choice (HMDG), ratings at the start and end of a rated
game, clocks of every kind."""

from __future__ import annotations

from typing import Any

from boardlab.server import play, positions
from boardlab.server.models import Game as GameRow
from boardlab.server.repository import get_game
from boardlab.server.schemas import GameOut, SeatOut, TimeOut
from tests.server.conftest import Api


def _expected(api: Api, game_id: int, seat: int | None) -> dict[str, Any]:
    """The seats and time control of the game as stored, made afresh (no shared model), from ``seat``'s view."""
    service = api.client.app.state.service  # type: ignore[union-attr]
    with service.db.read() as session:
        row: GameRow = get_game(session, game_id)
        state = positions.current_state(session, row, service.cache)
        game = positions.game_of(row)
        view = state.view(seat)
        control = play.time_control(row)
        seats = [SeatOut(seat=s.seat, kind=s.kind, name=play.seat_name(s), accepted=s.accepted,
                         label=game.seat_label(view.data, s.seat), rating=s.rating, rating_change=s.rating_change)
                 for s in row.seats]
        time = TimeOut(kind=control.kind, description=control.describe(), days_per_move=control.days_per_move,
                       minutes=None if control.base_seconds is None else control.base_seconds / 60,
                       increment=control.increment_seconds)
    return {"seats": [s.model_dump(mode="json") for s in seats], "time": time.model_dump(mode="json")}


def _check(api: Api, game_id: int, answer: dict[str, Any], seat: int) -> None:
    GameOut.model_validate(answer)
    assert {"seats": answer["seats"], "time": answer["time"]} == _expected(api, game_id, seat)


def test_seats_and_time_as_stored_through_a_game(sqlite_api: Api) -> None:
    api = sqlite_api
    names = ["ann", "bob"]
    games = [("hmdg", {}, {}), ("ndengrod", {"size": 3, "length": 3}, {"rated": True}),
             ("ndengrod", {"size": 3, "length": 3}, {"time": {"kind": "live", "minutes": 5, "increment": 3}}),
             ("ndengrod", {"size": 3, "length": 3}, {"time": {"kind": "correspondence", "days": 2}})]
    labels_seen: dict[str, set[tuple[str, ...]]] = {}
    for game, options, more in games:
        created = api.game("ann", game, [{"kind": "me"}, {"kind": "user", "user": "bob"}], options, **more)
        game_id = created["game"]["id"]
        _check(api, game_id, created["game"], 0)  # a challenge: bob's seat not accepted yet
        _check(api, game_id, api.accept("bob", game_id), 1)
        for ply in range(12):
            shown = api.show(game_id, "ann")
            _check(api, game_id, shown, 0)
            _check(api, game_id, api.show(game_id, "bob"), 1)
            labels_seen.setdefault(game, set()).add(tuple(s["label"] for s in shown["seats"]))
            if shown["status"] != "active":
                break
            mover = shown["to_move"]
            legal = api.show(game_id, names[mover])["view"]["legal_moves"]
            made = api.move(names[mover], game_id, legal[ply % len(legal)], ply=ply)
            assert made.status_code == 201, made.text
            _check(api, game_id, made.json(), mover)
        if api.show(game_id, "ann")["status"] == "active":
            resigned = api.client.post(f"/api/games/{game_id}/resign", headers=api.user("ann"))
            assert resigned.status_code == 200, resigned.text
            _check(api, game_id, resigned.json(), 0)
            _check(api, game_id, api.show(game_id, "bob"), 1)
    assert len(labels_seen["hmdg"]) >= 2  # HMDG's seats renamed by its side choice
