"""A campaign with two factions and one user per role, built through the services.

- ``lea`` leads the private faction Wolves with her character Lea; ``max``'s Max is a member.
- ``otto`` plays Otto, in no faction; ``rita`` leads the public faction Ravens with Rita.
- ``gina`` is the campaign's game master (no character); ``anonymous`` is not logged in.

Each role acts with "its" character (``ROLE_CHARACTER``): the GM and the anonymous visitor try
with Otto's, which is not theirs.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.test import Client
from rest_framework.test import APIClient

from campaigns.models import ActionRecord
from characters.models import Character
from factions import services
from factions.models import Faction, JoinRequest, Membership
from tests import factories

ROLES = ["leader", "member", "other", "gm", "anonymous"]
ROLE_USER = {"leader": "lea", "member": "max", "other": "otto", "gm": "gina", "anonymous": None}
ROLE_CHARACTER = {"leader": "Lea", "member": "Max", "other": "Otto", "gm": "Otto",
                  "anonymous": "Otto"}


@dataclass
class World:
    campaign: object
    users: dict
    chars: dict
    wolves: Faction  # private, led by Lea, Max a member
    ravens: Faction  # public, led by Rita

    def user(self, role):
        return self.users.get(ROLE_USER[role])

    def char(self, name) -> Character:
        return self.chars[name]


@pytest.fixture
def world(db) -> World:
    gina = factories.user("gina")
    campaign = factories.campaign(name="War")
    campaign.game_master = gina
    campaign.save(update_fields=["game_master"])
    users = {"gina": gina}
    chars = {}
    for i, name in enumerate(["Lea", "Max", "Otto", "Rita"]):
        user = factories.user(name.lower())
        users[user.username] = user
        chars[name] = factories.character(owner=user, campaign=campaign, name=name, at=(i, 0),
                                          seed=i)
    wolves = services.faction_create(user=users["lea"], character_id=chars["Lea"].pk,
                                     name="Wolves", description="Pack hunters.",
                                     is_public=False)
    invitation = services.faction_invite(user=users["lea"], faction_id=wolves.pk,
                                         character_id=chars["Max"].pk)
    services.request_answer(user=users["max"], request_id=invitation.pk, accept=True)
    ravens = services.faction_create(user=users["rita"], character_id=chars["Rita"].pk,
                                     name="Ravens", is_public=True)
    return World(campaign, users, chars, wolves, ravens)


def state() -> tuple:
    """Everything a faction operation may change."""
    return (list(Faction.objects.order_by("pk").values()),
            list(Membership.objects.order_by("pk").values("faction_id", "character_id")),
            list(JoinRequest.objects.order_by("pk").values()),
            ActionRecord.objects.count())


def page_client(world, role) -> Client:
    client = Client()
    user = world.user(role)
    if user is not None:
        client.force_login(user)
    return client


def api_client(world, role) -> APIClient:
    client = APIClient()
    user = world.user(role)
    if user is not None:
        client.force_authenticate(user)
    return client


def member_names(faction) -> set[str]:
    return set(Membership.objects.filter(faction=faction)
               .values_list("character__name", flat=True))


def otto_request(world) -> JoinRequest:
    """Otto asks to join the private Wolves."""
    return services.faction_join(user=world.users["otto"], character_id=world.char("Otto").pk,
                                 faction_id=world.wolves.pk)


def otto_invitation(world) -> JoinRequest:
    """Lea invites Otto to the Wolves."""
    return services.faction_invite(user=world.users["lea"], faction_id=world.wolves.pk,
                                   character_id=world.char("Otto").pk)
