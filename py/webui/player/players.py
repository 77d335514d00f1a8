"""The player's own features, plugged into the controller: statistics and the history, replays,
the score calculator, rematch series and the first-game guide.

`Players.plug` makes them part of the page through the controller's ways in
(webui/match/controller.py), and nothing else:

- a plugged `Screen`: ``body[data-screen]`` ``stats`` (webui/features/stats_screen.py), ``replay``
  (webui/features/replay.py) and ``calculator`` (webui/features/calculator.py), opened from the
  setup or the match-end screen and closed back to it;
- the listeners `on_view`, `on_match_end` and `on_abandoned`: each match is kept as it is
  played and recorded at its end, or as abandoned by the other player when the player ends
  an online match whose other page fell silent (webui/features/keeper.py,
  webui/features/history_store.py);
- a part (`add_part`): on the match-end screen the series score and where an online rematch
  stands (webui/player/match_end.py), Play again (the same opponent and options; the series goes
  on), Replay and Statistics; on the guide's table its step (webui/features/guide.py).

What differs between kinds of match is asked of the seat (webui/match/seats/__init__.py
`Seat`), never its class: its own panel (the guide's step), whether Play again is offered and
who deals the rematch, the series its match-end shows, where a rematch stands. Online matches
are recorded too (without their moves: the page never holds their seed). Their Play again asks
the other page for a rematch in the same room (webui/online/seat.py `ask_rematch`; the
match-end says who asked, ``[data-rematch]``); the seat counts the room's series (`series_of`)
and carries the one both pages agreed on into the next match, which `continue_series` counts
here, after a reload too. Browser-free: the file download is handed in (`Files`;
webui/browser/player_page.py in the browser).
"""

from __future__ import annotations

import asyncio

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final, Protocol

from webui.features.calculator import ACTIONS as CALC_ACTIONS
from webui.features.calculator import Calculator, render_calculator
from webui.features.guide import GuideMatch
from webui.features.history import MatchRecord
from webui.features.history_store import HistoryStore
from webui.features.keeper import Keeper, utc_date
from webui.features.replay import ACTIONS as REPLAY_ACTIONS
from webui.features.replay import SPEEDS, replay_doc, replay_of, replay_step
from webui.features.stats import compute_stats
from webui.features.stats_screen import notice_text, render_stats
from webui.match.seats import Seat, View
from webui.match.series import Series
from webui.match.setup import form_name
from webui.player.match_end import rematch_html, series_html
from webui.screens.html import EMPTY, Markup, button, el, join
from webui.text.player_text import t

if TYPE_CHECKING:
    from webui.match.controller import MatchController

CALC_KEY: Final = "lostcities.calculator"
"""Where the calculator's cards and options are kept between visits."""
AUTOPLAY_ACTIONS: Final = ("replay-play", "replay-pause", "replay-speed")
ESCAPE_CLOSES: Final = {"stats": "stats-close", "replay": "replay-close",
                         "calculator": "calc-close"}
"""The screens the Escape key closes, and the click that closes each."""


class Files(Protocol):
    """What the page does with files for these screens."""

    def download(self, name: str, text: str) -> None:
        """Offer `text` as a JSON file named `name` to save."""
        ...


