"""Load benchmark for ``boardlab serve``: simulated players over loopback, each playing random legal
moves in its own games, against a real server process. Prints moves/s and move latency (p50, p99).

    python bench/server_load.py                                  # SQLite, one worker, 200 players
    python bench/server_load.py --postgres --workers 2           # a throw-away PostgreSQL, two workers
    python bench/server_load.py --db postgresql+psycopg://…      # an existing database

Each player registers, starts a game in which it holds both seats (a board of its own), and moves
every ``--think`` seconds (a person's pace, compressed), starting a new game when one ends. The
latency is the time from sending a move to its answer, measured by the client. The client runs in
this process, on the same machine as the server: its CPU time is the server's loss, so the figures
are a floor (both are printed, in ms of CPU a move). Not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

PG_BIN = max(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: int(p.parts[-2]), default=Path("/nowhere"))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def postgres() -> Iterator[str]:
    """A throw-away PostgreSQL cluster (as the postgres user when run as root); its URL."""
    with postgres_cluster() as (url, _):
        yield url


@contextmanager
def postgres_cluster() -> Iterator[tuple[str, Path]]:
    """A throw-away PostgreSQL cluster: its URL and its data folder."""
    folder = Path(tempfile.mkdtemp(prefix="boardlab-bench-pg-"))
    port = free_port()
    as_pg = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres", "postgres")
    subprocess.run([*as_pg, str(PG_BIN / "initdb"), "-D", str(folder / "data"), "-U", "postgres", "--auth=trust"],
                   check=True, capture_output=True)
    options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c max_connections=300"
    subprocess.run([*as_pg, str(PG_BIN / "pg_ctl"), "-D", str(folder / "data"), "-o", options, "-l",
                    str(folder / "log"), "-w", "start"], check=True, capture_output=True)
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres", folder / "data"
    finally:
        subprocess.run([*as_pg, str(PG_BIN / "pg_ctl"), "-D", str(folder / "data"), "-m", "fast", "stop"],
                       capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) used so far by process ``pid`` and its children that have exited,
    plus its live children (uvicorn's workers, the computer's pool)."""
    total = 0.0
    ticks = os.sysconf("SC_CLK_TCK")
    pids = [pid]
    with contextlib.suppress(OSError):
        pids += [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    for each in pids:
        try:
            fields = Path(f"/proc/{each}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / ticks
    return total


@contextmanager
def server(db_url: str, workers: int, folder: Path) -> Iterator[tuple[str, int]]:
    port = free_port()
    log = open(folder / "serve.log", "wb")  # noqa: SIM115
    process = subprocess.Popen([sys.executable, "-m", "boardlab", "serve", "--db", db_url, "--port", str(port),
                                "--workers", str(workers), "--log-level", "warning"], cwd=folder, stdout=log,
                               stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(600):
            try:
                if httpx.get(f"{url}/api/agents", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        else:
            raise SystemExit(f"the server did not start; see {folder / 'serve.log'}")
        yield url, process.pid
    finally:
        process.terminate()
        process.wait(timeout=30)
        log.close()


class Figures:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.errors: dict[int | str, int] = {}
        self.games = 0
        self.finished = 0
        self.ready = 0
        self.registering = asyncio.Semaphore(4)  # argon2 hashing is deliberately slow: set-up, a few at a time
        self.start = asyncio.Event()
        self.measure_from = float("inf")  # after the warm-up
        self.stop = float("inf")  # set once every player is ready

    def error(self, key: int | str) -> None:
        self.errors[key] = self.errors.get(key, 0) + 1


class Http:
    """One keep-alive HTTP/1.1 connection to the server over loopback, as a browser or the CLI holds one.

    A small client on asyncio's streams rather than httpx: the client shares the machine's cores with
    the server, and httpx spent about as much CPU on a move as the server did. It sends each request
    whole and reads the answer (status line, headers, ``Content-Length`` bytes of JSON).
    """

    IDLE = 3.0  # seconds: reconnect rather than reuse a connection the server may be closing (uvicorn: 5)

    def __init__(self, url: str) -> None:
        host, _, port = url.removeprefix("http://").partition(":")
        self.host, self.port = host, int(port)
        self.headers = f"Host: {url.removeprefix('http://')}\r\nContent-Type: application/json\r\n"
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.used = 0.0

    def authorise(self, token: str) -> None:
        self.headers += f"Authorization: Bearer {token}\r\n"

    async def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        if self.writer is None or self.reader is None or self.reader.at_eof() \
                or time.perf_counter() - self.used > self.IDLE:
            await self.close()
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        payload = b"" if body is None else json.dumps(body).encode()
        self.writer.write(f"{method} {path} HTTP/1.1\r\n{self.headers}Content-Length: {len(payload)}\r\n\r\n"
                          .encode() + payload)
        try:
            head = await self.reader.readuntil(b"\r\n\r\n")
            lines = head.decode("latin-1").split("\r\n")
            status = int(lines[0].split(" ", 2)[1])
            fields = {name.strip().lower(): value.strip() for name, _, value in
                      (line.partition(":") for line in lines[1:] if line)}
            if "content-length" not in fields:
                raise ConnectionError(f"answer without Content-Length ({fields.get('transfer-encoding')})")
            data = await self.reader.readexactly(int(fields["content-length"]))
        except BaseException:
            await self.close()
            raise
        if fields.get("connection", "").lower() == "close":
            await self.close()
        self.used = time.perf_counter()
        return status, json.loads(data) if data else None

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            with contextlib.suppress(OSError):
                await self.writer.wait_closed()
        self.reader = self.writer = None


async def player(number: int, url: str, args: argparse.Namespace, figures: Figures) -> None:
    rng = random.Random(number)
    http = Http(url)
    try:
        async with figures.registering:
            status, answer = await http.request("POST", "/api/register", {"name": f"p{number}_{os.getpid()}",
                                                                           "password": "benchmark password"})
        if status != 201:
            raise SystemExit(f"registration failed: {status} {answer}")
        http.authorise(answer["token"])
        body = {"game": args.game, "options": dict(o.split("=", 1) for o in args.option),
                "seats": [{"kind": "me"}] * args.seats}
        status, created = await http.request("POST", "/api/games", body)  # each player's first game: set-up
        if status != 201:
            raise SystemExit(f"starting a game failed: {status} {created}")
        game: dict[str, Any] | None = created["game"]
        figures.games += 1
        figures.ready += 1
        await figures.start.wait()
        await asyncio.sleep(rng.random() * args.think)  # spread the players' first moves
        while time.perf_counter() < figures.stop:
            if game is None or game["status"] != "active":
                try:
                    status, created = await http.request("POST", "/api/games", body)
                except (OSError, asyncio.IncompleteReadError) as error:
                    figures.error(type(error).__name__)
                    continue
                if status != 201:
                    figures.error(status)
                    await asyncio.sleep(args.think)
                    continue
                game = created["game"]
                figures.games += 1
            move = rng.choice(game["view"]["legal_moves"])
            sent = time.perf_counter()
            try:
                status, answer = await http.request("POST", f"/api/games/{game['id']}/moves",
                                                    {"ply": game["ply"], "move": move})
            except (OSError, asyncio.IncompleteReadError) as error:
                figures.error(type(error).__name__)
                game = None
                continue
            took = time.perf_counter() - sent
            if status != 201:
                figures.error(status)
                game = None
                continue
            if figures.measure_from <= sent and sent + took <= figures.stop:
                figures.latencies.append(took)
            game = answer
            if game["status"] == "finished":
                figures.finished += 1
            await asyncio.sleep(max(0.0, args.think - took))
    finally:
        await http.close()


async def run(url: str, pid: int, args: argparse.Namespace) -> dict[str, Any]:
    figures = Figures()
    tasks = [asyncio.create_task(player(n, url, args, figures)) for n in range(args.players)]
    while figures.ready < args.players:  # registration (argon2) is set-up, not measured
        await asyncio.sleep(0.2)
        for task in tasks:
            if task.done() and task.exception() is not None:
                raise task.exception()  # type: ignore[misc]
    print(f"{args.players} players ready (server pid {pid}); {args.warmup:g} s of warm-up, then measuring "
          f"for {args.seconds:g} s", file=sys.stderr, flush=True)
    began = time.perf_counter()
    figures.measure_from = began + args.warmup
    figures.stop = figures.measure_from + args.seconds
    figures.start.set()
    await asyncio.sleep(args.warmup)  # every player under way, the first moves' one-off costs behind
    load_before = os.getloadavg()
    cpu_before = cpu_seconds(pid)
    client_before = time.process_time()
    await asyncio.sleep(max(0.0, figures.stop - time.perf_counter()))
    server_cpu = cpu_seconds(pid) - cpu_before
    client_cpu = time.process_time() - client_before
    await asyncio.gather(*tasks)
    elapsed = args.seconds
    latencies = sorted(figures.latencies)

    def quantile(q: float) -> float:
        return latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000 if latencies else float("nan")

    return {
        "players": args.players, "workers": args.workers, "seconds": elapsed, "moves": len(latencies),
        "moves_per_s": round(len(latencies) / elapsed, 1),
        "offered_moves_per_s": round(args.players / args.think, 1),
        "p50_ms": round(quantile(0.50), 1), "p99_ms": round(quantile(0.99), 1),
        "mean_ms": round(statistics.fmean(latencies) * 1000, 1) if latencies else None,
        "server_cpu_ms_per_move": round(server_cpu * 1000 / max(1, len(latencies)), 2),
        "client_cpu_ms_per_move": round(client_cpu * 1000 / max(1, len(latencies)), 2),
        "games_started": figures.games, "games_finished": figures.finished, "errors": figures.errors,
        "load_before": [round(x, 2) for x in load_before], "load_after": [round(x, 2) for x in os.getloadavg()],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", help="database URL (default: a new SQLite file in a temporary folder)")
    parser.add_argument("--postgres", action="store_true", help="start a throw-away PostgreSQL cluster for the run")
    parser.add_argument("--workers", type=int, default=1, help="server processes (more than 1 needs PostgreSQL)")
    parser.add_argument("--players", type=int, default=200, help="simulated players, each in its own game (200)")
    parser.add_argument("--seconds", type=float, default=20, help="how long to measure (20)")
    parser.add_argument("--warmup", type=float, default=3,
                        help="seconds of play before measuring, not counted (3)")
    parser.add_argument("--think", type=float, default=0.5, help="seconds between a player's moves (0.5)")
    parser.add_argument("--game", default="ndengrod", help="the game the players play (ndengrod)")
    parser.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--seats", type=int, default=2, help="seats in the game (2)")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON line")
    args = parser.parse_args()
    if args.think <= 0:
        parser.error(f"--think {args.think:g} is not accepted; accepted: seconds above 0 (e.g. 0.001)")
    if not 0 <= args.warmup < float("inf"):
        parser.error(f"--warmup {args.warmup:g} is not accepted; accepted: seconds, 0 or more")
    folder = Path(tempfile.mkdtemp(prefix="boardlab-bench-"))
    with contextmanager(lambda: (yield None))() if not args.postgres else postgres() as pg_url:
        db_url = pg_url or args.db or f"sqlite:///{folder / 'bench.db'}"
        with server(db_url, args.workers, folder) as (url, pid):
            result = asyncio.run(run(url, pid, args))
    result["database"] = db_url.split(":", 1)[0]
    if args.json:
        print(json.dumps(result))
    else:
        print(f"{result['database']}, {args.workers} worker(s), {args.players} players, one move each every "
              f"{args.think:g} s ({result['offered_moves_per_s']:g} moves/s offered), {args.seconds:g} s after "
              f"{args.warmup:g} s of warm-up:")
        print(f"  moves/s        {result['moves_per_s']}")
        print(f"  latency        p50 {result['p50_ms']} ms, p99 {result['p99_ms']} ms, mean {result['mean_ms']} ms")
        print(f"  server CPU     {result['server_cpu_ms_per_move']} ms a move (all its processes; "
              f"includes games started after the first)")
        print(f"  client CPU     {result['client_cpu_ms_per_move']} ms a move (this process, on the same cores)")
        print(f"  games          {result['games_started']} started, {result['games_finished']} finished")
        print(f"  errors         {result['errors'] or 'none'}")
        print(f"  load average   {result['load_before']} before, {result['load_after']} after")
    shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
