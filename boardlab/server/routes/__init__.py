"""The HTTP routes: thin wrappers over :class:`boardlab.server.service.GameService`."""
