"""Issue 22, item 1: the admin of a game master who is not a superuser (nor staff) is scoped to
the campaigns they master (campaigns.admin_scope). The whole matrix of roles and pages:
tests/permissions/test_campaign_scope.py."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns.admin_scope import SHARED
from campaigns.permissions import mastered_campaign_ids
from campaigns.models import Campaign, RuleSystem
from campaigns.services import campaign_master_add
from ew1.models import ItemInstance, ItemTemplate
from tests import factories
from tests.admin.campaign_pages import change_url

pytestmark = pytest.mark.django_db


@pytest.fixture
def tables(alice):
    """Our campaign (GM ``gm``, co-GM ``cogm``), the rival's (GM ``rival``), an item of each
    and one of every campaign (shared)."""
    gm, rival, cogm = factories.user("gm"), factories.user("rival"), factories.user("cogm")
    ours, theirs = factories.campaign(name="Ours"), factories.campaign(name="Theirs")
    Campaign.objects.filter(pk=ours.pk).update(game_master=gm)
    Campaign.objects.filter(pk=theirs.pk).update(game_master=rival)
    campaign_master_add(user=gm, campaign_id=ours.pk, username="cogm")
    hero = factories.character(owner=alice, campaign=ours, name="Hero", at=(1, 1))
    sword = ItemTemplate.objects.create(campaign=ours, name="Sword", kind="melee",
                                        damage_dice="1d8")
    axe = ItemTemplate.objects.create(campaign=theirs, name="Axe", kind="melee",
                                      damage_dice="1d6")
    rope = ItemTemplate.objects.create(campaign=None, name="Rope", kind="misc")
    return type("Tables", (), dict(gm=gm, cogm=cogm, rival=rival, ours=ours, theirs=theirs,
                                   hero=hero, sword=sword, axe=axe, rope=rope))


def _client(client, user):
    client.force_login(user)
    return client


def _item(**overrides) -> dict:
    data = {"name": "Mace", "kind": "melee", "category": "legendary", "description": "",
            "damage_dice": "1d6", "weapon_skill": "10", "range_cells": "1", "armour": "0",
            "campaign": "", "modifiers-TOTAL_FORMS": "0", "modifiers-INITIAL_FORMS": "0",
            "modifiers-MIN_NUM_FORMS": "0", "modifiers-MAX_NUM_FORMS": "1000"}
    return {**data, **overrides}


def test_a_game_master_logs_into_the_admin_without_being_staff(client, tables, alice):
    assert not tables.gm.is_staff
    response = client.post(reverse("admin:login"), {"username": "gm",
                                                    "password": factories.PASSWORD})
    assert response.status_code == 302
    assert client.get(reverse("admin:index")).status_code == 200
    client.logout()
    response = client.post(reverse("admin:login"), {"username": "alice",
                                                    "password": factories.PASSWORD})
    assert response.status_code == 200  # a player masters no campaign: refused
    assert client.get(reverse("admin:index")).status_code == 302


def test_the_item_list_holds_ones_campaigns_and_the_shared_catalogue(client, tables):
    response = _client(client, tables.cogm).get(reverse("admin:ew1_itemtemplate_changelist"))
    assert {i.name for i in response.context["cl"].result_list} == {"Sword", "Rope"}
    filters = {spec.title: spec for spec in response.context["cl"].filter_specs}
    campaigns = [name for _pk, name in filters["campaign"].lookup_choices]
    assert campaigns == ["Ours"]  # the related filter names our campaigns only


def test_another_campaigns_row_is_missing_and_the_shared_one_read_only(client, tables):
    client = _client(client, tables.gm)
    response = client.get(reverse("admin:ew1_itemtemplate_change", args=[tables.axe.pk]))
    assert response.status_code == 302  # as for a row that does not exist
    response = client.post(reverse("admin:ew1_itemtemplate_delete", args=[tables.axe.pk]),
                           {"post": "yes"})
    assert ItemTemplate.objects.filter(pk=tables.axe.pk).exists()
    page = client.get(reverse("admin:ew1_itemtemplate_change", args=[tables.rope.pk]))
    assert page.status_code == 200
    assert not page.context["has_change_permission"]
    response = client.post(reverse("admin:ew1_itemtemplate_change", args=[tables.rope.pk]),
                           _item(name="Rope", kind="misc"))
    assert response.status_code == 403
    assert ItemTemplate.objects.get(pk=tables.rope.pk).name == "Rope"


def test_the_choices_hold_ones_campaigns_and_a_row_cannot_point_elsewhere(client, tables):
    client = _client(client, tables.gm)
    form = client.get(reverse("admin:ew1_itemtemplate_add")).context["adminform"].form
    assert list(form.fields["campaign"].queryset) == [tables.ours]
    response = client.post(reverse("admin:ew1_itemtemplate_add"),
                           _item(campaign=tables.theirs.pk))
    assert response.status_code == 200
    assert "campaign" in response.context["adminform"].form.errors
    response = client.post(reverse("admin:ew1_itemtemplate_add"), _item())
    assert response.status_code == 200
    assert response.context["adminform"].form.non_field_errors() == [str(SHARED)]
    assert not ItemTemplate.objects.filter(name="Mace").exists()
    response = client.post(reverse("admin:ew1_itemtemplate_add"), _item(campaign=tables.ours.pk))
    assert response.status_code == 302
    assert ItemTemplate.objects.get(name="Mace").campaign == tables.ours


def test_a_game_master_grants_an_item_of_their_campaign_only(client, tables):
    client = _client(client, tables.gm)
    url = reverse("admin:ew1_iteminstance_add")
    response = client.post(url, {"owner": tables.hero.pk, "template": tables.axe.pk})
    assert response.status_code == 200
    assert "template" in response.context["adminform"].form.errors
    assert client.post(url, {"owner": tables.hero.pk, "template": tables.sword.pk}
                       ).status_code == 302
    assert ItemInstance.objects.get(owner=tables.hero).template == tables.sword
    search = client.get(reverse("admin:autocomplete"), {
        "app_label": "ew1", "model_name": "iteminstance", "field_name": "template", "term": ""})
    assert {r["text"] for r in search.json()["results"]} == {"Sword", "Rope"}


def test_a_character_is_added_to_ones_own_campaign_only(client, tables):
    client = _client(client, tables.gm)
    step = client.get(reverse("admin:characters_character_add"))
    assert list(step.context["form"].fields["campaign"].queryset) == [tables.ours]
    page = client.get(reverse("admin:characters_character_add"),
                      {"campaign": tables.theirs.pk})  # not ours: the first step again
    assert "adminform" not in page.context
    form = client.get(reverse("admin:characters_character_add"),
                      {"campaign": tables.ours.pk}).context["adminform"].form
    assert set(form.fields["owner"].queryset.values_list("username", flat=True)) == {
        "gm", "cogm", "alice"}  # the members of our campaign, not every account


def test_the_game_master_alone_deletes_the_campaign_and_nobody_adds_one_here(client, tables):
    client = _client(client, tables.cogm)
    assert client.get(reverse("admin:campaigns_campaign_add")).status_code == 403
    page = client.get(change_url(tables.ours))
    assert page.status_code == 200
    assert not page.context["has_delete_permission"]
    assert "game_master" not in page.context["adminform"].form.fields  # shown read-only
    client.post(reverse("admin:campaigns_campaign_delete", args=[tables.ours.pk]),
                {"post": "yes"})
    assert Campaign.objects.filter(pk=tables.ours.pk).exists()
    client.force_login(tables.gm)
    assert client.post(reverse("admin:campaigns_campaign_delete", args=[tables.ours.pk]),
                       {"post": "yes"}).status_code == 302
    assert not Campaign.objects.filter(pk=tables.ours.pk).exists()


def test_staff_keep_every_row_and_a_staff_gm_without_permissions_is_scoped(client, tables):
    staff = factories.user("staffer", is_staff=True, is_superuser=True)
    response = _client(client, staff).get(reverse("admin:ew1_itemtemplate_changelist"))
    assert {i.name for i in response.context["cl"].result_list} == {"Sword", "Axe", "Rope"}
    type(tables.gm).objects.filter(pk=tables.gm.pk).update(is_staff=True)
    client.force_login(tables.gm)
    response = client.get(reverse("admin:ew1_itemtemplate_changelist"))
    assert {i.name for i in response.context["cl"].result_list} == {"Sword", "Rope"}


def test_the_rules_answer_the_object_permissions(tables, alice):
    gm = type(tables.gm).objects.get(pk=tables.gm.pk)
    assert mastered_campaign_ids(gm) == {tables.ours.pk}
    assert gm.has_perm("ew1.change_itemtemplate")
    assert gm.has_perm("ew1.change_itemtemplate", tables.sword)
    assert not gm.has_perm("ew1.view_itemtemplate", tables.axe)
    assert gm.has_perm("ew1.view_itemtemplate", tables.rope)
    assert not gm.has_perm("ew1.change_itemtemplate", tables.rope)
    assert not alice.has_perm("ew1.view_itemtemplate")


def test_a_scoped_change_list_takes_the_same_queries_at_two_sizes(client, tables):
    client = _client(client, tables.gm)
    url = reverse("admin:characters_character_changelist")
    counts = []
    for more in (0, 4):
        for i in range(more):
            factories.character(owner=tables.gm, campaign=tables.ours, name=f"Extra {i}")
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]


def test_each_system_has_its_scoped_change_lists(client, tables):
    Campaign.objects.create(name="Gué", rule_system=RuleSystem.HOMEBREW, game_master=tables.rival)
    client = _client(client, tables.gm)
    for name in ("homebrew_weapontemplate", "eclipse_morphtemplate", "magic_spell",
                 "factions_faction", "encounters_encounter"):
        response = client.get(reverse(f"admin:{name}_changelist"))
        assert response.status_code == 200, name
        assert not response.context["cl"].result_list, name


def test_every_inline_model_is_scoped_before_any_request():
    """An inline's model (a Combatant: an encounter effect's bearer) is limited in the other
    forms' choices from the start, not once its inline was first shown."""
    from campaigns.admin_scope import SCOPES
    from campaigns.models import Board
    from encounters.models import Combatant
    from ew1.models import ItemModifier

    assert SCOPES[Combatant].path == "encounter__campaign"
    assert SCOPES[Board].path == "campaign"
    assert SCOPES[ItemModifier].shared
