"""CPU time of one move on the server, in this process: no sockets, no other clients, no contention.

    python bench/server_move.py              # 3000 moves in 20 games of Ndengrod, SQLite
    python bench/server_move.py --postgres   # SQLite and a throw-away PostgreSQL, in turns, in one run
    python bench/server_move.py --profile    # and the functions that took the time (cProfile)
    python bench/server_move.py --profile app --sort tottime   # the whole app's, by time in each function
    python bench/server_move.py --profile app --profile-out app.prof   # and kept, for pstats (callers, callees)

Two figures: the move through the whole app (a raw ASGI call: routing, the caller, the body's
validation, the transaction, the answer built and serialised; the time spent inside the app, not
this script's own making of requests and reading of answers), and ``GameService.move`` alone (the
transaction and the answer's model). One player holds both seats of each game and plays random legal
moves, starting a new game when one ends, as ``bench/server_load.py`` does over loopback; this one
says where a move's CPU goes, that one what the machine sustains.

With ``--postgres`` the same moves are made on SQLite and on PostgreSQL in turns (``--rounds``), and the
ratio of their CPU a move is printed: on PostgreSQL the server's process does less of the work (the
database's own processes do the rest; their CPU is printed too). Round trips a move: what the move's
transaction sends to the database and waits for, counted at the wire for PostgreSQL (libpq's trace:
one ``ReadyForQuery`` ends each), and as the statements SQLite runs (its trace callback: BEGIN and COMMIT
included) for SQLite, which runs in-process.
Not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import json
import os
import pstats
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import event

from boardlab.server.app import create_app
from boardlab.server.config import Settings


class Caller:
    """Requests straight into the ASGI app, as uvicorn would hand them over; ``inside`` adds up the CPU
    time spent in the app (not in making the request or reading the answer, which a client does)."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.headers: list[tuple[bytes, bytes]] = [(b"host", b"bench"), (b"content-type", b"application/json")]
        self.inside = 0.0

    async def __call__(self, method: str, path: str, body: Any) -> tuple[int, Any]:
        raw = json.dumps(body).encode()
        scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method,
                 "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "",
                 "headers": [*self.headers, (b"content-length", str(len(raw)).encode())],
                 "client": ("127.0.0.1", 50000), "server": ("127.0.0.1", 8000), "state": {}}
        messages = [{"type": "http.request", "body": raw, "more_body": False}]
        status, chunks = 0, []

        async def receive() -> dict[str, Any]:
            if messages:
                return messages.pop()
            await asyncio.Event().wait()  # the client never disconnects
            raise AssertionError

        async def send(message: dict[str, Any]) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            else:
                chunks.append(message.get("body", b""))

        began = time.process_time()
        await self.app(scope, receive, send)
        self.inside += time.process_time() - began
        return status, json.loads(b"".join(chunks))


class Count:
    """Round trips counted so far; none while ``paused``."""

    def __init__(self) -> None:
        self.trips = 0
        self.paused = False


@contextmanager
def round_trips(engines: Sequence[Any], held: Any = None) -> Iterator[Count]:
    """Count what the engines' connections (and ``held``, a connection kept out of the pool: SQLite's
    writer) send the database and wait for, while inside."""
    counted = Count()
    if engines[0].dialect.name == "sqlite":  # in-process: each statement (BEGIN and COMMIT too) is one call
        def statement(_sql: str) -> None:
            if not counted.paused:
                counted.trips += 1

        traced_sqlite: list[Any] = []

        def trace(dbapi_connection: Any, *_: Any) -> None:  # every statement SQLite runs, the driver's own too
            dbapi_connection.set_trace_callback(statement)
            traced_sqlite.append(dbapi_connection)

        if held is not None and not held.closed:
            trace(held.connection.driver_connection)
        for engine in engines:
            event.listen(engine.pool, "checkout", trace)
        try:
            yield counted
        finally:
            for engine in engines:
                event.remove(engine.pool, "checkout", trace)
            for connection in traced_sqlite:
                with contextlib.suppress(Exception):
                    connection.set_trace_callback(None)
        return
    from psycopg import pq

    trace = tempfile.TemporaryFile()  # noqa: SIM115
    traced: list[Any] = []

    def checkout(dbapi_connection: Any, *_: Any) -> None:
        if counted.paused:
            return
        dbapi_connection.pgconn.trace(trace.fileno())
        dbapi_connection.pgconn.set_trace_flags(pq.Trace.SUPPRESS_TIMESTAMPS | pq.Trace.REGRESS_MODE)
        traced.append(dbapi_connection)

    def checkin(dbapi_connection: Any, *_: Any) -> None:
        with contextlib.suppress(Exception):
            dbapi_connection.pgconn.untrace()

    for engine in engines:
        event.listen(engine.pool, "checkout", checkout)
        event.listen(engine.pool, "checkin", checkin)
    try:
        yield counted
    finally:
        for engine in engines:
            event.remove(engine.pool, "checkout", checkout)
            event.remove(engine.pool, "checkin", checkin)
        for connection in traced:
            with contextlib.suppress(Exception):
                connection.pgconn.untrace()
        trace.seek(0)
        counted.trips = sum(1 for line in trace.read().decode(errors="replace").splitlines()
                         if "\tReadyForQuery" in line and line.startswith("B"))
        trace.close()


