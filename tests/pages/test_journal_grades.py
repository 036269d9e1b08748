"""The log shows each test roll's grade as a badge, in English and in French (issue 10, item 2)."""

import re

import pytest
from django.urls import reverse

from combat.services import action_brawl
from tests import factories
from tests.gamerules.fakes import FakeRandom

STATS = {"FOR": 10, "TAI": 10, "DEF": 10, "LUK": 10,
         "skills": {"brawl": 90, "melee": 35, "ranged": 25, "magic": 20, "dodge": 10,
                    "throw": 25, "game": 30}}


@pytest.fixture
def perfect_attack(alice, bob, campaign):
    hero = factories.character(owner=alice, campaign=campaign, name="Hero", at=(5, 5), **STATS)
    foe = factories.character(owner=bob, campaign=campaign, name="Foe", at=(6, 5), **STATS)
    # a perfect hit (4 < 5), not dodged (12), 1d4 + 1d3, DEF rolls 11 (fails), 10 (wins), 11
    action_brawl(user=alice, character_id=hero.pk, target_id=foe.pk,
                 rng=FakeRandom(4, 12, 4, 3, 11, 10, 11))
    return hero


def badges(html: str) -> list[tuple[str, str]]:
    return re.findall(r'<span class="grade grade-([a-z_]+)" data-testid="grade">([^<]+)</span>',
                      html)


@pytest.mark.parametrize("language, words", [
    ("en", {"perfect": "Perfect", "success": "Success", "failure": "Failure"}),
    ("fr", {"perfect": "Parfait", "success": "Réussite", "failure": "Échec"}),
])
def test_the_sheets_log_shows_the_grades(alice_client, perfect_attack, language, words):
    alice_client.cookies["django_language"] = language
    html = alice_client.get(reverse("characters:detail", args=[perfect_attack.pk])).content.decode()

    grades = ["perfect", "failure", "failure", "success", "failure"]  # attack, dodge, 3 DEF
    assert badges(html) == [(g, words[g]) for g in grades]
