"""What every test shares: the test-only games of ``tests/plugin_games`` put on the path.

Each folder there is a distribution made by hand (a package and its ``*.dist-info`` with an entry
point in the group ``boardlab.games``), as another project would install one. On the path (and on
``PYTHONPATH``, for the programs the tests start) the registry finds them, and every generic suite
plays them beside boardlab's own games. Users never see them: they are no part of the package.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

HERE = Path(__file__).parent / "plugin_games"
PLUGIN_GAMES = sorted(str(folder) for folder in HERE.iterdir() if folder.is_dir()) if HERE.is_dir() else []

for folder in PLUGIN_GAMES:
    if folder not in sys.path:
        sys.path.append(folder)
os.environ["PYTHONPATH"] = os.pathsep.join(
    [*PLUGIN_GAMES, *(part for part in os.environ.get("PYTHONPATH", "").split(os.pathsep) if part)])
