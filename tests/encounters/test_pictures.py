"""The map's pictures (encounters.pictures, campaigns.images): a portrait by the GM or the
combatant's player, thumbnailed to a 128 px square PNG and drawn on the token instead of the
initials; an encounter background by the GM, drawn under the grid; refusals in words (too big,
not a picture, another type, another player's combatant, no character); a hidden combatant's
portrait never on a player's page; the old file removed; French."""

from __future__ import annotations

import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import override_settings
from PIL import Image

from characters.models import Character
from encounters import services as enc
from encounters.models import Combatant, Encounter
from tests.eclipse_play.conftest import build_world, running


@pytest.fixture
def ep(db, alice, bob):
    return build_world(alice, bob)


@pytest.fixture(autouse=True)
def _media(tmp_path, settings):
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.SERVE_MEDIA = True


def _picture(kind="PNG", size=(300, 200), colour=(200, 30, 30), name="me.png"):
    out = io.BytesIO()
    Image.new("RGB", size, colour).save(out, format=kind)
    return SimpleUploadedFile(name, out.getvalue(), content_type="image/png")


def _placed(ep):
    e, c = running(ep)
    for pk, (x, y) in ((c[ep.ava.pk].pk, (0, 0)), (c[ep.bo.pk].pk, (3, -2)),
                       (c[ep.guard.pk].pk, (8, 3))):
        enc.combatant_place(user=ep.gm, encounter_id=e.pk, combatant_id=pk, x=x, y=y)
    return e, c


def test_the_player_sends_a_portrait_and_the_token_shows_it(client, ep):
    e, c = _placed(ep)
    client.force_login(ep.alice)
    page = client.get(f"/encounters/{e.pk}/").content.decode()
    form = page.split('data-testid="portrait-form"')[1].split("</form>")[0]
    assert f'<option value="{c[ep.ava.pk].pk}">Ava</option>' in form
    assert "Bo</option>" not in form and "Guard</option>" not in form  # not hers
    response = client.post(f"/encounters/{e.pk}/portrait/", {
        "combatant": c[ep.ava.pk].pk, "page": "play", "picture": _picture()})
    assert response.status_code == 302
    ava = Character.objects.get(pk=ep.ava.pk)
    with Image.open(ava.portrait.path) as thumb:
        assert thumb.size == (128, 128) and thumb.format == "PNG"
    page = client.get(f"/encounters/{e.pk}/").content.decode()
    assert page.count('data-testid="map-portrait"') == 1 and ava.portrait.url in page
    row = page.split(f'id="enc-row-{c[ep.ava.pk].pk}"')[1].split("</tr>")[0]
    assert f'<img class="chip-portrait" src="{ava.portrait.url}"' in row  # the order's row too
    assert page.count('data-testid="row-portrait"') == 1
    assert client.get(ava.portrait.url).status_code == 200
    client.force_login(ep.bob)  # every viewer of the map sees it
    assert ava.portrait.url in client.get(f"/encounters/{e.pk}/").content.decode()


def test_another_portrait_replaces_and_deletes_the_old_file(
        client, ep, django_capture_on_commit_callbacks):
    e, c = _placed(ep)
    client.force_login(ep.gm)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/encounters/{e.pk}/portrait/", {
            "combatant": c[ep.guard.pk].pk, "page": "control", "picture": _picture()})
    first = Character.objects.get(pk=ep.guard.pk).portrait
    assert first.storage.exists(first.name)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/encounters/{e.pk}/portrait/", {
            "combatant": c[ep.guard.pk].pk, "page": "control",
            "picture": _picture("JPEG", name="g.jpg")})
    second = Character.objects.get(pk=ep.guard.pk).portrait
    assert second.name != first.name and not first.storage.exists(first.name)
    assert second.storage.exists(second.name)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/encounters/{e.pk}/portrait/", {
            "combatant": c[ep.guard.pk].pk, "page": "control", "clear": "1"})
    assert not Character.objects.get(pk=ep.guard.pk).portrait


