"""Match options (docs/rules.md §4–5): rounds and the five independent toggles."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

MIN_ROUNDS = 1
MAX_ROUNDS = 5
_TOGGLES = ("sixth_colour", "jobs", "skills", "objectives", "mixups")


@dataclass(frozen=True)
class Options:
    """The options of a match. Every toggle is off by default; a standard match is 3 rounds.

    Raises ``ValueError`` with a clear message when a value is out of range or of the wrong type.
    """

    rounds: int = 3
    sixth_colour: bool = False
    jobs: bool = False
    skills: bool = False
    objectives: bool = False
    mixups: bool = False

    def __post_init__(self) -> None:
        if isinstance(self.rounds, bool) or not isinstance(self.rounds, int):
            raise ValueError(f"rounds must be a whole number from 1 to 5, not {self.rounds!r}")
        if not MIN_ROUNDS <= self.rounds <= MAX_ROUNDS:
            raise ValueError(f"rounds must be from 1 to 5, not {self.rounds}")
        for name in _TOGGLES:
            value = getattr(self, name)
            if not isinstance(value, bool):
                raise ValueError(f"option {name} must be true or false, not {value!r}")

    def to_json(self) -> dict[str, Any]:
        """The options as a JSON-ready dict (keys as in the view)."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: object) -> Options:
        """Options from a dict; ``ValueError`` on unknown keys or bad values."""
        if not isinstance(data, dict):
            raise ValueError("options must be an object")
        unknown = set(data) - {"rounds", *_TOGGLES}
        if unknown:
            raise ValueError(f"unknown option(s): {', '.join(sorted(map(str, unknown)))}")
        return cls(**data)
