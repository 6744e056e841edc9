"""What every route needs: the service and who is asking (a bearer token, the session cookie, a seat token)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header, Query, Request
from starlette.concurrency import run_in_threadpool

from boardlab.server.play import Actor
from boardlab.server.service import GameService

COOKIE = "boardlab_session"


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
    service: Annotated[GameService, Depends(service)],
    authorization: Annotated[str | None, Header(description="Bearer TOKEN (an API or session token)")] = None,
    x_seat_token: Annotated[str | None, Header(description="a guest seat's token")] = None,
    seat_token: Annotated[str | None, Query(max_length=100, description="a guest seat's token")] = None,
) -> Actor:
    token = bearer(authorization) or request.cookies.get(COOKIE)
    seat = x_seat_token or seat_token
    known = service.known_actor(token, seat)  # most requests: no database, no thread
    return known if known is not None else await run_in_threadpool(service.actor, token, seat)


Service = Annotated[GameService, Depends(service)]
Caller = Annotated[Actor, Depends(actor)]
