"""What a game's print-and-play kit holds, page by page.

By default: the board, blank, with its coordinates, as large as fits the paper, then pieces to cut
out the size of the printed cells (where the game's package names counters, :mod:`boardlab.render.counters`).
A game's package may name a kit of its own instead (:attr:`boardlab.core.package.GamePackage.print_kit`:
``pages(game, view, paper)``, built from the pages here: Horsmeier adds its tracks, Möbiatus prints
its strip, HMDG its record sheets). Every kit ends with a page of rules in brief (the ``## In brief``
section of the game's rules document).
"""

from __future__ import annotations

from boardlab.core.game import Game
from boardlab.core.package import resolve
from boardlab.core.registry import package
from boardlab.core.view import View
from boardlab.docs import rules_text
from boardlab.printing.page import MARGIN, Box, Page, Paper, view_box
from boardlab.render import board_svg
from boardlab.render.counters import Counter, counter_grid, counters, counters_note, pitch
from boardlab.render.sheets import note
from boardlab.render.text import Block, TextBox, blocks_height, markdown_blocks

SUBTITLE = 3.4
RULES_SIZES = (4.6, 4.2, 3.8, 3.5, 3.2, 2.9, 2.6)  # mm: from 13 pt down to about 7 pt


def kit(game: Game, paper: Paper) -> list[Page]:
    """Every page of ``game``'s kit on ``paper``, numbered in their footers."""
    view = game.new_game().view(None)
    own = package(game.id).print_kit
    pages = resolve(own, f"{game.id}'s print kit")(game, view, paper) if own else standard_pages(game, view, paper)
    pages.append(_rules_page(game, paper))
    for number, page in enumerate(pages, start=1):
        page.footer = f"{game.name} · {settings(game)} · page {number} of {len(pages)} · made by boardlab print"
    return pages


def settings(game: Game) -> str:
    changed = game.changed_options
    return ", ".join(f"{name}={value}" for name, value in changed.items()) if changed else "default rules"


def standard_pages(game: Game, view: View, paper: Paper) -> list[Page]:
    """The blank board, then its pieces to cut out (if it has any)."""
    board, box = board_page(game, view, paper)
    return [board, *counter_pages(game, view, paper, box.scale)]


def subtitle(page: Page, words: str) -> None:
    svg, page.top = note(MARGIN, page.top, page.inner_width, words, SUBTITLE)
    page.add(svg)
    page.top += 2.0


def board_page(game: Game, view: View, paper: Paper, layout: str | None = None) -> tuple[Page, Box]:
    """The blank board, on the page turned whichever way prints it larger (Möbiatus' long boards: landscape)."""
    svg = board_svg(view, theme="print", layout=layout, blank=True)
    width, height = view_box(svg)
    room = paper.height - 2 * MARGIN - 24.0
    landscape = min((paper.height - 2 * MARGIN) / width, (paper.width - 2 * MARGIN - 24.0) / height) > \
        1.1 * min((paper.width - 2 * MARGIN) / width, room / height)
    page = Page(paper, f"{game.name}: the board", kind="board", landscape=landscape)
    subtitle(page, f"Rules: {settings(game)}. Coordinates as in boardlab's notation.")
    return page, page.place(svg, page.top, max_height=page.bottom - page.top - 4.0)


def counter_pages(game: Game, view: View, paper: Paper, scale: float) -> list[Page]:
    """Pieces at the printed cell size, as many pages as they need."""
    items = counters(view)
    size = pitch(game.id) * scale
    note = counters_note(game.id)
    tally: dict[str, int] = {}
    for item in items:
        tally[item.colour] = tally.get(item.colour, 0) + 1
    counts = ", ".join(f"{count} {colour}" for colour, count in tally.items())
    pages: list[Page] = []
    remaining: list[Counter] = list(items)
    while remaining:
        page = Page(paper, f"{game.name}: pieces to cut out", kind="counters")
        subtitle(page, f"{counts}; cut along the dashed lines. Each fits a cell of the printed board."
                  + (f" {note}" if note else ""))
        columns = max(int(page.inner_width // size), 1)
        rows = max(int((page.bottom - 4.0 - page.top) // size), 1)
        taken, remaining = remaining[: columns * rows], remaining[columns * rows:]
        x = (page.width - min(columns, len(taken)) * size) / 2
        page.add(counter_grid(taken, size, scale, x, page.top, columns))
        pages.append(page)
    return pages








def rules_blocks(game: Game) -> list[Block]:
    """The ``## In brief`` section of the rules document; lacking one, its opening paragraphs."""
    text = rules_text(game.id)
    blocks = markdown_blocks(text)
    headings = [i for i, block in enumerate(blocks) if block.kind == "heading"]
    for position, index in enumerate(headings):
        if blocks[index].text.lower() == "in brief":
            end = headings[position + 1] if position + 1 < len(headings) else len(blocks)
            return [block for block in blocks[index + 1:end] if "boardlab print" not in block.text]
    opening = headings[1] if len(headings) > 1 else len(blocks)
    return [block for block in blocks[1:opening]]


def options_blocks(game: Game) -> list[Block]:
    """The options that differ from the default rules, each with what it does, under a heading."""
    declared = {option.name: option for option in game.info.options}
    items = []
    for name, value in game.changed_options.items():
        option = declared[name]
        meaning = option.choice_help.get(str(value), option.help)
        tags = ", ".join(x for x in (option.ambiguity, "added rule" if option.added else None) if x)
        items.append(Block("item", f"• {name}={value}: {meaning}" + (f" ({tags})" if tags else "")))
    return [Block("heading", "Options in force (they change the rules above)"), *items] if items else []


def _rules_page(game: Game, paper: Paper) -> Page:
    page = Page(paper, f"{game.name}: the rules in brief", kind="rules")
    which = ("The default rules; the options in force, listed after them, change them."
             if game.changed_options else "The default rules.")
    subtitle(page, f"{which} The full rules, with every option: boardlab rules {game.id}, or docs/rules/{game.id}.md.")
    blocks = rules_blocks(game) + options_blocks(game)
    room = page.bottom - 4.0 - page.top
    size = next((s for s in RULES_SIZES if blocks_height(blocks, page.inner_width, s) <= room), RULES_SIZES[-1])
    while blocks and blocks_height(blocks, page.inner_width, size) > room:
        blocks = blocks[:-1]  # too long even in small type: the full rules are a command away
    box = TextBox(MARGIN, page.top, page.inner_width)
    box.blocks(blocks, size)
    page.add(box.svg("rules"))
    return page

