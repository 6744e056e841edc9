"""The results store: Parquet files in ``DIR/store``, one pair per finished game, written as it finishes.

``store/plies/<key>.parquet`` holds a game's turns and ``store/games/<key>.parquet`` its outcome and
record; the game file is written last, each through a temporary name and an atomic rename, so a run
stopped at any moment leaves every finished game whole and no half-written one. A game is finished
when its game file exists: ``--resume`` plays only the others. Any Parquet reader (pandas, DuckDB,
Polars) reads the two folders as tables::

    duckdb -c "select variant, avg(turns) from 'lab/store/games/*.parquet' group by variant"
"""

from __future__ import annotations

import json
import os
from dataclasses import fields
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from boardlab.errors import BoardlabError
from boardlab.playtest.trace import GameTrace, PlyTrace

GAME_FIELDS = [f.name for f in fields(GameTrace) if f.name != "plies"]
PLY_FIELDS = [f.name for f in fields(PlyTrace)]


class Store:
    """The finished games of one run, in ``folder/store``.

    A game this store added or read is kept in memory too, so :meth:`load` reads from disk only the games
    it has not seen: a run's games once, not again at the end of the run (1.4 s for 200 games of
    Ndengrod, while every core but one idles) and after every batch of a sequential run. A game read
    back equals the game added, field by field and type by type."""

    def __init__(self, folder: str | Path) -> None:
        self._known: dict[str, GameTrace] = {}
        self.root = Path(folder) / "store"
        self.games_dir = self.root / "games"
        self.plies_dir = self.root / "plies"
        try:
            self.games_dir.mkdir(parents=True, exist_ok=True)
            self.plies_dir.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise BoardlabError(f"cannot keep results in {folder}: {error.strerror}") from None

    def finished(self) -> set[str]:
        """Keys of the games stored whole."""
        return {path.stem for path in self.games_dir.glob("*.parquet")}

    def add(self, trace: GameTrace) -> None:
        """Store one finished game (its turns first, then the game row that marks it done)."""
        plies = {name: [getattr(p, name) for p in trace.plies] for name in PLY_FIELDS}
        plies["key"] = [trace.key] * len(trace.plies)
        row: dict[str, list[Any]] = {}
        for name in GAME_FIELDS:
            value = getattr(trace, name)
            row[name] = [json.dumps(value, sort_keys=True) if name == "options" else value]
        _write(pa.table(plies, schema=_PLY_SCHEMA), self.plies_dir / f"{trace.key}.parquet")
        _write(pa.table(row, schema=_GAME_SCHEMA), self.games_dir / f"{trace.key}.parquet")
        self._known[trace.key] = trace

    def load(self) -> list[GameTrace]:
        """Every stored game with its turns, in key order."""
        keys = sorted(self.finished())
        for key in keys:
            if key not in self._known:
                self._known[key] = self._read(key)
        return [self._known[key] for key in keys]

    def _read(self, key: str) -> GameTrace:
        game = pq.read_table(self.games_dir / f"{key}.parquet").to_pylist()[0]
        plies_path = self.plies_dir / f"{key}.parquet"
        rows = pq.read_table(plies_path).to_pylist() if plies_path.exists() else []
        game["options"] = json.loads(game["options"])
        plies = [PlyTrace(**{name: row[name] for name in PLY_FIELDS}) for row in rows]
        return GameTrace(**game, plies=plies)


def _write(table: pa.Table, path: Path) -> None:
    partial = path.with_name(f".{path.name}.partial")
    try:
        pq.write_table(table, partial)
        os.replace(partial, path)
    except OSError as error:
        raise BoardlabError(f"cannot write {path}: {error.strerror}") from None


_GAME_SCHEMA = pa.schema([
    ("key", pa.string()), ("variant", pa.string()), ("game", pa.string()), ("options", pa.string()),
    ("kind", pa.string()), ("agents", pa.list_(pa.string())), ("strong_seat", pa.int64()), ("seed", pa.int64()),
    ("seats", pa.int64()), ("result", pa.list_(pa.float64())), ("end_reason", pa.string()), ("ending", pa.string()),
    ("turns", pa.int64()), ("moves", pa.int64()), ("cells", pa.int64()), ("covered", pa.int64()),
    ("start_pieces", pa.int64()), ("start_score_gap", pa.float64()), ("start_position", pa.string()),
    ("first_capture", pa.int64()),
    ("first_contact", pa.int64()), ("evaluator", pa.string()), ("strength", pa.string()), ("rung", pa.int64()),
    ("final_evaluation", pa.list_(pa.float64())), ("seconds", pa.float64()), ("cpu_seconds", pa.float64()),
    ("record", pa.string()),
])
_PLY_SCHEMA = pa.schema([
    ("turn", pa.int64()), ("seat", pa.int64()), ("legal", pa.int64()), ("decisions", pa.list_(pa.int64())),
    ("move", pa.string()), ("agent_estimate", pa.float64()), ("evaluation", pa.list_(pa.float64())),
    ("clarity", pa.list_(pa.float64())), ("captures", pa.int64()), ("pieces", pa.list_(pa.int64())),
    ("board_pieces", pa.list_(pa.int64())), ("distances", pa.list_(pa.int64())),
    ("score_gaps", pa.list_(pa.float64())), ("cells", pa.list_(pa.string())),
    ("position", pa.string()), ("seconds", pa.float64()), ("key", pa.string()),
])
assert [f.name for f in _GAME_SCHEMA] == GAME_FIELDS
assert [f.name for f in _PLY_SCHEMA] == [*PLY_FIELDS, "key"]
