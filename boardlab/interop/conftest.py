"""Doctest collection: an adapter whose extra is not installed is skipped, not an import error."""

import importlib.util

collect_ignore = [
    name for name, module in (("openspiel.py", "pyspiel"), ("pettingzoo.py", "pettingzoo"))
    if importlib.util.find_spec(module) is None
]
