"""The first-game guide: a guided round against the computer on a prepared deal.

`GuideMatch` is a match against the computer (a `BotMatch`) dealt by hand
(`lostcities.scenario.position`, one round). While the guide lasts, each of the player's moves
is one of its `STEPS` (a handshake, a draw, numbers going up, a draw from a pile, the cost of
20, the bonus, a discard, the last draw) and any other move is refused with the
``guide-step`` refusal (the state unchanged); the computer plays the moves the deal was made
for (`SCRIPT`). Once the last step is done the round goes on as any match against the Easy
computer. The guide's match is never recorded in the history (webui/features/keeper.py).

`render_guide` is the step's panel over the table: the seat's own `panel` on the turn screen,
which webui/player/players.py adds through the controller's `add_part`; its Skip ends the
match (`skip_guide`) and its Close puts the finished guide away (`close_guide`). Hooks:
``[data-guide]`` (``step``, or ``done`` once every step is done) with ``data-step`` (the steps
done), ``data-steps`` and ``data-move`` (the move the step asks for, move JSON; for the last
draw only its type); ``[data-action="guide-skip"]`` and, once done,
``[data-action="guide-close"]``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Final

import lostcities
from lostcities.scenario import position

from webui.match.seats import Move, Refusal, Steps, refused
from webui.match.seats.computer import BotMatch
from webui.match.session import register_saved_kind
from webui.screens.html import EMPTY, Markup, button, el
from webui.text.player_text import t

LEVEL: Final = "easy"
"""The computer the guide's round is played against."""
SEED: Final = 7
"""The prepared deal's seed (the order of the cards not placed by hand)."""
HANDS: Final = (("YH", "Y3", "Y8", "Y9", "R2", "B7", "G4", "W10"),
                ("Y5", "G6", "G7", "B8", "B9", "WH", "R9", "R10"))
DECK_TOP: Final = ("Y6", "B3", "W2", "Y10", "G9")
"""The deck's top cards, top first: the draws of the guided turns."""


@dataclass(frozen=True)
class Step:
    """One step: its words' key (``guide.<key>.title`` and ``.text``) and the move it asks for
    (``{"type": "draw"}`` alone: any draw)."""

    key: str
    move: Move

    def accepts(self, move: Move) -> bool:
        """Whether `move` is what this step asks for."""
        if set(self.move) == {"type"}:
            return bool(move.get("type") == self.move["type"])
        return dict(move) == self.move


STEPS: Final = (
    Step("handshake", {"type": "play", "card": "YH"}),
    Step("draw", {"type": "draw", "source": "deck"}),
    Step("ascending", {"type": "play", "card": "Y3"}),
    Step("pile", {"type": "draw", "source": "Y"}),
    Step("cost", {"type": "play", "card": "Y5"}),
    Step("bonus", {"type": "draw", "source": "deck"}),
    Step("discard", {"type": "discard", "card": "R2"}),
    Step("last", {"type": "draw"}),
)
SCRIPT: Final = ({"type": "discard", "card": "Y5"}, {"type": "draw", "source": "deck"},
                 {"type": "play", "card": "G6"}, {"type": "draw", "source": "deck"},
                 {"type": "play", "card": "G7"}, {"type": "draw", "source": "deck"})
"""The computer's moves during the guide, in order (then it plays as the Easy computer)."""


def _at_once(move: Move) -> Steps:
    """Thinking that is over at once: `move`."""
    return move
    yield  # a generator: the controller runs every seat's thinking the same way


