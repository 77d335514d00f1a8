"""Replaying a finished match from its record, move by move, with the table's own rendering.

`replay_of(record)` rebuilds every state with `lostcities.new_match` and `apply` from the
record's seed, first player, options, names and moves, and refuses (ValueError) a record that
has no replay data or whose moves do not lead to the recorded rounds: only a finished match
replays, so nothing of a live match can show. Step k is the state after k moves. Each step is
shown as this device's player's view of it, with no move offered, plus both hands (the match
is over, so nothing is secret any more), but for an online match, which replays from the draws
its page learnt at each round's audit (`lostcities.dealt_match`): there the other player's hand
stays hidden (``data-hidden``), as its page saw it in play.

`replay_doc(record, step, lang, speed)` is the screen (``body[data-screen="replay"]``):
``[data-replay-step]`` with ``data-step`` / ``data-steps``; ``[data-action="replay-prev"]``
and ``replay-next`` (disabled at the ends), a turn at a time (a play and its draw) with
``replay-turn-prev`` and ``replay-turn-next``; ``replay-round`` and ``replay-round-end`` with
``data-round`` and ``data-step`` (a round's start, and its scores); autoplay with
``replay-play`` / ``replay-pause`` and the ``[data-field="replay-speed"]`` select
(``[data-autoplay]`` holds the speed while it plays); ``replay-close``; ``[data-replay-hand]``
per player; then the table of that step (webui.screens.match.render_doc) without its Abandon
button (the last step is the match-end screen, whose Play again the page handles as there).
`replay_step(record, action, data, step)` is the step a click leads to.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import lostcities
from lostcities import State
from lostcities.cards import card_text

from webui.features.history import MatchRecord
from webui.kernel.regions import parse, plain
from webui.kernel.uistate import UiState
from webui.screens.html import Markup, button, card_span, el, join
from webui.screens.match import log_line, render_doc, screen_name, worded_names
from webui.screens.table import top_bar
from webui.text.player_text import t

View = dict[str, Any]
ACTIONS = ("replay-prev", "replay-next", "replay-turn-prev", "replay-turn-next", "replay-round",
           "replay-round-end")
SPEEDS: dict[str, float] = {"slow": 2.0, "normal": 1.0, "fast": 0.5}
"""Autoplay's speeds: the seconds each turn shows."""


@dataclass(frozen=True)
class ReplaySteps:
    """Every state of a replayed match (``states[k]``: after k moves) and who made each
    move (``movers[k]``: the player of the move leading to step k, None for next-round)."""

    record: MatchRecord
    states: tuple[State, ...]
    movers: tuple[int | None, ...]

    @property
    def steps(self) -> int:
        """The number of moves (the last step)."""
        return len(self.states) - 1

    def round_starts(self) -> tuple[int, ...]:
        """The step at which each round begins (round 1: step 0)."""
        starts = [0]
        for k in range(1, len(self.states)):
            if self.states[k].round != self.states[k - 1].round:
                starts.append(k)
        return tuple(starts)

    def turn_stops(self) -> tuple[int, ...]:
        """The steps that end a turn (a play or discard with its draw, skills between): the
        next move is another player's, or a new round's, or there is none; step 0 too."""
        movers = self.movers
        return (0, *(k for k in range(1, len(movers))
                     if k == len(movers) - 1 or movers[k + 1] != movers[k]))

    def round_ends(self) -> tuple[int, ...]:
        """The step at which each round ends (its scores shown)."""
        return tuple(k for k, state in enumerate(self.states)
                     if state.phase in ("round-end", "match-end"))

    def view(self, step: int) -> View:
        """This device's player's view of step `step`, with no move offered."""
        view = lostcities.view(self.states[step], self.record.me)
        return {**view, "legal_moves": [], "refusals": {"play": {}, "draw": {}}}

    def hands(self, step: int) -> tuple[tuple[str, ...] | int, tuple[str, ...] | int]:
        """Both players' hands at step `step` (card texts, sorted). An online match shows the
        other player's hand as its size only, as its page saw it in play."""
        hands = self.states[step].hands
        shown = [tuple(card_text(c) for c in hand) for hand in hands]
        if self.record.mode == "online":
            other = 1 - self.record.me
            return (len(hands[0]), shown[1]) if other == 0 else (shown[0], len(hands[1]))
        return shown[0], shown[1]

    def event(self, step: int) -> dict[str, Any] | None:
        """The move leading to step `step` as a log event (webui.screens.match.log_line), cards
        shown; None at step 0."""
        if step == 0:
            return None
        state = self.states[step]
        if state.round != self.states[step - 1].round:
            return {"player": None, "type": "next-round"}
        entries = [e for e in state.log if e.type != "mixup"]
        entry = entries[-1]
        event: dict[str, Any] = {"player": entry.player, "type": entry.type}
        if entry.card is not None:
            event["card"] = card_text(entry.card)
        if entry.type == "draw":
            event["source"] = entry.detail
        elif entry.type == "sabotage":
            event["colour"] = entry.detail
        return event


