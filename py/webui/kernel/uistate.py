"""What the table remembers besides the engine state (selection, hand-off, announcements).

It is saved with the match so that a reload resumes exactly, hand-off screen included.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from lostcities.cards import parse_card


@dataclass
class UiState:
    """The table's own state; never holds anything the engine decides."""

    selected: str | None = None  # card picked in the hand, before play or discard
    handoff: bool = True  # the hand-off screen hides the hands until "ready"
    sabotage_menu: bool = False  # choosing which pile to shut
    mixup_seen: list[int] = field(default_factory=list)  # players who dismissed the mixup news
    jobs_seen: list[int] = field(default_factory=list)  # players who saw the jobs reveal
    message: dict[str, Any] | None = None
    """The last refusal (a code and its data, worded at render), shown until the next action;
    not saved: a reload clears it."""

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready copy (without the transient `message`)."""
        data = asdict(self)
        del data["message"]
        return data

    @classmethod
    def from_json(cls, data: object) -> UiState:
        """Rebuild from `to_json` output; raises ValueError on anything malformed."""
        if not isinstance(data, dict):
            raise ValueError("UI state is not an object")
        ui = cls()
        selected = data.get("selected")
        if selected is not None:
            if not isinstance(selected, str):
                raise ValueError("bad selected card")
            parse_card(selected)  # ValueError: not a card
        ui.selected = selected
        for name in ("handoff", "sabotage_menu"):
            value = data.get(name, getattr(ui, name))
            if not isinstance(value, bool):
                raise ValueError(f"bad {name}")
            setattr(ui, name, value)
        for name in ("mixup_seen", "jobs_seen"):
            value = data.get(name, [])
            if not isinstance(value, list) or any(p not in (0, 1) for p in value):
                raise ValueError(f"bad {name}")
            setattr(ui, name, list(value))
        return ui  # a "message" of older saves is not read
