"""A test rule system played in encounters ("enc_test"), its initiative and reaction
resolver, and a campaign with a game master, two players and a creature."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

import pytest

from campaigns import journal, rule_systems
from campaigns.journal import roll_row
from encounters import hooks, services
from gamerules import dice
from gamerules.parameters import RuleParameters, param
from tests import factories

NOW = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
SYSTEM = "enc_test"
# The journal's kinds the test system and these tests write (campaigns.journal.register_kinds).
JOURNAL_KINDS = ("enc_test_strike", "enc_test_blast", "enc_test_volley", "enc_test_pair",
                 "enc_test_act")


@dataclass(frozen=True)
class EncTestParameters(RuleParameters):
    reaction_timeout_seconds: int = param(20, 1, 600, "Seconds to answer a reaction.")


def initiative(combatant, rng):
    r = dice.roll("1d10", rng)
    return hooks.Initiative(score=r.total, tiebreak=len(combatant.name),
                            rolls=(roll_row(label="initiative", roll=r, actor=combatant.character),))


def resolve_strike(ctx: hooks.ReactionContext) -> hooks.ReactionOutcome:
    """A parry halves the damage (rolled only when parrying); no reaction takes it all."""
    damage = ctx.reaction.payload["damage"]
    rolls = ()
    if ctx.choice == "parry":
        r = dice.roll("1d6", ctx.rng)
        rolls = (roll_row(label="parry", roll=r, actor=ctx.target.character),)
        damage = max(0, damage - r.total)
    return hooks.ReactionOutcome(kind="enc_test_strike", summary={"damage": damage},
                                 rolls=rolls)


@pytest.fixture(autouse=True)
def _local_cache(settings):
    """The cache in process memory (throttles, journal versions): query counts then do not
    depend on whether the cache is the database (default) or Redis (CI)."""
    from django.core.cache import caches

    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": "encounter-tests"}}
    caches["default"].clear()


def register_test_system() -> None:
    rule_systems.register(rule_systems.RuleSystemSpec(
        code=SYSTEM, name="Encounter test", parameters=EncTestParameters,
        rules_package="gamerules.encounter", play_mode=rule_systems.ENCOUNTER,
        sheet_related_name="", action_labels={"parry": "Parry", "none": "No reaction"}))
    hooks.register_initiative(SYSTEM, initiative)
    hooks.register_resolver("enc_test.strike", resolve_strike)
    journal.register_kinds(*JOURNAL_KINDS, system=SYSTEM)


def unregister_test_system() -> None:
    rule_systems.unregister(SYSTEM)
    hooks.unregister_initiative(SYSTEM)
    hooks.unregister_resolver("enc_test.strike")
    journal.unregister_kinds(*JOURNAL_KINDS)


@pytest.fixture(autouse=True)
def enc_system():
    register_test_system()
    yield
    unregister_test_system()


class Table:
    """A campaign of the test system: ``gm``, players ``alice`` (Hero) and ``bob`` (Brenna),
    a creature (Orc), and an encounter with the three, not started."""

    def __init__(self, extra: int = 0):
        self.gm = factories.user("gm")
        self.alice, self.bob = factories.user("alice"), factories.user("bob")
        self.campaign = factories.campaign(rule_system=SYSTEM)
        self.campaign.game_master = self.gm
        self.campaign.save()
        make = factories.CharacterFactory
        self.hero = make(campaign=self.campaign, owner=self.alice, name="Hero")
        self.brenna = make(campaign=self.campaign, owner=self.bob, name="Brenna")
        self.orc = factories.CreatureFactory(campaign=self.campaign, name="Orc")
        self.encounter = services.encounter_create(user=self.gm, campaign_id=self.campaign.pk,
                                                   name="Ambush")
        entries = [services.CombatantEntry(character_id=c.pk)
                   for c in (self.hero, self.brenna, self.orc)]
        if extra:
            entries.append(services.CombatantEntry(name="Goblin", count=extra))
        made = services.combatants_add(user=self.gm, encounter_id=self.encounter.pk,
                                       entries=entries)
        self.c = {c.name: c for c in made}

    def start(self, **kw):
        services.encounter_start(user=self.gm, encounter_id=self.encounter.pk, now=NOW, **kw)
        return self.reload()

    def reload(self):
        self.encounter.refresh_from_db()
        return self.encounter

    def next(self, user=None, turn=None):
        e = self.reload()
        services.encounter_next_turn(user=user or self.gm, encounter_id=e.pk,
                                     turn=e.turn_serial if turn is None else turn, now=NOW)
        return self.reload()

    def current_name(self):
        e = self.reload()
        return e.current.name if e.current else None


@pytest.fixture
def table(db):
    return Table()