def _rounds_of(state: State) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(sorted(card_text(c) for c in exp)) for side in state.expeditions
                 for exp in side)


@lru_cache(maxsize=4)
def replay_of(record: MatchRecord) -> ReplaySteps:
    """Every step of the record's match; ValueError if the record has no replay data or its
    moves are not legal or do not give its recorded rounds."""
    data = record.replay
    if data is None:
        raise ValueError("this match can't be replayed: its moves were not recorded here")
    dealt, mixup = data.dealt, record.rounds[-1].mixup
    movers: list[int | None] = [None]
    try:
        if dealt is None:
            state = lostcities.new_match(record.options, seed=data.seed,
                                         first_player=data.first_player, names=record.names)
        else:
            state = lostcities.dealt_match(record.options, record.names, data.first_player,
                                           dealt)
        states: list[State] = [state]
        for move in data.move_list():
            mover = state.to_act
            parsed = lostcities.move_from_json(move)
            state = (lostcities.apply(state, parsed) if dealt is None
                     else lostcities.step_dealt(state, parsed, dealt, mixup))
            states.append(state)
            movers.append(mover)
            if state.phase in ("round-end", "match-end"):
                _check_round(record, state)
    except ValueError as exc:  # IllegalMove included
        raise ValueError(f"this match can't be replayed: {exc}") from None
    if state.phase != "match-end":
        raise ValueError("this match can't be replayed: its moves stop before the end")
    return ReplaySteps(record, tuple(states), tuple(movers))


def _check_round(record: MatchRecord, state: State) -> None:
    index = state.round - 1
    rnd = record.rounds[index] if index < len(record.rounds) else None
    if rnd is None or state.round_scores[index] != rnd.scores:
        raise ValueError(f"round {state.round} does not end with its recorded scores")
    if rnd.expeditions is not None:
        colours = state.colours
        want = tuple(tuple(sorted(dict(side).get(c, ()))) for side in rnd.expeditions
                     for c in colours)
        if want != _rounds_of(state):
            raise ValueError(f"round {state.round} does not end with its recorded expeditions")


def replay_step(record: MatchRecord, action: str, data: Mapping[str, str], step: int) -> int:
    """The step that a replay button (``data-action`` and its ``data-*``) leads to from
    `step`; ValueError for anything else."""
    replay = replay_of(record)
    if action == "replay-prev":
        return max(step - 1, 0)
    if action == "replay-next":
        return min(step + 1, replay.steps)
    if action == "replay-turn-prev":
        return max((k for k in replay.turn_stops() if k < step), default=0)
    if action == "replay-turn-next":
        return min((k for k in replay.turn_stops() if k > step), default=replay.steps)
    if action in ("replay-round", "replay-round-end"):
        stops = replay.round_starts() if action == "replay-round" else replay.round_ends()
        raw = data.get("round", "")
        if not raw.isdigit() or not 1 <= int(raw) <= len(stops):
            raise ValueError(f"no round {raw!r} to go to")
        return stops[int(raw) - 1]
    raise ValueError(f"not a replay action: {action!r}")


