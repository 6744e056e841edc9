"""People on the server: Unicode names and look-alikes, passwords changed and reset by e-mail (a real
SMTP server, aiosmtpd), Glicko-2 ratings at the end of rated games, rematches, which games are listed
to watch, the archive's filters and pages, untimed games against the computer, guest games expiring."""

from __future__ import annotations

import math
import re
from typing import Any

from aiosmtpd.controller import Controller
from fastapi.testclient import TestClient

from boardlab.server import glicko2
from boardlab.server.app import create_app
from tests.server.conftest import PASSWORD, Api, free_port, settings_for, wait_for
from tests.server.test_mail import Inbox

SMALL = {"size": 3, "length": 3}


def register(api: Api, name: str, password: str = PASSWORD, **more: Any) -> Any:
    response = api.client.post("/api/register", json={"name": name, "password": password, **more})
    api.client.cookies.clear()
    return response


def test_names_of_any_script_unique_ignoring_case_and_never_a_look_alike(api: Api) -> None:
    for name in ("Zoë", "山田", "ann", "Ελένη"):
        assert register(api, name).status_code == 201, name
    taken = register(api, "ZOË")
    assert taken.status_code == 409 and "taken" in taken.json()["detail"]
    assert register(api, "Zoe\u0308").status_code == 409  # the same name, its accent decomposed (NFKC)
    alike = register(api, "\u0430nn")  # a Cyrillic а, then nn
    assert alike.status_code == 409 and "looks like the name 'ann'" in alike.json()["detail"]
    assert register(api, "Ann").status_code == 409
    for bad, why in (("9lives", "must start with a letter"), ("a b", "neither a letter nor a digit"),
                     ("x", "it has 1 characters"), ("ann\u200b", "neither a letter nor a digit")):
        refused = register(api, bad)
        assert refused.status_code == 422, bad
        assert why in refused.json()["detail"] and "any script" in refused.json()["detail"], refused.json()
    login = api.client.post("/api/login", json={"name": "zoë", "password": PASSWORD})
    assert login.status_code == 200 and login.json()["user"] == "Zoë"


def test_changing_the_password_ends_every_other_session(sqlite_api: Api) -> None:
    api = sqlite_api
    here = api.user("ann")
    elsewhere = api.client.post("/api/login", json={"name": "ann", "password": PASSWORD, "kind": "api"}).json()
    api.client.cookies.clear()
    wrong = api.client.post("/api/password", json={"current": "not it", "new": "a new password"}, headers=here)
    assert wrong.status_code == 401
    assert api.client.post("/api/password", json={"current": PASSWORD, "new": "a new password"},
                           headers=here).status_code == 204
    assert api.client.get("/api/me", headers=here).status_code == 200
    service = api.client.app.state.service  # type: ignore[attr-defined]
    service.accounts._tokens.clear()  # another worker, which never remembered the token
    assert api.client.get("/api/me", headers={"Authorization": f"Bearer {elsewhere['token']}"}).status_code == 401
    assert api.client.post("/api/login", json={"name": "ann", "password": PASSWORD}).status_code == 401
    assert api.client.post("/api/login", json={"name": "ann", "password": "a new password"}).status_code == 200


def test_a_password_is_reset_by_an_emailed_one_time_link(sqlite_url: str) -> None:
    inbox = Inbox()
    port = free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        settings = settings_for(sqlite_url, smtp=f"127.0.0.1:{port}", base_url="http://games.example")
        with TestClient(create_app(settings)) as client:
            api = Api(client)
            api.user("ann", email="ann@example.org")
            api.user("bob")  # no address: no reset for him
            for who in ("ann", "ann@example.org", "bob", "nobody"):
                asked = client.post("/api/password-reset", json={"name_or_email": who})
                assert asked.status_code == 202 and "if an account" in asked.json()["detail"]  # the same for all
            wait_for(lambda: len(inbox.messages) >= 2)
            assert [m["To"] for m in inbox.messages] == ["ann@example.org", "ann@example.org"]
            body = text_of(inbox.messages[0])
            link = re.search(r"http://games\.example/reset#(\S+)", body)
            assert link is not None and "works once, within 60 minutes" in body
            token = link.group(1)
            done = client.post("/api/password-reset/confirm", json={"token": token, "password": "brand new pw"})
            assert done.status_code == 200 and done.json()["user"] == "ann"
            client.cookies.clear()
            again = client.post("/api/password-reset/confirm", json={"token": token, "password": "another pw1"})
            assert again.status_code == 401 and "not valid" in again.json()["detail"]
            assert client.post("/api/login", json={"name": "ann", "password": PASSWORD}).status_code == 401
            assert client.post("/api/login", json={"name": "ann", "password": "brand new pw"}).status_code == 200
            # The other link, sent before, still works once; the session it replaced does not.
            client.cookies.clear()
            second = re.search(r"reset#(\S+)", text_of(inbox.messages[1]))
            assert second is not None
            assert client.post("/api/password-reset/confirm",
                               json={"token": second.group(1), "password": "third password"}).status_code == 200
    finally:
        controller.stop()


