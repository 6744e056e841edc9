"""Every game's board on a phone (390×844): every text the render layer draws lies inside the picture,
the picture inside the screen, and the captions (whose turn, counts, legends) are large enough to read."""

from __future__ import annotations

import random
from typing import Any

import httpx
import pytest

from boardlab import render
from tests.web.conftest import watch_policy
from tests.web.play import IDLE

PHONE = {"width": 390, "height": 844}
READABLE_PX = 13.5  # the render layer sets captions at 14 px at the width the page asks for
BOARD_TEXT_PX = 12.0  # every other text on a board (coordinates, a piece's numbers) at least this
GAMES: list[tuple[str, dict[str, Any]]] = [
    ("ndengrod", {}), ("gtbm", {}), ("horsmeier", {}), ("mynd", {"players": 3, "size": 9}), ("mobiatus", {}),
    ("hmdg", {}),
]

# In the page: each <text> of the board whose box (user units) leaves the viewBox, the picture's box on
# the screen, and the smallest caption's type in screen pixels.
MEASURE = """() => {
  const svg = document.querySelector("#board svg");
  const [x0, y0, width, height] = svg.getAttribute("viewBox").split(/[ ,]+/).map(Number);
  const scale = svg.getBoundingClientRect().width / width;
  const outside = [];
  for (const text of svg.querySelectorAll("text")) {
    const box = text.getBBox();
    if (box.x < x0 - 0.5 || box.y < y0 - 0.5 || box.x + box.width > x0 + width + 0.5
        || box.y + box.height > y0 + height + 0.5) {
      outside.push(`${text.textContent} [${box.x.toFixed(1)}..${(box.x + box.width).toFixed(1)} of ${width}]`);
    }
  }
  const captions = [...svg.querySelectorAll(".status text, .legend text, .seam-note text")];
  const sizes = captions.map((text) => parseFloat(text.getAttribute("font-size")) * scale);
  const screen = svg.getBoundingClientRect();
  const small = [];
  for (const text of svg.querySelectorAll("text")) {
    const size = parseFloat(text.getAttribute("font-size") || getComputedStyle(text).fontSize) * scale;
    if (text.textContent.trim() && size < 12.0) small.push(`${text.textContent} (${size.toFixed(1)} px)`);
  }
  return {outside, small, captions: captions.length, smallest: Math.min(...sizes), left: screen.left,
          right: screen.right, screen: window.innerWidth,
          weights: [...new Set(captions.map((text) => getComputedStyle(text).fontWeight))]};
}"""


def guest_game(url: str, game: str, options: dict[str, Any], moves: int) -> tuple[int, str]:
    """A game between guest seats after ``moves`` random legal moves: its id and seat 0's token."""
    seats = int(options.get("players", 2))
    created = httpx.post(f"{url}/api/games", json={"game": game, "options": options,
                                                   "seats": [{"kind": "guest"}] * seats}, timeout=300)
    created.raise_for_status()
    game_id, tokens = created.json()["game"]["id"], created.json()["invitations"]
    rng = random.Random(5)
    for _ in range(moves):
        state = httpx.get(f"{url}/api/games/{game_id}", timeout=300).json()
        if state["status"] != "active":
            break
        token = tokens[str(state["to_move"])]
        view = httpx.get(f"{url}/api/games/{game_id}", headers={"X-Seat-Token": token}, timeout=300).json()["view"]
        move = rng.choice([m for m in view["legal_moves"] if m != "pass"] or view["legal_moves"])
        httpx.post(f"{url}/api/games/{game_id}/moves", json={"ply": state["ply"], "move": move},
                   headers={"X-Seat-Token": token}, timeout=300).raise_for_status()
    return game_id, tokens["0"]


def check_board(page: Any, where: str, board_text: bool = True) -> None:
    """Captions fit and read; ``board_text``: the board's own text too (the layout a phone is shown
    first; a wider layout chosen on a phone keeps its proportions)."""
    measured = page.evaluate(MEASURE)
    assert not measured["outside"], f"{where}: text beyond the picture's edge: {measured['outside']}"
    assert measured["left"] >= 0 and measured["right"] <= measured["screen"], f"{where}: the picture is wider " \
        f"than the screen ({measured['left']}..{measured['right']} of {measured['screen']})"
    assert measured["captions"] > 0, f"{where}: no caption found"
    assert measured["smallest"] >= READABLE_PX, f"{where}: captions set at {measured['smallest']:.1f} px"
    small = measured["small"][:8]
    assert not board_text or not small, f"{where}: board text under {BOARD_TEXT_PX:g} px: {small}"
    # The page's own styles must not reach into the picture (bold type is wider than the lines were broken for).
    assert measured["weights"] == ["400"], f"{where}: caption weights {measured['weights']}"


@pytest.mark.parametrize(("game", "options"), GAMES, ids=[game for game, _ in GAMES])
def test_every_caption_fits_a_phone_and_reads_at_its_size(server: Any, browser: Any, game: str,
                                                          options: dict[str, Any]) -> None:
    game_id, token = guest_game(server.url, game, options, moves=12)
    context = browser.new_context(viewport=PHONE, device_scale_factor=1)
    context.set_default_timeout(120_000)
    violations = watch_policy(context)
    try:
        page = context.new_page()
        page.goto(f"{server.url}/games/{game_id}?seat_token={token}")
        page.wait_for_selector("#board svg")
        page.wait_for_selector(IDLE)
        check_board(page, f"{game}, the page's layout")
        first = page.eval_on_selector("#layout", "select => select.value") if page.locator("#layout option").count() \
            else None
        # A phone is shown the game's layout for narrow screens first, where it has one (the page's data).
        narrow = list(render.narrow_layouts(game))
        if narrow:
            assert first == narrow[0], f"{game}: a phone is shown {first} first, not {narrow[0]}"
        layouts = page.eval_on_selector_all("#layout option", "options => options.map(o => o.value)")
        for layout in layouts:
            page.select_option("#layout", layout)
            page.wait_for_selector(IDLE)
            check_board(page, f"{game}, layout {layout}", board_text=layout == first)
        # A finished game's caption says how it ended, in words the server knows (a resignation).
        httpx.post(f"{server.url}/api/games/{game_id}/resign", headers={"X-Seat-Token": token},
                   timeout=60).raise_for_status()
        page.reload()
        page.wait_for_selector("#status[data-status=finished]")
        page.wait_for_selector(IDLE)
        captions = page.eval_on_selector_all("#board svg .status text, #board svg .legend text",
                                             "texts => texts.map(t => t.textContent).join(' ')")
        assert "resigned" in captions, captions
        if first is not None:
            page.select_option("#layout", first)
            page.wait_for_selector(IDLE)
        check_board(page, f"{game}, finished")
    finally:
        context.close()
    assert violations == [], violations
