"""What each game's print-and-play kit holds, page by page.

- every game: the board, blank, with its coordinates, as large as fits the paper, and a page of
  rules in brief (the ``## In brief`` section of ``docs/rules/<game>.md``);
- GTBM, Horsmeier, Mynd, Ndengrod: pieces to cut out, the size of the printed cells;
- Horsmeier: a strength and life-span track for each piece;
- Möbiatus: the strip to print on both sides of one sheet (pages 1 and 2), cut and glue into a
  Möbius strip; then the two flat boards with the flip at the ends marked;
- HMDG: a record sheet for the referee and one for each player (with a board each).
"""

from __future__ import annotations

from boardlab.core.game import Game
from boardlab.core.view import View
from boardlab.docs import rules_text
from boardlab.printing.page import MARGIN, Box, Page, Paper, view_box
from boardlab.render import board_svg
from boardlab.render.counters import Counter, counter_grid, counters, pitch
from boardlab.render.sheets import horsmeier_tracks, note, table
from boardlab.render.strip_template import strip_template
from boardlab.render.text import Block, TextBox, blocks_height, markdown_blocks

SUBTITLE = 3.4
RULES_SIZES = (4.6, 4.2, 3.8, 3.5, 3.2, 2.9, 2.6)  # mm: from 13 pt down to about 7 pt


def kit(game: Game, paper: Paper) -> list[Page]:
    """Every page of ``game``'s kit on ``paper``, numbered in their footers."""
    view = game.new_game().view(None)
    if game.id == "mobiatus":
        pages = [*_strip_pages(game, paper), _board_page(game, view, paper, layout="faces")[0]]
    elif game.id == "hmdg":
        pages = [_hmdg_sheet(game, view, paper, seat) for seat in (None, 0, 1)]
    else:
        board, box = _board_page(game, view, paper)
        pages = [board, *_counter_pages(game, view, paper, box.scale)]
        if game.id == "horsmeier":
            pages.append(_tracks_page(game, view, paper))
    pages.append(_rules_page(game, paper))
    for number, page in enumerate(pages, start=1):
        page.footer = f"{game.name} · {settings(game)} · page {number} of {len(pages)} · made by boardlab print"
    return pages


def settings(game: Game) -> str:
    changed = game.changed_options
    return ", ".join(f"{name}={value}" for name, value in changed.items()) if changed else "default rules"


def _subtitle(page: Page, words: str) -> None:
    svg, page.top = note(MARGIN, page.top, page.inner_width, words, SUBTITLE)
    page.add(svg)
    page.top += 2.0


def _board_page(game: Game, view: View, paper: Paper, layout: str | None = None) -> tuple[Page, Box]:
    """The blank board, on the page turned whichever way prints it larger (Möbiatus' long boards: landscape)."""
    svg = board_svg(view, theme="print", layout=layout, blank=True)
    width, height = view_box(svg)
    room = paper.height - 2 * MARGIN - 24.0
    landscape = min((paper.height - 2 * MARGIN) / width, (paper.width - 2 * MARGIN - 24.0) / height) > \
        1.1 * min((paper.width - 2 * MARGIN) / width, room / height)
    page = Page(paper, f"{game.name}: the board", kind="board", landscape=landscape)
    _subtitle(page, f"Rules: {settings(game)}. Coordinates as in boardlab's notation.")
    return page, page.place(svg, page.top, max_height=page.bottom - page.top - 4.0)


