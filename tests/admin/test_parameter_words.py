"""The campaign's rule parameters read in words in both languages and by chapter of the rules
(issue 19): every parameter of every system has a French label and help text, the change page
groups them in fieldsets titled by rule chapter (translated), each parameter shown once."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from campaigns import rule_systems
from gamerules.parameters import OTHER_GROUP
from tests import factories
from tests.admin.campaign_pages import change_url

SYSTEMS = ["ew1", "homebrew", "eclipse_phase"]
# English words that are French too, on purpose.
SAME_IN_FRENCH = {"Factions"}


@pytest.fixture
def gm_client(client, db):
    client.force_login(factories.user("gm", is_staff=True, is_superuser=True))
    return client


def parameters(system: str):
    return rule_systems.require(system).parameters


def french(text: str) -> str:
    with translation.override("fr"):
        return translation.gettext(text)


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_parameter_has_a_french_label_and_help_text(system):
    untranslated = [(row["name"], what) for row in parameters(system).describe()
                    for what in ("label", "help")
                    if french(row[what]) == row[what] and row[what] not in SAME_IN_FRENCH]
    assert untranslated == [], "add their French to django.po"


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_group_title_has_its_french(system):
    titles = [title for title, _names in parameters(system).grouped()]
    assert [t for t in titles if french(t) == t and t not in SAME_IN_FRENCH] == []


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_groups_hold_every_parameter_once_by_rule_chapter(system):
    groups = parameters(system).grouped()
    names = [name for _title, members in groups for name in members]
    declared = [row["name"] for row in parameters(system).describe()]
    assert sorted(names) == sorted(declared) and len(names) == len(set(names))
    assert OTHER_GROUP not in [title for title, _ in groups]  # each in a named chapter
    assert len(groups) >= 2 and all(members for _title, members in groups)
    assert max(len(members) for _title, members in groups) <= 15  # no chapter is a heap


def _fieldsets(page: str) -> list[tuple[str, list[str]]]:
    """(title, the parameter boxes' names) of each fieldset of an admin change page."""
    found = []
    for block in re.findall(r"<fieldset.*?</fieldset>", page, flags=re.S):
        title = re.search(r"<h2[^>]*>(.*?)</h2>", block, flags=re.S)
        found.append((title.group(1).strip() if title else "",
                      re.findall(r'name="(param_\w+)"', block)))
    return found


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("system", SYSTEMS)
def test_the_change_page_shows_the_groups_and_every_parameter_once(gm_client, system,
                                                                   language):
    campaign = factories.campaign(name=f"C {system}")
    campaign.rule_system = system
    campaign.save()
    page = gm_client.get(change_url(campaign), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    fieldsets = [(t, names) for t, names in _fieldsets(page) if names]
    with translation.override(language):
        expected = [(translation.gettext("Rule parameters: %(chapter)s")
                     % {"chapter": translation.gettext(title)}, ["param_" + n for n in names])
                    for title, names in parameters(system).grouped()]
    assert [(t.replace("&#x27;", "'"), n) for t, n in fieldsets] == expected
    for row in parameters(system).describe():
        assert page.count(f'name="param_{row["name"]}"') == 1, row["name"]


def test_a_help_text_reads_in_french_on_the_change_page(gm_client):
    campaign = factories.campaign(name="C ep")
    campaign.rule_system = "eclipse_phase"
    campaign.save()
    response = gm_client.get(change_url(campaign), HTTP_ACCEPT_LANGUAGE="fr")
    form = response.context["adminform"].form
    help_text = form.fields["param_knockdown_som_multiplier"].help_text
    assert help_text.startswith("Test contre la chute et l'étourdissement : SOM x cette valeur")
    assert "knockdown_som_multiplier" in help_text  # the name docs/rules/ uses
    assert "Blessures, chute et mort" in response.content.decode()
