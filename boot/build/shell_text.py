"""static/vendor/shell-lang.js: the shell's words in each language, from the game's catalogue,
and boot/build/shell-lang.js, which puts them in (scripts/build.py calls `write_shell_script`;
docs/boot.md).

index.html is written in English. Before Python has started, the script puts the player's
language into it: every ``data-i18n`` text and ``data-i18n-label`` label the page holds, taken
from `webui.text.i18n.MESSAGES`, so that there is one catalogue. Words and code are one file:
the parser waits for it before the first paint, and a second request cost a phone's network a
round trip.
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

SHELL_SCRIPT = "shell-lang.js"
SOURCE = Path(__file__).with_name("shell-lang.js")
KEYS = re.compile(r'data-i18n(?:-label)?="([^"]+)"')


def shell_keys(index_html: str) -> list[str]:
    """The catalogue keys index.html names, in order, once each."""
    return list(dict.fromkeys(KEYS.findall(index_html)))


def shell_text(index_html: str, py_dir: Path) -> str:
    """The script that defines ``window.LC_SHELL_TEXT``: {language: {key: text}}."""
    sys.path.insert(0, str(py_dir))
    try:
        from webui.text.i18n import LANGUAGES, t
    finally:
        sys.path.remove(str(py_dir))
    keys = shell_keys(index_html)
    words = {lang: {key: t(lang, key) for key in keys} for lang in LANGUAGES}
    return ("// Built by boot/build/shell_text.py from py/webui/text/i18n.py: not edited.\n"
            f"window.LC_SHELL_TEXT = {json.dumps(words, ensure_ascii=False, sort_keys=True)};\n")


def shell_script(index_html: str, py_dir: Path) -> str:
    """vendor/shell-lang.js: `shell_text`, then boot/build/shell-lang.js."""
    return shell_text(index_html, py_dir) + SOURCE.read_text(encoding="utf-8")


def write_shell_script(root: Path, vendor: Path) -> None:
    """Write vendor/shell-lang.js for root/index.html, only if its text changed (atomically:
    a running server keeps serving a whole file)."""
    text = shell_script((root / "index.html").read_text(encoding="utf-8"), root / "py")
    target = vendor / SHELL_SCRIPT
    if not target.is_file() or target.read_text(encoding="utf-8") != text:
        temporary = target.with_name(f".{SHELL_SCRIPT}.{os.getpid()}.tmp")
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, target)