def text_of(message: Any) -> str:
    """A message's text as a mail program shows it (quoted-printable decoded)."""
    return str(message.get_payload(decode=True).decode())


def test_no_reset_where_the_server_sends_no_mail(sqlite_api: Api) -> None:
    refused = sqlite_api.client.post("/api/password-reset", json={"name_or_email": "ann"})
    assert refused.status_code == 409 and "sends no e-mail" in refused.json()["detail"]


def test_the_glicko2_papers_example_and_a_volatility_that_solves_its_equation() -> None:
    start = glicko2.Rating(1500, 200, 0.06)
    games = [(glicko2.Rating(1400, 30), 1.0), (glicko2.Rating(1550, 100), 0.0), (glicko2.Rating(1700, 300), 0.0)]
    new = glicko2.update(start, games)
    assert abs(new.rating - 1464.06) < 0.02 and abs(new.deviation - 151.52) < 0.01
    assert abs(new.volatility - 0.05999) < 0.00001
    # Away from 1500 (where a known slip, the rating for the deviation in step 5, would show): the
    # volatility found is the root of the paper's equation, checked directly.
    player = glicko2.Rating(1830, 80, 0.09)
    games = [(glicko2.Rating(1400, 60), 0.0), (glicko2.Rating(2100, 90), 1.0)]
    found = glicko2.update(player, games)
    assert abs(glicko2.volatility_equation(player, games, found.volatility)) < 1e-5
    assert abs(glicko2.volatility_equation(player, games, found.volatility * 1.01)) > 1e-3
    assert math.isclose(glicko2.update(glicko2.Rating(), []).deviation, math.hypot(350, 0.06 * glicko2.SCALE))


def test_a_rated_game_changes_both_ratings_when_it_ends(api: Api) -> None:
    game_id = api.pair("ndengrod", SMALL, rated=True)
    shown = api.show(game_id, "ann")
    assert shown["rated"] and [s["rating"] for s in shown["seats"]] == [1500, 1500]
    ann_first = api.client.post(f"/api/games/{game_id}/resign", headers=api.user("bob")).json()
    expected_ann = glicko2.update(glicko2.Rating(), [(glicko2.Rating(), 1.0)]).rating
    expected_bob = glicko2.update(glicko2.Rating(), [(glicko2.Rating(), 0.0)]).rating
    changes = [s["rating_change"] for s in ann_first["seats"]]
    assert math.isclose(changes[0], expected_ann - 1500) and math.isclose(changes[1], expected_bob - 1500)
    assert changes[0] > 0 > changes[1]
    # A second rated game starts from the new ratings, and both ratings are used for each update.
    second = api.pair("ndengrod", SMALL, a="bob", b="ann", rated=True)
    assert [round(s["rating"]) for s in api.show(second, "ann")["seats"]] == [round(expected_bob), round(expected_ann)]
    api.client.post(f"/api/games/{second}/draw", json={"action": "offer"}, headers=api.user("bob"))
    api.client.post(f"/api/games/{second}/draw", json={"action": "accept"}, headers=api.user("ann"))
    profile = api.client.get("/api/users/ANN").json()
    (ndengrod,) = profile["ratings"]
    assert ndengrod["games"] == 2 and [p["game_id"] for p in ndengrod["history"]] == [game_id, second]
    first_ann = glicko2.update(glicko2.Rating(), [(glicko2.Rating(), 1.0)])
    first_bob = glicko2.update(glicko2.Rating(), [(glicko2.Rating(), 0.0)])
    assert math.isclose(ndengrod["rating"], glicko2.update(first_ann, [(first_bob, 0.5)]).rating)
    board = api.client.get("/api/leaderboard/ndengrod").json()
    assert [p["name"] for p in board["players"]] == ["ann", "bob"] and board["players"][0]["provisional"]
    # A casual game changes nothing.
    casual = api.pair("ndengrod", SMALL)
    api.client.post(f"/api/games/{casual}/resign", headers=api.user("ann"))
    assert api.client.get("/api/users/ann").json()["ratings"][0]["games"] == 2


