"""Step-by-step creation: roll, reroll (steered and rate limited per user), redistribute, confirm.

docs/rules/eternal-war-one-ii.md, "Creation".
"""

import random
import time
from types import SimpleNamespace

import pytest
from django.core.cache import cache

from campaigns.errors import InvalidInput, NotFound
from campaigns.models import ActionRecord, RollRecord
from characters.models import Character
from ew1 import creation
from ew1.creation import (RerollLimited, draft_allowance, draft_confirm, draft_redistribute,
                          draft_reroll, draft_roll)
from ew1.models import CharacterDraft
from gamerules.ew1.characteristics import CODES
from gamerules.ew1.creation import RedistributionError, band
from gamerules.ew1.skills import base_skills
from tests import factories
from tests.services.conftest import NOW

RANGES = {"FOR": (3, 18), "DEF": (3, 18), "TAI": (8, 18), "INT": (8, 18), "DEX": (3, 18),
          "LUK": (3, 18)}
EXPRESSIONS = {"FOR": "3d6", "DEF": "3d6", "TAI": "2d6+6", "INT": "2d6+6", "DEX": "3d6",
               "LUK": "3d6"}


@pytest.fixture(autouse=True)
def fresh_limits(db, monkeypatch):
    """An empty rate-limit cache, and django-ratelimit's clock stopped in the middle of a window
    (so that two rerolls never fall on both sides of a minute's edge)."""
    cache.clear()
    frozen = SimpleNamespace(t=(int(time.time()) // 60) * 60 + 30)
    from django_ratelimit import core
    monkeypatch.setattr(core, "time", SimpleNamespace(time=lambda: frozen.t))
    yield frozen
    cache.clear()


@pytest.fixture
def limited(db):
    return factories.campaign(name="Limited", rerolls_per_minute=2)


def row(draft) -> dict:
    """Everything a refused step must leave as it was."""
    return CharacterDraft.objects.filter(pk=draft.pk).values(
        "name", "rolled", "rolls", "deltas", "rerolls", "band").get()


def journal() -> tuple[int, int, int]:
    return (ActionRecord.objects.count(), RollRecord.objects.count(), Character.objects.count())


def test_a_first_roll_stores_six_values_within_their_dice_and_the_first_band(alice, campaign):
    draft = draft_roll(user=alice, campaign=campaign, name=" Nova ", rng=random.Random(3))

    draft.refresh_from_db()
    assert (draft.name, draft.rerolls, draft.deltas) == ("Nova", 0, {})
    assert set(draft.rolled) == set(draft.rolls) == set(CODES)
    for code, (low, high) in RANGES.items():
        assert low <= draft.rolled[code] <= high
        stored = draft.rolls[code]
        assert stored["expression"] == EXPRESSIONS[code]
        assert stored["total"] == draft.rolled[code]
        assert sum(stored["faces"]) + (6 if code in ("TAI", "INT") else 0) == stored["total"]
    k, low, high = band(0, band_sd=campaign.parameters.creation_band_sd,
                        band_step=campaign.parameters.creation_band_step)
    assert (draft.band["k"], draft.band["low"], draft.band["high"]) == (
        k, round(low, 2), round(high, 2))
    assert draft.band["attempts"] >= 1
    assert low <= sum(draft.rolled.values()) <= high
    assert journal() == (0, 0, 0)  # a draft is not a character yet


def test_a_reroll_counts_and_widens_the_band(alice, campaign):
    draft = draft_roll(user=alice, campaign=campaign, name="Nova", rng=random.Random(3))
    draft = draft_reroll(user=alice, draft_id=draft.pk, rng=random.Random(4))
    assert (draft.rerolls, draft.band["k"]) == (1, 1.5)
    draft = draft_reroll(user=alice, draft_id=draft.pk, rng=random.Random(5))
    assert (draft.rerolls, draft.band["k"]) == (2, 2.0)
    assert draft.band["low"] <= sum(draft.rolled.values()) <= draft.band["high"]

    # Starting over is one more reroll: it cannot fish for a narrow-band first roll.
    again = draft_roll(user=alice, campaign=campaign, name="Vega", rng=random.Random(6))
    assert (again.pk, again.name, again.rerolls, again.band["k"]) == (draft.pk, "Vega", 3, 2.5)


def test_starting_over_is_rate_limited_like_a_reroll(alice, campaign, fresh_limits):
    campaign.rule_parameters = {"rerolls_per_minute": 1}
    campaign.save()
    campaign.refresh_from_db()
    draft = draft_roll(user=alice, campaign=campaign, name="Nova", rng=random.Random(3))
    draft_roll(user=alice, campaign=campaign, name="Nova", rng=random.Random(4))  # the one
    before = CharacterDraft.objects.values().get(pk=draft.pk)
    with pytest.raises(RerollLimited):
        draft_roll(user=alice, campaign=campaign, name="Nova", rng=random.Random(5))
    assert CharacterDraft.objects.values().get(pk=draft.pk) == before


def test_a_reroll_forgets_the_points_moved(alice, campaign):
    draft = draft_roll(user=alice, campaign=campaign, name="Nova", rng=random.Random(3))
    draft_redistribute(user=alice, draft_id=draft.pk, deltas={"FOR": 1, "LUK": -1})
    draft = draft_reroll(user=alice, draft_id=draft.pk, rng=random.Random(4))
    assert draft.deltas == {}


def test_the_third_reroll_in_a_minute_is_refused_and_changes_nothing(alice, limited,
                                                                      fresh_limits):
    draft = draft_roll(user=alice, campaign=limited, name="Nova", rng=random.Random(3))
    assert draft_allowance(draft=draft).remaining == 2
    draft_reroll(user=alice, draft_id=draft.pk, rng=random.Random(4))
    draft_reroll(user=alice, draft_id=draft.pk, rng=random.Random(5))
    assert draft_allowance(draft=draft).remaining == 0

    before = row(draft)
    with pytest.raises(RerollLimited) as exc:
        draft_reroll(user=alice, draft_id=draft.pk, rng=random.Random(6))
    assert exc.value.code == "reroll_limited"
    assert "wait" in exc.value.message
    assert row(draft) == before and before["rerolls"] == 2
    with pytest.raises(RerollLimited):  # still refused: the refusal is not a free reroll
        draft_reroll(user=alice, draft_id=draft.pk, rng=random.Random(7))
    assert row(draft) == before

    fresh_limits.t += 60  # the next minute
    assert draft_reroll(user=alice, draft_id=draft.pk, rng=random.Random(8)).rerolls == 3


def test_the_seconds_left_are_never_zero_within_a_minute(alice, campaign, fresh_limits):
    """django-ratelimit says 0 seconds left in its window's last second; the player is told 1."""
    draft = draft_roll(user=alice, campaign=campaign, name="Nova", rng=random.Random(3))
    start = fresh_limits.t
    seen = set()
    for second in range(60):
        fresh_limits.t = start + second
        seen.add(draft_allowance(draft=draft).seconds_left)
    assert seen == set(range(1, 60))


def test_the_limit_is_per_user_across_drafts(alice, bob, limited):
    mine = draft_roll(user=alice, campaign=limited, name="Nova", rng=random.Random(3))
    theirs = draft_roll(user=bob, campaign=limited, name="Vega", rng=random.Random(3))
    other = factories.campaign(name="Other", rerolls_per_minute=2)
    second = draft_roll(user=alice, campaign=other, name="Lyra", rng=random.Random(3))
    draft_reroll(user=alice, draft_id=mine.pk, rng=random.Random(4))
    draft_reroll(user=alice, draft_id=second.pk, rng=random.Random(4))

    with pytest.raises(RerollLimited):  # Alice's two rerolls are spent, whichever the draft
        draft_reroll(user=alice, draft_id=mine.pk, rng=random.Random(5))
    assert draft_reroll(user=bob, draft_id=theirs.pk, rng=random.Random(5)).rerolls == 1
    assert draft_reroll(user=bob, draft_id=theirs.pk, rng=random.Random(6)).rerolls == 2
    with pytest.raises(RerollLimited):
        draft_reroll(user=bob, draft_id=theirs.pk, rng=random.Random(7))


def test_points_move_between_characteristics(alice, campaign):
    draft = draft_roll(user=alice, campaign=campaign, name="Nova", rng=random.Random(3))
    moved = {"FOR": 2, "DEX": 2, "INT": 1, "LUK": -2, "DEF": -2, "TAI": -1}
    draft = draft_redistribute(user=alice, draft_id=draft.pk, deltas=moved)
    assert row(draft)["deltas"] == moved
    assert creation.draft_values(draft) == {c: draft.rolled[c] + moved[c] for c in CODES}

    draft = draft_redistribute(user=alice, draft_id=draft.pk, deltas={"FOR": 1, "DEX": -1,
                                                                         "TAI": 0})
    assert row(draft)["deltas"] == {"FOR": 1, "DEX": -1}  # replaces, zeros dropped


@pytest.mark.parametrize("deltas, words", [
    ({"FOR": 3, "DEX": -3}, "At most 2 points"),
    ({"FOR": 2, "DEF": 2, "TAI": 2, "INT": -2, "DEX": -2, "LUK": -2}, "At most 5 points"),
    ({"FOR": 2, "DEX": -1}, "add up to 0"),
    ({"POU": 1, "DEX": -1}, "Unknown"),
], ids=["3-on-one", "6-in-all", "unbalanced", "unknown"])
def test_a_bad_redistribution_is_refused_and_changes_nothing(alice, campaign, deltas, words):
    draft = draft_roll(user=alice, campaign=campaign, name="Nova", rng=random.Random(3))
    draft_redistribute(user=alice, draft_id=draft.pk, deltas={"FOR": 1, "LUK": -1})
    before = row(draft)
    with pytest.raises(RedistributionError) as exc:
        draft_redistribute(user=alice, draft_id=draft.pk, deltas=deltas)
    assert exc.value.code == "invalid_redistribution" and words in exc.value.message
    assert row(draft) == before


def test_confirm_creates_the_character_from_the_final_values(alice, campaign):
    draft = draft_roll(user=alice, campaign=campaign, name="Nova", rng=random.Random(3))
    draft = draft_reroll(user=alice, draft_id=draft.pk, rng=random.Random(4))
    moved = {"FOR": 2, "LUK": -2}
    draft = draft_redistribute(user=alice, draft_id=draft.pk, deltas=moved)
    final = {c: draft.rolled[c] + moved.get(c, 0) for c in CODES}

    character = draft_confirm(user=alice, draft_id=draft.pk, rng=random.Random(9), now=NOW)

    character = Character.objects.select_related("ew1").get(pk=character.pk)
    sheet = character.ew1
    assert (character.name, character.owner, character.campaign) == ("Nova", alice, campaign)
    assert sheet.characteristics == final
    assert sheet.skills == base_skills(final)
    assert (sheet.level, sheet.xp, sheet.pa, sheet.pv) == (0, 0, 12, 100)
    assert character.board_id == campaign.board.pk and character.ew1.is_protected
    action = ActionRecord.objects.get(kind="create")
    assert (action.actor, action.user, action.created_at) == (character, alice, NOW)
    assert action.summary["characteristics"] == final
    assert (action.summary["rolled"], action.summary["moved"], action.summary["rerolls"]) == (
        draft.rolled, moved, 1)
    assert [(r.label, r.expression, r.faces, r.total, r.actor_id) for r in action.rolls.all()] == [
        (c, draft.rolls[c]["expression"], draft.rolls[c]["faces"], draft.rolled[c], character.pk)
        for c in CODES]
    assert not CharacterDraft.objects.filter(pk=draft.pk).exists()


def test_another_users_draft_is_not_found(alice, bob, campaign):
    draft = draft_roll(user=alice, campaign=campaign, name="Nova", rng=random.Random(3))
    before = row(draft)
    for step in (lambda: draft_reroll(user=bob, draft_id=draft.pk, rng=random.Random(4)),
                 lambda: draft_redistribute(user=bob, draft_id=draft.pk,
                                            deltas={"FOR": 1, "LUK": -1}),
                 lambda: draft_confirm(user=bob, draft_id=draft.pk, rng=random.Random(4),
                                       now=NOW),
                 lambda: draft_confirm(user=alice, draft_id=987654, now=NOW)):
        with pytest.raises(NotFound):
            step()
    assert row(draft) == before
    assert journal() == (0, 0, 0)


def test_confirm_when_the_name_was_taken_meanwhile(alice, bob, campaign):
    draft = draft_roll(user=alice, campaign=campaign, name="Nova", rng=random.Random(3))
    factories.character(owner=bob, campaign=campaign, name="NOVA")
    before, counts = row(draft), journal()

    with pytest.raises(InvalidInput) as exc:
        draft_confirm(user=alice, draft_id=draft.pk, rng=random.Random(9), now=NOW)

    assert exc.value.code == "invalid_input" and "already exists" in exc.value.message
    assert row(draft) == before  # the player may pick another name and start again
    assert journal() == counts


def test_a_draft_name_already_taken_is_refused_at_the_first_roll(alice, bob, campaign):
    factories.character(owner=bob, campaign=campaign, name="Nova")
    with pytest.raises(InvalidInput):
        draft_roll(user=alice, campaign=campaign, name="nova", rng=random.Random(3))
    assert not CharacterDraft.objects.exists()