def _hands(replay: ReplaySteps, step: int, view: View, lang: str) -> Markup:
    names = view["names"]
    rows = join(
        el("li", el("b", names[p]), " ",
           t(lang, "replay.hand.hidden", count=hand) if isinstance(hand, int)
           else join(card_span(c, lang, "chip") for c in hand) or t(lang, "replay.hand.empty"),
           data_replay_hand=True, data_player=p,
           data_count=hand if isinstance(hand, int) else len(hand),
           data_hidden=isinstance(hand, int) or None)
        for p, hand in enumerate(replay.hands(step)))
    return el("section", el("h2", t(lang, "replay.hands")), el("ul", rows),
              class_="replay-hands", data_replay_hands=True)


def _controls(replay: ReplaySteps, step: int, view: View, lang: str,
              speed: str | None) -> Markup:
    steps = replay.steps
    event = replay.event(step)
    said = log_line(view, event, lang) if event else t(lang, "replay.dealt")
    current = replay.states[step].round
    rounds = join(
        el("span",
           el("button", t(lang, "replay.round", round=r), type="button", class_="btn small",
              data_action="replay-round", data_round=r, data_step=start,
              aria_current="step" if r == current else None),
           el("button", t(lang, "replay.round.end"), type="button", class_="btn small ghost",
              data_action="replay-round-end", data_round=r, data_step=end,
              aria_label=t(lang, "replay.round.end.label", round=r),
              aria_current="step" if step == end else None),
           class_="replay-round")
        for r, (start, end) in enumerate(zip(replay.round_starts(), replay.round_ends()),
                                         start=1))
    at_end = step >= steps
    play = (button("replay-pause", "⏸ " + t(lang, "replay.pause"), css="btn small primary")
            if speed else button("replay-play", "▶ " + t(lang, "replay.play"),
                                 css="btn small primary", disabled=at_end))
    speeds = el("select", join(
        el("option", t(lang, f"replay.speed.{name}"), value=name,
           selected=name == (speed or "normal"))
        for name in SPEEDS), data_field="replay-speed", aria_label=t(lang, "replay.speed"))
    return el(
        "section",
        el("h1", t(lang, "replay.heading"), tabindex="-1"),
        el("p", el("b", t(lang, "replay.step", step=step, steps=steps)), " ", said,
           role="status", aria_live="off" if speed else "polite", class_="replay-said"),
        el("p",
           button("replay-turn-prev", "« " + t(lang, "replay.turn.prev"), disabled=step <= 0),
           button("replay-prev", "← " + t(lang, "replay.prev"), disabled=step <= 0),
           button("replay-next", t(lang, "replay.next") + " →", disabled=at_end),
           button("replay-turn-next", t(lang, "replay.turn.next") + " »", disabled=at_end,
                  css="btn primary"),
           class_="replay-moves"),
        el("p", play, " ", speeds, class_="replay-auto", data_autoplay=speed),
        el("nav", rounds, aria_label=t(lang, "replay.rounds"), class_="replay-rounds"),
        button("replay-close", t(lang, "replay.close"), css="btn small ghost"),
        class_="replay-bar", data_replay_step=True, data_step=step, data_steps=steps)


def _table(view: View, lang: str) -> str:
    """The table's screen for `view`, its top bar without Abandon (the match is over)."""
    ui = UiState(handoff=False, mixup_seen=[0, 1], jobs_seen=[0, 1])
    doc = render_doc(view, ui, lang)
    bar = next((r for r in parse(doc).children if r.key == "bar"), None)
    if bar is None:
        return plain(doc)
    results = screen_name(view, ui) in ("round-end", "match-end")
    shown = {**view, "phase": "match-end", **({"round_scores": []} if results else {})}
    return plain(doc[:bar.outer[0]]) + plain(top_bar(shown, lang)) + plain(doc[bar.outer[1]:])


def replay_doc(record: MatchRecord, step: int, lang: str, speed: str | None = None) -> Markup:
    """The replay screen at `step` (clamped to the match's moves), playing by itself at
    `speed` (a `SPEEDS` name) or not (None); ValueError if the record can't be replayed
    (`replay_of`)."""
    replay = replay_of(record)
    step = max(0, min(step, replay.steps))
    view = worded_names(replay.view(step), lang)
    return el("div", _controls(replay, step, view, lang, speed),
              _hands(replay, step, view, lang),
              el("div", Markup(_table(view, lang)), class_="replay-table"),
              class_="replay")
