"""Issue 22's "Done when" journey, in two browser contexts (a GM and a player, both new):

1. The GM signs up with an e-mail (allauth's /accounts/signup/), makes a homebrew campaign at
   /campaigns/new/ (its parameters shown at their defaults first) and invites by link from
   the campaign's players page.
2. The player opens the link signed out, signs up with an e-mail from the login page, comes
   back to the invitation, joins and makes a homebrew character.
3. Both, on the campaign's chat, post a message and a ``/roll 2d6+3``; each sees the other's
   without reload (pushed).
4. The GM opens an encounter, adds a named NPC then the player's character (the order of
   play), starts it and advances to the player's turn; the player's bell says "your turn" without reload; the
   player acts (another action, named) and the GM's page shows it.
5. The GM downloads the campaign's export (the transfer page's link); the campaign is deleted
   (standing for a fresh database) and the document imported (transfer.importer); the GM and
   the player open the imported encounter and it plays on: the GM ends the turn, the player's
   page shows it is the NPC's turn again (a new round).

Screenshots kept (tests/browser/helpers.artefacts_dir)."""

from __future__ import annotations

import json
import re

import pytest

from tests.browser.helpers import artefacts_dir, htmx_ready, post

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SEEN_MS = 10_000  # pushed: well under the live pages' minute-long safety poll
PASSWORD = "Lantern-Keep-83"


def _sign_up(page, username):
    form = page.locator("main form")
    form.locator("input[name=username]").fill(username)
    form.locator("input[name=email]").fill(f"{username}@example.org")
    form.locator("input[name=password1]").fill(PASSWORD)
    form.locator("input[name=password2]").fill(PASSWORD)
    form.get_by_role("button", name="Create my account").click()


def _live(page):
    htmx_ready(page)
    page.wait_for_function("() => document.body.dataset.live === 'live'")


def _chat(page, text):
    form = page.get_by_test_id("chat-form")
    form.get_by_test_id("chat-text").fill(text)
    form.get_by_test_id("chat-send").click()
    from playwright.sync_api import expect

    expect(form.get_by_test_id("chat-text")).to_have_value("")  # sent, the form is fresh


def _current_name(encounter_id) -> str | None:
    from encounters.models import Encounter

    e = Encounter.objects.select_related("current").get(pk=encounter_id)
    return e.current.name if e.current else None


