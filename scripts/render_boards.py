"""Draw every game's board to SVG and PNG (headless chromium), for the docs and for looking at them.

    .venv/bin/python scripts/render_boards.py                 # docs/images/*.png, 720 px wide
    .venv/bin/python scripts/render_boards.py --phone --out /tmp/phone --svg   # 390 px wide, with the SVGs

Positions come from fixed random games, so the pictures change only when the drawing does. Needs
Debian's ``chromium`` (``apt-get install -y chromium``) for the PNGs; without it only SVGs are written.
"""

from __future__ import annotations

import argparse
import random
import re
import shutil
import subprocess
import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import boardlab
from boardlab import render

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--hide-scrollbars"]


def played(game_id: str, plies: int, seed: int, **options: object) -> boardlab.State:
    state, rng = boardlab.load(game_id, **options).new_game(), random.Random(seed)
    for _ in range(plies):
        if state.is_over:
            break
        state = state.play(rng.choice(state.legal_moves()))
    return state


def gtbm_selected() -> str:
    state = played("gtbm", 24, seed=1)
    view = state.view(state.to_move)
    first = render.next_steps(view).steps[0]
    return render.board_svg(view, marks=render.selection_marks(view, (first,)))


def gtbm_heat() -> str:
    """Where moves are made: the cells of every move in 20 random games, counted (the playtest heat map)."""
    counts: Counter[str] = Counter()
    for seed in range(20):
        state, rng = boardlab.load("gtbm").new_game(), random.Random(seed)
        while not state.is_over:
            move = rng.choice(state.legal_moves())
            counts.update(render.move_cells(state.view(state.to_move), move))
            state = state.play(move)
    start = boardlab.load("gtbm").new_game()
    marks = render.Marks(last=(), heat=dict(counts), heat_title="squares moved from or to, 20 random games")
    return render.board_svg(start.view(None), marks=marks)


BOARDS: dict[str, Callable[[], str]] = {
    "ndengrod": lambda: render.board_svg(played("ndengrod", 18, seed=1).view(0)),
    "ndengrod-pentalath": lambda: render.board_svg(played("ndengrod", 26, seed=2, variant="pentalath").view(0)),
    "gtbm": gtbm_selected,
    "gtbm-16": lambda: render.board_svg(played("gtbm", 80, seed=3, size=16).view(0)),
    "gtbm-heat": gtbm_heat,
    "horsmeier": lambda: render.board_svg(played("horsmeier", 30, seed=3).view(0)),
    "mynd-4": lambda: render.board_svg(played("mynd", 90, seed=3, players=4).view(0)),
    "mobiatus-faces": lambda: render.board_svg(played("mobiatus", 30, seed=4).view(0)),
    "mobiatus-strip": lambda: render.board_svg(played("mobiatus", 30, seed=4).view(0), layout="strip"),
    "hmdg": lambda: render.board_svg(played("hmdg", 37, seed=5).view(0)),
    # layouts for narrow screens (drawn with --phone)
    "mobiatus-bands": lambda: render.board_svg(played("mobiatus", 30, seed=4).view(0), layout="bands"),
    "hmdg-below": lambda: render.board_svg(played("hmdg", 37, seed=5).view(0), layout="below"),
}


NARROW = ("mobiatus-bands", "hmdg-below")


def screenshot(svg_path: Path, png_path: Path, width: int, chromium: str) -> None:
    """The SVG at ``width`` pixels, its height in proportion (an HTML page sizes it exactly)."""
    _, _, w, h = (float(n) for n in re.search(r'viewBox="([^"]+)"', svg_path.read_text()).group(1).split())
    height = round(width * h / w)
    with tempfile.TemporaryDirectory() as scratch:
        page = Path(scratch) / "page.html"
        page.write_text(f'<!doctype html><html><body style="margin:0">'
                        f'<img src="{svg_path.resolve().as_uri()}" width="{width}" height="{height}" '
                        f'style="display:block"></body></html>')
        subprocess.run([chromium, *CHROMIUM_FLAGS, f"--user-data-dir={scratch}/profile",
                        f"--screenshot={png_path.resolve()}", f"--window-size={width},{height}", page.as_uri()],
                       check=True, capture_output=True, timeout=120)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=Path("docs/images"))
    parser.add_argument("--width", type=int, default=720)
    parser.add_argument("--svg", action="store_true", help="keep the SVG files beside the PNGs")
    parser.add_argument("--phone", action="store_true", help="390 px wide, with the layouts for narrow screens")
    parser.add_argument("boards", nargs="*", help=f"boards to draw (default all): {', '.join(BOARDS)}")
    arguments = parser.parse_args()
    names = arguments.boards or [name for name in BOARDS if arguments.phone or name not in NARROW]
    width = 390 if arguments.phone else arguments.width
    arguments.out.mkdir(parents=True, exist_ok=True)
    chromium = shutil.which("chromium")
    with tempfile.TemporaryDirectory() as scratch:
        for name in names:
            svg_path = (arguments.out if arguments.svg or not chromium else Path(scratch)) / f"{name}.svg"
            svg_path.write_text(BOARDS[name]())
            if chromium:
                screenshot(svg_path, arguments.out / f"{name}.png", width, chromium)
            print(arguments.out / f"{name}.png" if chromium else f"{svg_path} (no chromium: no PNG)")


if __name__ == "__main__":
    main()
