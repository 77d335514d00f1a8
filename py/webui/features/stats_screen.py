"""The Stats screen's HTML (``body[data-screen="stats"]``): results per opponent, records,
a chart of the last matches' margins (inline SVG), and the history's export and import.

Hooks: ``[data-stat][data-opponent]`` cells hold a number as their text (``data-stat`` one of
played, won, lost, drawn; ``data-opponent`` one of easy, medium, hard, human, online);
``[data-action="export-stats"]``, ``input[data-field="import-stats"]``,
``[data-action="stats-close"]``; ``[data-record]`` the records; ``svg[data-chart="margins"]``
with one ``rect[data-margin]`` per match; ``li[data-match]`` the matches kept, newest first,
each with its ``[data-action="replay"][data-record]``.
"""

from __future__ import annotations

from collections.abc import Sequence

from webui.features.history import MatchRecord, Notice
from webui.features.stats import OPPONENTS, RESULTS, ExpeditionFact, Margin, Stats
from webui.screens.html import EMPTY, Markup, button, card_span, el, join, void
from webui.text.cards import colour_name
from webui.text.player_text import t

CHART_WIDTH, CHART_HEIGHT, CHART_PAD = 300, 140, 16
"""The chart's box (its viewBox), and the room above and below the bars for their values."""
AXIS_WIDTH = 34
"""The room left of the bars for the axis and its labels."""
MATCHES_LISTED = 30


def notice_text(notice: Notice, lang: str) -> str:
    """What a history `Notice` says to the player."""
    return t(lang, f"history.notice.{notice.code}", count=notice.count)


def _decimal(value: float, lang: str) -> str:
    text = f"{value:.1f}"
    return text.replace(".", ",") if lang == "es" else text


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value).replace("-", "−")


COLUMNS = (*RESULTS, "winrate")
"""The table's columns after the opponent's: each has its word and, for narrow screens, its
short form (``stats.short.<column>``), which the key under the table spells out."""


def _column_head(column: str, lang: str) -> Markup:
    """A column's header: its word, or on a narrow screen its short form (app.css); named by
    the word either way."""
    word = t(lang, f"stats.{column}")
    return el("th", el("span", word, class_="col-word"),
              el("span", t(lang, f"stats.short.{column}"), class_="col-short"),
              scope="col", aria_label=word)


def _short_key(lang: str) -> Markup:
    """What the short column heads stand for, shown only with them (app.css)."""
    return el("p", join((f"{t(lang, f'stats.short.{c}')}: {t(lang, f'stats.{c}').lower()}"
                         for c in COLUMNS), " · "), class_="stats-key", aria_hidden="true")


def _results_table(stats: Stats, lang: str) -> Markup:
    head = el("tr", el("th", t(lang, "stats.opponent"), scope="col"),
              *(_column_head(column, lang) for column in COLUMNS))
    rows = []
    for opponent in OPPONENTS:
        tally = stats.tally(opponent)
        rate = tally.win_rate
        rows.append(el(
            "tr", el("th", t(lang, f"stats.opp.{opponent}"), scope="row"),
            *(el("td", tally.count(r), data_stat=r, data_opponent=opponent) for r in RESULTS),
            el("td", "—" if rate is None else f"{round(rate * 100)}%", data_winrate=True,
               data_opponent=opponent),
            data_opponent_row=opponent))
    total = stats.total
    foot = el("tr", el("th", t(lang, "stats.all"), scope="row"),
              *(el("td", total.count(r), data_total_stat=r) for r in RESULTS),
              el("td", "—" if total.win_rate is None else f"{round(total.win_rate * 100)}%"))
    return join((el("table", el("caption", t(lang, "stats.results")), el("thead", head),
                     el("tbody", *rows), el("tfoot", foot), class_="stats-table"),
                  _short_key(lang)))


def _expedition(fact: ExpeditionFact | None, key: str, lang: str) -> Markup:
    if fact is None:
        return el("dd", t(lang, "stats.none"), data_record=key)
    words = t(lang, "stats.expedition", colour=colour_name(lang, fact.colour, True).capitalize(),
              cards=len(fact.cards), score=fact.score, round=fact.round, date=fact.date[:10])
    chips = el("span", join(card_span(c, lang, "chip") for c in fact.cards),
               class_="exp-cards", aria_hidden="true")
    return el("dd", el("span", words), " ", chips, data_record=key, data_cards=len(fact.cards),
              data_score=fact.score, data_colour=fact.colour, class_=f"c-{fact.colour}")


def _records(stats: Stats, lang: str) -> Markup:
    best = stats.best_round
    average = stats.average_round
    return el("section", el("h2", t(lang, "stats.records")), el(
        "dl",
        el("dt", t(lang, "stats.best")),
        el("dd", t(lang, "stats.none") if best is None else best, data_record="best-round"),
        el("dt", t(lang, "stats.average")),
        el("dd", t(lang, "stats.none") if average is None else _decimal(average, lang),
           data_record="average-round"),
        el("dt", t(lang, "stats.longest")), _expedition(stats.longest, "longest", lang),
        el("dt", t(lang, "stats.highest")), _expedition(stats.highest, "highest", lang),
        class_="records"), class_="stats-records")


def _margin_text(margin: Margin, lang: str) -> str:
    return t(lang, "stats.margin", date=margin.date[:10], margin=_signed(margin.margin),
             result=t(lang, f"stats.result.{margin.result}"))


