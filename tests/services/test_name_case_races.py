"""Two characters whose names differ only by case, created at the same moment in one campaign
(PostgreSQL: SQLite serialises writers anyway). The name check (``name__iexact``) is slowed down
here so that both creations surely pass it before either inserts: the database's unique
constraint on ``Lower("name")`` and the campaign then refuses the second, which gets the same
``name_taken`` error as the check gives."""

import random
import time

import pytest
from django.utils import timezone

from campaigns.errors import InvalidInput
from characters import services
from characters.models import Character
from ew1 import creation
from ew1.models import CharacterDraft, EternalWarSheet
from tests.concurrency import run_together

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def slowed(real):
    def slow(*args, **kwargs):
        name = real(*args, **kwargs)
        time.sleep(0.3)  # both have passed the check when the first inserts
        return name
    return slow


@pytest.fixture
def slow_name_check(monkeypatch):
    monkeypatch.setattr(services, "new_character_name", slowed(services.new_character_name))
    monkeypatch.setattr(creation, "new_character_name", slowed(creation.new_character_name))


def one_made_one_taken(results, campaign):
    made = [r for r in results if isinstance(r, Character)]
    refused = [r for r in results if not isinstance(r, Character)]
    assert len(made) == 1 and len(refused) == 1, results
    assert isinstance(refused[0], InvalidInput) and refused[0].key == "name_taken", refused
    assert Character.objects.filter(campaign=campaign, name__iexact="aldric").count() == 1
    assert EternalWarSheet.objects.filter(character__campaign=campaign).count() == 1
    return made[0], refused[0]


def test_aldric_and_aldric_created_at_once_give_one_character(alice, bob, campaign,
                                                               slow_name_check):
    now = timezone.now()

    def create(user, name, seed):
        return lambda: services.character_create(user=user, campaign=campaign, name=name,
                                                 rng=random.Random(seed), now=now)

    results = run_together(create(alice, "Aldric", 1), create(bob, "aldric", 2))

    made, refused = one_made_one_taken(results, campaign)
    assert refused.params["name"] == ("aldric" if made.name == "Aldric" else "Aldric")


def test_two_drafts_confirmed_at_once_as_aldric_and_aldric(alice, bob, campaign,
                                                            slow_name_check):
    drafts = [creation.draft_roll(user=user, campaign=campaign, name=name,
                                  rng=random.Random(seed))
              for user, name, seed in ((alice, "Aldric", 1), (bob, "aldric", 2))]

    results = run_together(
        *(lambda d=d: creation.draft_confirm(user=d.user, draft_id=d.pk, rng=random.Random(3))
          for d in drafts))

    made, _refused = one_made_one_taken(results, campaign)
    # The loser keeps its draft (to pick another name); the winner's is gone.
    assert list(CharacterDraft.objects.values_list("user_id", flat=True)) == [
        (bob if made.owner_id == alice.pk else alice).pk]
