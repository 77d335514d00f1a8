"""The screens around the table: hand-off, jobs, round end, match end, rules, and the log.

`screen_name(view, ui)` decides which screen a view shows; `render_screen` builds its HTML, and
`render_doc` the same with its keyed regions marked (regions.py), for the page to update only
what changed.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from webui.cards import card_name, colour_name
from webui.html import attrs, button, card_span, el, esc
from webui.i18n import RULES_SECTIONS, t
from webui.moves import has_type, is_legal
from webui.regions import keyed, plain
from webui.symbols import icon
from webui.table import Extras, mixup_announcement, render_table, top_bar
from webui.uistate import UiState

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


def _log_item(index: int, event: dict[str, Any], names: tuple[str, ...], lang: str) -> str:
    """The log's item `index` (made once: the log grows by one line a move)."""
    try:
        return _log_item_of(index, tuple(event.items()), names, lang)
    except TypeError:  # something unhashable in a peer's view: made, not kept
        return _log_item_of.__wrapped__(index, tuple(event.items()), names, lang)


@lru_cache(maxsize=512)
def _log_item_of(index: int, event: tuple[tuple[str, Any], ...], names: tuple[str, ...],
                 lang: str) -> str:
    line = log_line({"names": names}, dict(event), lang)
    return keyed(f"event-{index}", f"<li>{esc(line)}</li>")


def render_log(view: View, lang: str, open_: bool = False) -> str:
    """The move log, newest first, in a ``<details>`` (folded away unless `open_`)."""
    events = [e for e in (view.get("log") or []) if isinstance(e, dict)]
    first = max(len(events) - LOG_LINES, 0)
    names = tuple(view["names"])
    items = "".join(_log_item(i, events[i], names, lang)
                    for i in reversed(range(first, len(events))))
    body = (keyed("events", f"<ol>{items}</ol>") if items
            else f'<p>{esc(t(lang, "log.empty"))}</p>')
    return keyed("log", f'<details class="log"{" open" if open_ else ""}><summary>'
                        f'{esc(t(lang, "log.heading"))}</summary>{body}</details>')


def _jobs_reveal(view: View, lang: str) -> str:
    jobs = view.get("jobs") or [None, None]
    if not view["options"].get("jobs") or None in jobs:
        return ""
    items = "".join(
        f'<li data-job="{esc(jobs[p])}"><b>{esc(view["names"][p])}</b>: '
        f'{esc(t(lang, f"job.{jobs[p]}"))} <span>{esc(t(lang, f"job.{jobs[p]}.hint"))}</span></li>'
        for p in (0, 1)
    )
    return (f'<section class="reveal"><h2>{esc(t(lang, "jobs.reveal"))}</h2>'
            f"<ul>{items}</ul></section>")


def render_handoff(view: View, ui: UiState, lang: str) -> str:
    """The hand-off screen: both hands hidden until the next player taps Ready."""
    to_act = view.get("to_act")
    name = view["names"][to_act] if to_act is not None else ""
    events = [e for e in (view.get("log") or []) if isinstance(e, dict)]
    last = ""
    if events:
        last = (f'<p class="last">'
                f'{esc(t(lang, "handoff.last", event=log_line(view, events[-1], lang)))}</p>')
    reveal = _jobs_reveal(view, lang) if to_act is not None and to_act not in ui.jobs_seen else ""
    news = mixup_announcement(view, lang, dismiss=False) if view.get("mixup") and (
        to_act not in ui.mixup_seen) else ""
    ready = button("ready", esc(t(lang, "handoff.ready")), css="btn primary big",
                   aria_label=t(lang, "handoff.ready.label", name=name))
    return (
        top_bar(view, lang)
        + '<div class="centre handoff">'
        + f'<h1 tabindex="-1">{esc(t(lang, "handoff.pass", name=name))}</h1>'
        + f'<p>{esc(t(lang, "handoff.hint", name=name))}</p>'
        + ready + last + reveal + news + "</div>"
    )


