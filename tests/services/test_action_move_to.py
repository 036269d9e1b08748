"""combat.services.action_move_to: a walk to a cell in view, priced by the rule the board's
preview draws (gamerules.ew1.movement). Seed 000_afeb9d2c9ccd2b72.txt, "DEP (Déplacement) :
0.5 PA par case"; "Déplacement : 0.5 PA = 1 XP"."""

from decimal import Decimal

import pytest

from campaigns.errors import Forbidden, NotFound
from campaigns.models import ActionRecord
from characters.models import Character
from combat.services import action_move_to
from ew1.selectors import board_view
from gamerules.ew1 import errors
from tests import factories
from tests.concurrency import refused_or_done, run_together, slow_sheet_refresh
from tests.services.conftest import NOW


@pytest.fixture
def walker(campaign, alice):
    return factories.character(owner=alice, campaign=campaign, name="Walker", at=(5, 5), now=NOW,
                               acted=False)


def where(c):
    c = Character.objects.select_related("ew1").get(pk=c.pk)
    return (c.x, c.y), c.ew1.pa, c.ew1.xp


@pytest.mark.parametrize(("goal", "steps"), [((6, 5), 1), ((7, 7), 2), ((9, 5), 4),
                                             ((0, 0), 5), ((9, 9), 4)])
def test_a_walk_costs_half_a_pa_and_gives_one_xp_a_cell(alice, walker, goal, steps):
    result = action_move_to(user=alice, character_id=walker.pk, x=goal[0], y=goal[1], now=NOW)

    assert where(walker) == (goal, Decimal(12) - Decimal("0.5") * steps, steps)
    action = ActionRecord.objects.get(actor=walker, kind="move")
    assert action == result.action
    assert (action.cost, action.user, action.target) == (Decimal("0.5") * steps, alice, None)
    assert action.summary == {"to": list(goal), "xp": steps, "steps": steps}
    assert action.rolls.count() == 0


def test_a_walk_goes_around_pieces_and_pays_the_longer_path(alice, bob, campaign, walker):
    for y in range(0, 9):  # a wall of Bob's characters at x = 6, its gap at (6, 9)
        factories.character(owner=bob, campaign=campaign, name=f"Wall {y}", at=(6, y), now=NOW,
                            seed=y)
    action_move_to(user=alice, character_id=walker.pk, x=7, y=5, now=NOW)
    assert where(walker) == ((7, 5), Decimal(12) - 4, 8)


def test_the_walk_costs_what_the_board_showed(alice, bob, campaign, walker):
    factories.character(owner=bob, campaign=campaign, name="Block", at=(6, 5), now=NOW)
    shown = next(c for row in board_view(user=alice, character_id=walker.pk, now=NOW).rows
                 for c in row if (c.x, c.y) == (8, 5))
    action_move_to(user=alice, character_id=walker.pk, x=8, y=5, now=NOW)
    assert (shown.steps, shown.cost) == (3, Decimal("1.5"))
    assert where(walker)[1] == Decimal(12) - shown.cost


@pytest.mark.parametrize(("goal", "error", "key"), [
    ((10, 5), errors.OffBoard, None), ((-1, 5), errors.OffBoard, None),
    ((5, 10), errors.OffBoard, None), ((10**6, -10**6), errors.OffBoard, None),
    ((5, 5), errors.InvalidDirection, "move_somewhere"),
])
def test_refused_goals_change_nothing(alice, walker, unchanged, goal, error, key):
    with unchanged(), pytest.raises(error) as exc:
        action_move_to(user=alice, character_id=walker.pk, x=goal[0], y=goal[1], now=NOW)
    assert key is None or exc.value.key == key


def test_a_cell_out_of_view_is_refused(alice):
    campaign = factories.campaign(name="Wide", width=30, height=30, view_radius=3)
    c = factories.character(owner=alice, campaign=campaign, name="Scout", at=(5, 5), now=NOW)
    with pytest.raises(errors.OutOfRange) as exc:
        action_move_to(user=alice, character_id=c.pk, x=9, y=5, now=NOW)
    assert exc.value.key == "cell_out_of_view"
    assert where(c)[0] == (5, 5)