class GuideMatch(BotMatch):
    """The guide's match (see the module's docstring): `step` steps done, `script` of the
    computer's moves played, `closed` once the player put the finished guide away."""

    def __init__(self, state: lostcities.State, level: str, human: int = 0, seed: int = 0,
                 moves: int = 0) -> None:
        super().__init__(state, level, human, seed, moves)
        self.step = 0
        self.script = 0
        self.closed = False

    @classmethod
    def deal(cls, names: tuple[str, str]) -> GuideMatch:
        """The guide's match from its first move, the player (seat 0) named `names[0]`."""
        state = position(lostcities.Options(rounds=1), hands=HANDS, deck_top=DECK_TOP,
                         phase="play", to_act=0, first_player=0, seed=SEED, names=names)
        return cls(state, LEVEL, 0, SEED)

    def in_history(self) -> bool:
        """See `Seat.in_history`: the guide's match is practice, not counted."""
        return False

    def rematch_here(self, seed: int, first_player: int) -> BotMatch:
        """See `Seat.rematch_here`: the guide's deal is prepared, never played again."""
        raise ValueError("the guide's match can't be played again")

    def panel(self, screen: str, lang: str) -> Markup | None:
        """See `Seat.panel`: the guide's panel over the table, on the turn screen."""
        return render_guide(self, lang) if screen == "turn" else None

    def pointing(self) -> Move | None:
        """See `Seat.pointing`: the step's move, while the guide lasts and the player is to
        move."""
        if not self.guiding or self.view().get("to_act") != self.human:
            return None
        return STEPS[self.step].move

    def skip_guide(self) -> bool:
        """See `Seat.skip_guide`: the guide's match ends."""
        return True

    def close_guide(self) -> bool:
        """See `Seat.close_guide`: the finished guide is put away (saved so)."""
        self.closed = True
        return True

    @property
    def guiding(self) -> bool:
        """Whether steps are left."""
        return self.step < len(STEPS)

    def submit(self, move: Move) -> Refusal | None:
        """The player's move: while the guide lasts, only the step's (else ``guide-step``)."""
        if self.guiding and self.to_think() is None and not STEPS[self.step].accepts(move):
            return refused("guide-step")
        refusal = super().submit(move)
        if refusal is None and self.guiding:
            self.step += 1
        return refusal

    def think(self) -> Steps:
        """The computer's move: the script's next one while it lasts."""
        if self.script < len(SCRIPT) and self.to_think() is not None:
            return _at_once(dict(SCRIPT[self.script]))
        return super().think()

    def play_thought(self, move: Move) -> None:
        """Apply the computer's move (counting the script's)."""
        scripted = self.script < len(SCRIPT) and move == SCRIPT[self.script]
        if scripted:
            self.script += 1  # before the change is told
        super().play_thought(move)

    def to_json(self) -> dict[str, Any]:
        """The match as a computer match's save, with where the guide stands."""
        return {**super().to_json(),
                "guide": {"step": self.step, "script": self.script, "closed": self.closed}}

    @classmethod
    def from_json(cls, data: object) -> GuideMatch:
        """From `to_json`; ValueError on a bad document."""
        match = super().from_json(data)
        guide = data.get("guide") if isinstance(data, dict) else None
        if not isinstance(match, GuideMatch):
            raise ValueError("not a guided match")
        if not isinstance(guide, dict) or set(guide) != {"step", "script", "closed"}:
            raise ValueError("not a guided match")
        step, script, closed = guide["step"], guide["script"], guide["closed"]
        for value, top in ((step, len(STEPS)), (script, len(SCRIPT))):
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= top:
                raise ValueError("bad guide progress")
        if not isinstance(closed, bool):
            raise ValueError("bad guide progress")
        match.step, match.script, match.closed = step, script, closed
        return match


def is_guided(data: object) -> bool:
    """Whether a saved match document is the guide's."""
    return isinstance(data, dict) and "guide" in data


def render_guide(seat: GuideMatch, lang: str) -> Markup:
    """The guide's panel: the step to take now, or the end of the guide (EMPTY once put
    away)."""
    steps = len(STEPS)
    if not seat.guiding:
        if seat.closed:
            return EMPTY
        return el("section", el("h2", t(lang, "guide.done.title")),
                  el("p", t(lang, "guide.done.text")),
                  button("guide-close", t(lang, "guide.close"), css="btn small primary"),
                  class_="guide", data_guide="done", data_step=steps, data_steps=steps,
                  role="status", aria_live="polite")
    step = STEPS[seat.step]
    return el("section",
              el("p", t(lang, "guide.count", step=seat.step + 1, steps=steps),
                 class_="guide-count"),
              el("h2", t(lang, f"guide.{step.key}.title")),
              el("p", t(lang, f"guide.{step.key}.text")),
              button("guide-skip", t(lang, "guide.skip"), css="btn small ghost"),
              class_="guide", data_guide="step", data_step=seat.step, data_steps=steps,
              data_move=json.dumps(step.move, separators=(",", ":")), role="status",
              aria_live="polite")


register_saved_kind(is_guided, GuideMatch.from_json)
