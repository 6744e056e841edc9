"""Write boardlab/render/font_widths.json: DejaVu Sans's advance widths (regular and bold), in
thousandths of an em, for the characters boardlab's pictures use. Needs Pillow and the font files
(Debian: fonts-dejavu-core); the table it writes needs neither.

    .venv/bin/python scripts/font_metrics.py
"""

from __future__ import annotations

import json
from pathlib import Path

from PIL import ImageFont

FONTS = Path("/usr/share/fonts/truetype/dejavu")
CHARS = "".join(dict.fromkeys(
    "".join(chr(c) for c in range(32, 127)) + "".join(chr(c) for c in range(0xA0, 0x100))
    + "·…×Σ–—→↔←↑↓§●○◯✕■□◆•−÷²≥≤½◀▶⚠✓✗‘’“”Δ"))


def widths(font_file: str) -> list[int]:
    font = ImageFont.truetype(str(FONTS / font_file), 1000)
    return [round(font.getlength(char)) for char in CHARS]


def main() -> None:
    data = {"about": "DejaVu Sans's advance widths in thousandths of an em, regular and bold, of each of chars; "
                     "written by scripts/font_metrics.py from the font files: do not edit",
            "chars": CHARS, "regular": widths("DejaVuSans.ttf"), "bold": widths("DejaVuSans-Bold.ttf")}
    lines = (f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}" for key, value in data.items())
    Path("boardlab/render/font_widths.json").write_text("{\n" + ",\n".join(lines) + "\n}\n", encoding="utf-8")


if __name__ == "__main__":
    main()
