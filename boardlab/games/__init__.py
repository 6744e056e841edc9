"""The games, one package each: ``GAME``, a :class:`~boardlab.core.package.GamePackage` naming its
description, rules, renderer and the rest, registered under the entry-point group ``boardlab.games``."""