def test_games_that_cannot_be_rated_are_refused_as_rated(sqlite_api: Api) -> None:
    api = sqlite_api
    api.user("cat")
    cases = [("ndengrod", [{"kind": "me"}, {"kind": "ai"}], {}, "computer"),
             ("mynd", [{"kind": "me"}, {"kind": "user", "user": "bob"}, {"kind": "user", "user": "cat"}],
              {"players": 3}, "two players"),
             ("ndengrod", [{"kind": "me"}, {"kind": "me"}], {}, "two seats")]
    for game, seats, options, why in cases:
        api.user("bob")
        response = api.client.post("/api/games", json={"game": game, "seats": seats, "options": options,
                                                       "rated": True}, headers=api.user("ann"))
        assert response.status_code == 422 and why in response.json()["detail"], response.json()


def test_a_rematch_swaps_the_seats_and_the_second_request_accepts_it(sqlite_api: Api) -> None:
    api = sqlite_api
    game_id = api.pair("ndengrod", SMALL, rated=True)
    assert api.client.post(f"/api/games/{game_id}/rematch", headers=api.user("bob")).status_code == 409  # in play
    api.client.post(f"/api/games/{game_id}/resign", headers=api.user("ann"))
    assert api.client.post(f"/api/games/{game_id}/rematch", headers=api.user("cat")).status_code == 403
    offered = api.client.post(f"/api/games/{game_id}/rematch", headers=api.user("bob")).json()["game"]
    assert offered["status"] == "challenge" and offered["rated"]
    assert [(s["name"], s["accepted"]) for s in offered["seats"]] == [("bob", True), ("ann", False)]
    assert api.show(game_id)["rematch"] == offered["id"]
    mine = api.client.get("/api/my/games", headers=api.user("ann")).json()
    assert any(g["id"] == offered["id"] and g["invited"] for g in mine)
    # ann presses Rematch too: that is her yes.
    accepted = api.client.post(f"/api/games/{game_id}/rematch", headers=api.user("ann")).json()["game"]
    assert accepted["id"] == offered["id"] and accepted["status"] == "active" and accepted["your_seats"] == [1]
    # Against the computer the rematch starts at once, the person now second.
    solo = api.game("ann", "ndengrod", [{"kind": "me"}, {"kind": "ai", "agent": "random"}], SMALL)["game"]["id"]
    api.client.post(f"/api/games/{solo}/resign", headers=api.user("ann"))
    again = api.client.post(f"/api/games/{solo}/rematch", headers=api.user("ann")).json()["game"]
    assert again["status"] == "active" and [s["kind"] for s in again["seats"]] == ["ai", "user"]


def test_games_to_watch_are_public_games_between_people(sqlite_api: Api) -> None:
    api = sqlite_api
    between = api.pair("ndengrod", SMALL)
    hidden = api.pair("ndengrod", SMALL, private=True)
    solo = api.game("ann", "ndengrod", [{"kind": "me"}, {"kind": "ai"}], SMALL)["game"]
    guest = api.client.post("/api/games", json={"game": "ndengrod", "options": SMALL}).json()["game"]
    links = api.client.post("/api/games", json={"game": "ndengrod", "options": SMALL,
                                                "seats": [{"kind": "guest"}, {"kind": "guest"}]}).json()["game"]
    watched = [g["id"] for g in api.client.get("/api/lobby").json()["watch"]]
    assert watched == [links["id"], between]
    assert hidden not in watched and solo["private"] and guest["private"] and not links["private"]


