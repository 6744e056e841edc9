"""``boardlab serve`` stopped as people stop it (Ctrl-C: SIGINT; ``kill``, systemd: SIGTERM) leaves no
process behind: not its server workers, not the computer's search processes (idle, or searching a move),
not multiprocessing's resource tracker; and a search process whose server is killed outright (SIGKILL)
ends too."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from pathlib import Path

import httpx
import pytest

from boardlab.server.ai import AIPool
from tests.server.conftest import PASSWORD, free_port, wait_for
from tests.server.test_processes import serve

SMALL = {"size": 3, "length": 3}
QUICK = "level1"  # answers at once on the small board
LONG = "uct:seconds=600"  # still searching when the server is stopped
GONE_WITHIN = 30.0  # seconds: the bound on the wait for every process to end (not a timing claim)


def _children(pid: int) -> list[int]:
    found: list[int] = []
    with contextlib.suppress(OSError):
        for task in Path(f"/proc/{pid}/task").iterdir():
            with contextlib.suppress(OSError):
                found += [int(child) for child in (task / "children").read_text().split()]
    return found


def _stat(pid: int) -> list[str] | None:
    """/proc/PID/stat's fields from the state on (state is [0], start time [19]); None if gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def _descendants(pid: int) -> dict[int, str]:
    """Every process below ``pid``: its start time (so that a reused pid is not taken for it)."""
    found: dict[int, str] = {}
    todo = [pid]
    while todo:
        for child in _children(todo.pop()):
            stat = _stat(child)
            if stat is not None:
                found[child] = stat[19]
                todo.append(child)
    return found


def _alive(pid: int, started: str) -> bool:
    stat = _stat(pid)
    return stat is not None and stat[19] == started and stat[0] != "Z"


def _cmdline(pid: int) -> str:
    with contextlib.suppress(OSError):
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    return "(gone)"


def _cpu_seconds(pid: int) -> float:
    stat = _stat(pid)
    return (int(stat[11]) + int(stat[12])) / os.sysconf("SC_CLK_TCK") if stat else 0.0


def _server_workers(process: subprocess.Popen[bytes], workers: int) -> list[int]:
    """The processes that serve requests: ``boardlab serve`` itself, or uvicorn's worker processes."""
    if workers == 1:
        return [process.pid]
    return [pid for pid in _children(process.pid) if "resource_tracker" not in _cmdline(pid)]


def _search_processes(process: subprocess.Popen[bytes], workers: int) -> list[int]:
    return [child for server in _server_workers(process, workers) for child in _children(server)
            if "spawn_main" in _cmdline(child)]


def _computer_searches(url: str, process: subprocess.Popen[bytes], workers: int, agent: str) -> list[int]:
    """Games against the computer (``agent``), each asked on a new connection (so either server worker
    may take it) until every server worker has its search process; the search processes."""
    with httpx.Client(base_url=url, timeout=120) as client:
        response = client.post("/api/register", json={"name": "ann", "password": PASSWORD})
        assert response.status_code == 201, response.text
        headers = {"Authorization": f"Bearer {response.json()['token']}"}
    games: list[int] = []
    deadline = time.monotonic() + 180
    while True:
        with httpx.Client(base_url=url, timeout=120, headers=headers) as fresh:
            body = {"game": "ndengrod", "options": SMALL, "seats": [{"kind": "me"}, {"kind": "ai", "agent": agent}]}
            created = fresh.post("/api/games", json=body)
            assert created.status_code == 201, created.text
            games.append(created.json()["game"]["id"])
            moved = fresh.post(f"/api/games/{games[-1]}/moves", json={"ply": 0, "move": "b2"})
            assert moved.status_code == 201, moved.text
        time.sleep(0.5)
        servers = _server_workers(process, workers)
        searching = _search_processes(process, workers)
        if len(servers) == workers and all(_children(server) for server in servers) and len(searching) >= workers:
            break
        assert time.monotonic() < deadline, "not every server worker started a search process"
    if agent == QUICK:  # the searches have answered: the search processes wait, idle
        with httpx.Client(base_url=url, timeout=30) as client:
            for game in games:
                deadline = time.monotonic() + 120
                while client.get(f"/api/games/{game}").json()["ply"] < 2:
                    assert time.monotonic() < deadline, f"the computer did not answer in game {game}"
                    time.sleep(0.2)
    else:  # under way in every search process (past its start), none answered
        deadline = time.monotonic() + 120
        while not all(_cpu_seconds(pid) > 1.0 for pid in searching):
            assert time.monotonic() < deadline, "a search process did not start searching"
            time.sleep(0.2)
        with httpx.Client(base_url=url, timeout=30) as client:
            assert all(client.get(f"/api/games/{game}").json()["ply"] == 1 for game in games)
    return searching


