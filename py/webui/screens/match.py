"""The screens around the table: hand-off, jobs, round end, match end, rules, and the log.

`screen_name(view, ui)` decides which screen a view shows; `render_screen` builds its HTML, and
`render_doc` the same with its keyed regions marked (regions.py), for the page to update only
what changed.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from webui.kernel.regions import plain
from webui.kernel.uistate import UiState
from webui.screens.html import EMPTY, Markup, button, card_span, el, icon, join, region
from webui.screens.table import Extras, mixup_announcement, mixup_line, render_table, top_bar
from webui.text.cards import card_name, colour_name
from webui.text.i18n import RULES_SECTIONS, t, worded_name
from webui.text.moves import has_type, is_legal

View = dict[str, Any]

LOG_LINES = 40


def screen_name(view: View, ui: UiState) -> str:
    """The ``data-screen`` for this view: jobs, handoff, turn, round-end or match-end."""
    phase = view.get("phase")
    if phase == "round-end":
        return "round-end"
    if phase == "match-end":
        return "match-end"
    if ui.handoff:
        return "handoff"
    return "jobs" if phase == "jobs" else "turn"


def log_line(view: View, event: dict[str, Any], lang: str) -> str:
    """One public event of the log in words."""
    names = view["names"]
    player = event.get("player")
    name = names[player] if player in (0, 1) else ""
    kind = event.get("type")
    card = event.get("card")
    cname = card_name(lang, card) if isinstance(card, str) else ""
    if kind in ("play", "discard") and cname:
        return t(lang, f"log.{kind}", name=name, card=cname)
    if kind == "draw":
        source = event.get("source")
        if source == "deck":
            return (t(lang, "log.draw.deck.card", name=name, card=cname) if cname
                    else t(lang, "log.draw.deck", name=name))
        if isinstance(source, str) and len(source) == 1:
            colour = colour_name(lang, source, True)
            return (t(lang, "log.draw.pile", name=name, card=cname, colour=colour) if cname
                    else t(lang, "log.draw.pile.nocard", name=name, colour=colour))
    if kind == "sabotage" and isinstance(event.get("colour"), str):
        return t(lang, "log.sabotage", name=name, colour=colour_name(lang, event["colour"], True))
    if kind in ("undo", "radio", "airlift", "pick-job"):
        return t(lang, f"log.{kind}", name=name)
    if kind == "next-round":
        return t(lang, "log.next-round")
    if kind == "mixup" and isinstance(event.get("mixup"), str):
        return t(lang, "log.mixup", mixup=t(lang, f"mixup.{event['mixup']}"))
    return t(lang, "log.other", name=name, type=kind)


@lru_cache(maxsize=512)
def _log_item(index: int, event: tuple[tuple[str, Any], ...], names: tuple[str, ...],
              lang: str) -> Markup:
    """The log's item `index`, from the event's items (made once: the log grows by one line a
    move; a view's events hold only text, numbers and null: lostcities.viewcheck)."""
    line = log_line({"names": names}, dict(event), lang)
    return region(f"event-{index}", el("li", line))


def render_log(view: View, lang: str, open_: bool = False) -> Markup:
    """The move log, newest first, in a ``<details>`` (folded away unless `open_`)."""
    events = [e for e in (view.get("log") or []) if isinstance(e, dict)]
    first = max(len(events) - LOG_LINES, 0)
    names = tuple(view["names"])
    items = join(_log_item(i, tuple(events[i].items()), names, lang)
                 for i in reversed(range(first, len(events))))
    body = region("events", el("ol", items)) if items else el("p", t(lang, "log.empty"))
    return region("log", el("details", el("summary", t(lang, "log.heading")), body,
                            class_="log", open=open_))


def _jobs_reveal(view: View, lang: str) -> Markup:
    jobs = view.get("jobs") or [None, None]
    if not view["options"].get("jobs") or None in jobs:
        return EMPTY
    items = join(
        el("li", el("b", view["names"][p]), ": ", t(lang, f"job.{jobs[p]}"), " ",
           el("span", t(lang, f"job.{jobs[p]}.hint")), data_job=jobs[p])
        for p in (0, 1)
    )
    return el("section", el("h2", t(lang, "jobs.reveal")), el("ul", items), class_="reveal")


def last_turn(view: View) -> list[dict[str, Any]]:
    """The log's last turn: the trailing events of the player who moved last (a play or
    discard and its draw, with any undo or skill between), or the last event alone when no
    player made it (a new round)."""
    events = [e for e in (view.get("log") or []) if isinstance(e, dict)]
    if not events:
        return []
    player = events[-1].get("player")
    start = len(events) - 1
    while player in (0, 1) and start > 0 and events[start - 1].get("player") == player:
        start -= 1
    return events[start:]


def render_handoff(view: View, ui: UiState, lang: str) -> Markup:
    """The hand-off screen: both hands hidden until the next player taps Ready."""
    to_act = view.get("to_act")
    name = view["names"][to_act] if to_act is not None else ""
    turn = last_turn(view)
    last = EMPTY
    if turn:
        last = el("section", el("h2", t(lang, "handoff.last")),
                  el("ul", join(el("li", log_line(view, event, lang)) for event in turn)),
                  class_="last")
    reveal = (_jobs_reveal(view, lang) if to_act is not None and to_act not in ui.jobs_seen
              else EMPTY)
    news = mixup_announcement(view, lang, dismiss=False) if view.get("mixup") and (
        to_act not in ui.mixup_seen) else EMPTY
    ready = button("ready", t(lang, "handoff.ready"), css="btn primary big",
                   aria_label=t(lang, "handoff.ready.label", name=name))
    return top_bar(view, lang) + el(
        "div", el("h1", t(lang, "handoff.pass", name=name), tabindex="-1"),
        el("p", t(lang, "handoff.hint", name=name)), ready, last, reveal, news,
        class_="centre handoff")


def render_jobs(view: View, lang: str, abandon: bool = True) -> Markup:
    """The private job offer: two jobs, pick one (`abandon`: `Extras.abandon`)."""
    me = view["player"]
    offers = view.get("job_offer") or []
    cards = join(
        el("button", el("b", t(lang, f"job.{job}")), el("span", t(lang, f"job.{job}.hint")),
           type="button", class_="job-card", data_action="pick-job", data_job=job,
           disabled=not is_legal(view, {"type": "pick-job", "job": job}))
        for job in offers
    )
    return top_bar(view, lang, abandon) + el(
        "div", el("h1", t(lang, "jobs.heading", name=view["names"][me]), tabindex="-1"),
        el("p", t(lang, "jobs.hint")), el("div", cards, class_="job-offer"),
        class_="centre jobs")


def _breakdown(view: View, player: int, lang: str) -> Markup:
    data = (view.get("breakdown") or [{}, {}])[player] or {}
    exps: dict[str, Any] = data.get("expeditions") or {}
    name = view["names"][player]
    rows = []
    for colour in view["colours"]:
        cards = view["expeditions"][player].get(colour, [])
        row = exps.get(colour) or {}
        chips = join(card_span(c, lang, "chip") for c in cards) or "—"
        label = colour_name(lang, colour, True).capitalize()
        if cards:
            cells = join((el("td", row.get("sum", 0)), el("td", "−", row.get("cost", 0)),
                          el("td", "×", row.get("multiplier", 1)),
                          el("td", "+", row.get("bonus", 0))))
        else:
            cells = join([_EMPTY_CELL] * 4)
        rows.append(el(
            "tr",
            el("th", el("span", label, class_="visually-hidden"),
               el("div", icon(colour, "sym row-sym"), chips, class_="exp-cards",
                  data_zone="expedition", data_player=player, data_colour=colour),
               scope="row"),
            cells,
            el("td", row.get("score", 0), class_="sc", data_breakdown_score=True,
               data_player=player, data_colour=colour),
            class_=f"c-{colour}"))
    head = join(
        el("th", t(lang, k), scope="col")
        for k in ("breakdown.colour", "breakdown.sum", "breakdown.cost",
                  "breakdown.multiplier", "breakdown.bonus", "breakdown.score")
    )
    objectives = data.get("objectives") or []
    obj_items = join(
        el("li", t(lang, "objective." + str(o.get("id"))), ": ",
           t(lang, "breakdown.achieved" if o.get("achieved") else "breakdown.missed"), " ",
           el("b", "+", o.get("points", 0)),
           data_objective=o.get("id"), class_="yes" if o.get("achieved") else "no")
        for o in objectives
    )
    obj_html = EMPTY
    if view["options"].get("objectives"):
        obj_html = el("div", el("h3", t(lang, "breakdown.objectives")),
                      el("ul", obj_items or t(lang, "breakdown.none")), class_="obj-result")
    totals = view.get("totals") or [0, 0]
    caption = t(lang, "breakdown.caption", name=name, round=view["round"])
    jobs = view.get("jobs") or [None, None]
    job = join((" ", el("span", t(lang, "job." + str(jobs[player])), class_="badge job",
                        data_job=jobs[player]))) if jobs[player] else EMPTY
    table = el("table", el("caption", caption, class_="visually-hidden"),
               el("thead", el("tr", head)), el("tbody", *rows))
    sums = el("p", t(lang, "breakdown.round"), " ",
              el("b", data.get("total", 0), data_round_score=True, data_player=player),
              " · ", t(lang, "breakdown.total"), " ",
              el("b", totals[player], data_total=True, data_player=player), class_="sums")
    return el("section", el("h2", name, job), table, obj_html, sums, class_="breakdown",
              data_player=player)


_EMPTY_CELL = el("td")


def _mixup_note(view: View, lang: str) -> Markup:
    mixup = view.get("mixup")
    return mixup_line("p", mixup, lang) if mixup else EMPTY


def render_round_end(view: View, lang: str, log_open: bool = False,
                     abandon: bool = True) -> Markup:
    """Each expedition's breakdown for both players, the round scores and the totals
    (`abandon`: `Extras.abandon`)."""
    next_ok = has_type(view, "next-round")
    return top_bar_plain(view, lang, abandon) + el(
        "div", el("h1", t(lang, "roundend.heading", round=view["round"]), tabindex="-1"),
        _mixup_note(view, lang),
        el("div", _breakdown(view, 0, lang), _breakdown(view, 1, lang), class_="breakdowns"),
        button("next-round", t(lang, "roundend.next"), disabled=not next_ok,
               css="btn primary big"),
        render_log(view, lang, log_open), class_="centre results")


def render_match_end(view: View, lang: str, log_open: bool = False,
                     more: Markup = EMPTY) -> Markup:
    """The winner (or a draw), the totals round by round, what plugged features add (`more`:
    the series, Play again, Replay, Stats) and New match."""
    names = view["names"]
    winner = view.get("winner")
    title = (t(lang, "matchend.draw") if winner == "draw" or winner is None
             else t(lang, "matchend.winner", name=names[winner]))
    rounds = view.get("round_scores") or []
    rows = join(
        el("tr", el("th", i, scope="row"), el("td", r[0]), el("td", r[1]))
        for i, r in enumerate(rounds, start=1)
    )
    totals = view.get("totals") or [0, 0]
    table = el(
        "table", el("caption", t(lang, "matchend.rounds")),
        el("thead", el("tr", el("th", "#", scope="col"), el("th", names[0], scope="col"),
                       el("th", names[1], scope="col"))),
        el("tbody", rows),
        el("tfoot", el("tr", el("th", t(lang, "breakdown.total"), scope="row"),
                       el("td", totals[0], class_="final"), el("td", totals[1], class_="final"))),
        class_="rounds")
    final_line = el("p", names[0], " ", el("b", totals[0]), " · ", names[1], " ",
                    el("b", totals[1]), class_="final-line")
    return top_bar_plain(view, lang) + el(
        "div", el("h1", title, class_="winner", data_winner=winner, tabindex="-1"),
        final_line, region("more", el("div", more, class_="more") if more else EMPTY), table,
        button("new-match", t(lang, "matchend.new"), css="btn big" if more else "btn primary big"),
        el("h2", t(lang, "roundend.heading", round=view["round"])),
        _mixup_note(view, lang),
        el("div", _breakdown(view, 0, lang), _breakdown(view, 1, lang), class_="breakdowns"),
        render_log(view, lang, log_open), class_="centre results")


def top_bar_plain(view: View, lang: str, abandon: bool = True) -> Markup:
    """The top bar of the result screens (the totals are shown in the breakdowns instead)."""
    return top_bar({**view, "round_scores": []}, lang, abandon)


def render_rules(lang: str) -> Markup:
    """The Rules page, in a player's words, with the credits of docs/rules.md §7."""
    sections = join(
        el("h2", t(lang, heading)) + join(el("p", t(lang, p)) for p in paras)
        for heading, paras in RULES_SECTIONS
    )
    return el(
        "article",
        el("p", button("rules-close", "← " + t(lang, "rules.close"), css="btn small ghost"),
           class_="rules-top"),
        el("h1", t(lang, "rules.heading")), sections,
        button("rules-close", t(lang, "rules.close"), css="btn primary"), class_="rules-page")


def worded_names(view: View, lang: str) -> View:
    """`view` with its players' names as shown in `lang` (`worded_name`)."""
    names = [worded_name(str(n), lang) for n in view.get("names") or []]
    return view if names == view.get("names") else {**view, "names": names}


def render_doc(view: View, ui: UiState, lang: str, extras: Extras = Extras()) -> Markup:
    """The screen `screen_name(view, ui)` names, with its regions marked (regions.py)."""
    view = worded_names(view, lang)
    name = screen_name(view, ui)
    if name == "round-end":
        return render_round_end(view, lang, extras.log_open, extras.abandon)
    if name == "match-end":
        return render_match_end(view, lang, extras.log_open, extras.more)
    if name == "handoff":
        return render_handoff(view, ui, lang)
    if name == "jobs":
        return render_jobs(view, lang, extras.abandon)
    events = [e for e in (view.get("log") or []) if isinstance(e, dict)]
    last = log_line(view, events[-1], lang) if events else ""
    return render_table(view, ui, lang, render_log(view, lang, extras.log_open), extras, last)


def render_screen(view: View, ui: UiState, lang: str) -> str:
    """The HTML of the screen `screen_name(view, ui)` names."""
    return plain(render_doc(view, ui, lang))
