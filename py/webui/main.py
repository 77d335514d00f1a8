"""The page: one delegated click handler, the setup form, saving, and rendering into the DOM.

Everything it shows comes from a `Session` (a driver's view + the UI state); everything it
sends is a move JSON through that session. The setup form is plain HTML in index.html, so it
works while Python boots: its values are read when the match starts, never reset.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import create_proxy, jsnull  # type: ignore[import-not-found]

from webui import pwa
from webui.botseat import OPPONENTS, PACE, BotMatch, run_sliced
from webui.driver import LocalMatch
from webui.hint import hint_steps, render_hint
from webui.html import button, esc
from webui.i18n import pick_language, t
from webui.online.controller import OnlineController
from webui.screens import render_rules
from webui.session import TABLE_ACTIONS, Session
from webui.setup import OPTION_FIELDS, parse_setup
from webui.symbols import sprite

SAVE_KEY = "lostcities.match"
SET_ASIDE_KEY = "lostcities.match.set-aside"
LANG_KEY = "lostcities.lang"
FOCUS_KEYS = ("data-action", "data-card", "data-source", "data-colour", "data-job")


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


def _data_of(element: Any) -> dict[str, str]:
    """The element's ``data-*`` attributes without the prefix (``data-card`` -> ``card``)."""
    names = [str(n) for n in element.getAttributeNames()]
    return {n[5:]: str(element.getAttribute(n)) for n in names if n.startswith("data-")}


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
        self.online = OnlineController(self.render, self.render)  # lobby, room, online match

    # -- boot ------------------------------------------------------------------------------

    def boot(self) -> None:
        """Build the containers, resume a saved match, start a pending one, mark the page ready."""
        app = _query("#app")
        app.insertAdjacentHTML(
            "beforeend",
            f'{sprite()}<div id="notice"></div><div id="screen" hidden></div>'
            f'<div id="rules" hidden></div>',
        )
        js.document.addEventListener("click", self._proxies[0])
        js.document.addEventListener("keydown", self._proxies[1])
        pwa.on_update_ready(self.render)  # the offer appears between games (pwa.BETWEEN_GAMES)
        self.resume()
        self.online.resume(self.session is not None)  # a join link, or a saved room or seat
        if js.document.body.getAttribute("data-pending-start") == "true":
            js.document.body.removeAttribute("data-pending-start")
            if self.session is None:
                self.start()
        self.render()
        js.document.documentElement.dataset.ready = "true"
        self.kick_bot()  # a resumed match where the computer was to move goes on

    def resume(self) -> None:
        """Resume the saved match; a save that can't be loaded is set aside and reported."""
        text = _stored(SAVE_KEY)
        if text is None:
            return
        try:
            self.session = Session.from_save_text(text)
        except ValueError as exc:
            js.localStorage.setItem(SET_ASIDE_KEY, text)
            js.localStorage.removeItem(SAVE_KEY)
            self.notice = t(self.lang, "notice.corrupt", reason=str(exc))

    # -- events ------------------------------------------------------------------------------

    def on_click(self, event: Any) -> None:
        """The one click handler: read the button's data-action and carry it out."""
        closest = getattr(event.target, "closest", None)
        target = closest("[data-action]") if closest else None
        if target is None or target is jsnull or target.disabled:
            return
        data = _data_of(target)
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
        if self.online.active and self.online.handle(action, data):
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
        for key in OPTION_FIELDS:
            box = _query(f'[data-option="{key}"]')
            values[key] = bool(box and box.checked)
        return values

    def start(self) -> None:
        """Start a pass-and-play match from the setup form (online mode: open the lobby)."""
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

    # -- the computer opponent and hints (issue 7) ----------------------------------------------

    def kick_bot(self) -> None:
        """Start the computer's turn if it is to move and not already thinking."""
        session = self.session
        if session is None or self.online.active or self.bot_task is not None:
            return
        if isinstance(session.seat, BotMatch) and session.seat.bot_to_act():
            self.bot_task = asyncio.ensure_future(self._bot_turn(session, session.seat))

    async def _bot_turn(self, session: Session, seat: BotMatch) -> None:
        """Play the computer's moves, thinking in time slices, until it is not to move."""
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
        return (self.bot_task is not None and session is not None
                and isinstance(session.seat, BotMatch) and session.seat.bot_to_act())

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
        try:
            move = await run_sliced(hint_steps(view))
        except Exception as exc:
            js.console.error(f"hint: {exc!r}")
            move = None
        if self.session is session and self.hint is not None and self.hint["view"] == view:
            self.hint = None if move is None else {"view": view, "move": move}
            self.render()

    def save(self) -> None:
        """Save the match in the browser's storage (after every move)."""
        if self.session is not None:
            js.localStorage.setItem(SAVE_KEY, self.session.save_text())

    # -- rendering ---------------------------------------------------------------------------

    def translate_static(self) -> None:
        """Put the current language into the static setup form (values untouched)."""
        js.document.documentElement.lang = self.lang
        for element in js.document.querySelectorAll("[data-i18n]"):
            element.textContent = t(self.lang, str(element.dataset.i18n))
        for element in js.document.querySelectorAll("[data-i18n-label]"):
            element.setAttribute("aria-label", t(self.lang, str(element.dataset.i18nLabel)))

    def _banners(self) -> str:
        parts = []
        if self.notice:
            parts.append(
                f'<div class="notice" role="alert"><p>{esc(self.notice)}</p>'
                f'{button("dismiss-notice", esc(t(self.lang, "notice.dismiss")), css="btn small")}'
                f"</div>"
            )
        if self.confirm_abandon and self.session is not None:
            parts.append(
                f'<div class="notice confirm" role="alertdialog" aria-labelledby="abandon-q">'
                f'<p id="abandon-q">{esc(t(self.lang, "abandon.confirm"))}</p>'
                f'{button("abandon-yes", esc(t(self.lang, "abandon.yes")), css="btn danger")}'
                f'{button("abandon-no", esc(t(self.lang, "abandon.no")), css="btn primary")}'
                f"</div>"
            )
        screen = "setup" if self.session is None else self.session.screen()
        parts.append(pwa.offer(self.lang, screen))
        return "".join(parts)

    def render(self) -> None:
        """Show the current screen, keeping keyboard focus on the same control when it stays."""
        focus = self._focus_key()
        self.translate_static()
        setup, screen, rules = _query("#setup"), _query("#screen"), _query("#rules")
        _query("#notice").innerHTML = self._banners()
        body = js.document.body
        before = str(body.dataset.screen or "")
        if self.online.active:
            name, html = self.online.render(self.lang)
            screen.innerHTML = html
        elif self.session is None:
            name = "setup"
            screen.innerHTML = ""
        else:
            log_open = _query("#screen details.log[open]") is not None
            name, html = self.session.render(self.lang)
            screen.innerHTML = html
            self._bot_bits(name, log_open)
        body.dataset.screen = name
        body.toggleAttribute("data-thinking", self.thinking())
        heading = _present(screen.querySelector("h1"))
        if heading is not None:  # focusable by script, so a new screen can be announced
            heading.setAttribute("tabindex", "-1")
        rules.innerHTML = render_rules(self.lang) if self.rules_open else ""
        rules.hidden = not self.rules_open
        if setup:
            setup.hidden = self.rules_open or name != "setup"
        screen.hidden = self.rules_open or name == "setup"
        if self.confirm_abandon and self.session is not None:
            self._focus('[data-action="abandon-no"]')
        elif self.rules_open:
            self._focus('[data-action="rules-close"]')
        elif not self._refocus(focus) and name != before:
            js.window.scrollTo(0, 0)
            if heading is not None:
                heading.focus()

    def _bot_bits(self, name: str, log_open: bool) -> None:
        """After the table is drawn: the thinking indicator, the hint, the log kept open."""
        session = self.session
        if session is None:
            return
        if log_open:
            log = _query("#screen details.log")
            if log:
                log.open = True
        status = _query("#screen #why")
        if self.thinking() and status:
            names = session.view()["names"]
            status.textContent = t(self.lang, "bot.thinking", name=names[session.seat.bot])
            status.classList.add("thinking")
        area = _query("#screen .hand-area")
        if name == "turn" and area:
            area.insertAdjacentHTML("beforeend", render_hint(session.view(), self.hint,
                                                             self.lang))

    def _focus_key(self) -> dict[str, str] | None:
        active = js.document.activeElement
        if active is None or active is jsnull or not hasattr(active, "getAttribute"):
            return None
        if not active.hasAttribute("data-action"):
            return None
        return {k: str(active.getAttribute(k)) for k in FOCUS_KEYS if active.getAttribute(k)}

    def _refocus(self, key: dict[str, str] | None) -> bool:
        if not key:
            return False
        selector = "".join(f'[{k}="{v}"]' for k, v in key.items())
        element = _query(f"#app {selector}")
        if element and not element.disabled and _present(element.closest("[hidden]")) is None:
            element.focus()
            return True
        return False

    def _focus(self, selector: str) -> None:
        element = _query(selector)
        if element:
            element.focus()


PAGE = Page()
PAGE.boot()
