"""The one controller of the page: every match, whoever plays it, and the screens around it.

A match is a `Session`: a seat (webui/match/seats: a person on this device, the computer, another
page over the network) and the table's UI state. Whatever the seat, the controller

- carries out each click (``data-action`` and its data): a table action, a hint, leaving the
  match, a page-wide action (language, Rules, a notice dismissed, the update), or a new match
  from the setup form;
- shows the current screen as one `Frame`, which the page (`Display`, webui/browser/page.py) writes;
- saves the match once its change is on screen (after the next paint) under the seat's key,
  resumes it at boot, and removes it when the match is left;
- thinks in time slices for this device: the computer's moves and the hints;
- hears what changes without a click (the computer's move, the other page's message, the
  connection once a second) and shows it;
- sets aside (webui/kernel/setaside.py) a save that can't be loaded or a match that can't be shown,
  and says so in a notice.

Screens outside a match plug in (`plug`, `Screen`): the online lobby and waiting room are one
(webui/online/lobby.py, which hands the controller its seat), the player's own screens another
(webui/player/players.py). Listeners hear every view shown (`on_view`), each match's end
(`on_match_end`) and each online match the player ended as abandoned by a silent opponent
(`on_abandoned`); parts add to a match's screens (`add_part`: the series, Play again, the
guide's steps).

Browser-free: the page and the browser's storage are handed to it, so it runs natively too.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Coroutine
from typing import Any, Protocol

from webui.kernel.frame import Frame
from webui.kernel.setaside import Storage, set_aside
from webui.match.hint import can_hint, hint_steps, render_hint
from webui.match.seats import MATCH_KEY, Remote, Seat, View
from webui.match.seats.computer import OPPONENTS, PACE, BotMatch
from webui.match.seats.local import LocalMatch
from webui.match.session import TABLE_ACTIONS, Session
from webui.match.setup import parse_setup
from webui.match.thinking import run_sliced
from webui.screens import update_offer
from webui.screens.html import EMPTY, Markup, button, confirm, el, join, region
from webui.screens.match import render_doc, render_rules, screen_name, worded_names
from webui.screens.online import status_bar, sync_mark
from webui.screens.table import Extras
from webui.text.i18n import LANG_KEY, t

Listener = Callable[[View, Seat], None]
"""Told a view and the seat it is from (``seat.mode``: ``pass-and-play``, ``computer``,
``online``); it reads them, never changes them."""
Part = Callable[[View, Seat, str, str], Markup]
"""Given a view, its seat, the screen's name and the language: what a plugged feature adds to
that screen of the match (table.Extras.more: the table and the match-end screen show it), or
EMPTY. Called at every render: it must be cheap."""


class Later(Protocol):
    """A callback due after the next paint (dom.AfterPaint)."""

    def request(self) -> None:
        """Run the callback after the next paint (once, however often it is requested)."""
        ...


class Display(Protocol):
    """What the controller asks of the page (webui/browser/page.py's `Page` in the browser)."""

    def show(self, frame: Frame) -> None:
        """Write `frame` into the document."""
        ...

    def form_values(self) -> dict[str, object]:
        """The setup form's values (webui/match/setup.py reads them)."""
        ...

    def log_open(self) -> bool:
        """Whether the move log is unfolded on the screen shown."""
        ...

    def hide_setup_wait(self) -> None:
        """Hide the setup's "starting..." line."""
        ...

    def after_paint(self, callback: Callable[[], None]) -> Later:
        """A request to run `callback()` after the next paint, or at once when the page is
        hidden or left."""
        ...

    def every_second(self, callback: Callable[[], None]) -> None:
        """Run `callback()` once a second from now on."""
        ...

    def on_window(self, event: str, callback: Callable[[], None]) -> None:
        """Run `callback()` on each `event` of the window (``pagehide``: the page is left)."""
        ...

    def on_update_ready(self, callback: Callable[[], None]) -> None:
        """Run `callback()` when an update of the app is ready."""
        ...

    def update_ready(self) -> bool:
        """Whether an update of the app is ready."""
        ...

    def apply_update(self) -> None:
        """Reload on the update."""
        ...

    def reload(self) -> None:
        """Load the page again."""
        ...

    def clock(self) -> float:
        """Seconds on the page's monotonic clock."""
        ...

    def stamp(self) -> int:
        """Milliseconds since the epoch."""
        ...

    def log(self, text: str) -> None:
        """Report a problem (the console)."""
        ...


class Screen(Protocol):
    """A screen outside a match, plugged into the controller (`MatchController.plug`)."""

    def handle(self, action: str, data: dict[str, str]) -> bool:
        """Carry out a click if it is this screen's; False to leave it to the others. The
        Escape key comes as the action ``escape`` to the screen shown: it closes the screen if
        that is safe."""
        ...

    def render(self, lang: str) -> tuple[str, str] | None:
        """(``data-screen``, HTML with its regions marked) while this screen is shown, else
        None."""
        ...

    def close(self) -> None:
        """Stop showing (the screen could not be rendered: the setup shows instead)."""
        ...


class MatchController:
    """The page's one controller (see the module's docstring)."""

    def __init__(self, page: Display, storage: Storage, lang: str) -> None:
        self.page = page
        self.storage = storage
        self.lang = lang
        self.session: Session | None = None
        """The match shown, or waiting for the other page."""
        self.notice: str | None = None
        self.rules_open = False
        self.confirm = False
        """Whether the player is asked if they really leave the match."""
        self.hint: dict[str, Any] | None = None
        """The hint asked on this screen: {"view", "move"} (move None while worked out)."""
        self._screens: list[Screen] = []
        self._view_listeners: list[Listener] = []
        self._end_listeners: list[Listener] = []
        self._abandon_listeners: list[Listener] = []
        self._parts: list[Part] = []
        self._showing: Screen | Session | None = None  # what the last frame shows
        self._ended = False  # the match's end was told to the listeners
        self._thinking: asyncio.Future[None] | None = None  # the computer's turn being played
        self._tasks: set[asyncio.Future[Any]] = set()
        self._ticking = False
        self.pace = PACE
        """Seconds a move of the computer takes at least (so the player sees it coming)."""
        self._shown_badge: tuple[Any, ...] | None = None  # what the badge shows (tick)
        self._turn_step: tuple[Any, ...] | None = None  # the turn's step the last frame showed
        self._save_later = page.after_paint(self._write_save)  # the save waits for the paint
        page.on_window("pagehide", self.hang_up)
        page.on_update_ready(self.render)  # offered between games (update_offer.BETWEEN_GAMES)

    # -- plugging in -----------------------------------------------------------------------

    def plug(self, screen: Screen) -> None:
        """Add a screen outside a match: it gets each click first, and is shown while its
        `render` gives a screen (the first plugged that does)."""
        self._screens.append(screen)

    def on_view(self, listener: Listener) -> None:
        """Tell `listener(view, seat)` each view of a match after it changed."""
        self._view_listeners.append(listener)

    def on_match_end(self, listener: Listener) -> None:
        """Tell `listener(view, seat)` once when a match shown here ends (its match-end
        view); a match resumed already over is not told again."""
        self._end_listeners.append(listener)

    def on_abandoned(self, listener: Listener) -> None:
        """Tell `listener(view, seat)` when the player ends an online match as abandoned by
        the other page (its last view: the match is recorded so)."""
        self._abandon_listeners.append(listener)

    def add_part(self, part: Part) -> None:
        """Show what `part` adds to the screens of a match (`Part`)."""
        self._parts.append(part)

    # -- matches ---------------------------------------------------------------------------

    def resume(self) -> None:
        """Resume the match saved on this device; a save that can't be loaded is set aside
        (kept, setaside.py) with a notice."""
        text = self.storage.getItem(MATCH_KEY)
        if not isinstance(text, str):  # JavaScript's null is not None
            return
        try:
            session = Session.from_save_text(text)
        except ValueError as exc:
            set_aside(self.storage, MATCH_KEY, text, self.page.stamp(), self.page.log)
            self.notice = t(self.lang, "notice.corrupt", reason=str(exc))
            return
        self._take(session)

    def play(self, seat: Seat) -> None:
        """Play `seat`'s match from now on, and save it (the match shown before is dropped;
        its save stays)."""
        self._take(Session(seat))
        self._save_soon()

    def _take(self, session: Session) -> None:
        if self.session is not None and self.session.seat is not session.seat:
            self.session.seat.hang_up()
        self.session, self.hint, self.confirm = session, None, False
        seat = session.seat
        self._ended = seat.has_match and seat.view().get("phase") == "match-end"
        seat.set_on_change(lambda: self._seat_changed(session))
        if not self._ticking and seat.remote(self.page.clock()) is not None:
            self._ticking = True
            self.page.every_second(self.tick)

    def start(self) -> None:
        """Start a match on this device from the setup form: pass and play, or against the
        computer (online play is the online lobby's, a plugged screen)."""
        values = self.page.form_values()
        setup = parse_setup(values, self.lang)
        if values.get("mode", "local") != "local":
            raise ValueError("online play is not available on this page")
        rng = random.SystemRandom()
        first = setup.first_player if setup.first_player is not None else rng.randrange(2)
        opponent = values.get("opponent", "human")
        seat: Seat
        if opponent == "human":
            seat = LocalMatch.new(setup.options, rng.randrange(2**31), first, setup.names)
        elif opponent in OPPONENTS:  # the human is player 1 (seat 0): the computer is named
            names = (setup.names[0], t(self.lang, f"bot.name.{opponent}"))
            seat = BotMatch.new(setup.options, rng.randrange(2**31), first, names, str(opponent))
        else:
            raise ValueError(f"the opponent must be one of {', '.join(OPPONENTS)}")
        self.notice = None
        self.play(seat)

    def end_match(self) -> None:
        """Leave the match for good (after its end, or abandoned): the other page is told,
        the save removed, and the setup shown, or the match this device holds if it was
        set down for an online one."""
        session = self.session
        if session is None:
            return
        seat = session.seat
        seat.leave()
        self.storage.removeItem(seat.save_key)
        self.session, self.hint, self.confirm = None, None, False
        self.page.hide_setup_wait()
        if seat.save_key != MATCH_KEY:
            self.resume()

    def let_go(self, seat: Seat) -> None:
        """Stop playing `seat` without touching its save (another tab runs it now): it hangs
        up, and whatever shows without a match shows."""
        session = self.session
        if session is None or session.seat is not seat:
            return
        seat.hang_up()
        self.session, self.hint, self.confirm = None, None, False

    def _end_abandoned(self, session: Session) -> None:
        """The player ends the match as abandoned by the silent other page, if that is
        offered now (else nothing changes): the listeners record it, then the room is left."""
        seat = session.seat
        remote = seat.remote(self.page.clock())
        if remote is None or not remote.offer_end or not seat.has_match:
            return
        view = session.view()
        self.notice = t(self.lang, "abandoned.ended",
                        name=remote.opponent or t(self.lang, "status.opponent"))
        for listener in self._abandon_listeners:
            try:
                listener(view, seat)
            except Exception as exc:  # noqa: BLE001 - a listener's fault is not the match's
                self.page.log(f"listener: {exc!r}")
        self.end_match()

    # -- clicks ----------------------------------------------------------------------------

    def click(self, action: str, data: dict[str, str]) -> None:
        """A click on a ``data-action`` control: carry it out, show the result, and let the
        computer move if it is its turn."""
        self.act(action, data)
        self.render()
        self.kick()

    def act(self, action: str, data: dict[str, str]) -> None:
        """Carry out one ``data-action``; a failure is reported in a notice."""
        try:
            self._act(action, data)
        except Exception as exc:  # keep the page alive; say what broke
            self.page.log(f"{action}: {exc!r}")
            self.notice = t(self.lang, "error.engine", reason=str(exc))

    def _act(self, action: str, data: dict[str, str]) -> None:
        if any(screen.handle(action, data) for screen in self._screens):
            return
        if self.session is not None and self._match_action(self.session, action, data):
            return
        if action == "start":
            self.start()
        elif action == "lang":
            self.lang = "en" if self.lang == "es" else "es"
            self.storage.setItem(LANG_KEY, self.lang)
        elif action in ("rules", "rules-close"):
            self.rules_open = action == "rules"
        elif action == "dismiss-notice":
            self.notice = None
        elif action == update_offer.UPDATE_ACTION:
            self.page.apply_update()  # the page reloads on the new version; the save stays
        elif action == "reload":
            self.page.reload()

    def _match_action(self, session: Session, action: str, data: dict[str, str]) -> bool:
        seat = session.seat
        if action in TABLE_ACTIONS:
            session.handle(action, data)
            self._save_soon()
            self._tell(session)
        elif action == "hint":
            self.request_hint()
        elif action in ("abandon", "leave-room") and seat.match_on() and not self.confirm:
            self.confirm = True  # leaving a match being played is for good: ask first
        elif action in ("abandon", "leave-room") and not seat.match_on():
            self.end_match()
        elif action in ("abandon-yes", "leave-room", "new-match"):
            self.end_match()
        elif action in ("abandon-no", "stay"):
            self.confirm = False
        elif action == "end-abandoned":
            self._end_abandoned(session)
        elif action == "keep-waiting":
            seat.keep_waiting(self.page.clock())
        else:
            return False
        return True

    def escape(self) -> None:
        """The Escape key: leave the Rules page, close the plugged screen shown (stats, replay,
        calculator), or close the sabotage menu."""
        shown = self._showing
        if self.rules_open:
            self.rules_open = False
        elif shown is not None and not isinstance(shown, Session):
            if not shown.handle("escape", {}):
                return
        elif self.session is not None and self.session.ui.sabotage_menu:
            self.session.ui.sabotage_menu = False
        else:
            return
        self.render()

    # -- what changes without a click ------------------------------------------------------

    def _seat_changed(self, session: Session) -> None:
        """The seat changed by itself (the computer's move, the other page's message)."""
        if self.session is not session:
            return
        self._save_soon()
        self._tell(session)
        self.render()
        self.kick()

    def _tell(self, session: Session) -> None:
        """Tell the listeners the view of `session` now, and its end once."""
        if not session.seat.has_match or not (self._view_listeners or self._end_listeners):
            return
        view = session.view()
        ended = view.get("phase") == "match-end" and not self._ended
        self._ended = self._ended or ended
        for listener in self._view_listeners + (self._end_listeners if ended else []):
            try:
                listener(view, session.seat)
            except Exception as exc:  # noqa: BLE001 - a listener's fault is not the match's
                self.page.log(f"listener: {exc!r}")

    def tick(self) -> None:
        """Once a second: the seat keeps its connection alive; the badge is redrawn when what
        it shows changed (the other page's connection, the clock of its silence)."""
        session = self.session
        if session is None:
            return
        now = self.page.clock()
        session.seat.tick(now)
        remote = session.seat.remote(now)
        if remote is not None and session.seat.has_match and _badge(remote) != self._shown_badge:
            self.render()

    def hang_up(self) -> None:
        """The page is being left: close the connection at once (a due save is written by
        its own listener, registered first)."""
        if self.session is not None:
            self.session.seat.hang_up()

    # -- the computer and hints ------------------------------------------------------------

    def kick(self) -> None:
        """Start the computer's turn if it is to move and not already thinking."""
        session = self.session
        if session is None or self._thinking is not None or session.seat.to_think() is None:
            return
        self._thinking = self.spawn(self._think(session))

    async def _think(self, session: Session) -> None:
        """Play the computer's moves, thinking in time slices, until it is not to move. If
        it fails, it says so and tries again at the player's next click, not before."""
        seat = session.seat
        failed = True
        try:
            while self.session is session and seat.to_think() is not None:
                self.render()  # shows that it is thinking
                move = await run_sliced(seat.think(), pace=self.pace)
                if self.session is not session:
                    break  # the match was left meanwhile
                seat.play_thought(move)  # shown and saved as the seat's change
            failed = False
        except ImportError as exc:  # app-more.zip, which holds the bots, was not loaded
            self.page.log(f"computer: {exc!r}")
            self.notice = t(self.lang, "notice.more-failed")
        except Exception as exc:  # keep the page alive; say what broke
            self.page.log(f"computer: {exc!r}")
            self.notice = t(self.lang, "error.engine", reason=str(exc))
        finally:
            self._thinking = None
        self.render()
        if not failed:
            self.kick()  # a match started meanwhile may be waiting for its computer

    def thinking(self) -> int | None:
        """The player the computer is thinking for now, or None."""
        session = self.session
        if self._thinking is None or session is None:
            return None
        return session.seat.to_think()

    def request_hint(self) -> None:
        """Ask the Hard bot what the player to act should do, from their own view (worked
        out in time slices)."""
        session = self.session
        if session is None or not session.seat.has_match or self.thinking() is not None:
            return
        view = session.view()
        if not can_hint(view) or (self.hint is not None and self.hint["view"] == view):
            return  # not this player's turn, or already shown or being worked out
        self.hint = {"view": view, "move": None}
        self.spawn(self._work_out_hint(session, view))

    async def _work_out_hint(self, session: Session, view: View) -> None:
        try:
            move = await run_sliced(hint_steps(view))
        except Exception as exc:  # noqa: BLE001 - keep the page alive; say what broke
            self.page.log(f"hint: {exc!r}")
            move = None
        if self.session is session and self.hint is not None and self.hint["view"] is view:
            self.hint = None if move is None else {"view": view, "move": move}
            self.render()

    # -- saving ----------------------------------------------------------------------------

    def _save_soon(self) -> None:
        """Save the match once its change is on screen (dom.AfterPaint); a seat that keeps
        nothing any more has its save removed at once."""
        session = self.session
        if session is None:
            return
        if session.seat.keeps_save():
            self._save_later.request()
        else:
            self.storage.removeItem(session.seat.save_key)

    def _write_save(self) -> None:
        session = self.session
        if session is None:
            return
        try:
            text = session.save_text()
            if text is None:
                self.storage.removeItem(session.seat.save_key)
            else:
                self.storage.setItem(session.seat.save_key, text)
        except Exception as exc:  # storage full or refused: keep playing, say so
            self.page.log(f"save: {exc!r}")
            self.notice = t(self.lang, "error.engine", reason=str(exc))
            self.render()

    # -- showing ---------------------------------------------------------------------------

    def render(self) -> None:
        """Show the current screen. A match or screen that can't be shown is set aside with
        a notice, and the setup shows instead."""
        try:
            self.page.show(self.frame())
        except Exception as exc:
            if not self._set_aside_unshown(exc):
                raise
            self.page.show(self.frame())

    def frame(self) -> Frame:
        """What to show now: a plugged screen that shows, else the match, else the setup."""
        lang, session = self.lang, self.session
        name, doc = "setup", ""
        remote: Remote | None = None
        self._showing = None
        for screen in self._screens:
            self._showing = screen
            shown = screen.render(lang)
            if shown is not None:
                name, doc = shown
                break
        else:
            self._showing = None
            if session is not None and session.seat.has_match:
                self._showing = session
                remote = session.seat.remote(self.page.clock())
                name, doc = self._match_doc(session, remote)
        asking = self.confirm and remote is None and self._showing is session
        rules = render_rules(lang) if self.rules_open else ""
        step = self._turn_focus(name if self._showing is session else "")
        focus = ('[data-action="abandon-no"]' if asking and session is not None
                 else '[data-action="rules-close"]' if self.rules_open else step)
        return Frame(lang, name, doc, self._banners(name, asking), rules,
                     self.thinking() is not None, focus)

    def _turn_focus(self, screen: str) -> str | None:
        """Where the focus goes as the turn moves on, on the table: once this page's player
        has played or discarded, to the deck (where they draw); once their turn comes (again),
        to their hand (its card in the tab order). None on any other frame: the focus stays
        where the player put it."""
        session = self.session
        view = session.view() if session is not None and screen == "turn" else None
        before = self._turn_step
        self._turn_step = None if view is None else (
            view.get("round"), view.get("phase"), view.get("to_act"), len(view.get("log") or []))
        if view is None or before is None or before == self._turn_step:
            return None
        if view.get("to_act") != view.get("player"):
            return None
        if view.get("phase") == "draw":
            return '[data-action="draw"][data-source="deck"]'
        if view.get("phase") == "play" and before[1:3] != ("play", view.get("player")):
            return '[data-zone="hand"] [data-action="select"][tabindex="0"]'
        return None

    def _match_doc(self, session: Session, remote: Remote | None) -> tuple[str, str]:
        """(screen name, keyed HTML) of the match; an online one under its connection badge."""
        lang, ui = self.lang, session.ui
        view = worded_names(session.view(), lang)
        name = screen_name(view, ui)
        who = self.thinking()
        thinking = None if who is None else t(lang, "bot.thinking", name=view["names"][who])
        hint = render_hint(view, self.hint, lang) if name == "turn" else EMPTY
        more = join(part(view, session.seat, name, lang) for part in self._parts)
        # only an online seat stops before the match's end (a local one would only work out
        # its view again to say it has not)
        abandon = remote is None or session.seat.match_on()
        doc = render_doc(view, ui, lang, Extras(thinking, hint, self.page.log_open(), more,
                                                session.seat.pointing(), abandon))
        if remote is None:
            return name, doc
        self._shown_badge = _badge(remote)
        bar = status_bar(lang, remote.state, remote.opponent, remote.code, sync_mark(view),
                         remote.error, remote.reload, self.confirm, remote.host_away,
                         remote.waiting, remote.silent, remote.offer_end, remote.halted,
                         session.seat.match_on())
        return name, region("online-bar", el("div", bar, class_="online-bar")) + doc

    def _banners(self, screen: str, asking: bool) -> Markup:
        lang, parts = self.lang, []
        if self.notice:
            parts.append(el(
                "div", el("p", self.notice),
                button("dismiss-notice", t(lang, "notice.dismiss"), css="btn small"),
                class_="notice", role="alert"))
        if asking:
            parts.append(confirm("abandon-q", t(lang, "abandon.confirm"),
                                 ("abandon-yes", t(lang, "abandon.yes")),
                                 ("abandon-no", t(lang, "abandon.no"))))
        parts.append(update_offer.offer(lang, screen, self.page.update_ready))
        return join(parts)

    def _set_aside_unshown(self, exc: Exception) -> bool:
        """The screen could not be shown (`exc`): close the plugged screen that failed, set
        the match aside (its save kept, setaside.py) if it was shown or waited, and say so.
        False if nothing was shown but the setup (which failed itself)."""
        self.page.log(f"render: {exc!r}")
        showing, session = self._showing, self.session
        if showing is None:
            return False
        if not isinstance(showing, Session):
            showing.close()
        if session is not None and (showing is session or not session.seat.has_match):
            seat = session.seat
            try:
                text = session.save_text()  # the match as it is now (the save may lag)
            except Exception:  # noqa: BLE001 - a match that can't be saved: keep the last save
                stored = self.storage.getItem(seat.save_key)
                text = stored if isinstance(stored, str) else None
            if text is not None:
                set_aside(self.storage, seat.save_key, text, self.page.stamp(), self.page.log)
            seat.leave()
            self.session, self.hint, self.confirm = None, None, False
        self.notice = t(self.lang, "notice.unshown", reason=f"{type(exc).__name__}: {exc}")
        return True

    def spawn(self, coroutine: Coroutine[Any, Any, None]) -> asyncio.Future[None]:
        """Run `coroutine` on the page's event loop, kept until it is done."""
        task = asyncio.ensure_future(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task


def _badge(remote: Remote) -> tuple[Any, ...]:
    """What the connection badge shows of `remote`, to the second."""
    silent = None if remote.silent is None else int(remote.silent)
    return (remote.state, silent, remote.offer_end, remote.halted)
