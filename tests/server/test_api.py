"""The server's API through httpx against the app: accounts, challenges, moves, draws, takebacks,
records, lists, clocks and timeouts, the computer's seats."""

from __future__ import annotations

import pytest

import boardlab
from boardlab import records
from boardlab.server import accounts
from boardlab.server.schemas import GameOut
from tests.server.conftest import PASSWORD, Api, wait_for

SMALL = {"size": 3, "length": 3}


# -- accounts -------------------------------------------------------------------------------------


def test_register_login_cookie_and_logout(sqlite_api: Api) -> None:
    client = sqlite_api.client
    assert client.post("/api/register", json={"name": "ann", "password": PASSWORD}).status_code == 201
    assert client.get("/api/me").json()["name"] == "ann"  # the session cookie
    client.cookies.clear()
    assert client.get("/api/me").status_code == 401
    taken = client.post("/api/register", json={"name": "ANN", "password": PASSWORD})
    assert taken.status_code == 409 and "taken" in taken.json()["detail"]
    bad_name = client.post("/api/register", json={"name": "a b", "password": PASSWORD})
    assert bad_name.status_code == 422 and "accepted" in bad_name.json()["detail"]
    token = client.post("/api/login", json={"name": "ann", "password": PASSWORD, "kind": "api"}).json()["token"]
    assert "set-cookie" not in client.post("/api/login", json={"name": "ann", "password": PASSWORD,
                                                               "kind": "api"}).headers
    headers = {"Authorization": f"Bearer {token}"}
    assert client.get("/api/me", headers=headers).json()["name"] == "ann"
    assert client.post("/api/logout", headers=headers).status_code == 204
    assert client.get("/api/me", headers=headers).status_code == 401


def test_passwords_are_argon2_hashes_and_tokens_are_stored_hashed(sqlite_api: Api) -> None:
    headers = sqlite_api.user("ann")
    service = sqlite_api.client.app.state.service  # type: ignore[union-attr]
    from sqlalchemy import select

    from boardlab.server.models import Token, User

    with service.db.read() as session:
        user = session.scalar(select(User))
        stored = list(session.scalars(select(Token.token_hash)))
    assert user.password_hash.startswith("$argon2id$") and PASSWORD not in user.password_hash
    token = headers["Authorization"].split()[1]
    assert token not in stored and accounts.token_hash(token) in stored


def test_failed_logins_are_rate_limited(sqlite_api: Api) -> None:
    sqlite_api.user("ann")
    client = sqlite_api.client
    for _ in range(accounts.FAILURES_ALLOWED):
        assert client.post("/api/login", json={"name": "ann", "password": "wrong guess"}).status_code == 401
    refused = client.post("/api/login", json={"name": "ann", "password": PASSWORD})
    assert refused.status_code == 429 and "too many" in refused.json()["detail"]
    assert int(refused.headers["retry-after"]) > 0


# -- the catalogue ----------------------------------------------------------------------------------


def test_catalog_lists_every_game_with_its_declared_options(sqlite_api: Api) -> None:
    catalog = sqlite_api.client.get("/api/catalog").json()
    assert [g["id"] for g in catalog] == [i.id for i in boardlab.games()]
    mynd = next(g for g in catalog if g["id"] == "mynd")
    assert mynd["players"] == [2, 3, 4]
    hmdg = sqlite_api.client.get("/api/catalog/hmdg").json()
    setup = next(o for o in hmdg["options"] if o["name"] == "setup")
    assert setup["default"] == "pie" and setup["choices"] == ["pie", "fixed"] and setup["ambiguity"] == "H7"
    assert "fixed" in setup["choice_help"] and hmdg["perfect_information"] is False
    assert sqlite_api.client.get("/api/catalog/chess").status_code == 422
    assert "level5" in sqlite_api.client.get("/api/agents").json()["agents"]


# -- challenges ------------------------------------------------------------------------------------


