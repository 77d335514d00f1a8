"""The repository explains itself: no tracked text cites a tracker's issue numbers or a file
outside the repository, every citation of docs/rules.md names a section it has, and every
relative link in the Markdown docs leads to a tracked file."""

from __future__ import annotations

import re
import subprocess
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULES_DOC = "docs/rules.md"

FORBIDDEN = {
    "an issue number": re.compile(r"\bissues? ?#?\d+", re.I),
    "an issue reference in parentheses": re.compile(r"\(#\d+\)"),
    "the rules file outside the repository": re.compile(r"RULES\.md"),
    "a file beside the repository": re.compile(r"\.\./shared\b"),
    "the design notes outside the repository": re.compile(r"\bDESIGN\.md|NOTES\-STACK"),
}
RULES_CITATION = re.compile(r"rules\.md ?§(\d+(?:\.\d+)?)")
RULES_LINK = re.compile(r"rules\.md#(s[\d-]+)")
MD_LINK = re.compile(r"\]\(([^)\s]+)\)")


@cache
def tracked_texts() -> dict[str, str]:
    """Every tracked file that reads as UTF-8 text, by path (git ls-files)."""
    try:
        listing = subprocess.run(
            ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
        ).stdout.decode()
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout: the tracked files are unknown")
    texts: dict[str, str] = {}
    for path in filter(None, listing.split("\0")):
        try:
            data = (ROOT / path).read_bytes()
        except OSError:  # deleted in the work tree, not yet committed
            continue
        if b"\0" in data:
            continue
        try:
            texts[path] = data.decode("utf-8")
        except UnicodeDecodeError:
            continue
    return texts


def offences(text: str) -> list[str]:
    """What ``text`` cites that a reader of the repository alone could not follow."""
    return [f"{what}: {m.group(0)!r}" for what, pattern in FORBIDDEN.items()
            for m in pattern.finditer(text)]


def rules_sections() -> set[str]:
    """The section numbers docs/rules.md has, from its anchors (``s5-2`` is ``5.2``)."""
    text = (ROOT / RULES_DOC).read_text(encoding="utf-8")
    return {a.replace("-", ".") for a in re.findall(r'<a id="s([\d-]+)"></a>', text)}


def test_the_patterns_catch_what_they_should() -> None:
    bad = ["see issue " + "7", "Issue " + "8's budget", "(#" + "12)", "RULES" + ".md §3",
           "../" + "shared/x", "DESIGN" + ".md", "NOTES" + "-STACK"]
    assert all(offences(line) for line in bad)
    assert offences("docs/rules.md §3, an issue of timing, colour #000, issues with 2 cores") == []


def test_no_tracked_text_cites_an_issue_number_or_an_outside_file() -> None:
    found = [f"{path}:{n}: {o}"
             for path, text in tracked_texts().items()
             for n, line in enumerate(text.splitlines(), 1)
             for o in offences(line)]
    assert not found, "cite docs/rules.md or say what is meant instead:\n" + "\n".join(found)


def test_every_citation_of_the_rules_names_a_section_they_have() -> None:
    sections = rules_sections()
    assert {"1", "2", "3", "4", "5", "5.1", "5.2", "5.3", "5.4", "6", "7"} <= sections
    wrong = [f"{path}: §{number}"
             for path, text in tracked_texts().items()
             for number in RULES_CITATION.findall(text) if number not in sections]
    wrong += [f"{path}: #{anchor}"
              for path, text in tracked_texts().items()
              for anchor in RULES_LINK.findall(text)
              if anchor[1:].replace("-", ".") not in sections]
    assert not wrong, "no such section in docs/rules.md:\n" + "\n".join(wrong)


def test_every_relative_link_in_the_docs_leads_to_a_tracked_file() -> None:
    texts = tracked_texts()
    broken = []
    for path, text in texts.items():
        if not path.endswith(".md"):
            continue
        for target in MD_LINK.findall(text):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue
            file = target.split("#", 1)[0]
            resolved = (ROOT / path).parent.joinpath(file).resolve()
            if not resolved.is_relative_to(ROOT) or (
                    str(resolved.relative_to(ROOT)) not in texts and not resolved.is_dir()):
                broken.append(f"{path}: {target}")
    assert not broken, "links to files that are not in the repository:\n" + "\n".join(broken)
