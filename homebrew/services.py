"""The homebrew d100 services: creation, tests, postures, attacks and their reactions, rests.

Every surface (pages, API, admin, the shared encounter) calls these. Each one checks
permission and state, then changes the game in one transaction and journals every roll
(campaigns.journal: expression, faces, total, target and modifiers). The rules are
gamerules.homebrew; the source is 002_80873c4f1892db54.txt; the choices are in
docs/rules/homebrew-d100.md.

For the encounter (issue 11, items 5 and 12-17): ``attack`` rolls a declared attack and says
which reactions it allows (``DeclaredAttack.reactions``, ``DeclaredAttack.protectors``); the
encounter prompts the target, then calls ``resolve`` with the answer ("none" by default). The
encounter owns the turn (whose turn, one action, posture only at the start of a turn) and
passes its round marker as ``round_key`` (the dodge lost after a failed one lasts that round).
``user=None`` means a trusted caller (the encounter's own timeout); with a user, the services
check that the user plays the character, or oversees the campaign for a non-player one.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from campaigns.errors import CampaignClosed, InvalidInput, NotFound
from campaigns.journal import record_action, roll_row
from campaigns.models import Campaign, RuleSystem
from campaigns.numbers import whole_number
from campaigns.permissions import admits, oversees
from characters.models import Character
from characters.rules import require
from characters.services import NAME_MAX, _visible
from encounters.models import Combatant, Encounter
from encounters.services import characters_changed
from gamerules.d100 import D100Result, Grade
from gamerules.dice import RandomSource
from gamerules.homebrew import attack as rules_attack
from gamerules.homebrew.action import (AttackOrder, Declaration, Fighter, ReactionChoice,
                                       Resolution, answer_attack, declare_attack,
                                       lacks_resource)
from gamerules.homebrew.attack import AttackKind, Weapon
from gamerules.homebrew.characteristics import (CODES, MAINS, suggested_sheet,
                                                validate_characteristics)
from gamerules.homebrew.checks import assist, characteristic_test, sub_test
from gamerules.homebrew.fumbles import choose_fumble
from gamerules.homebrew.orders import PendingAttack, result_record
from gamerules.homebrew.params import HomebrewParameters
from gamerules.homebrew.reactions import Reaction, refusal_for
from gamerules.homebrew.rest import RestKind, RestOutcome, rest
from gamerules.homebrew.turn import Posture as RulePosture
from homebrew.context import (AttackContext, attack_context, locked_sheets, pending_of,
                              reaction_context, rule_weapon)
from homebrew.errors import (AttackResolved, CannotAct, GameMasterOnly, HomebrewServiceError,
                             NoSuchWeapon, NotHomebrew, PostureInEncounter, ReactionChoiceError,
                             StartingGearRefused)
from homebrew.models import DeclaredAttack, Health, HomebrewSheet, WeaponTemplate

KIND_CREATE, KIND_TEST, KIND_POSTURE = "homebrew_create", "homebrew_test", "homebrew_posture"
KIND_ATTACK, KIND_REACTION, KIND_REST = "homebrew_attack", "homebrew_reaction", "homebrew_rest"
KIND_FUMBLE = "homebrew_fumble"
# The game master's difficulty of a test or an attack, in points, either sign: the API's and the
# page's bound (beyond it a column overflows).
DIFFICULTY_MAX = 1000


# --- shared checks ---------------------------------------------------------------------------

def require_homebrew(campaign: Campaign) -> HomebrewParameters:
    """The campaign's parameters. Raises NotHomebrew for a campaign of another system."""
    if campaign.rule_system != RuleSystem.HOMEBREW:
        raise NotHomebrew()
    return campaign.parameters


def require_actor(user, character: Character) -> None:
    """``user`` plays ``character`` (characters.play: its player; the GM for every character
    that is not a player's, the enemies). ``user`` None: a trusted caller. Raises NotFound
    (cannot even see it) or Forbidden."""
    require(user, "characters.play", character)


def require_game_master(user, campaign: Campaign) -> None:
    if user is not None and not oversees(user, campaign):
        raise GameMasterOnly()


def _sheet_of(sheets: Mapping[int, HomebrewSheet], character_id: int) -> HomebrewSheet:
    try:
        return sheets[character_id]
    except KeyError:
        raise NotFound("no_such_character") from None


# --- creation ---------------------------------------------------------------------------------

def sheet_default(*, character: Character) -> HomebrewSheet:
    """A sheet the campaign's rules take (its budget and caps: ``suggested_sheet``) with its
    default maxima, for a character made in the admin (RuleSystemSpec.new_sheet)."""
    params = require_homebrew(character.campaign)
    sheet, _ = HomebrewSheet.objects.get_or_create(
        character=character, defaults={**suggested_sheet(params),
                                       "hp": params.hp_max_default,
                                       "hp_max": params.hp_max_default,
                                       "mp": params.mp_max_default,
                                       "mp_max": params.mp_max_default})
    return sheet


