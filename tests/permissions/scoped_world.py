"""Two tables on one server (issue 22, item 1's matrix): the admin walk's world
(tests/admin/walk_world.py: a campaign of each rule system with a row of every model the admin
shows, and a second campaign of each) built twice. The first is the *rival* table: every name
of its rows and users carries ``MARK``, its campaigns are run by another game master; the
second is *ours*, run by ``gm`` (neither staff nor superuser) with ``co_gm`` added to each of
its campaigns. A page, an API answer or an admin list shown to one of ours must never carry
``MARK``, nor list a rival row's id."""

from __future__ import annotations

import random
from datetime import timedelta
from types import SimpleNamespace

from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.db.models import CharField, Value
from django.db.models.functions import Concat
from django.utils import timezone

from campaigns.models import Campaign
from campaigns.services import campaign_master_add
from tests import factories
from tests.admin import walk_world

MARK = "Xyzzy"
GAME_APPS = ("campaigns", "characters", "ew1", "homebrew", "eclipse", "magic", "factions",
             "encounters", "chat")
ROLES = ("gm", "co_gm", "player", "stranger", "staff")


def _mark_everything() -> None:
    """Every name of the game's rows and every user so far carries MARK."""
    for model in apps.get_models():
        if model._meta.app_label not in GAME_APPS:
            continue
        field = next((f for f in model._meta.concrete_fields if f.name == "name"), None)
        if isinstance(field, CharField):
            model.objects.update(name=Concat(Value(f"{MARK} "), "name"))
    get_user_model().objects.update(username=Concat(Value(MARK), "username"),
                                    is_staff=False, is_superuser=False)


def _rival_extras(w) -> dict:
    """The rows the page routes name that the walk world lacks (a draft, a chat message, a
    journal entry, a pending reaction, an API token), in the rival's campaigns; the ids of
    each kind the URL sweep names (tests/breaker/test_url_sweep.ID_NAMES), per system."""
    from accounts.tokens import api_token_create
    from campaigns.journal import record_action
    from chat.models import Message
    from encounters.models import PendingReaction
    from ew1.creation import draft_roll

    now = timezone.now()
    draft = draft_roll(user=w.alice, campaign=w.ew, name=f"{MARK} draft", rng=random.Random(4))
    entry = record_action(campaign=w.hb, kind="chat_roll", now=now, summary={"private": True},
                          bump=False)
    message = Message.objects.create(campaign=w.hb, body=f"{MARK} secret",
                                     html=f"<p>{MARK} secret</p>", entry=entry, created_at=now)
    reaction = PendingReaction.objects.create(
        encounter=w.encounter, actor=w.fighters[0], target=w.fighters[1], resolver="sweep",
        default="none", round=1, requested_at=now, deadline=now + timedelta(hours=1))
    token, _secret = api_token_create(user=w.alice, name=f"{MARK} token")
    from notifications.models import Notification
    notification = Notification.objects.create(
        user=w.bob, kind="turn", code="turn", campaign=w.hb, created_at=now,
        params={"character": f"{MARK} hero", "encounter": f"{MARK} fight"})
    common = {"item_id": w.item.pk, "draft_id": draft.pk, "faction_id": w.faction.pk,
              "request_id": w.request.pk, "encounter_id": w.encounter.pk,
              "combatant_id": w.fighters[0].pk, "reaction_id": reaction.pk,
              "network_id": w.tacnet.pk, "message_id": message.pk, "entry_id": entry.pk,
              "token_id": token.pk, "user_id": w.bob.pk,
              "notification_id": notification.pk}
    return {"ew1": {**common, **_catalogue_row("ew1", w.ew), **_membership_rows(w.ew, w.bob),
                    "campaign_id": w.ew.pk, "character_id": w.hero.pk},
            "homebrew": {**common, **_catalogue_row("homebrew", w.hb),
                         **_membership_rows(w.hb, w.bob), "campaign_id": w.hb.pk,
                         "character_id": w.aria.pk},
            "eclipse_phase": {**common, **_catalogue_row("eclipse_phase", w.ep),
                              **_membership_rows(w.ep, w.bob), "campaign_id": w.ep.pk,
                              "character_id": w.ash.pk}}


def _membership_rows(campaign, user) -> dict:
    """An invitation to ``campaign`` (its id and code) and ``user``'s request to join it."""
    from campaigns.models import CampaignInvitation, CampaignJoinRequest

    invitation = CampaignInvitation.objects.create(campaign=campaign,
                                                   code=f"rival{campaign.pk}")
    join_request = CampaignJoinRequest.objects.create(campaign=campaign, user=user)
    return {"invitation_id": invitation.pk, "code": invitation.code,
            "join_request_id": join_request.pk}


def _catalogue_row(system: str, campaign) -> dict:
    """The back office's ``kind`` and ``row_id`` of a row of ``campaign``'s own catalogue (the
    first kind of its system that has one)."""
    from campaigns.catalogue import kinds_of

    for kind in kinds_of(system):
        row = kind.model.objects.filter(campaign=campaign).order_by("pk").first()
        if row is not None:
            return {"kind": kind.slug, "row_id": row.pk}
    raise AssertionError(f"the rival's {system} campaign has no catalogue row")


def build() -> SimpleNamespace:
    rival = walk_world.build()
    values = _rival_extras(rival)
    _mark_everything()
    rival_ids = frozenset(Campaign.objects.values_list("pk", flat=True))
    ours = walk_world.build()
    mine = frozenset(Campaign.objects.exclude(pk__in=rival_ids).values_list("pk", flat=True))
    gm = ours.gm
    type(gm).objects.filter(pk=gm.pk).update(is_staff=False, is_superuser=False)
    co_gm = factories.user("cogm")
    for campaign_id in sorted(mine):
        campaign_master_add(user=gm, campaign_id=campaign_id, username="cogm")
    staff = factories.user("staffer", is_staff=True)
    staff.user_permissions.set(Permission.objects.all())  # what staff have today: everything
    users = {"gm": type(gm).objects.get(pk=gm.pk), "co_gm": co_gm, "player": ours.alice,
             "stranger": factories.user("stranger"), "staff": staff}
    return SimpleNamespace(rival=rival, ours=ours, rival_ids=rival_ids, mine=mine, users=users,
                           values=values, gm_targets={"rival": _targets(rival),
                                                      "ours": _targets(ours)})


def _targets(w) -> dict:
    """The ids a game master's own writes name (tests/permissions/test_campaign_scope.GM_WRITES)."""
    return {"ew": w.ew.pk, "hb": w.hb.pk, "ep": w.ep.pk, "encounter": w.encounter.pk,
            "faction": w.faction.pk, "hero": w.hero.pk}
