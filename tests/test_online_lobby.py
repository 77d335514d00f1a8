"""The online lobby natively (webui/online/lobby.py): the browser it needs is a stand-in
(`FakeBrowser`, its broker in memory), so a room is opened, its waiting room shown, and two
lobbies meet and start their match without a browser."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from controllerkit import FORM, MemoryPage, MemoryStorage, booted, page_of, run, until
from fairseats import GROUP, Connection
from tablocks import MemoryLocks
from test_online_screens import Tags
from webui.match.controller import MatchController
from webui.online.codes import GUEST_KEY, HOST_KEY, join_link, without_join_link
from webui.online.guest import FairGuest
from webui.online.host import FairHost
from webui.online.lobby import OnlineLobby
from webui.online.seatlock import Locks
from webui.text.i18n import t

PAGE_URL = "https://lostcities.example/"
CONFIG = {"peer": {"host": "broker.example", "port": 443, "path": "/", "secure": True},
          "iceServers": []}


class FakeRoom:
    """A room on the fake broker (`RoomNet`): registered when the test says so."""

    def __init__(self, code: str, on_room: Callable[[str], None]) -> None:
        self.code = code
        self.status: str | None = None
        self.host: FairHost | None = None
        self.closed = False
        self._on_room = on_room

    def register(self) -> None:
        """The broker took the room's peer id."""
        self._on_room(self.code)

    def close(self, delay: float = 0.0) -> None:
        self.closed = True


class FakeDial:
    """A guest's transport: one in-memory connection to the room's host, if there is one."""

    def __init__(self, room: FakeRoom | None, guest: FairGuest) -> None:
        self.status: str | None = None if room is not None else "noroom"
        self.connection = None
        if room is not None and room.host is not None:
            self.connection = Connection(room.host, guest)
            self.connection.deliver()

    def close(self, delay: float = 0.0) -> None:
        if self.connection is not None:
            self.connection.cut()


class FakeBroker:
    """The broker both fake browsers reach: its rooms by code."""

    def __init__(self) -> None:
        self.rooms: dict[str, FakeRoom] = {}


class FakeBrowser:
    """The browser as the lobby sees it (`LobbyBrowser`), in memory."""

    def __init__(self, broker: FakeBroker | None = None, locks: Locks | None = None,
                 search: str = "") -> None:
        self.broker = broker or FakeBroker()
        self.shared_locks = locks or MemoryLocks()
        self.search = search
        self.fields: dict[str, str] = {}
        self.is_online = True
        self.broker_up = True
        self.config_error: str | None = None
        self.copied: list[str] = []
        self.probed: list[str] = []
        self.warnings: list[str] = []
        self.dials: list[FakeDial] = []
        self.qr_drawn: list[str] = []

    def href(self) -> str:
        return PAGE_URL + self.search

    def query(self) -> str:
        return self.search

    def forget_link(self) -> None:
        self.search = without_join_link(self.search)

    def field(self, name: str) -> str:
        return self.fields.get(name, "")

    def online(self) -> bool:
        return self.is_online

    def can_share(self) -> bool:
        return False

    def share(self, title: str, url: str, text: str) -> None:
        raise AssertionError("no share sheet here")

    def copy(self, text: str) -> None:
        self.copied.append(text)

    async def config(self) -> dict[str, Any]:
        if self.config_error is not None:
            raise RuntimeError(self.config_error)
        return json.loads(json.dumps(CONFIG))

    async def load_libraries(self) -> None:
        pass

    async def reachable(self, url: str) -> bool:
        self.probed.append(url)
        return self.broker_up

    def qr_matrix(self, text: str) -> list[list[bool]]:
        self.qr_drawn.append(text)
        return [[True, False], [False, True]]

    def open_room(self, config: dict[str, Any], code: str, fresh: bool,
                  on_room: Callable[[str], None], on_change: Callable[[], None]) -> FakeRoom:
        room = FakeRoom(code, on_room)
        self.broker.rooms[code] = room
        return room

    def dial(self, config: dict[str, Any], guest: FairGuest,
             on_change: Callable[[], None]) -> FakeDial:
        dial = FakeDial(self.broker.rooms.get(guest.code), guest)
        self.dials.append(dial)
        return dial

    def group(self) -> Any:
        return GROUP

    def locks(self) -> Locks:
        return self.shared_locks

    def next_task(self, job: Callable[[], None]) -> None:
        job()  # (tests/test_fair_seats.py runs the seats' tasks in later turns)

    def warn(self, text: str) -> None:
        self.warnings.append(text)


