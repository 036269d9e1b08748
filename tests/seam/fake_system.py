"""A minimal fake rule system, "Fake d100", that plugs into the core only through the registry
(campaigns.rule_systems.RuleSystemSpec): no model, no migration, no shared module changed.

Its sheet lives in memory (``SHEETS``, character id -> FakeSheet): ``grit`` rolled 1d100 at
creation, ``marks`` one per sparring. Its one action, ``spar``, is its own service (as EW1's
actions are combat's): a d100 under the grit, journaled with campaigns.journal like any action.
Its templates are tests/seam/templates/fake/*.html.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from rest_framework import serializers

from campaigns import rule_systems
from campaigns.journal import record_action, roll_row
from campaigns.models import Campaign
from characters.models import Character
from gamerules.d100 import RollUnder, grade_face
from gamerules.dice import roll

CODE = "fake_d100"


@dataclass(frozen=True)
class FakeParameters:
    grit_dice: str = "1d100"

    @classmethod
    def from_overrides(cls, overrides) -> FakeParameters:
        return cls(**(overrides or {}))

    @classmethod
    def describe(cls) -> list[dict[str, Any]]:
        return []


@dataclass
class FakeSheet:
    grit: int
    marks: int = 0


SHEETS: dict[int, FakeSheet] = {}


@dataclass(frozen=True)
class FakeView:
    """The character page's view (what ``sheet_view`` returns)."""

    character: Character
    sheet: FakeSheet
    log: list
    now: datetime


def create_character(*, user, campaign, name: str, rng, now: datetime) -> Character:
    grit = roll(campaign.parameters.grit_dice, rng)
    character = Character.objects.create(campaign=campaign, owner=user, name=name)
    SHEETS[character.pk] = FakeSheet(grit=grit.total)
    record_action(campaign=campaign, kind="create", now=now, user=user, actor=character,
                  summary={"grit": grit.total},
                  rolls=[{**roll_row(label="grit", roll=grit), "actor": character}])
    return character


def begin_creation(*, user, campaign, name: str) -> str:
    import random
    character = create_character(user=user, campaign=campaign, name=name,
                                 rng=random.Random(name), now=timezone.now())
    return reverse("characters:detail", kwargs={"character_id": character.pk})


def sheet_view(*, character, log, now):
    return FakeView(character, SHEETS[character.pk], log, now)


@transaction.atomic
def action_spar(*, user, character_id: int, rng, now: datetime | None = None):
    """The fake system's one action: d100 under the grit; a success gives a mark."""
    now = now or timezone.now()
    character = Character.objects.select_for_update().select_related("campaign").get(
        pk=character_id, owner=user)
    sheet = SHEETS[character.pk]
    die = roll("1d100", rng)
    grade = grade_face(die.total, sheet.grit, RollUnder())
    success = grade.success
    if success:
        sheet.marks += 1
    character.attacks += 1  # the shared counter the leaderboard's "marks" column sorts by
    character.last_action_at = now
    character.save(update_fields=["attacks", "last_action_at"])
    return record_action(
        campaign=character.campaign, kind="spar", now=now, user=user, actor=character,
        summary={"roll": die.total, "grit": sheet.grit, "success": success},
        rolls=[roll_row(label="spar", roll=die, actor=character, target_score=sheet.grit,
                        grade=grade)])


class SheetSerializer(serializers.Serializer):
    grit = serializers.IntegerField(source="sheet.grit")
    marks = serializers.IntegerField(source="sheet.marks")


class SummarySerializer(serializers.Serializer):
    grit = serializers.SerializerMethodField()

    def get_grit(self, character) -> int:
        return SHEETS[character.pk].grit


class RowSerializer(serializers.Serializer):
    marks = serializers.SerializerMethodField()

    def get_marks(self, character) -> int:
        return SHEETS[character.pk].marks


