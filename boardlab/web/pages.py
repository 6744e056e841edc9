"""The pages' routes: each page is a template. The playing pages (lobby, new game, game) fetch their data
from the API with their scripts; the lists (archive, profile, leaderboard) are drawn on the server from
the same service methods, and so the same models, as the API's answers (they need no script, and
their filters and pages are plain links). A page address that names nothing is a 404 page."""

from __future__ import annotations

import html
from collections.abc import Callable
from pathlib import Path
from typing import Annotated
from urllib.parse import urlencode

from fastapi import APIRouter, FastAPI, Query, Request
from fastapi import Path as PathParam
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from markdown_it import MarkdownIt

from boardlab.core.registry import games, info, package
from boardlab.docs import rules_text
from boardlab.server import glicko2, lists
from boardlab.server.accounts import NAME_RULE
from boardlab.server.errors import NotFound
from boardlab.server.names import PASSWORD_RULE
from boardlab.server.routes.deps import Caller, Service

HERE = Path(__file__).parent
templates = Jinja2Templates(directory=HERE / "templates")
router = APIRouter(include_in_schema=False)
GameId = Annotated[int, PathParam(ge=1, le=2**31 - 1)]
# CommonMark with tables; raw HTML in the rules' Markdown is shown as text, never run.
_markdown = MarkdownIt("commonmark", {"html": False}).enable("table")


def _page(request: Request, template: str, title: str, status: int = 200, **context: object) -> HTMLResponse:
    return templates.TemplateResponse(request, template, {"title": title, "games": games(), "name_rule": NAME_RULE,
                                                          "password_rule": PASSWORD_RULE, **context},
                                      status_code=status)


_NOT_PAGES = ("/api/", "/static/", "/openapi.json", "/docs")


def is_page(request: Request) -> bool:
    """Whether ``request`` asked for a page (an error is then a page, not the API's JSON)."""
    path = request.url.path
    return path != "/api" and not path.startswith(_NOT_PAGES)


def error_page(request: Request, status: int, message: str) -> HTMLResponse:
    heading = {404: "Not found", 403: "Not allowed", 401: "Log in first"}.get(status, "Something went wrong")
    return _page(request, "error.html", f"{heading} · boardlab", status=status, heading=heading, message=message)


def _template_only(template: str, title: str) -> Callable[[Request], HTMLResponse]:
    def page(request: Request) -> HTMLResponse:
        return _page(request, template, title)

    return page


# The pages that are their template and nothing else (their scripts fetch what they show). /reset asks
# for a password reset link; opened from the link (the token after #), it sets the new password.
for _path, _template, _title in (
    ("/", "home.html", "boardlab"),
    ("/new", "new.html", "New game · boardlab"),
    ("/account", "account.html", "Your account · boardlab"),
    ("/reset", "reset.html", "Set a new password · boardlab"),
    ("/rules", "rules_index.html", "Rules · boardlab"),
):
    router.add_api_route(_path, _template_only(_template, _title), methods=["GET"], response_class=HTMLResponse,
                         name=_template.removesuffix(".html"))


@router.get("/games/{game_id}", response_class=HTMLResponse)
def game_page(request: Request, game_id: GameId, service: Service) -> HTMLResponse:
    from boardlab.server.models import Game as GameRow

    with service.db.read() as session:
        row = session.get(GameRow, game_id)
        if row is None:
            raise NotFound(f"there is no game {game_id}")
        kind = row.game
    return _page(request, "game.html", f"Game {game_id} · boardlab", game_id=game_id,
                 narrow_layout=narrow_layout(kind))


def narrow_layout(game: str) -> str:
    """The layout a phone is shown first: the first its package made for narrow screens ('' if none).
    The page's script knows no game; it reads this from the page."""
    return next(iter(package(game).narrow_layouts), "")


Name = Annotated[str | None, Query(max_length=64)]


