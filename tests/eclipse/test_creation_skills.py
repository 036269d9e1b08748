"""Eclipse Phase creation and sheet: every skill of the rules' list shown (not folded away),
each with its linked aptitude and what an untrained one rolls: the aptitude's value, or
"cannot be used untrained" for the psi and technical skills (unless the campaign's
``default_any_skill``). Source: gamerules.eclipse_phase.sheet (SKILL_APTITUDES,
NO_DEFAULT_SKILLS)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from gamerules.eclipse_phase.sheet import NO_DEFAULT_SKILLS, SKILL_APTITUDES
from tests import factories

pytestmark = pytest.mark.django_db


def _logged(client, user, lang="en"):
    client.force_login(user)
    client.cookies["django_language"] = lang
    return client


def _row(html, skill):
    match = re.search(rf'<tr data-testid="skill-{skill}">(.*?)</tr>', html, re.S)
    assert match, skill
    return match[1]


def _default(html, skill):
    return re.sub(r"<[^>]+>", "", re.search(rf'data-testid="default-{skill}">(.*?)</td>',
                                             _row(html, skill), re.S)[1]).strip()


def test_the_creation_page_lists_every_skill_with_its_default(client, alice):
    campaign = factories.EclipseCampaignFactory(name="EP")
    html = _logged(client, alice).get(reverse("eclipse:create", args=[campaign.pk])
                                      + "?name=Nova").content.decode()
    assert "<details" not in html.split('id="eclipse-create"')[1]
    for skill, aptitude in SKILL_APTITUDES.items():
        row = _row(html, skill)
        assert f">{aptitude.value}</abbr>" in row
        if skill in NO_DEFAULT_SKILLS:
            assert _default(html, skill) == "cannot be used untrained"
        else:
            assert _default(html, skill) == f"defaults to {aptitude.value} (15)"
    assert "Kinetic weapons" in _row(html, "kinetic_weapons")
    fr = _logged(client, alice, "fr").get(reverse("eclipse:create", args=[campaign.pk]))
    text = fr.content.decode()
    assert _default(text, "fray") == "se défausse sur REF (15)"
    assert _default(text, "infosec") == "inutilisable sans entraînement"
    assert "Créer le personnage" in text


def test_the_defaults_follow_the_aptitudes_posted_and_the_campaigns_rule(client, alice):
    campaign = factories.EclipseCampaignFactory(name="EP",
                                                rule_parameters={"default_any_skill": True})
    url = reverse("eclipse:create", args=[campaign.pk])
    body = {"name": "", "COG": "20", "COO": "12", "INT": "15", "REF": "18", "SAV": "15",
            "SOM": "15", "WIL": "15"}
    html = _logged(client, alice).post(url, body, HTTP_HX_REQUEST="true").content.decode()
    assert _default(html, "fray") == "defaults to REF (18)"
    assert _default(html, "infosec") == "defaults to COG (20)"  # any skill defaults here
    assert _default(html, "kinetic_weapons") == "defaults to COO (12)"


def test_the_sheet_lists_the_skills_unfolded_with_the_untrained_default(client, alice):
    from eclipse.services import eclipse_character_create
    campaign = factories.EclipseCampaignFactory(name="EP")
    c = eclipse_character_create(user=alice, campaign=campaign, name="Nova",
                                 aptitudes={a: 15 for a in
                                            ("COG", "COO", "INT", "REF", "SAV", "SOM", "WIL")},
                                 skills={"fray": 20})
    html = _logged(client, alice).get(reverse("eclipse:sheet", args=[c.pk])).content.decode()
    skills = html.split('data-testid="skills"')[1].split("</table>")[0]
    assert "<details" not in html.split('data-testid="ego"')[1].split('data-testid="skills"')[0]
    assert "untrained: defaults to COO" in _row(html, "kinetic_weapons")
    assert "cannot be used untrained" in _row(html, "programming")
    assert "trained" in _row(html, "fray") and "defaults" not in _row(html, "fray")
    assert skills.count("<tr data-testid=") == len(SKILL_APTITUDES)