COPIED = ("physique", "perception", "mental", "force", "dexterite", "sens", "ether", "esprit",
          "intelligence", "hp_max", "mp_max", "mp_label", "posture", "spared")


def sheets_copy(*, template: Character, characters: Sequence[Character]) -> list[HomebrewSheet]:
    """Fresh copies of ``template``'s sheet for ``characters`` (the GM's copies of a creature in
    an encounter, RuleSystemSpec.copy_sheets): the same numbers, weapons and spells, HP and MP
    full, standing, no injuries. Four queries whatever the number of copies. Raises NotFound
    when the template has no sheet. Call inside a transaction."""
    source = HomebrewSheet.objects.filter(character=template).first()
    if source is None:
        raise NotFound("no_such_character")
    sheets = HomebrewSheet.objects.bulk_create([
        HomebrewSheet(character=character, hp=source.hp_max, mp=source.mp_max,
                      **{name: getattr(source, name) for name in COPIED})
        for character in characters])
    weapon_ids = list(source.weapons.values_list("pk", flat=True))
    Wielding = HomebrewSheet.weapons.through
    Wielding.objects.bulk_create([Wielding(homebrewsheet_id=sheet.pk, weapontemplate_id=w)
                                  for sheet in sheets for w in weapon_ids])
    return sheets


def starting_gear(*, campaign: Campaign, gear: Sequence[int],
                  params: HomebrewParameters) -> list[WeaponTemplate]:
    """The weapons and spells ``gear`` (template ids; one named twice counts once) a new
    character of ``campaign`` starts with: each a template of the campaign the GM offers at
    creation (``WeaponTemplate.offered_at_creation``), at most ``starting_gear_picks`` of them.
    One query. Raises NoSuchWeapon (an unknown id), StartingGearRefused
    ("weapon_other_campaign", "gear_not_offered", "too_much_gear"). Our choice (the seed says
    nothing of starting gear): docs/rules/homebrew-d100.md, "Parameters"."""
    ids = list(dict.fromkeys(gear))
    if not ids:
        return []
    if len(ids) > params.starting_gear_picks:
        raise StartingGearRefused(code="too_much_gear", most=params.starting_gear_picks,
                                  count=len(ids))
    found = WeaponTemplate.objects.in_bulk(ids)
    picked = []
    for pk in ids:
        template = found.get(pk)
        if template is None:
            raise NoSuchWeapon()
        if template.campaign_id != campaign.pk:
            raise StartingGearRefused(code="weapon_other_campaign")
        if not template.offered_at_creation:
            raise StartingGearRefused(code="gear_not_offered", name=template.name)
        picked.append(template)
    return picked


@transaction.atomic
def homebrew_character_create(*, user, campaign: Campaign, name: str,
                              values: Mapping[str, Any], mp_label: str = "",
                              gear: Sequence[int] = (),
                              now: datetime | None = None) -> Character:
    """A new homebrew player character of ``user`` with ``values`` (code -> points: physique,
    perception, mental and their six subs), HP and MP at the campaign's default maxima, and
    ``gear`` (ids of the weapons and spells the GM offers at creation: ``starting_gear``)
    equipped.

    Raises NotHomebrew, InvalidInput ("name_length", "name_taken"), CampaignClosed,
    CharacteristicsError (every budget problem at once: 170 points, subs within the main's tens
    and 0-6), NoSuchWeapon, StartingGearRefused; nothing is saved when one is raised. Source:
    002_80873c4f1892db54.txt, "Caractéristiques", "Santé", "Magie"."""
    params = require_homebrew(campaign)
    now = now or timezone.now()
    name = (name or "").strip()
    if not _visible(name) or len(name) > NAME_MAX:
        raise InvalidInput("name_length", name_max=NAME_MAX)
    if not admits(user, campaign):
        raise CampaignClosed()
    sheet_values = validate_characteristics(values, params).as_dict()
    weapons = starting_gear(campaign=campaign, gear=gear, params=params)
    # "Zed" and "zed" created at once both pass this check: the case-insensitive unique
    # constraint (characters.Character) refuses the second insert, caught below.
    if Character.objects.filter(campaign=campaign, name__iexact=name).exists():
        raise InvalidInput("name_taken", name=name)
    try:
        with transaction.atomic():
            character = Character.objects.create(campaign=campaign, owner=user, name=name)
    except IntegrityError:
        raise InvalidInput("name_taken", name=name) from None
    HomebrewSheet.objects.create(
        character=character, **sheet_values, hp=params.hp_max_default,
        hp_max=params.hp_max_default, mp=params.mp_max_default, mp_max=params.mp_max_default,
        mp_label=(mp_label or "").strip()[:30])
    if weapons:
        Wielding = HomebrewSheet.weapons.through
        Wielding.objects.bulk_create([Wielding(homebrewsheet_id=character.pk,
                                               weapontemplate_id=w.pk) for w in weapons])
    summary: dict[str, Any] = {"characteristics": sheet_values}
    if weapons:
        summary["gear"] = [w.name for w in weapons]
    record_action(campaign=campaign, kind=KIND_CREATE, now=now, user=user, actor=character,
                  summary=summary)
    return character


