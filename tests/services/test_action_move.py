from datetime import timedelta
from decimal import Decimal

import pytest

from campaigns.errors import Forbidden, NotFound
from campaigns.models import ActionRecord
from characters.models import Character
from combat.services import action_move
from ew1.models import EternalWarSheet
from gamerules.ew1 import errors
from tests import factories
from tests.services.conftest import NOW

DIRECTIONS = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)]


@pytest.fixture
def mover(campaign, alice):
    return factories.character(owner=alice, campaign=campaign, name="Mover", at=(5, 5), now=NOW,
                               acted=False)


@pytest.mark.parametrize(("dx", "dy"), DIRECTIONS)
def test_a_move_goes_one_cell_costs_half_a_pa_and_gives_one_xp(alice, mover, dx, dy):
    result = action_move(user=alice, character_id=mover.pk, dx=dx, dy=dy, now=NOW)

    c = Character.objects.select_related("ew1").get(pk=mover.pk)
    assert (c.x, c.y) == (5 + dx, 5 + dy)
    assert c.ew1.pa == Decimal("11.5")
    assert (c.ew1.xp, c.ew1.level) == (1, 1)
    assert c.first_action_at == c.last_action_at == NOW
    action = ActionRecord.objects.get(actor=c, kind="move")
    assert action == result.action
    assert (action.kind, action.cost, action.user, action.target) == (
        "move", Decimal("0.5"), alice, None)
    assert action.summary == {"to": [5 + dx, 5 + dy], "xp": 1}
    assert action.rolls.count() == 0


def test_moves_add_up_and_the_first_action_stays(alice, mover):
    later = NOW + timedelta(minutes=3)
    action_move(user=alice, character_id=mover.pk, dx=1, dy=0, now=NOW)
    action_move(user=alice, character_id=mover.pk, dx=1, dy=0, now=later)

    c = Character.objects.select_related("ew1").get(pk=mover.pk)
    assert (c.x, c.y, c.ew1.pa, c.ew1.xp) == (7, 5, Decimal("11.0"), 2)
    assert (c.first_action_at, c.last_action_at) == (NOW, later)


def test_the_move_uses_regenerated_pa(alice, campaign):
    c = factories.character(owner=alice, campaign=campaign, name="Tired", at=(5, 5), now=NOW,
                            pa=Decimal("0"))
    with pytest.raises(errors.NotEnoughPA):
        action_move(user=alice, character_id=c.pk, dx=1, dy=0, now=NOW + timedelta(hours=1))
    action_move(user=alice, character_id=c.pk, dx=1, dy=0, now=NOW + timedelta(hours=2))
    sheet = EternalWarSheet.objects.get(pk=c.pk)
    assert sheet.pa == Decimal("0.5")


@pytest.mark.parametrize(("at", "dx", "dy"), [
    ((0, 5), -1, 0), ((9, 5), 1, 0), ((5, 0), 0, -1), ((5, 9), 0, 1), ((0, 0), -1, -1),
    ((9, 9), 1, 1), ((0, 9), 1, 1),
])
def test_no_move_off_the_board(alice, campaign, unchanged, at, dx, dy):
    c = factories.character(owner=alice, campaign=campaign, name="Edge", at=at, now=NOW)
    with unchanged(), pytest.raises(errors.OffBoard) as exc:
        action_move(user=alice, character_id=c.pk, dx=dx, dy=dy, now=NOW)
    assert exc.value.code == "off_board"


def test_no_move_onto_an_occupied_cell(alice, bob, campaign, mover, unchanged):
    factories.character(owner=bob, campaign=campaign, name="Wall", at=(6, 5), now=NOW)
    with unchanged(), pytest.raises(errors.CellOccupied) as exc:
        action_move(user=alice, character_id=mover.pk, dx=1, dy=0, now=NOW)
    assert exc.value.code == "cell_occupied"


@pytest.mark.parametrize(("dx", "dy"), [(0, 0), (2, 0), (0, -2), (1, 2), (-3, -3)])
def test_an_invalid_direction_is_refused(alice, mover, unchanged, dx, dy):
    with unchanged(), pytest.raises(errors.InvalidDirection) as exc:
        action_move(user=alice, character_id=mover.pk, dx=dx, dy=dy, now=NOW)
    assert exc.value.code == "invalid_direction"


@pytest.mark.parametrize("pa", [Decimal("0"), Decimal("0.4")])
def test_too_few_pa(alice, campaign, unchanged, pa):
    c = factories.character(owner=alice, campaign=campaign, name="Tired", at=(5, 5), now=NOW, pa=pa)
    with unchanged(), pytest.raises(errors.NotEnoughPA) as exc:
        action_move(user=alice, character_id=c.pk, dx=1, dy=0, now=NOW)
    assert exc.value.code == "not_enough_pa"


def test_exactly_enough_pa_is_enough(alice, campaign):
    c = factories.character(owner=alice, campaign=campaign, name="Tired", at=(5, 5), now=NOW,
                            pa=Decimal("0.5"))
    action_move(user=alice, character_id=c.pk, dx=1, dy=0, now=NOW)
    assert EternalWarSheet.objects.get(pk=c.pk).pa == 0


def test_a_character_at_0_pv_cannot_move(alice, campaign, unchanged):
    c = factories.character(owner=alice, campaign=campaign, name="Down", at=(5, 5), now=NOW, pv=0)
    with unchanged(), pytest.raises(errors.CannotAct) as exc:
        action_move(user=alice, character_id=c.pk, dx=1, dy=0, now=NOW)
    assert exc.value.code == "cannot_act"


def test_a_character_off_the_board_cannot_move(alice, campaign, unchanged):
    c = factories.character(owner=alice, campaign=campaign, name="Ghost", now=NOW)
    Character.objects.filter(pk=c.pk).update(board=None, x=None, y=None)
    with unchanged(), pytest.raises(errors.CannotAct):
        action_move(user=alice, character_id=c.pk, dx=1, dy=0, now=NOW)


def test_a_stranger_is_told_the_character_does_not_exist(bob, mover, unchanged):
    with unchanged(), pytest.raises(NotFound) as exc:
        action_move(user=bob, character_id=mover.pk, dx=1, dy=0, now=NOW)
    assert exc.value.code == "not_found"


def test_the_game_master_sees_but_cannot_move_a_players_character(campaign, mover, unchanged):
    campaign.game_master = factories.user("gm")
    campaign.save()
    with unchanged(), pytest.raises(Forbidden) as exc:
        action_move(user=campaign.game_master, character_id=mover.pk, dx=1, dy=0, now=NOW)
    assert exc.value.code == "forbidden"


def test_a_missing_character(alice, unchanged, db):
    with unchanged(), pytest.raises(NotFound):
        action_move(user=alice, character_id=987654, dx=1, dy=0, now=NOW)
