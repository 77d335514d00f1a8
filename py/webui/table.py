"""The table screen: opponent above, piles and deck in the middle, you and your hand below.

`render_table(view, ui, lang, log_html, extras)` turns one player's view (architecture.md) and
the UI state into HTML. It offers only the moves listed in the view and says why the others are
not offered. Its parts are keyed regions (regions.py), so that the page replaces only the parts
that changed: a card picked in the hand is two cards, the status line and the action buttons.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from webui.cards import card_name, colour_name, parse_card, sort_hand
from webui.html import attrs, button, card_inner, card_span, el, esc
from webui.i18n import t
from webui.moves import draw_block_reason, has_type, is_legal, legal, play_block_reason
from webui.regions import keyed
from webui.symbols import icon
from webui.uistate import UiState

View = dict[str, Any]


@dataclass(frozen=True)
class Extras:
    """What the page shows on the table besides the view and the UI state."""

    thinking: str | None = None  # the status line while the computer thinks
    hint: str = ""  # the hint button and suggestion (hint.render_hint)
    log_open: bool = False  # the move log is unfolded


def fresh_card(view: View) -> str | None:
    """The card the last public event moved (to animate it), if any."""
    log = view.get("log") or []
    if not log:
        return None
    last = log[-1]
    card = last.get("card") if isinstance(last, dict) else None
    return card if isinstance(card, str) else None


def top_bar(view: View, lang: str) -> str:
    """Round counter, match totals and the page actions (rules, language, abandon).

    Abandon is offered until the match is over (then Play again takes its place)."""
    names = view["names"]
    totals = view.get("totals") or [0, 0]
    round_text = t(lang, "round.of", round=view["round"], rounds=view["options"]["rounds"])
    totals_html = " · ".join(
        f'<span>{esc(names[p])} <b{attrs(data_total=True, data_player=p)}>{totals[p]}</b></span>'
        for p in (0, 1)
    ) if view.get("round_scores") else ""
    return keyed("bar",
        f'<header class="bar"><span class="round">{esc(round_text)}</span>'
        f'<span class="totals">{totals_html}</span><span class="bar-actions">'
        f'{button("rules", esc(t(lang, "rules.open")), css="btn small ghost")}'
        + button("lang", esc(t(lang, "lang.switch")), css="btn small ghost",
                 aria_label=t(lang, "lang.switch.label"))
        + (button("abandon", esc(t(lang, "abandon")), css="btn small ghost")
           if view.get("phase") != "match-end" else "")
        + "</span></header>")


def _expedition(view: View, player: int, colour: str, lang: str, fresh: str | None) -> str:
    cards: list[str] = view["expeditions"][player].get(colour, [])
    return _expedition_html(player, colour, tuple(cards), view["scores"][player].get(colour, 0),
                            view["names"][player], lang, bool(cards) and cards[-1] == fresh)


@lru_cache(maxsize=256)
def _expedition_html(player: int, colour: str, cards: tuple[str, ...], score: int, name: str,
                     lang: str, fresh_last: bool) -> str:
    """An expedition (its HTML depends on these only: most are unchanged from a click to
    the next, so they are made once)."""
    listed = ", ".join(card_name(lang, c) for c in cards) or t(lang, "zone.expedition.empty")
    label = t(lang, "zone.expedition", name=name, colour=colour_name(lang, colour, True),
              cards=listed, score=score)
    stack = "".join(
        card_span(c, lang, "strip", fresh=(fresh_last and i == len(cards) - 1))
        for i, c in enumerate(cards)
    )
    score_html = el("span", str(score) if cards else "", class_="exp-score", data_score=True,
                    data_player=player, data_colour=colour)
    inner = (f'<div class="exp-head">{icon(colour)}{score_html}</div>'
             f'<div class="stack">{stack}</div>')
    return keyed(f"exp-{player}-{colour}",
                 el("div", inner, class_=f"exp c-{colour}" + ("" if cards else " empty"),
                    data_zone="expedition", data_player=player, data_colour=colour,
                    role="group", aria_label=label))


def _who(view: View, player: int, lang: str, mine: bool) -> str:
    names, options = view["names"], view["options"]
    name = names[player]
    parts = [f'<span class="name">{esc(name)}</span>']
    jobs = view.get("jobs") or [None, None]
    if options.get("jobs") and jobs[player]:
        job = jobs[player]
        parts.append(
            f'<span class="badge job" title="{esc(t(lang, f"job.{job}.hint"))}">'
            f'{esc(t(lang, f"job.{job}"))}</span>'
        )
    if options.get("skills"):
        charges = (view.get("charges") or [0, 0])[player]
        parts.append(el("span", f"⚡{charges}", class_="badge charges", role="img",
                        aria_label=t(lang, "skills.charges.of", name=name, count=charges)))
    if not mine:
        count = view["hand_counts"][player]
        parts.append(el("span", '<span class="back"></span>' * min(count, 10), class_="backs",
                        data_zone="hand", data_player=player, role="img",
                        aria_label=t(lang, "zone.hand.count", name=name, count=count)))
    score = view["scores"][player]["total"]
    parts.append(el("span", str(score), class_="score", data_score=True, data_player=player,
                    role="img", aria_label=t(lang, "score.running", name=name, score=score)))
    return keyed(f"who-{player}", f'<div class="who">{"".join(parts)}</div>')


def _side(view: View, player: int, lang: str, mine: bool, fresh: str | None) -> str:
    heading = (t(lang, "zone.expeditions.mine") if mine
               else t(lang, "zone.expeditions.of", name=view["names"][player]))
    exps = "".join(_expedition(view, player, c, lang, fresh) for c in view["colours"])
    who = _who(view, player, lang, mine)
    inner = f'<div class="exps">{exps}</div>'
    body = inner + who if mine else who + inner
    css = "side mine" if mine else "side opp"
    return f'<section class="{css}" aria-label="{esc(heading)}">{body}</section>'


def _pile(view: View, colour: str, lang: str, fresh: str | None) -> str:
    pile = (view.get("discards") or {}).get(colour) or {"top": None, "size": 0}
    top, size = pile.get("top"), pile.get("size", 0)
    return _pile_html(colour, top, size, is_legal(view, {"type": "draw", "source": colour}),
                      draw_block_reason(view, colour, lang), view.get("locked_pile") == colour,
                      view.get("shut_pile") == colour, lang, bool(top) and top == fresh)


@lru_cache(maxsize=256)
def _pile_html(colour: str, top: str | None, size: int, source_legal: bool, why: str | None,
               locked: bool, shut: bool, lang: str, fresh: bool) -> str:
    """A discard pile (made once for these inputs)."""
    cname = colour_name(lang, colour, True)
    label = (t(lang, "action.draw.pile.top", card=card_name(lang, top), colour=cname) if top
             else t(lang, "action.draw.pile", colour=cname))
    if why and (locked or shut):
        label = f"{label}. {why}"
    marker = ""
    if shut or locked:
        word = t(lang, "pile.shut.short" if shut else "pile.locked.short")
        marker = el("span", icon("lock", "sym tiny") + esc(word),
                    class_="pile-mark " + ("shut" if shut else "locked"), aria_hidden="true")
    if top:
        number = parse_card(top)[1]
        css = f"card pilecard c-{colour}" + (" handshake" if number is None else "")
        face = el("span", card_inner(top), class_=css + (" fresh" if fresh else ""),
                  data_card=top)
    else:
        face = f'<span class="slot c-{colour}">{icon(colour)}</span>'
    btn = keyed(f"draw-{colour}",
                el("button", face, type="button", class_="pile-btn", data_action="draw",
                   data_source=colour, disabled=not source_legal, aria_label=label))
    size_html = f'<span class="pile-size" aria-hidden="true">{size}</span>'
    css = "pile" + (" is-locked" if locked else "") + (" is-shut" if shut else "")
    return keyed(f"pile-{colour}",
                 f'<div{attrs(class_=css, data_zone="discard", data_colour=colour)}>'
                 f"{btn}{size_html}{marker}</div>")


def _deck(view: View, lang: str) -> str:
    count = view.get("deck_count", 0)
    ok = is_legal(view, {"type": "draw", "source": "deck"})
    label = t(lang, "action.draw.deck", count=count)
    face = (f'<span class="card back-card" aria-hidden="true">'
            f'<span class="deck-count">{count}</span></span>')
    btn = keyed("draw-deck", el("button", face, type="button", class_="pile-btn",
                                data_action="draw", data_source="deck", disabled=not ok,
                                aria_label=label))
    caption = f'<span class="pile-size" aria-hidden="true">{esc(t(lang, "zone.deck"))}</span>'
    return keyed("deck", el("div", btn + caption, class_="deck", data_zone="deck"))


def _middle(view: View, lang: str, fresh: str | None) -> str:
    piles = "".join(_pile(view, c, lang, fresh) for c in view["colours"])
    extra = ""
    peek = view.get("deck_peek") or []
    if peek:
        cards = "".join(card_span(c, lang, "small") for c in peek)
        extra += f'<div class="peek"><span>{esc(t(lang, "peek.radio"))}</span>{cards}</div>'
    mixup = view.get("mixup")
    if mixup:
        extra += (
            f'<div class="mixup-card" data-mixup="{esc(mixup)}"><b>{esc(t(lang, "mixup.label"))}: '
            f'{esc(t(lang, f"mixup.{mixup}"))}</b> {esc(t(lang, f"mixup.{mixup}.hint"))}</div>'
        )
    return (
        f'<section class="middle" aria-label="{esc(t(lang, "zone.piles"))}">'
        f'<div class="piles">{piles}{_deck(view, lang)}</div>{extra}</section>'
    )


def _hand(view: View, ui: UiState, lang: str, fresh: str | None) -> str:
    me = view["player"]
    can_pick = view.get("phase") == "play" and view.get("to_act") == me and bool(legal(view))
    cards = []
    marked = False  # equal handshakes share a code: mark only one as picked
    seen: dict[str, int] = {}
    playing = view.get("phase") == "play"
    for code in sort_hand(view.get("hand") or []):
        seen[code] = seen.get(code, 0) + 1
        picked = code == ui.selected and not marked
        marked = marked or picked
        cards.append(_hand_card(code, seen[code], picked, code == fresh and playing, can_pick,
                                lang))
    return keyed("hand", el("div", "".join(cards), class_="hand", data_zone="hand",
                            data_player=me, role="group", aria_label=t(lang, "zone.hand.mine")))


@lru_cache(maxsize=512)
def _hand_card(code: str, copy: int, picked: bool, fresh: bool, can_pick: bool, lang: str) -> str:
    """A card of the hand as a button (`copy`: 1, 2, 3 for equal handshakes)."""
    colour, number = parse_card(code)
    css = f"card hand-card c-{colour}" + (" handshake" if number is None else "")
    if picked:
        css += " selected"
    if fresh:
        css += " fresh"
    return keyed(f"card-{code}-{copy}",
                 el("button", card_inner(code), type="button", class_=css,
                    data_action="select", data_card=code,
                    aria_pressed="true" if picked else "false",
                    aria_label=card_name(lang, code), disabled=not can_pick))


def _status(view: View, ui: UiState, lang: str, thinking: str | None) -> str:
    me = view["player"]
    if thinking is not None:
        text = thinking
    elif view.get("to_act") != me:
        text = t(lang, "turn.of", name=view["names"][view["to_act"]]) if view.get(
            "to_act") is not None else ""
    elif ui.message:
        text = ui.message
    elif view.get("phase") == "draw":
        text = t(lang, "turn.step.draw")
    elif ui.selected:
        text = play_block_reason(view, ui.selected, lang) or card_name(lang, ui.selected)
    else:
        text = t(lang, "turn.step.play")
    if view.get("airlift_active"):
        text = f'{t(lang, "skill.airlift.active")} {text}'
    css = "status thinking" if thinking is not None else "status"
    return keyed("status", f'<p id="why" class="{css}" role="status" aria-live="polite">'
                           f"{esc(text)}</p>")


def _actions(view: View, ui: UiState, lang: str) -> str:
    card = ui.selected if ui.selected in (view.get("hand") or []) else None
    play_ok = card is not None and is_legal(view, {"type": "play", "card": card})
    discard_ok = card is not None and is_legal(view, {"type": "discard", "card": card})
    name = card_name(lang, card) if card else ""
    play_label = t(lang, "action.play.card", card=name) if card else t(lang, "action.play")
    discard_label = (t(lang, "action.discard.card", card=name) if card
                     else t(lang, "action.discard"))
    undo_ok = has_type(view, "undo")
    return keyed("actions",
        '<div class="actions">'
        + keyed("play", button("play", esc(t(lang, "action.play")), disabled=not play_ok,
                               css="btn primary", aria_label=play_label, describedby="why"))
        + keyed("discard", button("discard", esc(t(lang, "action.discard")),
                                  disabled=not discard_ok, css="btn", aria_label=discard_label,
                                  describedby="why"))
        + keyed("undo", button("undo", "↶ " + esc(t(lang, "action.undo")), disabled=not undo_ok,
                               css="btn ghost", aria_label=t(lang, "action.undo.label")))
        + "</div>")


def _skills(view: View, ui: UiState, lang: str) -> str:
    if not view["options"].get("skills"):
        return ""
    used = set(view.get("skills_used") or [])
    buttons = []
    for skill, cost in (("radio", 1), ("airlift", 2)):
        ok = is_legal(view, {"type": skill})
        label = f'{t(lang, f"skill.{skill}")}: {t(lang, f"skill.{skill}.hint")}'
        if skill in used:
            label += f' ({t(lang, "skill.used")})'
        buttons.append(keyed(skill, button(
            skill, f'{esc(t(lang, f"skill.{skill}"))} <small>⚡{cost}</small>',
            disabled=not ok, css="btn skill", aria_label=label)))
    sabotage_ok = has_type(view, "sabotage")
    label = f'{t(lang, "skill.sabotage")}: {t(lang, "skill.sabotage.hint")}'
    buttons.append(keyed("sabotage", el(
        "button", f'{esc(t(lang, "skill.sabotage"))} <small>⚡3</small>', type="button",
        class_="btn skill", data_action="sabotage", disabled=not sabotage_ok, aria_label=label,
        aria_expanded="true" if ui.sabotage_menu else "false")))
    menu = ""
    if ui.sabotage_menu and sabotage_ok:
        choices = "".join(
            el("button", icon(c), type="button", class_=f"btn chip c-{c}",
               data_action="sabotage", data_colour=c,
               disabled=not is_legal(view, {"type": "sabotage", "colour": c}),
               aria_label=t(lang, "skill.sabotage.pile", colour=colour_name(lang, c, True)))
            for c in view["colours"]
        )
        choose = t(lang, "skill.sabotage.choose")
        cancel = button("cancel", esc(t(lang, "skill.cancel")), css="btn small ghost")
        menu = el("div", f"<span>{esc(choose)}</span>{choices}{cancel}",
                  class_="sabotage-menu", role="group", aria_label=choose)
    return keyed("skills", f'<div class="skills" role="group" '
                           f'aria-label="{esc(t(lang, "skills.heading"))}">'
                           f'{"".join(buttons)}</div>') + menu


def _objectives(view: View, lang: str) -> str:
    if not view["options"].get("objectives"):
        return ""
    mine = (view.get("objectives") or [None, None])[view["player"]] or []
    items = "".join(
        f'<li data-objective="{esc(o)}"><b>{esc(t(lang, f"objective.{o}"))}</b> '
        f'{esc(t(lang, f"objective.{o}.hint"))}</li>'
        for o in mine
    )
    return keyed("objectives", f'<section class="objectives"><h2>'
                               f'{esc(t(lang, "objectives.mine"))}</h2><ul>{items}</ul></section>')


def mixup_announcement(view: View, lang: str, dismiss: bool) -> str:
    """The loud news of the mixup card turning face up (with a "Got it" button if `dismiss`)."""
    mixup = view.get("mixup")
    if not mixup:
        return ""
    got_it = (button("dismiss-mixup", esc(t(lang, "mixup.dismiss")), css="btn primary")
              if dismiss else "")
    return (
        f'<div class="announce" role="alert" data-mixup="{esc(mixup)}">'
        f'<p>{esc(t(lang, "mixup.announce"))}</p>'
        f'<p class="announce-title">{esc(t(lang, f"mixup.{mixup}"))}</p>'
        f'<p>{esc(t(lang, f"mixup.{mixup}.hint"))} {esc(t(lang, "mixup.rest"))}</p>{got_it}</div>'
    )


def render_table(view: View, ui: UiState, lang: str, log_html: str,
                 extras: Extras = Extras()) -> str:
    """The whole table for the player of `view`, with the move log and the page's extras."""
    me = view["player"]
    fresh = fresh_card(view)
    news = ""
    if view.get("mixup") and me not in ui.mixup_seen:
        news = mixup_announcement(view, lang, dismiss=True)
    turn_name = view["names"][view["to_act"]] if view.get("to_act") is not None else ""
    heading = keyed("turn-title", f'<h1 class="turn-title" tabindex="-1">'
                                  f'{esc(t(lang, "turn.of", name=turn_name))}</h1>'
                    if turn_name else "")
    return (
        top_bar(view, lang)
        + f'<div class="table">{heading}{news}'
        + _side(view, 1 - me, lang, False, fresh)
        + _middle(view, lang, fresh)
        + _side(view, me, lang, True, fresh)
        + keyed("hand-area", f'<section class="hand-area" '
                             f'aria-label="{esc(t(lang, "zone.hand.mine"))}">'
                + _status(view, ui, lang, extras.thinking) + _hand(view, ui, lang, fresh)
                + _actions(view, ui, lang) + _skills(view, ui, lang)
                + keyed("hint", extras.hint) + "</section>")
        + _objectives(view, lang) + log_html + "</div>"
    )
