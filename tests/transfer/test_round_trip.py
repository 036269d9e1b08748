"""The three demo campaigns out and back in (issue 22, item 5): each exported, deleted, imported
from its document, then every row of every exported model compared field by field with the row
it was (ids through the importer's map, users the same accounts); and an import that conflicts
changes nothing."""

from __future__ import annotations

import json

import pytest
from django.db import models
from django.utils import timezone

from campaigns.models import Campaign
from config.demo import load_demo
from transfer import registry
from transfer.exporter import campaign_export
from transfer.importer import campaign_import

pytestmark = pytest.mark.django_db


def _rows(campaign) -> dict[str, dict]:
    """Every exported row of ``campaign``: label -> {pk: {field: value}} read from the models
    (every concrete field and many-to-many, not the exporter's list), files by their bytes."""
    out = {}
    for entry in registry.exported():
        lookup = {"pk": campaign.pk} if entry.path == "pk" else {entry.path: campaign.pk}
        rows = {}
        for obj in entry.model._base_manager.filter(**lookup):
            values = {}
            for f in entry.model._meta.concrete_fields:
                value = getattr(obj, f.attname)
                if isinstance(f, models.FileField):
                    value = value.read() if value else b""
                values[f] = value
            for f in entry.model._meta.many_to_many:
                values[f] = sorted(getattr(obj, f.name).values_list("pk", flat=True))
            rows[obj.pk] = values
        out[entry.label] = rows
    return out


def _same(before: dict, after: dict, ids: dict) -> list[str]:
    """The differences between the rows before (their ids mapped by ``ids``) and after."""
    differences = []
    co_masters = {}
    for label, rows in before.items():
        assert len(rows) == len(after[label]), label
        for pk, values in rows.items():
            new = after[label][ids[label][pk]]
            for f, value in values.items():
                if f.primary_key and not f.is_relation:
                    continue
                target = f.related_model._meta.label if f.is_relation else None
                if f.many_to_many:
                    value = sorted(ids[target][v] for v in value)
                elif target in ids and value is not None:
                    value = ids[target][value]
                elif (label, f.name) in registry.JSON_IDS and f.name != "co_master_ids":
                    combatants = ids.get("encounters.Combatant", {})
                    value = json.loads(json.dumps(value))
                    new_value = new[f]
                    # The ids inside are remapped: compare with the map applied.
                    from transfer.codec import remap_json
                    value = remap_json("encounter", value, users={}, combatants=combatants,
                                       characters=ids.get("characters.Character", {}),
                                       encounters=ids.get("encounters.Encounter", {}))
                    if value != new_value:
                        differences.append(f"{label} {pk}.{f.name}: {value!r} != {new_value!r}")
                    continue
                elif f.name == "co_master_ids":
                    co_masters[label] = value
                if value != new[f]:
                    differences.append(f"{label} {pk}.{f.name}: {value!r} != {new[f]!r}")
    return differences


def _delete(campaign) -> None:
    """Every exported row of ``campaign`` deleted, children first (the PROTECT links of items
    and factions refuse the campaign's own cascade)."""
    for entry in reversed(registry.exported()):
        lookup = {"pk": campaign.pk} if entry.path == "pk" else {entry.path: campaign.pk}
        entry.model._base_manager.filter(**lookup).delete()


def _more(campaign) -> None:
    """What the demos lack, so that every kind of link travels: a co-GM, a faction with a
    member and a request, chat (an encounter's, a whisper, a roll card), an effect, the
    encounter's current combatant, a sheet's weapons (many-to-many), a portrait (a file), a
    journal entry naming a combatant in its summary."""
    from django.contrib.auth.models import User
    from django.core.files.base import ContentFile

    from campaigns.models import ActionRecord, CampaignMaster
    from characters.models import Character
    from chat.models import Message
    from encounters.models import Combatant, EncounterEffect
    from factions.models import Faction, JoinRequest, Membership

    alice, bob = User.objects.get(username="alice"), User.objects.get(username="bob")
    now = timezone.now()
    CampaignMaster.objects.create(campaign=campaign, user=bob)
    Campaign.objects.filter(pk=campaign.pk).update(co_master_ids=[bob.pk])
    characters = list(Character.objects.filter(campaign=campaign).order_by("pk"))
    faction = Faction.objects.create(campaign=campaign, name="La Garde", leader=characters[0])
    Membership.objects.create(faction=faction, character=characters[0])
    JoinRequest.objects.create(faction=faction, character=characters[1])
    characters[0].portrait.save("p.png", ContentFile(b"\x89PNG fake bytes"), save=True)
    combatant = Combatant.objects.filter(encounter__campaign=campaign).order_by("pk").last()
    encounter = combatant.encounter if combatant else None
    entry = ActionRecord.objects.create(campaign=campaign, kind="note", user=alice, created_at=now,
                                        actor=characters[0],
                                        summary={"combatant_id": combatant.pk if combatant
                                                 else 0, "order": [combatant.pk] if combatant
                                                 else [], "by": characters[0].pk})
    Message.objects.create(campaign=campaign, encounter=encounter, author=alice, body="hello",
                           created_at=now)
    Message.objects.create(campaign=campaign, author=alice, to="player", recipient=bob,
                           body="psst", entry=entry, created_at=now)
    if combatant:
        EncounterEffect.objects.create(encounter=encounter, bearer=combatant, anchor=combatant,
                                       name="Stunned", rounds=2, created_round=1,
                                       expires_round=3)
        type(encounter).objects.filter(pk=encounter.pk).update(current=combatant)
    if campaign.rule_system == "homebrew":
        from homebrew.models import HomebrewSheet, WeaponTemplate
        sheet = HomebrewSheet.objects.filter(character__campaign=campaign).first()
        sheet.weapons.set(WeaponTemplate.objects.filter(campaign=campaign)[:2])


def _plays_on(client, campaign) -> None:
    """The imported campaign is served: its GM's screen and each player's sheet."""
    from django.urls import reverse

    from characters.models import Character
    client.force_login(campaign.game_master)
    assert client.get(reverse("campaigns:gm", args=[campaign.pk])).status_code == 200
    for character in Character.objects.filter(campaign=campaign, owner__isnull=False):
        client.force_login(character.owner)
        response = client.get(reverse("characters:detail", args=[character.pk]))
        assert response.status_code == 200, (campaign.name, character.name)
        assert character.name.encode() in response.content


def test_the_three_demo_campaigns_go_out_and_back_in_row_for_row(client, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    load_demo(seed=3)
    for campaign in Campaign.objects.all():
        _more(campaign)
    campaigns = list(Campaign.objects.order_by("pk"))
    assert len(campaigns) == 3
    for campaign in campaigns:
        before = _rows(campaign)
        assert sum(map(len, before.values())) > 10
        document = json.loads(json.dumps(campaign_export(campaign=campaign)))
        name = campaign.name
        _delete(campaign)
        assert not Campaign.objects.filter(name=name).exists()
        result = campaign_import(document=document)
        assert result.campaign.name == name
        after = _rows(result.campaign)
        assert {k: len(v) for k, v in after.items()} == {k: len(v) for k, v in before.items()}
        assert _same(before, after, result.ids) == []
        _plays_on(client, result.campaign)
