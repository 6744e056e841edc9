"""Small boards and low caps for the adapters' tests: OpenSpiel's and PettingZoo's checks visit every
state of each simulated game, so the games must be short."""

SMALL: dict[str, dict[str, object]] = {
    "ndengrod": {"size": 3, "length": 3},
    "gtbm": {"size": 4, "no_capture_limit": 8},
    "horsmeier": {"ply_cap": 24},
    "mynd": {"size": 5, "players": 3, "ply_cap": 24},
    "mobiatus": {"length": 10, "width": 3, "blue_offset": 5, "move_pair_limit": 6},
    "hmdg": {"size": 4, "line_length": 3},
}