class Players:
    """The player's features (see the module's docstring). `screen` is the one shown, if any:
    ``stats``, ``replay`` or ``calculator``."""

    def __init__(self, controller: MatchController, files: Files) -> None:
        self.controller = controller
        self.files = files
        page, storage = controller.page, controller.storage
        self.history = HistoryStore(storage, page.stamp, page.log)
        self.keeper = Keeper(storage, self.history, page.stamp, page.log, self._notify)
        self.screen: str | None = None
        self.message: str | None = None
        """What the Stats screen says at its top (how an import went)."""
        self._shown: tuple[MatchRecord, int] | None = None  # the replay: record and step
        self._replay_back: str | None = None  # the screen the replay closes back to
        self._speed = "normal"  # the replay's autoplay speed (a SPEEDS name)
        self._autoplay: int | None = None
        """While the replay plays by itself, the number of this run of it (a turn shown by
        a run that has since been paused does nothing)."""
        self._runs = 0
        self.tempo = 1.0
        """Multiplies the seconds autoplay shows each turn (0: no waiting)."""
        self._calc: Calculator | None = None
        self._last: tuple[Seat, int] | None = None
        """The seat that plays its rematches itself (online) seen last, and its match's
        number."""

    def plug(self) -> None:
        """Plug the features into the controller."""
        controller = self.controller
        controller.plug(self)
        controller.on_view(self._seen)
        controller.on_match_end(self._ended)
        controller.on_abandoned(self._abandoned)
        controller.add_part(self.part)

    # -- the controller's Screen -----------------------------------------------------------

    def handle(self, action: str, data: dict[str, str]) -> bool:
        """Carry out a click (or a field's change) of these features; False for any other."""
        if action == "stats":
            self.screen, self.message = "stats", None
        elif action == "calculator":
            self.screen = "calculator"
        elif action == "replay":
            self._open_replay(data.get("record"))
        elif action == "guide":
            self._start_guide()
        elif action in ("guide-skip", "guide-close"):
            self._guide_action(action)
        elif action == "play-again":
            self._play_again()
        elif action == "escape" and self.screen in ESCAPE_CLOSES:
            return self.handle(ESCAPE_CLOSES[self.screen], data)
        elif self.screen == "stats" and action in ("stats-close", "export-stats",
                                                   "import-stats"):
            self._stats_action(action, data)
        elif self.screen == "replay" and action in (*REPLAY_ACTIONS, *AUTOPLAY_ACTIONS,
                                                    "replay-close"):
            self._replay_action(action, data)
        elif self.screen == "calculator" and action in (*CALC_ACTIONS, "calc-close"):
            self._calc_action(action, data)
        else:
            if action == "new-match" and self.screen == "replay":
                self.screen = None  # the replay's last step: New match is the match's own
            return False
        return True

    def render(self, lang: str) -> tuple[str, str] | None:
        """The screen shown, if any."""
        if self.screen == "stats":
            records = self.history.records
            doc = render_stats(compute_stats(records), lang, message=self.message,
                               records=records)
            self._take_history_notice()
            return "stats", doc
        if self.screen == "replay" and self._shown is not None:
            record, step = self._shown
            speed = None if self._autoplay is None else self._speed
            return "replay", replay_doc(record, step, lang, speed)
        if self.screen == "calculator":
            return "calculator", render_calculator(self._calculator(), lang)
        return None

    def close(self) -> None:
        """Close the screen shown (it could not be rendered)."""
        self.screen, self._shown, self._autoplay = None, None, None

    # -- opening ---------------------------------------------------------------------------

    def _calculator(self) -> Calculator:
        """The calculator, as it was left (kept between visits)."""
        if self._calc is None:
            stored = self.controller.storage.getItem(CALC_KEY)
            try:
                self._calc = Calculator.from_json(json.loads(stored)) if isinstance(
                    stored, str) else Calculator()
            except ValueError:  # a damaged one: start afresh (nothing of value is lost)
                self._calc = Calculator()
        return self._calc

    def _open_replay(self, wanted: str | None) -> None:
        """Replay the record `wanted` (an id), or else the match that has just ended."""
        session = self.controller.session
        record = (self.history.find(wanted) if wanted else
                  None if session is None else self.keeper.record(session.seat))
        lang = self.controller.lang
        try:
            if record is None:
                raise ValueError(t(lang, "players.not-kept"))
            replay_of(record)
        except ValueError as exc:
            self._say(t(lang, "players.no-replay", reason=str(exc)))
            return
        self._replay_back = "stats" if self.screen == "stats" else None
        self._shown, self.screen = (record, 0), "replay"

    def _start_guide(self) -> None:
        lang = self.controller.lang
        name = form_name(self.controller.page.form_values().get("name1"),
                         t(lang, "setup.default1"))
        self.screen, self.controller.notice = None, None
        self.controller.play(GuideMatch.deal((name, t(lang, "bot.name.easy"))))

    def _guide_action(self, action: str) -> None:
        session = self.controller.session
        if session is None:
            return
        seat = session.seat
        if action == "guide-skip":
            if seat.skip_guide():
                self.controller.end_match()  # the prepared deal is for the guide alone
        elif seat.close_guide():
            self.controller.play(seat)  # saved so, and shown without the panel

    def _play_again(self) -> None:
        session = self.controller.session
        if session is None:
            return
        seat = session.seat
        try:
            if seat.ask_rematch():  # online: the other page is asked (or its request accepted)
                return
        except ValueError as exc:
            self._say(t(self.controller.lang, "rematch.cannot", reason=str(exc)))
            return
        self.screen = None
        self.controller.play(self.keeper.rematch(seat))

    # -- on a screen -----------------------------------------------------------------------

    def _stats_action(self, action: str, data: Mapping[str, str]) -> None:
        lang = self.controller.lang
        if action == "stats-close":
            self.screen = None
        elif action == "export-stats":
            self.files.download(*self.history.export(utc_date(self.controller.page.stamp())))
        else:
            try:
                added = self.history.import_file(data.get("text", "")).added
            except ValueError:
                self.message = t(lang, "history.import.bad")
                return
            self.message = t(lang, "history.imported", count=added)

    def _replay_action(self, action: str, data: Mapping[str, str]) -> None:
        if action == "replay-speed":
            speed = data.get("value", "")
            if speed not in SPEEDS:
                raise ValueError(f"not a replay speed: {speed!r}")
            self._speed = speed
            return
        self._autoplay = None  # any other button stops autoplay; Play starts it again
        if action == "replay-close" or self._shown is None:
            self.screen, self._shown = self._replay_back, None
        elif action == "replay-play":
            self._runs += 1
            self._autoplay = self._runs
            self._play_on(self._runs)
        elif action != "replay-pause":
            record, step = self._shown
            self._shown = (record, replay_step(record, action, data, step))

    def _play_on(self, run: int) -> None:
        """Show the next turn of the replay after its speed's seconds, and so on to its end,
        unless run `run` of autoplay has been stopped meanwhile."""
        async def next_turn() -> None:
            await asyncio.sleep(SPEEDS[self._speed] * self.tempo)
            if self._autoplay != run or self.screen != "replay" or self._shown is None:
                return
            record, step = self._shown
            step = replay_step(record, "replay-turn-next", {}, step)
            self._shown = (record, step)
            if step >= replay_of(record).steps:
                self._autoplay = None
            else:
                self._play_on(run)
            self.controller.render()

        self.controller.spawn(next_turn())

    def _calc_action(self, action: str, data: Mapping[str, str]) -> None:
        if action == "calc-close":
            self.screen = None
            return
        self._calc = self._calculator().handle(action, data)  # ValueError: nothing changes
        try:
            self.controller.storage.setItem(CALC_KEY, json.dumps(self._calc.to_json()))
        except Exception as exc:  # noqa: BLE001 - a full storage: the calculator still works
            self.controller.page.log(f"calculator: {exc!r}")

    # -- the match's screens ---------------------------------------------------------------

    def part(self, view: View, seat: Seat, screen: str, lang: str) -> Markup:
        """What these features add to a match's screen (the controller's `Part`): the seat's
        own panel (the guide's step), and at the end of a match counted in the history its
        results."""
        try:
            panel = seat.panel(screen, lang)
            results = self._results(view, seat, lang) if (
                screen == "match-end" and seat.in_history()) else EMPTY
            return join((EMPTY if panel is None else panel, results))
        except Exception as exc:  # noqa: BLE001 - the match shows all the same
            self.controller.page.log(f"players: {exc!r}")
            return EMPTY

    def _results(self, view: View, seat: Seat, lang: str) -> Markup:
        """The match-end's series, where an online rematch stands, Play again, Replay and
        Statistics."""
        series = self.series_of(seat)
        record = self.keeper.record(seat)
        self._take_history_notice()  # the history was read for it: anything set aside is said
        buttons = join((
            button("play-again", t(lang, "matchend.again"), css="btn primary big")
            if seat.offers_play_again(record is not None) else EMPTY,
            button("replay", t(lang, "players.replay"))
            if record is not None and record.replay is not None else EMPTY,
            button("stats", t(lang, "players.stats")),
        ), " ")
        line = EMPTY if series is None else series_html(series, view["names"], lang)
        rematch = rematch_html(seat, lang, self.controller.page.clock())
        return join((line, rematch, el("p", buttons, class_="more-actions")))

    def series_of(self, seat: Seat) -> Series | None:
        """The series the match-end of `seat`'s match shows (`Seat.series_at_end`): the one
        kept here once the match is recorded in it, or the one an online seat counts (what
        its rematch request carries)."""
        kept = self.keeper.kept(seat)
        return seat.series_at_end(None if kept is None else kept.series,
                                  kept is not None and kept.record is not None)

    def continue_series(self, seat: Seat, series: Series) -> None:
        """Count `seat`'s match (a rematch agreed with the other page, online) in `series`,
        the one both pages agreed on (`read_rematch`)."""
        self.keeper.carry(seat, series)

    # -- listening -------------------------------------------------------------------------

    def _seen(self, view: View, seat: Seat) -> None:
        """A view of a match, kept. A match seen for the first time in a seat that plays its
        rematches itself (online: `Seat.match_no`) counts in the series its seat carries (a
        rematch's, also after a reload); a new match of the same seat (a rematch) gets its
        own screen state, and its end is told again."""
        if seat.starting:
            return  # the match before still shows
        number = seat.match_no
        if number is not None and self._last != (seat, number):
            last, self._last = self._last, (seat, number)
            if seat.carried is not None:
                self.continue_series(seat, seat.carried)
            if last is not None and last[0] is seat:
                self.controller.play(seat)
        self.keeper.seen(view, seat)

    def _ended(self, view: View, seat: Seat) -> None:
        self.keeper.ended(view, seat)
        self._take_history_notice()

    def _abandoned(self, view: View, seat: Seat) -> None:
        """The player ended an online match as abandoned by the other: recorded so in the
        history and the series, whose score the notice adds when it holds other matches."""
        series = self.keeper.abandoned(view, seat)
        self._take_history_notice()
        notice = self.controller.notice
        if series is not None and len(series.results) > 1 and notice:
            names = view["names"]
            self._say(notice + " " + t(self.controller.lang, "series.after", first=names[0],
                                       wins0=series.wins(0), wins1=series.wins(1),
                                       second=names[1]))

    def _take_history_notice(self) -> None:
        notice = self.history.take_notice()
        if notice is not None:
            self._say(notice_text(notice, self.controller.lang))

    def _notify(self, key: str, **values: Any) -> None:
        self._say(t(self.controller.lang, key, **values))

    def _say(self, text: str) -> None:
        self.controller.notice = text
