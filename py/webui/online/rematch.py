"""The online rematch: what a page decides about asking for, being invited to and agreeing on
the next match in the same room, and the series the agreed match carries.

A room's matches are numbered; once a match ended, each player may ask for a rematch: the page
saves its request (the seat's ``asked``), then sends ``rematch`` (webui/online/control.py) with
its series (webui/match/series.py). The other page's request is ``heard``. Once a page has both,
it checks that the two series agree (`agreement`) and begins the next match with the agreed
series ``carried``: the same options and names, the player who did not start this match
starting (`next_setup`). A request of the wrong match, mid-match, or of another room's series
is refused (`refusal`), and nothing changes. A page left behind at a rematch by a dropped
connection is told the other page agreed (`consent`) before it is sent the new match.

The state itself (``asked``, ``heard``, ``carried``, ``rematch_refused``) is the seat's
(webui/online/seat.py `FairSeat`), which saves it (webui/online/save.py) and sends the messages;
these functions take what they need of it and change nothing.
"""

from __future__ import annotations

from webui.match.seats import Problem, View, problem
from webui.match.series import Series, read_rematch, rematch_payload, series_key
from webui.online import control
from webui.online.codes import HOST_SEAT
from webui.online.control import Control, MatchSetup


def room_series(view: View | None, setup: MatchSetup | None, carried: Series | None,
                match_no: int, *, mode: str, room: str) -> Series | None:
    """The room's series as a page counts it once match `match_no` (its `view`, `setup`)
    ended: the matches before it (`carried`) and this one. None before the end. A page that
    holds a later match without its series (it lost its save and began again from the welcome)
    knows none of it: its series is empty, and at the rematch it takes the host's."""
    if view is None or setup is None or view.get("phase") != "match-end":
        return None
    base = carried or Series(series_key(mode=mode, names=setup.names, options=setup.options,
                                        room=room))
    if carried is None and match_no > 1:
        return base
    return base.with_result(len(base.results) + 1, view["totals"])


def repeated(message: Control, match_no: int, carried: Series | None) -> bool:
    """Whether `message` is the other page's request for the match begun here, sent again
    (agreed already: nothing to do)."""
    return message.match == match_no - 1 and carried is not None


def refusal(message: Control, match_no: int, mine: Series | None,
            starting: bool) -> Problem | None:
    """Why the other page's rematch request `message` is refused on a page holding match
    `match_no` whose series is `mine` (None: not ended here); None if it is kept."""
    theirs = message.series
    assert theirs is not None
    if message.match != match_no or mine is None or starting:
        return (problem("rematch-mid-match") if mine is None else
                problem("rematch-other-match", match=str(message.match),
                        current=str(match_no)))
    if theirs.key != mine.key:
        return problem("rematch-other-series")
    return None


def agreement(heard: Series, asked: Series, seat: int) -> Series:
    """The series both pages agree on once both asked (`read_rematch`, the other page's
    request `heard`, this page's `asked`, this page's `seat`); ValueError if they differ."""
    return read_rematch(rematch_payload(heard), asked, sender_is_host=seat != HOST_SEAT)


def next_setup(setup: MatchSetup, first_player: int) -> MatchSetup:
    """The rematch's setup: the same options and names, the player who did not start the last
    match (`first_player`) starting."""
    return MatchSetup(setup.options, setup.names, 1 - first_player)


def consent(carried: Series | None, match: int, match_no: int) -> str | None:
    """What tells a page left behind after match `match` that this page (holding match
    `match_no`) agreed to the rematch it asked for (this page's `carried` series), or None."""
    if carried is None or match != match_no - 1:
        return None
    try:
        return control.rematch(match, carried)
    except ValueError:
        return None
