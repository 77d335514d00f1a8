"""Reading the setup form (plain HTML in index.html, usable before Python has booted)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from lostcities import Options
from lostcities.names import clean_name

from webui.text.i18n import t

NAME_MAX = 20
OPTION_FIELDS: dict[str, str] = {
    "sixth-colour": "sixth_colour",
    "jobs": "jobs",
    "skills": "skills",
    "objectives": "objectives",
    "mixups": "mixups",
}
"""``data-option`` of each toggle -> its `Options` field."""


@dataclass(frozen=True)
class Setup:
    """What the setup form asks for; `first_player` None means "at random"."""

    names: tuple[str, str]
    options: Options
    first_player: int | None


def form_name(raw: object, fallback: str) -> str:
    """A player's name from the form: cleaned as every name is (lostcities.names: hidden
    characters dropped, white space collapsed), at most NAME_MAX characters. A name left
    empty, or holding nothing that shows, becomes `fallback` ("Player 1", "Player 2"), as a
    player who typed nothing expects."""
    return clean_name(raw if isinstance(raw, str) else "", NAME_MAX) or fallback


def parse_setup(values: Mapping[str, object], lang: str) -> Setup:
    """The setup from the form's current values (``data-option`` keys, plus name1/name2/starts).

    Raises ValueError with a clear message on a bad value (e.g. rounds out of 1-5).
    """
    names = (form_name(values.get("name1"), t(lang, "setup.default1")),
             form_name(values.get("name2"), t(lang, "setup.default2")))
    raw_rounds = values.get("rounds", "3")
    try:
        rounds = int(str(raw_rounds))
    except ValueError:
        raise ValueError(f"rounds must be a number from 1 to 5, not {raw_rounds!r}") from None
    toggles = {field: values.get(key) is True for key, field in OPTION_FIELDS.items()}
    options = Options(rounds=rounds, **toggles)
    starts = values.get("starts", "0")
    if starts not in ("0", "1", "random"):
        raise ValueError(f"who starts must be 0, 1 or random, not {starts!r}")
    return Setup(names, options, None if starts == "random" else int(str(starts)))