def margins_chart(margins: tuple[Margin, ...], lang: str) -> Markup:
    """An inline SVG bar chart of the margins (oldest left; wins up, losses down), each bar
    with its value and its own title, beside an axis marked at the largest margin, 0 and its
    negative; EMPTY when there are none."""
    if not margins:
        return EMPTY
    slot = (CHART_WIDTH - AXIS_WIDTH) / len(margins)
    middle = CHART_HEIGHT / 2
    top_margin = max(1, max(abs(m.margin) for m in margins))
    scale = (middle - CHART_PAD) / top_margin
    marks = []
    for i, margin in enumerate(margins):
        size = max(abs(margin.margin) * scale, 1.0)
        top = middle - size if margin.margin > 0 else middle if margin.margin < 0 else (
            middle - size / 2)
        x = AXIS_WIDTH + i * slot
        marks.append(el("rect", el("title", _margin_text(margin, lang)),
                        x=f"{x + slot * 0.15:.1f}", y=f"{top:.1f}",
                        width=f"{slot * 0.7:.1f}", height=f"{size:.1f}",
                        class_=f"bar {margin.result}", data_margin=margin.margin))
        under = margin.margin < 0
        marks.append(el("text", _signed(margin.margin), x=f"{x + slot / 2:.1f}",
                        y=f"{top + size + 11 if under else top - 3:.1f}", class_="value",
                        text_anchor="middle", data_value=margin.margin, aria_hidden="true"))
    axis = [el("line", x1=AXIS_WIDTH, y1=CHART_PAD, x2=AXIS_WIDTH,
               y2=CHART_HEIGHT - CHART_PAD, class_="axis"),
            el("line", x1=AXIS_WIDTH, y1=f"{middle:.1f}", x2=CHART_WIDTH, y2=f"{middle:.1f}",
               class_="zero")]
    for value, y in ((top_margin, CHART_PAD), (0, middle), (-top_margin, CHART_HEIGHT - CHART_PAD)):
        axis.append(el("text", _signed(value), x=AXIS_WIDTH - 4, y=f"{y + 4:.1f}", class_="tick",
                       text_anchor="end", data_tick=value, aria_hidden="true"))
    label = t(lang, "stats.margins.label",
              list="; ".join(_margin_text(m, lang) for m in margins))
    return el("svg", el("title", label), *axis, *marks,
              viewBox=f"0 0 {CHART_WIDTH} {CHART_HEIGHT}", role="img", aria_label=label,
              class_="margins-chart", data_chart="margins")


def _file_part(lang: str) -> Markup:
    picker = el("label", t(lang, "stats.import"), " ",
                void("input", type="file", accept="application/json,.json",
                     data_field="import-stats"), class_="btn file-btn")
    return el("section", el("h2", t(lang, "stats.file")),
              el("p", button("export-stats", t(lang, "stats.export")), " ", picker),
              class_="stats-file")


def _opponent(record: MatchRecord, lang: str) -> str:
    """Who this device's player played: the computer's level, else the other's name."""
    if record.mode == "computer":
        return t(lang, f"stats.opp.{record.opponent}")
    return record.names[1 - record.me]


def _matches(records: Sequence[MatchRecord], lang: str) -> Markup:
    """The newest `MATCHES_LISTED` matches, newest first, each with its Replay if it has one."""
    if not records:
        return EMPTY
    items = []
    for record in reversed(records[-MATCHES_LISTED:]):
        mine, theirs = record.totals[record.me], record.totals[1 - record.me]
        words = t(lang, "history.match", date=record.date[:10], mine=mine, theirs=theirs,
                  opponent=_opponent(record, lang),
                  result=t(lang, f"stats.result.{record.result}"))
        replay = EMPTY if record.replay is None else button(
            "replay", t(lang, "history.replay"), css="btn small", record=record.id,
            aria_label=t(lang, "history.replay.label", date=record.date[:10]))
        items.append(el("li", el("span", words), " ", replay, data_match=record.id,
                        class_=record.result))
    older = len(records) - MATCHES_LISTED
    more = el("p", t(lang, "history.more", count=older), class_="hint") if older > 0 else EMPTY
    return el("section", el("h2", t(lang, "history.heading")), el("ol", *items), more,
              class_="stats-matches")


def render_stats(stats: Stats, lang: str, notice: Notice | None = None,
                 message: str | None = None, records: Sequence[MatchRecord] = ()) -> Markup:
    """The Stats screen; `notice` (from loading or importing the history) and `message` (e.g.
    how many matches an import added) are shown at the top; `records` (oldest first) are
    listed, newest first, with a Replay button each (``[data-action="replay"]`` with
    ``data-record``)."""
    notes = join(el("p", text, class_="notice", role="status")
                 for text in (notice_text(notice, lang) if notice else None, message) if text)
    empty = EMPTY if stats.total.played else el("p", t(lang, "stats.empty"), class_="hint")
    chart = EMPTY
    if stats.margins:
        chart = el("section", el("h2", t(lang, "stats.margins")),
                   el("p", t(lang, "stats.margins.hint"), class_="hint"),
                   margins_chart(stats.margins, lang), class_="stats-chart")
    close = button("stats-close", "← " + t(lang, "stats.close"), css="btn small ghost")
    return el("article", el("p", close, class_="rules-top"),
              el("h1", t(lang, "stats.heading"), tabindex="-1"), notes, empty,
              _results_table(stats, lang), _records(stats, lang), chart,
              _matches(records, lang), _file_part(lang),
              class_="stats-page", data_stats=stats.total.played)
