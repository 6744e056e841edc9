"""Accounts in a real browser against a server that sends mail to a real SMTP server (aiosmtpd): a
forgotten password reset end to end from the e-mailed link, and a password changed on the account page."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from aiosmtpd.controller import Controller

from boardlab.server.config import Settings
from tests.server.conftest import LiveServer, free_port, wait_for
from tests.server.test_mail import Inbox
from tests.web.conftest import watch_policy
from tests.web.test_two_people import PASSWORD, register


@pytest.fixture(scope="module")
def mailing(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LiveServer, Inbox]]:
    inbox = Inbox()
    port = free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    folder = tmp_path_factory.mktemp("mail")
    settings = Settings(db_url=f"sqlite:///{folder / 'boardlab.db'}", background=False,
                        smtp=f"127.0.0.1:{port}", mail_from="games@example.org")
    try:
        with LiveServer(settings) as live:
            yield live, inbox
    finally:
        controller.stop()


def log_in(page: Any, url: str, name: str, password: str) -> str:
    page.goto(url + "/")
    page.fill("#login [name=name]", name)
    page.fill("#login [name=password]", password)
    page.click("#login button[type=submit]")
    page.wait_for_selector("#logged-in:not([hidden]), #account-error:not(:empty)")
    return str(page.locator("#me").inner_text() or page.locator("#account-error").inner_text())


def test_a_forgotten_password_is_reset_from_the_emailed_link(mailing: tuple[LiveServer, Inbox], browser: Any) -> None:
    server, inbox = mailing
    context = browser.new_context()
    context.set_default_timeout(30_000)
    violations = watch_policy(context)
    try:
        page = context.new_page()
        register(page, server.url, "山田", email="yamada@example.org")
        page.click("#logout")
        page.wait_for_selector("#logged-out:not([hidden])")
        page.click("text=Forgot your password?")
        page.wait_for_url(f"{server.url}/reset")
        page.fill("#reset-ask [name=who]", "yamada@example.org")
        page.click("#reset-ask button[type=submit]")
        page.wait_for_selector("#reset-ask-message.info")
        assert "a link to set a new password is on its way" in page.locator("#reset-ask-message").inner_text()
        wait_for(lambda: inbox.to("yamada@example.org"))
        mail = next(m for m in inbox.messages if m["To"] == "yamada@example.org")
        body = mail.get_payload(decode=True).decode()
        link = re.search(r"(http://\S+/reset#\S+)", body)
        assert link is not None and "山田" in body
        fresh = context.new_page()  # the link opened from the mail program
        fresh.goto(link.group(1).replace(f"http://127.0.0.1:{server.port}", server.url))
        fresh.wait_for_selector("#reset-set:not([hidden])")
        assert fresh.locator("#reset-ask").is_hidden()
        fresh.fill("#reset-set [name=password]", "my new password")
        fresh.fill("#reset-set [name=again]", "my new password")
        fresh.click("#reset-set button[type=submit]")
        fresh.wait_for_selector("#reset-set-message.info")
        assert "signed in as 山田" in fresh.locator("#reset-set-message").inner_text()
        assert fresh.url.endswith("/reset")  # the spent token is out of the address bar
        fresh.click("#to-lobby")
        fresh.wait_for_selector("#logged-in:not([hidden])")
        fresh.click("#logout")
        fresh.wait_for_selector("#logged-out:not([hidden])")
        assert "wrong name or password" in log_in(fresh, server.url, "山田", PASSWORD)
        assert log_in(fresh, server.url, "山田", "my new password") == "Signed in as 山田."
        # The same link a second time: refused, saying why.
        again = context.new_page()
        again.goto(link.group(1).replace(f"http://127.0.0.1:{server.port}", server.url))
        again.fill("#reset-set [name=password]", "yet another one")
        again.fill("#reset-set [name=again]", "yet another one")
        again.click("#reset-set button[type=submit]")
        again.wait_for_selector("#reset-set-message.error")
        assert "not valid" in again.locator("#reset-set-message").inner_text()
    finally:
        context.close()
    assert violations == [], violations


def test_the_account_page_changes_the_password(mailing: tuple[LiveServer, Inbox], browser: Any) -> None:
    server, _ = mailing
    context = browser.new_context()
    context.set_default_timeout(30_000)
    violations = watch_policy(context)
    try:
        page = context.new_page()
        register(page, server.url, "Zoë")
        page.goto(server.url + "/account")
        page.wait_for_selector("#account-forms:not([hidden])")
        form = page.locator("#password-form")
        form.locator("[name=current]").fill(PASSWORD)
        form.locator("[name=new]").fill("zoë's new password")
        form.locator("[name=again]").fill("zoë's other password")
        form.locator("button[type=submit]").click()
        page.wait_for_selector("#password-message.error")
        assert "differ" in page.locator("#password-message").inner_text()
        form.locator("[name=again]").fill("zoë's new password")
        form.locator("button[type=submit]").click()
        page.wait_for_selector("#password-message.info")
        page.goto(server.url + "/")
        page.click("#logout")
        page.wait_for_selector("#logged-out:not([hidden])")
        assert log_in(page, server.url, "zoë", "zoë's new password") == "Signed in as Zoë."
    finally:
        context.close()
    assert violations == [], violations