def _left_after(process: subprocess.Popen[bytes], before: dict[int, str]) -> dict[int, str]:
    """The processes of ``before`` still alive once the server has ended, or the bound has passed."""
    deadline = time.monotonic() + GONE_WITHIN
    while time.monotonic() < deadline:
        if process.poll() is not None and not any(_alive(pid, started) for pid, started in before.items()):
            return {}
        time.sleep(0.2)
    left = {pid: _cmdline(pid) for pid, started in before.items() if _alive(pid, started)}
    if process.poll() is None:
        left[process.pid] = "boardlab serve"
    return left


def _end(left: dict[int, str]) -> None:
    for pid in left:  # not to leave them running after a failure
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


# Every pair of (database, signal, search) values once, not all eight triples: each case starts a real
# server, and the suite must stay within CI's time. Before the fix, the two "searching" cases here failed
# every time, and the idle ones when the race went the wrong way.
@pytest.mark.parametrize(("kind", "sig", "agent"), [
    pytest.param("sqlite", signal.SIGINT, LONG, id="sqlite-SIGINT-searching"),
    pytest.param("sqlite", signal.SIGTERM, QUICK, id="sqlite-SIGTERM-idle-search"),
    pytest.param("postgresql", signal.SIGINT, QUICK, id="postgresql-SIGINT-idle-search"),
    pytest.param("postgresql", signal.SIGTERM, LONG, id="postgresql-SIGTERM-searching"),
])
def test_a_stopped_server_leaves_no_process_behind(kind: str, sig: signal.Signals, agent: str, tmp_path: Path,
                                                   request: pytest.FixtureRequest) -> None:
    """SQLite with one worker (all it allows), PostgreSQL with two; a search process idle, or searching."""
    workers = 1 if kind == "sqlite" else 2
    db_url = f"sqlite:///{tmp_path / 'boardlab.db'}" if kind == "sqlite" else request.getfixturevalue("pg_url")
    port = free_port()
    with serve(db_url, tmp_path, port, workers=workers) as process:
        searching = _computer_searches(f"http://127.0.0.1:{port}", process, workers, agent)
        before = _descendants(process.pid)
        assert set(searching) <= set(before)
        os.kill(process.pid, sig)
        left = _left_after(process, before)
        _end(left)
    assert left == {}, f"still running {GONE_WITHIN:g} s after {sig.name}: {left}"


def test_a_search_process_ends_when_its_server_is_killed(tmp_path: Path) -> None:
    """SIGKILL (the out-of-memory killer, uvicorn's supervisor ending a hung worker) leaves the server no
    time to stop its search processes: they notice it gone themselves, even in the middle of a search."""
    port = free_port()
    with serve(f"sqlite:///{tmp_path / 'boardlab.db'}", tmp_path, port) as process:
        searching = _computer_searches(f"http://127.0.0.1:{port}", process, 1, LONG)
        before = _descendants(process.pid)
        assert set(searching) <= set(before)
        os.kill(process.pid, signal.SIGKILL)
        left = _left_after(process, before)
        _end(left)
    assert left == {}, f"still running {GONE_WITHIN:g} s after SIGKILL: {left}"


def test_the_pools_shutdown_ends_its_processes_searching_or_not() -> None:
    """What the server's stop does with the pool: every worker process has ended when ``shutdown()``
    returns, the busy ones too (here each in a ten-minute job), and no job is left pending for ever."""
    pool = AIPool(2)
    already = set(_children(os.getpid()))
    jobs = [pool.submit(time.sleep, 600) for _ in range(4)]  # type: ignore[arg-type]

    def workers() -> dict[int, str]:
        return {pid: stat[19] for pid in set(_children(os.getpid())) - already
                if "spawn_main" in _cmdline(pid) and (stat := _stat(pid)) is not None}

    def in_a_job(pid: int) -> bool:  # its main thread asleep in time.sleep, not waiting on its job queue
        with contextlib.suppress(OSError):
            return "sleep" in Path(f"/proc/{pid}/wchan").read_text()
        return False

    wait_for(lambda: len(workers()) == 2 and all(in_a_job(pid) for pid in workers()), timeout=120)
    started = workers()
    pool.shutdown()
    assert [pid for pid, at in started.items() if _alive(pid, at)] == []
    wait_for(lambda: all(job.done() for job in jobs))  # cancelled, or failed as their process ended
