"""Browser fixtures: Debian's Chromium driven by Playwright's sync API (no pytest-playwright).

Playwright's sync API runs an event loop in the test thread, so Django's async-safety check
must be lifted for the ORM calls made around it (the demo data, the database flush). It is
lifted for this folder's modules only: set for the whole session, the variable would leak into
other tests' subprocesses (``check --deploy`` rejects it).
"""

import pytest

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
TIMEOUT_MS = 15_000  # longer than the board's 5 s polling, so a missed swap is caught up


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
            yield browser
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