def render_jobs(view: View, lang: str) -> str:
    """The private job offer: two jobs, pick one."""
    me = view["player"]
    offers = view.get("job_offer") or []
    cards = "".join(
        el("button",
           f'<b>{esc(t(lang, f"job.{job}"))}</b><span>{esc(t(lang, f"job.{job}.hint"))}</span>',
           type="button", class_="job-card", data_action="pick-job", data_job=job,
           disabled=not is_legal(view, {"type": "pick-job", "job": job}))
        for job in offers
    )
    return (
        top_bar(view, lang)
        + '<div class="centre jobs">'
        + f'<h1 tabindex="-1">{esc(t(lang, "jobs.heading", name=view["names"][me]))}</h1>'
        + f'<p>{esc(t(lang, "jobs.hint"))}</p><div class="job-offer">{cards}</div></div>'
    )


def _breakdown(view: View, player: int, lang: str) -> str:
    data = (view.get("breakdown") or [{}, {}])[player] or {}
    exps: dict[str, Any] = data.get("expeditions") or {}
    name = view["names"][player]
    rows = []
    for colour in view["colours"]:
        cards = view["expeditions"][player].get(colour, [])
        row = exps.get(colour) or {}
        chips = "".join(card_span(c, lang, "chip") for c in cards) or "—"
        zone = attrs(class_="exp-cards", data_zone="expedition", data_player=player,
                     data_colour=colour)
        label = colour_name(lang, colour, True).capitalize()
        if cards:
            cells = (f'<td>{row.get("sum", 0)}</td><td>−{row.get("cost", 0)}</td>'
                     f'<td>×{row.get("multiplier", 1)}</td><td>+{row.get("bonus", 0)}</td>')
        else:
            cells = "<td></td>" * 4
        rows.append(
            f'<tr class="c-{colour}"><th scope="row"><span class="visually-hidden">{esc(label)}'
            f'</span><div{zone}>{icon(colour, "sym row-sym")}{chips}</div></th>{cells}'
            + el("td", str(row.get("score", 0)), class_="sc", data_breakdown_score=True,
                 data_player=player, data_colour=colour)
            + "</tr>"
        )
    head = "".join(
        f'<th scope="col">{esc(t(lang, k))}</th>'
        for k in ("breakdown.colour", "breakdown.sum", "breakdown.cost",
                  "breakdown.multiplier", "breakdown.bonus", "breakdown.score")
    )
    objectives = data.get("objectives") or []
    obj_items = "".join(
        f'<li data-objective="{esc(o.get("id"))}" class="{"yes" if o.get("achieved") else "no"}">'
        f'{esc(t(lang, "objective." + str(o.get("id"))))}: '
        f'{esc(t(lang, "breakdown.achieved" if o.get("achieved") else "breakdown.missed"))} '
        f'<b>+{o.get("points", 0)}</b></li>'
        for o in objectives
    )
    obj_html = ""
    if view["options"].get("objectives"):
        obj_html = (f'<div class="obj-result"><h3>{esc(t(lang, "breakdown.objectives"))}</h3>'
                    f'<ul>{obj_items or esc(t(lang, "breakdown.none"))}</ul></div>')
    totals = view.get("totals") or [0, 0]
    caption = t(lang, "breakdown.caption", name=name, round=view["round"])
    jobs = view.get("jobs") or [None, None]
    job = (f' <span class="badge job" data-job="{esc(jobs[player])}">'
           f'{esc(t(lang, "job." + str(jobs[player])))}</span>') if jobs[player] else ""
    return (
        f'<section class="breakdown" data-player="{player}">'
        f'<h2>{esc(name)}{job}</h2>'
        f'<table><caption class="visually-hidden">{esc(caption)}</caption>'
        f"<thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>{obj_html}"
        f'<p class="sums">{esc(t(lang, "breakdown.round"))} '
        f'<b{attrs(data_round_score=True, data_player=player)}>{data.get("total", 0)}</b>'
        f' · {esc(t(lang, "breakdown.total"))} '
        f'<b{attrs(data_total=True, data_player=player)}>{totals[player]}</b></p></section>'
    )


def _mixup_note(view: View, lang: str) -> str:
    mixup = view.get("mixup")
    if not mixup:
        return ""
    return (f'<p class="mixup-card" data-mixup="{esc(mixup)}"><b>{esc(t(lang, "mixup.label"))}: '
            f'{esc(t(lang, f"mixup.{mixup}"))}</b> {esc(t(lang, f"mixup.{mixup}.hint"))}</p>')


