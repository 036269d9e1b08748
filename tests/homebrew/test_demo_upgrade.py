"""An install whose demo came before the homebrew system (made at 19183ea, then migrated):
`make run` calls load_demo, which said "Campaigns exist already" and never added the homebrew
demo; it adds it once now, and leaves a database without the demo users alone."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from config.demo import load_demo
from campaigns.models import Campaign
from characters.models import Character
from homebrew.demo import DEMO_CAMPAIGN

pytestmark = pytest.mark.django_db


def _load() -> str:
    out = StringIO()
    call_command("load_demo", stdout=out)
    return out.getvalue()


def test_an_older_demo_gets_the_homebrew_demo_once():
    load_demo()
    Campaign.objects.filter(name=DEMO_CAMPAIGN).delete()  # as the demo was before homebrew
    assert "Homebrew d100: demo" in _load()
    campaign = Campaign.objects.get(name=DEMO_CAMPAIGN)
    assert sorted(Character.objects.filter(campaign=campaign, kind="player")
                  .values_list("owner__username", "name")) == [("alice", "Lysandre"),
                                                                ("bob", "Tobin")]
    assert "demo not loaded" in _load()
    assert Campaign.objects.filter(name=DEMO_CAMPAIGN).count() == 1


def test_a_database_without_the_demo_users_is_left_alone(campaign):
    assert "demo not loaded" in _load()
    assert list(Campaign.objects.all()) == [campaign]


def test_an_empty_database_gets_both_demos_named():
    out = _load()
    assert "'Eternal War: demo'" in out and "'Homebrew d100: demo'" in out