def online_page(browser: FakeBrowser, storage: MemoryStorage | None = None,
                name: str = "Ana") -> tuple[MatchController, OnlineLobby, MemoryPage]:
    """A page with the lobby plugged in, its setup form on online play."""
    page = MemoryPage({**FORM, "mode": "online", "name1": name})
    controller = booted(storage or MemoryStorage(), page)
    lobby = OnlineLobby(controller, browser)
    controller.plug(lobby)
    return controller, lobby, page


async def hosted_room(broker: FakeBroker) -> tuple[MatchController, FakeRoom]:
    """A host's page that opened a room on `broker` (registered there)."""
    controller, _, _ = online_page(FakeBrowser(broker))
    controller.click("start", {})
    controller.click("create-room", {})
    await until(lambda: bool(broker.rooms))
    (room,) = broker.rooms.values()
    room.register()
    return controller, room


def test_the_lobby_imports_the_join_links_parts_after_its_paint(
        monkeypatch: pytest.MonkeyPatch) -> None:
    loaded: list[str] = []
    monkeypatch.setattr("webui.online.lobby.load_link_parts", lambda: loaded.append("link"))

    async def scenario() -> None:
        browser = FakeBrowser()
        controller, _, page = online_page(browser)
        controller.click("start", {})
        assert page.shown.screen == "lobby" and loaded == []  # not in the click's task
        page.paint()
        assert loaded == ["link"]  # in a task after the lobby's paint, before a room opens
        await until(lambda: bool(browser.probed))

    run(scenario)


def test_a_room_opens_and_its_waiting_room_shows_its_code_link_and_qr() -> None:
    async def scenario() -> None:
        browser = FakeBrowser()
        storage = MemoryStorage()
        controller, lobby, page = online_page(browser, storage)
        controller.click("start", {})
        assert page.shown.screen == "lobby" and lobby.setup is not None
        await until(lambda: bool(browser.probed))
        assert browser.probed == ["https://broker.example:443/"]
        controller.click("create-room", {})
        await until(lambda: bool(browser.broker.rooms))
        (room,) = browser.broker.rooms.values()
        assert page.shown.screen == "waiting" and Tags(page.shown.doc).find(data_role="host")
        room.register()
        host = lobby.seat
        assert isinstance(host, FairHost) and room.host is host and host.code == room.code
        assert host.transport is room and controller.session is not None
        tags = Tags(page.shown.doc)
        link = join_link(PAGE_URL, room.code, "Ana")
        assert page.shown.screen == "waiting" and tags.find(data_room_code=room.code)
        assert tags.find(href=link) and "<svg" not in page.shown.doc  # drawn after the paint
        page.paint()  # the controller saves after the paint
        assert "<svg" in page.shown.doc
        for _ in range(3):  # (the waiting room renders again every second)
            controller.render()
        assert browser.qr_drawn == [link] and "<svg" in page.shown.doc  # drawn once
        assert json.loads(storage.items[HOST_KEY])["code"] == room.code
        controller.click("copy-link", {})
        assert browser.copied == [link]
        controller.click("leave-room", {})
        assert page.shown.screen == "setup" and HOST_KEY not in storage.items

    run(scenario)


def test_a_join_link_opens_a_join_screen_with_one_way_in_and_hosting_a_click_away() -> None:
    async def scenario() -> None:
        broker = FakeBroker()
        host_controller, room = await hosted_room(broker)
        link = join_link(PAGE_URL, room.code, "<b>Ana</b>")
        browser = FakeBrowser(broker, search="?" + link.split("?", 1)[1])
        controller, lobby, page = online_page(browser, name="")
        assert lobby.resume()
        controller.render()
        tags = Tags(page.shown.doc)
        assert page.shown.screen == "lobby" and tags.find(data_lobby="join")
        assert "Join &lt;b&gt;Ana&lt;/b&gt;" in page.shown.doc
        assert "<b>Ana</b>" not in page.shown.doc
        assert [a["data-action"] for a in tags.find(class_="btn primary big")] == ["join-room"]
        assert not tags.find(data_action="create-room")
        assert tags.find(data_field="room-code", value=room.code)
        controller.click("lobby-host", {})  # hosting is a click away
        tags = Tags(page.shown.doc)
        assert tags.find(data_action="create-room") and not tags.find(data_lobby="join")
        controller.click("leave-room", {})
        assert browser.search == ""  # the link is left with the lobby: a reload shows the setup
        assert not lobby.resume()
        browser.search = "?" + link.split("?", 1)[1]  # the link opened again
        assert lobby.resume()
        browser.fields = {"room-code": room.code, "guest-name": "Ben"}
        controller.click("join-room", {})
        await until(lambda: lobby.seat is not None and lobby.seat.transport is not None)
        assert host_controller.session is not None
        controller.render()
        assert browser.search.startswith("?room=")  # in the room, a reload comes back to it
        controller.click("leave-room", {})
        controller.click("abandon-yes", {})  # leaving the match for good
        assert browser.search == "" and controller.session is None
        assert not lobby.resume()

    run(scenario)