def test_a_group_signs_up_plays_exports_and_plays_on_after_the_import(chromium, live_server,
                                                                      tmp_path):
    from playwright.sync_api import expect

    from campaigns.models import Campaign
    from characters.models import Character
    from encounters.models import Encounter
    from transfer.importer import campaign_import

    shots = artefacts_dir(tmp_path)
    url = live_server.url
    contexts = []
    try:
        for _ in range(2):
            context = chromium.new_context(locale="en-GB", viewport={"width": 1280, "height": 900},
                                           accept_downloads=True)
            context.set_default_timeout(15_000)
            contexts.append(context)
        gm, player = (c.new_page() for c in contexts)

        # 1. The GM signs up with an e-mail and makes a homebrew campaign.
        gm.goto(f"{url}/accounts/signup/")
        _sign_up(gm, "morgane")
        expect(gm).to_have_url(f"{url}/characters/")
        gm.goto(f"{url}/campaigns/new/")
        htmx_ready(gm)
        form = gm.get_by_test_id("campaign-new")
        form.get_by_label("Name").fill("Salt Roads")
        form.get_by_test_id("rule-system").select_option("homebrew")
        expect(gm.locator("input[name=param_characteristic_points]")).to_have_value("170")
        gm.screenshot(path=str(shots / "group-campaign-new.png"), full_page=True)
        gm.get_by_test_id("campaign-create").click()
        expect(gm).to_have_url(re.compile(r"/campaigns/\d+/gm/$"))
        campaign = Campaign.objects.get(name="Salt Roads")
        assert campaign.game_master.username == "morgane"
        assert campaign.game_master.emailaddress_set.filter(email="morgane@example.org").exists()
        assert campaign.rule_system == "homebrew"

        # ... and invites by link from its players page.
        gm.get_by_test_id("gm-members").click()
        expect(gm).to_have_url(f"{url}/campaigns/{campaign.pk}/members/")
        with post(gm, f"/campaigns/{campaign.pk}/invitations/new/") as made:
            gm.get_by_test_id("invitation-create").click()
        assert made.value.status == 200
        link = gm.get_by_test_id("invitation-link").first.input_value()
        assert link.startswith(f"{url}/campaigns/join/")

        # 2. The player: the link, the login page, signs up, back to the invitation, joins.
        player.goto(link)
        expect(player).to_have_url(re.compile(r"/accounts/login/\?next="))
        player.get_by_test_id("signup-link").click()
        _sign_up(player, "ysolde")
        expect(player).to_have_url(link)
        expect(player.get_by_test_id("invitation")).to_contain_text("Salt Roads")
        player.get_by_test_id("invitation-accept").click()
        expect(player).to_have_url(f"{url}/characters/")
        expect(player.locator("main")).to_contain_text("You are a member of Salt Roads")
        player.get_by_label("Name").fill("Wren")
        player.get_by_role("button", name="Begin the character").click()
        player.get_by_role("button", name="Create the character").click()
        expect(player.locator("main")).to_contain_text("Wren")
        wren = Character.objects.get(name="Wren")
        assert wren.campaign_id == campaign.pk and wren.owner.username == "ysolde"
        player.screenshot(path=str(shots / "group-character.png"), full_page=True)

        # 3. Both chat and roll on the campaign's chat; each sees the other's, pushed.
        chat_url = f"{url}/chat/campaigns/{campaign.pk}/"
        for page in (gm, player):
            page.goto(chat_url)
            _live(page)
        seen = {"gm": gm.get_by_test_id("chat-messages"),
                "player": player.get_by_test_id("chat-messages")}
        _chat(gm, "Welcome to the Salt Roads.")
        expect(seen["player"]).to_contain_text("Welcome to the Salt Roads.", timeout=SEEN_MS)
        _chat(player, "Glad to be here!")
        expect(seen["gm"]).to_contain_text("Glad to be here!", timeout=SEEN_MS)
        _chat(gm, "/roll 2d6+3")
        expect(seen["player"].get_by_test_id("roll-card")).to_have_count(1, timeout=SEEN_MS)
        expect(seen["player"].get_by_test_id("roll-card")).to_contain_text("rolls 2d6+3")
        _chat(player, "/roll 2d6+3")
        expect(seen["gm"].get_by_test_id("roll-card")).to_have_count(2, timeout=SEEN_MS)
        expect(seen["player"].get_by_test_id("roll-card")).to_have_count(2)
        player.screenshot(path=str(shots / "group-chat.png"), full_page=True)

        # 4. The GM opens an encounter with Wren and a named NPC, and starts it.
        gm.goto(f"{url}/encounters/campaign/{campaign.pk}/")
        gm.locator("main input[name=name]").fill("Ford ambush")
        with gm.expect_navigation():
            gm.get_by_role("button", name="Open an encounter").click()
        expect(gm).to_have_url(re.compile(r"/encounters/\d+/control/$"))
        encounter = Encounter.objects.get(campaign=campaign, name="Ford ambush")
        gm.get_by_test_id("setup").locator("input[name=name]").fill("Bandit")  # first in order
        with post(gm, "/add/"):
            gm.get_by_test_id("setup").get_by_test_id("add").click()
        expect(gm.locator("#encounter table").first).to_contain_text("Bandit")
        # The step's answer and its push both swap the fragment (whichever comes last): a page
        # loaded afresh has neither on its way, so the next form filled is the one sent.
        gm.reload()
        _live(gm)
        setup = gm.get_by_test_id("setup")
        setup.locator("select[name=character]").select_option(label=["Wren"])
        with post(gm, "/add/"):
            setup.get_by_test_id("add").click()
        expect(gm.locator("#encounter table").first).to_contain_text("Wren")
        _live(gm)
        player.goto(f"{url}/characters/")  # another page of the site: the bell only
        _live(player)
        expect(player.get_by_test_id("bell-count")).to_have_count(0)
        with post(gm, "/start/"):
            gm.get_by_test_id("start").click()
        expect(gm.get_by_test_id("status")).to_contain_text("Bandit's turn", timeout=SEEN_MS)
        assert _current_name(encounter.pk) == "Bandit"
        expect(player.get_by_test_id("bell-count")).to_have_count(0)  # not Wren's turn yet
        with post(gm, "/next/"):
            gm.get_by_test_id("next").click()
        expect(gm.get_by_test_id("status")).to_contain_text("Wren's turn", timeout=SEEN_MS)
        assert _current_name(encounter.pk) == "Wren"

        # The player's bell says so, without reload; its link opens the encounter.
        expect(player.get_by_test_id("bell-count")).to_have_text("1", timeout=SEEN_MS)
        player.get_by_test_id("bell").click()
        item = player.get_by_test_id("bell-item")
        expect(item).to_contain_text("It is Wren's turn in Ford ambush.")
        player.screenshot(path=str(shots / "group-bell.png"))
        item.get_by_role("link").click()
        expect(player).to_have_url(f"{url}/encounters/{encounter.pk}/")
        _live(player)
        expect(player.get_by_test_id("your-turn")).to_be_visible()

        # The player acts; the GM's page shows it, pushed.
        player.get_by_test_id("other-name").fill("Cuts the ferry rope")
        with post(player, "/other/"):
            player.get_by_test_id("other").click()
        expect(gm.get_by_test_id("log")).to_contain_text("Cuts the ferry rope", timeout=SEEN_MS)
        gm.screenshot(path=str(shots / "group-encounter-gm.png"), full_page=True)

        # 5. The GM downloads the export from the campaign's transfer page.
        gm.goto(f"{url}/campaigns/{campaign.pk}/import/")
        with gm.expect_download() as download:
            gm.get_by_test_id("export-link").click()
        saved = tmp_path / "export.json"
        download.value.save_as(saved)
        assert download.value.suggested_filename == "salt-roads.percentile.json"
        document = json.loads(saved.read_text(encoding="utf-8"))
        assert document["format"] == "percentile-campaign"
        assert document["campaign"]["name"] == "Salt Roads"
        assert sorted(document["users"]) == ["morgane", "ysolde"]

        # A fresh database stands in: the campaign and all it holds are gone, then imported.
        Campaign.objects.filter(pk=campaign.pk).delete()
        assert not Encounter.objects.exists() and not Character.objects.exists()
        result = campaign_import(document=document)
        imported = Campaign.objects.get(name="Salt Roads")
        assert imported.pk != campaign.pk and result is not None
        again = Encounter.objects.get(campaign=imported, name="Ford ambush")
        assert _current_name(again.pk) == "Wren"
        assert Character.objects.get(name="Wren").owner.username == "ysolde"

        # It plays on: both open the imported encounter, the GM ends Wren's turn.
        gm.goto(f"{url}/encounters/{again.pk}/control/")
        player.goto(f"{url}/encounters/{again.pk}/")
        for page in (gm, player):
            _live(page)
            expect(page.get_by_test_id("log")).to_contain_text("Cuts the ferry rope")
        expect(player.get_by_test_id("your-turn")).to_be_visible()
        with post(gm, "/next/"):
            gm.get_by_test_id("next").click()
        expect(player.get_by_test_id("your-turn")).to_have_count(0, timeout=SEEN_MS)
        expect(player.get_by_test_id("status")).to_contain_text("Bandit's turn")
        expect(player.get_by_test_id("status")).to_contain_text("Round 2")
        assert _current_name(again.pk) == "Bandit"
        player.screenshot(path=str(shots / "group-imported-player.png"), full_page=True)
        gm.screenshot(path=str(shots / "group-imported-gm.png"), full_page=True)
    finally:
        for context in contexts:
            context.close()
