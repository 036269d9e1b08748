"""Hostile uploads to the map's pictures (encounters.pictures, campaigns.images): a picture
whose EXIF block is broken (Pillow reads the pixels but not the orientation) is taken upright as
it is, never a 500; a picture that is mostly pixels (a small file that decodes to tens of
millions) is refused or thumbnailed without holding the whole decoded picture twice."""

from __future__ import annotations

import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

from campaigns.images import background_file, portrait_file
from characters.models import Character
from tests.eclipse_play.conftest import build_world, running


@pytest.fixture(autouse=True)
def _media(tmp_path, settings):
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.SERVE_MEDIA = True


def _with_exif(kind: str, exif: bytes) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (40, 20), (10, 200, 10)).save(out, format=kind, exif=exif)
    return out.getvalue()


# Each read by Pillow as a picture whose EXIF block fails when the orientation is applied: a PNG
# eXIf chunk that is no TIFF header (SyntaxError), one cut short (struct.error), a JPEG whose
# PrimaryChromaticities tag (0x013f, numbers) holds text (TypeError while Pillow writes it back).
GOOD_EXIF = Image.new("RGB", (1, 1)).getexif()
GOOD_EXIF[0x0112] = 6
TEXT_IN_NUMBERS = (b"Exif\x00\x00MM\x00*\x00\x00\x00\x08\x00\x02\x01?\x00\x02\x00\x00\x00\x06"
                   b"\x00\x00\x00&\x01\x12\x00\x03\x00\x00\x00\x01\x00\x06\x00\x00\x00\x00\x00\x00"
                   b"hello\x00")
BROKEN = [
    ("PNG", b"garbage-exif-bytes"),
    ("PNG", b"Exif\x00\x00MM\x00*\x00\x00"),
    ("JPEG", TEXT_IN_NUMBERS),
]


@pytest.mark.parametrize("kind, exif", BROKEN)
@pytest.mark.parametrize("make", [portrait_file, background_file])
def test_a_broken_exif_block_is_ignored_not_a_crash(kind, exif, make):
    picture = make(SimpleUploadedFile("x.png", _with_exif(kind, exif)), max_bytes=10**6)
    with Image.open(picture) as made:
        # taken as sent (or turned, when Pillow fails only on writing the tags back)
        assert made.size in ((128, 128), (40, 20), (20, 40))


def test_a_good_exif_orientation_still_turns_the_picture():
    background = background_file(SimpleUploadedFile("x.jpg", _with_exif(
        "JPEG", GOOD_EXIF.tobytes())), max_bytes=10**6)
    with Image.open(background) as made:
        assert made.size == (20, 40)  # orientation 6: turned a quarter


def test_a_portrait_with_a_broken_exif_from_the_page_is_saved(client, db, alice, bob):
    ep = build_world(alice, bob)
    e, c = running(ep)
    client.force_login(ep.alice)
    upload = SimpleUploadedFile("me.png", _with_exif(*BROKEN[0]), content_type="image/png")
    response = client.post(f"/encounters/{e.pk}/portrait/", {
        "combatant": c[ep.ava.pk].pk, "page": "play", "picture": upload}, follow=True)
    assert response.status_code == 200 and "Portrait saved." in response.content.decode()
    assert Character.objects.get(pk=ep.ava.pk).portrait


def test_a_token_with_a_portrait_keeps_a_ring_of_its_sides_colour(client, db, alice, bob):
    """The portrait covered the whole token disc: friend and foe looked alike once both had
    one. It is drawn inside the disc, which stays visible around it (app.css colours it)."""
    ep = build_world(alice, bob)
    e, c = running(ep)
    from encounters import services as enc

    enc.combatant_place(user=ep.gm, encounter_id=e.pk, combatant_id=c[ep.ava.pk].pk, x=0, y=0)
    client.force_login(ep.alice)
    client.post(f"/encounters/{e.pk}/portrait/", {
        "combatant": c[ep.ava.pk].pk, "page": "play",
        "picture": SimpleUploadedFile("me.png", _with_exif("PNG", b""), content_type="image/png")})
    page = client.get(f"/encounters/{e.pk}/").content.decode()
    token = page.split(f'id="map-token-{c[ep.ava.pk].pk}"')[1].split("</g>")[0]
    assert '<circle class="token-body" r="14"/>' in token
    assert 'x="-11" y="-11" width="22" height="22"' in token.split('class="token-portrait"')[1]
    assert '<clipPath id="token-clip"><circle r="11"/></clipPath>' in page


def test_a_player_sending_another_players_portrait_is_told_it_is_not_theirs(client, db, alice,
                                                                            bob):
    """It said "Only the campaign's game master can do that.", as if the GM could be asked."""
    ep = build_world(alice, bob)
    e, c = running(ep)
    client.force_login(ep.alice)
    upload = SimpleUploadedFile("me.png", _with_exif("PNG", b""), content_type="image/png")
    html = client.post(f"/encounters/{e.pk}/portrait/", {
        "combatant": c[ep.bo.pk].pk, "page": "play", "picture": upload},
        follow=True).content.decode()
    assert "You do not play this combatant." in html
    assert "game master" not in html.split('class="messages')[1].split("</ul>")[0]
    assert not Character.objects.get(pk=ep.bo.pk).portrait