# --- tests ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class TestOutcome:
    """A characteristic test (``d100``) or a sub test (``sub``, the other None)."""

    code: str
    d100: D100Result | None
    sub: Any  # gamerules.homebrew.checks.SubTestResult | None
    action_id: int

    @property
    def success(self) -> bool:
        return self.d100.success if self.d100 is not None else bool(self.sub.success)

    @property
    def grade(self) -> str:
        return str(self.d100.grade if self.d100 is not None else self.sub.grade)


@transaction.atomic
def roll_test(*, user, character: Character, code: str, rng: RandomSource | None = None,
              difficulty: int = 0, assists: Sequence[tuple[str, int]] = (),
              sides: int | None = None, now: datetime | None = None) -> TestOutcome:
    """Test ``code`` of ``character``: a main (physique, perception, mental) with 1d100 <= value
    + modifiers (1-5 critical success, 96-100 critical failure), a sub with 1d6 <= value +
    modifiers (a larger ``sides`` for "un test particulièrement difficile"). ``difficulty`` is
    the GM's signed modifier; ``assists`` (helper name, bonus) the help of other characters;
    only a user overseeing the campaign gives either. Journaled (kind homebrew_test).

    Raises InvalidInput ("not_a_characteristic"), NotHomebrew, NotFound, Forbidden,
    GameMasterOnly ("gm_only_modifiers"). Source: 002_80873c4f1892db54.txt,
    "Caractéristiques" and "Actions"."""
    if code not in CODES:
        raise HomebrewServiceError("not_a_characteristic", code="invalid_input", name=code)
    sheet = _sheet_of(locked_sheets([character.pk]), character.pk)
    character = sheet.character
    params = require_homebrew(character.campaign)
    if user is not None and not oversees(user, character.campaign):
        require_actor(user, character)
        if difficulty or assists or sides is not None:
            raise GameMasterOnly("gm_only_modifiers")
    rng = rng or random.SystemRandom()
    now = now or timezone.now()
    value = getattr(sheet, code)
    assist_mods = [assist(name, bonus) for name, bonus in assists]
    d100 = sub = None
    if code in MAINS:
        d100 = characteristic_test(value, rng, params, difficulty_value=difficulty,
                                   assists=assist_mods)
        row = roll_row(label=code, roll=d100.roll, actor=character, target_score=d100.target,
                       grade=d100.grade, modifiers=d100.modifiers)
        summary = {"code": code, "value": value, "grade": str(d100.grade)}
    else:
        sub = sub_test(value, rng, params, difficulty_value=difficulty, assists=assist_mods,
                       sides=sides)
        row = roll_row(label=code, roll=sub.roll, actor=character, target_score=sub.target,
                       grade=sub.grade, modifiers=sub.modifiers)
        summary = {"code": code, "value": value, "grade": str(sub.grade), "sides": sub.sides}
    action = record_action(campaign=character.campaign, kind=KIND_TEST, now=now, user=user,
                           actor=character, summary=summary, rolls=[row])
    return TestOutcome(code, d100, sub, action.pk)


# --- posture ----------------------------------------------------------------------------------

@transaction.atomic
def posture_set(*, user, character: Character, posture: str, now: datetime | None = None,
                context: Mapping[str, Any] | None = None) -> HomebrewSheet:
    """Set the posture (offensive or defensive), journaled. The encounter calls it at the start
    of the character's turn only (seed, "Postures": "La posture peut être changée en début de
    tour uniquement"); ``context`` (the encounter's id and round) joins the journal's summary,
    so its log shows the change. Without a context (the sheet's own API) a character fighting in
    a running encounter is refused, or it would skip the turn rule. Raises InvalidInput for
    another value, NotFound, Forbidden, PostureInEncounter."""
    try:
        chosen = RulePosture(posture)
    except ValueError:
        raise InvalidInput() from None
    if context is None:  # the pages of a set-up encounter show it (in a step, the step pushes)
        characters_changed([character.pk])  # before the sheet's lock, as a step
    sheet = _sheet_of(locked_sheets([character.pk]), character.pk)
    require_homebrew(sheet.character.campaign)
    require_actor(user, sheet.character)
    if context is None and Combatant.objects.filter(
            character_id=sheet.character_id, removed=False,
            encounter__state=Encounter.State.RUNNING).exists():
        raise PostureInEncounter(name=sheet.character.name)
    if sheet.posture != chosen:
        sheet.posture = chosen.value
        sheet.save(update_fields=["posture"])
        record_action(campaign=sheet.character.campaign, kind=KIND_POSTURE,
                      now=now or timezone.now(), user=user, actor=sheet.character,
                      summary={**(context or {}), "posture": chosen.value})
    return sheet


