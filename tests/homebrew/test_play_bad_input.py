"""The homebrew encounter forms (attack, posture, other action): "²" (isdigit, but int() fails)
was a 500, and an id past the columns' range too; both are refused as invalid input now, and
nothing changes."""

from __future__ import annotations

import pytest
from django.test import Client

from campaigns.models import ActionRecord
from encounters.models import Encounter, PendingReaction
from tests.homebrew.conftest import build_world
from tests.homebrew.test_play import running

HUGE = "99999999999999999999"


@pytest.fixture
def fight(db, alice, bob):
    hb = build_world(alice, bob)
    e, c = running(hb)
    client = Client(raise_request_exception=False)
    client.force_login(hb.alice)
    return hb, e, c, client


@pytest.mark.parametrize(("step", "field", "value"), [
    ("attack", "combatant", "²"), ("attack", "target", HUGE), ("attack", "weapon", "²"),
    ("other", "combatant", HUGE), ("other", "combatant", "²")])
def test_homebrew_encounter_forms_refuse_odd_numbers(fight, step, field, value):
    hb, e, c, client = fight
    form = {"combatant": c[hb.aria.pk].pk, "target": c[hb.goblin.pk].pk,
            "weapon": hb.sword.pk, "turn": e.turn_serial, "name": "Look", field: value}
    before = (Encounter.objects.get(pk=e.pk).version, ActionRecord.objects.count(),
              PendingReaction.objects.count())
    response = client.post(f"/homebrew/encounters/{e.pk}/{step}/", form, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert b"Invalid input." in response.content
    assert (Encounter.objects.get(pk=e.pk).version, ActionRecord.objects.count(),
            PendingReaction.objects.count()) == before


@pytest.mark.parametrize("bad", ["parry:²", f"parry:{HUGE}"])
def test_a_parry_by_an_odd_ally_id_is_not_a_reaction(db, alice, bob, bad):
    """resolve() read "parry:²" with int() (ValueError, a 500) and a huge id overflowed."""
    from homebrew.errors import ReactionChoiceError
    from homebrew.models import HomebrewSheet
    from homebrew.services import attack, resolve
    from tests.gamerules.fakes import FakeRandom

    hb = build_world(alice, bob)
    a = attack(hb.goblin, hb.aria, hb.claws, rng=FakeRandom(10, 4))
    with pytest.raises(ReactionChoiceError) as exc:
        resolve(a, bad, rng=FakeRandom(1))
    assert exc.value.code == "not_a_reaction"
    assert HomebrewSheet.objects.get(pk=hb.aria.pk).hp == 20


@pytest.mark.parametrize("who", ["player", "gm"])
@pytest.mark.parametrize("text", ["a\x00b", "\x00"])
def test_a_nul_byte_in_free_text_is_refused_never_a_500(fight, who, text):
    """PostgreSQL stores no NUL byte in a text column nor in a JSON summary: an attack's
    description, another action's name, an encounter's, a combatant's and an effect's name,
    the reason an action is spent, each refused as invalid input; nothing written."""
    hb, e, c, client = fight
    aria, goblin = c[hb.aria.pk].pk, c[hb.goblin.pk].pk
    if who == "gm":
        client.force_login(hb.gm)
        posts = [(f"/encounters/{e.pk}/effects/", {"anchor": goblin, "name": text,
                                                    "rounds": "2", "edge": "end"}),
                 (f"/encounters/{e.pk}/add/", {"name": text, "count": "1"}),
                 (f"/encounters/{e.pk}/spend-action/", {"reason": text}),
                 (f"/encounters/campaign/{hb.campaign.pk}/", {"name": text})]
    else:
        posts = [(f"/homebrew/encounters/{e.pk}/other/", {"combatant": aria, "name": text}),
                 (f"/homebrew/encounters/{e.pk}/attack/", {
                     "combatant": aria, "target": goblin, "weapon": hb.sword.pk,
                     "description": text})]
    version = Encounter.objects.get(pk=e.pk).version
    for url, data in posts:
        for extra in ({"HTTP_HX_REQUEST": "true"}, {}):
            response = client.post(url, data, **extra)
            assert response.status_code in (200, 302, 400), (url, response.status_code)
    assert Encounter.objects.count() == 1
    assert Encounter.objects.get(pk=e.pk).version == version
    assert not ActionRecord.objects.filter(summary__encounter=e.pk).exists()
    assert not PendingReaction.objects.exists()
