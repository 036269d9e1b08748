"""What the changes outside the board's journal announce (campaigns.live, issue 17, item 7):
every Eclipse Phase sheet change its sheet pages (the sheet locked to be written), and the beat
tasks' bulk statements the boards and sheets they changed: once per topic, after the epoch's
bump (a refetch reads the versions first), nothing but the topic."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from campaigns import live, versions
from combat.services import character_suicide
from combat.tasks import release_cooldowns
from ew1.models import EternalWarSheet
from ew1.tasks import regenerate_resources, reset_daily_pa
from tests import factories


@pytest.fixture
def sent(monkeypatch):
    """What reaches the pages, in order, with the epoch bumps among it."""
    events: list = []
    monkeypatch.setattr(live, "send_event", lambda name, kind, data: events.append(data))
    bump = versions._incr

    def incr(keys):
        if versions.EPOCH in keys:
            events.append("epoch")
        bump(keys)

    monkeypatch.setattr(versions, "_incr", incr)
    return events


def _topics(events) -> list:
    return [e if e == "epoch" else e["topic"] for e in events]


def test_the_regeneration_tick_announces_the_boards_and_sheets_it_changed(
        alice, campaign, sent, django_capture_on_commit_callbacks):
    owed = factories.character(owner=alice, campaign=campaign, name="Eager", at=(0, 0),
                               now=timezone.now() - timedelta(hours=4, minutes=1),
                               pa=Decimal("3"))
    full = factories.character(owner=alice, campaign=campaign, name="Full", at=(1, 0))
    other = factories.campaign(name="Elsewhere")
    factories.character(owner=alice, campaign=other, name="Rested", at=(0, 0))
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert regenerate_resources.run() == 1
    assert _topics(sent) == ["epoch", f"board-{campaign.pk}", f"character-{owed.pk}"]
    assert f"character-{full.pk}" not in _topics(sent)
    assert all(set(e) == {"topic"} for e in sent if e != "epoch")
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert regenerate_resources.run() == 0  # nothing owed: nothing announced
    assert _topics(sent) == ["epoch"]


def test_the_daily_reset_announces_the_boards_of_the_sheets_it_reset(
        alice, campaign, sent, django_capture_on_commit_callbacks):
    hero = factories.character(owner=alice, campaign=campaign, name="Hero", at=(0, 0))
    EternalWarSheet.objects.filter(pk=hero.pk).update(pa_spent_today=Decimal(4),
                                                      pa_spent_day=date(2020, 1, 1))
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert reset_daily_pa.run() == 1
    assert _topics(sent) == ["epoch", f"board-{campaign.pk}"]


def test_a_released_cooldown_announces_the_characters_pages(
        alice, campaign, sent, django_capture_on_commit_callbacks):
    hero = factories.character(owner=alice, campaign=campaign, name="Hero", at=(5, 5))
    now = timezone.now() - timedelta(hours=7)
    character_suicide(user=alice, character_id=hero.pk, now=now)
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert release_cooldowns.run() == {"noticed": 1, "reincarnated": 0}
    topics = _topics(sent)
    assert topics.index("epoch") < topics.index(f"character-{hero.pk}")
    assert f"board-{campaign.pk}" in topics[topics.index("epoch"):]


def test_expired_shields_announce_the_boards_and_sheets_that_showed_them(
        alice, campaign, sent, django_capture_on_commit_callbacks):
    from magic.models import ActiveEffect, Spell
    from magic.tasks import expire_effects

    shielded = factories.character(owner=alice, campaign=campaign, name="Shielded", at=(0, 0))
    lasting = factories.character(owner=alice, campaign=campaign, name="Lasting", at=(1, 0))
    bouclier = Spell.objects.create(name="Bouclier", effect="shield", dice="1d4")
    now = timezone.now()
    for target, expires_at in ((shielded, now - timedelta(minutes=1)),
                               (shielded, now - timedelta(hours=1)),
                               (lasting, now + timedelta(hours=1))):
        ActiveEffect.objects.create(target=target, caster=target, spell=bouclier, amount=2,
                                    expires_at=expires_at)
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert expire_effects.run() == 2
    # Once each, after the epoch; the character whose shield holds is not told.
    assert _topics(sent) == ["epoch", f"board-{campaign.pk}", f"character-{shielded.pk}"]
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert expire_effects.run() == 0  # nothing expired: nothing announced
    assert _topics(sent) == ["epoch"]


@pytest.fixture
def ep(db, alice, bob):
    from tests.eclipse.conftest import build_world

    return build_world(alice, bob)


def test_every_eclipse_sheet_change_announces_its_sheet_once(
        ep, sent, django_capture_on_commit_callbacks):
    from eclipse import services

    steps = [lambda: services.heal(user=ep.gm, character=ep.ash, damage=1),
             lambda: services.moxie_spend(user=ep.alice, character=ep.ash),
             lambda: services.resleeve(user=ep.gm, character=ep.ash, morph_id=ep.synth.pk)]
    for step in steps:
        sent.clear()
        with django_capture_on_commit_callbacks(execute=True):
            step()
        topics = _topics(sent)
        assert topics.count(f"character-{ep.ash.pk}") == 1, topics
        assert f"character-{ep.brick.pk}" not in topics


def test_a_refused_eclipse_change_announces_nothing(ep, sent, django_capture_on_commit_callbacks):
    from eclipse import services
    from gamerules.errors import RuleError

    sent.clear()
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(RuleError):
        services.heal(user=ep.alice, character=ep.ash, damage=1)  # the GM's only
    assert f"character-{ep.ash.pk}" not in _topics(sent)