# --- attacks ----------------------------------------------------------------------------------
# Each service loads its sheets once (homebrew.context), checks in memory, calls the pure rules
# (gamerules.homebrew.action: declare_attack, answer_attack), writes once and journals. The
# encounter (homebrew.play, homebrew.encounter) calls ``attack_declare`` and ``attack_answer``
# inside its own transaction and journals prompt, answer and result as one entry itself.

@dataclass
class Declared:
    """An attack loaded, checked and rolled (``attack_declare``), not stored yet: its locked
    ``context`` (``context.write()`` stores the attacker's cost), the rules' ``declaration``,
    and the journal's ``summary`` and ``rolls`` (journal.roll_row dicts)."""

    context: AttackContext
    declaration: Declaration
    actor: Character
    target: Character
    params: HomebrewParameters
    summary: dict[str, Any]
    rolls: list[dict[str, Any]]

    @property
    def options(self) -> list[str]:
        return self.declaration.options

    def row(self, *, action=None) -> DeclaredAttack:
        """The DeclaredAttack to store (not saved)."""
        d, weapon = self.declaration, self.context.weapon
        record = result_record(d.result)
        return DeclaredAttack(
            campaign=self.actor.campaign, actor=self.actor, target=self.target, weapon=weapon,
            weapon_name=record["weapon_name"], die=record["die"], kind=record["kind"],
            posture=record["posture"], description=d.order.description[:300],
            round_key=d.order.round_key, test=record["test"],
            damage_expression=record["damage_expression"], damage_face=record["damage_face"],
            damage=record["damage"], max_damage=record["max_damage"],
            multiplier=record["multiplier"], reactions=list(d.reactions),
            protectors=list(d.protectors), action=action, created_at=self.context.now)

    def pending(self, attack_id: int) -> PendingAttack:
        d = self.declaration
        return PendingAttack(attack=attack_id, description=d.order.description,
                             refused=d.refused, actor=self.actor.pk, target=self.target.pk,
                             round_key=d.order.round_key, result=d.result,
                             reactions=d.reactions, protectors=d.protectors)


def _checked_weapon(context: AttackContext, me: HomebrewSheet) -> Weapon:
    """The actor's equipped weapon for the rules. Raises CannotAct (down, or a gauge too low
    for a physical weapon counting on it), NoSuchWeapon, InvalidWeapon."""
    if me.health != Health.STANDING:
        raise CannotAct(name=me.character.name)
    if context.weapon is None:
        raise NoSuchWeapon()
    weapon = rule_weapon(context.weapon)
    rules_attack.die_sides(weapon.die)  # raises InvalidWeapon before anything is spent
    if lacks_resource(weapon, me.mp):
        # A resource counted on the MP gauge (cartridges): no HP instead (our choice).
        raise CannotAct("not_enough_resource", code="not_enough_resource",
                        cost=weapon.mp_cost, label=me.gauge_label, left=me.mp)
    return weapon


def _attack_summary(d: Declaration) -> dict[str, Any]:
    r = d.result
    summary: dict[str, Any] = {"weapon": r.weapon.name, "die": r.weapon.die,
                               "kind": r.kind.value, "posture": d.posture.value,
                               "description": d.order.description}
    if d.cost is not None:
        summary["mp"] = d.cost.as_record(
            d.attacker.health.value if d.cost.hp_spent and r.kind is AttackKind.MAGICAL
            else None)
    summary.update({"grade": str(r.test.grade), "damage": r.damage,
                    "max_damage": r.max_damage,
                    "multiplier": str(r.multiplier) if r.multiplier else "",
                    "reactions": list(d.reactions), "refused": dict(d.refused),
                    "protectors": list(d.protectors)})
    return summary


def _attack_rolls(r: rules_attack.AttackResult, actor: Character) -> list[dict[str, Any]]:
    rolls = [roll_row(label=r.characteristic, roll=r.test.roll, actor=actor,
                      target_score=r.test.target, grade=r.test.grade,
                      modifiers=r.test.modifiers)]
    if r.damage_roll is not None:
        rolls.append(roll_row(label="damage", roll=r.damage_roll, actor=actor))
    return rolls