def database_cpu(data_folder: Path | None) -> float:
    """CPU seconds used so far by a PostgreSQL cluster's processes (the postmaster's children)."""
    if data_folder is None:
        return 0.0
    pid = int((data_folder / "postmaster.pid").read_text().split()[0])
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    pids = [pid]
    with contextlib.suppress(OSError):
        pids += [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    for each in pids:
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{each}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / ticks
    return total


async def measure(args: argparse.Namespace, db_url: str, name: str, data_folder: Path | None = None) -> dict[str, Any]:
    app = create_app(Settings(db_url=db_url, background=False, quick_move_commits=args.quick_move_commits))
    service = app.state.service
    rng = random.Random(1)
    async with app.router.lifespan_context(app):
        call = Caller(app)
        status, answer = await call("POST", "/api/register", {"name": name, "password": "benchmark password"})
        assert status == 201, answer
        call.headers.append((b"authorization", f"Bearer {answer['token']}".encode()))
        actor = service.accounts.actor(answer["token"])
        new = {"game": args.game, "seats": [{"kind": "me"}] * 2}
        games: list[dict[str, Any]] = []
        for _ in range(args.games):
            games.append((await call("POST", "/api/games", new))[1]["game"])

        async def through_app(number: int) -> None:
            game = games[number % len(games)]
            if game["status"] != "active":
                game = (await call("POST", "/api/games", new))[1]["game"]
            status, answer = await call("POST", f"/api/games/{game['id']}/moves",
                                        {"ply": game["ply"], "move": rng.choice(game["view"]["legal_moves"])})
            assert status == 201, answer
            games[number % len(games)] = answer

        def service_only(number: int) -> None:
            game = games[number % len(games)]
            if game["status"] != "active":
                game = (service.create(actor, service_request(new))).game.model_dump(mode="json")
            out = service.move(actor, game["id"], game["ply"], rng.choice(game["view"]["legal_moves"]), None)
            games[number % len(games)] = {"id": out.id, "ply": out.ply, "status": out.status,
                                          "view": {"legal_moves": out.view.legal_moves}}

        for number in range(args.moves // 5):  # warm up: numba's kernels, SQLAlchemy's statement cache
            await through_app(number)
        profile = cProfile.Profile(time.process_time) if args.profile else None  # CPU, not waiting
        call.inside = 0.0
        if profile and args.profile == "app":
            profile.enable()
        for number in range(args.moves):
            await through_app(number)
        whole = call.inside
        if profile:
            profile.disable()
        database_before = database_cpu(data_folder)
        began = time.process_time()
        if profile and args.profile == "service":
            profile.enable()
        for number in range(args.moves):
            service_only(number)
            # The event loop's turn between two requests, as in a server: PostgreSQL's notifications (this
            # process's own moves') are read there, and their CPU time is counted with the moves'.
            await asyncio.sleep(0)
        if profile and args.profile == "service":
            profile.disable()
        alone = time.process_time() - began
        database = database_cpu(data_folder) - database_before
        counted_moves = min(200, args.moves)
        with round_trips(service.db.engines, service.db._writer) as counted:
            for number in range(counted_moves):
                if games[number % len(games)]["status"] != "active":  # a new game is not a move: not counted
                    counted.paused = True
                    games[number % len(games)] = service.create(actor, service_request(new)).game.model_dump(
                        mode="json")
                    counted.paused = False
                service_only(number)
        trips = counted.trips / counted_moves
    plies = sum(game["ply"] for game in games) / len(games)
    return {"database": db_url.split(":", 1)[0].split("+")[0], "app_ms": whole * 1000 / args.moves,
            "service_ms": alone * 1000 / args.moves, "database_ms": database * 1000 / args.moves,
            "round_trips": trips, "plies": plies, "profile": profile}


def service_request(body: dict[str, Any]) -> Any:
    from boardlab.server.schemas import CreateGameRequest

    return CreateGameRequest.model_validate(body)


def use_loop(name: str) -> str:
    """Set the event loop that ``asyncio.run`` makes: ``name``, or for ``auto`` what uvicorn's loop=auto
    picks (uvloop where it is installed, which ``uvicorn[standard]`` installs). Returns the one set."""
    if name == "asyncio":
        return "asyncio"
    try:
        import uvloop
    except ImportError:
        if name == "uvloop":
            raise SystemExit("--loop uvloop: uvloop is not installed (pip install uvloop)") from None
        return "asyncio"
    asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    return "uvloop"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=3000, help="moves measured (3000)")
    parser.add_argument("--games", type=int, default=20, help="games played at once (20)")
    parser.add_argument("--game", default="ndengrod", help="the game (ndengrod)")
    parser.add_argument("--postgres", action="store_true",
                        help="also on a throw-away PostgreSQL cluster, in turns with SQLite (see --rounds)")
    parser.add_argument("--rounds", type=int, default=3, help="with --postgres: turns of each database (3)")
    parser.add_argument("--quick-move-commits", action="store_true",
                        help="PostgreSQL: a move's commit not waited for on disk (the server's --quick-move-commits)")
    parser.add_argument("--profile", nargs="?", const="service", choices=("service", "app"),
                        help="profile GameService.move (or, with 'app', the moves through the app) with cProfile")
    parser.add_argument("--sort", default="cumulative", help="the profile's order: cumulative (default), tottime, …")
    parser.add_argument("--profile-out", metavar="FILE", help="with --profile: also write the profile to FILE "
                        "(pstats; with --postgres, FILE.1, FILE.2, … for the runs in turn)")
    parser.add_argument("--loop", choices=("auto", "asyncio", "uvloop"), default="auto",
                        help="the event loop: auto (default) is uvloop where it is installed, as under "
                        "`boardlab serve` (uvicorn's loop=auto); asyncio is the standard library's")
    args = parser.parse_args()
    loop_used = use_loop(args.loop)
    folder = Path(tempfile.mkdtemp(prefix="boardlab-bench-"))
    results: list[dict[str, Any]] = []
    load_before = os.getloadavg()
    try:
        if not args.postgres:
            results.append(asyncio.run(measure(args, f"sqlite:///{folder / 'bench.db'}", "bench")))
        else:
            sys.path.insert(0, str(Path(__file__).parent))
            from server_load import postgres_cluster

            with postgres_cluster() as (pg_url, data):
                for turn in range(args.rounds):
                    results.append(asyncio.run(measure(args, f"sqlite:///{folder / f'bench{turn}.db'}",
                                                       f"bench{turn}")))
                    results.append(asyncio.run(measure(args, pg_url, f"bench{turn}", data)))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    load_after = os.getloadavg()
    print(f"{args.moves} moves in {args.games} games of {args.game} a run"
          f"{' (--quick-move-commits)' if args.quick_move_commits else ''}, {loop_used}'s event loop, CPU time a "
          f"move (this process; "
          f"load average {load_before[0]:.2f} before, {load_after[0]:.2f} after):")
    for result in results:
        trips = f"{result['round_trips']:.2f}"
        database = f", PostgreSQL's processes {result['database_ms']:.3f} ms" if result["database"] == "postgresql" \
            else ""
        print(f"  {result['database']:10}  through the app (ASGI) {result['app_ms']:.3f} ms   GameService.move "
              f"alone {result['service_ms']:.3f} ms{database}   round trips a move {trips}")
    if args.postgres:
        for key, what in (("app_ms", "through the app"), ("service_ms", "GameService.move alone")):
            sqlite = statistics.median(r[key] for r in results if r["database"] == "sqlite")
            postgresql = statistics.median(r[key] for r in results if r["database"] == "postgresql")
            print(f"  median {what}: SQLite {sqlite:.3f} ms, PostgreSQL {postgresql:.3f} ms "
                  f"({postgresql / sqlite:.2f}x)")
    profiled = [result["profile"] for result in results if result["profile"] is not None]
    for number, profile in enumerate(profiled, start=1):
        pstats.Stats(profile).sort_stats(args.sort).print_stats(40)
        if args.profile_out:
            profile.dump_stats(args.profile_out if len(profiled) == 1 else f"{args.profile_out}.{number}")


if __name__ == "__main__":
    main()
