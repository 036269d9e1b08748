"""What the browser journeys share: logging in, waiting for an htmx POST, reading gauges."""

from __future__ import annotations

import os
import re
from decimal import Decimal
from pathlib import Path

from config.demo import DEMO_PASSWORD


def log_in(page, live_server, username, password=DEMO_PASSWORD):
    """Log in through the login page and land on the character list (a player) or the game
    master's screen, or the list of them (a GM: campaigns:home)."""
    from playwright.sync_api import expect

    page.goto(live_server.url + "/accounts/login/")
    form = page.locator("main form")
    form.locator("input[name=username]").fill(username)
    form.locator("input[name=password]").fill(password)
    form.get_by_role("button", name="Log in").click()
    expect(page).to_have_url(re.compile(r"/characters/$|/campaigns/(\d+/gm/)?$"))


def htmx_ready(page):
    """Wait until htmx has processed the page: its script (deferred) has run and the document's
    load event has fired, after htmx's own start-up on DOMContentLoaded. A click that follows a
    navigation only waits for the new page to start loading: on a busy machine the deferred
    htmx script could still be on its way, and the button's form was then submitted as a plain
    form (the page reloaded, the POST answered its 302 instead of the htmx fragment)."""
    page.wait_for_load_state("load")
    page.wait_for_function("() => window.htmx !== undefined && document.readyState === 'complete'")


def post(page, path_end):
    """Wait for the POST whose URL ends with ``path_end`` (the htmx request a click sends),
    once htmx is ready on the page (``htmx_ready``), so that the click sends it through htmx."""
    htmx_ready(page)
    return page.expect_response(lambda r: r.url.endswith(path_end)
                                and r.request.method == "POST")


def answered(response) -> str:
    """What a failed ``post`` answered, for the assertion's message."""
    return (f"{response.request.method} {response.url} answered {response.status} "
            f"(HX-Request: {response.request.headers.get('hx-request')})")


def gauge(page, name) -> Decimal:
    return Decimal(page.get_by_test_id(name).first.inner_text().strip())


def expect_gauge(page, name, value):
    """Wait until the gauge ``name`` shows ``value`` (the htmx swap has landed)."""
    page.wait_for_function(
        "([name, value]) => { const e = document.querySelector(`[data-testid='${name}']`);"
        " return e && Number(e.textContent.trim()) === value; }", arg=[name, float(value)])
    assert gauge(page, name) == value


def artefacts_dir(tmp_path) -> Path:
    """Where a journey keeps its screenshots: ``PERCENTILE_ARTEFACTS`` when set (CI keeps it as
    the run's artefacts), else the test's own tmp_path."""
    where = Path(os.environ.get("PERCENTILE_ARTEFACTS") or tmp_path)
    where.mkdir(parents=True, exist_ok=True)
    return where