def test_bad_options_and_seats_are_422_saying_what_is_accepted(sqlite_api: Api) -> None:
    headers = sqlite_api.user("ann")
    post = sqlite_api.client.post
    cases = [
        ({"game": "ndengrod", "options": {"size": 99}}, "accepted: an integer from 2 to 12"),
        ({"game": "ndengrod", "options": {"colour": "red"}}, "accepted: size, length"),
        ({"game": "chess"}, "accepted: ndengrod"),
        ({"game": "ndengrod", "variant": "nope"}, "pentalath"),
        ({"game": "ndengrod", "seats": [{"kind": "me"}]}, "has 2 seats"),
        ({"game": "ndengrod", "seats": [{"kind": "me"}, {"kind": "ai", "agent": "level9"}]}, "unknown agent"),
        ({"game": "ndengrod", "seats": [{"kind": "ai"}, {"kind": "ai"}]}, "for a person"),
    ]
    for body, expected in cases:
        response = post("/api/games", json=body, headers=headers)
        assert response.status_code == 422, (body, response.text)
        assert expected in response.json()["detail"], (body, response.json())
    missing = post("/api/games", json={"game": "ndengrod", "seats": [{"kind": "me"}, {"kind": "user", "user": "zed"}]},
                   headers=headers)
    assert missing.status_code == 404 and "zed" in missing.json()["detail"]


def test_challenge_accept_decline_and_open_challenges(sqlite_api: Api) -> None:
    api = sqlite_api
    created = api.game("ann", "ndengrod", [{"kind": "me"}, {"kind": "user", "user": "bob"}], SMALL)["game"]
    assert created["status"] == "challenge" and created["seats"][1]["accepted"] is False
    bob_games = api.client.get("/api/my/games", headers=api.user("bob")).json()
    assert bob_games[0]["id"] == created["id"] and bob_games[0]["invited"] is True
    assert api.client.post(f"/api/games/{created['id']}/accept", headers=api.user("cat")).status_code == 403
    assert api.accept("bob", created["id"])["status"] == "active"

    declined = api.game("ann", "ndengrod", [{"kind": "me"}, {"kind": "user", "user": "bob"}], SMALL)["game"]
    assert api.client.post(f"/api/games/{declined['id']}/decline", headers=api.user("cat")).status_code == 403
    response = api.client.post(f"/api/games/{declined['id']}/decline", headers=api.user("bob"))
    assert response.json()["status"] == "declined"

    opened = api.game("ann", "mynd", [{"kind": "me"}, {"kind": "open"}, {"kind": "open"}], {"players": 3})["game"]
    lobby = api.client.get("/api/lobby").json()
    assert [g["id"] for g in lobby["open_challenges"]] == [opened["id"]]
    assert api.client.post(f"/api/games/{opened['id']}/accept", headers=api.user("ann")).status_code == 403
    assert api.accept("bob", opened["id"])["status"] == "challenge"
    started = api.accept("cat", opened["id"])
    assert started["status"] == "active" and [s["name"] for s in started["seats"]] == ["ann", "bob", "cat"]


# -- moves ------------------------------------------------------------------------------------------


def test_moves_stale_forbidden_illegal_and_the_record(api: Api) -> None:
    game_id = api.pair("ndengrod", SMALL)
    assert api.move("ann", game_id, "b2", ply=0).status_code == 201
    stale = api.move("bob", game_id, "a1", ply=0)
    assert stale.status_code == 409 and "ply 1" in stale.json()["detail"]
    assert api.move("ann", game_id, "a1", ply=1).status_code == 403  # bob's turn
    assert api.move("cat", game_id, "a1", ply=1).status_code == 403  # not a player
    assert api.client.post(f"/api/games/{game_id}/moves", json={"ply": 1, "move": "a1"}).status_code == 401
    illegal = api.move("bob", game_id, "b2", ply=1)
    assert illegal.status_code == 422 and illegal.json()["detail"] == "b2: b2 is occupied"
    gibberish = api.move("bob", game_id, "zz99", ply=1)
    assert gibberish.status_code == 422 and "zz99" in gibberish.json()["detail"]
    after = api.move("bob", game_id, "a1", ply=1).json()
    assert after["ply"] == 2 and [m["text"] for m in after["view"]["moves"]] == ["b2", "a1"]
    assert after["view"]["to_move"] == 0 and after["your_seats"] == [1]
    assert after["view"]["legal_moves"] == []  # bob's view: it is ann's turn
    ann_view = api.show(game_id, "ann")["view"]
    assert "a2" in ann_view["legal_moves"] and ann_view["move_steps"] == {}
    earlier = api.show(game_id, "ann", ply=1)["view"]
    assert [m["text"] for m in earlier["moves"]] == ["b2"] and earlier["ply"] == 1
    record = records.from_dict(api.client.get(f"/api/games/{game_id}/record").json())
    assert record.moves == ["b2", "a1"] and record.perspective == "spectator"


