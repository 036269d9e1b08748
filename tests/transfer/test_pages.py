"""The export and import pages: the GM and co-GMs only (404 for a player or a stranger), the
document downloaded, its catalogue merged, a conflict shown with nothing changed, a spreadsheet
of rows checked by the model's rules."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from campaigns.models import Campaign
from magic.models import Spell
from tests import factories
from transfer.exporter import campaign_export

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    gm, player, stranger = factories.user("gm"), factories.user("pl"), factories.user("st")
    campaign = factories.campaign(name="Ici")
    Campaign.objects.filter(pk=campaign.pk).update(game_master=gm)
    factories.character(owner=player, campaign=campaign, name="Aldric")
    Spell.objects.create(campaign=campaign, name="Soin", tier="base", effect="heal",
                         dice="1d6+1", range_cells=3)
    campaign.refresh_from_db()
    return campaign, gm, player, stranger


def test_only_who_oversees_the_campaign_reaches_its_pages(client, world):
    campaign, gm, player, stranger = world
    urls = [reverse("transfer:export", args=[campaign.pk]),
            reverse("transfer:import", args=[campaign.pk]),
            reverse("transfer:catalogue_import", args=[campaign.pk, "spells"])]
    for who in (player, stranger):
        client.force_login(who)
        for url in urls:
            assert client.get(url).status_code == 404
    # A co-GM oversees the campaign as its GM does.
    from campaigns.models import CampaignMaster
    co = factories.user("co")
    CampaignMaster.objects.create(campaign=campaign, user=co)
    Campaign.objects.filter(pk=campaign.pk).update(co_master_ids=[co.pk])
    client.force_login(co)
    assert [client.get(url).status_code for url in urls] == [200, 200, 200]
    client.force_login(gm)
    response = client.get(urls[0])
    assert response.status_code == 200
    assert "attachment" in response["Content-Disposition"]
    document = json.loads(response.content)
    assert document["format"] == "percentile-campaign" and document["version"] == 1
    assert [r["fields"]["name"] for r in document["models"]["magic.Spell"]] == ["Soin"]
    for url in urls[1:]:
        assert client.get(url).status_code == 200
    # Another system's kind, or none: 404.
    assert client.get(reverse("transfer:catalogue_import",
                              args=[campaign.pk, "morphs"])).status_code == 404


def test_the_import_page_merges_and_shows_conflicts_changing_nothing(client, world):
    campaign, gm, _, _ = world
    source = factories.campaign(name="Ailleurs")
    Spell.objects.create(campaign=source, name="Soin", tier="base", effect="heal",
                         dice="2d6", range_cells=3)
    Spell.objects.create(campaign=source, name="Feu", tier="base", effect="damage",
                         dice="1d6", range_cells=3)
    body = json.dumps(campaign_export(campaign=source)).encode()
    client.force_login(gm)
    url = reverse("transfer:import", args=[campaign.pk])
    response = client.post(url, {"document": SimpleUploadedFile("c.json", body)})
    assert response.status_code == 409
    assert b"Soin" in response.content and b"dice" in response.content
    assert list(Spell.objects.filter(campaign=campaign).values_list("name", flat=True)) == ["Soin"]
    Spell.objects.filter(campaign=source, name="Soin").update(dice="1d6+1")
    body = json.dumps(campaign_export(campaign=source)).encode()
    response = client.post(url, {"document": SimpleUploadedFile("c.json", body)})
    assert response.status_code == 200
    assert sorted(Spell.objects.filter(campaign=campaign).values_list("name", flat=True)) == [
        "Feu", "Soin"]
    bad = client.post(url, {"document": SimpleUploadedFile("c.json", b"{not json")})
    assert bad.status_code == 400


def test_a_spreadsheet_of_spells_is_checked_by_the_rules(client, world):
    campaign, gm, _, _ = world
    client.force_login(gm)
    url = reverse("transfer:catalogue_import", args=[campaign.pk, "spells"])
    header = "name,tier,effect,dice,range_cells,zone_radius,reach,duration_hours,learnable,campaign\n"
    refused = (header + "Éclair,base,damage,1d6,5,0,everyone,0,1,\n"
               "Mauvais,base,damage,pas des dés,5,0,everyone,0,1,\n")
    response = client.post(url, {"document": SimpleUploadedFile("s.csv", refused.encode())})
    assert response.status_code == 400
    assert not Spell.objects.filter(name="Éclair").exists()
    # Another campaign's name in the column is ignored: every row lands in this campaign.
    other = factories.campaign(name="Autre")
    good = (header + f"Éclair,base,damage,1d6,5,0,everyone,0,1,{other.name}\n"
            "Soin,base,heal,2d6,3,0,everyone,0,1,\n")
    response = client.post(url, {"document": SimpleUploadedFile("s.csv", good.encode())})
    assert response.status_code == 200, response.content.decode()[-2000:]
    assert Spell.objects.get(campaign=campaign, name="Éclair").dice == "1d6"
    assert Spell.objects.get(campaign=campaign, name="Soin").dice == "2d6"
    assert not Spell.objects.filter(campaign=other).exists()


def _spells(campaign, n):
    Spell.objects.bulk_create([Spell(campaign=campaign, name=f"S{campaign.pk}-{i}", tier="base",
                                     effect="heal", dice="1d6", range_cells=3) for i in range(n)])


def test_the_export_reads_the_same_number_of_queries_at_two_sizes(client, world,
                                                                  django_assert_num_queries):
    """One read per exported model, one per many-to-many field of a model with rows (none in
    an EW1 campaign), one for the usernames, plus the session, the user and the campaign: the
    rows' number changes nothing."""
    from transfer import registry
    campaign, gm, player, _ = world
    client.force_login(gm)
    url = reverse("transfer:export", args=[campaign.pk])
    expected = len(registry.exported()) + 1 + 3
    with django_assert_num_queries(expected):
        assert client.get(url).status_code == 200
    _spells(campaign, 30)
    for i in range(5):
        factories.character(owner=player, campaign=campaign, name=f"P{i}")
    with django_assert_num_queries(expected):
        assert len(json.loads(client.get(url).content)["models"]["magic.Spell"]) == 31


