"""What the player's features add to the match-end screen: the series score and where an
online rematch stands (HTML builders, from what the seat says: `Players` decides when they
show)."""

from __future__ import annotations

from collections.abc import Sequence

from webui.match.seats import Seat
from webui.match.series import Series
from webui.screens.html import EMPTY, Markup, el, join
from webui.screens.online import problem_text
from webui.text.player_text import t


def series_html(series: Series, names: Sequence[str], lang: str) -> Markup:
    """The series score for the match-end screen: ``[data-series][data-player]`` holds the
    matches that seat won."""
    drawn, left = series.drawn, len(series.abandoned)
    extra = join((el("span", " · ", t(lang, "series.drawn", count=drawn)) if drawn else EMPTY,
                  el("span", " · ", t(lang, "series.abandoned", count=left)) if left
                  else EMPTY))
    return el("p", el("span", t(lang, "series.label"), ": "), names[0], " ",
              el("b", series.wins(0), data_series=True, data_player=0), " – ",
              el("b", series.wins(1), data_series=True, data_player=1), " ", names[1], extra,
              class_="series", data_series_matches=len(series.results))


def rematch_html(seat: Seat, lang: str, now: float) -> Markup:
    """Where a rematch agreed with the other page stands at `now` (the page's clock):
    ``[data-rematch]`` is ``asked`` (this player asked, the other has not answered),
    ``invited`` (the other player asked) or ``starting`` (both agreed: the next match is being
    dealt); a host that left for good, and a refused rematch message, are said. EMPTY for a
    match with nobody on another page."""
    remote = seat.remote(now)
    name = remote.opponent if remote is not None and remote.opponent else t(
        lang, "status.opponent")
    away = remote is None or remote.state != "connected" or remote.host_away is not None
    state = seat.rematch_state()
    if state == "starting":
        text = t(lang, "rematch.starting")
    elif state == "asked":
        text = t(lang, "rematch.asked", name=name)
        if away:
            text += " " + t(lang, "rematch.away")
    elif state == "invited":
        text = t(lang, "rematch.invited", name=name)
    else:
        text = ""
    if remote is not None and remote.host_away == "left" and state != "starting":
        state, text = None, t(lang, "rematch.left", name=name)
    refused = seat.rematch_refused
    return join((
        el("p", text, class_="rematch", data_rematch=state, role="status") if text
        else EMPTY,
        el("p", t(lang, "rematch.refused", reason=problem_text(lang, refused)),
           class_="rematch-refused", role="alert") if refused else EMPTY))
