"""The computer's searches as jobs (``serve --ai-queue``) taken by ``boardlab ai-worker`` processes from
PostgreSQL: the queue's order as the game page is told it, and a job whose worker is killed mid-search
taken again by another once its lease has run out."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from sqlalchemy import create_engine, text

from boardlab.server.config import Settings, SettingsError
from tests.server.conftest import Api, LiveServer, settings_for, stop, wait_for

SMALL = {"size": 3, "length": 3}


@contextmanager
def ai_worker(db_url: str, log: Path, lease: float = 2.0) -> Iterator[subprocess.Popen[bytes]]:
    with open(log, "wb") as out:
        process = subprocess.Popen([sys.executable, "-m", "boardlab", "ai-worker", "--db", db_url,
                                    "--lease", str(lease)], stdout=out, stderr=subprocess.STDOUT)
    try:
        yield process
    finally:
        stop(process)


def jobs_of(db_url: str) -> list[tuple[int, str | None, int]]:
    engine = create_engine(db_url)
    try:
        with engine.connect() as connection:
            return [tuple(found) for found in connection.execute(  # type: ignore[misc]
                text("SELECT game_id, worker, attempts FROM search_jobs ORDER BY queued_at, id")).all()]
    finally:
        engine.dispose()


def test_a_job_whose_worker_dies_is_taken_by_another(pg_url: str, tmp_path: Path) -> None:
    with LiveServer(settings_for(pg_url, ai_queue=True)) as server, \
            httpx.Client(base_url=server.url, timeout=10) as client:
        api = Api(client)
        games = [api.game("ann", "ndengrod", [{"kind": "me"}, {"kind": "ai", "agent": "uct:seconds=8"}], SMALL)["game"]
                 for _ in range(2)]
        for game in games:
            assert api.move("ann", game["id"], "b2", 0).status_code == 201
        first, second = (game["id"] for game in games)
        # Nobody takes the jobs yet: both wait, in the order they were queued.
        assert [(game_id, worker) for game_id, worker, _ in jobs_of(pg_url)] == [(first, None), (second, None)]
        assert client.get(f"/api/games/{first}/computer").json() == {"thinking": True, "queue_place": 1}
        assert client.get(f"/api/games/{second}/computer").json() == {"thinking": True, "queue_place": 2}

        with ai_worker(pg_url, tmp_path / "first.log") as doomed:
            taken = wait_for(lambda: [j for j in jobs_of(pg_url) if j[1] is not None], timeout=120)
            assert [(game_id, attempts) for game_id, _, attempts in taken] == [(first, 1)]
            assert client.get(f"/api/games/{first}/computer").json() == {"thinking": True, "queue_place": 0}
            assert client.get(f"/api/games/{second}/computer").json() == {"thinking": True, "queue_place": 1}
            os.kill(doomed.pid, signal.SIGKILL)  # in the middle of its 8 s search
            doomed.wait()
        time.sleep(2.5)  # its lease (2 s) runs out: the job is nobody's again, and comes first
        assert api.show(first)["ply"] == 1
        assert client.get(f"/api/games/{first}/computer").json() == {"thinking": True, "queue_place": 1}

        with ai_worker(pg_url, tmp_path / "second.log"):
            wait_for(lambda: api.show(first)["ply"] == 2, timeout=120)
            wait_for(lambda: api.show(second)["ply"] == 2, timeout=120)
        log = (tmp_path / "second.log").read_text()
        assert f"game {first} ply 1 (uct:seconds=8), attempt 2" in log, log
        assert f"game {second} ply 1 (uct:seconds=8), attempt 1" in log, log
        for game_id in (first, second):
            shown = api.show(game_id)
            assert shown["view"]["moves"][1]["seat"] == 1 and shown["to_move"] == 0
            assert client.get(f"/api/games/{game_id}/computer").json() == {"thinking": False, "queue_place": None}
        assert jobs_of(pg_url) == []


def test_the_queue_needs_postgresql(sqlite_url: str) -> None:
    with pytest.raises(SettingsError, match="--ai-queue needs PostgreSQL"):
        Settings(db_url=sqlite_url, ai_queue=True)