@dataclass(frozen=True, kw_only=True)
class AttackTerms:
    """How an attack is made, beyond who strikes whom with what (each a field of the rules'
    AttackOrder): the attacker's ``posture`` (a Posture value; None: the sheet's), the player's
    ``description``, the encounter's ``round_key`` (a dodge failed in that round forbids
    another), ``target_surprised`` (the encounter's first round), and the game master's
    modifiers of the hit test: ``difficulty`` and ``assists`` ((helper, bonus) pairs)."""

    posture: str | None = None
    description: str = ""
    round_key: str = ""
    target_surprised: bool = False
    difficulty: int = 0
    assists: Sequence[tuple[str, int]] = ()


def attack_declare(*, user, actor_id: int, target_id: int, weapon_id: int, rng: RandomSource,
                   now: datetime, protector_ids: Sequence[int] = (),
                   terms: AttackTerms = AttackTerms()) -> Declared:
    """Load (two queries: homebrew.context.attack_context), check and roll ``actor_id``'s
    attack with its ``terms``; nothing is written. Call inside a transaction. Raises what
    ``attack`` raises."""
    context = attack_context(actor_id=actor_id, target_id=target_id,
                             protector_ids=protector_ids, weapon_id=weapon_id, now=now)
    me, them = context.sheet(actor_id), context.sheet(target_id)
    actor = me.character
    params = require_homebrew(actor.campaign)
    require_actor(user, actor)
    weapon = _checked_weapon(context, me)
    order = AttackOrder(actor=actor_id, target=target_id, weapon=weapon,
                        posture=RulePosture(terms.posture) if terms.posture else None,
                        round_key=terms.round_key, description=terms.description,
                        protectors=tuple(protector_ids), target_surprised=terms.target_surprised,
                        difficulty=terms.difficulty, assists=tuple(terms.assists))
    allies = [context.fighter(p) for p in order.protectors if p in context.sheets
              and context.sheets[p].character.campaign_id == actor.campaign_id]
    d = declare_attack(order, context.fighter(actor_id), context.fighter(target_id), allies=allies,
                       rng=rng, params=params)
    if d.cost is not None:
        context.keep(d.attacker, round_key=terms.round_key,
                     injury=f"{weapon.name}: cast without MP" if d.attacker_injured else "")
    return Declared(context, d, actor, them.character, params, _attack_summary(d),
                    _attack_rolls(d.result, actor))


@transaction.atomic
def attack(actor: Character, target: Character, weapon: WeaponTemplate | int, *,
           rng: RandomSource | None = None, user=None, protectors: Sequence[Character] = (),
           terms: AttackTerms = AttackTerms(), now: datetime | None = None) -> DeclaredAttack:
    """Declare and roll ``actor``'s attack on ``target`` with an equipped weapon or spell
    (seed, "Attaquer" steps 1-3) on its ``terms`` (AttackTerms): a spell first spends its MP
    (the shortfall in HP, "Magie"); 1d100 <= Physique (physical) or Mental (magical) + the GM's
    ``difficulty`` + ``assists``; on a hit the damage die (halved in defensive ``posture``, the
    sheet's by default), on 1-5
    the critical damage (maximum x the weapon die's multiplier), on 96-100 a critical failure
    (``fumble_choose`` then records the GM's effect). Nothing is taken from the target yet.
    The rules: gamerules.homebrew.action.declare_attack.

    Returns the stored DeclaredAttack: ``reactions`` lists what the target itself may answer
    ("none" always; "parry" against a physical hit in defensive posture; "dodge" in defensive
    posture unless a dodge failed in ``round_key``); ``protectors`` the ids of the allies among
    ``protectors`` (those the GM or the encounter judges near) in defensive posture who may
    parry for it against a physical hit; ``options`` the same as answer keys ("parry:<ally id>"
    for an ally). The summary's ``refused`` says why the target may not parry or dodge
    (reaction -> refusal code: gamerules.homebrew.reactions.refusal_for's, or "target_down"):
    the pages say it. A miss allows "none" only and ends the turn (``ends_turn``, the
    encounter's). One journal entry (kind homebrew_attack) with the hit roll, the damage roll
    and the MP; ``rolls`` and ``summary`` (not stored) hold what was journaled.

    Raises NotHomebrew, NotFound, Forbidden, CannotAct (actor down), HomebrewServiceError
    ("self_attack", "other_campaign", "no_such_weapon"), InvalidWeapon. Locks the sheets of
    actor, target and protectors (id order). Seven queries (eight when the weapon costs)."""
    if actor.pk == target.pk:
        raise HomebrewServiceError("self_attack", code="self_attack")
    if actor.campaign_id != target.campaign_id:
        raise HomebrewServiceError("other_campaign", code="other_campaign")
    declared = attack_declare(
        user=user, actor_id=actor.pk, target_id=target.pk,
        weapon_id=weapon if isinstance(weapon, int) else weapon.pk,
        rng=rng or random.SystemRandom(), now=now or timezone.now(),
        protector_ids=[p.pk for p in protectors], terms=terms)
    declared.context.write()
    action = record_action(campaign=declared.actor.campaign, kind=KIND_ATTACK,
                           now=declared.context.now, user=user, actor=declared.actor,
                           target=declared.target, summary=declared.summary,
                           rolls=declared.rolls)
    row = declared.row(action=action)
    row.save()
    row.rolls, row.summary = declared.rolls, declared.summary
    return row


