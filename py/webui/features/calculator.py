"""The score calculator for the boxed game (``body[data-screen="calculator"]``).

A player taps the cards of each expedition on a real table and sees what each scores, with
its breakdown, by the engine's scoring (`lostcities.score_expedition`, docs/rules.md §3): the
options that change a score are the sixth colour, the owner's job and the endgame mixup
(only those jobs and mixups that change the scoring rules are offered).

Hooks: ``[data-action="calc-toggle"]`` with ``data-colour``, ``data-card`` (``RH`` or ``R7``)
and ``data-copy`` (1-3 for the three handshakes), ``aria-pressed``;
``input[data-field="calc-sixth"]``, ``select[data-field="calc-job"]``,
``select[data-field="calc-mixup"]``; ``[data-calc-score][data-colour]`` and
``[data-calc-formula][data-colour]``; ``[data-calc-total]``; ``[data-action="calc-clear"]``
and ``[data-action="calc-close"]``. `Calculator.handle` takes the clicks and field changes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Final

from lostcities import JOBS, MIXUPS, ExpeditionScore, ScoringRules, player_rules, score_expedition
from lostcities.cards import HANDSHAKES_PER_COLOUR, NUMBERS, colours_for

from webui.screens.html import Markup, button, card_inner, el, join, region, void
from webui.text.cards import card_name, colour_name
from webui.text.player_text import t

SCORING_JOBS: Final = tuple(j for j, job in JOBS.items()
                            if job.adjust(ScoringRules()) != ScoringRules())
SCORING_MIXUPS: Final = tuple(m for m, mix in MIXUPS.items()
                              if mix.adjust(ScoringRules()) != ScoringRules())
HANDSHAKES: Final = HANDSHAKES_PER_COLOUR
ACTIONS: Final = ("calc-toggle", "calc-clear", "calc-sixth", "calc-job", "calc-mixup")


def formula(score: ExpeditionScore) -> str:
    """The arithmetic as docs/rules.md §3.1 writes it: ``(sum − cost) × multiplier``, then
    ``+ bonus`` when there is one; ``""`` for an expedition never started."""
    if not score.cards:
        return ""
    text = f"({score.sum} − {score.cost}) × {score.multiplier}"
    return text + (f" + {score.bonus}" if score.bonus else "")


def _card_key(colour: str, card: str, copy: str | None) -> str:
    """The key of a tapped card: ``R7``, or ``RH1``-``RH3`` for the handshakes."""
    if len(card) < 2 or card[0] != colour:
        raise ValueError(f"{card!r} is not a {colour} card")
    rest = card[1:]
    if rest == "H":
        if copy not in {str(i) for i in range(1, HANDSHAKES + 1)}:
            raise ValueError("a handshake needs its copy, 1 to 3")
        return card + str(copy)
    if not rest.isdigit() or int(rest) not in NUMBERS or str(int(rest)) != rest:
        raise ValueError(f"{card!r} is not a card")
    return card


@dataclass(frozen=True)
class Calculator:
    """What is tapped (``tapped``: keys like ``R7`` and ``RH2``) and the options."""

    sixth_colour: bool = False
    job: str | None = None
    mixup: str | None = None
    tapped: frozenset[str] = field(default_factory=frozenset)

    @property
    def colours(self) -> tuple[str, ...]:
        """The colours on the table."""
        return colours_for(self.sixth_colour)

    @property
    def rules(self) -> ScoringRules:
        """The scoring rules: base, then the job, then the mixup (as the engine builds them)."""
        return player_rules(self.job, self.mixup)

    def cards(self, colour: str) -> list[str]:
        """The colour's tapped cards as texts: handshakes first, numbers ascending."""
        hands = [f"{colour}H" for i in range(1, HANDSHAKES + 1) if f"{colour}H{i}" in self.tapped]
        return hands + [f"{colour}{n}" for n in NUMBERS if f"{colour}{n}" in self.tapped]

    def score(self, colour: str) -> ExpeditionScore:
        """The colour's expedition scored by the engine, with its breakdown."""
        return score_expedition(self.cards(colour), self.rules)

    @property
    def total(self) -> int:
        """The sum of the expeditions' scores."""
        return sum(self.score(c).score for c in self.colours)

    def handle(self, action: str, data: Mapping[str, str]) -> Calculator:
        """The calculator after a click or field change (see the module's docstring);
        ValueError, nothing changed, on anything else."""
        if action == "calc-toggle":
            colour = data.get("colour", "")
            if colour not in self.colours:
                raise ValueError(f"{colour!r} is not a colour on this table")
            key = _card_key(colour, data.get("card", ""), data.get("copy"))
            return replace(self, tapped=self.tapped ^ {key})
        if action == "calc-clear":
            return replace(self, tapped=frozenset())
        value = data.get("value", "")
        if action == "calc-sixth":
            if value not in ("true", "false"):
                raise ValueError("the sixth colour is true or false")
            on = value == "true"
            kept = self.tapped if on else frozenset(k for k in self.tapped if k[0] != "P")
            return replace(self, sixth_colour=on, tapped=kept)
        if action in ("calc-job", "calc-mixup"):
            allowed = SCORING_JOBS if action == "calc-job" else SCORING_MIXUPS
            if value and value not in allowed:
                raise ValueError(f"{value!r} does not change the scoring")
            if action == "calc-job":
                return replace(self, job=value or None)
            return replace(self, mixup=value or None)
        raise ValueError(f"not a calculator action: {action!r}")

    def to_json(self) -> dict[str, Any]:
        """The calculator as JSON (to keep it across reloads)."""
        return {"sixth_colour": self.sixth_colour, "job": self.job, "mixup": self.mixup,
                "tapped": sorted(self.tapped)}

    @classmethod
    def from_json(cls, data: object) -> Calculator:
        """From `to_json`; ValueError on anything malformed."""
        if not isinstance(data, dict) or set(data) != {"sixth_colour", "job", "mixup",
                                                        "tapped"}:
            raise ValueError("not a saved calculator")
        if not isinstance(data["sixth_colour"], bool):
            raise ValueError("bad sixth colour")
        calc = cls(sixth_colour=data["sixth_colour"])
        for name in ("job", "mixup"):
            value = data[name]
            if value is not None and not isinstance(value, str):
                raise ValueError(f"bad {name}")
            calc = calc.handle(f"calc-{name}", {"value": value or ""})
        tapped = data["tapped"]
        if not isinstance(tapped, list) or not all(isinstance(k, str) for k in tapped):
            raise ValueError("bad tapped cards")
        for key in tapped:
            copy = key[2:] if key[1:2] == "H" else None
            card = key[:2] if copy is not None else key
            if key in calc.tapped or _card_key(key[:1], card, copy) != key:
                raise ValueError(f"bad tapped card {key!r}")
            calc = calc.handle("calc-toggle", {"colour": key[:1], "card": card,
                                               "copy": copy or ""})
        return calc


