"""Adapters to other ecosystems: OpenSpiel (:mod:`.openspiel`) and PettingZoo (:mod:`.pettingzoo`).

Each needs its extra (``pip install 'boardlab[openspiel]'``, ``'boardlab[pettingzoo]'``); both are
built only from :mod:`boardlab.core` (the stepper, views, planes), never from a game's internals.
"""
