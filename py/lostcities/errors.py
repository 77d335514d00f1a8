"""The engine's error types."""

from __future__ import annotations


class IllegalMove(ValueError):
    """A move the rules forbid now; the message is meant for the player. The state is unchanged."""


class CorruptSave(ValueError):
    """A saved state that is corrupt, foreign or of another format version."""
