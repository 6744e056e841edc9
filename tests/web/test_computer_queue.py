"""The game page while the computer is to move, with the server's search queue (``serve --ai-queue``,
PostgreSQL): it says the computer's move is queued and where, and the move arrives once a ``boardlab
ai-worker`` takes the job."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.conftest import LiveServer, pg_url, postgres, settings_for  # noqa: F401  (fixtures)
from tests.web.play import IDLE, new_game

SMALL = {"size": 3, "length": 3}


@pytest.fixture
def queued_server(pg_url: str) -> Iterator[LiveServer]:  # noqa: F811
    with LiveServer(settings_for(pg_url, ai_queue=True)) as live:
        yield live


def test_the_page_shows_the_computers_place_in_the_queue(queued_server: LiveServer, pg_url: str,  # noqa: F811
                                                         context: Any, tmp_path: Path) -> None:
    url = queued_server.url
    # Another guest's game, whose computer turn is queued first.
    ahead = httpx.post(f"{url}/api/games", json={"game": "ndengrod", "options": SMALL}).json()
    token = ahead["invitations"]["0"]
    moved = httpx.post(f"{url}/api/games/{ahead['game']['id']}/moves", json={"ply": 0, "move": "b2"},
                       headers={"X-Seat-Token": token})
    assert moved.status_code == 201, moved.text

    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    game_id = new_game(page, url, "ndengrod", SMALL)
    page.wait_for_selector(IDLE)
    page.locator("#board [data-target]").first.click()
    box = page.locator("#computer")
    page.wait_for_selector("#computer[data-queue-place='2']")
    assert box.inner_text() == "The computer's move is queued: 2nd in line for a searching machine."
    page.screenshot(path=str(tmp_path / "queued.png"))

    with open(tmp_path / "worker.log", "wb") as log:
        worker = subprocess.Popen([sys.executable, "-m", "boardlab", "ai-worker", "--db", pg_url], stdout=log,
                                  stderr=subprocess.STDOUT)
    try:
        # The worker answers the older game first, then this one: the page then says it is my move again.
        page.wait_for_selector("#status[data-your-move='1']", timeout=120_000)
        assert box.is_hidden()
        shown = httpx.get(f"{url}/api/games/{game_id}").json()
        assert shown["ply"] == 2 and shown["view"]["moves"][1]["seat"] == 1
        assert httpx.get(f"{url}/api/games/{ahead['game']['id']}").json()["ply"] == 2
    finally:
        worker.terminate()
        worker.wait(timeout=30)
    assert errors == []
