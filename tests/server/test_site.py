"""The server around the games: HTML error pages for page addresses (JSON stays JSON under /api), the
rules prepared at start, the schema migration of an old database (SQLite and PostgreSQL), moves
labelled as they were made (HMDG's side choice), the last move in words."""

from __future__ import annotations

import html
import subprocess
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from sqlalchemy import create_engine, text

from boardlab.core.registry import game_ids
from boardlab.server import migrate
from boardlab.server.names import name_key, skeleton
from boardlab.server.warmup import Warmup
from tests.server.conftest import Api, wait_for

SMALL = {"size": 3, "length": 3}


def test_page_addresses_that_name_nothing_get_an_html_404(sqlite_api: Api) -> None:
    client = sqlite_api.client
    for path, says in (("/games/99999", "there is no game 99999"), ("/games/abc", "there is no page at /games/abc"),
                       ("/rules/foo", "unknown game 'foo'"), ("/nope", "there is no page at /nope"),
                       ("/users/nobody", "no player named 'nobody'")):
        response = client.get(path)
        assert response.status_code == 404, path
        assert response.headers["content-type"].startswith("text/html"), path
        shown = html.unescape(response.text)
        assert "<h1>Not found</h1>" in shown and says in shown, (path, shown[-600:])
        assert "Resign" not in response.text
    for path in ("/api/games/99999", "/api/nope", "/api/games/abc"):
        response = client.get(path)
        assert response.headers["content-type"] == "application/json", path
        assert response.status_code in (404, 422) and "detail" in response.json()
    game_id = sqlite_api.pair("ndengrod", SMALL)
    assert client.get(f"/games/{game_id}").status_code == 200


def test_every_games_rules_are_prepared_in_the_background() -> None:
    searched: list[str] = []
    warmup = Warmup(search=lambda game: searched.append(game) or None)  # type: ignore[func-returns-value]
    assert not any(warmup.ready.values())
    warmup.start()
    wait_for(lambda: all(warmup.ready.values()), timeout=600)
    assert searched == game_ids()


def test_migrate_knows_the_newest_revision() -> None:
    # A database at migrate.HEAD is left alone without importing Alembic: HEAD must be Alembic's head.
    from alembic.script import ScriptDirectory

    assert ScriptDirectory.from_config(migrate.alembic_config("sqlite://")).get_current_head() == migrate.HEAD


def test_nothing_compiles_when_the_server_is_imported() -> None:
    # A cold start answers at once: the search (whose kernel has an explicit signature, compiled when its
    # module is imported) and the games' kernels are imported when first needed, not with the app.
    found = subprocess.run([sys.executable, "-c", "import sys, boardlab.server.app, boardlab.cli.serve; "
                            "print(' '.join(sorted(sys.modules)))"], capture_output=True, text=True, check=True)
    loaded = found.stdout.split()
    assert "boardlab.server.app" in loaded
    assert "boardlab.ai.mcts_kernel" not in loaded and "boardlab.ai.levels" not in loaded
    assert not [name for name in loaded if name.startswith("boardlab.games.") and name.count(".") > 2], loaded


