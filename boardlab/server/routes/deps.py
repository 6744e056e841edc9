"""What every route needs: the service and who is asking (a bearer token, the session cookie, a seat token)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.dependencies.models import Dependant
from fastapi.exceptions import RequestValidationError
from fastapi.routing import APIRoute
from starlette.concurrency import run_in_threadpool

from boardlab.errors import BoardlabError
from boardlab.server.play import Actor
from boardlab.server.service import GameService

COOKIE = "boardlab_session"
MAX_TOKENS = 4
MAX_QUERY_TOKENS = MAX_TOKENS * 101  # four tokens, comma-separated


async def service(request: Request) -> GameService:  # async: no trip through the thread pool
    found: GameService = request.app.state.service
    return found


def bearer(authorization: str | None) -> str | None:
    if authorization is None:
        return None
    scheme, _, token = authorization.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


async def actor(request: Request) -> Actor:
    """The caller: a bearer token (``Authorization``), else the session cookie; and the guest seats' tokens
    (``X-Seat-Token``, else the ``seat_token`` query parameter). Read from the request here, once, rather
    than declared as FastAPI parameters: each declared parameter is looked up and validated on every
    request, a share of a move's CPU worth saving (bench/server_move.py). The schema still lists them
    (:func:`document_caller`)."""
    # The service read here, not as a dependency of its own: FastAPI resolves each dependency on every
    # request (looked up in its cache even when already resolved), a cost on every move.
    service: GameService = request.app.state.service
    headers = request.headers
    token = bearer(headers.get("authorization")) or request.cookies.get(COOKIE)
    query = request.query_params.get("seat_token") if request.scope["query_string"] else None
    if query is not None and len(query) > MAX_QUERY_TOKENS:  # as FastAPI would refuse a declared parameter
        raise RequestValidationError([{
            "type": "string_too_long", "loc": ("query", "seat_token"), "input": query,
            "msg": f"String should have at most {MAX_QUERY_TOKENS} characters",
            "ctx": {"max_length": MAX_QUERY_TOKENS}}])
    seats = seat_tokens(headers.get("x-seat-token") or query)
    known = service.accounts.known_actor(token, seats)  # most requests: no database, no thread
    return known if known is not None else await run_in_threadpool(service.accounts.actor, token, seats)


def seat_tokens(given: str | None) -> tuple[str, ...]:
    """The seat tokens in a header or query: one, or several comma-separated (a game has at most four seats)."""
    tokens = tuple(t for t in (part.strip() for part in (given or "").split(",")) if t)
    if len(tokens) > MAX_TOKENS:
        raise BoardlabError(f"{len(tokens)} seat tokens given; accepted: at most {MAX_TOKENS}, comma-separated")
    return tokens


def _optional_text(name: str, where: str, title: str, description: str,
                   max_length: int | None = None) -> dict[str, Any]:
    """An optional text parameter, as FastAPI writes a declared one in the schema."""
    text: dict[str, Any] = {"type": "string"} if max_length is None else {"type": "string", "maxLength": max_length}
    return {"name": name, "in": where, "required": False, "description": description,
            "schema": {"anyOf": [text, {"type": "null"}], "description": description, "title": title}}


# What :func:`actor` reads, as the OpenAPI schema lists it on each route that asks who is calling.
CALLER_PARAMETERS = [
    _optional_text("seat_token", "query", "Seat Token", "a guest seat's token; several, comma-separated",
                   MAX_QUERY_TOKENS),
    _optional_text("authorization", "header", "Authorization", "Bearer TOKEN (an API or session token)"),
    _optional_text("x-seat-token", "header", "X-Seat-Token",
                   "a guest seat's token; several (a hot-seat table's), comma-separated"),
]
VALIDATION_ERROR = {"description": "Validation Error",
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/HTTPValidationError"}}}}


def _asks_for_caller(dependant: Dependant) -> bool:
    return any(d.call is actor or _asks_for_caller(d) for d in dependant.dependencies)


def document_caller(router: APIRouter) -> APIRouter:
    """``router``, each of its routes that depends on :func:`actor` listing the caller's headers and query
    parameter in the schema (:data:`CALLER_PARAMETERS`) as if they were declared. Once per route."""
    for route in router.routes:
        if not isinstance(route, APIRoute) or not _asks_for_caller(route.dependant):
            continue
        extra = dict(route.openapi_extra or {})
        listed = {(p["name"], p["in"]) for p in extra.get("parameters", [])}
        extra["parameters"] = [*extra.get("parameters", []),
                               *(p for p in CALLER_PARAMETERS if (p["name"], p["in"]) not in listed)]
        if 422 not in route.responses and "422" not in route.responses:
            # A seat token too long is refused as a declared parameter's would be (422).
            extra["responses"] = {**extra.get("responses", {}), "422": VALIDATION_ERROR}
        route.openapi_extra = extra
    return router


Service = Annotated[GameService, Depends(service)]
Caller = Annotated[Actor, Depends(actor)]