def test_a_game_against_the_computer_is_untimed_unless_asked(sqlite_api: Api) -> None:
    api = sqlite_api
    guest = api.client.post("/api/games", json={"game": "ndengrod", "options": SMALL}).json()["game"]
    assert guest["time"]["kind"] == "untimed" and guest["deadline"] is None
    timed = api.client.post("/api/games", json={"game": "ndengrod", "options": SMALL,
                                                "time": {"kind": "correspondence", "days": 2}}).json()["game"]
    assert timed["time"]["description"] == "correspondence, 2 days a move" and timed["deadline"] is not None
    people = api.show(api.pair("ndengrod", SMALL))
    assert people["time"]["description"] == "correspondence, 3 days a move"


def test_abandoned_guest_games_expire_and_nothing_else_does(sqlite_api: Api, frozen_clock: Any) -> None:
    api = sqlite_api
    service = api.client.app.state.service  # type: ignore[attr-defined]
    old_guest = api.client.post("/api/games", json={"game": "ndengrod", "options": SMALL}).json()["game"]["id"]
    finished_guest = api.client.post("/api/games", json={"game": "ndengrod", "options": SMALL}).json()
    api.client.post(f"/api/games/{finished_guest['game']['id']}/resign",
                    headers={"X-Seat-Token": finished_guest["invitations"]["0"]})
    users = api.pair("ndengrod", SMALL)
    frozen_clock.advance(6 * 86400)
    recent_guest = api.client.post("/api/games", json={"game": "ndengrod", "options": SMALL}).json()["game"]["id"]
    frozen_clock.advance(2 * 86400)  # the first guest game: 8 days untouched; the last: 2
    service._next_expiry = frozen_clock()
    service.sweep()
    assert api.client.get(f"/api/games/{old_guest}").status_code == 404
    for kept in (finished_guest["game"]["id"], users, recent_guest):
        assert api.client.get(f"/api/games/{kept}").status_code == 200, kept


def test_the_archive_filters_by_player_game_opponent_and_result_a_page_at_a_time(sqlite_api: Api) -> None:
    api = sqlite_api
    won_by_ann = [api.pair("ndengrod", SMALL) for _ in range(21)]
    for game_id in won_by_ann:
        api.client.post(f"/api/games/{game_id}/resign", headers=api.user("bob"))
    with_cat = api.pair("gtbm", {"size": 4}, b="cat")
    api.client.post(f"/api/games/{with_cat}/resign", headers=api.user("ann"))
    drawn = api.pair("ndengrod", SMALL, b="cat")
    api.client.post(f"/api/games/{drawn}/draw", json={"action": "offer"}, headers=api.user("ann"))
    api.client.post(f"/api/games/{drawn}/draw", json={"action": "accept"}, headers=api.user("cat"))
    solo = api.game("ann", "ndengrod", [{"kind": "me"}, {"kind": "ai"}], SMALL)["game"]["id"]
    api.client.post(f"/api/games/{solo}/resign", headers=api.user("ann"))

    def ids(**params: Any) -> tuple[list[int], dict[str, Any]]:
        found = api.client.get("/api/archive", params=params, headers=params.pop("headers", {})).json()
        return [g["id"] for g in found["games"]], found

    first, found = ids(player="ann")
    assert found["total"] == 23 and found["pages"] == 2 and len(first) == 20  # the private game not listed
    second, _ = ids(player="ann", page=2)
    assert len(second) == 3 and not set(first) & set(second)
    assert first[:2] == [drawn, with_cat]  # the latest first
    mine, _ = ids(player="ann", headers=api.user("ann"))
    assert solo in mine  # ann's own archive shows her game against the computer
    assert ids(player="ann", opponent="cat")[0] == [drawn, with_cat]
    assert ids(player="ann", result="lost")[0] == [with_cat]
    assert ids(player="cat", result="won")[0] == [with_cat]
    assert ids(result="drawn")[0] == [drawn]
    assert ids(game="gtbm")[0] == [with_cat]
    lines = ids(player="bob", page=1)[1]["games"]
    assert lines[0]["outcome"] == "ann (x) won (bob (o) resigned)"
    assert api.client.get("/api/archive", params={"player": "nobody"}).status_code == 404
    assert api.client.get("/api/archive", params={"result": "won"}).status_code == 404
    assert api.client.get("/api/archive", params={"game": "chess"}).status_code == 422
