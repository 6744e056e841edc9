"""Where a game stands, as the server stores it and the API answers it.

A ``str`` enum: each member *is* its text, so the stored values, the JSON answers and the OpenAPI
schema are the same strings they always were (no migration), and a row read back as plain text
compares equal to its member.

>>> GameStatus.ACTIVE == "active", f"it is {GameStatus.FINISHED}"
(True, 'it is finished')
>>> [status.value for status in GameStatus if status.is_over]
['finished', 'declined']
"""

from __future__ import annotations

from enum import StrEnum


class GameStatus(StrEnum):
    CHALLENGE = "challenge"  # waiting for the invited (or anyone, for an open seat) to accept
    ACTIVE = "active"  # in play
    FINISHED = "finished"  # played to its end (rules, resignation, timeout, agreement)
    DECLINED = "declined"  # a challenge refused: never played

    @property
    def is_over(self) -> bool:
        """Nothing more will happen in it (a rematch is a new game)."""
        return self in (GameStatus.FINISHED, GameStatus.DECLINED)


# Games somebody is still waiting on (listed first among a player's games, kept from the guest sweep).
UNDER_WAY = (GameStatus.ACTIVE, GameStatus.CHALLENGE)
