"""What every request passes before a route, as plain ASGI middleware (no per-request task or copy):

- :class:`BodyLimit`: a body larger than allowed is refused with 413 before any route reads it, whether
  its size is declared (``Content-Length``) or not (chunked); a new game's body may carry a record and
  has its own, larger limit.
- :class:`CrossSiteGuard`: a state-changing request that the browser's session cookie would sign must
  come from this server's own pages, as its ``Origin`` (or ``Referer``) says; else 403. A request
  signed with a bearer token (scripts, ``boardlab remote``) is not a browser's, and passes.
- :class:`SecurityHeaders`: every answer says ``X-Content-Type-Options: nosniff`` and a
  ``Referrer-Policy``, and carries a Content-Security-Policy (the pages' own scripts and styles only,
  never framed) unless the route set its own (``/docs``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from boardlab.server.config import kib

# The pages load their scripts, styles and pictures from this server only; scripts and styles never
# inline (no onclick=, no style=), the API is fetched from here, and no other site may frame a page.
CONTENT_SECURITY_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                           "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
                           "form-action 'self'; frame-ancestors 'none'")
REFERRER_POLICY = "same-origin"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


async def _answer(send: Send, status: int, detail: str, headers: Iterable[tuple[bytes, bytes]] = ()) -> None:
    body = json.dumps({"detail": detail}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            *headers]})
    await send({"type": "http.response.body", "body": body})


async def _too_large(send: Send, record: bool, limit: int) -> None:
    # Written only when refusing: every request with a body passes BodyLimit.
    what = (f"a new game's request (which may carry a record) may be at most {kib(limit)} (--max-record)"
            if record else f"a request's body may be at most {kib(limit)} (--max-body)")
    await _answer(send, 413, f"the request body is too large: {what}", [(b"connection", b"close")])


def _header(scope: Scope, name: bytes) -> bytes | None:
    for key, value in scope["headers"]:
        if key == name:
            return bytes(value)
    return None


class BodyLimit:
    """Refuse (413) a request body over ``limit`` bytes, or over ``record_limit`` for ``POST /api/games``
    (whose body may hold an uploaded record). The body is read here, counting, before the route starts,
    so that a body sent in chunks without a declared length is stopped at the limit too."""

    def __init__(self, app: ASGIApp, limit: int, record_limit: int) -> None:
        self.app = app
        self.limit = limit
        self.record_limit = max(limit, record_limit)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in SAFE_METHODS:
            await self.app(scope, receive, send)
            return
        record = scope["method"] == "POST" and scope["path"].rstrip("/") == "/api/games"
        limit = self.record_limit if record else self.limit
        declared = _header(scope, b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > limit):
            await _too_large(send, record, limit)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                await _too_large(send, record, limit)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()  # after the body: a disconnect, when it comes

        await self.app(scope, replay, send)


def origin_of(url: str) -> str | None:
    """``scheme://host[:port]`` of a URL (as an ``Origin`` header writes it), or ``None``."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return None
    return f"{parts.scheme}://{parts.netloc}".lower()


class CrossSiteGuard:
    """Refuse (403) a state-changing request from another site's page that the session cookie would sign.

    Accepted: requests whose ``Origin`` (else ``Referer``) is this server's own (the address the request
    was sent to, or ``public_url``), requests signed with a bearer token, and requests that carry neither
    an origin nor the session cookie (scripts). A request with the cookie but no ``Origin`` or
    ``Referer`` is refused: every browser sends one of them with a page's requests."""

    def __init__(self, app: ASGIApp, cookie: str, public_url: str | None) -> None:
        self.app = app
        self.cookie = cookie.encode() + b"="
        self.public = origin_of(public_url) if public_url else None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in SAFE_METHODS or self._allowed(scope):
            await self.app(scope, receive, send)
            return
        await _answer(send, 403, "a request from another site's page is refused: requests signed by this "
                                 "server's session cookie must come from its own pages (their Origin or Referer "
                                 "header names this server); scripts sign with 'Authorization: Bearer TOKEN'")

    def _allowed(self, scope: Scope) -> bool:
        authorization = _header(scope, b"authorization")
        if authorization is not None and authorization[:7].lower() == b"bearer ":
            return True
        origin = _header(scope, b"origin")
        referer = _header(scope, b"referer")
        if origin is not None:
            claimed = origin_of(origin.decode("latin-1"))
        elif referer is not None:
            claimed = origin_of(referer.decode("latin-1"))
        else:
            cookies = _header(scope, b"cookie") or b""
            return not any(part.strip().startswith(self.cookie) for part in cookies.split(b";"))
        return claimed is not None and claimed in self._own(scope)

    def _own(self, scope: Scope) -> set[str]:
        own = set()
        host = _header(scope, b"host")
        if host is not None:
            own.add(f"{scope.get('scheme', 'http')}://{host.decode('latin-1')}".lower())
        if self.public is not None:
            own.add(self.public)
        return own


class SecurityHeaders:
    """Add the security headers to every answer (a route's own Content-Security-Policy is kept)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.always = [(b"x-content-type-options", b"nosniff"), (b"referrer-policy", REFERRER_POLICY.encode())]
        self.policy = (b"content-security-policy", CONTENT_SECURITY_POLICY.encode())

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                names = {name.lower() for name, _ in headers}
                headers.extend(h for h in self.always if h[0] not in names)
                if self.policy[0] not in names:
                    headers.append(self.policy)
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_headers)
