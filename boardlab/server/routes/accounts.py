"""Registration, login (a cookie for browsers, a token for scripts), logout."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from boardlab.server import accounts
from boardlab.server.errors import Unauthorised
from boardlab.server.routes.deps import COOKIE, Caller, Service, bearer
from boardlab.server.schemas import LoginRequest, RegisterRequest, TokenOut, UserOut
from boardlab.server.strict_json import StrictJsonRoute

router = APIRouter(prefix="/api", tags=["accounts"], route_class=StrictJsonRoute)


def _set_cookie(request: Request, response: Response, token: str) -> None:
    # Secure (HTTPS only) when the server is told so, or when this request came over HTTPS (uvicorn reads a
    # proxy's X-Forwarded-Proto from the addresses in --forwarded-allow-ips).
    secure = request.app.state.settings.secure_cookies or request.url.scheme == "https"
    response.set_cookie(COOKIE, token, max_age=accounts.SESSION_DAYS * 86400, httponly=True, samesite="lax",
                        secure=secure)


@router.post("/register", response_model=TokenOut, status_code=201)
async def register(body: RegisterRequest, request: Request, service: Service, response: Response) -> TokenOut:
    out = await service.register(body)
    _set_cookie(request, response, out.token)
    return out


@router.post("/login", response_model=TokenOut)
async def login(body: LoginRequest, request: Request, service: Service, response: Response) -> TokenOut:
    address = request.client.host if request.client else "unknown"
    out = await service.login(body, address)
    if out.kind == "session":
        _set_cookie(request, response, out.token)
    return out


@router.post("/logout", status_code=204)
def logout(request: Request, service: Service, response: Response) -> None:
    token = bearer(request.headers.get("authorization")) or request.cookies.get(COOKIE)
    if token:
        service.logout(token)
    response.delete_cookie(COOKIE, httponly=True, samesite="lax")


@router.get("/me", response_model=UserOut)
def me(caller: Caller) -> UserOut:
    if caller.user is None:
        raise Unauthorised("not logged in")
    return UserOut(name=caller.user.name, email=caller.user.email)
