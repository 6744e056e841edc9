"""Registration, login (a cookie for browsers, a token for scripts), logout."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from boardlab.server import accounts
from boardlab.server.errors import NotLoggedIn
from boardlab.server.routes.deps import COOKIE, Caller, Service, bearer
from boardlab.server.schemas import (
    EmailChange,
    LoginRequest,
    MessageOut,
    PasswordChange,
    RegisterRequest,
    ResetConfirm,
    ResetRequest,
    TokenOut,
    UserOut,
)
from boardlab.server.strict_json import StrictJsonRoute

router = APIRouter(prefix="/api", tags=["accounts"], route_class=StrictJsonRoute)


def _set_cookie(request: Request, response: Response, token: str) -> None:
    # Secure (HTTPS only) when the server is told so, or when this request came over HTTPS (uvicorn reads a
    # proxy's X-Forwarded-Proto from the addresses in --forwarded-allow-ips).
    secure = request.app.state.settings.secure_cookies or request.url.scheme == "https"
    response.set_cookie(COOKIE, token, max_age=accounts.SESSION_DAYS * 86400, httponly=True, samesite="lax",
                        secure=secure)


def _address(request: Request) -> str:
    return request.client.host if request.client else "unknown"


@router.post("/register", response_model=TokenOut, status_code=201)
async def register(body: RegisterRequest, request: Request, service: Service, response: Response) -> TokenOut:
    out = await service.accounts.register(body)
    _set_cookie(request, response, out.token)
    return out


@router.post("/login", response_model=TokenOut)
async def login(body: LoginRequest, request: Request, service: Service, response: Response) -> TokenOut:
    out = await service.accounts.login(body, _address(request))
    if out.kind == "session":
        _set_cookie(request, response, out.token)
    return out


@router.post("/logout", status_code=204)
def logout(request: Request, service: Service, response: Response) -> None:
    token = bearer(request.headers.get("authorization")) or request.cookies.get(COOKIE)
    if token:
        service.accounts.logout(token)
    response.delete_cookie(COOKIE, httponly=True, samesite="lax")


@router.get("/me", response_model=UserOut)
def me(caller: Caller) -> UserOut:
    if caller.user is None:
        raise NotLoggedIn("not logged in")
    return UserOut(name=caller.user.name, email=caller.user.email)


@router.post("/password", status_code=204)
async def change_password(body: PasswordChange, request: Request, caller: Caller, service: Service) -> None:
    """A new password, once the current one is given (a wrong one counts as a failed login): your other
    sessions and API tokens stop working."""
    token = bearer(request.headers.get("authorization")) or request.cookies.get(COOKIE)
    await service.accounts.change_password(caller, token, body, _address(request))


@router.post("/email", response_model=UserOut)
async def change_email(body: EmailChange, request: Request, caller: Caller, service: Service) -> UserOut:
    """Set (or, with null, remove) your e-mail address, giving your password (a wrong one counts as a failed
    login): notices and password resets go there."""
    return await service.accounts.change_email(caller, body, _address(request))


@router.post("/password-reset", response_model=MessageOut, status_code=202)
def request_reset(body: ResetRequest, service: Service) -> MessageOut:
    """E-mail a one-time link for setting a new password to the account with this name or address (if
    it has an address). The answer is the same whether or not such an account exists."""
    service.accounts.request_reset(body)
    return MessageOut(detail="if an account with that name or e-mail address has an address, a link to set a new "
                             f"password is on its way; it works once, within {accounts.RESET_MINUTES} minutes")


@router.post("/password-reset/confirm", response_model=TokenOut)
async def confirm_reset(body: ResetConfirm, request: Request, service: Service, response: Response) -> TokenOut:
    """Set a new password with the e-mailed token (once): every old session ends, and you are logged in."""
    out = await service.accounts.confirm_reset(body)
    _set_cookie(request, response, out.token)
    return out
