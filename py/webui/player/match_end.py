"""What the player's features add to the match-end screen: the series score and where an
online rematch stands (HTML builders; `Players` decides when they show)."""

from __future__ import annotations

from collections.abc import Sequence

from webui.features.series import Series
from webui.online.guest import FairGuest
from webui.online.seat import FairSeat
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


def rematch_html(seat: FairSeat, lang: str, now: float) -> Markup:
    """Where an online rematch stands at `now` (the page's clock): ``[data-rematch]`` is
    ``asked`` (this player asked, the other has not answered), ``invited`` (the other player
    asked) or ``starting`` (both agreed: the next match is being dealt); a refused rematch
    message is said."""
    remote = seat.remote(now)
    name = remote.opponent if remote is not None and remote.opponent else t(
        lang, "status.opponent")
    away = remote is None or remote.state != "connected" or remote.host_away is not None
    if seat.starting:
        state, text = "starting", t(lang, "rematch.starting")
    elif seat.asked is not None:
        state, text = "asked", t(lang, "rematch.asked", name=name)
        if away:
            text += " " + t(lang, "rematch.away")
    elif seat.heard is not None and seat.may_rematch():
        state, text = "invited", t(lang, "rematch.invited", name=name)
    else:
        state, text = None, ""
    if isinstance(seat, FairGuest) and seat.host_away == "left" and not seat.starting:
        state, text = None, t(lang, "rematch.left", name=name)
    refused = seat.rematch_refused
    return join((
        el("p", text, class_="rematch", data_rematch=state, role="status") if text
        else EMPTY,
        el("p", t(lang, "rematch.refused", reason=problem_text(lang, refused)),
           class_="rematch-refused", role="alert") if refused else EMPTY))
