"""netlify.toml's [[headers]] and [[redirects]] as Netlify applies them, for tests and dev.

`scripts/serve.py --netlify` serves a site with these rules (so the end-to-end tests run under
the production headers, Content-Security-Policy included), and tests/test_netlify_config.py
checks them against the built files.

Path patterns follow Netlify's headers parser (netlify/build, headers-parser `for_regexp`):
case-insensitive, an optional trailing slash, ``:name`` matches one segment, a lone ``*``
segment matches the rest of the path (nothing included), a ``*`` inside a segment matches any
characters. Every matching [[headers]] rule applies; `overlaps` reports two rules setting the
same header on one path, which this project avoids (which one wins is not documented).
Redirects: the first rule whose ``from`` matches wins; ``:name`` placeholders and ``*`` (as
``:splat``) are substituted into ``to``; a query string of the request is kept.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class HeaderRule:
    """One [[headers]] table: a path pattern and the headers it sets."""

    pattern: str
    regex: re.Pattern[str]
    values: dict[str, str]


@dataclass(frozen=True)
class Redirect:
    """One [[redirects]] table."""

    source: str
    regex: re.Pattern[str]
    to: str
    status: int


@dataclass(frozen=True)
class NetlifyConfig:
    """The parts of netlify.toml this project uses."""

    command: str
    publish: str
    headers: tuple[HeaderRule, ...]
    redirects: tuple[Redirect, ...]


def _part_regex(part: str) -> str:
    if part.startswith(":"):
        return f"(?P<{part[1:]}>[^/]+)"
    if part == "*":
        return "?(?P<splat>.*)"
    if "*" in part:
        return "(.*)".join(re.escape(piece) for piece in part.split("*"))
    return re.escape(part)


def path_regex(pattern: str) -> re.Pattern[str]:
    """The regular expression Netlify matches a ``for``/``from`` pattern with."""
    if not pattern.startswith("/"):
        raise ValueError(f"a Netlify path pattern starts with /: {pattern!r}")
    parts = [p.rstrip() for p in pattern.split("/") if p.strip()]
    return re.compile("^/" + "/".join(_part_regex(p) for p in parts) + "/?$", re.IGNORECASE)


def _value(raw: object) -> str:
    """A header value as Netlify normalizes it: trimmed, ", " between comma-separated parts."""
    if isinstance(raw, list):
        return ", ".join(str(item).strip() for item in raw)
    return re.sub(r"\s*,\s*", ", ", str(raw).strip())


def load(path: Path) -> NetlifyConfig:
    """Parse netlify.toml; raises ValueError on a missing or malformed part."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    build = data.get("build")
    if not isinstance(build, dict) or not build.get("command") or not build.get("publish"):
        raise ValueError("netlify.toml needs [build] command and publish")
    headers = []
    for table in data.get("headers", []):
        values = table.get("values")
        if not isinstance(table.get("for"), str) or not isinstance(values, dict):
            raise ValueError(f"[[headers]] needs for and values: {table!r}")
        flat = {name.strip(): _value(value) for name, value in values.items()}
        headers.append(HeaderRule(table["for"], path_regex(table["for"]), flat))
    redirects = []
    for table in data.get("redirects", []):
        if not isinstance(table.get("from"), str) or not isinstance(table.get("to"), str):
            raise ValueError(f"[[redirects]] needs from and to: {table!r}")
        redirects.append(Redirect(table["from"], path_regex(table["from"]), table["to"],
                                  int(table.get("status", 301))))
    return NetlifyConfig(build["command"], build["publish"], tuple(headers), tuple(redirects))


def headers_for(config: NetlifyConfig, path: str) -> dict[str, str]:
    """The custom headers Netlify sends for the URL path (later rules win on a clash)."""
    found: dict[str, str] = {}
    for rule in config.headers:
        if rule.regex.match(path):
            found.update(rule.values)
    return found


def overlaps(config: NetlifyConfig, path: str) -> list[str]:
    """Header names that two or more matching rules set for this path (case-insensitive)."""
    seen: dict[str, int] = {}
    for rule in config.headers:
        if rule.regex.match(path):
            for name in rule.values:
                seen[name.lower()] = seen.get(name.lower(), 0) + 1
    return sorted(name for name, count in seen.items() if count > 1)


def redirect_for(config: NetlifyConfig, path: str, query: str = "") -> tuple[str, int] | None:
    """(location, status) of the first redirect matching the path, or None."""
    for rule in config.redirects:
        match = rule.regex.match(path)
        if match is None:
            continue
        location = rule.to
        for name, value in sorted(match.groupdict().items(), key=lambda kv: -len(kv[0])):
            location = location.replace(f":{name}", value or "")
        if query:
            location += ("&" if "?" in location else "?") + query
        return location, rule.status
    return None
