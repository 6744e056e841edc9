"""Guests playing the computer at once: how long each waits for the computer's reply, and how the server
answers meanwhile. Against a real ``boardlab serve`` over loopback.

    python bench/computer_seats.py --guests 10 --level 5                 # SQLite, the server's own search pool
    python bench/computer_seats.py --guests 10 --level 3 --postgres --ai-queue --ai-workers 2
                                                # searches queued in PostgreSQL, two `boardlab ai-worker`s

Each guest starts a game against ``level{L}`` (no account: a guest seat), and whenever it is its turn plays a
random legal move at once, starting a new game when one ends. Reply time: from the guest's move being
answered to the computer's move arriving on the game's live updates (SSE). Server latency: the time to
answer the guests' moves. With ``--ai-queue`` the server searches nothing itself; ``--ai-workers`` N
processes (standing for other machines) take the jobs; without it the server's own pool
(``--pool`` processes) searches. Computer moves a second over the run are printed too. On the shared
2-core machine everything competes for the same cores: figures say what this machine sustains, not how
more machines would scale. Not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).parent))
from server_load import free_port, postgres


@contextmanager
def process(command: list[str], log: Path) -> Iterator[subprocess.Popen[bytes]]:
    with open(log, "wb") as out:
        started = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    try:
        yield started
    finally:
        if started.poll() is None:
            started.terminate()
            try:
                started.wait(timeout=20)
            except subprocess.TimeoutExpired:
                started.kill()


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


async def guest(url: str, level: int, game: str, rng: random.Random, stop: asyncio.Event,
                replies: list[float], latencies: list[float]) -> None:
    async with httpx.AsyncClient(base_url=url, timeout=httpx.Timeout(30, read=600)) as client:
        while not stop.is_set():
            created = (await client.post("/api/games", json={
                "game": game, "seats": [{"kind": "guest"}, {"kind": "ai", "agent": f"level{level}"}]})).json()
            headers = {"X-Seat-Token": created["invitations"]["0"]}
            game_id = created["game"]["id"]
            async with client.stream("GET", f"/api/games/{game_id}/events", headers=headers) as events:
                waiting_since: float | None = None
                async for line in events.aiter_lines():
                    if stop.is_set():
                        return
                    if not line.startswith("data:") or '"view"' not in line:
                        continue
                    shown = json.loads(line[5:])
                    if shown["status"] != "active":
                        break
                    if shown["to_move"] != 0:
                        continue
                    if waiting_since is not None:
                        replies.append(time.perf_counter() - waiting_since)
                    move = rng.choice(shown["view"]["legal_moves"])
                    sent = time.perf_counter()
                    answer = await client.post(f"/api/games/{game_id}/moves", headers=headers,
                                               json={"ply": shown["ply"], "move": move})
                    latencies.append(time.perf_counter() - sent)
                    if answer.status_code != 201:
                        break
                    waiting_since = time.perf_counter() if answer.json()["status"] == "active" else None


async def run(url: str, args: argparse.Namespace) -> dict[str, Any]:
    replies: list[float] = []
    latencies: list[float] = []
    stop = asyncio.Event()
    tasks = [asyncio.create_task(guest(url, args.level, args.game, random.Random(n), stop, replies, latencies))
             for n in range(args.guests)]
    await asyncio.sleep(args.warmup)
    replies.clear()
    latencies.clear()
    began = time.perf_counter()
    await asyncio.sleep(args.seconds)
    measured = time.perf_counter() - began
    done_replies, done_latencies = list(replies), list(latencies)
    stop.set()
    for task in tasks:
        task.cancel()
    for task in tasks:
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
    return {"guests": args.guests, "level": args.level, "seconds": round(measured, 1),
            "computer_moves": len(done_replies), "computer_moves_per_s": round(len(done_replies) / measured, 2),
            "reply_median_s": round(statistics.median(done_replies), 2) if done_replies else None,
            "reply_p90_s": round(percentile(done_replies, 0.9), 2),
            "server_p50_ms": round(percentile(done_latencies, 0.5) * 1000, 1),
            "server_p99_ms": round(percentile(done_latencies, 0.99) * 1000, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--guests", type=int, default=10, help="guests playing at once (10)")
    parser.add_argument("--level", type=int, default=3, help="the computer's level (3)")
    parser.add_argument("--game", default="ndengrod", help="the game (ndengrod)")
    parser.add_argument("--seconds", type=float, default=60, help="how long to measure (60)")
    parser.add_argument("--warmup", type=float, default=10, help="seconds before measuring (10)")
    parser.add_argument("--postgres", action="store_true", help="a throw-away PostgreSQL (needed for --ai-queue)")
    parser.add_argument("--ai-queue", action="store_true", help="searches as jobs for `boardlab ai-worker`s")
    parser.add_argument("--ai-workers", type=int, default=1, help="with --ai-queue: ai-worker processes (1)")
    parser.add_argument("--pool", type=int, default=1, help="without --ai-queue: the server's search processes (1)")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON line")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="boardlab-seats-"))
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    load_before = os.getloadavg()
    try:
        with ExitStack() as stack:
            db = stack.enter_context(postgres()) if args.postgres else f"sqlite:///{folder / 'seats.db'}"
            command = [sys.executable, "-m", "boardlab", "serve", "--db", db, "--port", str(port),
                       "--log-level", "warning", "--ai-workers", str(args.pool)]
            stack.enter_context(process(command + (["--ai-queue"] if args.ai_queue else []), folder / "serve.log"))
            deadline = time.monotonic() + 120
            while True:
                with contextlib.suppress(httpx.HTTPError):
                    if all(httpx.get(f"{url}/api/status", timeout=2).json()["rules_ready"].values()):
                        break
                if time.monotonic() > deadline:
                    raise SystemExit(f"the server did not start: {(folder / 'serve.log').read_text()[-2000:]}")
                time.sleep(0.2)
            if args.ai_queue:
                for n in range(args.ai_workers):
                    stack.enter_context(process([sys.executable, "-m", "boardlab", "ai-worker", "--db", db,
                                                 "--log-level", "warning"], folder / f"worker{n}.log"))
            figures = asyncio.run(run(url, args))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    figures["searches"] = f"{args.ai_workers} ai-worker(s)" if args.ai_queue else f"server pool of {args.pool}"
    figures["load_before"] = [round(x, 2) for x in load_before]
    figures["load_after"] = [round(x, 2) for x in os.getloadavg()]
    if args.json:
        print(json.dumps(figures))
        return
    print(f"{args.guests} guests against level{args.level} in {args.game}, {figures['searches']}, "
          f"{figures['seconds']} s measured:")
    print(f"  computer's reply   median {figures['reply_median_s']} s, p90 {figures['reply_p90_s']} s "
          f"({figures['computer_moves']} moves, {figures['computer_moves_per_s']} a second)")
    print(f"  server latency     p50 {figures['server_p50_ms']} ms, p99 {figures['server_p99_ms']} ms (guests' moves)")
    print(f"  load average       {figures['load_before']} before, {figures['load_after']} after")


if __name__ == "__main__":
    main()
