"""The page: one delegated click handler, the setup form, saving, and rendering into the DOM.

Everything it shows comes from a `Session` (a driver's view + the UI state); everything it
sends is a move JSON through that session. The setup form is plain HTML in index.html, so it
works while Python boots: its values are read when the match starts, never reset.

Rendering writes only what changed: the screen's keyed regions whose HTML differs from what is
shown (regions.py), the banners and the Rules page when their HTML changed, the static form's
words when the language changed. Keyboard focus on a replaced control is put back on its twin.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import random
from typing import TYPE_CHECKING, Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import create_proxy, jsnull  # type: ignore[import-not-found]

from webui import pwa
from webui.dom import AfterPaint, Patcher, click_listener
from webui.html import button, el, join
from webui.i18n import pick_language, t
from webui.online.codes import ONLINE_SAVE_KEYS, code_from_query
from webui.regions import Region, diff, parse
from webui.screens import render_doc, render_rules, screen_name
from webui.setaside import set_aside
from webui.table import Extras
from webui.warm_boot import warm_up

if TYPE_CHECKING:
    from webui.botseat import BotMatch
    from webui.online.controller import OnlineController
    from webui.session import Session

LATER = ("webui.session", "webui.setup", "webui.hint", "webui.online.controller")
"""What a match and online play need (the rules engine, the bots, the online part): imported
just after the page is ready, when the player starts a match or goes online at the latest."""

SAVE_KEY = "lostcities.match"
LANG_KEY = "lostcities.lang"


def _stored(key: str) -> str | None:
    value = js.localStorage.getItem(key)
    return value if isinstance(value, str) else None  # null arrives as JsNull, not None


def _query(selector: str) -> Any:
    """The first element matching `selector`, or None."""
    element = js.document.querySelector(selector)
    return None if element is None or element is jsnull else element


def _present(value: Any) -> Any:
    """`value`, or None for JavaScript's null and undefined."""
    return None if value is None or value is jsnull else value