def _not_a_reaction(choice: str) -> ReactionChoiceError:
    return ReactionChoiceError("not_a_reaction", code="not_a_reaction", choice=choice)


def reaction_choice(text: str, by: Character | None = None) -> tuple[ReactionChoice, bool]:
    """The answer ``text`` ("none", "parry", "dodge" or "parry:<ally id>") as the rules' value,
    and whether it names an ally by id (checked once the sheets are loaded). ``by``: the
    character who reacts when ``text`` names none. Raises ReactionChoiceError
    ("not_a_reaction")."""
    choice, _, ally = (text or "").partition(":")
    if ally:
        number = whole_number(ally, negative=False, digits=9)
        if choice != Reaction.PARRY.value or number is None:
            raise _not_a_reaction(text)
        return ReactionChoice(Reaction.PARRY, number), True
    try:
        reaction = Reaction(text)
    except ValueError:
        raise _not_a_reaction(text) from None
    return ReactionChoice(reaction, by.pk if by is not None else None), False


@dataclass
class Answered:
    """A reaction resolved and its sheets written (``attack_answer``): the rules'
    ``resolution``, the journal's ``result`` (the outcome's keys) and ``rolls``."""

    resolution: Resolution
    reacting: HomebrewSheet
    target: HomebrewSheet
    result: dict[str, Any]
    rolls: list[dict[str, Any]]


def _check_answer(pending: PendingAttack, choice: ReactionChoice, reacting: HomebrewSheet,
                  fighter: Fighter) -> None:
    """The answer is one the rules allow now and the attack offered. Raises CannotAct,
    ReactionRefused, ReactionChoiceError ("not_a_protector", "reaction_not_offered")."""
    if choice.reaction is Reaction.NONE:
        return
    assert pending.result is not None
    for_ally = choice.for_ally(pending.target)
    if reacting.health != Health.STANDING:
        raise CannotAct(name=reacting.character.name)
    refused = refusal_for(pending.result.kind, choice.reaction,
                          fighter.reactor(pending.round_key), hit=pending.result.hit,
                          for_ally=for_ally)
    if refused is not None:
        raise refused
    if for_ally and fighter.id not in pending.protectors:
        raise ReactionChoiceError("not_a_protector", code="not_a_protector",
                                  name=reacting.character.name)
    if not for_ally and choice.reaction.value not in pending.reactions:
        raise ReactionChoiceError(reaction=choice.reaction.value)


def _reaction_rolls(resolution: Resolution, reacting: HomebrewSheet) -> list[dict[str, Any]]:
    test = resolution.outcome.test
    if test is None:
        return []
    label = "force" if resolution.choice.reaction is Reaction.PARRY else "dexterite"
    return [roll_row(label=label, roll=test.roll, actor=reacting.character,
                     target_score=test.target, grade=test.grade, modifiers=test.modifiers)]


def _answer(context: AttackContext, pending: PendingAttack, choice_text: str, *, user,
            by: Character | None, rng: RandomSource, cause: str
            ) -> tuple[Resolution, HomebrewSheet, HomebrewSheet]:
    """Check and resolve the answer in ``context`` (its sheets loaded); keep what changed."""
    choice, named = reaction_choice(choice_text, by)
    reactor_id = choice.reactor_id(pending.target)
    them = context.sheet(pending.target)
    campaign = them.character.campaign
    if named and (reactor_id not in context.sheets
                  or context.sheets[reactor_id].character.campaign_id != campaign.pk):
        raise _not_a_reaction(choice_text)
    reacting = context.sheet(reactor_id)
    if user is not None and not oversees(user, campaign):
        require_actor(user, reacting.character)
    fighter = context.fighter(reactor_id)
    _check_answer(pending, choice, reacting, fighter)
    if pending.result is None:
        raise NotFound()
    resolution = answer_attack(pending.result, choice, context.fighter(pending.target), fighter,
                               rng=rng, params=require_homebrew(campaign), round_key=pending.round_key)
    context.keep(resolution.target, round_key=pending.round_key,
                 injury=cause if resolution.permanent_injury else "")
    return resolution, reacting, them


