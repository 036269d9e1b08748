"""Read-only queries of the homebrew system: a sheet with what its page shows, and the odds of
an attack before it is made (issue 11, item 20; gamerules.homebrew.odds, exact with icepool)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from django.db.models import Prefetch, Q

from campaigns.errors import NotFound, SheetMissing
from campaigns.permissions import allowed
from characters.models import Character
from encounters.models import Combatant, Encounter
from gamerules.homebrew.attack import AttackKind, critical_multiplier
from gamerules.homebrew.odds import AttackOdds, attack_odds, odds_by_reaction
from gamerules.homebrew.reactions import Reaction, Reactor
from gamerules.homebrew.turn import Posture
from homebrew.models import Health, HomebrewSheet, PermanentInjury, WeaponTemplate
from homebrew.context import reactor_of, rule_weapon as _rule_weapon


def character_with_sheet(*, user, character_id: int) -> Character:
    """The character with its campaign, sheet, weapons and injuries (3 queries), if ``user``
    may see it. Raises NotFound (missing or not visible), SheetMissing."""
    character = (Character.objects.select_related("campaign", "homebrew", "owner")
                 .prefetch_related(Prefetch("homebrew__weapons",
                                            queryset=WeaponTemplate.objects.order_by("name")),
                                   Prefetch("homebrew__injuries",
                                            queryset=PermanentInjury.objects.order_by("created_at")))
                 .filter(pk=character_id).first())
    if character is None or not allowed(user, "characters.view_sheet", character):
        raise NotFound("no_such_character")
    if not hasattr(character, "homebrew"):
        raise SheetMissing()
    return character


def odds_targets(*, user, character: Character, gm: bool) -> list[HomebrewSheet]:
    """The sheets ``user`` may compute ``character``'s odds against, by name (one query): the
    game master, every other sheet of the campaign; a player, the campaign's player characters
    and the characters in view in an encounter not ended where one of their own characters
    fights (not hidden, not removed): odds would otherwise name the GM's creatures, and
    measure their defences, before the GM shows them (docs/rules/homebrew.md, "Odds")."""
    sheets = (HomebrewSheet.objects.select_related("character")
              .filter(character__campaign_id=character.campaign_id).exclude(pk=character.pk))
    if not gm:
        mine = Combatant.objects.filter(character__owner=user, removed=False).values("encounter")
        in_view = (Combatant.objects.filter(encounter__in=mine, hidden=False, removed=False)
                   .exclude(encounter__state=Encounter.State.ENDED).values("character"))
        sheets = sheets.filter(Q(character__kind=Character.Kind.PLAYER,
                                 character__owner__isnull=False)
                               | Q(character__in=in_view))
    return list(sheets.order_by("character__name"))


@dataclass(frozen=True)
class OddsLine:
    """One reaction the target may take (``by``: the ally who parries, else None) and its
    odds; ``percent`` helpers for the pages."""

    reaction: str
    by: str | None
    odds: AttackOdds

    @property
    def hit_percent(self) -> float:
        return round(float(self.odds.hit) * 100, 1)

    @property
    def crit_percent(self) -> float:
        return round(float(self.odds.critical_success) * 100, 1)

    @property
    def damage_low(self) -> int:
        return min(self.odds.damage)

    @property
    def damage_high(self) -> int:
        return max(self.odds.damage)

    @property
    def mean(self) -> float:
        return round(float(self.odds.mean_damage), 2)


def attack_odds_lines(*, actor: HomebrewSheet, target: HomebrewSheet, weapon: WeaponTemplate,
                      params, protectors: Sequence[HomebrewSheet] = (), round_key: str = "",
                      posture: str | None = None, difficulty: int = 0) -> list[OddsLine]:
    """The odds of ``actor`` attacking ``target`` with ``weapon``, one line per reaction the
    target may take now (no reaction, parry, dodge) and one per ally in ``protectors`` who may
    parry for it. ``damage`` ranges include 0 (a miss, a dodge, a full parry). Pure
    computation on loaded sheets: no query."""
    rule_weapon = _rule_weapon(weapon)
    stat = actor.physique if rule_weapon.kind is AttackKind.PHYSICAL else actor.mental
    attacker_posture = Posture(posture or actor.posture)
    target_reactor = reactor_of(target, round_key) if target.health == Health.STANDING \
        else Reactor(0, 0)
    lines = [OddsLine(str(r), None, o) for r, o in odds_by_reaction(
        target=stat + difficulty, weapon=rule_weapon, params=params, reactor=target_reactor,
        attacker_posture=attacker_posture).items()]
    if rule_weapon.kind is AttackKind.PHYSICAL:
        for ally in protectors:
            reactor = reactor_of(ally, round_key)
            if ally.pk == target.pk or reactor.posture is not Posture.DEFENSIVE \
                    or ally.health != Health.STANDING:
                continue
            lines.append(OddsLine(str(Reaction.PARRY), ally.character.name, attack_odds(
                target=stat + difficulty, weapon=rule_weapon, params=params,
                attacker_posture=attacker_posture, reaction=Reaction.PARRY, reactor=reactor)))
    return lines


def multiplier_of(weapon: WeaponTemplate, params) -> str:
    return str(critical_multiplier(_rule_weapon(weapon).sides, params))


@dataclass(frozen=True)
class TargetOdds:
    """A combatant ``me`` may attack, with the odds of each of ``me``'s weapons and spells."""

    combatant: object
    by_weapon: list[tuple[WeaponTemplate, list[OddsLine]]]


