"""Playing alone against the computer: a `Seat` where the other player is a bot.

The human sits at one seat and sees only their own view; the bot acts for the other seat and
chooses from ITS OWN view only (never the state). Its thinking is stepwise (webui/match/thinking.py)
so the controller can run it in time slices and the page stays responsive; nothing here
touches the browser, so all of it runs natively too.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import lostcities

from webui.match.seats import Move, Refusal, Seat, Steps, View, refusal_of, refused
from webui.match.thinking import (
    HARD_TIME_LIMIT, LEVEL_NAMES, check_level, level_bot, think_steps,
)

OPPONENTS = ("human", *LEVEL_NAMES)
"""Values of the setup's ``data-option="opponent"``: another person, or a bot level."""
PACE = 0.3
"""A bot's move takes at least this long, so the player sees it coming."""


class BotMatch(Seat):
    """A match against a bot. `view()` is always the human's; `submit` takes the human's
    moves (and ``next-round``); the controller asks `think()` for the bot's move while
    `to_think()` names the bot, and hands it to `play_thought`."""

    mode: ClassVar[str] = "computer"

    time_limit: float | None = HARD_TIME_LIMIT
    """Hard's thinking time a move (None: deterministic, for tests)."""
    playouts: int | None = None
    """Hard's playout budget a move (None: the level's)."""

    def __init__(self, state: lostcities.State, level: str, human: int = 0,
                 seed: int = 0, moves: int = 0) -> None:
        check_level(level)
        if human not in (0, 1) or isinstance(human, bool):
            raise ValueError("the human's seat must be 0 or 1")
        self._state = state
        self.level = level
        self.human = human
        self.local_players = frozenset({human})
        self._seed = seed
        self._moves = moves  # the bot's moves so far: its random stream per move

    @classmethod
    def new(cls, options: lostcities.Options, seed: int, first_player: int,
            names: tuple[str, str], level: str, human: int = 0) -> BotMatch:
        """A new match against the bot of `level` (ValueError on bad arguments)."""
        check_level(level)
        state = lostcities.new_match(options, seed=seed, first_player=first_player,
                                     names=names)
        return cls(state, level, human, seed)

    @property
    def bot(self) -> int:
        """The bot's seat."""
        return 1 - self.human

    def view(self) -> View:
        """The human's view."""
        return lostcities.view(self._state, self.human)

    def to_think(self) -> int | None:
        """The bot's seat when it must move now, else None."""
        return self.bot if self._state.to_act == self.bot else None

    def submit(self, move: Move) -> Refusal | None:
        """Apply the human's move; None if accepted, else why not (state unchanged)."""
        if self.to_think() is not None:
            return refused("not-your-turn", to_act=self.bot)
        try:
            self._state = lostcities.apply(self._state, lostcities.move_from_json(move))
        except ValueError as exc:
            return refusal_of(exc)
        return None

    def think(self) -> Steps:
        """The bot's next move as stepwise work, chosen from the bot's own view only."""
        if self.to_think() is None:
            raise ValueError("it is not the computer's turn")
        rng = random.Random(f"{self._seed}/{self._moves}")
        bot = level_bot(self.level, self.time_limit, self.playouts)
        return think_steps(bot, lostcities.view(self._state, self.bot), rng)

    def play_thought(self, move: Move) -> None:
        """Apply the bot's move (raises IllegalMove if the bot broke the rules: a bug); the
        change callback runs after it."""
        if self.to_think() is None:
            raise ValueError("it is not the computer's turn")
        self._state = lostcities.apply(self._state, lostcities.move_from_json(move))
        self._moves += 1
        self._changed()

    def to_json(self) -> dict[str, Any]:
        """The whole match, JSON-ready: state, the human's seat, the opponent level."""
        return {"state": lostcities.state_to_json(self._state), "seat": self.human,
                "opponent": self.level, "seed": self._seed, "bot_moves": self._moves}

    def state_json(self) -> dict[str, Any]:
        """See `Seat.state_json`: the whole match is here."""
        return lostcities.state_to_json(self._state)

    def bot_level(self) -> str:
        """See `Seat.bot_level`."""
        return self.level

    def rematch_here(self, seed: int, first_player: int) -> BotMatch:
        """See `Seat.rematch_here`: against the same level, the human in the same seat."""
        names = self._state.names
        return BotMatch.new(self._state.options, seed, first_player, (names[0], names[1]),
                            self.level, self.human)

    @classmethod
    def from_json(cls, data: object) -> BotMatch:
        """Rebuild from `to_json`; ValueError (CorruptSave included) on a bad document."""
        if not isinstance(data, dict):
            raise ValueError("the match is not an object")
        state = lostcities.state_from_json(data.get("state"))
        seed, moves = (_count(data.get(name), name) for name in ("seed", "bot_moves"))
        level = data.get("opponent")
        if level not in LEVEL_NAMES:
            raise ValueError(f"bad opponent {level!r}")
        seat = data.get("seat")
        if seat not in (0, 1) or isinstance(seat, bool):
            raise ValueError("bad seat")
        return cls(state, level, seat, seed, moves)


def _count(value: object, name: str) -> int:
    """`value` if it is a whole number from 0; ValueError naming `name` otherwise."""
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"bad {name}")
    return value


def is_bot_match(data: object) -> bool:
    """Whether a saved match document (``to_json``) is a match against the computer."""
    return isinstance(data, dict) and "opponent" in data
