"""A document refused says why with a code and changes nothing: malformed, of another version,
naming accounts this server lacks, or merging into a campaign rows of the same name that differ."""

from __future__ import annotations

import copy
import json

import pytest
from django.contrib.auth.models import User

from campaigns.models import Campaign
from ew1.models import ItemModifier, ItemTemplate
from magic.models import Spell
from tests import factories
from transfer import registry
from transfer.errors import DocumentMalformed, DocumentUnknownVersion, ImportConflicts, UsersMissing
from transfer.exporter import campaign_export
from transfer.importer import campaign_import

pytestmark = pytest.mark.django_db


def _counts() -> dict[str, int]:
    return {e.label: e.model._base_manager.count() for e in registry.exported()} | {
        "users": User.objects.count()}


@pytest.fixture
def document():
    gm = factories.user("gm")
    campaign = factories.campaign(name="Source")
    Campaign.objects.filter(pk=campaign.pk).update(game_master=gm)
    campaign.refresh_from_db()
    item = ItemTemplate.objects.create(campaign=campaign, name="Épée", kind="melee",
                                       damage_dice="1d8", weapon_skill=5)
    ItemModifier.objects.create(item=item, stat="FOR", dice="+1d3")
    Spell.objects.create(campaign=campaign, name="Soin", tier="base", effect="heal",
                         dice="1d6+1", range_cells=3)
    return json.loads(json.dumps(campaign_export(campaign=campaign))), campaign


def test_a_document_of_another_format_or_version_is_refused_by_its_code(document):
    doc, _ = document
    before = _counts()
    with pytest.raises(DocumentMalformed) as error:
        campaign_import(document={**doc, "format": "something-else"})
    assert error.value.code == "document_unknown_format"
    with pytest.raises(DocumentUnknownVersion) as error:
        campaign_import(document={**doc, "version": 2})
    assert error.value.params["found"] == "2"
    with pytest.raises(DocumentMalformed):
        campaign_import(document=[1, 2])
    assert _counts() == before


def test_a_malformed_document_lists_its_problems_and_changes_nothing(document):
    doc, _ = document
    bad = copy.deepcopy(doc)
    bad["models"]["ew1.ItemTemplate"][0]["fields"]["weapon_skill"] = "many"
    bad["models"]["ew1.ItemModifier"][0]["fields"]["item"] = 999999
    bad["models"]["ew1.ItemModifier"][0]["fields"]["colour"] = "red"
    bad["models"]["nowhere.Thing"] = []
    before = _counts()
    with pytest.raises(DocumentMalformed) as error:
        campaign_import(document=bad, name="Copy")
    problems = error.value.params["items"]
    assert any("nowhere.Thing" in p for p in problems)
    assert any("colour: no such field" in p for p in problems)
    assert any("weapon_skill" in p for p in problems)
    # The reference is checked once the values parse: fixed, the dangling id is reported.
    bad["models"]["ew1.ItemTemplate"][0]["fields"]["weapon_skill"] = 5
    del bad["models"]["nowhere.Thing"], bad["models"]["ew1.ItemModifier"][0]["fields"]["colour"]
    with pytest.raises(DocumentMalformed) as error:
        campaign_import(document=bad, name="Copy")
    assert any("no ew1.ItemTemplate 999999" in p for p in error.value.params["items"])
    assert _counts() == before


@pytest.mark.parametrize("root", [{"pk": 1}, [5], [], [{"pk": 1, "fields": 3}], "campaign"])
def test_a_campaign_entry_of_the_wrong_shape_is_refused_by_its_code(document, root):
    doc, _ = document
    bad = copy.deepcopy(doc)
    bad["models"]["campaigns.Campaign"] = root
    before = _counts()
    with pytest.raises(DocumentMalformed) as error:
        campaign_import(document=bad, name="Copy")
    assert any("campaigns.Campaign" in p for p in error.value.params["items"])
    assert _counts() == before


def test_a_campaign_of_an_unknown_system_or_with_bad_parameters_is_refused(document):
    doc, _ = document
    for change, words in (({"rule_system": "gurps"}, "not a rule system"),
                          ({"rule_parameters": {"no_such_parameter": 3}}, "rule_parameters")):
        bad = copy.deepcopy(doc)
        bad["models"]["campaigns.Campaign"][0]["fields"].update(change)
        with pytest.raises(DocumentMalformed) as error:
            campaign_import(document=bad, name="Copy")
        assert any(words in p for p in error.value.params["items"]), error.value.params
    assert not Campaign.objects.filter(name="Copy").exists()


def test_missing_accounts_are_refused_or_made_inactive(document):
    doc, _ = document
    renamed = json.loads(json.dumps(doc).replace('"gm"', '"ghost"'))
    before = _counts()
    with pytest.raises(UsersMissing) as error:
        campaign_import(document=renamed, name="Copy")
    assert error.value.params["items"] == ["ghost"]
    assert _counts() == before
    result = campaign_import(document=renamed, name="Copy", create_missing_users=True)
    ghost = User.objects.get(username="ghost")
    assert not ghost.is_active and not ghost.has_usable_password()
    assert result.campaign.game_master == ghost and result.users_created == ["ghost"]


def test_a_campaign_name_taken_is_refused(document):
    doc, _ = document
    with pytest.raises(Exception) as error:
        campaign_import(document=doc)
    assert error.value.code == "import_name_taken"
    assert Campaign.objects.filter(name="Source").count() == 1


def test_merging_into_an_existing_campaign_adds_new_names_and_refuses_conflicts(document):
    doc, _ = document
    target = factories.campaign(name="Target")
    ItemTemplate.objects.create(campaign=target, name="Épée", kind="melee", damage_dice="1d8",
                                weapon_skill=5)  # no modifier: differs from the document's
    Spell.objects.create(campaign=target, name="Soin", tier="base", effect="heal",
                         dice="1d6+1", range_cells=3)  # the same
    before = _counts()
    with pytest.raises(ImportConflicts) as error:
        campaign_import(document=doc, into=target)
    assert error.value.status == 409
    assert error.value.params["conflicts"] == [
        {"model": "ew1.ItemTemplate", "name": "Épée", "fields": ["itemmodifier"]}]
    assert _counts() == before
    # Without the conflict: the new names come in, the equal ones are left.
    ItemTemplate.objects.filter(campaign=target).delete()
    result = campaign_import(document=doc, into=target)
    assert result.created == {"ew1.ItemTemplate": 1, "ew1.ItemModifier": 1}
    assert result.unchanged == {"magic.Spell": 1}
    assert ItemModifier.objects.get(item__campaign=target).dice == "+1d3"
    again = campaign_import(document=doc, into=target)
    assert again.created == {} and again.unchanged == {"ew1.ItemTemplate": 1, "magic.Spell": 1}


def test_a_merged_row_the_rules_refuse_refuses_the_document(document):
    doc, _ = document
    target = factories.campaign(name="Target")
    bad = copy.deepcopy(doc)
    bad["models"]["magic.Spell"][0]["fields"]["dice"] = "not dice"
    before = _counts()
    with pytest.raises(DocumentMalformed) as error:
        campaign_import(document=bad, into=target)
    assert "dice" in error.value.params["problems"]
    assert _counts() == before


def test_every_model_reaching_a_campaign_is_exported_or_excluded_with_a_reason():
    assert registry.unclassified() == []
    assert not set(registry.EXPORTED) & set(registry.EXCLUDED)
