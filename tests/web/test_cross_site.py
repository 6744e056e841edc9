"""Two signed-in people, each in a browser of their own (the session cookie), challenge, accept and play
under the server's cross-site check, and another site's page cannot act for them.

The other site is a page served from another port of the same address: another origin but the same
site, so chromium sends the SameSite=Lax session cookie with its form's POST. Only the server's check
of the request's Origin stops it.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx

from tests.web.conftest import watch_policy
from tests.web.play import IDLE, click_once
from tests.web.test_two_people import register


@contextmanager
def other_site(page_html: str) -> Iterator[str]:
    """A page served from another port of 127.0.0.1; its address."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = page_html.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *_args: Any) -> None:
            pass

    site = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=site.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{site.server_address[1]}/"
    finally:
        site.shutdown()
        site.server_close()


def sign_up(page: Any, url: str, name: str) -> None:
    register(page, url, name)  # the home page's registration form (name, password twice)


def test_signed_in_people_play_and_another_sites_page_cannot_act_for_them(server: Any, browser: Any) -> None:
    contexts = [browser.new_context(viewport={"width": 1280, "height": 900}) for _ in range(2)]
    violations = [watch_policy(c) for c in contexts]
    names = [f"ann{int(time.time()) % 100000}", f"bob{int(time.time()) % 100000}"]
    try:
        for c in contexts:
            c.set_default_timeout(60_000)
        ann, bob = (c.new_page() for c in contexts)
        for page, name in ((ann, names[0]), (bob, names[1])):
            sign_up(page, server.url, name)
        # Ann challenges Bob by name; Bob accepts from his lobby.
        ann.goto(f"{server.url}/new?game=ndengrod")
        ann.wait_for_selector("#options [data-option]")
        ann.locator("[name=option-size]").fill("3")
        ann.locator("[name=option-length]").fill("3")
        ann.select_option("[name=opponent]", "user")
        ann.fill("[name=user]", names[1])
        ann.click("#new button[type=submit]")
        ann.wait_for_url(f"{server.url}/games/*")
        game_id = int(ann.url.rsplit("/", 1)[1])
        bob.goto(server.url + "/")
        bob.locator(f"#my-games li[data-game='{game_id}'] button", has_text="Accept").click()
        bob.wait_for_url(f"{server.url}/games/{game_id}")
        for page in (ann, bob):
            page.reload()
            page.wait_for_selector("#board svg")
        # Four moves, each sent by the mover's page with its session cookie.
        rng = random.Random(5)
        deadline = time.monotonic() + 120
        while httpx.get(f"{server.url}/api/games/{game_id}").json()["ply"] < 4:
            assert time.monotonic() < deadline, "the moves were not made"
            if not any(click_once(page, rng) for page in (ann, bob)):
                ann.wait_for_timeout(100)
        # Another site's page posts a resignation to the game, as Bob's browser: refused.
        forged = f"""<!doctype html><form method="post" action="{server.url}/api/games/{game_id}/resign"></form>
            <script>document.forms[0].submit()</script>"""
        with other_site(forged) as address:
            attack = bob.context.new_page()
            with attack.expect_response(f"{server.url}/api/games/{game_id}/resign") as answer:
                attack.goto(address)
            assert answer.value.status == 403, answer.value.status
            # Chromium did send Bob's cookie (same site): only the Origin told the server.
            assert "boardlab_session=" in (answer.value.request.all_headers().get("cookie") or "")
            assert "another site's page" in answer.value.text()
            attack.close()
        game = httpx.get(f"{server.url}/api/games/{game_id}").json()
        assert game["status"] == "active" and game["ply"] >= 4
        # Bob himself resigns from his own page (the same cookie, this server's Origin): done.
        bob.bring_to_front()
        bob.wait_for_selector(IDLE)
        bob.once("dialog", lambda dialog: dialog.accept())
        bob.click("#resign")
        bob.wait_for_selector("#status[data-status=finished]")
        assert httpx.get(f"{server.url}/api/games/{game_id}").json()["termination"] == "resignation"
        # And logs out.
        bob.goto(server.url + "/")
        bob.click("#logout")
        bob.wait_for_selector("#logged-out:not([hidden])")
    finally:
        for c in contexts:
            c.close()
    assert violations == [[], []], violations