def test_each_answer_is_its_model_written_whole_with_every_move_listed_once(sqlite_api: Api) -> None:
    """An answer's move list is written from the answer before's (views.game_json): byte for byte what its
    model writes, each move listed once and in order as the seat knows it, under perfect information and
    hidden (where each seat's list is its own), at the position now and at an earlier one."""
    api = sqlite_api
    names = ["ann", "bob"]
    for game, options in (("ndengrod", SMALL), ("hmdg", {"setup": "fixed"})):
        game_id = api.pair(game, options)
        for ply in range(10):
            now = api.show(game_id, "ann")
            if now["status"] != "active":
                break
            mover = names[now["to_move"]]
            view = api.show(game_id, mover)
            made = api.move(mover, game_id, view["view"]["legal_moves"][ply % len(view["view"]["legal_moves"])],
                            ply=ply)
            assert made.status_code == 201, made.text
            for name, at in ((mover, None), (names[1 - names.index(mover)], None), (None, None), (mover, ply)):
                written = made if at is None and name == mover else api.client.get(
                    f"/api/games/{game_id}", headers=api.user(name) if name else {},
                    params={} if at is None else {"ply": at})
                assert written.content == GameOut.model_validate_json(written.content).model_dump_json().encode()
                listed = written.json()["view"]["moves"]
                assert [m["ply"] for m in listed] == list(range(ply + 1 if at is None else at))
                record = api.client.get(f"/api/games/{game_id}/record", headers=api.user(name) if name else {})
                assert [m["text"] for m in listed] == record.json()["moves"][:len(listed)], (game, name, at)


def test_a_game_played_to_its_end_gives_the_referees_record(api: Api) -> None:
    game_id = api.pair("ndengrod", {"size": 2, "length": 2})
    state = boardlab.load("ndengrod", size=2, length=2).new_game()
    names = ["ann", "bob"]
    while not state.is_over:
        move = state.legal_moves()[0].text
        assert api.move(names[state.to_move], game_id, move, ply=len(state.history())).status_code == 201
        state = state.play(move)
    final = api.show(game_id)
    assert final["status"] == "finished" and final["result"] == list(state.result)
    assert final["termination"] == "rules" and final["deadline"] is None
    record = records.from_dict(api.client.get(f"/api/games/{game_id}/record").json())
    assert record.perspective is None and record.replay() == state and record.players == names
    assert api.move("ann", game_id, "a1", ply=len(state.history())).status_code == 409


def test_resign_and_draw_by_agreement(sqlite_api: Api) -> None:
    api = sqlite_api
    game_id = api.pair("ndengrod", SMALL)
    offer = api.client.post(f"/api/games/{game_id}/draw", json={"action": "offer"}, headers=api.user("ann")).json()
    assert offer["draw_offers"] == [0] and offer["status"] == "active"
    assert api.client.post(f"/api/games/{game_id}/draw", json={"action": "accept"},
                           headers=api.user("ann")).status_code == 409  # your own offer
    drawn = api.client.post(f"/api/games/{game_id}/draw", json={"action": "accept"}, headers=api.user("bob")).json()
    assert drawn["status"] == "finished" and drawn["result"] == [0.5, 0.5] and drawn["termination"] == "agreement"

    game_id = api.pair("ndengrod", SMALL)
    assert api.client.post(f"/api/games/{game_id}/resign", headers=api.user("cat")).status_code == 403
    resigned = api.client.post(f"/api/games/{game_id}/resign", headers=api.user("bob")).json()
    assert resigned["result"] == [1.0, 0.0] and resigned["termination"] == "resignation" and resigned["loser"] == 1
    assert resigned["view"]["description"] == "Game over: ann (x) won (bob (o) resigned)."
    assert resigned["outcome"] == "ann (x) won (bob (o) resigned)"
    assert drawn["outcome"] == "Draw by agreement"
    record = api.client.get(f"/api/games/{game_id}/record").json()
    assert record["termination"] == "resignation" and record["tags"]["loser"] == "seat 1"


