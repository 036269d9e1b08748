"""HP/MP edges in the homebrew sheet admin: a gauge above its maximum was saved (25/20 HP
shown, a rest then "healing" downwards to the maximum); the maximum itself and negative HP
(unconscious, dying) stay allowed."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from homebrew.models import HomebrewSheet
from tests import factories
from tests.admin.test_admin_add_forms import form_data
from tests.homebrew.conftest import build_world


@pytest.fixture
def setup(db, alice, bob):
    hb = build_world(alice, bob)
    client = Client()
    client.force_login(factories.user("root", is_staff=True, is_superuser=True))
    url = reverse("admin:homebrew_homebrewsheet_change", args=[hb.aria.pk])
    return hb, client, url, client.get(url)


@pytest.mark.parametrize(("fields", "bad"), [({"hp": 21, "hp_max": 20}, "hp"),
                                             ({"mp": 11, "mp_max": 10}, "mp"),
                                             ({"hp": 5, "hp_max": 4}, "hp")])
def test_a_gauge_above_its_maximum_is_refused(setup, fields, bad):
    hb, client, url, page = setup
    refused = client.post(url, form_data(page, **fields))
    assert refused.status_code == 200
    assert "At most the maximum" in str(refused.context["adminform"].form.errors[bad])
    sheet = HomebrewSheet.objects.get(pk=hb.aria.pk)
    assert (sheet.hp, sheet.hp_max, sheet.mp, sheet.mp_max) == (20, 20, 10, 10)


@pytest.mark.parametrize("fields", [{"hp": 20, "hp_max": 20, "mp": 10, "mp_max": 10},
                                    {"hp": -19, "hp_max": 20}, {"mp": 0, "mp_max": 0}])
def test_the_maximum_and_negative_hp_are_saved(setup, fields):
    hb, client, url, page = setup
    saved = client.post(url, form_data(page, **fields))
    assert saved.status_code == 302, saved.context["adminform"].form.errors
    sheet = HomebrewSheet.objects.get(pk=hb.aria.pk)
    assert all(getattr(sheet, k) == v for k, v in fields.items())
