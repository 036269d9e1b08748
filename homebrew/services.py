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
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any, Iterable, Mapping, Sequence

from django.db import IntegrityError, transaction
from django.utils import timezone

from campaigns.errors import CampaignClosed, Forbidden, InvalidInput, NotFound
from campaigns.journal import record_action, roll_row
from campaigns.models import Campaign, RuleSystem
from campaigns.numbers import whole_number
from campaigns.permissions import allowed, oversees
from characters.models import Character
from characters.services import NAME_MAX, _visible
from encounters.models import Combatant, Encounter
from gamerules.d100 import D100Result, Grade
from gamerules.dice import DiceRoll, DieFace, RandomSource
from gamerules.homebrew import attack as rules_attack
from gamerules.homebrew.characteristics import CODES, MAINS, validate_characteristics
from gamerules.homebrew.checks import assist, characteristic_test, sub_test
from gamerules.homebrew.fumbles import choose_fumble
from gamerules.homebrew.health import HealthState, apply_damage
from gamerules.homebrew.magic import spend_mp
from gamerules.homebrew.params import HomebrewParameters
from gamerules.homebrew.reactions import Reaction, Reactor, refusal_for, resolve_reaction
from gamerules.homebrew.rest import RestKind, RestOutcome, rest
from gamerules.homebrew.turn import Posture as RulePosture
from gamerules.modifiers import Modifier
from homebrew.errors import (AttackResolved, CannotAct, GameMasterOnly, HomebrewServiceError,
                             NoSuchWeapon, NotHomebrew, PostureInEncounter, ReactionChoiceError)
from homebrew.models import DeclaredAttack, Health, HomebrewSheet, PermanentInjury, WeaponTemplate

KIND_CREATE, KIND_TEST, KIND_POSTURE = "homebrew_create", "homebrew_test", "homebrew_posture"
KIND_ATTACK, KIND_REACTION, KIND_REST = "homebrew_attack", "homebrew_reaction", "homebrew_rest"
KIND_FUMBLE = "homebrew_fumble"


# --- shared checks ---------------------------------------------------------------------------

def require_homebrew(campaign: Campaign) -> HomebrewParameters:
    """The campaign's parameters. Raises NotHomebrew for a campaign of another system."""
    if campaign.rule_system != RuleSystem.HOMEBREW:
        raise NotHomebrew()
    return campaign.parameters


def require_actor(user, character: Character) -> None:
    """``user`` plays ``character``, or oversees its campaign and it is not a player character
    (the GM plays enemies). ``user`` None: a trusted caller. Raises NotFound (cannot even see
    it) or Forbidden."""
    if user is None or allowed(user, "characters.act", character):
        return
    if oversees(user, character.campaign):
        if not character.is_player:
            return
        raise Forbidden("not_your_character")
    raise NotFound("no_such_character")


def require_game_master(user, campaign: Campaign) -> None:
    if user is not None and not oversees(user, campaign):
        raise GameMasterOnly()


def _locked_sheets(ids: Iterable[int]) -> dict[int, HomebrewSheet]:
    """The sheets of ``ids``, locked in id order (no deadlock between two attacks), with their
    characters and campaigns: one query."""
    rows = (HomebrewSheet.objects.select_for_update(of=("self",))
            .select_related("character__campaign").filter(pk__in=set(ids)).order_by("pk"))
    return {s.pk: s for s in rows}


def _sheet_of(sheets: Mapping[int, HomebrewSheet], character_id: int) -> HomebrewSheet:
    try:
        return sheets[character_id]
    except KeyError:
        raise NotFound("no_such_character") from None


def _test_record(test: D100Result) -> dict[str, Any]:
    return {"face": test.roll.total, "base": test.base, "target": test.target,
            "grade": str(test.grade), "rule": test.rule,
            "modifiers": [m.as_record() for m in test.modifiers]}


# --- creation ---------------------------------------------------------------------------------

