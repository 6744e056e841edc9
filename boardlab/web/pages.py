"""The pages' routes: each page is a template; the data comes from the API, fetched by the page's script."""

from __future__ import annotations

import html
from pathlib import Path
from typing import Annotated

from fastapi import APIRouter, FastAPI, Request
from fastapi import Path as PathParam
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from markdown_it import MarkdownIt

from boardlab.core.registry import games, info
from boardlab.docs import rules_text

HERE = Path(__file__).parent
templates = Jinja2Templates(directory=HERE / "templates")
router = APIRouter(include_in_schema=False)
GameId = Annotated[int, PathParam(ge=1, le=2**31 - 1)]
# CommonMark with tables; raw HTML in the rules' Markdown is shown as text, never run.
_markdown = MarkdownIt("commonmark", {"html": False}).enable("table")


def _page(request: Request, template: str, title: str, **context: object) -> HTMLResponse:
    return templates.TemplateResponse(request, template, {"title": title, "games": games(), **context})


@router.get("/", response_class=HTMLResponse)
def home(request: Request) -> HTMLResponse:
    return _page(request, "home.html", "boardlab")


@router.get("/new", response_class=HTMLResponse)
def new_game(request: Request) -> HTMLResponse:
    return _page(request, "new.html", "New game · boardlab")


@router.get("/games/{game_id}", response_class=HTMLResponse)
def game_page(request: Request, game_id: GameId) -> HTMLResponse:
    return _page(request, "game.html", f"Game {game_id} · boardlab", game_id=game_id)


@router.get("/rules", response_class=HTMLResponse)
def rules_index(request: Request) -> HTMLResponse:
    return _page(request, "rules_index.html", "Rules · boardlab")


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