def _answered(context: AttackContext, resolution: Resolution, reacting: HomebrewSheet,
              them: HomebrewSheet) -> Answered:
    """The journal's view of a resolution once ``context`` is written."""
    injury = context.injuries[0].pk if context.injuries else None
    o = resolution.outcome
    result = {"reaction": o.reaction.value, "by": reacting.pk, "for_ally": resolution.for_ally,
              "success": o.success, "blocked": o.blocked, "damage_before": o.damage_before,
              "damage": resolution.damage, "dodge_lost": o.dodge_lost,
              "hp_before": resolution.hp_before, "hp": them.hp, "health": them.health,
              "permanent_injury": injury}
    return Answered(resolution, reacting, them, result, _reaction_rolls(resolution, reacting))


def attack_answer(*, pending: PendingAttack, choice_text: str, cause: str, user=None,
                  by: Character | None = None, rng: RandomSource, now: datetime) -> Answered:
    """Load (one query: homebrew.context.reaction_context), check and resolve the answer
    ``choice_text`` to ``pending``, and write the sheets (one UPDATE; a permanent injury, of
    ``cause``, one INSERT). Call inside a transaction. Raises what ``resolve`` raises."""
    choice, _named = reaction_choice(choice_text, by)
    context = reaction_context(target_id=pending.target,
                               reactor_id=choice.reactor_id(pending.target), now=now)
    resolution, reacting, them = _answer(context, pending, choice_text, user=user, by=by,
                                         rng=rng, cause=cause)
    context.write()
    return _answered(context, resolution, reacting, them)


def attack_resolve_at_once(declared: Declared, *, rng: RandomSource) -> Answered:
    """Resolve ``declared`` with no reaction in its own context (its target may not react),
    and write the attacker's cost and the target's damage in one UPDATE."""
    d = declared.declaration
    resolution, reacting, them = _answer(
        declared.context, declared.pending(0), Reaction.NONE.value, user=None, by=None,
        rng=rng, cause=f"{d.result.weapon.name} ({declared.actor.name})")
    declared.context.write()
    return _answered(declared.context, resolution, reacting, them)


@transaction.atomic
def resolve(declared: DeclaredAttack | int, reaction_choice: str = "none", *,
            rng: RandomSource | None = None, by: Character | None = None, user=None,
            now: datetime | None = None) -> DeclaredAttack:
    """Apply ``reaction_choice`` ("none", "parry", "dodge", or "parry:<ally id>": one of
    ``DeclaredAttack.options``) to a pending attack and then the damage (seed, "Attaquer" step
    4, "Parade", "Esquive", "Santé"). ``by`` (or the id in "parry:<id>"): the ally who parries
    for the target (one of the attack's ``protectors``); else the target reacts. The rules:
    gamerules.homebrew.action.answer_attack.

    Parry: a Force test (1d6 <= Force); success blocks the die's face. Dodge: a Dextérité test;
    success cancels, failure takes the maximum damage and no more dodges in the attack's
    round. The target then takes the damage: at 0 HP unconscious (an enemy dies unless spared),
    at -max HP a permanent injury (stored, shown on the sheet). One journal entry (kind
    homebrew_reaction) with the reaction's roll; ``outcome`` stores the result, ``rolls`` and
    ``summary`` (not stored) hold what was journaled.

    Raises AttackResolved (409: answered already), ReactionChoiceError ("not_a_reaction",
    "reaction_not_offered", "not_a_protector"), ReactionRefused (the rules refuse it now:
    "parry_against_magic", "no_more_dodges"...), NotFound, Forbidden. Locks the attack, then
    the sheets. Eight queries."""
    attack_id = declared if isinstance(declared, int) else declared.pk
    found = (DeclaredAttack.objects.select_for_update(of=("self",))
             .select_related("campaign", "actor").filter(pk=attack_id).first())
    if found is None:
        raise NotFound()
    if not found.pending:
        raise AttackResolved()
    now = now or timezone.now()
    answered = attack_answer(pending=pending_of(found), choice_text=reaction_choice, by=by,
                             user=user, rng=rng or random.SystemRandom(), now=now,
                             cause=f"{found.weapon_name} ({found.actor.name})")
    summary = {**answered.result, "attack": found.pk, "attack_action": found.action_id}
    action = record_action(campaign=found.campaign, kind=KIND_REACTION, now=now, user=user,
                           actor=answered.reacting.character, target=answered.target.character,
                           summary=summary, rolls=answered.rolls)
    found.outcome = {**answered.result, "action": action.pk}
    found.resolved_at = now
    found.save(update_fields=["outcome", "resolved_at"])
    found.rolls, found.summary = answered.rolls, summary
    return found


