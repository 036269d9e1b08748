"""The map as the encounter page's main view (issue 21, item 1): at 1366x768 the map is most of
the page's width and fits the screen's height, tokens and portraits large enough to read, the
background anchored to the ground (a token over it stays on the same spot of the picture when
another moves), the player's turn beside the map; at 390x844 nothing is wider than the screen;
the homebrew creation page counts the points left and stops a pick past the starting picks.
Screenshots go to ``PERCENTILE_ARTEFACTS`` (tests/browser/helpers.artefacts_dir)."""

from __future__ import annotations

import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image, ImageDraw

from tests.browser.helpers import artefacts_dir, log_in
from tests.factories import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _png(size, paint) -> SimpleUploadedFile:
    image = Image.new("RGB", size, (60, 90, 70))
    paint(ImageDraw.Draw(image), size)
    out = io.BytesIO()
    image.save(out, format="PNG")
    return SimpleUploadedFile("p.png", out.getvalue(), content_type="image/png")


def _ground(draw, size):  # a floor plan: rooms, a corridor, a pool
    w, h = size
    draw.rectangle((0, 0, w, h), fill=(92, 84, 70))
    draw.rectangle((w * .05, h * .1, w * .45, h * .6), fill=(140, 120, 90), outline=(30, 20, 10),
                   width=8)
    draw.rectangle((w * .55, h * .35, w * .95, h * .9), fill=(120, 130, 110),
                   outline=(30, 20, 10), width=8)
    draw.rectangle((w * .45, h * .3, w * .55, h * .4), fill=(150, 140, 120))
    draw.ellipse((w * .1, h * .7, w * .3, h * .95), fill=(40, 90, 150))


def _face(draw, size):
    w, h = size
    draw.rectangle((0, 0, w, h), fill=(230, 200, 90))
    draw.ellipse((w * .2, h * .15, w * .8, h * .85), fill=(240, 190, 160))
    draw.ellipse((w * .33, h * .35, w * .43, h * .45), fill=(20, 20, 20))
    draw.ellipse((w * .57, h * .35, w * .67, h * .45), fill=(20, 20, 20))
    draw.arc((w * .35, h * .45, w * .65, h * .7), 20, 160, fill=(150, 30, 30), width=6)


def _no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def _on_picture(page, name) -> tuple[float, float]:
    """Where the token ``name`` stands on the background picture (0 to 1 each way)."""
    return page.evaluate("""(name) => {
        const t = document.querySelector(`[data-testid=map-token][data-name="${name}"] .token-body`);
        const b = document.querySelector("[data-testid=map-background]");
        const tb = t.getBoundingClientRect(), bb = b.getBoundingClientRect();
        return [(tb.x + tb.width / 2 - bb.x) / bb.width, (tb.y + tb.height / 2 - bb.y) / bb.height];
    }""", name)


def test_the_map_is_the_main_view_wide_and_on_a_phone(chromium, live_server, alice, bob,
                                                       tmp_path, settings):
    from playwright.sync_api import expect

    from encounters import services as enc
    from tests.eclipse_play.conftest import build_world, running

    settings.MEDIA_ROOT = tmp_path / "media"
    ep = build_world(alice, bob)
    e, c = running(ep)  # Ava's turn: Alice's turn card beside the map
    enc.encounter_background_set(user=ep.gm, encounter_id=e.pk, upload=_png((1500, 1000), _ground),
                                 width=30)
    enc.combatant_portrait_set(user=ep.alice, encounter_id=e.pk, combatant_id=c[ep.ava.pk].pk,
                               upload=_png((300, 300), _face))
    for who, (x, y) in ((ep.ava, (8, 12)), (ep.bo, (12, 9)), (ep.guard, (22, 6))):
        enc.combatant_place(user=ep.gm, encounter_id=e.pk, combatant_id=c[who.pk].pk, x=x, y=y)
    shots = artefacts_dir(tmp_path)

    context = chromium.new_context(locale="en-GB", viewport={"width": 1366, "height": 768})
    context.set_default_timeout(15_000)
    ap = context.new_page()
    log_in(ap, live_server, "alice", PASSWORD)
    ap.goto(f"{live_server.url}/encounters/{e.pk}/")
    svg = ap.locator("svg.map")
    expect(ap.get_by_test_id("map-background")).to_be_visible()
    svg.scroll_into_view_if_needed()
    box = svg.bounding_box()
    assert box["width"] >= 700 and box["height"] <= 768, box  # the main view, on one screen
    token = ap.locator("[data-testid=map-token][data-name=Bo] .token-body").bounding_box()
    assert token["width"] >= 36, token  # was 28 px
    portrait = ap.get_by_test_id("map-portrait").bounding_box()
    assert portrait["width"] >= 28, portrait
    turn = ap.get_by_test_id("my-turn").bounding_box()
    assert turn["x"] >= box["x"] + box["width"] - 1  # beside the map
    assert _no_sideways_scroll(ap)
    ap.screenshot(path=str(shots / "map-main-1366-player.png"))
    ava = _on_picture(ap, "Ava")
    enc.combatant_place(user=ep.gm, encounter_id=e.pk, combatant_id=c[ep.guard.pk].pk, x=3, y=18)
    expect(ap.locator("[data-testid=map-token][data-name=Guard]")).to_have_attribute("data-x", "3")
    after = _on_picture(ap, "Ava")
    assert abs(after[0] - ava[0]) < .002 and abs(after[1] - ava[1]) < .002  # anchored

    gm = chromium.new_context(locale="en-GB", viewport={"width": 1366, "height": 768}).new_page()
    log_in(gm, live_server, "gm", PASSWORD)
    gm.goto(f"{live_server.url}/encounters/{e.pk}/control/")
    expect(gm.get_by_test_id("map-pictures")).to_be_visible()
    assert _on_picture(gm, "Ava") == pytest.approx(after, abs=.002)  # the same spot for the GM
    gm.locator("svg.map").scroll_into_view_if_needed()
    gm.screenshot(path=str(shots / "map-main-1366-gm.png"))
    gm.screenshot(path=str(shots / "map-main-1366-gm-full.png"), full_page=True)

    ap.set_viewport_size({"width": 390, "height": 844})
    ap.reload()
    expect(svg).to_be_visible()
    width = svg.bounding_box()["width"]
    assert 330 <= width <= 390 and _no_sideways_scroll(ap)
    ap.screenshot(path=str(shots / "map-main-390-player.png"), full_page=True)
    gm.context.close()
    context.close()


