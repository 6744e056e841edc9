"""Print and play: every game's kit as a PDF of the right paper, its boards, pieces, sheets and rules.

PDFs are read back with pypdf (page sizes) and poppler's pdftotext and pdftoppm (the words on a
page, a page as pixels); the pages' SVG is parsed for what each cell and piece carries.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import boardlab
from boardlab.cli.main import main
from boardlab.printing import kit, print_kit
from boardlab.printing.games import rules_blocks
from boardlab.printing.page import PAPERS

pypdf = pytest.importorskip("pypdf", reason="the print extra (pypdf) is not installed")
pytest.importorskip("cairosvg", reason="the print extra (cairosvg) is not installed")
POPPLER = shutil.which("pdftotext") is not None and shutil.which("pdftoppm") is not None
needs_poppler = pytest.mark.skipif(not POPPLER, reason="poppler-utils (pdftotext, pdftoppm) is not installed")

GAMES = [info.id for info in boardlab.games()]
MM = 72 / 25.4  # PDF points per millimetre
SVG = "{http://www.w3.org/2000/svg}"


def pdf_text(path: Path, page: int) -> str:
    return subprocess.run(["pdftotext", "-layout", "-f", str(page), "-l", str(page), str(path), "-"],
                          capture_output=True, text=True, check=True).stdout


def cells_in(svg: str) -> list[str]:
    return [e.get("data-cell", "") for e in ET.fromstring(svg).iter() if e.get("data-cell") is not None]


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_makes_a_pdf_of_the_paper_size(tmp_path: Path, game_id: str, paper: str) -> None:
    out = tmp_path / f"{game_id}.pdf"
    pages = print_kit(game_id, out, paper=paper)
    reader = pypdf.PdfReader(out)
    assert len(reader.pages) == len(pages) >= 3
    expected = sorted((PAPERS[paper].width * MM, PAPERS[paper].height * MM))
    for pdf_page in reader.pages:
        box = pdf_page.mediabox
        # landscape pages (Möbiatus' long boards) are the same paper turned
        assert sorted((float(box.width), float(box.height))) == pytest.approx(expected, abs=0.5)
    kinds = [page.kind for page in pages]
    assert kinds[-1] == "rules"
    if game_id == "hmdg":
        assert kinds[:3] == ["record-referee", "record-player", "record-player"]
    elif game_id == "mobiatus":
        assert kinds[:3] == ["strip-front", "strip-back", "board"]  # the two sides of one sheet first
    else:
        assert kinds[0] == "board" and "counters" in kinds


@pytest.mark.parametrize("game_id, options", [
    ("ndengrod", {}), ("ndengrod", {"board": "trapezoid", "size": 4}), ("gtbm", {"size": 16}),
    ("horsmeier", {}), ("mynd", {"size": 9, "players": 3}), ("mobiatus", {"length": 12, "width": 4}),
    ("hmdg", {"size": 7}),
])
def test_the_board_pages_name_every_cell(game_id: str, options: dict[str, Any]) -> None:
    game = boardlab.load(game_id, **options)
    pages = kit(game_id, options)
    boards = [page for page in pages if page.kind in ("board", "record-referee", "record-player")]
    assert boards
    for page in boards:
        drawn = cells_in(page.svg())
        assert sorted(drawn) == sorted(game.cell_names()), f"{page.kind} page"
        # blank: nothing stands on the printed board
        assert "data-piece" not in page.svg()


@needs_poppler
def test_board_coordinates_are_printed(tmp_path: Path) -> None:
    out = tmp_path / "gtbm.pdf"
    print_kit("gtbm", out, {"size": 10})
    words = pdf_text(out, 1).split()
    for label in [*"abcdefghij", *(str(n) for n in range(1, 11))]:
        assert words.count(label) >= 2, f"coordinate {label} on two sides of the board"


def counters_of(game_id: str, options: dict[str, Any]) -> Counter[str]:
    pages = kit(game_id, options)
    found: Counter[str] = Counter()
    for page in pages:
        if page.kind == "counters":
            for element in ET.fromstring(page.svg()).iter():
                if element.get("data-counter"):
                    found[element.get("data-counter", "")] += 1
    return found


@pytest.mark.parametrize("size", [4, 8, 16])
def test_gtbm_pieces_one_per_home_square(size: int) -> None:
    assert counters_of("gtbm", {"size": size}) == {"Black piece": size, "White piece": size}


@pytest.mark.parametrize("options, each", [
    # the supply table in docs/rules/mynd.md (M8), peg included
    ({}, 40), ({"players": 3}, 27), ({"players": 4}, 20), ({"players": 2, "supply": "fixed_table"}, 20),
    ({"size": 7, "supply": "unlimited"}, 49), ({"size": 16, "players": 4}, 43),
])
def test_mynd_pieces_match_the_supply(options: dict[str, Any], each: int) -> None:
    found = counters_of("mynd", options)
    players = options.get("players", 2)
    colours = ("black", "white", "red", "green")[:players]
    assert found == {**{f"{c} peg": 1 for c in colours}, **{f"{c} piece": each - 1 for c in colours}}


def test_ndengrod_stones_fill_half_the_board_each() -> None:
    assert counters_of("ndengrod", {}) == {"x stone": 31, "o stone": 31}  # 61 cells
    assert counters_of("ndengrod", {"board": "trapezoid"}) == {"x stone": 35, "o stone": 35}  # 70 cells


def test_pencil_games_have_no_pieces() -> None:
    assert counters_of("mobiatus", {}) == {} and counters_of("hmdg", {}) == {}


def test_horsmeier_pieces_and_tracks_agree_with_the_setup() -> None:
    assert counters_of("horsmeier", {}) == {"White piece": 11, "Black piece": 11}
    tracks = next(page for page in kit("horsmeier") if page.kind == "tracks")
    root = ET.fromstring(tracks.svg())
    rows = [e for e in root.iter() if e.get("data-track")]
    assert len(rows) == 22
    # each track names the piece's start square and shades its starting strength (rules: b1 is a 1, f5 a 5)
    texts = {e.get("data-track"): " ".join("".join(t.itertext()) for t in e.iter(f"{SVG}text")) for e in rows}
    white = [words for name, words in texts.items() if name and name.startswith("White")]
    assert any("White, f5" in words for words in white) and any("White, b1" in words for words in white)
    shaded = {e.get("data-track"): [r for r in e.iter(f"{SVG}rect") if r.get("fill") == "#D9D9D9"] for e in rows}
    assert all(len(boxes) == 2 for boxes in shaded.values())  # the starting strength and life 11


def test_counters_match_the_printed_cells() -> None:
    """A cut-out piece is as wide as a square of the printed board."""
    pages = kit("gtbm")
    board = ET.fromstring(pages[0].svg())
    nested = next(e for e in board.iter(f"{SVG}svg") if e is not board)  # the board in the page
    scale = float(nested.get("width", "0")) / float(nested.get("viewBox", "").split()[2])
    square = 24.0 * scale  # GTBM's squares are 24 units in the renderer
    counters = ET.fromstring(pages[1].svg())
    moves = [float(m.group(1)) for e in counters.iter() if e.get("data-counter")
             for m in [re.search(r"translate\(([\d.]+) ", e.get("transform", ""))] if m]
    assert moves[1] - moves[0] == pytest.approx(square, abs=0.05)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_mobius_strip_sides_line_up_through_the_paper(paper: str) -> None:
    """Printed on both sides (flipped on the long edge), each back face lies behind its front face."""
    pages = kit("mobiatus", {"length": 30, "width": 5}, paper=paper)
    front, back = (ET.fromstring(page.svg()) for page in pages[:2])
    width = pages[0].width

    def centres(root: ET.Element) -> dict[str, tuple[float, float]]:
        found = {}
        for group in root.iter():
            if group.get("data-cell"):
                rect = next(group.iter(f"{SVG}rect"))
                x, y, w = (float(rect.get(k, "0")) for k in ("x", "y", "width"))
                found[group.get("data-cell", "")] = (x + w / 2, y + w / 2)
        return found

    f, b = centres(front), centres(back)
    assert len(f) == len(b) == 150
    for name, (x, y) in f.items():
        bx, by = b["B" + name[1:]]
        assert (bx, by) == pytest.approx((width - x, y), abs=0.03)  # coordinates are written to 0.01 mm
    # the twist tab carries B1's names with the rows flipped: row a of the tab covers B1e
    tab = [e.get("data-covers") for e in front.iter() if e.get("data-covers", "").startswith("B1")]
    assert tab == ["B1e", "B1d", "B1c", "B1b", "B1a"]
    tab_x = [float(next(e.iter(f"{SVG}rect")).get("x", "0")) for e in front.iter()
             if e.get("data-covers", "").startswith("B1")]
    assert tab_x == sorted(tab_x)  # left to right as rows a … e of the front
    # a join tab repeats the next piece's first column, rows in the same order, right after the previous column
    joins = [e for e in front.iter() if e.get("data-covers", "").startswith("F")]
    assert joins and len(joins) % 5 == 0
    for start in range(0, len(joins), 5):
        names = [e.get("data-covers", "") for e in joins[start:start + 5]]
        column = int(names[0][1:-1])
        assert names == [f"F{column}{row}" for row in "abcde"]
        before = f[f"F{column - 1}a"]
        tab = next(joins[start].iter(f"{SVG}rect"))
        assert float(tab.get("y", "0")) == pytest.approx(before[1] + float(tab.get("height", "0")) / 2, abs=0.03)


@needs_poppler
def test_mobius_strip_names_every_face(tmp_path: Path) -> None:
    out = tmp_path / "mobiatus.pdf"
    print_kit("mobiatus", out, {"length": 10, "width": 3})
    front, back = pdf_text(out, 1).split(), pdf_text(out, 2).split()
    for column in range(1, 11):
        for row in "abc":
            assert f"F{column}{row}" in front and f"B{column}{row}" in back
    assert "glue" in back


@pytest.mark.parametrize("game_id", GAMES)
def test_rules_page_prints_the_in_brief_section(game_id: str) -> None:
    blocks = rules_blocks(boardlab.load(game_id))
    text = boardlab.docs.rules_text(game_id)  # type: ignore[attr-defined]
    brief = text[text.index("## In brief"):]
    brief = brief[:brief.index("\n## ", 1)]
    assert blocks and all(block.kind in ("item", "paragraph") for block in blocks)
    assert len(blocks) == brief.count("\n- ")  # every bullet, nothing from the rest of the document
    page = kit(game_id)[-1].svg()
    assert blocks[-1].text.split()[-1] in page


def test_rules_without_a_brief_fall_back_to_the_opening(monkeypatch: pytest.MonkeyPatch) -> None:
    from boardlab.printing import games

    monkeypatch.setattr(games, "rules_text", lambda game_id: "# T\n\nFirst words.\n\nSecond.\n\n## Play\n\nLater.")
    assert [block.text for block in rules_blocks(boardlab.load("gtbm"))] == ["First words.", "Second."]


@needs_poppler
@pytest.mark.parametrize("paper, pixels", [("a4", (165, 234)), ("letter", (170, 220))])
def test_pages_turn_into_pictures_of_the_paper(tmp_path: Path, paper: str, pixels: tuple[int, int]) -> None:
    from PIL import Image

    out = tmp_path / "mynd.pdf"
    print_kit("mynd", out, paper=paper)
    subprocess.run(["pdftoppm", "-r", "20", "-png", str(out), str(tmp_path / "page")], check=True)
    pictures = sorted(tmp_path.glob("page-*.png"))
    assert len(pictures) == 3
    for picture in pictures:
        image = Image.open(picture).convert("L")
        assert image.size == pytest.approx(pixels, abs=1)
        dark = sum(image.histogram()[:128])
        assert dark > 50, f"{picture.name} has ink on it"


def test_svg_output_stacks_the_pages(tmp_path: Path) -> None:
    out = tmp_path / "hmdg.svg"
    pages = print_kit("hmdg", out, paper="letter")
    root = ET.fromstring(out.read_text(encoding="utf-8"))
    assert [e.get("data-page") for e in root if e.get("data-page")] == [page.kind for page in pages]
    assert root.get("width") == "215.9mm"


@pytest.mark.parametrize("arguments, message", [
    (["gtbm", "--paper", "a3"], "--paper a3: unknown paper; accepted: a4, letter"),
    (["gtbm", "-o", "size=7"], "option size=7"),
    (["gtbm", "-o", "colour=red"], "unknown option 'colour'"),
    (["chess"], "unknown game 'chess'"),
])
def test_bad_input_is_one_line_and_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                  arguments: list[str], message: str) -> None:
    out = tmp_path / "kit.pdf"
    assert main(["print", *arguments, "--out", str(out)]) == 2
    error = capsys.readouterr().err
    assert message in error and error.count("\n") == 1 and error.startswith("boardlab print: ")
    assert not out.exists()


def test_unknown_file_type_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["print", "gtbm", "--out", str(tmp_path / "kit.png")]) == 2
    assert "unknown file type .png; accepted: .pdf, .svg" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_print_command_with_a_variant(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "four.pdf"
    assert main(["print", "mynd", "--variant", "four_players", "--paper", "letter", "--out", str(out)]) == 0
    assert f"{out}: 3 pages on letter" in capsys.readouterr().out
    assert counters_of("mynd", {"players": 4})["green piece"] == 19
    assert len(pypdf.PdfReader(out).pages) == 3


@pytest.mark.parametrize("players", [2, 3, 4])
def test_mynd_board_shows_where_the_pegs_start(players: int) -> None:
    game = boardlab.load("mynd", size=9, players=players)
    pegs = sorted(c.name for c in game.cell_contents(game.new_game().view(None)) if c.pieces)
    root = ET.fromstring(kit("mynd", {"size": 9, "players": players})[0].svg())
    marked = sorted(cell.get("data-cell", "") for cell in root.iter() if cell.get("data-cell")
                    and any(e.get("class") == "peg-start" for e in cell.iter()))
    assert marked == pegs and len(marked) == players


def test_rules_page_lists_the_options_in_force() -> None:
    page = kit("gtbm", {"mandatory_capture": True, "size": 10})[-1].svg()
    words = " ".join("".join(e.itertext()) for e in ET.fromstring(page).iter(f"{SVG}text"))
    assert "Options in force" in words
    assert "mandatory_capture=True: when some move captures, a capturing move must be played (G3)" in words
    assert "size=10" in words
    assert "Options in force" not in kit("gtbm")[-1].svg()


def test_mobiatus_print_says_which_leaper_the_pieces_move_as(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "camel.pdf"
    assert main(["print", "mobiatus", "-o", "movement=camel", "-o", "length=12", "--out", str(out)]) == 0
    assert f"{out}: 4 pages on a4" in capsys.readouterr().out
    rules = " ".join(pdf_text(out, 4).split()) if POPPLER else ""
    page = kit("mobiatus", {"movement": "camel", "length": 12})[-1].svg()
    words = " ".join(" ".join("".join(e.itertext()) for e in ET.fromstring(page).iter(f"{SVG}text")).split())
    assert "Options in force" in words
    assert ("movement=camel: added: a camel leap, 1 square one way and 3 at right angles, (1,3) (B5, added rule)"
            in words)
    assert "the added option movement makes it a camel" in words  # the brief's turn says the knight can change
    assert "movement=" not in kit("mobiatus", {"length": 12})[-1].svg()
    if POPPLER:
        assert "movement=camel" in rules and "page 4 of 4" in rules


def test_horsmeier_board_shows_the_setup_faintly() -> None:
    game = boardlab.load("horsmeier")
    start = {c.name: c.pieces[0].numbers["strength"] for c in game.cell_contents(game.new_game().view(None))
             if c.pieces}
    root = ET.fromstring(kit("horsmeier")[0].svg())
    shown = {}
    for cell in root.iter():
        setup = [e for e in cell.iter() if e.get("class") == "setup"] if cell.get("data-cell") else []
        if setup:
            strength = next(e for e in setup[0].iter() if e.get("class") == "strength")
            shown[cell.get("data-cell")] = int(strength.text or "0")
    assert shown == start and len(shown) == 22
