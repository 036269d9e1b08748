"""The game master's sheet form (issue 8, item 2): one field per skill, PA and PV as they are now
(the regeneration anchors shown as dates, set by the form, never typed as Unix seconds)."""

import time
from datetime import datetime, timedelta
from datetime import UTC
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import formats, timezone

from ew1.equipment import item_grant
from ew1.models import EternalWarSheet, ItemTemplate
from gamerules.ew1.skills import SKILLS
from tests import factories
from tests.admin.test_admin_add_forms import form_data

HOUR = 3600


@pytest.fixture
def gm_client(client, db):
    client.force_login(factories.user("gm", is_staff=True, is_superuser=True))
    return client


@pytest.fixture
def hero(alice, campaign):
    hero = factories.character(owner=alice, campaign=campaign, name="Hero", at=(1, 1))
    # 4 PA and 50 PV counted 7 hours ago: 3 PA (pa_regen_hours: 1 every 2 h) and 1 PV
    # (pv_regen_hours: 1 every 6 h) regained.
    anchor = int(time.time()) - 7 * HOUR
    EternalWarSheet.objects.filter(pk=hero.pk).update(pa=Decimal("4"), pa_anchor=anchor, pv=50,
                                                      pv_anchor=anchor)
    return hero


def change_url(hero):
    return reverse("admin:characters_character_change", args=[hero.pk])


def test_the_form_has_one_field_per_skill_and_pa_pv_now(gm_client, hero):
    page = gm_client.get(change_url(hero))
    form = page.context["inline_admin_formsets"][0].formset.forms[0]
    sheet = EternalWarSheet.objects.get(pk=hero.pk)

    for skill in SKILLS:
        assert form[f"skill_{skill.code}"].value() == sheet.skills[skill.code]
    assert [str(form.fields[f"skill_{s.code}"].label) for s in SKILLS] == [
        "Brawl", "Melee weapon", "Ranged weapon", "Magic", "Dodge", "Throw", "Game"]
    assert "skills" not in form.fields and "pa_anchor" not in form.fields
    assert form["pa_now"].value() == Decimal("7") and form["pv_now"].value() == 51
    moment = timezone.localtime(datetime.fromtimestamp(sheet.pa_anchor, tz=UTC))
    html = page.content.decode()
    assert formats.date_format(moment, "DATETIME_FORMAT") in html
    assert str(sheet.pa_anchor) not in html  # no raw Unix seconds


def test_changing_one_skill_keeps_the_others_and_the_anchors(gm_client, hero):
    before = EternalWarSheet.objects.get(pk=hero.pk)
    page = gm_client.get(change_url(hero))

    saved = gm_client.post(change_url(hero), form_data(page, **{"ew1-0-skill_brawl": 55}))

    assert saved.status_code == 302
    after = EternalWarSheet.objects.get(pk=hero.pk)
    assert after.skills == {**before.skills, "brawl": 55}
    # PA and PV left as shown: the stored values and their anchors are kept (nothing lost).
    assert (after.pa, after.pa_anchor, after.pv, after.pv_anchor) == (
        before.pa, before.pa_anchor, before.pv, before.pv_anchor)


def test_pa_now_and_pv_now_set_the_value_from_now_on(gm_client, hero):
    page = gm_client.get(change_url(hero))
    start = int(time.time())

    saved = gm_client.post(change_url(hero), form_data(page, **{"ew1-0-pa_now": "9.5",
                                                                "ew1-0-pv_now": "-2"}))

    assert saved.status_code == 302
    sheet = EternalWarSheet.objects.get(pk=hero.pk)
    assert (sheet.pa, sheet.pv) == (Decimal("9.5"), -2)
    assert start - 1 <= sheet.pa_anchor <= int(time.time())
    assert start - 1 <= sheet.pv_anchor <= int(time.time())


def test_an_emptied_skill_takes_the_stored_value_and_bad_values_are_refused(gm_client, hero):
    before = EternalWarSheet.objects.get(pk=hero.pk)
    page = gm_client.get(change_url(hero))
    data = form_data(page)
    data.pop("ew1-0-skill_magic")
    assert gm_client.post(change_url(hero), data).status_code == 302
    assert EternalWarSheet.objects.get(pk=hero.pk).skills == before.skills

    for field, value in [("ew1-0-skill_brawl", "101"), ("ew1-0-skill_brawl", "-1"),
                         ("ew1-0-skill_dodge", "many"), ("ew1-0-pa_now", "-1")]:
        refused = gm_client.post(change_url(hero), form_data(page, **{field: value}))
        assert refused.status_code == 200, (field, value)
        assert refused.context["inline_admin_formsets"][0].formset.errors[0], (field, value)
    assert EternalWarSheet.objects.get(pk=hero.pk).skills == before.skills


def test_the_sheet_cannot_be_deleted_from_the_character_page(gm_client, hero):
    page = gm_client.get(change_url(hero))
    saved = gm_client.post(change_url(hero), form_data(page, **{"ew1-0-DELETE": "on"}))
    assert saved.status_code == 302
    assert EternalWarSheet.objects.filter(pk=hero.pk).exists()


def test_an_older_sheet_with_empty_skills_opens_and_saves(gm_client, hero):
    """The old JSON field refused ``{}``; the form now fills every skill."""
    EternalWarSheet.objects.filter(pk=hero.pk).update(skills={})
    page = gm_client.get(change_url(hero))
    assert page.status_code == 200
    saved = gm_client.post(change_url(hero), form_data(page))
    assert saved.status_code == 302
    skills = EternalWarSheet.objects.get(pk=hero.pk).skills
    assert set(skills) == {s.code for s in SKILLS} and skills["brawl"] == 90


def test_a_day_old_anchor_is_still_a_date(gm_client, hero):
    EternalWarSheet.objects.filter(pk=hero.pk).update(
        pv_anchor=int((timezone.now() - timedelta(days=1)).timestamp()))
    page = gm_client.get(change_url(hero))
    # 24 hours at 1 PV every 6 hours: 50 + 4.
    assert page.context["inline_admin_formsets"][0].formset.forms[0]["pv_now"].value() == 54


@pytest.mark.parametrize("items", [1, 4])
def test_the_change_page_query_count_does_not_grow_with_the_items(
        gm_client, hero, campaign, items, django_assert_num_queries):
    bow = ItemTemplate.objects.create(campaign=campaign, name="Arc", kind="ranged",
                                      damage_dice="1d6")
    for _ in range(items):
        item_grant(character=hero, template=bow)
    gm_client.get(change_url(hero))  # warm the content-type cache
    # The same 12 whatever the number of items (each item cost two more before: its template
    # and its owner, for the inline's "template (owner)" label); the character is read once
    # to find its rule system's admin, once by that admin.
    with django_assert_num_queries(12):
        assert gm_client.get(change_url(hero)).status_code == 200