def test_takeback_asked_granted_and_declined(sqlite_api: Api) -> None:
    api = sqlite_api
    game_id = api.pair("ndengrod", SMALL)
    api.move("ann", game_id, "b2", ply=0)
    api.move("bob", game_id, "a1", ply=1)
    asked = api.client.post(f"/api/games/{game_id}/undo", json={"action": "request"}, headers=api.user("bob")).json()
    assert asked["undo_request"] == 1 and asked["ply"] == 2
    assert api.client.post(f"/api/games/{game_id}/undo", json={"action": "grant"},
                           headers=api.user("bob")).status_code == 403
    granted = api.client.post(f"/api/games/{game_id}/undo", json={"action": "grant"}, headers=api.user("ann")).json()
    assert granted["ply"] == 1 and granted["to_move"] == 1 and granted["undo_request"] is None
    assert api.move("bob", game_id, "c3", ply=1).status_code == 201
    api.client.post(f"/api/games/{game_id}/undo", json={"action": "request"}, headers=api.user("ann"))
    declined = api.client.post(f"/api/games/{game_id}/undo", json={"action": "decline"}, headers=api.user("bob"))
    assert declined.json()["undo_request"] is None and declined.json()["ply"] == 2
    record = records.from_dict(api.client.get(f"/api/games/{game_id}/record").json())
    assert record.moves == ["b2", "c3"]


def test_upload_a_record_to_continue_it(sqlite_api: Api) -> None:
    api = sqlite_api
    state = boardlab.load("ndengrod", **SMALL).new_game().play("b2").play("a1")
    record = records.GameRecord.from_state(state, players=["x", "y"]).to_dict()
    created = api.client.post("/api/games", json={"record": record, "seats": [{"kind": "me"}, {"kind": "me"}]},
                              headers=api.user("ann")).json()["game"]
    assert created["status"] == "active" and created["ply"] == 2 and created["your_seats"] == [0, 1]
    assert [m["text"] for m in created["view"]["moves"]] == ["b2", "a1"]
    assert api.move("ann", created["id"], "c3", ply=2).status_code == 201  # analysis: ann holds both seats
    tampered = dict(record, moves=["b2", "b2"])
    refused = api.client.post("/api/games", json={"record": tampered}, headers=api.user("ann"))
    assert refused.status_code == 422 and "b2 is occupied" in refused.json()["detail"]


def test_an_uploaded_resigned_game_keeps_who_resigned(sqlite_api: Api) -> None:
    api = sqlite_api
    state = boardlab.load("ndengrod", **SMALL).new_game().play("b2").play("a1")
    record = records.GameRecord.from_state(state, players=["x", "y"]).to_dict()
    record.update(result=[1, 0], termination="resignation")
    created = api.client.post("/api/games", json={"record": record, "seats": [{"kind": "me"}, {"kind": "me"}]},
                              headers=api.user("ann")).json()["game"]
    assert created["status"] == "finished" and created["termination"] == "resignation"
    assert created["loser"] == 1


# -- lists ------------------------------------------------------------------------------------------


def test_my_games_put_those_waiting_for_me_first(api: Api) -> None:
    waiting_for_bob = api.pair("ndengrod", SMALL)
    api.move("ann", waiting_for_bob, "b2", ply=0)
    waiting_for_ann = api.pair("ndengrod", SMALL)
    mine = api.client.get("/api/my/games", headers=api.user("ann")).json()
    assert [g["id"] for g in mine] == [waiting_for_ann, waiting_for_bob]
    assert [g["your_turn"] for g in mine] == [True, False]
    lobby = api.client.get("/api/lobby", headers=api.user("bob")).json()
    assert [g["id"] for g in lobby["my_games"]] == [waiting_for_bob, waiting_for_ann]
    assert {g["id"] for g in lobby["watch"]} == {waiting_for_ann, waiting_for_bob}


# -- time -------------------------------------------------------------------------------------------


