"""Agents: everything that chooses moves, behind one interface (:class:`boardlab.ai.base.Agent`)."""

from boardlab.ai.base import Agent, Analysis, Candidate, make_agent
from boardlab.ai.random_agent import RandomAgent

__all__ = ["Agent", "Analysis", "Candidate", "RandomAgent", "make_agent"]