class Page:
    """The app on this page: the setup form, one match at a time, the Rules page."""

    def __init__(self) -> None:
        self.lang = pick_language(_stored(LANG_KEY) or str(js.navigator.language or ""))
        self.session: Session | None = None
        self.notice: str | None = None
        self.rules_open = False
        self.confirm_abandon = False
        self.bot_task: Any = None  # the computer's turn being played (asyncio task)
        self.hint: dict[str, Any] | None = None  # {"view", "move"}: move None while thinking
        self._proxies = [create_proxy(self.on_click), create_proxy(self.on_key)]
        self._listener = click_listener(self._proxies[0])
        self._save_later = AfterPaint(self._write_save)  # the save waits for the paint
        self._online: OnlineController | None = None  # lobby, room, online match (`online`)
        self._shown: Region | None = None  # the screen's regions as they are in the DOM
        self._written: dict[str, object] = {}  # other things last written to the page
        self.last_input = 0.0  # performance.now() of the last click or key press

    # -- boot ------------------------------------------------------------------------------

    def boot(self) -> None:
        """Build the containers, resume a saved match, start a pending one, mark the page ready."""
        app = _query("#app")
        app.insertAdjacentHTML(
            "beforeend",
            '<div id="notice"></div><div id="screen" hidden></div>'
            '<div id="rules" hidden></div>',
        )
        self._screen, self._notice = _query("#screen"), _query("#notice")
        self._rules, self._setup = _query("#rules"), _query("#setup")
        self._patcher = Patcher(self._screen)
        js.document.addEventListener("click", self._listener)
        js.document.addEventListener("keydown", self._proxies[1])
        pwa.on_update_ready(self.render)  # the offer appears between games (pwa.BETWEEN_GAMES)
        self.resume()
        if code_from_query(str(js.location.search)) is not None or any(
                _stored(key) is not None for key in ONLINE_SAVE_KEYS):
            self.online.resume(self.session is not None)  # a join link, or a saved room or seat
        if js.document.body.getAttribute("data-pending-start") == "true":
            js.document.body.removeAttribute("data-pending-start")
            if self.session is None:
                self.start()
        self.render()
        js.document.documentElement.dataset.ready = "true"
        self.kick_bot()  # a resumed match where the computer was to move goes on
        asyncio.ensure_future(self._import_later())
        asyncio.ensure_future(warm_up(lambda: self.last_input))  # for the next boots

    async def _import_later(self) -> None:
        for name in LATER:
            await asyncio.sleep(0)  # a click waiting is handled first
            importlib.import_module(name)

    @property
    def online(self) -> OnlineController:
        """The page's online part, made when first needed."""
        if self._online is None:
            from webui.online.controller import OnlineController

            self._online = OnlineController(self.render, self.render)
        return self._online

    @property
    def online_active(self) -> bool:
        """Whether an online screen (lobby, waiting room, online match) is shown."""
        return self._online is not None and self._online.active

    def resume(self) -> None:
        """Resume the saved match; a save that can't be loaded is set aside and reported."""
        text = _stored(SAVE_KEY)
        if text is None:
            return
        from webui.session import Session

        try:
            self.session = Session.from_save_text(text)
        except ValueError as exc:
            set_aside(js.localStorage, SAVE_KEY, text, int(js.Date.now()), js.console.error)
            self.notice = t(self.lang, "notice.corrupt", reason=str(exc))

    def set_aside_unshown(self, exc: Exception) -> bool:
        """The screen could not be rendered (`exc`): set the match or the online room aside
        (its save kept, setaside.py) with a notice, so the setup shows instead and the next
        boot starts clean. False if there was nothing to set aside (the setup itself failed)."""
        js.console.error(f"render: {exc!r}")
        reason = f"{type(exc).__name__}: {exc}"
        if self.online_active:
            self.online.set_aside_unshown()
        elif self.session is not None:
            try:
                text = self.session.save_text()  # the match as it is now (the save may lag)
            except Exception:  # noqa: BLE001 - a match that can't be saved: keep the last save
                text = _stored(SAVE_KEY) or ""
            set_aside(js.localStorage, SAVE_KEY, text, int(js.Date.now()), js.console.error)
            self.session = self.hint = None
            self.confirm_abandon = False
        else:
            return False
        self.notice = t(self.lang, "notice.unshown", reason=reason)
        self._shown = None  # the screen may be half updated: it is written afresh
        return True

    # -- events ------------------------------------------------------------------------------

    def on_click(self, text: str) -> None:
        """The one click handler (dom.click_listener): carry out the data-action of the
        enabled button clicked; `text` is its data-* attributes as JSON."""
        self.last_input = js.performance.now()
        data = json.loads(text)
        action = data.pop("action")
        try:
            self.act(action, data)
        except Exception as exc:  # keep the page alive; say what broke
            js.console.error(f"{action}: {exc!r}")
            self.notice = t(self.lang, "error.engine", reason=str(exc))
        self.render()
        self.kick_bot()

    def on_key(self, event: Any) -> None:
        """Escape leaves the Rules page and closes the sabotage menu."""
        self.last_input = js.performance.now()
        if event.key != "Escape":
            return
        if self.rules_open:
            self.rules_open = False
        elif self.session is not None and self.session.ui.sabotage_menu:
            self.session.ui.sabotage_menu = False
        else:
            return
        self.render()

    def act(self, action: str, data: dict[str, str]) -> None:
        """Carry out one ``data-action``."""
        from webui.session import TABLE_ACTIONS

        if self.online_active and self.online.handle(action, data):
            return
        if action in TABLE_ACTIONS and self.session is not None:
            self.session.handle(action, data)
            self.save()
        elif action == "start":
            self.start()
        elif action == "hint":
            self.request_hint()
        elif action == "new-match":
            self.end_match()
        elif action == "abandon":
            self.confirm_abandon = True
        elif action == "abandon-yes":
            self.end_match()
        elif action == "abandon-no":
            self.confirm_abandon = False
        elif action == "rules":
            self.rules_open = True
        elif action == "rules-close":
            self.rules_open = False
        elif action == "lang":
            self.lang = "en" if self.lang == "es" else "es"
            js.localStorage.setItem(LANG_KEY, self.lang)
        elif action == "dismiss-notice":
            self.notice = None
        elif action == pwa.UPDATE_ACTION:
            pwa.apply_update()  # the page reloads on the new version; the save is kept

    # -- the match ---------------------------------------------------------------------------

    def form_values(self) -> dict[str, object]:
        """The setup form's current values (data-field and data-option controls)."""
        values: dict[str, object] = {}
        for name in ("name1", "name2"):
            field = _query(f'[data-field="{name}"]')
            values[name] = str(field.value) if field else ""
        rounds = _query('[data-option="rounds"]')
        values["rounds"] = str(rounds.value) if rounds else "3"
        starts = _query('[data-field="starts"]:checked')
        values["starts"] = str(starts.value) if starts else "0"
        mode = _query('[data-option="mode"]:checked')
        values["mode"] = str(mode.value) if mode else "local"
        opponent = _query('[data-option="opponent"]')
        values["opponent"] = str(opponent.value) if opponent else "human"
        from webui.setup import OPTION_FIELDS

        for key in OPTION_FIELDS:
            box = _query(f'[data-option="{key}"]')
            values[key] = bool(box and box.checked)
        return values

    def start(self) -> None:
        """Start a pass-and-play match from the setup form (online mode: open the lobby)."""
        from webui.botseat import OPPONENTS, BotMatch
        from webui.driver import LocalMatch
        from webui.session import Session
        from webui.setup import parse_setup

        values = self.form_values()
        setup = parse_setup(values, self.lang)
        if values["mode"] == "online":
            self.online.open_lobby(setup)
            return
        rng = random.SystemRandom()
        first = setup.first_player if setup.first_player is not None else rng.randrange(2)
        opponent = values["opponent"]
        if opponent not in OPPONENTS:
            raise ValueError(f"the opponent must be one of {', '.join(OPPONENTS)}")
        seat: LocalMatch | BotMatch
        if opponent == "human":
            seat = LocalMatch.new(setup.options, rng.randrange(2**31), first, setup.names)
        else:  # the human is player 1 (seat 0); the computer takes the second name
            names = (setup.names[0], t(self.lang, f"bot.name.{opponent}"))
            seat = BotMatch.new(setup.options, rng.randrange(2**31), first, names, str(opponent))
        self.session = Session(seat)
        self.confirm_abandon = False
        self.notice = None
        self.save()

    def end_match(self) -> None:
        """Forget the match (after the match end, or when abandoned) and show the setup."""
        js.localStorage.removeItem(SAVE_KEY)
        self.session = None
        self.hint = None
        self.confirm_abandon = False
        wait = _query("#setup-wait")
        if wait:
            wait.hidden = True

    # -- the computer opponent and hints ------------------------------------------------------

    def kick_bot(self) -> None:
        """Start the computer's turn if it is to move and not already thinking."""
        session = self.session
        if session is None or self.online_active or self.bot_task is not None:
            return
        from webui.botseat import BotMatch

        if isinstance(session.seat, BotMatch) and session.seat.bot_to_act():
            self.bot_task = asyncio.ensure_future(self._bot_turn(session, session.seat))

    async def _bot_turn(self, session: Session, seat: BotMatch) -> None:
        """Play the computer's moves, thinking in time slices, until it is not to move."""
        from webui.botseat import PACE, run_sliced

        try:
            while self.session is session and seat.bot_to_act():
                self.render()  # shows that it is thinking
                move = await run_sliced(seat.bot_steps(), pace=PACE)
                if self.session is not session:
                    break  # the match was left meanwhile
                seat.play_bot(move)
                self.save()
        except Exception as exc:  # keep the page alive; say what broke
            js.console.error(f"computer: {exc!r}")
            self.notice = t(self.lang, "error.engine", reason=str(exc))
        finally:
            self.bot_task = None
        self.render()
        self.kick_bot()  # a match started meanwhile may be waiting for its computer

    def thinking(self) -> bool:
        """Whether the computer is thinking about its move now."""
        session = self.session
        if self.bot_task is None or session is None:
            return False
        from webui.botseat import BotMatch

        return isinstance(session.seat, BotMatch) and session.seat.bot_to_act()

    def request_hint(self) -> None:
        """Ask the Hard bot what the player to act should do (computed in time slices)."""
        session = self.session
        if session is None or self.thinking():
            return
        view = session.view()
        if self.hint is not None and self.hint["view"] == view:
            return  # already shown, or being worked out
        self.hint = {"view": view, "move": None}
        asyncio.ensure_future(self._hint(session, view))

    async def _hint(self, session: Session, view: dict[str, Any]) -> None:
        from webui.botseat import run_sliced
        from webui.hint import hint_steps

        try:
            move = await run_sliced(hint_steps(view))
        except Exception as exc:
            js.console.error(f"hint: {exc!r}")
            move = None
        if self.session is session and self.hint is not None and self.hint["view"] == view:
            self.hint = None if move is None else {"view": view, "move": move}
            self.render()

    def save(self) -> None:
        """Save the match in the browser's storage (after every move) once the move is on
        screen: after the next paint, or at once when the page is hidden or left."""
        self._save_later.request()

    def _write_save(self) -> None:
        if self.session is None:
            return
        try:
            js.localStorage.setItem(SAVE_KEY, self.session.save_text())
        except Exception as exc:  # storage full or refused: keep playing, say so
            js.console.error(f"save: {exc!r}")
            self.notice = t(self.lang, "error.engine", reason=str(exc))
            self.render()

    # -- rendering ---------------------------------------------------------------------------

    def translate_static(self) -> None:
        """Put the current language into the static setup form (values untouched)."""
        js.document.documentElement.lang = self.lang
        for element in js.document.querySelectorAll("[data-i18n]"):
            element.textContent = t(self.lang, str(element.dataset.i18n))
        for element in js.document.querySelectorAll("[data-i18n-label]"):
            element.setAttribute("aria-label", t(self.lang, str(element.dataset.i18nLabel)))

    def _banners(self, screen: str) -> str:
        parts = []
        if self.notice:
            parts.append(el(
                "div", el("p", self.notice),
                button("dismiss-notice", t(self.lang, "notice.dismiss"), css="btn small"),
                class_="notice", role="alert"))
        if self.confirm_abandon and self.session is not None:
            parts.append(el(
                "div", el("p", t(self.lang, "abandon.confirm"), id="abandon-q"),
                button("abandon-yes", t(self.lang, "abandon.yes"), css="btn danger"),
                button("abandon-no", t(self.lang, "abandon.no"), css="btn primary"),
                class_="notice confirm", role="alertdialog", aria_labelledby="abandon-q"))
        parts.append(pwa.offer(self.lang, screen))
        return join(parts)

    def _changed(self, what: str, value: object) -> bool:
        """Whether `value` differs from what was last written for `what` (and remember it)."""
        if what in self._written and self._written[what] == value:
            return False
        self._written[what] = value
        return True

    def _session_doc(self, session: Session) -> tuple[str, str]:
        """(screen name, keyed HTML) of the match on this device."""
        from webui.hint import render_hint

        view, ui = session.view(), session.ui
        name = screen_name(view, ui)
        thinking = None
        if self.thinking():
            thinking = t(self.lang, "bot.thinking", name=view["names"][session.seat.bot])
        log_open = self._shown is not None and _query("#screen details.log[open]") is not None
        hint = render_hint(view, self.hint, self.lang) if name == "turn" else ""
        return name, render_doc(view, ui, self.lang, Extras(thinking, hint, log_open))

    def render(self) -> None:
        """Show the current screen: write only what changed, keep the keyboard focus. A match
        or room that can't be shown is set aside with a notice, and the setup shows instead."""
        try:
            self._render()
        except Exception as exc:
            if not self.set_aside_unshown(exc):
                raise
            self._render()

    def _render(self) -> None:
        if self._changed("lang", self.lang):
            self.translate_static()
        if self.online_active:
            name, doc = self.online.render(self.lang)
        elif self.session is None:
            name, doc = "setup", ""
        else:
            name, doc = self._session_doc(self.session)
        banners = self._banners(name)
        if self._changed("banners", banners):
            self._notice.innerHTML = banners
        new = parse(doc)
        ops = diff(self._shown, new)
        self._shown = new
        focus, kept = None, True
        if ops:
            found, focus, kept = self._patcher.apply(ops)
            if not found:  # the DOM was not what was shown: start afresh
                self._screen.innerHTML = new.html
        body = js.document.body
        before = str(body.dataset.screen or "")
        if name != before:
            body.dataset.screen = name
        thinking = self.thinking()
        if self._changed("thinking", thinking):
            body.toggleAttribute("data-thinking", thinking)
        rules = render_rules(self.lang) if self.rules_open else ""
        if self._changed("rules", rules):
            self._rules.innerHTML = rules
            self._rules.hidden = not self.rules_open
        if self._setup and self._changed("setup-hidden", self.rules_open or name != "setup"):
            self._setup.hidden = self.rules_open or name != "setup"
        if self._changed("screen-hidden", self.rules_open or name == "setup"):
            self._screen.hidden = self.rules_open or name == "setup"
        if self.confirm_abandon and self.session is not None:
            self._focus('[data-action="abandon-no"]')
        elif self.rules_open:
            self._focus('[data-action="rules-close"]')
        elif name != before:
            if not self._refocus(focus):
                self._announce()
        elif not kept:
            self._refocus(focus)  # the focused control was replaced: focus its twin

    def _announce(self) -> None:
        """A new screen: back to the top, focus on its heading (read out by screen readers)."""
        js.window.scrollTo(0, 0)
        heading = _present(self._screen.querySelector("h1"))
        if heading is not None:
            heading.setAttribute("tabindex", "-1")  # focusable by script
            heading.focus()

    def _refocus(self, selector: str | None) -> bool:
        """Focus the enabled, shown control matching `selector`; False if there is none."""
        if not selector:
            return False
        element = _query(f"#app {selector}")
        if element and not element.disabled and _present(element.closest("[hidden]")) is None:
            element.focus()
            return True
        return False

    def _focus(self, selector: str) -> None:
        element = _query(selector)
        if element:
            element.focus()



def start() -> Page:
    """The app on this page, booted (py/webui/main.py, the page's script, calls it once)."""
    page = Page()
    page.boot()
    return page