def test_the_status_says_which_rules_are_ready(sqlite_api: Api) -> None:
    ready = sqlite_api.client.get("/api/status").json()["rules_ready"]
    assert ready == dict.fromkeys(game_ids(), True)  # no warm-up in these tests: nothing is said to wait


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_an_old_database_migrates_keeping_its_people_and_games(kind: str, tmp_path: Path, request: Any) -> None:
    if kind == "sqlite":
        url = f"sqlite:///{tmp_path / 'old.db'}"
    else:
        server = request.getfixturevalue("postgres")
        if server.error:
            pytest.skip(f"PostgreSQL tests skipped: {server.error}")
        url = server.new_database()
    engine = create_engine(url)
    config = migrate.alembic_config(url)
    with engine.connect() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0001")
        connection.commit()
        at = datetime(2026, 11, 1)
        for user_id, name in ((1, "ann"), (2, "Bob")):
            connection.execute(text("INSERT INTO users (id, name, name_key, password_hash, created_at) "
                                    "VALUES (:i, :n, :k, 'x', :at)"), {"i": user_id, "n": name, "k": name.lower(),
                                                                        "at": at})
        for game_id, result in ((1, "[1.0, 0.0]"), (2, None)):
            connection.execute(text(
                "INSERT INTO games (id, game, options, rules_version, seed, status, ply, result, termination, "
                "created_at, version, undos, time_control, days_per_move, draw_offers) VALUES (:i, 'ndengrod', "
                "'{}', '1', 1, :s, 0, :r, :t, :at, 1, 0, 'correspondence', 3, '[]')"),
                {"i": game_id, "s": "finished" if result else "active", "r": result,
                 "t": "resignation" if result else None, "at": at})
        seats = [(1, 0, "user", 1), (1, 1, "user", 2), (2, 0, "user", 1), (2, 1, "ai", None)]
        for game_id, seat, seat_kind, user in seats:
            connection.execute(text("INSERT INTO seats (game_id, seat, kind, user_id, accepted) "
                                    "VALUES (:g, :s, :k, :u, true)"), {"g": game_id, "s": seat, "k": seat_kind,
                                                                        "u": user})
        connection.execute(text("INSERT INTO moves (game_id, ply, text, seat, at, seconds) "
                                "VALUES (2, 0, 'b2', 0, :at, 1.5)"), {"at": at})
        connection.execute(text("INSERT INTO tokens (user_id, token_hash, kind, created_at) "
                                "VALUES (2, 'abc', 'api', :at)"), {"at": at})
        connection.commit()
    engine.dispose()
    migrate.upgrade(url)
    assert migrate.current(url) == "0003"  # the newest: 0002 (people), 0003 (search jobs)
    engine = create_engine(url)
    with engine.connect() as connection:
        users = connection.execute(text("SELECT name, name_key, name_skeleton FROM users ORDER BY id")).all()
        assert users == [("ann", name_key("ann"), skeleton("ann")), ("Bob", "bob", skeleton("Bob"))]
        scores = connection.execute(text("SELECT game_id, seat, score FROM seats ORDER BY game_id, seat")).all()
        assert scores == [(1, 0, 1.0), (1, 1, 0.0), (2, 0, None), (2, 1, None)]
        # Nothing that pointed at a table SQLite copied to change it was lost with the old table.
        assert connection.execute(text("SELECT game_id, ply, text FROM moves")).all() == [(2, 0, "b2")]
        assert connection.execute(text("SELECT user_id, token_hash FROM tokens")).all() == [(2, "abc")]
        private = connection.execute(text("SELECT id, private, rated FROM games ORDER BY id")).all()
        assert [(i, bool(p), bool(r)) for i, p, r in private] == [(1, False, False), (2, True, False)]
    engine.dispose()


def test_moves_keep_the_label_they_were_made_under(sqlite_api: Api) -> None:
    """HMDG: seat 0 is A until B chooses a side; the first move stays A's after seat 0 becomes o."""
    api = sqlite_api
    created = api.client.post("/api/games", json={"game": "hmdg", "options": {"size": 5, "line_length": 3},
                                                  "seats": [{"kind": "guest"}, {"kind": "guest"}]}).json()
    game_id, tokens = created["game"]["id"], created["invitations"]
    both = {"X-Seat-Token": f"{tokens['0']},{tokens['1']}"}
    for ply, move in enumerate(["c3", "x"]):
        response = api.client.post(f"/api/games/{game_id}/moves", json={"ply": ply, "move": move}, headers=both)
        assert response.status_code == 201, response.text
    game = api.show(game_id)
    assert [(m["label"], m["text"]) for m in game["view"]["moves"]] == [("A", "c3"), ("B", "x")]
    assert [s["label"] for s in game["seats"]] == ["o", "x"]  # the seats are called so from now on
    assert game["view"]["last_move"] == "B chose to play x"
    commit = api.client.post(f"/api/games/{game_id}/moves", json={"ply": 2, "move": "a1/row", "seat": 0},
                             headers=both).json()
    assert commit["view"]["last_move"] == "o aimed at a1 and announced its row"
    assert api.show(game_id)["view"]["last_move"] == "o announced row a"  # a spectator's view of it
    answered = api.client.post(f"/api/games/{game_id}/moves", json={"ply": 3, "move": "none", "seat": 1},
                               headers=both).json()
    assert answered["view"]["last_move"] == "x revealed nothing: the stone is placed hidden"
    assert "none:" not in answered["view"]["last_move"]
