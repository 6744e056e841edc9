"""Two signed-in people in two browser contexts (Debian's chromium): a rated challenge accepted from the
lobby, moves seen live with "Your move" in the page and the tab's title, a move played with the keyboard
alone, an undo asked and granted, a draw offered and accepted, a rematch with the seats swapped, a
resignation whose winner the page names, and both ratings changed on both profiles."""

from __future__ import annotations

import re
from typing import Any

from tests.web.conftest import watch_policy
from tests.web.play import IDLE

DESKTOP = {"width": 1280, "height": 800}
PASSWORD = "a long enough password"


def register(page: Any, url: str, name: str, email: str | None = None) -> None:
    page.goto(url + "/")
    form = page.locator("#register")
    form.locator("[name=name]").fill(name)
    form.locator("[name=password]").fill(PASSWORD)
    form.locator("[name=again]").fill(PASSWORD)
    if email:
        form.locator("[name=email]").fill(email)
    form.locator("button[type=submit]").click()
    page.wait_for_selector("#logged-in:not([hidden])")
    assert page.locator("#me").inner_text() == f"Signed in as {name}."


def status(page: Any) -> str:
    return str(page.locator("#status").inner_text())


def click_a_target(page: Any) -> str:
    page.wait_for_selector("#board [data-target]")
    page.wait_for_selector(IDLE)
    cell = page.locator("#board [data-target]").first
    name = str(cell.get_attribute("data-cell"))
    cell.click()
    return name


