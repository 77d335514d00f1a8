"""The Stats screen's HTML: its hooks hold the statistics' numbers, its chart draws the
margins, everything shown is escaped; and the catalogue of the new screens' words."""

from __future__ import annotations

import string
from html.parser import HTMLParser

import pytest

from lostcities import Options
from test_history import ALL_ON, play_match, record_of
from webui.features.history import MatchRecord, Notice
from webui.features.stats import OPPONENTS, RESULTS, Margin, Stats, compute_stats
from webui.features.stats_screen import (CHART_HEIGHT, COLUMNS, margins_chart, notice_text,
                                         render_stats)
from webui.text import i18n
from webui.text.player_text import MESSAGES, t


class Page(HTMLParser):
    """Every element's tag, attributes and own text, in document order."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.elements: list[tuple[str, dict[str, str | None], list[str]]] = []
        self.open: list[int] = []
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append((tag, dict(attrs), []))
        if tag not in ("input", "br", "img"):
            self.open.append(len(self.elements) - 1)

    def handle_endtag(self, tag: str) -> None:
        while self.open:
            index = self.open.pop()
            if self.elements[index][0] == tag:
                break

    def handle_data(self, data: str) -> None:
        for index in self.open:
            self.elements[index][2].append(data)

    def find(self, tag: str | None = None, **want: str | None) -> list[tuple[
            str, dict[str, str | None], str]]:
        """Elements of `tag` whose attributes include `want` (keys with - for _)."""
        wanted = {k.rstrip("_").replace("_", "-"): v for k, v in want.items()}
        return [(tg, a, "".join(text)) for tg, a, text in self.elements
                if (tag is None or tg == tag)
                and all(k in a and (v is None or a[k] == v) for k, v in wanted.items())]


def records() -> list[MatchRecord]:
    plan = [("computer", "easy", 1), ("computer", "hard", 1), ("pass-and-play", None, 1),
            ("online", None, 1), ("computer", "easy", 0)]
    return [record_of(play_match(ALL_ON if i == 1 else Options(rounds=1), 200 + i), me=me,
                      mode=mode, level=level, date=f"2026-11-{20 + i}T09:00:00Z")
            for i, (mode, level, me) in enumerate(plan)]


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_hooks_hold_the_statistics(lang: str) -> None:
    stats = compute_stats(records())
    page = Page(render_stats(stats, lang))
    cells = page.find(data_stat=None, data_opponent=None)
    assert len(cells) == len(OPPONENTS) * len(RESULTS)
    for _, attrs, text in cells:
        opponent, stat = attrs["data-opponent"], attrs["data-stat"]
        assert opponent in OPPONENTS and stat in RESULTS
        assert text == str(stats.tally(opponent).count(stat))
    assert sum(int(text) for _, a, text in cells if a["data-stat"] == "played") == 5
    assert stats.total.won and stats.total.lost  # both kinds of result are shown
    (best,) = page.find(data_record="best-round")
    assert best[2] == str(stats.best_round)
    (longest,) = page.find(data_record="longest")
    assert stats.longest is not None
    assert longest[1]["data-cards"] == str(len(stats.longest.cards))
    assert longest[1]["data-score"] == str(stats.longest.score)
    (highest,) = page.find(data_record="highest")
    assert stats.highest is not None and highest[1]["data-score"] == str(stats.highest.score)
    assert page.find("button", data_action="export-stats")
    (picker,) = page.find("input", data_field="import-stats")
    assert picker[1]["type"] == "file"
    assert page.find("button", data_action="stats-close")


@pytest.mark.parametrize("lang", ["en", "es"])
def test_each_result_column_has_a_short_head_that_the_key_spells_out(lang: str) -> None:
    page = Page(render_stats(compute_stats(records()), lang))
    heads = [attrs for tag, attrs, _ in page.find("th", scope="col")][1:]  # after Opponent
    words = [t(lang, f"stats.{column}") for column in COLUMNS]
    assert [attrs["aria-label"] for attrs in heads] == words  # named by the word either way
    assert [text for _, _, text in page.find("span", class_="col-word")] == words
    shorts = [text for _, _, text in page.find("span", class_="col-short")]
    assert len(set(shorts)) == len(COLUMNS) and all(len(short) <= 2 for short in shorts)
    ((_, key_attrs, key),) = page.find("p", class_="stats-key")
    assert key_attrs["aria-hidden"] == "true"
    assert key.split(" · ") == [f"{short}: {word.lower()}" for short, word in zip(shorts, words)]


def test_the_chart_draws_each_margin_up_or_down() -> None:
    stats = compute_stats(records())
    page = Page(render_stats(stats, "en"))
    (svg,) = page.find("svg", data_chart="margins")
    assert svg[1]["role"] == "img" and svg[1]["aria-label"]
    bars = page.find("rect", data_margin=None)
    assert [int(a["data-margin"] or "") for _, a, _ in bars] == [m.margin for m in stats.margins]
    middle = CHART_HEIGHT / 2
    xs = []
    for _, attrs, title in bars:
        margin = int(attrs["data-margin"] or "")
        top, height = float(attrs["y"] or ""), float(attrs["height"] or "")
        if margin > 0:
            assert top + height == pytest.approx(middle) and top < middle
        elif margin < 0:
            assert top == pytest.approx(middle) and height > 0
        assert title  # each bar says its match
        xs.append(float(attrs["x"] or ""))
    assert xs == sorted(xs)


def test_bigger_margins_draw_taller_bars() -> None:
    margins = tuple(Margin(str(i), "2026-12-01T00:00:00Z", "easy", m, "won" if m > 0 else
                           "lost" if m < 0 else "drawn") for i, m in enumerate([10, -40, 0, 80]))
    page = Page(margins_chart(margins, "en"))
    heights = [float(a["height"] or "") for _, a, _ in page.find("rect")]
    assert heights[3] > heights[1] > heights[0] > 0 and heights[2] > 0
    assert heights[3] == pytest.approx(2 * heights[1])
    assert margins_chart((), "en") == ""


def test_each_bar_says_its_value_beside_an_axis_of_the_largest_margin() -> None:
    margins = tuple(Margin(str(i), "2026-12-01T00:00:00Z", "easy", m, "won" if m > 0 else
                           "lost" if m < 0 else "drawn") for i, m in enumerate([12, -45, 0]))
    page = Page(margins_chart(margins, "en"))
    values = page.find("text", data_value=None)
    assert [text for _, _, text in values] == ["+12", "−45", "0"]
    bars = page.find("rect")
    for (_, bar, _), (_, value, _) in zip(bars, values):  # over a win, under a loss
        top, height, y = float(bar["y"] or ""), float(bar["height"] or ""), float(value["y"] or "")
        assert (y < top) if int(bar["data-margin"] or "") >= 0 else (y > top + height)
    assert [text for _, _, text in page.find("text", data_tick=None)] == ["+45", "0", "−45"]


def test_no_matches_yet() -> None:
    page = Page(render_stats(compute_stats([]), "en"))
    assert {text for _, _, text in page.find(data_stat=None, data_opponent=None)} == {"0"}
    assert not page.find("svg")
    assert t("en", "stats.empty") in "".join(text for _, _, text in page.find("p"))


def test_notices_and_messages_are_shown_escaped() -> None:
    stats = compute_stats([])
    html = render_stats(stats, "es", Notice("records-set-aside", 3), "<b>7</b> & más")
    page = Page(html)
    notes = [text for _, _, text in page.find("p", class_="notice")]
    assert notes == [t("es", "history.notice.records-set-aside", count=3), "<b>7</b> & más"]
    assert "<b>7</b>" not in html
    assert notice_text(Notice("history-set-aside", 1), "en") == t(
        "en", "history.notice.history-set-aside", count=1)


def test_the_words_differ_by_language() -> None:
    stats = compute_stats(records())
    english, spanish = render_stats(stats, "en"), render_stats(stats, "es")
    assert t("en", "stats.heading") in english and t("es", "stats.heading") in spanish
    assert english != spanish


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_new_message_has_both_languages_and_its_own_key() -> None:
    for key, (english, spanish) in MESSAGES.items():
        assert english.strip() and spanish.strip(), key
        assert _fields(english) == _fields(spanish), key
        assert key not in i18n.MESSAGES, key
    assert t("es", "job.surveyor") == i18n.t("es", "job.surveyor")  # the shared words
    with pytest.raises(KeyError):
        t("en", "no.such.key")


def test_stats_totals_add_up() -> None:
    stats: Stats = compute_stats(records())
    total = stats.total
    assert total.played == total.won + total.lost + total.drawn == 5
