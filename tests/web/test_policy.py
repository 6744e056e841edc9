"""The pages under the server's Content-Security-Policy: every page runs in chromium without a single
violation (no inline script, style or event handler), /docs (Swagger UI) included, and the headers
that keep pages from being framed or sniffed are on every answer."""

from __future__ import annotations

from typing import Any

import httpx

from boardlab.core.registry import games
from tests.web.conftest import watch_policy
from tests.web.play import IDLE, click_until_over, new_game


def policy(response: httpx.Response) -> dict[str, str]:
    directives = (part.strip().split(None, 1) for part in response.headers["content-security-policy"].split(";"))
    return {d[0]: d[1] if len(d) > 1 else "" for d in directives if d}


def test_every_answer_carries_the_security_headers(server: Any) -> None:
    paths = ["/", "/new", "/docs", "/games/1", "/rules", "/rules/hmdg", "/static/game.js", "/api/catalog",
             "/openapi.json", "/api/games/999999", "/nowhere", "/account", "/reset", "/archive", "/leaderboard",
             "/leaderboard/ndengrod", "/users/nobody", "/games/abc"]
    for path in paths:
        response = httpx.get(server.url + path)
        assert response.headers["x-content-type-options"] == "nosniff", path
        assert response.headers["referrer-policy"] == "same-origin", path
        found = policy(response)
        assert found["frame-ancestors"] == "'none'", path
        assert found["script-src"] == "'self'" and found["style-src"] == "'self'", (path, found)
        assert found["object-src"] == "'none'" and found["base-uri"] == "'none'", path


def test_every_page_runs_under_the_policy(server: Any, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(120_000)
    violations = watch_policy(context)
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        for path in ["/", "/new", "/rules", *(f"/rules/{g.id}" for g in games()),
                     *(f"/new?game={g.id}" for g in games()),
                     # The account's pages, the archive, the leaderboards, and the error pages.
                     "/account", "/reset", "/archive", "/leaderboard", *(f"/leaderboard/{g.id}" for g in games()),
                     "/users/nobody", "/games/99999", "/games/abc", "/rules/nonsense", "/nowhere"]:
            page.goto(server.url + path)
            page.wait_for_load_state("networkidle")
        page.goto(f"{server.url}/new?game=ndengrod")
        page.wait_for_selector("#options [data-option]")
        # A game against the computer, played to its end by clicks: the board (SVG drawn by the server,
        # set into the page), the move list, the live updates, the hints.
        new_game(page, server.url, "ndengrod", {"size": 3, "length": 3})
        page.click("#hint")
        page.wait_for_selector("#hints li")
        assert click_until_over(page) > 0
        page.wait_for_selector(IDLE)
        # Swagger UI at /docs: it renders every operation, opens one, and runs it ("Try it out"), showing
        # the answer with its syntax highlighting.
        page.goto(f"{server.url}/docs")
        page.wait_for_selector(".opblock")
        operation = page.locator(".opblock", has=page.locator("[data-path='/api/catalog']")).first
        operation.locator(".opblock-summary").click()
        operation.locator(".try-out__btn").click()
        operation.locator(".execute").click()
        operation.locator(".responses-table .response-col_description .highlight-code").first.wait_for()
        assert "ndengrod" in operation.locator(".responses-table .microlight").first.inner_text()
        page.wait_for_load_state("networkidle")
    finally:
        context.close()
    assert violations == [], violations
    assert errors == [], errors


def test_a_violation_is_seen(server: Any, browser: Any) -> None:
    """The watch above can fail: an inline script and an inline style put into a page are refused and reported."""
    context = browser.new_context()
    violations = watch_policy(context)
    try:
        page = context.new_page()
        page.goto(f"{server.url}/rules")
        page.wait_for_load_state("networkidle")
        assert violations == []
        ran = page.evaluate("""() => {
            const script = document.createElement("script");
            script.textContent = "window.inlineRan = true";
            document.body.append(script);
            document.body.setAttribute("style", "background: red");
            return window.inlineRan === true;
        }""")
        page.wait_for_timeout(200)
    finally:
        context.close()
    assert ran is False
    assert any("script-src" in v for v in violations) and any("style-src" in v for v in violations), violations
