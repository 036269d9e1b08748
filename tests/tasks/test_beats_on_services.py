"""The two beat jobs of issue 8 on the real services: two cooldown beats at once on PostgreSQL
(each suicide handled once), and the cooldown task run by a real Celery worker over Redis."""

from datetime import timedelta

import pytest
from django.utils import timezone

from campaigns.models import ActionRecord
from characters.models import Character
from combat.cooldowns import CooldownRelease, cooldowns_release
from combat.services import character_suicide
from combat.tasks import release_cooldowns
from tests import factories
from tests.concurrency import run_together
from tests.tasks.test_regenerate_resources import worker  # noqa: F401 - the worker fixture


def suicide_long_ago(user, campaign, name, *, at, asap=False):
    c = factories.character(owner=user, campaign=campaign, name=name, at=at)
    character_suicide(user=user, character_id=c.pk, reincarnate_asap=asap,
                      now=timezone.now() - timedelta(hours=7))
    return c


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_cooldown_beats_at_once_handle_each_suicide_once(alice):
    campaign = factories.campaign(width=20, height=20)
    for i in range(6):
        suicide_long_ago(alice, campaign, f"C{i}", at=(i, 0), asap=i % 2 == 0)

    results = run_together(cooldowns_release, cooldowns_release)

    assert all(isinstance(r, CooldownRelease) for r in results), results
    assert sum(results, CooldownRelease()) == CooldownRelease(noticed=3, reincarnated=3)
    assert ActionRecord.objects.filter(kind="reincarnate").count() == 3
    assert set(Character.objects.values_list("cooldown_notice", flat=True)) == {
        "cooldown_over", "reincarnated"}
    cells = list(Character.objects.filter(board__isnull=False).values_list("x", "y"))
    assert len(cells) == len(set(cells)) == 3
    assert cooldowns_release() == CooldownRelease()


@pytest.mark.redis
def test_a_worker_releases_a_cooldown_once(alice, worker):  # noqa: F811
    queue, wait = worker
    campaign = factories.campaign()
    hero = suicide_long_ago(alice, campaign, "Hero", at=(1, 1), asap=True)

    assert wait(release_cooldowns.apply_async(queue=queue).id) == {"noticed": 0,
                                                                   "reincarnated": 1}
    hero = Character.objects.get(pk=hero.pk)
    assert (hero.on_board, hero.cooldown_notice) == (True, "reincarnated")
    assert wait(release_cooldowns.apply_async(queue=queue).id) == {"noticed": 0,
                                                                   "reincarnated": 0}