def test_the_homebrew_creation_counts_the_points_and_the_picks(page, live_server, alice, bob,
                                                               tmp_path):
    from playwright.sync_api import expect

    from tests import factories
    from tests.homebrew.conftest import build_world

    hb = build_world(alice, bob)
    for w in (hb.sword, hb.fireball, hb.claws):
        w.offered_at_creation = True
        w.save()
    factories.user("carol")
    page.set_viewport_size({"width": 1366, "height": 768})
    log_in(page, live_server, "carol", PASSWORD)
    page.goto(f"{live_server.url}/homebrew/campaigns/{hb.campaign.pk}/new/?name=Nova")
    left = page.get_by_test_id("points-left")
    expect(left).to_have_text("Points left: 0 of 170.")  # shared evenly at first
    page.get_by_test_id("field-physique").fill("40")
    expect(left).to_contain_text("every point must be spent")
    page.get_by_test_id("field-physique").fill("90")
    expect(left).to_contain_text("too many spent")
    expect(page.get_by_test_id("sub-left-physique")).to_contain_text("of 9 left for the subs")
    page.get_by_test_id(f"gear-{hb.sword.pk}").check()
    page.get_by_test_id(f"gear-{hb.fireball.pk}").check()
    expect(page.get_by_test_id("picks-left")).to_have_text("2 of 2 picked.")
    expect(page.get_by_test_id(f"gear-{hb.claws.pk}")).to_be_disabled()  # a third: stopped
    page.get_by_test_id(f"gear-{hb.sword.pk}").uncheck()
    expect(page.get_by_test_id(f"gear-{hb.claws.pk}")).to_be_enabled()
    page.screenshot(path=str(artefacts_dir(tmp_path) / "homebrew-creation-counts.png"),
                    full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})
    assert _no_sideways_scroll(page)
    page.screenshot(path=str(artefacts_dir(tmp_path) / "homebrew-creation-390.png"),
                    full_page=True)


def test_the_eclipse_creation_counts_the_aptitude_points(page, live_server, alice, tmp_path):
    from playwright.sync_api import expect

    from tests import factories

    campaign = factories.EclipseCampaignFactory(name="EP budget")
    page.set_viewport_size({"width": 1366, "height": 768})
    log_in(page, live_server, "alice", PASSWORD)
    page.goto(f"{live_server.url}/eclipse/campaigns/{campaign.pk}/new/?name=Nova")
    left = page.get_by_test_id("points-left")
    expect(left).to_have_text("Aptitude points left: 0 of 105.")  # 15 each at first
    page.get_by_test_id("field-REF").fill("22")
    expect(left).to_have_text("Aptitude points left: -7 of 105 (too many spent).")
    page.get_by_test_id("field-COG").fill("8")
    expect(left).to_have_text("Aptitude points left: 0 of 105.")
    page.screenshot(path=str(artefacts_dir(tmp_path) / "eclipse-creation-counts.png"))