def test_live_clocks_and_timeout_decided_by_the_sweep(db_url: str, frozen_clock: object) -> None:
    from fastapi.testclient import TestClient

    from boardlab.server.app import create_app
    from tests.server.conftest import settings_for

    clock = frozen_clock
    with TestClient(create_app(settings_for(db_url))) as client:
        api = Api(client)
        game_id = api.pair("ndengrod", SMALL, time={"kind": "live", "minutes": 1, "increment": 2})
        clock.advance(10)  # type: ignore[attr-defined]
        after = api.move("ann", game_id, "b2", ply=0).json()
        assert after["clocks"][0]["remaining_seconds"] == pytest.approx(52)  # 60 - 10 + 2
        assert after["clocks"][1]["running"] is True
        clock.advance(59)  # type: ignore[attr-defined]
        service = client.app.state.service  # type: ignore[attr-defined]
        assert service.sweep() == 0
        assert api.show(game_id)["clocks"][1]["remaining_seconds"] == pytest.approx(1)
        clock.advance(2)  # type: ignore[attr-defined]
        assert service.sweep() == 1
        assert service.sweep() == 0  # finished once
        over = api.show(game_id)
        assert over["status"] == "finished" and over["termination"] == "timeout" and over["result"] == [1.0, 0.0]
        assert over["loser"] == 1
        late = api.move("bob", game_id, "a1", ply=1)
        assert late.status_code == 409


def test_correspondence_deadline_and_a_move_after_it(sqlite_api: Api, frozen_clock: object) -> None:
    api = sqlite_api
    game_id = api.pair("ndengrod", SMALL, time={"kind": "correspondence", "days": 2})
    game = api.show(game_id)
    assert game["time"]["description"] == "correspondence, 2 days a move"
    frozen_clock.advance(2 * 86400 + 1)  # type: ignore[attr-defined]
    late = api.move("ann", game_id, "b2", ply=0)  # nobody swept yet: the move itself finds the time is up
    assert late.status_code == 409 and "ran out of time" in late.json()["detail"]
    assert api.show(game_id)["termination"] == "timeout"


# -- the computer -----------------------------------------------------------------------------------


def test_the_computer_answers_and_a_guest_plays_without_an_account(sqlite_api: Api) -> None:
    api = sqlite_api
    created = api.client.post("/api/games", json={"game": "ndengrod", "options": SMALL,
                                                  "seats": [{"kind": "guest"}, {"kind": "ai", "agent": "random"}]})
    assert created.status_code == 201
    body = created.json()
    token = body["invitations"]["0"]
    assert body["links"]["0"].endswith(f"/games/{body['game']['id']}?seat_token={token}")
    game_id = body["game"]["id"]
    guest = {"X-Seat-Token": token}
    assert body["game"]["your_seats"] == [0] and body["game"]["can_hint"] is True
    moved = api.client.post(f"/api/games/{game_id}/moves", json={"ply": 0, "move": "b2"}, headers=guest)
    assert moved.status_code == 201
    answered = wait_for(lambda: (g := api.client.get(f"/api/games/{game_id}", headers=guest).json())["ply"] == 2 and g)
    assert answered["to_move"] == 0 and answered["view"]["moves"][1]["seat"] == 1
    hint = api.client.post(f"/api/games/{game_id}/hint", headers=guest)
    assert hint.status_code == 200, hint.text
    legal = set(answered["view"]["legal_moves"])
    assert 1 <= len(hint.json()["candidates"]) <= 3 and {c["move"] for c in hint.json()["candidates"]} <= legal
    assert api.client.post(f"/api/games/{game_id}/hint").status_code in (401, 403)
    undone = api.client.post(f"/api/games/{game_id}/undo", json={"action": "request"}, headers=guest).json()
    assert undone["ply"] == 0  # against the computer alone a takeback is granted at once


def test_the_computer_picks_its_turn_up_after_a_restart(sqlite_url: str) -> None:
    from fastapi.testclient import TestClient

    from boardlab.server.app import create_app
    from tests.server.conftest import settings_for

    with TestClient(create_app(settings_for(sqlite_url))) as client:
        api = Api(client)
        game = api.game("ann", "ndengrod", [{"kind": "ai", "agent": "random"}, {"kind": "me"}], SMALL)["game"]
        service = client.app.state.service  # type: ignore[attr-defined]
        wait_for(lambda: api.show(game["id"])["ply"] == 1)
        api.move("ann", game["id"], api.show(game["id"], "ann")["view"]["legal_moves"][0], ply=1)
        service.ai.shutdown()  # the server stops before the computer's answer is stored
    with TestClient(create_app(settings_for(sqlite_url, sweep_seconds=0.1).with_(background=True))) as client:
        api = Api(client)
        wait_for(lambda: api.show(game["id"])["ply"] == 3)
