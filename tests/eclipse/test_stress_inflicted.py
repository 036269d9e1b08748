"""The GM inflicts stress (issue 12, item 6): the SV as a number or dice, WIL x3 resistance,
traumas past the trauma threshold, insanity at the insanity rating; the page and the API.

Ash: WIL 10, so WIL x3 = 30, LUC 20, trauma threshold 4, insanity rating 40."""

from __future__ import annotations

import pytest

from campaigns.models import ActionRecord, RollRecord
from eclipse import services
from eclipse.errors import EclipseServiceError, GameMasterOnly
from eclipse.models import EclipseSheet
from tests.eclipse.test_pages_and_api import api, page
from tests.gamerules.fakes import FakeRandom


def mind(character):
    s = EclipseSheet.objects.get(pk=character.pk)
    return s.stress, s.traumas, s.insane


def test_a_failed_wil_test_keeps_the_whole_sv_and_its_traumas(ep):
    result = services.stress_inflict(user=ep.gm, character=ep.ash, sv=9, rng=FakeRandom(50))
    assert result.resist.target == 30 and not result.resist.success
    assert (result.taken, result.new_traumas, result.derangements_due) == (9, 2, 2)
    assert mind(ep.ash) == (9, 2, False)
    entry = ActionRecord.objects.get(kind="eclipse_stress", actor=ep.ash)
    assert entry.summary["stress"] == [0, 9] and entry.summary["traumas"] == [0, 2]
    assert RollRecord.objects.filter(action=entry).count() == 1


def test_dice_are_rolled_and_a_success_keeps_half(ep):
    result = services.stress_inflict(user=ep.gm, character=ep.ash, sv="1d10+2",
                                     rng=FakeRandom(8, 10), source="a dead friend")
    assert result.sv == 10 and result.resist.success and result.taken == 5
    assert result.new_traumas == 1  # 5 is above the threshold 4
    entry = ActionRecord.objects.get(kind="eclipse_stress", actor=ep.ash)
    assert entry.summary["sv_dice"] == "1d10+2" and entry.summary["source"] == "a dead friend"
    assert RollRecord.objects.filter(action=entry).count() == 2


@pytest.mark.parametrize(("sv", "traumas"), [(4, 0), (5, 1), (8, 1), (9, 2)])
def test_unresisted_traumas_at_the_threshold_boundary(ep, sv, traumas):
    result = services.stress_inflict(user=ep.gm, character=ep.ash, sv=sv, resist=False,
                                     rng=FakeRandom())
    assert result.resist is None and result.new_traumas == traumas
    assert mind(ep.ash) == (sv, traumas, False)


def test_traumas_then_count_on_the_next_resistance_test(ep):
    EclipseSheet.objects.filter(pk=ep.ash.pk).update(traumas=2)
    result = services.stress_inflict(user=ep.gm, character=ep.ash, sv=1, rng=FakeRandom(15))
    assert result.resist.target == 10 and not result.resist.success  # 30 - 2 x 10


@pytest.mark.parametrize(("before", "condition", "insane"),
                         [(17, "stable", False), (18, "beyond_lucidity", False),
                          (37, "beyond_lucidity", False), (38, "insane", True)])
def test_lucidity_and_the_insanity_rating(ep, before, condition, insane):
    EclipseSheet.objects.filter(pk=ep.ash.pk).update(stress=before)
    result = services.stress_inflict(user=ep.gm, character=ep.ash, sv=2, resist=False)
    assert result.condition.value == condition
    assert mind(ep.ash)[2] is insane


@pytest.mark.parametrize("sv", ["abc", "", "1d", "1001", -1, True])
def test_a_bad_stress_value_changes_nothing(ep, sv):
    with pytest.raises(EclipseServiceError) as exc:
        services.stress_inflict(user=ep.gm, character=ep.ash, sv=sv, rng=FakeRandom())
    assert exc.value.code == "invalid_input"
    assert mind(ep.ash) == (0, 0, False)
    assert not ActionRecord.objects.filter(kind="eclipse_stress").exists()


def test_only_the_gm_inflicts_stress(ep):
    with pytest.raises(GameMasterOnly):
        services.stress_inflict(user=ep.alice, character=ep.ash, sv=5, rng=FakeRandom())
    assert mind(ep.ash) == (0, 0, False)


def test_the_page_form_and_the_api(ep):
    body = page(ep.gm).get(f"/eclipse/characters/{ep.ash.pk}/").content.decode()
    assert 'data-testid="stress-form"' in body
    response = page(ep.gm).post(f"/eclipse/characters/{ep.ash.pk}/stress/",
                                {"sv": "6", "unresisted": "1"})
    assert response.status_code == 302 and mind(ep.ash) == (6, 1, False)
    response = api(ep.gm).post(f"/api/eclipse/characters/{ep.ash.pk}/stress/",
                               {"sv": "3", "resist": False}, format="json")
    assert response.status_code == 200 and response.json()["sheet"]["stress"] == 9
    response = api(ep.alice).post(f"/api/eclipse/characters/{ep.ash.pk}/stress/",
                                  {"sv": "3"}, format="json")
    assert response.status_code == 403