def test_two_lobbies_meet_and_their_match_starts() -> None:
    async def scenario() -> None:
        broker = FakeBroker()
        host_controller, room = await hosted_room(broker)
        guest_browser = FakeBrowser(broker)
        guest_controller, guest_lobby, guest_page = online_page(guest_browser, name="Ben")
        guest_controller.click("start", {})
        guest_browser.fields = {"room-code": room.code.lower(), "guest-name": "Ben"}
        guest_controller.click("join-room", {})
        await until(lambda: bool(guest_browser.dials))
        guest = guest_lobby.seat
        assert isinstance(guest, FairGuest) and guest.code == room.code
        assert guest.transport is guest_browser.dials[0]
        for controller in (host_controller, guest_controller):
            controller.render()
            assert page_of(controller).shown.screen in ("jobs", "turn", "handoff")
            session = controller.session
            assert session is not None and session.view()["names"] == ["Ana", "Ben"]
        guest_page.paint()
        saved = guest_controller.storage.getItem(GUEST_KEY)
        assert isinstance(saved, str) and json.loads(saved)["code"] == room.code

    run(scenario)


@pytest.mark.parametrize("how", ["typed code", "join link", "resume"])
def test_a_seat_another_tab_runs_shows_as_elsewhere_until_taken_over(how: str) -> None:
    async def scenario() -> None:
        broker = FakeBroker()
        _, room = await hosted_room(broker)
        storage, locks = MemoryStorage(), MemoryLocks()  # one browser, two tabs
        tabs, browsers = [], []
        for _ in range(2):
            browser = FakeBrowser(broker, locks)
            browsers.append(browser)
            tab = online_page(browser, storage, "Ben")
            tab[0].click("start", {})
            browser.fields = {"room-code": room.code, "guest-name": "Ben"}
            tabs.append(tab)
        first, second = tabs
        first[0].click("join-room", {})
        await until(lambda: first[1].seat is not None and first[1].seat.transport is not None)
        first[2].paint()  # the guest's seat saved
        if how == "typed code":
            second[0].click("join-room", {})
        else:  # the second tab opened on the join link, or on the page itself
            browsers[1].search = f"?room={room.code}" if how == "join link" else ""
            assert second[1].resume()
            second[0].render()
        assert second[2].shown.screen == "elsewhere" and second[1].seat is None
        assert Tags(second[2].shown.doc).find(data_tab="elsewhere")
        second[0].click("take-over", {})
        await until(lambda: second[1].seat is not None)
        first[0].render()
        assert Tags(first[2].shown.doc).find(data_tab="moved")
        assert first[0].session is None

    run(scenario)


def test_the_lobby_says_why_it_cannot_go_online() -> None:
    async def scenario() -> None:
        browser = FakeBrowser()
        browser.is_online, browser.broker_up = False, False
        controller, lobby, page = online_page(browser)
        controller.click("start", {})
        assert t("en", "lobby.offline") in page.shown.doc
        browser.is_online = True
        await until(lambda: lobby.broker_ok is False)
        controller.render()
        assert "The game server (broker.example:443)" in page.shown.doc

    run(scenario)


def test_a_malformed_config_is_said_and_no_room_opens() -> None:
    async def scenario() -> None:
        browser = FakeBrowser()
        browser.config_error = "Lost Cities config: no broker"
        controller, lobby, page = online_page(browser)
        controller.click("start", {})
        controller.click("create-room", {})
        await until(lambda: lobby.error is not None)
        controller.render()
        assert page.shown.screen == "lobby" and "Lost Cities config: no broker" in page.shown.doc
        assert browser.broker.rooms == {} and browser.probed == []

    run(scenario)
