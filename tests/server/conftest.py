"""Fixtures for the server's tests: a database of each kind, the app, live servers, users.

PostgreSQL: a throw-away cluster started for the session (Debian's ``postgresql`` package; as the
``postgres`` user when run as root, which PostgreSQL requires). If it cannot start, the tests that
need it are skipped with the reason, never silently.
"""

from __future__ import annotations

import itertools
import os
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from fastapi.testclient import TestClient

from boardlab.server import clocks
from boardlab.server.app import create_app
from boardlab.server.config import Settings


def _pg_bin() -> Path:
    """Where Debian keeps PostgreSQL's server programs (the newest version installed)."""
    if "BOARDLAB_PG_BIN" in os.environ:
        return Path(os.environ["BOARDLAB_PG_BIN"])
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: int(p.parts[-3]))
    return found[-1].parent if found else Path("/usr/lib/postgresql/15/bin")


PG_BIN = _pg_bin()
PASSWORD = "correct horse"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Postgres:
    port: int
    error: str | None = None
    _names: Any = None

    def new_database(self) -> str:
        name = f"t{next(self._names)}_{os.getpid()}"
        import psycopg

        with psycopg.connect(f"postgresql://postgres@127.0.0.1:{self.port}/postgres", autocommit=True) as c:
            c.execute(f"CREATE DATABASE {name}")
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{name}"


def _as_postgres(command: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


def stop(process: subprocess.Popen[bytes]) -> None:
    """End a child process if still running: SIGTERM, then SIGKILL after 20 s."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    if not (PG_BIN / "initdb").exists():
        yield Postgres(0, f"PostgreSQL is not installed ({PG_BIN}/initdb missing; apt-get install postgresql)")
        return
    folder = Path(tempfile.mkdtemp(prefix="boardlab-pg-"))
    data = folder / "data"
    port = free_port()
    try:
        if os.geteuid() == 0:
            shutil.chown(folder, "postgres", "postgres")
        subprocess.run(_as_postgres([str(PG_BIN / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust",
                                     "-E", "UTF8", "--no-sync"]), check=True, capture_output=True, timeout=120)
        options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200"
        subprocess.run(_as_postgres([str(PG_BIN / "pg_ctl"), "-D", str(data), "-o", options, "-l",
                                     str(folder / "log"), "-w", "start"]), check=True, capture_output=True, timeout=120)
    except (subprocess.SubprocessError, OSError, LookupError) as error:
        detail = getattr(error, "stderr", b"") or b""
        yield Postgres(0, f"PostgreSQL could not start: {error} {detail.decode(errors='replace')[-300:]}")
        shutil.rmtree(folder, ignore_errors=True)
        return
    try:
        yield Postgres(port, None, itertools.count())
    finally:
        subprocess.run(_as_postgres([str(PG_BIN / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"]),
                       capture_output=True, timeout=60)
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, empty database of each kind."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'boardlab.db'}"
    server: Postgres = request.getfixturevalue("postgres")
    if server.error:
        pytest.skip(f"PostgreSQL tests skipped: {server.error}")
    return server.new_database()


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'boardlab.db'}"


@pytest.fixture
def pg_url(postgres: Postgres) -> str:
    if postgres.error:
        pytest.skip(f"PostgreSQL tests skipped: {postgres.error}")
    return postgres.new_database()


class Api:
    """A test client with helpers: users by name, their headers, games."""

    def __init__(self, client: TestClient | httpx.Client) -> None:
        self.client = client
        self.tokens: dict[str, str] = {}

    def user(self, name: str, email: str | None = None) -> dict[str, str]:
        if name not in self.tokens:
            body: dict[str, Any] = {"name": name, "password": PASSWORD}
            if email:
                body["email"] = email
            response = self.client.post("/api/register", json=body)
            assert response.status_code == 201, response.text
            self.tokens[name] = response.json()["token"]
            self.client.cookies.clear()  # tests say who asks with headers only
        return {"Authorization": f"Bearer {self.tokens[name]}"}

    def game(self, creator: str, game: str, seats: list[dict[str, Any]], options: dict[str, Any] | None = None,
             **more: Any) -> dict[str, Any]:
        for seat in seats:
            if seat.get("kind") == "user":
                self.user(seat["user"])
        response = self.client.post("/api/games", json={"game": game, "options": options or {}, "seats": seats,
                                                         **more}, headers=self.user(creator))
        assert response.status_code == 201, response.text
        return response.json()  # type: ignore[no-any-return]

    def accept(self, name: str, game_id: int) -> dict[str, Any]:
        response = self.client.post(f"/api/games/{game_id}/accept", headers=self.user(name))
        assert response.status_code == 200, response.text
        return response.json()  # type: ignore[no-any-return]

    def pair(self, game: str, options: dict[str, Any] | None = None, a: str = "ann", b: str = "bob",
             **more: Any) -> int:
        """A game between ``a`` (seat 0) and ``b`` (seat 1), accepted: its id."""
        created = self.game(a, game, [{"kind": "me"}, {"kind": "user", "user": b}], options, **more)
        game_id = created["game"]["id"]
        self.accept(b, game_id)
        return int(game_id)

    def move(self, name: str, game_id: int, move: str, ply: int | None = None, **more: Any) -> httpx.Response:
        if ply is None:
            ply = self.client.get(f"/api/games/{game_id}").json()["ply"]
        return self.client.post(f"/api/games/{game_id}/moves", json={"ply": ply, "move": move, **more},
                                headers=self.user(name))

    def show(self, game_id: int, name: str | None = None, **params: Any) -> dict[str, Any]:
        response = self.client.get(f"/api/games/{game_id}", headers=self.user(name) if name else {}, params=params)
        assert response.status_code == 200, response.text
        return response.json()  # type: ignore[no-any-return]


def settings_for(db_url: str, **more: Any) -> Settings:
    return Settings(db_url=db_url, background=False, **more)


@pytest.fixture
def api(db_url: str) -> Iterator[Api]:
    with TestClient(create_app(settings_for(db_url))) as client:
        yield Api(client)


@pytest.fixture
def sqlite_api(sqlite_url: str) -> Iterator[Api]:
    with TestClient(create_app(settings_for(sqlite_url))) as client:
        yield Api(client)


class LiveServer:
    """The app served by uvicorn in a thread on a free loopback port (real HTTP, real streams)."""

    def __init__(self, settings: Settings) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.app = create_app(settings.with_(port=self.port))
        # log_config=None: uvicorn's dictConfig would close every existing logging handler, and one
        # made by a library imported under pytest's capture (absl, by OpenSpiel) holds the capture's file.
        self.server = uvicorn.Server(uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning",
                                                    log_config=None, lifespan="on"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=15)


@pytest.fixture
def frozen_clock(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Time that moves only when a test says so (``frozen_clock.advance(seconds)``)."""

    class Clock:
        def __init__(self) -> None:
            self.at = clocks.now().replace(microsecond=0)

        def __call__(self) -> Any:
            return self.at

        def advance(self, seconds: float) -> None:
            from datetime import timedelta

            self.at += timedelta(seconds=seconds)

    clock = Clock()
    monkeypatch.setattr(clocks, "now", clock)
    return clock


def wait_for(predicate: Any, timeout: float = 30.0, every: float = 0.05) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting")
        time.sleep(every)