@dataclass(frozen=True)
class TurnOptions:
    """What the homebrew actions of an encounter turn offer: ``sheet`` (``me``'s), its
    ``weapons``, the ``targets`` with their odds, whether the posture may still change."""

    sheet: HomebrewSheet | None
    weapons: list[WeaponTemplate]
    targets: list[TargetOdds]
    posture_open: bool


def turn_options(*, view, me, round_key: str = "") -> TurnOptions:
    """The homebrew part of the player's encounter page for ``me`` (a Combatant) in turn: one
    query (the weapons) over what ``view`` (encounters.selectors.EncounterView) loaded, then
    the odds of every weapon against every visible combatant with a sheet, after each
    reaction the target (or an ally of its side, in defensive posture) may take; allies with
    the same Force share one line (their names joined)."""
    sheet = getattr(me.character, "homebrew", None) if me.character else None
    if sheet is None:
        return TurnOptions(None, [], [], False)
    weapons = list(sheet.weapons.order_by("name"))
    params = view.encounter.campaign.parameters
    playing = [c for c in view.combatants if not c.removed and c.character is not None
               and getattr(c.character, "homebrew", None) is not None]
    # Who may parry for a target: a standing ally of its side in defensive posture, neither
    # the target nor ``me``, not defeated (per side, in the order's order; read once).
    defenders: dict[bool, list[tuple[int, HomebrewSheet]]] = {True: [], False: []}
    for a in playing:
        ally = a.character.homebrew
        if (a.pk != me.pk and not a.defeated and ally.posture == Posture.DEFENSIVE
                and ally.health == Health.STANDING):
            defenders[a.character.is_player].append((a.pk, ally))
    targets = []
    for c in playing:
        if c.pk == me.pk:
            continue
        them = c.character.homebrew
        # A parry for the target depends on the ally's Force only: one line per Force, the
        # first such ally parrying.
        by_force: dict[int, list[str]] = {}
        firsts: dict[int, HomebrewSheet] = {}
        for pk, ally in defenders[c.character.is_player]:
            if pk != c.pk:
                by_force.setdefault(ally.force, []).append(ally.character.name)
                firsts.setdefault(ally.force, ally)
        helpers = list(firsts.values())
        lines = []
        for w in weapons:
            rows = attack_odds_lines(actor=sheet, target=them, weapon=w, params=params,
                                     protectors=helpers, round_key=round_key)
            names = {h.character.name: ", ".join(by_force[h.force]) for h in helpers}
            lines.append((w, [replace(r, by=names.get(r.by, r.by)) if r.by else r
                              for r in rows]))
        targets.append(TargetOdds(c, lines))
    return TurnOptions(sheet, weapons, targets, not view.encounter.turn_actions)