def _toggle(calc: Calculator, colour: str, card: str, copy: int | None, lang: str) -> Markup:
    key = card + (str(copy) if copy else "")
    on = key in calc.tapped
    name = card_name(lang, card)
    label = t(lang, "calc.handshake", card=name, copy=copy) if copy else name
    css = f"card calc-card c-{colour}" + (" handshake" if copy else "") + (
        " selected" if on else "")
    return region(f"calc-{key}", el(
        "button", card_inner(card), type="button", class_=css, data_action="calc-toggle",
        data_colour=colour, data_card=card, data_copy=copy,
        aria_pressed="true" if on else "false", aria_label=label))


def _colour(calc: Calculator, colour: str, lang: str) -> Markup:
    cards = [(f"{colour}H", i) for i in range(1, HANDSHAKES + 1)]
    buttons = join(_toggle(calc, colour, card, copy, lang) for card, copy in
                   [*cards, *((f"{colour}{n}", None) for n in NUMBERS)])
    score = calc.score(colour)
    text = formula(score)
    result = region(f"calc-result-{colour}", el(
        "p", el("span", text or t(lang, "calc.empty"), data_calc_formula=True,
                data_colour=colour),
        " = " if text else " ", el("b", score.score, data_calc_score=True, data_colour=colour),
        class_="calc-result", aria_live="polite"))
    title = t(lang, "calc.expedition", colour=colour_name(lang, colour, True))
    return region(f"calc-{colour}", el(
        "section", el("h2", title[:1].upper() + title[1:]),
        el("div", buttons, class_="calc-cards", role="group", aria_label=title),
        result, class_=f"calc-colour c-{colour}", data_colour=colour, data_cards=score.cards))


def _select(name: str, current: str | None, choices: tuple[str, ...], lang: str) -> Markup:
    opts = join(el("option", t(lang, "calc.none") if not c else t(lang, f"{name}.{c}"),
                   value=c, selected=c == (current or ""))
                for c in ("", *choices))
    return el("label", t(lang, f"{name}.label"), " ",
              el("select", opts, data_field=f"calc-{name}"), class_="field")


def render_calculator(calc: Calculator, lang: str) -> Markup:
    """The calculator screen."""
    sixth = el("label", void("input", type="checkbox", data_field="calc-sixth",
                             checked=calc.sixth_colour), " ", t(lang, "option.sixth-colour"),
               class_="field")
    options = region("calc-options", el(
        "fieldset", el("legend", t(lang, "calc.options")), sixth,
        _select("job", calc.job, SCORING_JOBS, lang),
        _select("mixup", calc.mixup, SCORING_MIXUPS, lang), class_="calc-options"))
    total = region("calc-total", el("p", t(lang, "calc.total"), " ",
                                    el("b", calc.total, data_calc_total=True),
                                    class_="calc-total", role="status"))
    clear = region("calc-clear", button("calc-clear", t(lang, "calc.clear"), css="btn",
                                        disabled=not calc.tapped))
    close = button("calc-close", "← " + t(lang, "calc.close"), css="btn small ghost")
    return el("article", el("p", close, class_="rules-top"),
              el("h1", t(lang, "calc.heading"), tabindex="-1"),
              el("p", t(lang, "calc.hint"), class_="hint"), options,
              *(_colour(calc, c, lang) for c in calc.colours), total, clear,
              class_="calc-page")
