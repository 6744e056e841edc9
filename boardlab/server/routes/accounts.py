"""Registration, login (a cookie for browsers, a token for scripts), logout."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from boardlab.server import accounts
from boardlab.server.errors import Unauthorised
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


@router.post("/password", status_code=204)
def change_password(body: PasswordChange, request: Request, caller: Caller, service: Service) -> None:
    """A new password, once the current one is given: your other sessions and API tokens stop working."""
    token = bearer(request.headers.get("authorization")) or request.cookies.get(COOKIE)
    service.change_password(caller, token, body)


@router.post("/email", response_model=UserOut)
def change_email(body: EmailChange, caller: Caller, service: Service) -> UserOut:
    """Set (or, with null, remove) your e-mail address: notices and password resets go there."""
    return service.change_email(caller, body)


@router.post("/password-reset", response_model=MessageOut, status_code=202)
def request_reset(body: ResetRequest, service: Service) -> MessageOut:
    """E-mail a one-time link for setting a new password to the account with this name or address (if
    it has an address). The answer is the same whether or not such an account exists."""
    service.request_reset(body)
    return MessageOut(detail="if an account with that name or e-mail address has an address, a link to set a new "
                             f"password is on its way; it works once, within {accounts.RESET_MINUTES} minutes")


@router.post("/password-reset/confirm", response_model=TokenOut)
def confirm_reset(body: ResetConfirm, service: Service, response: Response) -> TokenOut:
    """Set a new password with the e-mailed token (once): every old session ends, and you are logged in."""
    out = service.confirm_reset(body)
    _set_cookie(response, out.token)
    return out
