"""Wrapped text in SVG: paragraphs, headings and list items laid out in a box, from a little Markdown.

SVG has no line wrapping, so lines are broken here with an estimate of the type's width (DejaVu Sans
averages about 0.55 em a character; a line is kept a little short to be safe). The Markdown read
is what the rules documents use: ``#`` headings, paragraphs, ``-`` and ``1.`` items, ``**bold**``,
```code``` and ``[links](…)`` (kept as their words), tables (cells joined with ``·``).

>>> [(b.kind, b.text) for b in markdown_blocks("## Play\\n\\nMove **one** step.\\n- to an `empty` square")]
[('heading', 'Play'), ('paragraph', 'Move one step.'), ('item', '• to an empty square')]
>>> wrap("a b c d e f g h", width=10.0, size=2.0)
['a b c d e', 'f g h']
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass

from boardlab.render.svg import element, group

EM_WIDTH = 0.55  # DejaVu Sans: the mean advance of a character, in ems (wider type is rare in rules text)
LEADING = 1.3


@dataclass(frozen=True)
class Block:
    """A heading, a paragraph or a list item (``text`` with its bullet or number)."""

    kind: str
    text: str


def plain(text: str) -> str:
    """Markdown inline markup removed: ``**x**``, ``*x*``, ```x```, ``[x](url)`` become ``x``."""
    text = re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"\*\*(.+?)\*\*", r"\1", text)
    text = re.sub(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])", r"\1", text)
    return text.replace("`", "")


def markdown_blocks(markdown: str) -> list[Block]:
    """The blocks of a Markdown text, inline markup removed; code fences are kept line by line."""
    blocks: list[Block] = []
    lines: list[str] = []
    kind = "paragraph"
    fenced = False

    def flush() -> None:
        nonlocal lines, kind
        if lines:
            blocks.append(Block(kind, plain(" ".join(lines))))
        lines, kind = [], "paragraph"

    for raw in markdown.splitlines():
        line = raw.strip()
        if line.startswith("```"):
            flush()
            fenced = not fenced
            continue
        if fenced:
            blocks.append(Block("code", raw.rstrip()))
            continue
        if not line:
            flush()
        elif line.startswith("#"):
            flush()
            blocks.append(Block("heading", plain(line.lstrip("#").strip())))
        elif line.startswith("|"):
            flush()
            cells = [cell.strip() for cell in line.strip("|").split("|")]
            if not all(set(cell) <= set("-: ") for cell in cells):
                blocks.append(Block("item", plain(" · ".join(cells))))
        elif re.match(r"[-*] ", line):
            flush()
            kind, lines = "item", ["• " + line[2:]]
        elif re.match(r"\d+\. ", line):
            flush()
            kind, lines = "item", [line]
        else:
            lines.append(line)
    flush()
    return blocks


def wrap(words: str, width: float, size: float) -> list[str]:
    """``words`` broken into lines that fit ``width`` in type of ``size`` (same units)."""
    room = max(int(width / (EM_WIDTH * size)), 8)
    return textwrap.wrap(words, room, break_on_hyphens=False) or [""]


@dataclass
class TextBox:
    """Text flowing down a box ``width`` wide from ``(x, y)``; ``y`` is where the next line goes."""

    x: float
    y: float
    width: float
    colour: str = "#000000"
    font: str = "DejaVu Sans, Verdana, Arial, sans-serif"

    def __post_init__(self) -> None:
        self.parts: list[str] = []

    def line(self, words: str, size: float, *, bold: bool = False, indent: float = 0.0,
             css: str | None = None, monospace: bool = False) -> None:
        self.parts.append(element("text", {
            "x": self.x + indent, "y": self.y + size, "font-size": size, "fill": self.colour,
            "font-weight": "bold" if bold else None, "class": css,
            "font-family": "DejaVu Sans Mono, monospace" if monospace else None,
            "xml:space": "preserve" if monospace else None}, words))
        self.y += size * LEADING

    def paragraph(self, words: str, size: float, *, bold: bool = False, indent: float = 0.0,
                  hanging: float = 0.0, css: str | None = None) -> None:
        """``words`` wrapped; later lines start ``hanging`` further in (under a bullet's text)."""
        for index, piece in enumerate(wrap(words, self.width - indent - hanging, size)):
            self.line(piece, size, bold=bold, indent=indent + (hanging if index else 0.0), css=css)

    def blocks(self, blocks: Sequence[Block], size: float) -> None:
        for block in blocks:
            if block.kind == "heading":
                self.y += size * 0.4
                self.paragraph(block.text, size * 1.15, bold=True)
            elif block.kind == "item":
                self.paragraph(block.text, size, indent=size * 0.6, hanging=size * 1.1)
            elif block.kind == "code":
                self.line(block.text, size * 0.85, monospace=True)
            else:
                self.paragraph(block.text, size)
            self.y += size * 0.35

    def svg(self, css: str = "text") -> str:
        return group({"class": css, "font-family": self.font}, self.parts)


def blocks_height(blocks: Sequence[Block], width: float, size: float) -> float:
    """How far down ``blocks`` reach when set in a box ``width`` wide at ``size``."""
    box = TextBox(0.0, 0.0, width)
    box.blocks(blocks, size)
    return box.y