def test_two_accounts_play_undo_draw_rematch_resign_and_their_ratings_change(server: Any, browser: Any) -> None:
    contexts = [browser.new_context(viewport=DESKTOP) for _ in range(2)]
    violations = [watch_policy(context) for context in contexts]  # every page under the CSP
    errors: list[str] = []
    try:
        for context in contexts:
            context.set_default_timeout(60_000)
        ann, bob = (context.new_page() for context in contexts)
        for page in (ann, bob):
            page.on("pageerror", lambda error: errors.append(str(error)))
        register(ann, server.url, "Ann")
        register(bob, server.url, "Bøb")

        # Ann challenges Bøb to a rated game of Ndengrod from the new-game page.
        ann.goto(f"{server.url}/new?game=ndengrod")
        ann.wait_for_selector("#options [data-option]")
        ann.fill("[name=option-size]", "4")
        ann.select_option("[name=opponent]", "user")
        ann.fill("[name=user]", "bøb")
        assert ann.locator("#rated-box").is_visible() and ann.locator("[name=rated]").is_checked()
        ann.click("#new button[type=submit]")
        ann.wait_for_url(f"{server.url}/games/*")
        first = int(ann.url.rsplit("/", 1)[1])
        ann.wait_for_selector("#status:has-text('waiting for seat 1')")

        # Bøb finds it waiting for him in the lobby and accepts; Ann's page starts the game live.
        bob.goto(server.url + "/")
        invited = bob.locator(f"#my-games li[data-game='{first}']")
        invited.wait_for()
        assert "rated" in invited.inner_text() and invited.get_attribute("class") == "waiting"
        invited.locator("button:has-text('Accept')").click()
        bob.wait_for_url(f"{server.url}/games/{first}")
        ann.wait_for_selector("#status[data-your-move='1']")
        assert status(ann).endswith("Your move.") and ann.title().startswith("▶ Your move")
        assert ann.locator("#seats li[data-seat='0'] .you").count() == 1
        assert ann.locator("#seats li[data-seat='1'] .you").count() == 0
        assert "1500" in ann.locator("#seats li[data-seat='0'] .rating").inner_text()
        bob.wait_for_selector("#board svg")
        assert not bob.title().startswith("▶") and "Your move" not in status(bob)
        assert bob.locator("#seats li[data-seat='1'] .you").count() == 1

        # Ann's first move with the keyboard alone: Tab to the board, arrows, Enter.
        ann.wait_for_selector(IDLE)
        ann.locator("body").focus()
        for _ in range(60):
            ann.keyboard.press("Tab")
            if ann.evaluate("document.activeElement.closest('#board') !== null"):
                break
        else:
            raise AssertionError("Tab never reached the board")
        focused = ann.evaluate("document.activeElement.dataset.cell")
        named = ann.evaluate("document.activeElement.querySelector('title').textContent")
        assert ann.evaluate("document.activeElement.getAttribute('role')") == "button" and named.startswith(focused)
        ann.keyboard.press("ArrowRight")
        ann.keyboard.press("ArrowDown")
        moved_to = ann.evaluate("document.activeElement.dataset.cell")
        assert moved_to != focused
        ann.keyboard.press("Enter")
        ann.wait_for_selector("#board[data-ply='1']")
        ann.wait_for_selector(IDLE)
        assert ann.locator("#moves li").first.inner_text() == f"x: {moved_to}"

        # Bøb sees it at once, moves by clicking, then asks to take his move back; Ann grants it.
        bob.wait_for_selector("#status[data-your-move='1']")
        assert bob.title().startswith("▶ Your move")
        assert bob.locator("#last-move").inner_text() == f"Last move: x {moved_to}"
        click_a_target(bob)
        bob.wait_for_selector("#board[data-ply='2']")
        ann.wait_for_selector("#board[data-ply='2']")
        bob.wait_for_selector(IDLE)
        bob.click("#undo")
        ann.wait_for_selector("#undo-request")
        assert ann.locator("#undo-request").inner_text().startswith("Bøb (o) asks to take back their last move.")
        ann.click("#undo-request button:has-text('Grant')")
        for page in (ann, bob):
            page.wait_for_selector("#board[data-ply='1']")
        bob.wait_for_selector("#status[data-your-move='1']")

        # Bøb offers a draw; Ann accepts: the game is drawn by agreement, on both pages.
        bob.wait_for_selector(IDLE)
        bob.click("#draw")
        ann.wait_for_selector("#draw-offer")
        assert ann.locator("#draw-offer").inner_text().startswith("Bøb (o) offers a draw.")
        ann.click("#draw-offer button:has-text('Accept')")
        for page in (ann, bob):
            page.wait_for_selector("#status[data-status=finished]")
            assert status(page) == "Game over: Draw by agreement."

        # A rematch: Bøb asks, Ann's page shows the offer and she accepts; the seats are swapped.
        bob.click("#rematch")
        bob.wait_for_url(re.compile(rf".*/games/(?!{first}$)\d+$"))
        second = int(bob.url.rsplit("/", 1)[1])
        ann.wait_for_selector("#rematch-offer")
        assert ann.locator("#rematch-offer").inner_text().startswith("Bøb offers a rematch (seats swapped).")
        ann.click("#rematch-offer button:has-text('Accept')")
        ann.wait_for_url(f"{server.url}/games/{second}")
        bob.wait_for_selector("#status[data-your-move='1']")  # Bøb plays x now, and moves first
        assert bob.locator("#seats li[data-seat='0'] .you").count() == 1
        ann.wait_for_selector("#board svg")
        assert ann.locator("#seats li[data-seat='1'] .you").count() == 1

        # Bøb moves; Ann resigns; both pages name the winner.
        click_a_target(bob)
        ann.wait_for_selector("#status[data-your-move='1']")
        ann.wait_for_selector(IDLE)
        ann.once("dialog", lambda dialog: dialog.accept())
        ann.click("#resign")
        for page in (ann, bob):
            page.wait_for_selector("#status[data-status=finished]")
            assert status(page) == "Game over: Bøb (x) won (Ann (o) resigned)."
        change = bob.locator("#seats li[data-seat='0'] .rating").inner_text()
        assert re.search(r"→ \d+ \(\+\d+\)", change), change

        # Both profiles, each seen from the other's browser too, show the ratings moved apart.
        ratings = {}
        for page, name in ((ann, "Ann"), (bob, "Bøb"), (ann, "Bøb"), (bob, "Ann")):
            page.goto(f"{server.url}/users/{name}")
            row = page.locator("#ratings tr[data-game='ndengrod']")
            shown = int(re.match(r"(\d+)", row.locator(".rating").inner_text()).group(1))  # type: ignore[union-attr]
            assert ratings.setdefault(name, shown) == shown
            assert row.locator("ol.history li").count() == 2 and row.locator("svg.chart polyline").count() == 1
        assert ratings["Bøb"] > 1500 > ratings["Ann"]
        assert errors == []
    finally:
        for context in contexts:
            context.close()
    assert violations == [[], []], violations
