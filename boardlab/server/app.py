"""The FastAPI application: ``create_app(settings)``, and ``app_from_env()`` for uvicorn's workers.

The JSON API lives under ``/api`` (OpenAPI at ``/docs``); the browser's pages mount beside it (see
:func:`create_app`). Every error of the API leaves as JSON ``{"detail": "…"}`` with a 4xx status that
says what was wrong; a page's address that names nothing (``/games/99999``, ``/games/abc``,
``/rules/foo``, ``/nope``) gets an HTML page saying so (404). Nothing leaves with a traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from collections.abc import AsyncIterator

from fastapi import FastAPI, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

from boardlab.errors import BoardlabError
from boardlab.server import migrate
from boardlab.server.config import Settings
from boardlab.server.errors import (
    Conflict,
    NotAllowed,
    NotFound,
    NotLoggedIn,
    Refused,
    TooManyRequests,
    Unavailable,
    printable,
    validation_errors,
    validation_message,
)
from boardlab.server.guards import BodyLimit, CrossSiteGuard, SecurityHeaders
from boardlab.server.names import NameRefused
from boardlab.server.routes import accounts, board, catalog, games
from boardlab.server.routes.deps import COOKIE, document_caller
from boardlab.server.service import GameService
from boardlab.web import install as install_pages
from boardlab.web.pages import error_page, is_page

log = logging.getLogger("boardlab.server")
# The one place where the server's refusals become HTTP statuses (a kind not listed: its nearest listed
# base's; the base itself: 400). Any other BoardlabError is bad input: 422.
STATUS: dict[type[Refused], int] = {
    Refused: 400,
    NotLoggedIn: 401,
    NotAllowed: 403,
    NotFound: 404,
    Conflict: 409,
    NameRefused: 422,
    TooManyRequests: 429,
    Unavailable: 503,
}


def status_of(error: Refused) -> int:
    """The HTTP status that answers ``error``."""
    return next(STATUS[kind] for kind in type(error).__mro__ if kind in STATUS)


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings.from_env()
    service = GameService(settings)
    if settings.migrate:
        migrate.upgrade(settings.db_url, service.db.engine)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        service.broker.attach(asyncio.get_running_loop())
        # The modules, kernels and tables loaded by now live as long as the server: moved out of the
        # collector's generations, a full collection no longer walks them (some 200,000 objects,
        # about 100 ms a collection that stalled every request waiting on the event loop).
        gc.collect()
        gc.freeze()
        # A request makes and drops a few hundred containers, nearly all freed by reference counting. At
        # the default threshold (700) the young generation was collected several times a second and its
        # survivors promoted, so that under load (bench/server_load.py) a full collection (11-35 ms,
        # every request waiting) came every 2-3 s; at 20,000 the young mostly die before they are looked
        # at: in 60 s of that load the middle generation was collected every 14-15 s (40-46 ms), and
        # the oldest never.
        thresholds = gc.get_threshold()
        gc.set_threshold(20_000, 20, 10)
        service.notifier.start()
        await service.notifier.ready()
        if settings.background and settings.warm_up:
            service.warmup.start()
        else:
            service.warmup.mark_all_ready()
        sweeper = None
        if settings.background:
            sweeper = asyncio.create_task(_sweep_forever(service, settings.sweep_seconds))
        try:
            yield
        finally:
            if sweeper is not None:
                sweeper.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await sweeper
            service.close()
            gc.set_threshold(*thresholds)

    app = FastAPI(title="boardlab", version="1", lifespan=lifespan, docs_url=None,  # /docs: web.install
                  description="Play boardlab's games online: accounts, challenges, moves, live updates "
                              "(Server-Sent Events), records. Every game view is the caller's seat's view.")
    app.state.service = service
    app.state.settings = settings
    _handlers(app)
    # The routers are tried in order, each route in turn: the move first, on the app's own router, then the
    # games' router, as a move is the request made most often (no path of one router is another's).
    games.add_move_route(app)
    document_caller(app.router)
    for router in (games.router, accounts.router, catalog.router, board.router):
        app.include_router(document_caller(router))
    # The browser's pages (templates and static files) are included here, beside the API they use.
    install_pages(app)
    # The last added runs first: headers on every answer (refusals too), then the cross-site check (before
    # any body is read), then the body's size.
    app.add_middleware(BodyLimit, limit=settings.max_body, record_limit=settings.max_record)
    app.add_middleware(CrossSiteGuard, cookie=COOKIE, public_url=settings.base_url)
    app.add_middleware(SecurityHeaders)
    return app


def app_from_env() -> FastAPI:
    """The app with settings from ``BOARDLAB_*`` variables: what each ``boardlab serve`` worker runs."""
    return create_app(Settings.from_env())


async def _sweep_forever(service: GameService, every: float) -> None:
    while True:
        try:
            await run_in_threadpool(service.sweep)
        except Exception:  # the database may be restarting: keep sweeping
            log.exception("sweep failed")
        await asyncio.sleep(every)


def _handlers(app: FastAPI) -> None:
    # Messages may quote what was sent: printable() keeps an answer encodable whatever that was.
    @app.exception_handler(Refused)
    async def refused(request: Request, error: Refused) -> Response:
        status = status_of(error)
        if is_page(request):
            return error_page(request, status, printable(str(error)))
        headers = {"Retry-After": str(error.retry_after)} if isinstance(error, TooManyRequests) else None
        return JSONResponse({"detail": printable(str(error))}, status_code=status, headers=headers)

    @app.exception_handler(BoardlabError)
    async def boardlab_error(request: Request, error: BoardlabError) -> Response:
        if is_page(request):  # a page's address naming no game (/rules/foo): nothing there
            return error_page(request, 404, printable(str(error)))
        return JSONResponse({"detail": printable(str(error))}, status_code=422)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, error: RequestValidationError) -> Response:
        """FastAPI's own answer repeats the input, which may be unencodable (a 500): this one says where and
        what is accepted, in one line (``detail``), and lists the errors for programs (``errors``). A page's
        address that does not parse (/games/abc) names no page: 404, as a page."""
        if is_page(request):
            return error_page(request, 404, f"there is no page at {printable(request.url.path)}")
        found = error.errors()
        return JSONResponse({"detail": validation_message(found), "errors": validation_errors(found)},
                            status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> Response:
        if is_page(request):
            found = printable("there is no page at " + request.url.path if error.status_code == 404
                              else str(error.detail))
            return error_page(request, error.status_code, found)
        return await http_exception_handler(request, error)

    @app.exception_handler(Exception)
    async def unexpected(request: Request, error: Exception) -> Response:
        log.exception("unexpected error", exc_info=error)
        if is_page(request):
            return error_page(request, 500, "something went wrong on the server (it is logged there)")
        return JSONResponse({"detail": "internal error (logged on the server)"}, status_code=500)
