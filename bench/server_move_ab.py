"""Two versions of the server compared on a busy machine: a move's CPU through the app, in lockstep.

    python bench/server_move_ab.py OLD_TREE NEW_TREE              # 100 blocks of 100 moves each
    python bench/server_move_ab.py OLD_TREE NEW_TREE --service    # GameService.move alone
    python bench/server_move_ab.py OLD_TREE NEW_TREE --postgres   # each on SQLite and on PostgreSQL

Each tree (a checkout, e.g. ``git worktree add /tmp/old main``) gets a process of its own, running
this script on that tree's code (its ``bench/server_move.py`` included), which sets up the app as
``bench/server_move.py`` does (SQLite, one player holding both seats of 20 Ndengrod games,
random legal moves) and warmed up; then the two play blocks of moves in turns (old, new, new, old, …),
so that whatever else the machine runs weighs on both alike. Printed: each one's median CPU time a
move (in the app, as ``bench/server_move.py`` counts it), and the median and quartiles of new/old over
the pairs of blocks. Numbers from a loaded machine compare the two trees; they are not the speed of
either. With ``--postgres`` each tree plays on SQLite and on a throw-away PostgreSQL cluster (a database
of its own there), four processes in turns (the order turned round every block), and the ratio
PostgreSQL/SQLite of each tree is printed too, over the blocks played side by side. Not a test: nothing is
asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any


async def serve_blocks(service_only: bool, db_url: str | None) -> None:
    """The worker: set up, print ``ready``, then for each number read run that many moves and print the
    CPU milliseconds a move."""
    folder = Path(tempfile.mkdtemp(prefix="boardlab-ab-"))
    try:
        await play_blocks(service_only, db_url or f"sqlite:///{folder / 'bench.db'}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


async def play_blocks(service_only: bool, db_url: str) -> None:
    sys.path.insert(0, str(Path.cwd() / "bench"))
    from server_move import Caller

    from boardlab.server.app import create_app
    from boardlab.server.config import Settings

    app = create_app(Settings(db_url=db_url, background=False))
    service = app.state.service
    rng = random.Random(1)
    async with app.router.lifespan_context(app):
        call = Caller(app)
        _, answer = await call("POST", "/api/register", {"name": "bench", "password": "benchmark password"})
        call.headers.append((b"authorization", f"Bearer {answer['token']}".encode()))
        actor = service.accounts.actor(answer["token"])
        new = {"game": "ndengrod", "seats": [{"kind": "me"}] * 2}
        games: list[dict[str, Any]] = [(await call("POST", "/api/games", new))[1]["game"] for _ in range(20)]
        played = 0

        async def block(size: int) -> float:
            nonlocal played
            spent = 0.0
            for _ in range(size):
                game = games[played % len(games)]
                if game["status"] != "active":
                    game = (await call("POST", "/api/games", new))[1]["game"]
                move = rng.choice(game["view"]["legal_moves"])
                if service_only:
                    began = time.process_time()
                    out = service.move(actor, game["id"], game["ply"], move, None)
                    spent += time.process_time() - began
                    await asyncio.sleep(0)  # the loop's turn, as between requests (PostgreSQL's notifications)
                    game = {"id": out.id, "ply": out.ply, "status": out.status,
                            "view": {"legal_moves": out.view.legal_moves}}
                else:
                    call.inside = 0.0
                    status, game = await call("POST", f"/api/games/{game['id']}/moves",
                                              {"ply": game["ply"], "move": move})
                    assert status == 201, game
                    spent += call.inside
                games[played % len(games)] = game
                played += 1
            return spent * 1000 / size

        await block(400)  # warm up: numba's kernels, SQLAlchemy's statement cache
        print("ready", flush=True)
        for line in sys.stdin:
            print(f"{await block(int(line)):.5f}", flush=True)


def use_loop(name: str) -> str:
    """bench/server_move.py's ``use_loop`` from beside this script (an old tree's copy may lack it)."""
    sibling = Path(__file__).resolve().parent / "server_move.py"
    here = importlib.util.spec_from_file_location("server_move_here", sibling)
    assert here is not None and here.loader is not None
    module = importlib.util.module_from_spec(here)
    here.loader.exec_module(module)
    return str(module.use_loop(name))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old", nargs="?", help="the tree measured first (its repository root)")
    parser.add_argument("new", nargs="?", help="the tree compared with it")
    parser.add_argument("--blocks", type=int, default=100, help="blocks of moves each (100)")
    parser.add_argument("--size", type=int, default=100, help="moves a block (100)")
    parser.add_argument("--service", action="store_true", help="GameService.move alone, not through the app")
    parser.add_argument("--postgres", action="store_true",
                        help="each tree on SQLite and on a throw-away PostgreSQL cluster, four processes in turns")
    parser.add_argument("--loop", choices=("auto", "asyncio", "uvloop"), default="auto",
                        help="the workers' event loop, as bench/server_move.py's --loop (auto: uvloop where installed)")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--db", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        use_loop(args.loop)  # this script's own server_move's, so both trees run on the same loop
        asyncio.run(serve_blocks(args.service, args.db))
        return
    if not args.old or not args.new:
        parser.error("give the two trees")
    trees = {"old": Path(args.old).resolve(), "new": Path(args.new).resolve()}
    if not args.postgres:
        compare(args, {name: (tree, None) for name, tree in trees.items()})
        return
    sys.path.insert(0, str(Path(__file__).parent))
    import psycopg
    from server_load import postgres_cluster

    with postgres_cluster() as (url, _):
        with psycopg.connect(url.replace("postgresql+psycopg://", "postgresql://"), autocommit=True) as connection:
            for name in trees:
                connection.execute(f"CREATE DATABASE bench_{name}")
        compare(args, {**{f"{name} sqlite": (tree, None) for name, tree in trees.items()},
                       **{f"{name} postgresql": (tree, url.rsplit("/", 1)[0] + f"/bench_{name}")
                          for name, tree in trees.items()}})


def compare(args: argparse.Namespace, runs: dict[str, tuple[Path, str | None]]) -> None:
    """Play blocks of moves in each of ``runs`` (a name: the tree and the database's URL, ``None``: a new
    SQLite file) in turns, and print what each spent a move and the ratios of interest."""
    workers = {name: subprocess.Popen(
        [sys.executable, str(Path(__file__).resolve()), "--worker", "--loop", args.loop,
         *(["--service"] if args.service else []),
         *(["--db", db_url] if db_url else [])],
        cwd=tree, env={**os.environ, "PYTHONPATH": str(tree)}, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        text=True) for name, (tree, db_url) in runs.items()}
    for name, worker in workers.items():
        assert worker.stdout is not None and worker.stdout.readline().strip() == "ready", f"{name} did not start"
    load_before = os.getloadavg()
    spent: dict[str, list[float]] = {name: [] for name in runs}
    names = list(runs)
    for number in range(args.blocks):
        for name in names if number % 2 == 0 else names[::-1]:
            worker = workers[name]
            assert worker.stdin is not None and worker.stdout is not None
            worker.stdin.write(f"{args.size}\n")
            worker.stdin.flush()
            spent[name].append(float(worker.stdout.readline()))
    for worker in workers.values():
        assert worker.stdin is not None
        worker.stdin.close()
        worker.wait()
    load_after = os.getloadavg()
    what = "GameService.move alone" if args.service else "through the app"
    print(f"{args.blocks} blocks of {args.size} moves each, {what}, --loop {args.loop}, CPU time a move (load average "
          f"{load_before[0]:.2f} before, {load_after[0]:.2f} after):")
    print("  " + ", ".join(f"{name} {statistics.median(spent[name]):.3f} ms" for name in names) + " (medians)")
    pairs = [(f"{name} sqlite", f"{name} postgresql", f"{name}: PostgreSQL/SQLite") for name in ("old", "new")]
    pairs += [(f"old{suffix}", f"new{suffix}", f"new/old{suffix}") for suffix in (" sqlite", " postgresql", "")]
    for first, second, label in pairs:
        if first in spent and second in spent:
            ratios = [b / a for a, b in zip(spent[first], spent[second], strict=True)]
            quartiles = statistics.quantiles(ratios, n=4)
            print(f"  {label} {statistics.median(ratios):.3f} (quartiles {quartiles[0]:.3f}-{quartiles[2]:.3f})")


if __name__ == "__main__":
    main()