def _counter_pages(game: Game, view: View, paper: Paper, scale: float) -> list[Page]:
    """Pieces at the printed cell size, as many pages as they need."""
    items = counters(view)
    size = pitch(game.id) * scale
    tally: dict[str, int] = {}
    for item in items:
        tally[item.colour] = tally.get(item.colour, 0) + 1
    counts = ", ".join(f"{count} {colour}" for colour, count in tally.items())
    pages: list[Page] = []
    remaining: list[Counter] = list(items)
    while remaining:
        page = Page(paper, f"{game.name}: pieces to cut out", kind="counters")
        _subtitle(page, f"{counts}; cut along the dashed lines. Each fits a cell of the printed board."
                  + (" A ring marks each player's starting peg." if game.id == "mynd" else "")
                  + (" Numbers match the track sheet." if game.id == "horsmeier" else ""))
        columns = max(int(page.inner_width // size), 1)
        rows = max(int((page.bottom - 4.0 - page.top) // size), 1)
        taken, remaining = remaining[: columns * rows], remaining[columns * rows:]
        x = (page.width - min(columns, len(taken)) * size) / 2
        page.add(counter_grid(taken, size, scale, x, page.top, columns))
        pages.append(page)
    return pages


def _tracks_page(game: Game, view: View, paper: Paper) -> Page:
    page = Page(paper, f"{game.name}: strength and life-span tracks", kind="tracks")
    _subtitle(page, "One row per piece, numbered as the pieces. Shaded: where each starts. Move a coin or "
                    "pencil mark along each track as the piece upgrades, degrades and ages (a moved piece goes "
                    "back to 11; each other piece of the mover loses one).")
    pieces = []
    numbers: dict[int, int] = {}
    for content in game.cell_contents(view):
        for piece in content.pieces:
            numbers[piece.colour] = numbers.get(piece.colour, 0) + 1
            pieces.append((piece.colour, numbers[piece.colour], piece.numbers["strength"], content.name))
    row_height = min(9.0, (page.bottom - 6.0 - page.top) / (len(pieces) + 1))
    svg, _ = horsmeier_tracks(MARGIN, page.top, page.inner_width, pieces, row_height)
    page.add(svg)
    return page


def _strip_pages(game: Game, paper: Paper) -> list[Page]:
    from boardlab.core.mobius import MobiusStrip

    strip = MobiusStrip(int(game.options["length"]), int(game.options["width"]))
    front = Page(paper, f"{game.name}: the strip, front (board F)", kind="strip-front")
    steps = ("Print pages 1 and 2 on the two sides of one sheet, flipping on the long edge (or print them "
             "apart and glue them back to back): each square of the back then lies behind the square of the "
             "front with the same column and row (B12c behind F12c); hold the sheet to the light to check.",
             "Cut out each piece of the strip along the solid lines, tabs included.",
             "If the strip comes in pieces, lay each join tab over the first column of the next piece, names on "
             "names, and glue.",
             "Give the strip a half twist and glue the red twist tab over B1, the first column's back, "
             "letters on letters (B1e on B1e). Play with a pencil: a dot for a piece, its circle on the other side, "
             "a cross for a singularity.")
    y = front.top
    texts = []
    for number, words in enumerate(steps, start=1):
        svg, y = note(MARGIN, y, front.inner_width, f"{number}. {words}", 3.0)
        texts.append(svg)
    for svg in texts:
        front.add(svg)
    top = y + 2.0
    template = strip_template(strip, paper.width, MARGIN, top, front.inner_width, front.bottom - 6.0 - top)
    front.add(template.front)
    back = Page(paper, f"{game.name}: the strip, back (board B)", kind="strip-back")
    _subtitle(back, "Print on the back of page 1 (flip on the long edge). The hatched tabs' backs take the glue.")
    back.add(template.back)
    return [front, back]


def _hmdg_sheet(game: Game, view: View, paper: Paper, seat: int | None) -> Page:
    who = "the referee's record" if seat is None else f"player's record, seat {seat} ({'AB'[seat]})"
    page = Page(paper, f"{game.name}: {who}", kind="record-referee" if seat is None else "record-player")
    if seat is None:
        _subtitle(page, "Mark every stone on the board: x or o, a circle round it once revealed. In the table, "
                        "each turn: who moved, the secret target, the line announced, what the responder revealed, "
                        "the result (hidden, revealed, failed) and fives announced.")
        columns = [("Turn", 0.8), ("Mover", 1.0), ("Secret target", 1.4), ("Line announced", 1.5),
                   ("Revealed by responder", 2.4), ("Result", 1.5), ("Fives", 0.9)]
    else:
        first = "places the first x" if seat == 0 else "then chooses x or o"
        _subtitle(page, f"Seat {seat} ({'AB'[seat]}) {first}. Keep this sheet hidden. Mark your own stones (a circle "
                        "once revealed) and every stone revealed by your opponent. Name: ______________  plays: x / o")
        columns = [("Turn", 0.8), ("Mine or theirs", 1.2), ("My target or their line", 2.0),
                   ("Revealed", 2.2), ("Result", 1.5), ("Fives", 0.9)]
    board = board_svg(view, theme="print", blank=True)
    box = page.place(board, page.top, max_height=(page.bottom - page.top) * 0.45)
    top = box.y + box.height + 3.0
    row_height = 6.0
    rows = int((page.bottom - 4.0 - top - row_height * 1.5) // row_height)
    svg, _ = table(MARGIN, top, page.inner_width, columns, rows, row_height)
    page.add(svg)
    return page


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
    _subtitle(page, f"{which} The full rules, with every option: boardlab rules {game.id}, or docs/rules/{game.id}.md.")
    blocks = rules_blocks(game) + options_blocks(game)
    room = page.bottom - 4.0 - page.top
    size = next((s for s in RULES_SIZES if blocks_height(blocks, page.inner_width, s) <= room), RULES_SIZES[-1])
    while blocks and blocks_height(blocks, page.inner_width, size) > room:
        blocks = blocks[:-1]  # too long even in small type: the full rules are a command away
    box = TextBox(MARGIN, page.top, page.inner_width)
    box.blocks(blocks, size)
    page.add(box.svg("rules"))
    return page