def render_round_end(view: View, lang: str, log_open: bool = False) -> str:
    """Each expedition's breakdown for both players, the round scores and the totals."""
    next_ok = has_type(view, "next-round")
    return (
        top_bar_plain(view, lang)
        + '<div class="centre results">'
        + f'<h1 tabindex="-1">{esc(t(lang, "roundend.heading", round=view["round"]))}</h1>'
        + _mixup_note(view, lang)
        + '<div class="breakdowns">' + _breakdown(view, 0, lang) + _breakdown(view, 1, lang)
        + "</div>"
        + button("next-round", esc(t(lang, "roundend.next")), disabled=not next_ok,
                 css="btn primary big")
        + render_log(view, lang, log_open) + "</div>"
    )


def render_match_end(view: View, lang: str, log_open: bool = False) -> str:
    """The winner (or a draw), the totals round by round, and Play again."""
    names = view["names"]
    winner = view.get("winner")
    title = (t(lang, "matchend.draw") if winner == "draw" or winner is None
             else t(lang, "matchend.winner", name=names[winner]))
    rounds = view.get("round_scores") or []
    rows = "".join(
        f'<tr><th scope="row">{i}</th><td>{r[0]}</td><td>{r[1]}</td></tr>'
        for i, r in enumerate(rounds, start=1)
    )
    totals = view.get("totals") or [0, 0]
    table = (
        f'<table class="rounds"><caption>{esc(t(lang, "matchend.rounds"))}</caption>'
        f'<thead><tr><th scope="col">#</th><th scope="col">{esc(names[0])}</th>'
        f'<th scope="col">{esc(names[1])}</th></tr></thead><tbody>{rows}</tbody>'
        f'<tfoot><tr><th scope="row">{esc(t(lang, "breakdown.total"))}</th>'
        f'<td class="final">{totals[0]}</td><td class="final">{totals[1]}</td></tr></tfoot></table>'
    )
    return (
        top_bar_plain(view, lang)
        + '<div class="centre results">'
        + f'<h1 class="winner" data-winner="{esc(winner)}" tabindex="-1">{esc(title)}</h1>'
        + f'<p class="final-line">{esc(names[0])} <b>{totals[0]}</b> · '
        + f'{esc(names[1])} <b>{totals[1]}</b></p>'
        + table
        + button("new-match", esc(t(lang, "matchend.again")), css="btn primary big")
        + f'<h2>{esc(t(lang, "roundend.heading", round=view["round"]))}</h2>'
        + _mixup_note(view, lang)
        + '<div class="breakdowns">' + _breakdown(view, 0, lang) + _breakdown(view, 1, lang)
        + "</div>" + render_log(view, lang, log_open) + "</div>"
    )


def top_bar_plain(view: View, lang: str) -> str:
    """The top bar of the result screens (the totals are shown in the breakdowns instead)."""
    return top_bar({**view, "round_scores": []}, lang)


def render_rules(lang: str) -> str:
    """The Rules page, in a player's words, with the credits of docs/rules.md §7."""
    sections = "".join(
        f'<h2>{esc(t(lang, heading))}</h2>' + "".join(f"<p>{esc(t(lang, p))}</p>" for p in paras)
        for heading, paras in RULES_SECTIONS
    )
    return (
        f'<article class="rules-page"><p class="rules-top">'
        f'{button("rules-close", "← " + esc(t(lang, "rules.close")), css="btn small ghost")}</p>'
        f'<h1>{esc(t(lang, "rules.heading"))}</h1>{sections}'
        f'{button("rules-close", esc(t(lang, "rules.close")), css="btn primary")}</article>'
    )


def render_doc(view: View, ui: UiState, lang: str, extras: Extras = Extras()) -> str:
    """The screen `screen_name(view, ui)` names, with its regions marked (regions.py)."""
    name = screen_name(view, ui)
    if name == "round-end":
        return render_round_end(view, lang, extras.log_open)
    if name == "match-end":
        return render_match_end(view, lang, extras.log_open)
    if name == "handoff":
        return render_handoff(view, ui, lang)
    if name == "jobs":
        return render_jobs(view, lang)
    return render_table(view, ui, lang, render_log(view, lang, extras.log_open), extras)


def render_screen(view: View, ui: UiState, lang: str) -> str:
    """The HTML of the screen `screen_name(view, ui)` names."""
    return plain(render_doc(view, ui, lang))
