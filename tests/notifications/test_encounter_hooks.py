"""The encounter's notifications (issue 22, item 4; encounters.notices): a turn starting, a
reaction waiting with its deadline, a character hit by a resolved action. Nothing the game
master hides reaches a player: a hidden combatant's turn notifies nobody, its action names no
one. Stored once the step commits."""

from __future__ import annotations

import pytest
from django.utils import translation

from encounters import hooks, services
from notifications.models import Notification
from notifications.selectors import page_of
from tests.encounters.conftest import NOW, Table, _local_cache, enc_system  # noqa: F401

pytestmark = pytest.mark.django_db


def resolve_hit(ctx: hooks.ReactionContext) -> hooks.ReactionOutcome:
    """A hit always lands; it kills when the payload says so."""
    what = "killed" if ctx.reaction.payload.get("kill") else "attacked"
    return hooks.ReactionOutcome(kind="enc_test_strike", summary={"damage": 3},
                                 hits=((ctx.target.character_id, what),))


@pytest.fixture(autouse=True)
def _hit_resolver(enc_system):  # noqa: F811
    hooks.register_resolver("notif_test.hit", resolve_hit)
    yield
    hooks.unregister_resolver("notif_test.hit")


@pytest.fixture
def table(db):
    return Table()


@pytest.fixture
def run(django_capture_on_commit_callbacks):
    """``run(fn)``: fn() with the callbacks of its commit run (the notifications stored)."""
    def call(fn):
        with django_capture_on_commit_callbacks(execute=True):
            return fn()
    return call


def texts(user) -> list[str]:
    with translation.override("en"):
        return [n.text for n in reversed(page_of(user, 1).object_list)]


def to_the_turn_of(table, run, name):
    for _ in range(6):
        if table.current_name() == name:
            return table.reload()
        run(lambda: table.next())
    raise AssertionError(f"{name} never had the turn")


def hide(table, name):
    services.combatant_update(user=table.gm, encounter_id=table.encounter.pk,
                              combatant_id=table.c[name].pk, hidden=True)


def test_each_player_is_told_of_their_turn_and_nobody_of_the_creatures(table, run):
    run(lambda: table.start())
    for _ in range(3):
        run(lambda: table.next())
    assert "It is Hero's turn in Ambush." in texts(table.alice)
    assert "It is Brenna's turn in Ambush." in texts(table.bob)
    assert not any("Orc" in t for t in texts(table.alice) + texts(table.bob))
    assert not Notification.objects.filter(user=table.gm).exists()
    n = Notification.objects.filter(user=table.alice).first()
    assert (n.kind, n.campaign_id, n.link) == ("turn", table.campaign.pk,
                                               f"/encounters/{table.encounter.pk}/")


def test_a_hidden_combatants_turn_notifies_nobody(table, run):
    hide(table, "Hero")
    run(lambda: table.start())
    for _ in range(4):
        run(lambda: table.next())
    assert not Notification.objects.filter(user=table.alice).exists()
    assert Notification.objects.filter(user=table.bob, kind="turn").exists()


def strike(target, *, resolver="enc_test.strike", **payload):
    def act(ctx):
        target_c = next(c for c in ctx.combatants.values() if c.name == target)
        return ctx.request_reaction(target=target_c, action_payload=payload,
                                    options=["parry"], resolver=resolver)
    return act


def orc_strikes_hero(table, run, **payload):
    e = to_the_turn_of(table, run, "Orc")
    return run(lambda: services.encounter_act(
        user=table.gm, encounter_id=e.pk, combatant_id=table.c["Orc"].pk,
        act=strike("Hero", resolver="notif_test.hit", **payload), now=NOW))


def test_a_reaction_waiting_is_told_with_its_deadline(table, run):
    run(lambda: table.start())
    reaction = orc_strikes_hero(table, run)
    assert texts(table.alice)[-1] == (
        f"Orc attacks Hero: choose a reaction before {reaction.deadline:%H:%M:%S}.")
    n = Notification.objects.filter(user=table.alice, kind="reaction").get()
    assert n.params["deadline"] == reaction.deadline.isoformat()


def test_a_hidden_attacker_is_not_named(table, run):
    hide(table, "Orc")
    run(lambda: table.start())
    reaction = orc_strikes_hero(table, run)
    run(lambda: services.answer_reaction(user=table.alice, reaction_id=reaction.pk,
                                         choice="parry", now=NOW))
    told = texts(table.alice)
    assert told[-2:] == [
        f"Hero is attacked: choose a reaction before {reaction.deadline:%H:%M:%S}.",
        "Hero was attacked."]
    rows = Notification.objects.filter(user=table.alice).exclude(kind="turn")
    assert not any("Orc" in str(n.params) for n in rows)


def test_a_resolved_hit_tells_the_target_who_did_it(table, run):
    run(lambda: table.start())
    reaction = orc_strikes_hero(table, run, kill=True)
    run(lambda: services.answer_reaction(user=table.alice, reaction_id=reaction.pk,
                                         choice="parry", now=NOW))
    assert texts(table.alice)[-1] == "Orc killed Hero."
    assert Notification.objects.filter(user=table.alice, kind="killed").count() == 1
    assert not Notification.objects.filter(user=table.bob).exclude(kind="turn").exists()


def test_a_muted_turn_is_not_recorded(table, run):
    from notifications.services import preferences_set

    preferences_set(user=table.alice, muted=["turn"], digest=False)
    run(lambda: table.start())
    for _ in range(3):
        run(lambda: table.next())
    assert not Notification.objects.filter(user=table.alice).exists()


def test_the_homebrew_tells_a_hurt_or_a_killed_target():
    from homebrew.encounter import hits_of

    assert hits_of(7, {"damage": 0, "health": "healthy"}) == ()
    assert hits_of(None, {"damage": 4, "health": "wounded"}) == ()
    assert hits_of(7, {"damage": 4, "health": "wounded"}) == ((7, "attacked"),)
    assert hits_of(7, {"damage": 9, "health": "dead"}) == ((7, "killed"),)
