"""The Content-Security-Policy (issue 17 item 6): every page the URL sweep knows, read as a
stranger, a player and the game master, and the admin's pages, answer with the enforced header
(no 'unsafe-inline' nor 'unsafe-eval' for scripts, frame-ancestors 'none'), and their HTML runs
nothing the policy would block: no inline handler, no style="" attribute, no inline <script> or
<style> without the answer's nonce. The templates are read too, so that a fragment no page shows
yet is caught. The browser journeys (tests/browser/conftest.py) fail on any violation."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib import admin
from django.test import Client
from django.urls import reverse

from tests import factories
from tests.breaker.conftest import logged_in
from tests.breaker.test_url_sweep import PAGES, page_methods, sweep_values, url_of

HEADER = "Content-Security-Policy"
# The event stream never ends under the ASGI server; under the test client it answers at once.
GET_PAGES = [r for r in PAGES if "get" in page_methods(r)] + ["api/docs/"]


def directives(header: str) -> dict[str, list[str]]:
    parts = (p.split() for p in header.split(";") if p.strip())
    return {p[0]: p[1:] for p in parts}


class Offences(HTMLParser):
    """What in a page the policy would block, given the answer's nonce (None: no nonce)."""

    def __init__(self, nonce: str | None):
        super().__init__()
        self.nonce, self.found, self._inline = nonce, [], None

    def handle_starttag(self, tag, attrs):
        named = dict(attrs)
        for name, _ in attrs:
            if name.startswith("on") or name == "style" or name.startswith("hx-on"):
                self.found.append(f"<{tag} {name}=...>")
        if tag == "script" and "src" not in named and named.get("type") != "application/json":
            self._check_nonce(tag, named)
        if tag == "style":
            self._check_nonce(tag, named)
        if named.get("hx-trigger") and "[" in named["hx-trigger"]:
            self.found.append(f"<{tag} hx-trigger={named['hx-trigger']!r}> (a filter: eval)")

    def _check_nonce(self, tag, named):
        if self.nonce is None or named.get("nonce") != self.nonce:
            self.found.append(f"inline <{tag}> without the answer's nonce")


def offences(response) -> list[str]:
    policy = response.get(HEADER)
    if policy is None:
        return ["no Content-Security-Policy header"]
    found = []
    policy_of = directives(policy)
    scripts = policy_of.get("script-src", policy_of.get("default-src", []))
    if "'unsafe-inline'" in scripts or "'unsafe-eval'" in scripts:
        found.append(f"script-src {scripts}")
    if policy_of.get("frame-ancestors") != ["'none'"]:
        found.append(f"frame-ancestors {policy_of.get('frame-ancestors')}")
    if response.get("Content-Type", "").startswith("text/html"):
        nonces = [s[len("'nonce-"):-1] for s in scripts if s.startswith("'nonce-")]
        parser = Offences(nonces[0] if nonces else None)
        parser.feed(response.content.decode())
        found += parser.found
    return found


def sweep(client, values) -> dict[str, list[str]]:
    """Each page's offences (pages with none left out), and the statuses seen."""
    bad, statuses = {}, set()
    for route in GET_PAGES:
        url = url_of(route, values)
        response = client.get(url)
        statuses.add(response.status_code)
        assert response.status_code < 500, (url, response.status_code)
        if found := offences(response):
            bad[url] = found
    return bad, statuses


@pytest.fixture
def gm(world):
    user = factories.user("gm")
    world.campaign.game_master = user
    world.campaign.save(update_fields=["game_master"])
    return user


@pytest.mark.parametrize("viewer", ["stranger", "player", "game master"])
def test_every_page_sends_the_enforced_policy_and_runs_nothing_it_blocks(world, gm, viewer):
    values = sweep_values(world)
    client = {"stranger": Client(), "player": logged_in(world.alice),
              "game master": logged_in(gm)}[viewer]
    bad, statuses = sweep(client, values)
    assert bad == {}
    if viewer != "stranger":
        assert 200 in statuses  # the pages were shown, not only refused
    assert len(GET_PAGES) > 25


