"""The command line: ``boardlab play | replay | games | rules | bench``."""
