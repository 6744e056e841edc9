"""CPU time of one move on the server, in this process: no sockets, no other clients, no contention.

    python bench/server_move.py              # 3000 moves in 20 games of Ndengrod, SQLite
    python bench/server_move.py --profile    # and the functions that took the time (cProfile)

Two figures: the move through the whole app (a raw ASGI call: routing, the caller, the body's
validation, the transaction, the answer built and serialised), and ``GameService.move`` alone (the
transaction and the answer's model). One player holds both seats of each game and plays random legal
moves, starting a new game when one ends, as ``bench/server_load.py`` does over loopback; this one
says where a move's CPU goes, that one what the machine sustains. Not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import pstats
import random
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

from boardlab.server.app import create_app
from boardlab.server.config import Settings


class Caller:
    """Requests straight into the ASGI app, as uvicorn would hand them over."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.headers: list[tuple[bytes, bytes]] = [(b"host", b"bench"), (b"content-type", b"application/json")]

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

        await self.app(scope, receive, send)
        return status, json.loads(b"".join(chunks))


async def measure(args: argparse.Namespace, folder: Path) -> None:
    app = create_app(Settings(db_url=f"sqlite:///{folder / 'bench.db'}", background=False))
    service = app.state.service
    rng = random.Random(1)
    async with app.router.lifespan_context(app):
        call = Caller(app)
        status, answer = await call("POST", "/api/register", {"name": "bench", "password": "benchmark password"})
        assert status == 201, answer
        call.headers.append((b"authorization", f"Bearer {answer['token']}".encode()))
        actor = service.actor(answer["token"])
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
        began = time.process_time()
        for number in range(args.moves):
            await through_app(number)
        whole = time.process_time() - began
        profile = cProfile.Profile() if args.profile else None
        began = time.process_time()
        if profile:
            profile.enable()
        for number in range(args.moves):
            service_only(number)
        if profile:
            profile.disable()
        alone = time.process_time() - began
    plies = sum(game["ply"] for game in games) / len(games)
    print(f"{args.moves} moves in {args.games} games of {args.game} (SQLite; games at ply {plies:.0f} on average "
          f"at the end), CPU time a move:")
    print(f"  through the app (ASGI)   {whole * 1000 / args.moves:.3f} ms")
    print(f"  GameService.move alone   {alone * 1000 / args.moves:.3f} ms" + (" (profiled)" if profile else ""))
    if profile:
        pstats.Stats(profile).sort_stats("cumulative").print_stats(40)


def service_request(body: dict[str, Any]) -> Any:
    from boardlab.server.schemas import CreateGameRequest

    return CreateGameRequest.model_validate(body)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=3000, help="moves measured (3000)")
    parser.add_argument("--games", type=int, default=20, help="games played at once (20)")
    parser.add_argument("--game", default="ndengrod", help="the game (ndengrod)")
    parser.add_argument("--profile", action="store_true", help="profile GameService.move with cProfile")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="boardlab-bench-"))
    try:
        asyncio.run(measure(args, folder))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