def test_the_policy_is_enforced_and_strict():
    policy = settings.CONTENT_SECURITY_POLICY["DIRECTIVES"]
    assert not getattr(settings, "CONTENT_SECURITY_POLICY_REPORT_ONLY", None)
    for directive in ("script-src", "style-src"):
        assert not {"'unsafe-inline'", "'unsafe-eval'"} & set(policy[directive])
    assert policy["connect-src"] == ["'self'"] and policy["frame-ancestors"] == ["'none'"]


def test_the_api_docs_inline_script_carries_the_answers_nonce(client):
    response = client.get(reverse("api-docs"))
    assert response.status_code == 200
    nonce = re.search(r"script-src [^;]*'nonce-([^']+)'", response[HEADER]).group(1)
    assert f'<script nonce="{nonce}">' in response.content.decode()
    assert offences(response) == []
    again = client.get(reverse("api-docs"))
    assert nonce not in again[HEADER]  # a new nonce for each answer


def test_pages_without_an_inline_script_name_no_nonce(world):
    response = logged_in(world.alice).get(reverse("characters:list"))
    assert response.status_code == 200
    assert "'nonce-" not in response[HEADER]


def admin_urls(world) -> list[str]:
    urls = [reverse("admin:index"), reverse("admin:password_change")]
    for model in admin.site._registry:
        meta = model._meta
        urls.append(reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist"))
        urls.append(reverse(f"admin:{meta.app_label}_{meta.model_name}_add"))
    urls.append(reverse("admin:characters_character_change", args=[world.a.pk]))
    return urls


def test_the_admin_pages_run_nothing_the_policy_blocks(world):
    client = Client()
    client.force_login(factories.user("root", is_staff=True, is_superuser=True))
    bad = {}
    for url in admin_urls(world):
        response = client.get(url)
        assert response.status_code in (200, 302, 403), (url, response.status_code)
        if found := offences(response):
            bad[url] = found
    assert bad == {}


# What the template sources may not hold (Django syntax, so read as text, not parsed as HTML).
TEMPLATE_OFFENCES = {
    "inline event handler": re.compile(r"<[^>]*(?<![\w-])on\w+\s*=", re.S),
    "style attribute": re.compile(r"<[^>]*(?<![\w-])style\s*=", re.S),
    "inline <script> without a nonce": re.compile(r"<script\b(?![^>]*\b(?:src|nonce)=)[^>]*>"),
    "<style> without a nonce": re.compile(r"<style\b(?![^>]*\bnonce=)[^>]*>"),
    "hx-on (eval)": re.compile(r"\bhx-on"),
    "htmx trigger filter (eval)": re.compile(r"hx-trigger=\"[^\"]*\["),
    "htmx js: values (eval)": re.compile(r"hx-(?:vals|vars|headers)='?\"?\s*(?:js|javascript):"),
}


def project_templates() -> list[Path]:
    roots = [Path(d) for t in settings.TEMPLATES for d in t["DIRS"]]
    roots += [p for p in settings.BASE_DIR.glob("*/templates") if ".venv" not in p.parts]
    return sorted({p for root in roots for p in root.rglob("*.html")})


def test_no_template_holds_what_the_policy_blocks():
    templates = project_templates()
    assert len(templates) > 50
    bad = {str(path.relative_to(settings.BASE_DIR)): name
           for path in templates for name, pattern in TEMPLATE_OFFENCES.items()
           if pattern.search(path.read_text())}
    assert bad == {}


@pytest.mark.parametrize("source, offence", [
    ('<select name="x" onchange="go()">', "inline event handler"),
    ('<button\n   onclick="go()">', "inline event handler"),
    ("<table style=\"--cells: 3\">", "style attribute"),
    ("<script>alert(1)</script>", "inline <script> without a nonce"),
    ("<style>p {}</style>", "<style> without a nonce"),
    ('<div hx-on:click="go()">', "hx-on (eval)"),
    ('<div hx-trigger="every 1s [ready()]">', "htmx trigger filter (eval)"),
])
def test_the_template_check_catches_each_offence(source, offence):
    assert TEMPLATE_OFFENCES[offence].search(source)
    for allowed in ('<form hx-confirm="Leave?">', '<script src="/static/a.js" defer></script>',
                    '<script nonce="{{ request.csp_nonce }}">', '<meta name="x" content="a">',
                    "<select data-autosubmit>", '<div hx-trigger="every 5s">'):
        assert not TEMPLATE_OFFENCES[offence].search(allowed)
