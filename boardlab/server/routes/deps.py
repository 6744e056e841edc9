"""What every route needs: the service and who is asking (a bearer token, the session cookie, a seat token)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header, Query, Request
from starlette.concurrency import run_in_threadpool

from boardlab.errors import BoardlabError
from boardlab.server.play import Actor
from boardlab.server.service import GameService

COOKIE = "boardlab_session"
MAX_TOKENS = 4


async def service(request: Request) -> GameService:  # async: no trip through the thread pool
    found: GameService = request.app.state.service
    return found


def bearer(authorization: str | None) -> str | None:
    if authorization is None:
        return None
    scheme, _, token = authorization.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


async def actor(
    request: Request,
    authorization: Annotated[str | None, Header(description="Bearer TOKEN (an API or session token)")] = None,
    x_seat_token: Annotated[str | None, Header(description="a guest seat's token; several (a hot-seat "
                                                           "table's), comma-separated")] = None,
    seat_token: Annotated[str | None, Query(max_length=MAX_TOKENS * 101, description="a guest seat's token; "
                                            "several, comma-separated")] = None,
) -> Actor:
    # The service read here, not as a dependency of its own: FastAPI resolves each dependency on every
    # request (looked up in its cache even when already resolved), a cost on every move.
    service: GameService = request.app.state.service
    token = bearer(authorization) or request.cookies.get(COOKIE)
    seats = seat_tokens(x_seat_token or seat_token)
    known = service.accounts.known_actor(token, seats)  # most requests: no database, no thread
    return known if known is not None else await run_in_threadpool(service.accounts.actor, token, seats)


def seat_tokens(given: str | None) -> tuple[str, ...]:
    """The seat tokens in a header or query: one, or several comma-separated (a game has at most four seats)."""
    tokens = tuple(t for t in (part.strip() for part in (given or "").split(",")) if t)
    if len(tokens) > MAX_TOKENS:
        raise BoardlabError(f"{len(tokens)} seat tokens given; accepted: at most {MAX_TOKENS}, comma-separated")
    return tokens


Service = Annotated[GameService, Depends(service)]
Caller = Annotated[Actor, Depends(actor)]