SPEC = rule_systems.RuleSystemSpec(
    code=CODE,
    name="Fake d100",
    parameters=FakeParameters,
    rules_package="tests.seam.fake_system",
    play_mode=rule_systems.ENCOUNTER,
    sheet=lambda character: SHEETS.get(character.pk),
    create_character=create_character,
    begin_creation=begin_creation,
    sheet_view=sheet_view,
    templates=rule_systems.Templates(
        sheet="fake/_sheet.html", gauges="fake/_gauges.html",
        list_columns="fake/_list_columns.html", list_cells="fake/_list_cells.html",
        log_entry="fake/_log_entry.html"),
    leaderboard=(rule_systems.LeaderboardColumn(
        "marks", "Marks", ("-attacks", "name"), lambda c: SHEETS[c.pk].marks),),
    serializers={"sheet": "tests.seam.fake_system.SheetSerializer",
                 "summary": "tests.seam.fake_system.SummarySerializer",
                 "row": "tests.seam.fake_system.RowSerializer"},
    labels={"roll": {"spar": "sparring", "grit": "grit"}},
    action_labels={"spar": "Spar"},
)


# --- in an encounter, wired through the registry alone ----------------------------------------
# What a real system's AppConfig.ready() does, the tests' fixture does with register(): the spec
# (its pages under /fake/, its API routes, its demo), its journal kinds, and the encounter's
# hooks (the rolled initiative, the actions template of the turn).

def initiative(combatant, rng):
    """1d100 plus the grit: the fake's initiative."""
    from encounters import hooks

    die = roll("1d100", rng)
    grit = SHEETS[combatant.character_id].grit if combatant.character_id in SHEETS else 0
    return hooks.Initiative(die.total + grit, rolls=(roll_row(label="initiative", roll=die),))


def encounter_spar(*, user, encounter_id: int, combatant_id: int, rng, now=None):
    """Spar in the combatant's turn (encounters.services.encounter_act: locked, its turn, its
    player's, one action), journaled in the encounter's log; the turn ends."""
    from encounters.services import encounter_act

    def act(ctx):
        sheet = SHEETS[ctx.combatant.character_id]
        die = roll("1d100", rng)
        grade = grade_face(die.total, sheet.grit, RollUnder())
        sheet.marks += int(grade.success)
        ctx.end_turn = True
        return record_action(
            campaign=ctx.encounter.campaign, kind="spar", now=ctx.now, user=user,
            actor=ctx.combatant.character,
            summary={"encounter": ctx.encounter.pk, "round": ctx.encounter.round,
                     "roll": die.total, "grit": sheet.grit, "success": grade.success},
            rolls=[roll_row(label="spar", roll=die, actor=ctx.combatant.character,
                            target_score=sheet.grit, grade=grade)])

    return encounter_act(user=user, encounter_id=encounter_id, combatant_id=combatant_id,
                         act=act, now=now, rng=rng)


DEMO_CAMPAIGN = "Fake d100: demo"


def load_fake_demo(*, gm, players, now):
    campaign = Campaign.objects.create(name=DEMO_CAMPAIGN, rule_system=CODE, game_master=gm)
    for username, user in sorted(players.items()):
        if username != gm.username:
            create_character(user=user, campaign=campaign, name=f"{username.title()} Fake",
                             rng=random.Random(username), now=now)
    return campaign


WIRED = dataclasses.replace(
    SPEC, urls=(("fake/", "tests.seam.fake_urls"),), api_urls=("tests.seam.fake_api",),
    demo=load_fake_demo, demo_campaign=DEMO_CAMPAIGN)


def register() -> None:
    """Plug the fake system in, as an app's ready() would; then the URLconf is read again."""
    from campaigns import journal
    from encounters import hooks

    rule_systems.register(WIRED)
    journal.register_kinds("spar", system=CODE)
    hooks.register_initiative(CODE, initiative)
    hooks.register_templates(CODE, hooks.EncounterTemplates(actions="fake/_turn.html"))
    _reload_urls()


def unregister() -> None:
    from campaigns import journal
    from encounters import hooks

    rule_systems.unregister(CODE)
    journal.unregister_kinds("spar")
    hooks.unregister_initiative(CODE)
    hooks.register_templates(CODE, hooks.EncounterTemplates())
    SHEETS.clear()
    _reload_urls()


def _reload_urls() -> None:
    import importlib

    from django.urls import clear_url_caches

    import config.api_urls
    import config.urls

    importlib.reload(config.api_urls)
    importlib.reload(config.urls)
    clear_url_caches()