@pytest.mark.parametrize("upload, words", [
    (SimpleUploadedFile("x.png", b"not a picture at all", content_type="image/png"),
     "not a picture this site can read"),
    (None, "Choose a picture to send."),
])
def test_a_bad_file_is_refused_in_words(client, ep, upload, words):
    e, c = _placed(ep)
    client.force_login(ep.alice)
    data = {"combatant": c[ep.ava.pk].pk, "page": "play"}
    if upload is not None:
        data["picture"] = upload
    response = client.post(f"/encounters/{e.pk}/portrait/", data, follow=True)
    assert words in response.content.decode()
    assert not Character.objects.get(pk=ep.ava.pk).portrait


def test_another_type_and_a_big_file_are_refused(client, ep):
    e, c = _placed(ep)
    client.force_login(ep.alice)
    bmp = _picture("BMP", name="me.bmp")
    html = client.post(f"/encounters/{e.pk}/portrait/", {
        "combatant": c[ep.ava.pk].pk, "page": "play", "picture": bmp},
        follow=True).content.decode()
    assert "Send a PNG, JPEG, GIF or WebP picture (not BMP)." in html
    with override_settings(PORTRAIT_MAX_BYTES=1024):
        html = client.post(f"/encounters/{e.pk}/portrait/", {
            "combatant": c[ep.ava.pk].pk, "page": "play",
            "picture": _picture(size=(900, 900), colour=(1, 2, 3))},
            follow=True, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "L’image est trop grande" in html
    assert not Character.objects.get(pk=ep.ava.pk).portrait


def test_a_player_cannot_give_another_ones_portrait_nor_a_background(client, ep):
    e, c = _placed(ep)
    client.force_login(ep.alice)
    client.post(f"/encounters/{e.pk}/portrait/", {
        "combatant": c[ep.bo.pk].pk, "page": "play", "picture": _picture()})
    assert not Character.objects.get(pk=ep.bo.pk).portrait
    client.post(f"/encounters/{e.pk}/background/", {"page": "play", "picture": _picture()})
    assert not Encounter.objects.get(pk=e.pk).background
    client.logout()
    assert client.post(f"/encounters/{e.pk}/portrait/", {
        "combatant": "x", "page": "play"}).status_code in (302, 400, 404)


def test_the_gm_sends_a_background_drawn_under_the_grid(client, ep):
    e, _c = _placed(ep)
    client.force_login(ep.gm)
    client.post(f"/encounters/{e.pk}/background/", {
        "page": "control", "picture": _picture(size=(3000, 1500))})
    e.refresh_from_db()
    with Image.open(e.background.path) as bg:
        assert bg.size == (1600, 800) and bg.format == "JPEG"
    client.force_login(ep.alice)
    page = client.get(f"/encounters/{e.pk}/").content.decode()
    assert 'data-testid="map-background"' in page and e.background.url in page
    assert page.index('data-testid="map-background"') < page.index('class="map-grid"')
    assert 'data-testid="background-form"' not in page  # the GM's only


def test_a_hidden_combatants_portrait_never_reaches_a_player(client, ep):
    e, c = _placed(ep)
    client.force_login(ep.gm)
    client.post(f"/encounters/{e.pk}/portrait/", {
        "combatant": c[ep.guard.pk].pk, "page": "control", "picture": _picture()})
    Combatant.objects.filter(pk=c[ep.guard.pk].pk).update(hidden=True)
    enc.characters_changed([ep.guard.pk])
    url = Character.objects.get(pk=ep.guard.pk).portrait.url
    assert url in client.get(f"/encounters/{e.pk}/control/").content.decode()
    client.force_login(ep.alice)
    assert url not in client.get(f"/encounters/{e.pk}/").content.decode()


def test_the_pictures_are_there_with_nobody_placed(client, ep):
    e, c = running(ep)  # in play, nobody placed: no map
    client.force_login(ep.gm)
    page = client.get(f"/encounters/{e.pk}/control/").content.decode()
    assert 'data-testid="map"' not in page
    assert 'data-testid="background-form"' in page and 'data-testid="portrait-form"' in page
    client.force_login(ep.alice)  # joined, not placed: her own portrait
    page = client.get(f"/encounters/{e.pk}/").content.decode()
    form = page.split('data-testid="portrait-form"')[1].split("</form>")[0]
    assert f'<option value="{c[ep.ava.pk].pk}">Ava</option>' in form and "Guard" not in form
    assert 'data-testid="background-form"' not in page
    client.post(f"/encounters/{e.pk}/portrait/", {
        "combatant": c[ep.ava.pk].pk, "page": "play", "picture": _picture()})
    assert Character.objects.get(pk=ep.ava.pk).portrait


def test_the_background_has_metres_and_is_the_map_before_anyone_is_placed(client, ep):
    e, _c = running(ep)
    client.force_login(ep.gm)
    client.post(f"/encounters/{e.pk}/background/", {
        "page": "control", "width": "40", "picture": _picture(size=(3000, 1500))})
    e.refresh_from_db()
    assert (e.background_width_m, e.background_height_m) == (40, 20)
    page = client.get(f"/encounters/{e.pk}/control/").content.decode()
    image = page.split('class="map-background"')[1].split("/>")[0]
    assert 'data-width-m="40" data-height-m="20"' in image and 'preserveAspectRatio="none"' in image
    assert 'data-testid="map-token"' not in page  # the picture alone, to place them on
    client.post(f"/encounters/{e.pk}/background/", {
        "page": "control", "picture": _picture(size=(200, 300))})  # the default width
    e.refresh_from_db()
    assert (e.background_width_m, e.background_height_m) == (30, 45)
    html = client.post(f"/encounters/{e.pk}/background/", {
        "page": "control", "width": "0", "picture": _picture()}, follow=True).content.decode()
    assert "A background is 1 to 2000 metres wide" in html
    e.refresh_from_db()
    assert e.background_width_m == 30  # nothing changed
    client.post(f"/encounters/{e.pk}/background/", {"page": "control", "clear": "1"})
    e.refresh_from_db()
    assert not e.background and e.background_width_m is None


def _jpeg(size):
    out = io.BytesIO()
    Image.new("RGB", size, (10, 120, 200)).save(out, format="JPEG", quality=70)
    return SimpleUploadedFile("big.jpg", out.getvalue(), content_type="image/jpeg")


def test_a_portrait_over_its_pixel_cap_is_refused_a_jpeg_is_read_reduced(client, ep, settings):
    from campaigns import images

    e, c = running(ep)
    settings.PORTRAIT_MAX_PIXELS = 1_000_000
    client.force_login(ep.alice)
    html = client.post(f"/encounters/{e.pk}/portrait/", {
        "combatant": c[ep.ava.pk].pk, "page": "play", "picture": _picture(size=(1200, 1000))},
        follow=True).content.decode()
    assert "The picture is 1200 x 1000 pixels: at most 1.0 million pixels" in html
    assert not Character.objects.get(pk=ep.ava.pk).portrait
    read = images._opened(_jpeg((2400, 1600)), 10**7, keep=(128, 128), max_pixels=1_000_000)
    assert read.size == (300, 200)  # decoded at 1/8: 3.8 million pixels never held
    client.post(f"/encounters/{e.pk}/portrait/", {
        "combatant": c[ep.ava.pk].pk, "page": "play", "picture": _jpeg((2400, 1600))})
    with Image.open(Character.objects.get(pk=ep.ava.pk).portrait.path) as thumb:
        assert thumb.size == (128, 128)
    with pytest.raises(images.ImageRefused) as refused:  # a background keeps the 40 million
        images.portrait_file(_picture(size=(1200, 1000)), max_bytes=10**7, max_pixels=10**6)
    assert refused.value.key == "image_too_many_pixels"
    assert images.background_file(_picture(size=(1200, 1000)), max_bytes=10**7)


def test_the_pictures_and_the_creation_counts_in_french(client, ep):
    e, _c = running(ep)
    client.force_login(ep.gm)
    page = client.get(f"/encounters/{e.pk}/control/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Largeur au sol (m)" in page and "Son coin inférieur gauche est en (0, 0) m" in page
    html = client.post(f"/encounters/{e.pk}/background/", {
        "page": "control", "width": "9999", "picture": _picture()}, follow=True,
        HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Un fond mesure de 1 à 2000 mètres de large au sol" in html
    page = client.get(f"/eclipse/campaigns/{ep.campaign.pk}/new/",
                      HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert 'data-msg-left="Points d’aptitude restants : {n} sur {total}."' in page
    assert 'data-budget="105"' in page


def _grown(ep, e, extra: int) -> None:
    """``extra`` more combatants (the GM's, by name) in ``e``, and the Guard in ``extra // 10``
    more encounters running (a portrait bumps each of them)."""
    if not extra:
        return
    enc.combatants_add(user=ep.gm, encounter_id=e.pk, entries=[
        enc.CombatantEntry(name="Drone", count=extra)])
    for n in range(extra // 10):
        other = enc.encounter_create(user=ep.gm, campaign_id=ep.campaign.pk, name=f"Other {n}")
        enc.combatants_add(user=ep.gm, encounter_id=other.pk, entries=[
            enc.CombatantEntry(character_id=ep.guard.pk)])


# The queries of a portrait's and a background's upload, the service's and the page's, whatever
# the size of the encounter and the number of the character's encounters. A portrait: the
# combatant's character, its encounters' versions (locked) and their one UPDATE, the step's
# opening (the encounter with its combatants, locked), the picture's UPDATE, the encounter
# saved, and four savepoints (the two atomic blocks). A background: the opening, the picture's
# UPDATE, the save, two savepoints. The page adds the session and its user.
PORTRAIT_QUERIES, BACKGROUND_QUERIES, PAGE_QUERIES = 10, 5, 2


@pytest.mark.parametrize("extra", [0, 20])
def test_a_portrait_costs_the_same_queries_whatever_the_encounter(
        client, ep, extra, django_assert_num_queries):
    e, c = _placed(ep)
    _grown(ep, e, extra)
    with django_assert_num_queries(PORTRAIT_QUERIES):
        enc.combatant_portrait_set(user=ep.gm, encounter_id=e.pk,
                                   combatant_id=c[ep.guard.pk].pk, upload=_picture())
    client.force_login(ep.gm)
    with django_assert_num_queries(PORTRAIT_QUERIES + PAGE_QUERIES):
        response = client.post(f"/encounters/{e.pk}/portrait/", {
            "combatant": c[ep.guard.pk].pk, "page": "control", "picture": _picture()})
    assert response.status_code == 302
    assert Character.objects.get(pk=ep.guard.pk).portrait


@pytest.mark.parametrize("extra", [0, 20])
def test_a_background_costs_the_same_queries_whatever_the_encounter(
        client, ep, extra, django_assert_num_queries):
    e, _c = _placed(ep)
    _grown(ep, e, extra)
    with django_assert_num_queries(BACKGROUND_QUERIES):
        enc.encounter_background_set(user=ep.gm, encounter_id=e.pk, upload=_picture())
    client.force_login(ep.gm)
    with django_assert_num_queries(BACKGROUND_QUERIES + PAGE_QUERIES):
        response = client.post(f"/encounters/{e.pk}/background/", {
            "page": "control", "picture": _picture()})
    assert response.status_code == 302
    e.refresh_from_db()
    assert e.background