def sheet_default(*, character: Character) -> HomebrewSheet:
    """A sheet with the model's defaults (a valid 170-point spread) and the campaign's default
    maxima, for a character made in the admin (RuleSystemSpec.new_sheet)."""
    params = require_homebrew(character.campaign)
    sheet, _ = HomebrewSheet.objects.get_or_create(
        character=character, defaults={"hp": params.hp_max_default,
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


@transaction.atomic
def homebrew_character_create(*, user, campaign: Campaign, name: str,
                              values: Mapping[str, Any], mp_label: str = "",
                              now: datetime | None = None) -> Character:
    """A new homebrew player character of ``user`` with ``values`` (code -> points: physique,
    perception, mental and their six subs), HP and MP at the campaign's default maxima.

    Raises NotHomebrew, InvalidInput ("name_length", "name_taken"), CampaignClosed,
    CharacteristicsError (every budget problem at once: 170 points, subs within the main's tens
    and 0-6). Source: 002_80873c4f1892db54.txt, "Caractéristiques", "Santé", "Magie"."""
    params = require_homebrew(campaign)
    now = now or timezone.now()
    name = (name or "").strip()
    if not _visible(name) or len(name) > NAME_MAX:
        raise InvalidInput("name_length", name_max=NAME_MAX)
    if not campaign.is_open:
        raise CampaignClosed()
    sheet_values = validate_characteristics(values, params).as_dict()
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
    record_action(campaign=campaign, kind=KIND_CREATE, now=now, user=user, actor=character,
                  summary={"characteristics": sheet_values})
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
    sheet = _sheet_of(_locked_sheets([character.pk]), character.pk)
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
    sheet = _sheet_of(_locked_sheets([character.pk]), character.pk)
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

def _reactor(sheet: HomebrewSheet, round_key: str, *, surprised: bool = False) -> Reactor:
    return Reactor(force=sheet.force, dexterite=sheet.dexterite,
                   posture=RulePosture(sheet.posture), can_dodge=sheet.can_dodge(round_key),
                   surprised=surprised)


def _rule_weapon(weapon: WeaponTemplate) -> rules_attack.Weapon:
    return rules_attack.Weapon(weapon.name, weapon.die, rules_attack.AttackKind(weapon.kind),
                               weapon.mp_cost)


def _equipped(sheet: HomebrewSheet, weapon: WeaponTemplate | int) -> WeaponTemplate:
    weapon_id = weapon if isinstance(weapon, int) else weapon.pk
    found = sheet.weapons.filter(pk=weapon_id).first()
    if found is None:
        raise NoSuchWeapon()
    return found


def _health_after(sheet: HomebrewSheet, change, params: HomebrewParameters, *, now: datetime,
                  round_key: str, cause: str) -> PermanentInjury | None:
    """Store ``change`` (a HealthChange) on ``sheet`` (not saved); the permanent injury it
    brings, saved."""
    sheet.hp = change.hp_after
    if sheet.health != Health.DEAD:
        sheet.health = {HealthState.STANDING: Health.STANDING,
                        HealthState.UNCONSCIOUS: Health.UNCONSCIOUS,
                        HealthState.DEAD: Health.DEAD}[change.state]
    if not change.permanent_injury:
        return None
    return PermanentInjury.objects.create(sheet=sheet, description=cause, round_key=round_key,
                                          created_at=now)


@transaction.atomic
def attack(actor: Character, target: Character, weapon: WeaponTemplate | int, *,
           rng: RandomSource | None = None, user=None, posture: str | None = None,
           description: str = "", round_key: str = "", protectors: Sequence[Character] = (),
           target_surprised: bool = False, difficulty: int = 0,
           assists: Sequence[tuple[str, int]] = (), now: datetime | None = None,
           journal: bool = True) -> DeclaredAttack:
    """Declare and roll ``actor``'s attack on ``target`` with an equipped weapon or spell
    (seed, "Attaquer" steps 1-3): a spell first spends its MP (the shortfall in HP, "Magie");
    1d100 <= Physique (physical) or Mental (magical) + the GM's ``difficulty`` + ``assists``;
    on a hit the damage die (halved in defensive ``posture``, the sheet's by default), on 1-5
    the critical damage (maximum x the weapon die's multiplier), on 96-100 a critical failure
    (``fumble_choose`` then records the GM's effect). Nothing is taken from the target yet.

    Returns the stored DeclaredAttack: ``reactions`` lists what the target itself may answer
    ("none" always; "parry" against a physical hit in defensive posture; "dodge" in defensive
    posture unless a dodge failed in ``round_key``); ``protectors`` the ids of the allies among
    ``protectors`` (those the GM or the encounter judges near) in defensive posture who may
    parry for it against a physical hit; ``options`` the same as answer keys ("parry:<ally id>" for an
    ally). A miss allows "none" only and ends the turn (``ends_turn``, the encounter's).
    One journal entry (kind homebrew_attack) with the hit roll, the damage roll and the MP;
    ``journal=False`` writes none and leaves the roll_row dicts in ``rolls`` and the summary in
    ``summary`` (not stored) for the encounter's own entry.

    Raises NotHomebrew, NotFound, Forbidden, CannotAct (actor down), HomebrewServiceError
    ("self_attack", "other_campaign", "no_such_weapon"), InvalidWeapon. Locks the sheets of
    actor, target and protectors (id order)."""
    if actor.pk == target.pk:
        raise HomebrewServiceError("self_attack", code="self_attack")
    if actor.campaign_id != target.campaign_id:
        raise HomebrewServiceError("other_campaign", code="other_campaign")
    ids = [actor.pk, target.pk, *(p.pk for p in protectors)]
    sheets = _locked_sheets(ids)
    me, them = _sheet_of(sheets, actor.pk), _sheet_of(sheets, target.pk)
    actor, target = me.character, them.character
    params = require_homebrew(actor.campaign)
    require_actor(user, actor)
    if me.health != Health.STANDING:
        raise CannotAct(name=actor.name)
    arm = _equipped(me, weapon)
    rule_weapon = _rule_weapon(arm)
    rules_attack.die_sides(arm.die)  # raises InvalidWeapon before anything is spent
    rng = rng or random.SystemRandom()
    now = now or timezone.now()
    chosen_posture = RulePosture(posture or me.posture)
    summary: dict[str, Any] = {"weapon": arm.name, "die": arm.die, "kind": arm.kind,
                               "posture": chosen_posture.value, "description": description}
    if arm.kind == "physical" and arm.mp_cost:
        # A resource counted on the MP gauge (cartridges): no HP instead (our choice).
        if me.mp < arm.mp_cost:
            raise CannotAct("not_enough_resource", code="not_enough_resource",
                            cost=arm.mp_cost, label=me.gauge_label, left=me.mp)
        me.mp -= arm.mp_cost
        summary["mp"] = {"cost": arm.mp_cost, "mp_spent": arm.mp_cost, "hp_spent": 0}
        me.save(update_fields=["mp"])
    if arm.kind == "magical" and arm.mp_cost:
        cost = spend_mp(arm.mp_cost, mp=me.mp, hp=me.hp, params=params)
        me.mp = cost.mp_after
        summary["mp"] = {"cost": cost.cost, "mp_spent": cost.mp_spent,
                         "hp_spent": cost.hp_spent}
        if cost.hp_spent:
            change = apply_damage(cost.hp_spent, hp=me.hp, hp_max=me.hp_max, params=params,
                                  enemy=not actor.is_player, spared=me.spared)
            _health_after(me, change, params, now=now, round_key=round_key,
                          cause=f"{arm.name}: cast without MP")
            summary["mp"]["health"] = me.health
        me.save(update_fields=["mp", "hp", "health"])
    result = rules_attack.resolve_attack(
        rules_attack.Attacker(me.physique, me.mental, chosen_posture), rule_weapon, rng, params,
        difficulty_value=difficulty, assists=[assist(n, b) for n, b in assists])
    rolls = [roll_row(label=result.characteristic, roll=result.test.roll, actor=actor,
                      target_score=result.test.target, grade=result.test.grade,
                      modifiers=result.test.modifiers)]
    if result.damage_roll is not None:
        rolls.append(roll_row(label="damage", roll=result.damage_roll, actor=actor))
    target_reactor = _reactor(them, round_key, surprised=target_surprised)
    reactions = [r.value for r in Reaction
                 if refusal_for(result.kind, r, target_reactor, hit=result.hit) is None
                 and (r is Reaction.NONE or them.health == Health.STANDING)]
    allies = []
    if result.hit and result.kind is rules_attack.AttackKind.PHYSICAL:
        for p in protectors:
            sheet = sheets.get(p.pk)
            if sheet is None or p.pk in (actor.pk, target.pk) \
                    or sheet.character.campaign_id != actor.campaign_id \
                    or sheet.health != Health.STANDING:
                continue
            if refusal_for(result.kind, Reaction.PARRY, _reactor(sheet, round_key),
                           for_ally=True) is None:
                allies.append(p.pk)
    summary.update({"grade": str(result.test.grade), "damage": result.damage,
                    "max_damage": result.max_damage,
                    "multiplier": str(result.multiplier) if result.multiplier else "",
                    "reactions": reactions, "protectors": allies})
    action = record_action(campaign=actor.campaign, kind=KIND_ATTACK, now=now, user=user,
                           actor=actor, target=target, summary=summary,
                           rolls=rolls) if journal else None
    declared = DeclaredAttack.objects.create(
        campaign=actor.campaign, actor=actor, target=target, weapon=arm, weapon_name=arm.name,
        die=arm.die, kind=arm.kind, posture=chosen_posture.value, description=description[:300],
        round_key=round_key, test=_test_record(result.test),
        damage_expression=result.damage_expression,
        damage_face=result.damage_roll.total if result.damage_roll else None,
        damage=result.damage, max_damage=result.max_damage,
        multiplier=str(result.multiplier) if result.multiplier else "", reactions=reactions,
        protectors=allies, action=action, created_at=now)
    declared.rolls, declared.summary = rolls, summary
    return declared


def _rule_result(declared: DeclaredAttack, params: HomebrewParameters
                 ) -> rules_attack.AttackResult:
    """The rules' AttackResult again, from what ``attack`` stored."""
    test = declared.test
    face = int(test["face"])
    d100 = D100Result(DiceRoll("1d100", (DieFace(100, face),), 0, face), face, test["base"],
                      tuple(Modifier(m["label"], m["value"], m["source"])
                            for m in test["modifiers"]),
                      test["target"], Grade(test["grade"]), test["rule"])
    damage_roll = None
    if declared.damage_face is not None:
        sides = declared.max_damage
        damage_roll = DiceRoll(declared.damage_expression,
                               (DieFace(sides, declared.damage_face),) if sides >= 2 else (),
                               0 if sides >= 2 else 1, declared.damage_face)
    weapon = rules_attack.Weapon(declared.weapon_name, declared.die,
                                 rules_attack.AttackKind(declared.kind))
    return rules_attack.AttackResult(
        weapon.kind, weapon, RulePosture(declared.posture),
        "physique" if declared.kind == "physical" else "mental", d100,
        declared.damage_expression, damage_roll, declared.damage, declared.max_damage,
        Decimal(declared.multiplier) if declared.multiplier else None)


@transaction.atomic
def resolve(declared: DeclaredAttack | int, reaction_choice: str = "none", *,
            rng: RandomSource | None = None, by: Character | None = None, user=None,
            now: datetime | None = None, journal: bool = True) -> DeclaredAttack:
    """Apply ``reaction_choice`` ("none", "parry", "dodge", or "parry:<ally id>": one of
    ``DeclaredAttack.options``) to a pending attack and then the damage (seed, "Attaquer" step
    4, "Parade", "Esquive", "Santé"). ``by`` (or the id in "parry:<id>"): the ally who parries
    for the target (one of the attack's ``protectors``); else the target reacts.

    Parry: a Force test (1d6 <= Force); success blocks the die's face. Dodge: a Dextérité test;
    success cancels, failure takes the maximum damage and no more dodges in the attack's
    round. The target then takes the damage: at 0 HP unconscious (an enemy dies unless spared),
    at -max HP a permanent injury (stored, shown on the sheet). One journal entry (kind
    homebrew_reaction) with the reaction's roll; ``outcome`` stores the result.
    ``journal=False`` writes no entry and leaves the roll_row dicts in ``rolls`` and the
    summary in ``summary`` (the encounter journals prompt, answer and result as one entry).

    Raises AttackResolved (409: answered already), ReactionChoiceError ("not_a_reaction",
    "reaction_not_offered", "not_a_protector"), ReactionRefused (the rules refuse it now:
    "parry_against_magic", "no_more_dodges"...), NotFound, Forbidden. Locks the attack, then
    the sheets."""
    attack_id = declared if isinstance(declared, int) else declared.pk
    found = (DeclaredAttack.objects.select_for_update(of=("self",))
             .select_related("campaign", "actor").filter(pk=attack_id).first())
    if found is None:
        raise NotFound()
    declared = found
    if not declared.pending:
        raise AttackResolved()
    choice, _, ally = (reaction_choice or "").partition(":")
    if ally:
        number = whole_number(ally, negative=False, digits=9)
        ally_id = -1 if number is None else number
        by = Character.objects.filter(pk=ally_id, campaign_id=declared.campaign_id).first()
        if choice != Reaction.PARRY.value or by is None:
            raise ReactionChoiceError("not_a_reaction", code="not_a_reaction",
                                      choice=reaction_choice)
        reaction_choice = choice
    try:
        reaction = Reaction(reaction_choice)
    except ValueError:
        raise ReactionChoiceError("not_a_reaction", code="not_a_reaction",
                                  choice=reaction_choice) from None
    params = require_homebrew(declared.campaign)
    for_ally = by is not None and by.pk != declared.target_id
    reactor_id = by.pk if by is not None and for_ally else declared.target_id
    sheets = _locked_sheets({declared.target_id, reactor_id})
    them, reacting = _sheet_of(sheets, declared.target_id), _sheet_of(sheets, reactor_id)
    target = them.character
    if user is not None and not oversees(user, declared.campaign):
        require_actor(user, reacting.character)
    if reaction is not Reaction.NONE:
        if reacting.health != Health.STANDING:
            raise CannotAct(name=reacting.character.name)
        refused = refusal_for(rules_attack.AttackKind(declared.kind), reaction,
                              _reactor(reacting, declared.round_key), hit=declared.hit,
                              for_ally=for_ally)
        if refused is not None:
            raise refused
        if for_ally and reactor_id not in declared.protectors:
            raise ReactionChoiceError("not_a_protector", code="not_a_protector",
                                      name=reacting.character.name)
        if not for_ally and reaction.value not in declared.reactions:
            raise ReactionChoiceError(reaction=reaction.value)
    rng = rng or random.SystemRandom()
    now = now or timezone.now()
    outcome = resolve_reaction(_rule_result(declared, params), reaction,
                               _reactor(reacting, declared.round_key), rng, params,
                               for_ally=for_ally)
    rolls = []
    if outcome.test is not None:
        label = "force" if reaction is Reaction.PARRY else "dexterite"
        rolls.append(roll_row(label=label, roll=outcome.test.roll, actor=reacting.character,
                              target_score=outcome.test.target, grade=outcome.test.grade,
                              modifiers=outcome.test.modifiers))
    if outcome.dodge_lost:
        reacting.dodge_lost_round = declared.round_key
    hp_before, injury = them.hp, None
    if declared.hit:
        change = apply_damage(outcome.damage, hp=them.hp, hp_max=them.hp_max, params=params,
                              enemy=not target.is_player, spared=them.spared)
        injury = _health_after(them, change, params, now=now, round_key=declared.round_key,
                               cause=f"{declared.weapon_name} ({declared.actor.name})")
    fields = ["hp", "health", "dodge_lost_round"]
    them.save(update_fields=fields)
    if reacting.pk != them.pk:
        reacting.save(update_fields=fields)
    result = {"reaction": reaction.value, "by": reactor_id, "for_ally": for_ally,
              "success": outcome.success, "blocked": outcome.blocked,
              "damage_before": outcome.damage_before, "damage": outcome.damage if declared.hit
              else 0, "dodge_lost": outcome.dodge_lost, "hp_before": hp_before, "hp": them.hp,
              "health": them.health, "permanent_injury": injury.pk if injury else None}
    summary = {**result, "attack": declared.pk, "attack_action": declared.action_id}
    action = record_action(campaign=declared.campaign, kind=KIND_REACTION, now=now, user=user,
                           actor=reacting.character, target=target, summary=summary,
                           rolls=rolls) if journal else None
    declared.outcome = {**result, "action": action.pk if action else None}
    declared.resolved_at = now
    declared.save(update_fields=["outcome", "resolved_at"])
    declared.rolls, declared.summary = rolls, summary
    return declared


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
    rows = (HomebrewSheet.objects.select_for_update(of=("self",)).select_related("character")
            .filter(character__campaign=campaign).exclude(health=Health.DEAD).order_by("pk"))
    if character_ids is not None:
        rows = rows.filter(pk__in=list(character_ids))
    sheets = list(rows)
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
