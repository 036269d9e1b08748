"""The demo campaigns (config.demo: one of each rule system, the same GM and players) and the
ids of each system's objects, for the tests that cross one system's endpoints with another's
ids and the API fuzzing."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.core.cache import caches
from django.test import Client
from rest_framework.test import APIClient

from campaigns.models import Campaign, RuleSystem

SYSTEMS = ("ew1", "homebrew", "eclipse")
MISSING = 10 ** 6  # an id no object has


@dataclass(frozen=True)
class SystemIds:
    """One object of each kind a route names, in one system's demo campaign."""

    campaign_id: int
    character_id: int  # alice's character there
    encounter_id: int  # an encounter of the campaign (any id with none: EW1 has none)
    combatant_id: int
    item_id: int
    draft_id: int
    network_id: int = MISSING  # a TACNet (Eclipse Phase's only)
    faction_id: int = MISSING  # not crossed: factions are shared by every system
    request_id: int = MISSING
    reaction_id: int = MISSING
    message_id: int = MISSING  # a chat message of the campaign (the chat is every system's)
    # A row of the campaign's catalogue (the GM's back office, campaigns.catalogue) and its kind.
    row_id: int = MISSING
    kind: str = "none"
    invitation_id: int = MISSING  # an invitation to the campaign (every system's)
    join_request_id: int = MISSING  # a request to join the campaign (every system's)
    notification_id: int = MISSING  # one of alice's notifications (every system's)


@pytest.fixture(autouse=True)
def _local_cache(settings):
    """Rate-limit counters in process memory, empty for each test."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": "robust-tests"}}
    caches["default"].clear()


def _ids(campaign, alice) -> SystemIds:
    from characters.models import Character
    from encounters.models import Combatant, Encounter
    from ew1.models import CharacterDraft, ItemInstance

    character = Character.objects.filter(campaign=campaign, owner=alice).order_by("pk").first()
    encounter = Encounter.objects.filter(campaign=campaign).order_by("pk").first()
    combatant = (Combatant.objects.filter(encounter=encounter).order_by("pk").first()
                 if encounter else None)
    item = ItemInstance.objects.filter(owner=character).order_by("pk").first()
    draft = CharacterDraft.objects.filter(campaign=campaign).order_by("pk").first()
    from eclipse.models import SquadNetwork

    network = SquadNetwork.objects.filter(campaign=campaign).order_by("pk").first()
    from django.utils import timezone

    from chat.models import Message

    message = Message.objects.create(campaign=campaign, body="Robust", html="<p>Robust</p>",
                                     created_at=timezone.now())
    from campaigns.catalogue import kinds_of
    from campaigns.models import CampaignInvitation, CampaignJoinRequest
    from notifications.models import Notification

    invitation = CampaignInvitation.objects.create(campaign=campaign,
                                                   code=f"robust{campaign.pk}")
    join_request = CampaignJoinRequest.objects.create(campaign=campaign, user=alice)
    notification = Notification.objects.create(
        user=alice, kind="turn", code="turn", campaign=campaign, created_at=timezone.now(),
        params={"character": "Robust", "encounter": "Robust"})

    rows = [(kind.slug, kind.model.objects.filter(campaign=campaign).order_by("pk").first())
            for kind in kinds_of(campaign.rule_system)]
    kind, row = next(((slug, row) for slug, row in rows if row is not None), ("none", None))
    return SystemIds(network_id=network.pk if network else MISSING, campaign_id=campaign.pk,
                     row_id=row.pk if row else MISSING, kind=kind,
                     invitation_id=invitation.pk, join_request_id=join_request.pk,
                     message_id=message.pk, notification_id=notification.pk,
                     character_id=character.pk,
                     encounter_id=encounter.pk if encounter else MISSING,
                     combatant_id=combatant.pk if combatant else MISSING,
                     item_id=item.pk if item else MISSING,
                     draft_id=draft.pk if draft else MISSING)


@dataclass(frozen=True)
class Demo:
    gm: object
    alice: object
    stranger: object
    ids: dict[str, SystemIds]


def _load() -> Demo:
    import random

    from django.contrib.auth import get_user_model

    from config.demo import load_demo
    from ew1.creation import draft_roll

    load_demo()
    users = get_user_model().objects
    gm, alice = users.get(username="gm"), users.get(username="alice")
    stranger = users.create_user("stranger", "stranger@example.invalid", "x")
    by_system = {RuleSystem.ETERNAL_WAR: "ew1", RuleSystem.HOMEBREW: "homebrew",
                 RuleSystem.ECLIPSE_PHASE: "eclipse"}
    ew1 = Campaign.objects.get(rule_system=RuleSystem.ETERNAL_WAR)
    draft_roll(user=alice, campaign=ew1, name="Alice draft", rng=random.Random(4))
    from eclipse.models import SquadNetwork

    SquadNetwork.objects.create(campaign=Campaign.objects.get(
        rule_system=RuleSystem.ECLIPSE_PHASE), name="Demo net")
    ids = {by_system[c.rule_system]: _ids(c, alice) for c in Campaign.objects.all()}
    return Demo(gm, alice, stranger, ids)



@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker):
    """The demo, loaded once per module (loading it takes about a second, and the crossing
    module runs some two hundred tests): inside a transaction held open for the module and
    rolled back at its end, each test's own transaction nested in it as a savepoint, so what a
    test writes is rolled back after it and the next one reads the demo as loaded."""
    from django.db import transaction

    with django_db_blocker.unblock():
        outer = transaction.atomic()
        outer.__enter__()
        try:
            demo = _load()
        except BaseException:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)
            raise
    try:
        yield demo
    finally:
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)


def api_client(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def page_client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client
