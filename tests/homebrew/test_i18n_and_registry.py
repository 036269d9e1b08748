"""The homebrew app's messages have their French, and the system is registered for encounters."""

from __future__ import annotations

import pytest
from django.utils import translation

from campaigns import rule_systems
from campaigns.messages import error_message
from gamerules.homebrew.params import HomebrewParameters
from homebrew import errors


@pytest.mark.parametrize("key", sorted(errors.MESSAGES))
def test_every_homebrew_app_message_has_its_french(key):
    with translation.override("fr"):
        assert translation.gettext(errors.MESSAGES[key]) != errors.MESSAGES[key]


def test_an_error_reads_in_french():
    with translation.override("fr"):
        assert error_message(errors.CannotAct(name="Aria")) == \
            "Aria est à terre et ne peut pas agir."


def test_the_homebrew_system_is_registered_for_encounters():
    spec = rule_systems.get("homebrew")
    assert spec is not None and spec.play_mode == rule_systems.ENCOUNTER
    assert spec.parameters is HomebrewParameters and spec.sheet_related_name == "homebrew"
    assert spec.begin_creation is not None and spec.sheet_view is not None
    assert rule_systems.is_playable("homebrew")