@transaction.atomic
def fumble_choose(*, user, declared: DeclaredAttack | int, code: str | None = None,
                  text: str = "", malus: int = 0, now: datetime | None = None) -> dict:
    """The GM's effect of a critical failure (seed, "Critiques": "un éventuel effet négatif en
    malus"): a listed ``code`` or their own ``text``, journaled (kind homebrew_fumble); the GM
    applies it. Raises GameMasterOnly, HomebrewServiceError ("not_a_fumble"), FumbleError."""
    attack_id = declared if isinstance(declared, int) else declared.pk
    found = DeclaredAttack.objects.select_related("campaign", "actor").filter(pk=attack_id).first()
    if found is None:
        raise NotFound()
    require_game_master(user, found.campaign)
    if found.test.get("grade") != str(Grade.CRITICAL_FAILURE):
        raise HomebrewServiceError("not_a_fumble", code="not_a_fumble")
    effect = choose_fumble(code, text=text, malus=malus)
    summary = {"attack": found.pk, "effect": effect.code, "label": effect.label,
               "malus": effect.malus, "text": effect.text}
    found.outcome = {**found.outcome, "fumble": summary}
    found.save(update_fields=["outcome"])
    record_action(campaign=found.campaign, kind=KIND_FUMBLE, now=now or timezone.now(),
                  user=user, actor=found.actor, summary=summary)
    return summary


# --- rests ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class RestGiven:
    character_id: int
    name: str
    outcome: RestOutcome


@transaction.atomic
def rest_grant(*, user, campaign: Campaign, kind: str, character_ids: Sequence[int] | None = None,
               hp_amount: int | None = None, mp_amount: int | None = None,
               now: datetime | None = None) -> list[RestGiven]:
    """The GM grants a rest (seed, "Repos": short 2 HP 1 MP, medium 5 HP 3 MP, long all; "ces
    valeurs peuvent être amené à être modifiées [...] à l'appréciation du GM") to the
    characters ``character_ids`` of ``campaign`` (None: all of them), with the campaign's
    amounts or ``hp_amount``/``mp_amount``. Never above the maxima; the dead do not rest; an
    unconscious character back above 0 HP stands up. One journal entry per character (kind
    homebrew_rest). Raises GameMasterOnly, NotHomebrew, InvalidInput (kind), InvalidAmount
    (negative), HomebrewServiceError ("no_characters_to_rest")."""
    params = require_homebrew(campaign)
    require_game_master(user, campaign)
    try:
        rest_kind = RestKind(kind)
    except ValueError:
        raise InvalidInput() from None
    now = now or timezone.now()
    rows = (HomebrewSheet.objects.filter(character__campaign=campaign)
            .exclude(health=Health.DEAD).order_by("pk"))
    if character_ids is not None:
        rows = rows.filter(pk__in=list(character_ids))
    # Their encounters' pages show the gauges: bumped and pushed on commit, locked before the
    # sheets as a step does (encounters.services.characters_changed).
    characters_changed(rows.values_list("pk", flat=True))
    sheets = list(rows.select_for_update(of=("self",)).select_related("character"))
    if not sheets:
        raise HomebrewServiceError("no_characters_to_rest", code="no_characters_to_rest")
    given = []
    for sheet in sheets:
        outcome = rest(rest_kind, hp=sheet.hp, hp_max=sheet.hp_max, mp=sheet.mp,
                       mp_max=sheet.mp_max, params=params, hp_amount=hp_amount,
                       mp_amount=mp_amount)
        sheet.hp, sheet.mp = outcome.hp_after, outcome.mp_after
        if sheet.hp > 0 and sheet.health == Health.UNCONSCIOUS:
            sheet.health = Health.STANDING
        given.append(RestGiven(sheet.pk, sheet.character.name, outcome))
    HomebrewSheet.objects.bulk_update(sheets, ["hp", "mp", "health"])
    for sheet, g in zip(sheets, given):
        record_action(campaign=campaign, kind=KIND_REST, now=now, user=user,
                      actor=sheet.character,
                      summary={"rest": rest_kind.value, "hp_before": g.outcome.hp_before,
                               "hp": g.outcome.hp_after, "mp_before": g.outcome.mp_before,
                               "mp": g.outcome.mp_after, "hp_amount": hp_amount,
                               "mp_amount": mp_amount})
    return given
