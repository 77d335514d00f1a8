"""The catalogue, card names and hand sorting of the browser UI (pure Python, no browser)."""

from __future__ import annotations

import json
import re
import string
import sys
from pathlib import Path

import pytest

from webui.text.cards import card_name, parse_card, sort_hand
from webui.text import player_text
from webui.text.i18n import LANGUAGES, MESSAGES, RULES_SECTIONS, pick_language, t

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "boot" / "build"))
from shell_text import shell_keys, shell_script, shell_text  # noqa: E402  (boot/build/shell_text.py)


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_message_has_both_languages_with_the_same_placeholders() -> None:
    for key, (english, spanish) in MESSAGES.items():
        assert english.strip() and spanish.strip(), key
        assert _fields(english) == _fields(spanish), key


def test_a_count_of_one_takes_the_singular_in_both_catalogues() -> None:
    assert t("en", "zone.pile.size", count=1) == "1 card"
    assert t("es", "zone.deck.count", count=1) == "queda 1"
    assert t("en", "zone.pile.size", count=2) == "2 cards"
    assert t("es", "zone.deck.count", count=0) == "quedan 0"
    assert player_text.t("en", "history.imported", count=1) == "1 new match imported."
    assert player_text.t("es", "history.imported", count=3) == "3 partidas nuevas importadas."
    assert player_text.t("en", "zone.hand.count", name="Ana", count=1) == "Ana holds 1 card"


@pytest.mark.parametrize("catalogue", [MESSAGES, player_text.MESSAGES])
def test_every_count_in_a_plural_has_its_singular(catalogue: dict[str, tuple[str, str]]) -> None:
    """A message that counts things in the plural ("{count} cards") has a ``.one`` form, and
    every ``.one`` form belongs to a message."""
    for key, (english, spanish) in catalogue.items():
        if key.endswith(".one"):
            assert key.removesuffix(".one") in catalogue, key
            assert "count" not in _fields(english) | _fields(spanish), key
        elif "count" in _fields(english):
            assert f"{key}.one" in catalogue, key


def test_rules_page_keys_exist_and_carry_the_credits() -> None:
    for heading, paragraphs in RULES_SECTIONS:
        for key in (heading, *paragraphs):
            assert key in MESSAGES
    for lang in LANGUAGES:
        credits = t(lang, "rules.credits")
        assert "Reiner Knizia" in credits and "Kosmos" in credits


@pytest.mark.parametrize(
    ("tag", "lang"),
    [("es-AR", "es"), ("es", "es"), ("ES_es", "es"), ("en-GB", "en"), ("fr-FR", "en"),
     ("", "en"), (None, "en")],
)
def test_language_follows_the_browser(tag: str | None, lang: str) -> None:
    assert pick_language(tag) == lang


def test_accessible_card_names() -> None:
    assert card_name("en", "R7") == "Red 7"
    assert card_name("es", "R7") == "Rojo 7"
    assert card_name("en", "RH") == "Red handshake"
    assert card_name("es", "WH") == "Apretón de manos blanco"
    assert card_name("en", "P10") == "Purple 10"


def test_unknown_key_is_an_error() -> None:
    with pytest.raises(KeyError):
        t("en", "no.such.key")


def test_hand_is_sorted_by_colour_then_handshakes_then_numbers() -> None:
    hand = ["R7", "Y10", "B3", "YH", "Y2", "RH", "P4", "W9", "G5", "R10"]
    assert sort_hand(hand) == ["YH", "Y2", "Y10", "B3", "W9", "G5", "RH", "R7", "R10", "P4"]


@pytest.mark.parametrize("bad", ["", "R", "X7", "R1", "R11", "R07", "RHH", "r7"])
def test_bad_card_codes_are_refused(bad: str) -> None:
    with pytest.raises(ValueError):
        parse_card(bad)


def test_the_static_setup_form_matches_the_catalogue() -> None:
    """index.html's setup form (shown before Python boots) says what the catalogue says."""
    page = (Path(__file__).resolve().parent.parent / "index.html").read_text(encoding="utf-8")
    found = re.findall(r'data-i18n="([^"]+)"[^>]*>([^<]*)<', page)
    assert len(found) >= 20
    for key, text in found:
        assert t("en", key) == text, key
    labels = re.findall(r'data-i18n-label="([^"]+)"[^>]*aria-label="([^"]*)"', page)
    assert len(labels) >= 2
    for key, text in labels:
        assert t("en", key) == text, key
    for option in ("rounds", "sixth-colour", "jobs", "skills", "objectives", "mixups"):
        assert f'data-option="{option}"' in page


def test_the_shell_text_holds_every_word_of_the_shell_in_each_language() -> None:
    """static/vendor/shell-lang.js (boot/build/shell_text.py): the words it puts into the
    shell before Python starts, from this catalogue, for every key of index.html, and the
    code that does it."""
    page = (ROOT / "index.html").read_text(encoding="utf-8")
    keys = shell_keys(page)
    assert {"setup.heading", "setup.start", "setup.loading", "lang.switch.label"} <= set(keys)
    script = shell_text(page, ROOT / "py")
    prefix = "window.LC_SHELL_TEXT = "
    words = json.loads(script[script.index(prefix) + len(prefix):].rstrip().rstrip(";"))
    assert set(words) == set(LANGUAGES)
    for lang in LANGUAGES:
        assert words[lang] == {key: t(lang, key) for key in keys}
    assert words["es"]["setup.start"] == "Empezar partida"
    assert words["es"]["setup.loading"] == "Barajando las cartas"
    assert shell_text(page, ROOT / "py") == script  # the same bytes each build
    whole = shell_script(page, ROOT / "py")
    assert whole.startswith(script) and "LC_SHELL_TEXT" in whole[len(script):]
    with pytest.raises(KeyError):  # a key the catalogue lacks fails the build
        shell_text(page.replace('data-i18n="setup.heading"', 'data-i18n="setup.nope"'),
                   ROOT / "py")
