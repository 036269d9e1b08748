"""Making a campaign and naming co-game masters, as a hostile or careless user would
(campaigns.services.campaign_create, campaign_master_add and campaign_master_remove): bad
parameters, NUL characters, odd names, ids out of range. Each: a clear refusal, nothing made."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from campaigns.models import Campaign
from campaigns.services import campaign_create
from tests.factories import UserFactory


@pytest.fixture
def dana(db):
    return UserFactory(username="dana")


@pytest.mark.parametrize(("system", "parameters"), [
    ("homebrew", {"characteristic_points": 10**30}),
    ("homebrew", {"characteristic_points": "abc"}),
    ("homebrew", {"characteristic_points": None}),
    ("homebrew", {"no_such_parameter": 1}),
    ("homebrew", {"bad\x00key": 1}),
    ("homebrew", {"characteristic_points": "1\x00"}),
    ("ew1", {"view_radius": -1}),
    ("ew1", {"view_radius": [1]}),
    ("ew1", {"view_radius": True}),
])
def test_bad_parameters_are_refused_and_nothing_is_made(dana, system, parameters):
    with pytest.raises(ValidationError):
        campaign_create(user=dana, name="Les Ombres", rule_system=system,
                        rule_parameters=parameters)
    assert not Campaign.objects.exists()


@pytest.mark.parametrize("changes", [
    {"name": "Les\x00Ombres"},
    {"description": "a\x00b"},
    {"name": ""},
    {"name": "x" * 500},
    {"rule_system": "chess"},
    {"rule_system": "ew1\x00"},
    {"enemy_state": "everything"},
])
def test_bad_fields_are_refused_and_nothing_is_made(dana, changes):
    data = {"name": "Les Ombres", "rule_system": "ew1", **changes}
    with pytest.raises(ValidationError):
        campaign_create(user=dana, **data)
    assert not Campaign.objects.exists()
