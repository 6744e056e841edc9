"""Registration, login (a cookie for browsers, a token for scripts), logout."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from boardlab.server import accounts
from boardlab.server.errors import Unauthorised
from boardlab.server.routes.deps import COOKIE, Caller, Service, bearer
from boardlab.server.schemas import LoginRequest, RegisterRequest, TokenOut, UserOut

router = APIRouter(prefix="/api", tags=["accounts"])


def _set_cookie(response: Response, token: str) -> None:
    response.set_cookie(COOKIE, token, max_age=accounts.SESSION_DAYS * 86400, httponly=True, samesite="lax")


@router.post("/register", response_model=TokenOut, status_code=201)
def register(body: RegisterRequest, service: Service, response: Response) -> TokenOut:
    out = service.register(body)
    _set_cookie(response, out.token)
    return out


@router.post("/login", response_model=TokenOut)
def login(body: LoginRequest, request: Request, service: Service, response: Response) -> TokenOut:
    address = request.client.host if request.client else "unknown"
    out = service.login(body, address)
    if out.kind == "session":
        _set_cookie(response, out.token)
    return out


@router.post("/logout", status_code=204)
def logout(request: Request, service: Service, response: Response) -> None:
    token = bearer(request.headers.get("authorization")) or request.cookies.get(COOKIE)
    if token:
        service.logout(token)
    response.delete_cookie(COOKIE)


@router.get("/me", response_model=UserOut)
def me(caller: Caller) -> UserOut:
    if caller.user is None:
        raise Unauthorised("not logged in")
    return UserOut(name=caller.user.name, email=caller.user.email)
