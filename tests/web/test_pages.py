"""The pages around the board, in a real browser: the new-game form built from the games' option
declarations, the rules pages, and the game page's controls (move list, replay, hint, download, resign)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx

from boardlab.core.registry import games, info
from tests.web.play import IDLE


def test_the_new_game_form_shows_every_declared_option_and_says_what_a_bad_one_is(server: Any,
                                                                                  context: Any) -> None:
    page = context.new_page()
    page.goto(f"{server.url}/new?game=mynd")
    page.wait_for_selector("#options [data-option]")
    declared = info("mynd").options
    rows = page.locator("#options [data-option]")
    assert rows.count() == len(declared)
    for option in declared:
        field = page.locator(f"[name=option-{option.name}]")
        shown = field.is_checked() if option.kind is bool else field.input_value()
        assert shown == (option.default if option.kind is bool else str(option.default)), option.name
        assert option.help.rstrip(".") in page.locator(f"[data-option={option.name}] .help").inner_text()
    # A variant fills in its own options (Ndengrod's named rule sets).
    page.select_option("#game-choice", "ndengrod")
    variants = info("ndengrod").variants
    if variants:
        page.select_option("#variant", variants[0].name)
        for name, value in variants[0].options.items():
            field = page.locator(f"[name=option-{name}]")
            shown = field.is_checked() if isinstance(value, bool) else field.input_value()
            assert shown == (value if isinstance(value, bool) else str(value)), name
    page.select_option("#game-choice", "mynd")
    page.fill("[name=option-size]", "99")
    page.click("#new button[type=submit]")
    # The server's answer, not the note that it is still preparing Mynd's rules (a fresh server, busy).
    page.wait_for_function("""() => {
        const text = document.querySelector("#new-error").textContent;
        return text !== "" && !text.startsWith("Preparing the rules");
    }""")
    error = page.locator("#new-error").inner_text()
    assert "size" in error and "5 to 25" in error
    assert page.url.endswith("/new?game=mynd")


def test_rules_pages_render_the_rules_documents(server: Any, context: Any) -> None:
    page = context.new_page()
    page.goto(f"{server.url}/rules")
    links = page.locator("main a[href^='/rules/']")
    assert links.count() == len(games())
    page.click("a[href='/rules/hmdg']")
    assert page.locator("h1").first.inner_text() == "Hidden Move Double Gomoku — rules as implemented"
    assert page.locator(".rules-body table").count() >= 1  # the Markdown's tables are tables
    missing = httpx.get(f"{server.url}/rules/nonsense")
    assert missing.status_code == 404 and "unknown game" in missing.text  # a page, saying which games there are


def test_move_list_replay_hint_download_and_resign(server: Any, context: Any) -> None:
    page = context.new_page()
    page.goto(server.url + "/")
    page.select_option("#quick [name=game]", "ndengrod")
    page.select_option("#quick [name=level]", "level1")
    page.click("#quick button[type=submit]")
    page.wait_for_url(f"{server.url}/games/*")
    for ply in (2, 4):
        page.wait_for_selector("#board [data-target]")
        page.locator("#board [data-target]").first.click()
        page.wait_for_selector(f"#board[data-ply='{ply}']")
    page.wait_for_selector(IDLE)
    assert page.locator("#moves li").count() == 4
    # The move list: the position after move 1, then back to the game.
    page.click("#moves button[data-ply='1']")
    page.wait_for_selector("#board[data-ply='1']")
    assert page.locator("#replay-note").is_visible()
    assert page.locator("#board [data-target]").count() == 0  # an earlier position is not played on
    page.click("#live")
    page.wait_for_selector("#board[data-ply='4']")
    # A hint: the computer's top moves for this seat, each a legal move here.
    page.click("#hint")
    page.wait_for_selector("#hints .hint-move")
    hinted = page.locator("#hints .hint-move").all_inner_texts()
    assert 1 <= len(hinted) <= 3
    targets = set(page.eval_on_selector_all("#board [data-target]", "cells => cells.map(c => c.dataset.cell)"))
    assert set(hinted) <= targets
    # The record as this seat knows it.
    with page.expect_download() as download:
        page.click("#download")
    record = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert record["game"] == "ndengrod" and len(record["moves"]) == 4
    # Resigning (after the page asks to be sure) ends the game, and the page says who won.
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#resign")
    page.wait_for_selector("#status[data-status=finished]")
    assert "resigned" in page.locator("#status").inner_text()
    assert page.locator("#status").get_attribute("data-result") == "0,1"  # the guest (seat 0) lost


def test_api_docs_run_in_the_browser_from_this_server_alone(server: Any, context: Any) -> None:
    page = context.new_page()
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    page.goto(f"{server.url}/docs")
    page.wait_for_selector(".swagger-ui .info")  # the vendored Swagger UI ran and read /openapi.json
    assert "boardlab" in page.locator(".swagger-ui .info .title").inner_text()
    assert page.locator(".opblock").count() > 10
    elsewhere = [url for url in requested if not url.startswith(server.url) and not url.startswith("data:")]
    assert elsewhere == []
    assert f"{server.url}/openapi.json" in requested
