"""Challenges and games: create, answer, move, resign, draws, takebacks, records, lists, hints, events."""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, Path, Query, Request
from fastapi.responses import Response, StreamingResponse
from sse_starlette import EventSourceResponse, ServerSentEvent
from starlette.concurrency import run_in_threadpool

from boardlab.server import views
from boardlab.server.direct import DirectRoute
from boardlab.server.errors import Unavailable
from boardlab.server.lists import ArchiveQuery, Outcome
from boardlab.server.routes.deps import Caller, Service
from boardlab.server.schemas import (
    ArchiveOut,
    ComputerTurnOut,
    CreatedGameOut,
    CreateGameRequest,
    GameOut,
    GameSummary,
    HintOut,
    HintRequest,
    LeaderboardOut,
    LobbyOut,
    MoveRequest,
    OfferRequest,
    ProfileOut,
    SeatChoice,
    ServerStatusOut,
    UndoRequest,
)
from boardlab.server.service import GameService
from boardlab.server.status import GameStatus
from boardlab.server.strict_json import StrictJsonRoute

router = APIRouter(prefix="/api", tags=["games"], route_class=StrictJsonRoute)
GameId = Annotated[int, Path(ge=1, le=2**31 - 1)]
SeatQuery = Annotated[int | None, Query(ge=0, le=3, description="view as this seat (one you hold)")]
HINT_SECONDS = 60
KEEPALIVE_SECONDS = 15.0


async def make_move(game_id: GameId, body: MoveRequest, caller: Caller, request: Request) -> Response:
    # The service read from the app, not as a dependency: FastAPI resolves each dependency on every request.
    service: GameService = request.app.state.service
    return await service.move_soon(caller, game_id, body.ply, body.move, body.seat, _created)


def _created(out: GameOut) -> Response:
    return answer(out, status=201)


def add_move_route(app: FastAPI) -> None:
    """The move route, on ``app``'s own router, its first route: routers try their routes in order, and a
    move is the request made most often. On a router of its own that the app included, it would be found
    twice on every request (the app's router asks the included one whether it has the path, then the
    included router looks again to hand the request over), each time looking over all its routes; and
    its parameters are read without FastAPI's resolution of them where they are valid (DirectRoute). Its
    path and tag are this module's router's, as if it were one of its routes."""
    app.router.add_api_route(
        router.prefix + "/games/{game_id}/moves", make_move, methods=["POST"], tags=list(router.tags),
        response_model=GameOut, status_code=201, route_class_override=DirectRoute,
        responses={403: {"description": "not your seat"}, 409: {"description": "stale ply, or the game is over"},
                   422: {"description": "illegal move, with the rules' reason"}})


@router.post("/games", response_model=CreatedGameOut, status_code=201)
async def create_game(body: CreateGameRequest, caller: Caller, service: Service) -> CreatedGameOut:
    """A challenge (to users by name, or open to anyone), a game against the computer, or a game
    continued from an uploaded record. Without an account: a guest seat (its token comes back)."""
    upload = await service.read_upload(body)  # a record is replayed before, and outside, the transaction
    return await run_in_threadpool(service.create, caller, body, upload)


def answer(out: GameOut, status: int = 200) -> Response:
    """``out`` as JSON, already validated: the hot paths skip FastAPI's second validation of the answer."""
    return Response(views.game_json(out), status_code=status, media_type="application/json")


@router.get("/games/{game_id}", response_model=GameOut)
def get_game(game_id: GameId, caller: Caller, service: Service, seat: SeatQuery = None,
             ply: Annotated[int | None, Query(ge=0, le=100_000, description="the position after this many moves")]
             = None) -> Response:
    return answer(service.show(caller, game_id, seat, ply))


@router.get("/games/{game_id}/computer", response_model=ComputerTurnOut)
def computer_turn(game_id: GameId, service: Service) -> ComputerTurnOut:
    """Whether the computer is to move, and (with the server's search queue) its place in the queue."""
    return service.computer_turn(game_id)


