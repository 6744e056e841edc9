"""Fixtures for the browser's tests: the real server (uvicorn on a free loopback port, a temporary
SQLite file) and Debian's chromium driven by Playwright (never Playwright's own browser download).

Without chromium or Playwright these tests are skipped, saying why.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from boardlab.server.config import Settings
from tests.server.conftest import LiveServer

CHROMIUM = os.environ.get("BOARDLAB_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    folder = tmp_path_factory.mktemp("web")
    settings = Settings(db_url=f"sqlite:///{folder / 'boardlab.db'}", background=True, sweep_seconds=1.0,
                        ai_workers=1)
    with LiveServer(settings) as live:
        yield live


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.skip(f"browser tests skipped: no chromium at {CHROMIUM} (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("browser tests skipped: Playwright is not installed (pip install playwright)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            yield browser
        finally:
            browser.close()


# Reported by every page of a watched context: a securitypolicyviolation event, as a console message.
_REPORT_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (event) => {
  console.error(`CSP violation: ${event.violatedDirective} blocked ${event.blockedURI || "inline"} ` +
                `at ${event.sourceFile || location.href}:${event.lineNumber}`);
});
"""


def watch_policy(context: Any) -> list[str]:
    """Collect every Content-Security-Policy violation in ``context``'s pages: the page's own
    securitypolicyviolation events, and chromium's console messages ("Refused to …")."""
    violations: list[str] = []
    context.add_init_script(_REPORT_VIOLATIONS)

    def seen(message: Any) -> None:
        text = message.text
        if text.startswith("CSP violation:") or "Refused to" in text or "Content Security Policy" in text:
            violations.append(text)

    context.on("console", seen)
    return violations


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    """A browser context whose pages must run without breaking the server's Content-Security-Policy."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(120_000)  # a computer seat's first search compiles its kernels
    violations = watch_policy(context)
    try:
        yield context
    finally:
        context.close()
    assert violations == [], f"the pages broke the Content-Security-Policy: {violations}"
