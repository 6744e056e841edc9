"""The pages' scripts are ES modules, loaded with no build step: every page's script is a module, every
module a page imports (and each that one imports) is served here with a JavaScript MIME type (a
browser refuses a module served as anything else), the Content-Security-Policy lets them run, and
the generic scripts name no game: what differs per game comes from the server (the page's data)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import httpx

from boardlab import render
from boardlab.core.registry import games
from boardlab.web.pages import narrow_layout

STATIC = Path(__file__).parents[2] / "boardlab" / "web" / "static"
SCRIPT = re.compile(r"<script\b([^>]*)>")
IMPORT = re.compile(r"""^\s*(?:import|export)\b[^"';]*?\bfrom\s*["']([^"']+)["']|^\s*import\s*["']([^"']+)["']""",
                    re.M)
JAVASCRIPT = ("text/javascript", "application/javascript")


def _guest_game(url: str) -> int:
    created = httpx.post(f"{url}/api/games", json={"game": "ndengrod", "options": {"size": 3, "length": 3},
                                                   "seats": [{"kind": "guest"}, {"kind": "guest"}]}, timeout=300)
    created.raise_for_status()
    return int(created.json()["game"]["id"])


def test_every_page_script_is_a_module_served_as_javascript_with_all_it_imports(server: Any) -> None:
    pages = ["/", "/new", "/account", "/reset", "/archive", f"/games/{_guest_game(server.url)}"]
    seen: set[str] = set()
    for page in pages:
        answer = httpx.get(server.url + page)
        assert answer.status_code == 200, page
        policy = answer.headers["content-security-policy"]
        assert "script-src 'self'" in policy, (page, policy)
        scripts = SCRIPT.findall(answer.text)
        assert scripts, f"{page}: no script"
        for attributes in scripts:
            assert 'type="module"' in attributes, f"{page}: a classic script: <script{attributes}>"
            source = re.search(r'src="([^"]+)"', attributes)
            assert source is not None, f"{page}: an inline script: <script{attributes}>"
            todo = [urljoin(server.url + page, source.group(1))]
            while todo:
                address = todo.pop()
                if address in seen:
                    continue
                seen.add(address)
                module = httpx.get(address)
                assert module.status_code == 200, f"{page} imports {address}: {module.status_code}"
                kind = module.headers["content-type"].split(";")[0].strip()
                assert kind in JAVASCRIPT, f"{address} is served as {kind}"
                for found in IMPORT.findall(module.text):
                    todo.append(urljoin(address, found[0] or found[1]))
    served = {address.split("/static/", 1)[1] for address in seen}
    assert {"common.js", "header.js", "game.js", "game/state.js", "game/board.js"} <= served, served


def test_the_generic_scripts_name_no_game(server: Any) -> None:
    # The game page learns the game's narrow layout from the page (the render layer's table), not from a list.
    scripts = {path.relative_to(STATIC).as_posix(): path.read_text() for path in STATIC.rglob("*.js")
               if "swagger" not in path.as_posix()}
    for game in games():
        narrow = list(render.narrow_layouts(game.id))
        for name, text in scripts.items():
            assert not re.search(rf"\b{re.escape(game.id)}\b", text, re.I), f"{name} names {game.id}"
            assert game.name not in text, f"{name} names {game.name}"
            for layout in narrow:
                assert f'"{layout}"' not in text, f"{name} names {game.id}'s layout {layout}"
    page = httpx.get(f"{server.url}/games/{_guest_game(server.url)}")
    assert 'data-narrow-layout=""' in page.text  # Ndengrod has one layout: none made for phones
    for game in games():
        layouts = render.layouts(game.id)
        narrow = narrow_layout(game.id)
        assert narrow in layouts if narrow else not render.narrow_layouts(game.id), game.id
