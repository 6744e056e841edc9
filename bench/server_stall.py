"""Stall benchmark for ``boardlab serve``: how long other players' moves take while slow work floods in.

    python bench/server_stall.py                     # SQLite, one worker: 80 registrations, 3 uploads
    python bench/server_stall.py --postgres          # a throw-away PostgreSQL
    python bench/server_stall.py --registrations 80 --uploads 3 --plies 3000 --movers 4 --think 0.05

A few players (``--movers``) each play their own game (holding both seats) at a steady pace. After a
quiet spell (the baseline), a storm comes at once: ``--registrations`` new accounts (each hashes a
password with argon2, some 100 ms of CPU and 64 MiB) and ``--uploads`` uploads of a ``--plies``-move
Mynd record (each replayed by the rules before it is stored). The movers' move latency (from
sending a move to its answer, measured by the client) is reported for the quiet spell and for the
storm (from its first request to its last answer), with the storm's own timings. The server runs
in its own process; the client in this one, on the same machine (it shares the cores). Not a test:
nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from server_load import Http, cpu_seconds, postgres, server


def long_record(plies: int, seed: int = 1) -> dict[str, Any]:
    """A Mynd game (25×25, capped at ``plies``) of ``plies`` moves, each drawn at random among those that
    do not end it (a random game ends soon), as the referee's record."""
    import boardlab
    from boardlab import records

    rng = random.Random(seed)
    state = boardlab.load("mynd", size=25, ply_cap=plies).new_game()
    while not state.is_over:
        moves = state.legal_moves()
        rng.shuffle(moves)
        moves.sort(key=lambda move: move.text == "pass")  # passes last: two in a row end the game
        for move in moves[:30]:
            after = state.play(move)
            if not after.is_over:
                break
        state = after
    return records.GameRecord.from_state(state, players=["a", "b"]).to_dict()


def quantiles(values: list[float]) -> dict[str, float | int | None]:
    ordered = sorted(values)

    def at(q: float) -> float | None:
        return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000, 1) if ordered else None

    return {"n": len(ordered), "p50_ms": at(0.5), "p99_ms": at(0.99),
            "max_ms": round(ordered[-1] * 1000, 1) if ordered else None}


class Run:
    def __init__(self) -> None:
        self.moves: list[tuple[float, float]] = []  # (sent at, latency)
        self.errors: dict[str, int] = {}
        self.stop = False

    def error(self, key: str) -> None:
        self.errors[key] = self.errors.get(key, 0) + 1


async def mover(number: int, url: str, args: argparse.Namespace, run: Run, ready: asyncio.Event) -> None:
    rng = random.Random(number)
    http = Http(url)
    try:
        status, answer = await http.request("POST", "/api/register", {"name": f"m{number}_{os.getpid()}",
                                                                       "password": "benchmark password"})
        if status != 201:
            raise SystemExit(f"registration failed: {status} {answer}")
        http.authorise(answer["token"])
        body = {"game": "ndengrod", "seats": [{"kind": "me"}, {"kind": "me"}]}
        game: dict[str, Any] | None = None
        ready.set()
        while not run.stop:
            if game is None or game["status"] != "active":
                status, created = await http.request("POST", "/api/games", body)
                if status != 201:
                    run.error(f"new game {status}")
                    await asyncio.sleep(args.think)
                    continue
                game = created["game"]
            move = {"ply": game["ply"], "move": rng.choice(game["view"]["legal_moves"])}
            sent = time.perf_counter()
            try:
                status, answer = await http.request("POST", f"/api/games/{game['id']}/moves", move)
            except (OSError, asyncio.IncompleteReadError) as error:
                run.error(type(error).__name__)
                game = None
                continue
            took = time.perf_counter() - sent
            if status != 201:
                run.error(f"move {status}")
                game = None
                continue
            run.moves.append((sent, took))
            game = answer
            await asyncio.sleep(max(0.0, args.think - took))
    finally:
        await http.close()


async def timed(url: str, method: str, path: str, body: Any) -> tuple[int, float]:
    http = Http(url)
    began = time.perf_counter()
    try:
        status, _ = await http.request(method, path, body)
    finally:
        await http.close()
    return status, time.perf_counter() - began