def test_the_admin_imports_spreadsheets_for_superusers_only(client, world):
    _, gm, _, _ = world
    from django.contrib.auth.models import Permission
    gm.is_staff = True
    gm.save()
    gm.user_permissions.set(Permission.objects.filter(content_type__app_label="magic"))
    client.force_login(gm)
    assert client.get("/admin/magic/spell/import/").status_code == 403
    root = factories.user("root", is_staff=True, is_superuser=True)
    client.force_login(root)
    page = client.get("/admin/magic/spell/import/")
    assert page.status_code == 200
    export = client.post("/admin/magic/spell/export/", {"format": "0", "resource": "0",
                                                         "campaign": "on", "name": "on"})
    assert export.status_code in (200, 302)


def test_a_homebrew_gm_imports_weapons_from_an_xlsx_file(client):
    import tablib

    from homebrew.models import WeaponTemplate
    gm = factories.user("hgm")
    campaign = factories.campaign(name="Maison", rule_system="homebrew")
    Campaign.objects.filter(pk=campaign.pk).update(game_master=gm)
    client.force_login(gm)
    sheet = tablib.Dataset(headers=["name", "die", "kind", "mp_cost", "description"])
    sheet.append(["Hache", "1d8", "physical", 0, "Lourde"])
    sheet.append(["Trait", "1d6", "magical", 2, ""])
    url = reverse("transfer:catalogue_import", args=[campaign.pk, "weapons"])
    upload = SimpleUploadedFile("w.xlsx", sheet.export("xlsx"))
    response = client.post(url, {"document": upload})
    assert response.status_code == 200, response.content.decode()[-1500:]
    assert dict(WeaponTemplate.objects.filter(campaign=campaign).values_list("name", "mp_cost")) \
        == {"Hache": 0, "Trait": 2}
    # A die the rules refuse: nothing saved, the row named.
    sheet = tablib.Dataset(headers=["name", "die", "kind"])
    sheet.append(["Hache", "1d8", "physical"])
    sheet.append(["Canon", "12 dés", "physical"])
    response = client.post(url, {"document": SimpleUploadedFile("w.xlsx", sheet.export("xlsx"))})
    assert response.status_code == 400
    assert b"row 2" in response.content
    assert not WeaponTemplate.objects.filter(name="Canon").exists()
    # Not a spreadsheet: a coded refusal.
    response = client.post(url, {"document": SimpleUploadedFile("w.pdf", b"%PDF")})
    assert response.status_code == 400
