"""The table screen: opponent above, piles and deck in the middle, you and your hand below.

`render_table(view, ui, lang, log_html, extras)` turns one player's view (architecture.md) and
the UI state into HTML. It offers only the moves listed in the view and says why the others are
not offered. Its parts are keyed regions (regions.py), so that the page replaces only the parts
that changed: a card picked in the hand is two cards, the status line and the action buttons.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from collections.abc import Mapping
from typing import Any

from webui.kernel.uistate import UiState
from webui.screens.html import (
    EMPTY, Markup, button, card_inner, card_span, el, html, icon, join, region,
)
from webui.text.cards import card_name, colour_name, parse_card, sort_hand
from webui.text.i18n import t
from webui.text.moves import (
    draw_block_reason, has_type, is_legal, legal, play_block_reason, refusal_text,
)

View = dict[str, Any]


@dataclass(frozen=True)
class Extras:
    """What the page shows on the table besides the view and the UI state."""

    thinking: str | None = None  # the status line while the computer thinks
    hint: Markup = EMPTY  # the hint button and suggestion (hint.render_hint)
    log_open: bool = False  # the move log is unfolded
    more: Markup = EMPTY
    """What plugged features add (controller.add_part): on the table under its heading, on
    the match-end screen under the final scores."""
    pointing: Mapping[str, Any] | None = None
    """The move the seat points its player at (the guide's step: `Seat.pointing`): what it
    asks for is lit on the table (class ``guided``)."""
    abandon: bool = True
    """Whether the bar offers Abandon before the match's end: not once an online match has
    stopped (`Seat.match_on`), where the connection badge's Leave room is the way out."""


def fresh_card(view: View) -> str | None:
    """The card the last public event moved (to animate it), if any."""
    log = view.get("log") or []
    if not log:
        return None
    last = log[-1]
    card = last.get("card") if isinstance(last, dict) else None
    return card if isinstance(card, str) else None


def top_bar(view: View, lang: str, abandon: bool = True) -> Markup:
    """Round counter, match totals and the page actions (rules, language, abandon).

    Abandon is offered until the match is over (then Play again takes its place), unless
    `abandon` is False (`Extras.abandon`)."""
    totals = tuple(view.get("totals") or (0, 0)) if view.get("round_scores") else None
    return _top_bar_html(tuple(view["names"]), totals, view["round"],
                         view["options"]["rounds"],
                         view.get("phase") == "match-end" or not abandon, lang)


@lru_cache(maxsize=32)
def _top_bar_html(names: tuple[str, ...], totals: tuple[int, ...] | None, round_: int,
                  rounds: int, over: bool, lang: str) -> Markup:
    """The top bar (made once for these inputs); `totals` None shows none."""
    totals_html = join((
        html('<span>{name} <b data-total data-player="{p}">{total}</b></span>',
             name=names[p], p=p, total=totals[p])
        for p in (0, 1)
    ), " · ") if totals is not None else EMPTY
    actions = join((
        button("rules", t(lang, "rules.open"), css="btn small ghost"),
        button("lang", t(lang, "lang.switch"), css="btn small ghost",
               aria_label=t(lang, "lang.switch.label")),
        EMPTY if over else button("abandon", t(lang, "abandon"), css="btn small ghost"),
    ))
    return region("bar", html(
        '<header class="bar"><span class="round">{round}</span>'
        '<span class="totals">{totals}</span><span class="bar-actions">{actions}</span>'
        "</header>", round=t(lang, "round.of", round=round_, rounds=rounds),
        totals=totals_html, actions=actions))


def pointed(move: Mapping[str, Any] | None, ui: UiState) -> frozenset[str]:
    """What to light for the move the player is pointed at: its card in the hand
    (``card:YH``), then, once that card is picked, its button (``action:play``), or the pile
    to draw from (``draw:deck``, ``draw:Y``; the deck when any pile will do)."""
    if not move:
        return frozenset()
    kind, card = move.get("type"), move.get("card")
    if kind in ("play", "discard") and isinstance(card, str):
        return frozenset({f"card:{card}", *([f"action:{kind}"] if ui.selected == card else [])})
    if kind == "draw":
        return frozenset({f"draw:{move.get('source', 'deck')}"})
    return frozenset()


def targets(view: View, ui: UiState) -> tuple[str | None, str | None]:
    """The card picked if it may be played, and if it may be discarded, now: its expedition
    and its discard pile light up as targets, and a tap on one makes that move."""
    card = ui.selected if ui.selected in (view.get("hand") or []) else None
    if card is None:
        return None, None
    return (card if is_legal(view, {"type": "play", "card": card}) else None,
            card if is_legal(view, {"type": "discard", "card": card}) else None)


def _target(action: str, card: str, lang: str) -> Markup:
    """A lit target over an expedition or a discard pile: the picked card's move there."""
    label = el("span", t(lang, f"target.{action}"), class_="target-label")
    return el("button", label, type="button", class_="target-btn",
              data_action=f"{action}-here",
              aria_label=t(lang, f"target.{action}.card", card=card_name(lang, card)))


def _expedition(view: View, player: int, colour: str, lang: str, fresh: str | None,
                playable: str | None = None) -> Markup:
    cards: list[str] = view["expeditions"][player].get(colour, [])
    target = playable if playable is not None and playable[0] == colour else None
    return _expedition_html(player, colour, tuple(cards), view["scores"][player].get(colour, 0),
                            view["names"][player], lang, bool(cards) and cards[-1] == fresh,
                            target)


@lru_cache(maxsize=256)
def _expedition_html(player: int, colour: str, cards: tuple[str, ...], score: int, name: str,
                     lang: str, fresh_last: bool, target: str | None) -> Markup:
    """An expedition, lit as the target of card `target` (its HTML depends on these only:
    most are unchanged from a click to the next, so they are made once)."""
    listed = ", ".join(card_name(lang, c) for c in cards) or t(lang, "zone.expedition.empty")
    label = t(lang, "zone.expedition", name=name, colour=colour_name(lang, colour, True),
              cards=listed, score=score)
    stack = join(
        card_span(c, lang, "strip", fresh=(fresh_last and i == len(cards) - 1))
        for i, c in enumerate(cards)
    )
    score_html = el("span", score if cards else "", class_="exp-score", data_score=True,
                    data_player=player, data_colour=colour)
    lit = EMPTY if target is None else _target("play", target, lang)
    return region(f"exp-{player}-{colour}", el(
        "div", el("div", icon(colour), score_html, class_="exp-head"),
        el("div", stack, class_="stack", style=f"--n: {max(len(cards), 1)}"), lit,
        class_=f"exp c-{colour}" + ("" if cards else " empty") + (" tap-target" if lit else ""),
        data_zone="expedition", data_player=player, data_colour=colour, role="group",
        aria_label=label))


_BACK = el("span", class_="back")


def _who(view: View, player: int, lang: str, mine: bool) -> Markup:
    options = view["options"]
    jobs = view.get("jobs") or [None, None]
    job = jobs[player] if options.get("jobs") else None
    charges = (view.get("charges") or [0, 0])[player] if options.get("skills") else None
    count = None if mine else view["hand_counts"][player]
    return _who_html(player, view["names"][player], job, charges, count,
                     view["scores"][player]["total"], lang)


@lru_cache(maxsize=64)
def _who_html(player: int, name: str, job: str | None, charges: int | None, count: int | None,
              score: int, lang: str) -> Markup:
    """A player's name, job, charges, hand (`count` None: not shown) and running score (made
    once for these inputs)."""
    parts = [el("span", name, class_="name")]
    if job:
        parts.append(el("span", t(lang, f"job.{job}"), class_="badge job",
                        title=t(lang, f"job.{job}.hint")))
    if charges is not None:
        parts.append(el("span", "⚡", charges, class_="badge charges", role="img",
                        aria_label=t(lang, "skills.charges.of", name=name, count=charges)))
    if count is not None:
        parts.append(el("span", join([_BACK] * min(count, 10)), class_="backs",
                        data_zone="hand", data_player=player, role="img",
                        aria_label=t(lang, "zone.hand.count", name=name, count=count)))
    parts.append(el("span", score, class_="score", data_score=True, data_player=player,
                    role="img", aria_label=t(lang, "score.running", name=name, score=score)))
    return region(f"who-{player}", el("div", *parts, class_="who"))


def _side(view: View, player: int, lang: str, mine: bool, fresh: str | None,
          playable: str | None = None) -> Markup:
    heading = (t(lang, "zone.expeditions.mine") if mine
               else t(lang, "zone.expeditions.of", name=view["names"][player]))
    exps = join(_expedition(view, player, c, lang, fresh, playable) for c in view["colours"])
    who = _who(view, player, lang, mine)
    if mine:
        return html('<section class="side mine" aria-label="{heading}">'
                    '<div class="exps">{exps}</div>{who}</section>',
                    heading=heading, exps=exps, who=who)
    return html('<section class="side opp" aria-label="{heading}">{who}'
                '<div class="exps">{exps}</div></section>', heading=heading, exps=exps, who=who)


def _pile(view: View, colour: str, lang: str, fresh: str | None,
          discardable: str | None = None, lit: frozenset[str] = frozenset()) -> Markup:
    pile = (view.get("discards") or {}).get(colour) or {"top": None, "size": 0}
    top, size = pile.get("top"), pile.get("size", 0)
    target = discardable if discardable is not None and discardable[0] == colour else None
    return _pile_html(colour, top, size, is_legal(view, {"type": "draw", "source": colour}),
                      draw_block_reason(view, colour, lang), view.get("locked_pile") == colour,
                      view.get("shut_pile") == colour, lang, bool(top) and top == fresh,
                      target, f"draw:{colour}" in lit)


@lru_cache(maxsize=256)
def _pile_html(colour: str, top: str | None, size: int, source_legal: bool, why: str | None,
               locked: bool, shut: bool, lang: str, fresh: bool, target: str | None,
               guided: bool) -> Markup:
    """A discard pile, lit as the target of card `target`, its draw `guided` (made once for
    these inputs)."""
    cname = colour_name(lang, colour, True)
    label = (t(lang, "action.draw.pile.top", card=card_name(lang, top), colour=cname) if top
             else t(lang, "action.draw.pile", colour=cname))
    if why and (locked or shut):
        label = f"{label}. {why}"
    marker = EMPTY
    if shut or locked:
        word = t(lang, "pile.shut.short" if shut else "pile.locked.short")
        marker = el("span", icon("lock", "sym tiny"), word,
                    class_="pile-mark " + ("shut" if shut else "locked"), aria_hidden="true")
    if top:
        number = parse_card(top)[1]
        css = f"card pilecard c-{colour}" + (" handshake" if number is None else "")
        face = el("span", card_inner(top), class_=css + (" fresh" if fresh else ""),
                  data_card=top)
    else:
        face = el("span", icon(colour), class_=f"slot c-{colour}")
    btn = region(f"draw-{colour}",
                 el("button", face, type="button",
                    class_="pile-btn" + (" guided" if guided else ""), data_action="draw",
                    data_source=colour, disabled=not source_legal, aria_label=label))
    size_html = el("span", size, class_="pile-size", aria_hidden="true")
    css = "pile" + (" is-locked" if locked else "") + (" is-shut" if shut else "")
    lit = EMPTY if target is None else _target("discard", target, lang)
    return region(f"pile-{colour}", el("div", btn, size_html, marker, lit,
                                       class_=css + (" tap-target" if lit else ""),
                                       data_zone="discard", data_colour=colour))


def _deck(view: View, lang: str, lit: frozenset[str] = frozenset()) -> Markup:
    return _deck_html(view.get("deck_count", 0),
                      is_legal(view, {"type": "draw", "source": "deck"}), lang, "draw:deck" in lit)


@lru_cache(maxsize=32)
def _deck_html(count: int, ok: bool, lang: str, guided: bool = False) -> Markup:
    """The deck, its draw `guided` (made once for these inputs)."""
    label = t(lang, "action.draw.deck", count=count)
    face = el("span", el("span", count, class_="deck-count"), class_="card back-card",
              aria_hidden="true")
    btn = region("draw-deck", el("button", face, type="button",
                                 class_="pile-btn" + (" guided" if guided else ""),
                                 data_action="draw", data_source="deck", disabled=not ok,
                                 aria_label=label))
    caption = el("span", t(lang, "zone.deck"), class_="pile-size", aria_hidden="true")
    return region("deck", el("div", btn, caption, class_="deck", data_zone="deck"))


def mixup_line(tag: str, mixup: str, lang: str) -> Markup:
    """The active mixup's name and what it does (on the table and the result screens)."""
    return el(tag, el("b", t(lang, "mixup.label"), ": ", t(lang, f"mixup.{mixup}")), " ",
              t(lang, f"mixup.{mixup}.hint"), class_="mixup-card", data_mixup=mixup)


def _middle(view: View, lang: str, fresh: str | None, discardable: str | None = None,
            lit: frozenset[str] = frozenset()) -> Markup:
    piles = join(_pile(view, c, lang, fresh, discardable, lit) for c in view["colours"])
    extra = []
    peek = view.get("deck_peek") or []
    if peek:
        extra.append(el("div", el("span", t(lang, "peek.radio")),
                        *(card_span(c, lang, "small") for c in peek), class_="peek"))
    mixup = view.get("mixup")
    if mixup:
        extra.append(mixup_line("div", mixup, lang))
    return el("section", el("div", piles, _deck(view, lang, lit), class_="piles"), *extra,
              class_="middle", aria_label=t(lang, "zone.piles"))


def _hand(view: View, ui: UiState, lang: str, fresh: str | None,
          lit: frozenset[str] = frozenset()) -> Markup:
    me = view["player"]
    can_pick = view.get("phase") == "play" and view.get("to_act") == me and bool(legal(view))
    cards = []
    marked = False  # equal handshakes share a code: mark only one as picked
    seen: dict[str, int] = {}
    playing = view.get("phase") == "play"
    hand = sort_hand(view.get("hand") or [])
    # one card in the tab order (the picked one, else the first): arrow keys move within the
    # hand (static/keys.js)
    tab_card = ui.selected if ui.selected in hand else (hand[0] if hand else None)
    for code in hand:
        seen[code] = seen.get(code, 0) + 1
        picked = code == ui.selected and not marked
        marked = marked or picked
        tab = can_pick and code == tab_card and seen[code] == 1
        cards.append(_hand_card(code, seen[code], picked, code == fresh and playing, can_pick,
                                lang, tab, f"card:{code}" in lit and seen[code] == 1))
    return region("hand", el("div", *cards, class_="hand", data_zone="hand",
                             data_player=me, role="group", aria_label=t(lang, "zone.hand.mine")))


@lru_cache(maxsize=512)
def _hand_card(code: str, copy: int, picked: bool, fresh: bool, can_pick: bool,
               lang: str, tab: bool = False, guided: bool = False) -> Markup:
    """A card of the hand as a button (`copy`: 1, 2, 3 for equal handshakes); while cards
    can be picked, only the `tab` one is in the tab order; `guided`: the one asked for."""
    colour, number = parse_card(code)
    css = f"card hand-card c-{colour}" + (" handshake" if number is None else "")
    if picked:
        css += " selected"
    if fresh:
        css += " fresh"
    if guided:
        css += " guided"
    return region(f"card-{code}-{copy}",
                  el("button", card_inner(code), type="button", class_=css,
                     data_action="select", data_card=code,
                     aria_pressed="true" if picked else "false",
                     aria_label=card_name(lang, code), disabled=not can_pick,
                     tabindex=None if not can_pick else "0" if tab else "-1"))


def _status(view: View, ui: UiState, lang: str, thinking: str | None) -> Markup:
    me = view["player"]
    if thinking is not None:
        text = thinking
    elif view.get("to_act") != me:
        text = t(lang, "turn.of", name=view["names"][view["to_act"]]) if view.get(
            "to_act") is not None else ""
    elif ui.message:
        text = refusal_text(lang, ui.message)
    elif view.get("phase") == "draw":
        text = t(lang, "turn.step.draw")
    elif ui.selected:
        text = play_block_reason(view, ui.selected, lang) or card_name(lang, ui.selected)
    else:
        text = t(lang, "turn.step.play")
    if view.get("airlift_active"):
        text = f'{t(lang, "skill.airlift.active")} {text}'
    css = "status thinking" if thinking is not None else "status"
    return region("status", el("p", text, id="why", class_=css, role="status",
                               aria_live="polite"))


def _actions(view: View, ui: UiState, lang: str, lit: frozenset[str] = frozenset()) -> Markup:
    card = ui.selected if ui.selected in (view.get("hand") or []) else None
    play_ok = card is not None and is_legal(view, {"type": "play", "card": card})
    discard_ok = card is not None and is_legal(view, {"type": "discard", "card": card})
    name = card_name(lang, card) if card else ""
    play_label = t(lang, "action.play.card", card=name) if card else t(lang, "action.play")
    discard_label = (t(lang, "action.discard.card", card=name) if card
                     else t(lang, "action.discard"))
    guided = "play" if "action:play" in lit else "discard" if "action:discard" in lit else None
    return _actions_html(play_ok, discard_ok, has_type(view, "undo"), play_label, discard_label,
                         lang, guided)


@lru_cache(maxsize=64)
def _actions_html(play_ok: bool, discard_ok: bool, undo_ok: bool, play_label: str,
                  discard_label: str, lang: str, guided: str | None = None) -> Markup:
    """The play, discard and undo buttons, the `guided` one lit (made once for these
    inputs)."""
    lit = {action: " guided" if action == guided else "" for action in ("play", "discard")}
    return region("actions", el(
        "div",
        region("play", button("play", t(lang, "action.play"), disabled=not play_ok,
                              css="btn primary" + lit["play"], aria_label=play_label,
                              describedby="why")),
        region("discard", button("discard", t(lang, "action.discard"),
                                 disabled=not discard_ok, css="btn" + lit["discard"],
                                 aria_label=discard_label, describedby="why")),
        region("undo", button("undo", "↶ " + t(lang, "action.undo"), disabled=not undo_ok,
                              css="btn ghost", aria_label=t(lang, "action.undo.label"))),
        class_="actions"))


def _skills(view: View, ui: UiState, lang: str) -> Markup:
    if not view["options"].get("skills"):
        return EMPTY
    used = set(view.get("skills_used") or [])
    buttons = []
    for skill, cost in (("radio", 1), ("airlift", 2)):
        ok = is_legal(view, {"type": skill})
        label = f'{t(lang, f"skill.{skill}")}: {t(lang, f"skill.{skill}.hint")}'
        if skill in used:
            label += f' ({t(lang, "skill.used")})'
        buttons.append(region(skill, button(
            skill, join((t(lang, f"skill.{skill}"), " ", el("small", "⚡", cost))),
            disabled=not ok, css="btn skill", aria_label=label)))
    sabotage_ok = has_type(view, "sabotage")
    label = f'{t(lang, "skill.sabotage")}: {t(lang, "skill.sabotage.hint")}'
    buttons.append(region("sabotage", el(
        "button", t(lang, "skill.sabotage"), " ", el("small", "⚡3"), type="button",
        class_="btn skill", data_action="sabotage", disabled=not sabotage_ok, aria_label=label,
        aria_expanded="true" if ui.sabotage_menu else "false")))
    menu = EMPTY
    if ui.sabotage_menu and sabotage_ok:
        choices = join(
            el("button", icon(c), type="button", class_=f"btn chip c-{c}",
               data_action="sabotage", data_colour=c,
               disabled=not is_legal(view, {"type": "sabotage", "colour": c}),
               aria_label=t(lang, "skill.sabotage.pile", colour=colour_name(lang, c, True)))
            for c in view["colours"]
        )
        choose = t(lang, "skill.sabotage.choose")
        cancel = button("cancel", t(lang, "skill.cancel"), css="btn small ghost")
        menu = el("div", el("span", choose), choices, cancel, class_="sabotage-menu",
                  role="group", aria_label=choose)
    return region("skills", el("div", *buttons, class_="skills", role="group",
                               aria_label=t(lang, "skills.heading"))) + menu


def _objectives(view: View, lang: str) -> Markup:
    if not view["options"].get("objectives"):
        return EMPTY
    mine = (view.get("objectives") or [None, None])[view["player"]] or []
    items = join(
        el("li", el("b", t(lang, f"objective.{o}")), " ", t(lang, f"objective.{o}.hint"),
           data_objective=o)
        for o in mine
    )
    return region("objectives", el("section", el("h2", t(lang, "objectives.mine")),
                                   el("ul", items), class_="objectives"))


def mixup_announcement(view: View, lang: str, dismiss: bool) -> Markup:
    """The loud news of the mixup card turning face up (with a "Got it" button if `dismiss`)."""
    mixup = view.get("mixup")
    if not mixup:
        return EMPTY
    got_it = (button("dismiss-mixup", t(lang, "mixup.dismiss"), css="btn primary")
              if dismiss else EMPTY)
    return el(
        "div", el("p", t(lang, "mixup.announce")),
        el("p", t(lang, f"mixup.{mixup}"), class_="announce-title"),
        el("p", t(lang, f"mixup.{mixup}.hint"), " ", t(lang, "mixup.rest")), got_it,
        class_="announce", role="alert", data_mixup=mixup)


def render_table(view: View, ui: UiState, lang: str, log_html: Markup,
                 extras: Extras = Extras(), last_move: str = "") -> Markup:
    """The whole table for the player of `view`, with the move log and the page's extras;
    `last_move` (the log's last line) is read out by screen readers as it changes."""
    me = view["player"]
    fresh = fresh_card(view)
    playable, discardable = targets(view, ui)
    lit = pointed(extras.pointing, ui)
    news = EMPTY
    if view.get("mixup") and me not in ui.mixup_seen:
        news = mixup_announcement(view, lang, dismiss=True)
    turn_name = view["names"][view["to_act"]] if view.get("to_act") is not None else ""
    heading = region("turn-title", el("h1", t(lang, "turn.of", name=turn_name),
                                      class_="turn-title", tabindex="-1")
                     if turn_name else EMPTY)
    hand_area = region("hand-area", el(
        "section", _status(view, ui, lang, extras.thinking), _hand(view, ui, lang, fresh, lit),
        _actions(view, ui, lang, lit), _skills(view, ui, lang), region("hint", extras.hint),
        class_="hand-area", aria_label=t(lang, "zone.hand.mine")))
    said = region("last-move", el("p", last_move, class_="visually-hidden",
                                  data_last_move=True, role="status", aria_live="polite"))
    return top_bar(view, lang, extras.abandon) + el(
        "div", heading, said, region("more", extras.more), news,
        _side(view, 1 - me, lang, False, fresh),
        _middle(view, lang, fresh, discardable, lit),
        _side(view, me, lang, True, fresh, playable),
        hand_area,
        _objectives(view, lang), log_html, class_="table")
