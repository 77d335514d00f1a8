"""Record which standard-library modules the game imports (for boot/build/trim_stdlib.py --record).

Builds the site into a temporary folder with Pyodide's FULL python_stdlib.zip, serves it with
scripts/serve.py and its loopback PeerJS broker (scripts/site_browser.py), and plays through the
app in headless Chromium: a pass-and-play match with every option (random legal clicks until the
match ends), every other setup mode found (e.g. a bot), an online room (host and guest in two
contexts, moves on both), the Rules page, the language switch, and a corrupt save (the error
notice). After each part it reads sys.modules in the page (through an added <script type="py">,
which runs in the app's interpreter) and returns the union of the names that are modules of the
stdlib zip.
"""

from __future__ import annotations

import gzip
import random
import sys
import zipfile
from pathlib import Path

from playwright.sync_api import BrowserContext, Page, sync_playwright

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
from site_browser import chromium_options, served_site  # noqa: E402  (scripts/site_browser.py)
FULL_STDLIB = ROOT / "node_modules" / "pyodide" / "python_stdlib.zip"
READY = "() => document.documentElement.dataset.ready === 'true'"
SKIP_ACTIONS = {"update", "reload", "share-room", "copy-link", "leave-room", "new-match",
                "abandon-yes", "start", "undo", "cancel"}
PROGRESS = {"draw", "play", "discard", "pick-job", "ready", "dismiss-mixup", "next-round"}
BUTTONS = """(skip) => [...document.querySelectorAll('#app button[data-action]:not([disabled])')]
  .filter(b => b.checkVisibility() && !skip.includes(b.dataset.action))
  .map(b => Object.fromEntries([...b.attributes]
    .filter(a => a.name.startsWith('data-')).map(a => [a.name.slice(5), a.value])))"""
MODULES = """() => new Promise((resolve) => {
  const s = document.createElement('script');
  s.type = 'py';
  s.textContent = "import sys, js\\n" +
    "js.document.documentElement.dataset.lcModules = ' '.join(sorted(sys.modules))";
  document.body.append(s);
  const poll = () => {
    const found = document.documentElement.dataset.lcModules;
    if (found) { delete document.documentElement.dataset.lcModules; s.remove(); resolve(found); }
    else setTimeout(poll, 50);
  };
  poll();
})"""


def full_stdlib(site: Path) -> None:
    """Put Pyodide's full standard library zip back into the built site (gzipped, as the site
    ships its own)."""
    shipped = site / "static" / "vendor" / "pyodide" / "python_stdlib.zip.gz"
    shipped.write_bytes(gzip.compress(FULL_STDLIB.read_bytes(), mtime=0))


def modules_of(page: Page) -> set[str]:
    """The names in sys.modules of the page's interpreter."""
    return set(str(page.evaluate(MODULES)).split())


def click_randomly(page: Page, rng: random.Random, clicks: int, until: str = "match-end") -> None:
    """Click random enabled buttons (legal moves) until body[data-screen] is `until`."""
    for _ in range(clicks):
        if page.evaluate("document.body.dataset.screen") == until:
            return
        buttons = page.evaluate(BUTTONS, sorted(SKIP_ACTIONS))
        if not buttons:
            page.wait_for_timeout(50)  # e.g. waiting for the other player online
            continue
        moves = [b for b in buttons if b["action"] in PROGRESS]
        cards = [b for b in buttons if b["action"] == "select"]
        # mostly what moves the match on (selecting a card when nothing else does), sometimes
        # any button, so that every screen and menu is tried
        data = rng.choice(buttons if rng.random() < 0.1 else moves or cards or buttons)
        selector = "".join(f'[data-{k}="{v}"]' for k, v in data.items())
        page.locator(f"#app button{selector}:not([disabled]) >> visible=true").first.click()


def open_page(context: BrowserContext, url: str) -> Page:
    """A page of the app in context, ready."""
    page = context.new_page()
    page.goto(url)
    page.wait_for_function(READY, timeout=180_000)
    return page


def setup(page: Page, mode: str | None) -> None:
    """Every option on, one round, the given mode (when the form has modes)."""
    if mode is not None:
        page.eval_on_selector(f'[data-option="mode"][value="{mode}"]', "e => e.click()")
    page.select_option('[data-option="rounds"]', "1")
    page.eval_on_selector_all('#setup-form input[type="checkbox"][data-option]',
                              "boxes => boxes.forEach(b => { if (!b.checked) b.click(); })")


def play_session(context: BrowserContext, url: str, rng: random.Random) -> set[str]:
    """One pass through the app; the union of sys.modules seen."""
    found: set[str] = set()
    page = open_page(context, url)
    for action in ("rules", "rules-close", "lang"):
        page.locator(f'[data-action="{action}"] >> visible=true').first.click()
    modes = page.eval_on_selector_all('[data-option="mode"]', "els => els.map(e => e.value)")
    for mode in modes or [None]:
        if mode == "online":
            continue
        setup(page, mode)
        page.click('[data-action="start"]')
        click_randomly(page, rng, 1500)
        found |= modules_of(page)
        page.reload()
        page.wait_for_function(READY, timeout=180_000)
        if page.locator('[data-action="new-match"]').count():
            page.click('[data-action="new-match"]')
    if "online" in modes:
        found |= play_online(context, url, page, rng)
    page.evaluate("localStorage.setItem('lostcities.match', '{\"format\": 99}')")
    page.reload()
    page.wait_for_function(READY, timeout=180_000)
    found |= modules_of(page)
    return found


def play_online(context: BrowserContext, url: str, host: Page, rng: random.Random) -> set[str]:
    """Host a room, join it from a second context, play some moves on both sides."""
    assert context.browser is not None
    setup(host, "online")
    host.click('[data-action="start"]')
    host.click('[data-action="create-room"]')
    code = host.locator("[data-room-code]").first.get_attribute("data-room-code")
    guest_context = context.browser.new_context()
    guest = open_page(guest_context, f"{url}?room={code}")
    guest.fill('[data-field="guest-name"]', "Guest")
    guest.click('[data-action="join-room"]')
    host.wait_for_selector('[data-connection="connected"]', timeout=60_000)
    for _ in range(20):
        for page in (host, guest):
            click_randomly(page, rng, 2)
    found = modules_of(host) | modules_of(guest)
    guest_context.close()
    return found


def record(runs: int = 2) -> list[str]:
    """The sorted stdlib modules the app imported over `runs` sessions."""
    with zipfile.ZipFile(FULL_STDLIB) as stdlib:
        names = set(stdlib.namelist())
    found: set[str] = set()
    with served_site(full_stdlib) as site, sync_playwright() as pw:
        browser = pw.chromium.launch(**chromium_options(pw))
        for run in range(runs):
            context = browser.new_context()
            found |= play_session(context, site.url, random.Random(run))
            context.close()
        browser.close()
    stdlib_modules = {
        m for m in found
        if f"{m.replace('.', '/')}.py" in names or f"{m.replace('.', '/')}/__init__.py" in names
    }
    return sorted(stdlib_modules)