@router.post("/games/{game_id}/accept", response_model=GameOut)
def accept(game_id: GameId, caller: Caller, service: Service, body: SeatChoice | None = None) -> GameOut:
    return service.accept(caller, game_id, body.seat if body else None)


@router.post("/games/{game_id}/decline", response_model=GameOut)
def decline(game_id: GameId, caller: Caller, service: Service) -> GameOut:
    return service.decline(caller, game_id)


@router.post("/games/{game_id}/resign", response_model=GameOut)
def resign(game_id: GameId, caller: Caller, service: Service, body: SeatChoice | None = None) -> GameOut:
    return service.resign(caller, game_id, body.seat if body else None)


@router.post("/games/{game_id}/draw", response_model=GameOut)
def draw(game_id: GameId, body: OfferRequest, caller: Caller, service: Service) -> GameOut:
    return service.draw(caller, game_id, body.action, body.seat)


@router.post("/games/{game_id}/undo", response_model=GameOut)
def undo(game_id: GameId, body: UndoRequest, caller: Caller, service: Service) -> GameOut:
    return service.undo(caller, game_id, body.action, body.seat)


@router.post("/games/{game_id}/rematch", response_model=CreatedGameOut, status_code=201)
def rematch(game_id: GameId, caller: Caller, service: Service) -> CreatedGameOut:
    """After a finished game, the same game again with the seats swapped (with three or four, each moved on
    by one): its other players are challenged, computer seats play again. If a rematch is offered already,
    this answers with it, and accepts it when it waits for you."""
    return service.rematch(caller, game_id)


@router.get("/games/{game_id}/record")
def record(game_id: GameId, caller: Caller, service: Service, seat: SeatQuery = None) -> dict[str, Any]:
    """The game as a boardlab JSON record: the referee's full record once the game is over; until then,
    the caller's seat's own record (a spectator's if they hold none)."""
    return service.record(caller, game_id, seat)


@router.post("/games/{game_id}/hint", response_model=HintOut)
async def hint(game_id: GameId, caller: Caller, service: Service, request: Request,
               body: HintRequest | None = None) -> HintOut:
    """The computer's top three moves for the seat to move, searched on that seat's view: in a game in play
    where you hold every seat a person plays (against the computer, hot-seat), or at any position of a
    finished game (the analysis board); never in a game against another person. Each search costs the
    server work, so one address may ask a few at once and then some a minute (429 with Retry-After beyond)."""
    service.hint_limit.take(request.client.host if request.client else "unknown")
    # The search runs in the computer seats' worker processes (service.ai), never in this event loop.
    seat, ply, future = await run_in_threadpool(service.hint_job, caller, game_id, body.seat if body else None,
                                                body.ply if body else None)
    try:
        found = await asyncio.wait_for(asyncio.wrap_future(future), HINT_SECONDS)
    except TimeoutError:
        raise Unavailable("the hint took too long; try again") from None
    return service.hint_out(seat, ply, found)


@router.get("/lobby", response_model=LobbyOut)
def lobby(caller: Caller, service: Service) -> LobbyOut:
    return service.lists.lobby(caller)


Name = Annotated[str | None, Query(max_length=64)]


@router.get("/archive", response_model=ArchiveOut)
def archive(caller: Caller, service: Service, player: Name = None,
            game: Annotated[str | None, Query(max_length=32, description="a game id")] = None,
            opponent: Name = None,
            result: Annotated[Outcome | None, Query(description="the player's result (drawn alone without a "
                                                                "player)")] = None,
            page: Annotated[int, Query(ge=1, le=100_000)] = 1) -> ArchiveOut:
    """Finished games, the latest first, 20 a page: a player's, a game's, against an opponent, by result.
    Games with no two people in them are listed only in their player's own archive, for them."""
    return service.lists.archive(caller, ArchiveQuery(player or None, game or None, opponent or None, result, page))


@router.get("/users/{name}", response_model=ProfileOut)
def profile(name: Annotated[str, Path(max_length=64)], caller: Caller, service: Service) -> ProfileOut:
    """A player: their rating in each game they played rated (with its history) and their latest games."""
    return service.lists.profile(caller, name)


