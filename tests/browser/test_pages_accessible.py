"""The main pages of the three systems, as their readers see them: no critical or serious
axe-core violation (EW1 board and sheet, homebrew encounter and sheet, Eclipse Phase encounter
with its turn panel and sheet, the game master's screen and control pages, the campaign list),
and at 390 px wide (a phone) no word of a header, label or button broken across two lines, in
English and in French, on the encounter pages of the homebrew and Eclipse Phase demos and the
EW1 board. Screenshots at 390 px: PERCENTILE_SCREENSHOT_DIR, else the test's tmp_path."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from django.conf import settings

from tests.browser.a11y import axe_violations, broken_words
from tests.browser.helpers import htmx_ready, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def _tables():
    """The demos (config.demo) with both encounters started; the Eclipse Phase one advanced to
    the turn of alice's character (her page shows the turn panel). -> {name: path}, by reader."""
    from django.contrib.auth import get_user_model

    from campaigns.models import Campaign
    from characters.models import Character
    from config.demo import load_demo
    from encounters import services as enc
    from encounters.models import Encounter

    load_demo()
    users = get_user_model().objects
    gm, alice = users.get(username="gm"), users.get(username="alice")
    paths: dict[str, dict[str, str]] = {"gm": {}, "alice": {}}
    for campaign in Campaign.objects.order_by("pk"):
        system = campaign.rule_system
        paths["gm"][f"{system} GM screen"] = f"/campaigns/{campaign.pk}/gm/"
        mine = Character.objects.filter(campaign=campaign, owner=alice).first()
        if mine:
            paths["alice"][f"{system} sheet"] = f"/characters/{mine.pk}/"
            paths["alice"][f"{system} chat"] = f"/chat/campaigns/{campaign.pk}/"
        encounter = Encounter.objects.filter(campaign=campaign).first()
        if encounter is None:
            paths["alice"][f"{system} board"] = f"/characters/{mine.pk}/board/"
            continue
        enc.encounter_start(user=gm, encounter_id=encounter.pk, rng=random.Random(3))
        for _ in range(12):  # to alice's turn: her page has the turn panel
            encounter.refresh_from_db()
            if encounter.current and encounter.current.character.owner_id == alice.pk:
                break
            enc.encounter_next_turn(user=gm, encounter_id=encounter.pk,
                                    turn=encounter.turn_serial)
        paths["alice"][f"{system} encounter"] = f"/encounters/{encounter.pk}/"
        paths["gm"][f"{system} encounter control"] = f"/encounters/{encounter.pk}/control/"
    paths["gm"]["campaign list"] = "/campaigns/"
    return paths


def _reader(chromium, live_server, username, *, viewport, language="en"):
    """A context logged in as ``username`` reading in ``language`` (its cookie, set after the
    English login page), ``viewport`` applied once logged in."""
    context = chromium.new_context(bypass_csp=True, viewport=DESKTOP, locale="en-GB")
    page = context.new_page()
    log_in(page, live_server, username)
    context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": language,
                          "url": live_server.url}])
    page.set_viewport_size(viewport)
    return context, page


def test_main_pages_have_no_serious_axe_violation(chromium, live_server):
    paths = _tables()
    found = {}
    for username, pages in paths.items():
        context, page = _reader(chromium, live_server, username, viewport=DESKTOP)
        for name, path in pages.items():
            page.goto(live_server.url + path)
            htmx_ready(page)
            found[f"{username}: {name}"] = axe_violations(page)
        context.close()
    for name, violations in found.items():
        print(f"axe {name}: {len(violations)} critical/serious", [v["id"] for v in violations])
    assert len(found) >= 11
    assert not any(found.values()), {k: v for k, v in found.items() if v}


@pytest.mark.parametrize("language", ["en", "fr"])
def test_no_word_is_broken_at_390_px(chromium, live_server, tmp_path, language):
    paths = _tables()
    shots = Path(os.environ.get("PERCENTILE_SCREENSHOT_DIR") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    found = {}
    for username, pages in paths.items():
        context, page = _reader(chromium, live_server, username, viewport=PHONE,
                                language=language)
        for name, path in pages.items():
            if not name.endswith(("encounter", "encounter control", "board")):
                continue
            page.goto(live_server.url + path)
            htmx_ready(page)
            page.screenshot(path=str(shots / f"390-{language}-{username}-{name.replace(' ', '-')}.png"),
                            full_page=True)
            found[f"{username}: {name}"] = broken_words(page)
        context.close()
    assert len(found) == 5
    assert not any(found.values()), {k: v for k, v in found.items() if v}
