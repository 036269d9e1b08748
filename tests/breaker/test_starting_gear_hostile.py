"""Starting gear as a hostile player (homebrew.services.homebrew_character_create): the same
creation sent twice at once on PostgreSQL makes one character with its gear once, the other
refused by name; a pick tampered with (a NUL byte, a huge or negative id, another campaign's
template, one named twice) is refused in words or counted once, never a 500."""

from __future__ import annotations

import pytest
from django.urls import reverse

from characters.models import Character
from homebrew.errors import StartingGearRefused
from homebrew.models import HomebrewSheet
from homebrew.services import homebrew_character_create
from tests import factories
from tests.concurrency import run_together
from tests.homebrew.conftest import SPREAD, build_world
from tests.homebrew.test_pages import HTMX, _logged, _post


def _offered(hb):
    for w in (hb.sword, hb.fireball):
        w.offered_at_creation = True
        w.save()
    return hb


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_same_creation_twice_at_once_makes_one_character_with_its_gear_once(alice, bob):
    hb = _offered(build_world(alice, bob))

    def create():
        return homebrew_character_create(user=hb.alice, campaign=hb.campaign, name="Twin",
                                         values=SPREAD, gear=[hb.sword.pk, hb.fireball.pk])

    results = run_together(create, create)

    made = [r for r in results if isinstance(r, Character)]
    assert len(made) == 1, results
    assert [getattr(r, "key", None) for r in results if r not in made] == ["name_taken"]
    sheet = HomebrewSheet.objects.get(character__name="Twin")
    assert sorted(sheet.weapons.values_list("name", flat=True)) == ["Fireball", "Sword"]


@pytest.mark.django_db
@pytest.mark.parametrize("pick", ["\x00", "1\x00", "99999999999999999999", "-5", "0", "1.0",
                                  "\uff11", "2147483648", ""])
def test_a_tampered_pick_on_the_page_is_refused_in_words(client, alice, bob, pick):
    hb = _offered(build_world(alice, bob))
    url = reverse("homebrew:create", args=[hb.campaign.pk])
    response = _logged(client, hb.alice).post(url, _post(gear=[pick]), **HTMX)
    assert response.status_code == 422 and 'data-testid="error"' in response.content.decode()
    assert not Character.objects.filter(name="Nova").exists()


@pytest.mark.django_db
def test_another_campaigns_offered_template_and_a_pick_named_twice(alice, bob):
    hb = _offered(build_world(alice, bob))
    other = factories.HomebrewWeaponFactory(campaign=factories.HomebrewCampaignFactory(),
                                            name="Alien", die="1d4", offered_at_creation=True)
    with pytest.raises(StartingGearRefused) as refused:
        homebrew_character_create(user=hb.alice, campaign=hb.campaign, name="Nova",
                                  values=SPREAD, gear=[other.pk])
    assert refused.value.code == "weapon_other_campaign"
    twice = homebrew_character_create(user=hb.alice, campaign=hb.campaign, name="Nova",
                                      values=SPREAD, gear=[hb.sword.pk] * 3)
    assert list(twice.homebrew.weapons.values_list("name", flat=True)) == ["Sword"]