@router.get("/leaderboard/{game}", response_model=LeaderboardOut)
def leaderboard(game: Annotated[str, Path(max_length=32)], service: Service) -> LeaderboardOut:
    """The best-rated players of a game (Glicko-2; those with a deviation over 110 are provisional)."""
    return service.lists.leaderboard(game)


@router.get("/status", response_model=ServerStatusOut)
def status(service: Service) -> ServerStatusOut:
    """Whether each game's rules are ready: after a start the server compiles them in the background."""
    return service.status()


@router.get("/my/games", response_model=list[GameSummary])
def my_games(caller: Caller, service: Service) -> list[GameSummary]:
    """The caller's games: those waiting for them (their turn, a challenge to answer) first."""
    return service.lists.my_games(caller)


@router.get("/games/{game_id}/events", response_class=StreamingResponse,
            responses={200: {"content": {"text/event-stream": {}},
                             "description": "Server-Sent Events: 'game' (the game as GameOut, from your seat's "
                                            "view) at once and after every change; 'end' when it is over"}})
async def events(game_id: GameId, request: Request, caller: Caller, service: Service,
                 seat: SeatQuery = None,
                 after_end: Annotated[bool, Query(description="after the end, go on until a rematch is offered "
                                                              "(the game page's Rematch)")] = False,
                 ) -> EventSourceResponse:
    first = await run_in_threadpool(service.show, caller, game_id, seat)  # 403/404 before the stream opens

    async def stream() -> AsyncIterator[ServerSentEvent]:
        channel = f"game:{game_id}"
        queue = service.broker.subscribe(channel)
        try:
            yield _comment(f"boardlab worker {os.getpid()}")  # clients skip it: which process serves
            out, sent, ended = first, -1, False
            while True:
                if out.version != sent:
                    sent = out.version
                    yield _event("game", views.game_json(out).decode(), id=str(out.version))
                if out.status.is_over:
                    if not ended:
                        ended = True
                        yield _event("end", json.dumps({"status": out.status}))
                    if not after_end or out.status == GameStatus.DECLINED or out.rematch is not None:
                        return
                await queue.get()
                out = await run_in_threadpool(service.show, caller, game_id, seat)
        finally:
            service.broker.unsubscribe(queue, channel)

    return _event_stream(stream())


@router.get("/my/events", response_class=StreamingResponse,
            responses={200: {"content": {"text/event-stream": {}},
                             "description": "Server-Sent Events: 'lobby' whenever one of your games, a challenge "
                                            "to you, or the list of open challenges and games changes (fetch "
                                            "/api/lobby again); logged-out callers hear the public lobby only"}})
async def my_events(caller: Caller, service: Service) -> EventSourceResponse:
    channels = ["lobby"] if caller.user is None else ["lobby", f"user:{caller.user.id}"]

    async def stream() -> AsyncIterator[ServerSentEvent]:
        queue = service.broker.subscribe(*channels)
        try:
            while True:
                yield _event("lobby", "{}")
                await queue.get()
        finally:
            service.broker.unsubscribe(queue, *channels)

    return _event_stream(stream())


# The streams' frames, as the browser's EventSource and the tests read them: fields end with a bare
# newline; a quiet stream sends the comment ": keep-alive" every KEEPALIVE_SECONDS, so that proxies keep
# it open (and the server learns of a client gone).
def _event(name: str, data: str, id: str | None = None) -> ServerSentEvent:
    return ServerSentEvent(data, event=name, id=id, sep="\n")


def _comment(text: str) -> ServerSentEvent:
    return ServerSentEvent(comment=text, sep="\n")


def _event_stream(events: AsyncIterator[ServerSentEvent]) -> EventSourceResponse:
    return EventSourceResponse(events, headers={"Cache-Control": "no-cache"}, sep="\n", ping=KEEPALIVE_SECONDS,
                               ping_message_factory=lambda: _comment("keep-alive"))
