"""A keyed digest that makes edits to a locally saved record detectable (HMDG hot-seat saves).

A hot-seat save of a hidden-information game holds every secret, so that the game can resume. A
player with the file could move a hidden stone or swap an announcement and resume a different
game. The save therefore carries an HMAC-SHA256 over everything that decides the game (its rules,
start and every move, hidden ones included) under a key kept in the user's config folder
(``$XDG_CONFIG_HOME/boardlab/record-key``, mode 0600), and resuming checks it.

What this protects, and what it cannot (see docs/rules/hmdg.md): an edit by someone who does not
hold the key is detected. Anyone who can read the key file (the same account) can re-sign an
edited record, and anyone who can read the save can read the secrets: a local save is not a
sealed envelope between two people at one keyboard.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
from pathlib import Path
from typing import TYPE_CHECKING

from boardlab.errors import RecordError

if TYPE_CHECKING:
    from boardlab.records import GameRecord

TAG = "digest"


def key_path() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "boardlab" / "record-key"


def _key(create: bool) -> bytes | None:
    path = key_path()
    try:
        return bytes.fromhex(path.read_text(encoding="ascii").strip())
    except FileNotFoundError:
        if not create:
            return None
    except (OSError, ValueError) as error:
        raise RecordError(f"cannot read the record key {path}: {error}") from None
    path.parent.mkdir(parents=True, exist_ok=True)
    key = secrets.token_bytes(32)
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another process made it just now: use theirs
        return _key(create=False)
    with os.fdopen(descriptor, "w", encoding="ascii") as file:
        file.write(key.hex() + "\n")
    return key


def _message(record: GameRecord) -> bytes:
    decisive = {"game": record.game, "rules_version": record.rules_version, "options": record.options,
                "start": record.start, "moves": record.moves}
    return json.dumps(decisive, sort_keys=True, ensure_ascii=True).encode()


def sign(record: GameRecord) -> None:
    """Put the digest of ``record`` under this user's key into its tags (creating the key if needed)."""
    key = _key(create=True)
    assert key is not None
    record.tags[TAG] = hmac.new(key, _message(record), hashlib.sha256).hexdigest()


def verify(record: GameRecord, where: str) -> None:
    """:class:`RecordError` unless ``record`` carries a digest that this user's key confirms."""
    given = record.tags.get(TAG)
    if given is None:
        raise RecordError(f"{where} holds hidden moves but no digest: it was not saved by boardlab play on this "
                          f"account, so its secrets cannot be trusted")
    key = _key(create=False)
    expected = hmac.new(key, _message(record), hashlib.sha256).hexdigest() if key is not None else None
    if expected is None or not hmac.compare_digest(given, expected):
        raise RecordError(f"{where} was changed after it was saved (or saved under another account's key): its "
                          f"digest does not match; it is not resumed")