def test_an_occupied_cell_and_a_walled_off_one_are_refused(alice, bob, campaign, walker,
                                                           unchanged):
    ring = [(x, y) for x in (7, 8, 9) for y in (0, 1, 2) if (x, y) != (8, 1)]
    for i, cell in enumerate(ring):
        factories.character(owner=bob, campaign=campaign, name=f"Ring {i}", at=cell, now=NOW,
                            seed=i)
    with unchanged(), pytest.raises(errors.CellOccupied):
        action_move_to(user=alice, character_id=walker.pk, x=7, y=0, now=NOW)
    with unchanged(), pytest.raises(errors.OutOfRange) as exc:
        action_move_to(user=alice, character_id=walker.pk, x=8, y=1, now=NOW)
    assert exc.value.key == "no_free_path"


@pytest.mark.parametrize("pa", [Decimal("0"), Decimal("1.0")])
def test_not_enough_pa_for_the_whole_walk_changes_nothing(alice, campaign, unchanged, pa):
    c = factories.character(owner=alice, campaign=campaign, name="Tired", at=(5, 5), now=NOW,
                            pa=pa)
    with unchanged(), pytest.raises(errors.NotEnoughPA) as exc:
        action_move_to(user=alice, character_id=c.pk, x=8, y=5, now=NOW)  # 1.5 PA
    assert exc.value.params == {"cost": Decimal("1.5"), "pa": pa}


def test_exactly_enough_pa_is_enough(alice, campaign):
    c = factories.character(owner=alice, campaign=campaign, name="Tired", at=(5, 5), now=NOW,
                            pa=Decimal("1.5"))
    action_move_to(user=alice, character_id=c.pk, x=8, y=5, now=NOW)
    assert where(c)[:2] == ((8, 5), 0)


def test_at_0_pv_no_walk(alice, campaign, unchanged):
    c = factories.character(owner=alice, campaign=campaign, name="Down", at=(5, 5), now=NOW, pv=0)
    with unchanged(), pytest.raises(errors.CannotAct):
        action_move_to(user=alice, character_id=c.pk, x=6, y=5, now=NOW)


def test_strangers_and_the_game_master_cannot_walk_a_players_character(bob, campaign, walker,
                                                                        unchanged):
    with unchanged(), pytest.raises(NotFound):
        action_move_to(user=bob, character_id=walker.pk, x=6, y=5, now=NOW)
    campaign.game_master = factories.user("gm")
    campaign.save()
    with unchanged(), pytest.raises(Forbidden):
        action_move_to(user=campaign.game_master, character_id=walker.pk, x=6, y=5, now=NOW)


@pytest.mark.parametrize("crowd", [0, 60])
def test_a_walk_runs_the_same_queries_whatever_the_pieces_in_view(
        alice, bob, campaign, walker, crowd, django_assert_num_queries):
    free = [(x, y) for y in range(10) for x in range(10) if y > 6 and (x, y) != (5, 5)]
    for i, cell in enumerate(free[:crowd]):
        factories.character(owner=bob, campaign=campaign, name=f"C{i}", at=cell, now=NOW, seed=i)
    # The transaction's savepoint and its release, the lock, the cells taken in view, the
    # character's UPDATE in its savepoint (and release), the sheet's UPDATE, the scrolls on the
    # path (magic, one look-up whatever its length), the journal entry.
    with django_assert_num_queries(10):
        action_move_to(user=alice, character_id=walker.pk, x=8, y=2, now=NOW)  # 3 cells
    assert where(walker)[0] == (8, 2)


