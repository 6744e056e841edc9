"""Pages to a file: each page's SVG to one PDF page with cairosvg, joined with pypdf; or one SVG.

cairosvg draws with Cairo (Debian: ``libcairo2``); both packages come with the ``print`` extra
(``pip install 'boardlab[print]'``). Without them, making an SVG still works.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path

from boardlab.errors import BoardlabError
from boardlab.printing.page import Page
from boardlab.render.svg import element, number

FORMATS = (".pdf", ".svg")
GAP = 10.0  # mm between pages stacked in one SVG


def pdf_bytes(pages: Sequence[Page]) -> bytes:
    """A PDF of ``pages``, each the size of its paper."""
    try:
        import cairosvg
        from pypdf import PdfReader, PdfWriter
    except (ImportError, OSError) as error:  # OSError: cairocffi found no libcairo
        raise BoardlabError(f"making a PDF needs cairosvg, pypdf and the Cairo library ({error}); install "
                            f"them with pip install 'boardlab[print]' (Debian: apt-get install libcairo2), "
                            f"or write an .svg") from None
    writer = PdfWriter()
    for page in pages:
        single = cairosvg.svg2pdf(bytestring=page.svg().encode("utf-8"))
        for pdf_page in PdfReader(io.BytesIO(single)).pages:
            writer.add_page(pdf_page)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def stacked_svg(pages: Sequence[Page]) -> str:
    """Every page in one SVG document, one below the other with a gap (millimetre units)."""
    width = max(page.width for page in pages)
    parts, y = [], 0.0
    for page in pages:
        inner = page.svg()
        body = inner[inner.index(">", inner.index("<svg")) + 1:inner.rindex("</svg>")]
        parts.append(element("svg", {"x": 0, "y": y, "width": page.width, "height": page.height,
                                     "viewBox": f"0 0 {number(page.width)} {number(page.height)}",
                                     "data-page": page.kind}, body, text=False))
        parts.append(element("rect", {"x": 0, "y": y, "width": page.width, "height": page.height, "fill": "none",
                                      "stroke": "#999999", "stroke-width": 0.3}))
        y += page.height + GAP
    height = y - GAP
    root = {"xmlns": "http://www.w3.org/2000/svg", "width": f"{number(width)}mm", "height": f"{number(height)}mm",
            "viewBox": f"0 0 {number(width)} {number(height)}"}
    return element("svg", root, *parts, text=False) + "\n"


def write(pages: Sequence[Page], path: Path) -> None:
    """``path`` ending in ``.pdf`` (one PDF page per page) or ``.svg`` (the pages stacked)."""
    suffix = path.suffix.lower()
    if suffix not in FORMATS:
        raise BoardlabError(f"--out {path}: unknown file type {suffix or '(none)'}; accepted: "
                            f"{', '.join(FORMATS)}")
    data = pdf_bytes(pages) if suffix == ".pdf" else stacked_svg(pages).encode("utf-8")
    try:
        path.write_bytes(data)
    except OSError as error:
        raise BoardlabError(f"--out {path}: cannot write ({error.strerror})") from None