async def bench(url: str, pid: int, args: argparse.Namespace, record: dict[str, Any]) -> dict[str, Any]:
    run = Run()
    readies = [asyncio.Event() for _ in range(args.movers)]
    movers = [asyncio.create_task(mover(n, url, args, run, readies[n])) for n in range(args.movers)]
    await asyncio.gather(*(r.wait() for r in readies))
    await asyncio.sleep(1.0)  # the movers' first moves (one-off costs) before the baseline
    quiet_from = time.perf_counter()
    await asyncio.sleep(args.quiet)
    load_before = os.getloadavg()
    cpu_before = cpu_seconds(pid)
    storm_from = time.perf_counter()
    upload = {"record": record, "seats": [{"kind": "guest"}, {"kind": "guest"}]}
    storm = [timed(url, "POST", "/api/register", {"name": f"r{n}_{os.getpid()}", "password": "benchmark password"})
             for n in range(args.registrations)]
    storm += [timed(url, "POST", "/api/games", upload) for _ in range(args.uploads)]
    results = await asyncio.gather(*storm)
    storm_to = time.perf_counter()
    server_cpu = cpu_seconds(pid) - cpu_before
    load_after = os.getloadavg()
    await asyncio.sleep(args.after)
    run.stop = True
    await asyncio.gather(*movers)
    registrations, uploads = results[:args.registrations], results[args.registrations:]
    return {
        "movers": args.movers, "think_s": args.think, "registrations": args.registrations,
        "uploads": args.uploads, "record_moves": len(record["moves"]),
        "record_bytes": len(json.dumps(upload)),
        "quiet": quantiles([took for sent, took in run.moves if quiet_from <= sent < storm_from]),
        "storm": quantiles([took for sent, took in run.moves if storm_from <= sent < storm_to]),
        "storm_s": round(storm_to - storm_from, 2),
        "registration_s": {"median": round(sorted(t for _, t in registrations)[len(registrations) // 2], 2)
                           if registrations else None,
                           "max": round(max((t for _, t in registrations), default=0), 2)},
        "upload_s": [round(t, 2) for _, t in uploads],
        "statuses": sorted({str(s) for s, _ in results}), "errors": run.errors,
        "server_cpu_s_in_storm": round(server_cpu, 2),
        "load_before": [round(x, 2) for x in load_before], "load_after": [round(x, 2) for x in load_after],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", help="database URL (default: a new SQLite file in a temporary folder)")
    parser.add_argument("--postgres", action="store_true", help="start a throw-away PostgreSQL cluster for the run")
    parser.add_argument("--registrations", type=int, default=80, help="accounts registered at once (80)")
    parser.add_argument("--uploads", type=int, default=3, help="records uploaded at once (3)")
    parser.add_argument("--plies", type=int, default=3000, help="moves in the uploaded record (3000)")
    parser.add_argument("--movers", type=int, default=4, help="players moving meanwhile, each in its own game (4)")
    parser.add_argument("--think", type=float, default=0.05, help="seconds between a mover's moves (0.05)")
    parser.add_argument("--quiet", type=float, default=5, help="seconds of play measured before the storm (5)")
    parser.add_argument("--after", type=float, default=1, help="seconds of play after the storm (1)")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON line")
    args = parser.parse_args()
    print(f"making a {args.plies}-move record …", file=sys.stderr, flush=True)
    record = long_record(args.plies)
    folder = Path(tempfile.mkdtemp(prefix="boardlab-bench-"))
    with contextmanager(lambda: (yield None))() if not args.postgres else postgres() as pg_url:
        db_url = pg_url or args.db or f"sqlite:///{folder / 'bench.db'}"
        with server(db_url, 1, folder) as (url, pid):
            result = asyncio.run(bench(url, pid, args, record))
    result["database"] = db_url.split(":", 1)[0]
    if args.json:
        print(json.dumps(result))
    else:
        print(f"{result['database']}, one worker; {args.movers} players moving every {args.think:g} s; storm: "
              f"{args.registrations} registrations and {args.uploads} uploads of a {result['record_moves']}-move "
              f"record ({result['record_bytes']:,} bytes) at once")
        for phase in ("quiet", "storm"):
            figures = result[phase]
            print(f"  moves, {phase:5}   {figures['n']:4} moves: p50 {figures['p50_ms']} ms, p99 {figures['p99_ms']} "
                  f"ms, max {figures['max_ms']} ms")
        print(f"  storm          {result['storm_s']} s; registrations: median {result['registration_s']['median']} s, "
              f"last {result['registration_s']['max']} s; uploads {result['upload_s']} s; "
              f"answers {', '.join(result['statuses'])}")
        print(f"  server CPU     {result['server_cpu_s_in_storm']} s during the storm")
        print(f"  errors         {result['errors'] or 'none'}")
        print(f"  load average   {result['load_before']} before the storm, {result['load_after']} after")
    shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