@router.get("/archive", response_class=HTMLResponse)
def archive_page(request: Request, caller: Caller, service: Service, player: Name = None,
                 game: Annotated[str | None, Query(max_length=32)] = None, opponent: Name = None,
                 result: Annotated[lists.Outcome | None, Query()] = None,
                 page: Annotated[int, Query(ge=1, le=100_000)] = 1) -> HTMLResponse:
    """Finished games: a player's, a game's, against an opponent, by result; 20 a page."""
    query = lists.ArchiveQuery(player or None, game or None, opponent or None, result or None, page)
    found = service.lists.archive(caller, query)
    shown = {"player": query.player or "", "game": query.game or "", "opponent": query.opponent or "",
             "result": query.result or ""}

    def link(to: int) -> str:
        return "/archive?" + urlencode({**{k: v for k, v in shown.items() if v}, "page": to})

    heading = "Finished games" + (f" of {query.player}" if query.player else "") + (
        f": {info(query.game).name}" if query.game else "")
    return _page(request, "archive.html", f"{heading} · boardlab", found=found, shown=shown, heading=heading,
                 previous=link(found.page - 1) if found.page > 1 else None,
                 next=link(found.page + 1) if found.page < found.pages else None)


@router.get("/users/{name}", response_class=HTMLResponse)
def profile_page(request: Request, name: Annotated[str, PathParam(max_length=64)], caller: Caller,
                 service: Service) -> HTMLResponse:
    profile = service.lists.profile(caller, name)
    charts = {rating.game: _chart([point.after for point in rating.history], rating.history[0].before
                                  if rating.history else glicko2.START[0]) for rating in profile.ratings}
    return _page(request, "profile.html", f"{profile.name} · boardlab", profile=profile, charts=charts)


@router.get("/leaderboard", response_class=HTMLResponse)
def leaderboards_page(request: Request, service: Service) -> HTMLResponse:
    boards = [service.lists.leaderboard(game.id, limit=10) for game in games()]
    return _page(request, "leaderboard.html", "Leaderboards · boardlab", boards=boards, whole=False)


@router.get("/leaderboard/{game}", response_class=HTMLResponse)
def leaderboard_page(request: Request, game: Annotated[str, PathParam(max_length=32)],
                     service: Service) -> HTMLResponse:
    board = service.lists.leaderboard(game)
    return _page(request, "leaderboard.html", f"{board.game_name}: leaderboard · boardlab", boards=[board],
                 whole=True)


def _chart(after: list[float], first: float, width: float = 320, height: float = 80) -> dict[str, object] | None:
    """A rating's history as an SVG polyline's points (no script, no style attribute: the page's CSP)."""
    values = [first, *after]
    if len(values) < 2:
        return None
    low, high = min(values), max(values)
    span = max(high - low, 20.0)
    step = width / (len(values) - 1)
    points = " ".join(f"{i * step:.1f},{height - 6 - (v - low) / span * (height - 12):.1f}"
                      for i, v in enumerate(values))
    return {"points": points, "low": round(low), "high": round(high), "width": width, "height": height}


@router.get("/rules/{game}", response_class=HTMLResponse)
def rules_page(request: Request, game: str) -> HTMLResponse:
    found = info(game)  # an unknown game: the API's 422 naming the games there are
    body = _markdown.render(rules_text(found.id))
    return _page(request, "rules.html", f"{found.name}: rules · boardlab", game=found, body=body)


def install(app: FastAPI) -> None:
    """Add the pages, their static files and ``/docs`` (Swagger UI served from here, not a CDN) to ``app``."""
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    app.include_router(router)

    @app.get("/docs", include_in_schema=False)
    def docs() -> HTMLResponse:
        openapi = html.escape(app.openapi_url or "/openapi.json")
        return HTMLResponse(_DOCS.replace("{openapi}", openapi))


# Swagger UI, vendored, started by a script file of our own: no inline script, so that /docs runs under the
# same Content-Security-Policy as every page (its React components set styles through the DOM, which the
# policy allows; tests/web/test_policy.py runs an operation from it and sees no violation).
_DOCS = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>boardlab API</title>
<link rel="stylesheet" href="/static/swagger/swagger-ui.css">
<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
</head>
<body>
<div id="swagger-ui" data-openapi="{openapi}"></div>
<script src="/static/swagger/swagger-ui-bundle.js"></script>
<script src="/static/swagger-init.js"></script>
</body>
</html>
"""