def test_a_walk_picks_up_the_scrolls_it_walks_over_in_one_look_up(alice, walker):
    from magic.models import KnownSpell, Scroll, Spell

    spells = [Spell.objects.create(campaign=walker.campaign, name=n, effect="damage", dice="1d6",
                                   range_cells=3) for n in ("Étincelle", "Éclair", "Loin")]
    Scroll.objects.create(board=walker.board, x=6, y=5, spell=spells[0])
    Scroll.objects.create(board=walker.board, x=7, y=5, spell=spells[1])
    Scroll.objects.create(board=walker.board, x=7, y=7, spell=spells[2])  # off the path

    result = action_move_to(user=alice, character_id=walker.pk, x=8, y=5, now=NOW)

    assert result.action.summary["scroll"] == "Étincelle, Éclair"
    assert set(KnownSpell.objects.filter(character=walker).values_list("spell__name", flat=True)
               ) == {"Étincelle", "Éclair"}
    assert list(Scroll.objects.values_list("spell__name", flat=True)) == ["Loin"]


# --- races, on PostgreSQL's row locks ---------------------------------------------------------

@pytest.fixture
def slow_refresh(monkeypatch):
    slow_sheet_refresh(monkeypatch, 0.2)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("round_", range(2))
def test_two_walks_at_once_with_pa_for_one_spend_it_once(alice, round_, slow_refresh):
    campaign = factories.campaign(width=12, height=12)
    c = factories.character(owner=alice, campaign=campaign, name="Racer", at=(5, 5), now=NOW,
                            pa=Decimal("2"))
    results = run_together(
        lambda: action_move_to(user=alice, character_id=c.pk, x=8, y=5, now=NOW),  # 1.5 PA
        lambda: action_move_to(user=alice, character_id=c.pk, x=5, y=8, now=NOW))  # 1.5 PA
    done = refused_or_done(results)
    assert len(done) == 1
    assert any(isinstance(r, errors.NotEnoughPA) for r in results)
    cell, pa, _xp = where(c)
    assert cell in ((8, 5), (5, 8)) and pa == Decimal("0.5")
    assert ActionRecord.objects.filter(kind="move", actor=c).count() == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_pieces_walking_to_one_cell_at_once_one_gets_there(alice, bob, slow_refresh):
    campaign = factories.campaign(width=12, height=12)
    a = factories.character(owner=alice, campaign=campaign, name="A", at=(3, 5), now=NOW)
    b = factories.character(owner=bob, campaign=campaign, name="B", at=(7, 5), now=NOW)
    before = {x.pk: where(x)[1] for x in (a, b)}
    results = run_together(
        lambda: action_move_to(user=alice, character_id=a.pk, x=5, y=5, now=NOW),
        lambda: action_move_to(user=bob, character_id=b.pk, x=5, y=5, now=NOW))
    done = refused_or_done(results)
    assert len(done) == 1
    assert any(isinstance(r, errors.CellOccupied) for r in results)
    [winner] = [x for x in (a, b) if where(x)[0] == (5, 5)]
    loser = b if winner == a else a
    assert where(loser)[1] == before[loser.pk]  # nothing half-spent
    assert where(winner)[1] == before[winner.pk] - Decimal("1")
    assert ActionRecord.objects.filter(kind="move").count() == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_walk_racing_a_one_cell_move_never_goes_below_zero_pa(alice, slow_refresh):
    from combat.services import action_move

    campaign = factories.campaign(width=12, height=12)
    c = factories.character(owner=alice, campaign=campaign, name="Racer", at=(5, 5), now=NOW,
                            pa=Decimal("1.5"))
    results = run_together(
        lambda: action_move_to(user=alice, character_id=c.pk, x=8, y=5, now=NOW),  # 1.5 PA
        lambda: action_move(user=alice, character_id=c.pk, dx=0, dy=1, now=NOW))  # 0.5 PA
    refused_or_done(results)
    _cell, pa, _xp = where(c)
    assert pa >= 0
    spent = Decimal("1.5") - pa
    assert spent == sum(r.action.cost for r in results if not isinstance(r, Exception))
