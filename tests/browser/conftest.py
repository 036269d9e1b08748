"""Browser fixtures: Debian's Chromium driven by Playwright's sync API (no pytest-playwright).

Playwright's sync API runs an event loop in the test thread, so Django's async-safety check
must be lifted for the ORM calls made around it (the demo data, the database flush). It is
lifted for this folder's modules only: set for the whole session, the variable would leak into
other tests' subprocesses (``check --deploy`` rejects it).

Every context a test opens (``page``, or ``chromium.new_context()``) reports each
Content-Security-Policy violation of its pages, and the test fails on any (``csp_violations``):
the browser's own console error ("Refused to ...") and the page's ``securitypolicyviolation``
events, listened to before any of its scripts runs.
"""

import pytest

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
TIMEOUT_MS = 15_000  # longer than the board's 5 s polling, so a missed swap is caught up


# Reported through the console, the one channel that also sees the browser's own refusals.
REPORT_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (e) => {
  console.error(`CSP violation: ${e.effectiveDirective} blocked ${e.blockedURI || "inline"}`
                + ` at ${e.sourceFile}:${e.lineNumber} (${e.disposition})`);
});
"""
_violations: list[str] = []  # of the running test: emptied before it, checked after it


def is_csp_violation(text: str) -> bool:
    return text.startswith("CSP violation:") or "Content Security Policy" in text


def _watch(context):
    context.add_init_script(REPORT_VIOLATIONS)

    def on_console(message):
        if is_csp_violation(message.text):
            _violations.append(f"{message.page.url if message.page else '?'}: {message.text}")

    context.on("console", on_console)
    return context


class WatchedBrowser:
    """The browser, whose new contexts report their pages' CSP violations."""

    def __init__(self, browser):
        self._browser = browser

    def new_context(self, **options):
        return _watch(self._browser.new_context(**options))

    def __getattr__(self, name):
        return getattr(self._browser, name)


@pytest.fixture(autouse=True)
def csp_violations():
    """The CSP violations the test's pages reported; the test fails unless none is left (a
    test that provokes one on purpose reads it and empties the list)."""
    _violations.clear()
    yield _violations
    found = list(_violations)
    _violations.clear()
    assert found == [], "Content-Security-Policy violations:\n" + "\n".join(found)


@pytest.fixture(scope="module", autouse=True)
def _allow_orm_beside_playwright():
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        yield


@pytest.fixture(scope="module")
def chromium(_allow_orm_beside_playwright):
    from playwright.sync_api import sync_playwright

    from tests.conftest import CHROMIUM

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            yield WatchedBrowser(browser)
        finally:
            browser.close()


@pytest.fixture
def page(chromium):
    context = chromium.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    try:
        yield page
    finally:
        context.close()


@pytest.fixture
def demo(transactional_db):
    """The demo campaign (config.demo) in the live server's database."""
    from config.demo import load_demo

    load_demo()
