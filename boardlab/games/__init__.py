"""The games, one package each: ``INFO`` (the description) and ``game_class()`` (the rules)."""
