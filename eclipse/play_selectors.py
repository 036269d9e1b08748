"""What the Eclipse Phase actions partial shows on the encounter page, and the odds of an attack
before it is made (gamerules.eclipse_phase.odds, exact with icepool)."""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from types import SimpleNamespace
from typing import Any

from django.utils.translation import gettext

from eclipse.defence import (FULL_DEFENCE, defence_choice, defence_options,
                             params_of)
from eclipse import environment
from eclipse.context import AttackContext, attack_context
from eclipse.models import WeaponState
from eclipse.play_errors import NoSheet
from campaigns import charts
from campaigns.errors import InvalidInput
from eclipse.acting import AIM_COMPLEX, AIM_QUICK, RUNNING, phase_actions
from eclipse.declare import AttackChoices, declare
from eclipse.selectors import Armed, Loaded, loaded_view
from encounters.errors import EncounterNotFound
from encounters.models import Combatant, Encounter
from encounters.services import can_see, controls, is_gm
from gamerules.eclipse_phase import attack as rules
from gamerules.eclipse_phase.gear import FiringMode, RangeBand
from gamerules.eclipse_phase.odds import attack_odds
from gamerules.eclipse_phase.situations import SITUATIONS
from gamerules.eclipse_phase.turn import ActionKind
from gamerules.errors import gettext_noop

# The labels of the rows offered, for makemessages (French: the seed's own words).
ROW_LABELS = (
    gettext_noop('off hand'),
    gettext_noop('superior position'),
    gettext_noop('small target'),
    gettext_noop('very small target'),
    gettext_noop('large target'),
    gettext_noop('very large target'),
    gettext_noop('poor visibility (minor)'),
    gettext_noop('poor visibility (major)'),
    gettext_noop('blind attack'),
    gettext_noop('reach advantage'),
    gettext_noop('smartlink or laser sight'),
    gettext_noop('attacker in cover'),
    gettext_noop('attacker running'),
    gettext_noop('attacker in melee'),
    gettext_noop('target in minor cover'),
    gettext_noop('target in moderate cover'),
    gettext_noop('target in major cover'),
    gettext_noop('target prone and far (10 m+)'),
    gettext_noop('target hidden'),
)
MODES = [m.value for m in FiringMode]
SUPPRESSIVE_MAGAZINE = 20  # the parameter's default; the service checks the campaign's
BANDS = [b.value for b in RangeBand]
CALLED = [c.value for c in rules.CalledShot]


@dataclass(frozen=True)
class SituationChoice:
    code: str
    label: str
    value: int
    applies: str
    group: str


@dataclass
class TurnOptions:
    """``me`` the loaded sheet (None without one); ``quick``/``complex`` whether such an action
    still fits in this phase; ``weapons`` the usable carried weapons (working, and of a skill
    the character may roll: an untrained psi or technical skill is left out); ``targets`` the other
    combatants with a sheet; ``effects`` the names of the states borne."""

    me: Loaded | None
    quick: bool = False
    complex: bool = False
    used: Any = None
    weapons: list[Armed] = field(default_factory=list)
    targets: list[Any] = field(default_factory=list)
    effects: set[str] = field(default_factory=set)
    situations: list[SituationChoice] = field(default_factory=list)
    modes: list[str] = field(default_factory=lambda: list(MODES))
    bands: list[str] = field(default_factory=lambda: list(BANDS))
    called: list[str] = field(default_factory=lambda: list(CALLED))

    @property
    def full_auto(self) -> list[Armed]:
        """The weapons able to open suppressive fire (FA, a magazine of 20 or more)."""
        return [a for a in self.weapons if FiringMode.FA in a.weapon.modes
                and a.weapon.magazine >= SUPPRESSIVE_MAGAZINE]

    @property
    def explosives(self) -> list[Armed]:
        return [a for a in self.weapons if a.weapon.blast is not None]

    @property
    def knocked_down(self) -> bool:
        return bool(self.me and self.me.health.knocked_down)

    @property
    def full_defence(self) -> bool:
        return FULL_DEFENCE in self.effects

    @property
    def aimed(self) -> str:
        return next((n for n in (AIM_COMPLEX, AIM_QUICK) if n in self.effects), "")

    @property
    def running(self) -> bool:
        return RUNNING in self.effects

    @property
    def held(self) -> bool:
        return any(n.startswith("Subdued by ") for n in self.effects)


def zones(view) -> list[Any]:
    """The suppressive zones lasting (their effects), from the view's effects: no query."""
    from eclipse.zones import ZONE

    return [f for f in view.effects if f.name == ZONE and f.expired_round is None]


def mishaps(view) -> list[Any]:
    """The encounter's attack entries whose weapon mishap the GM may still pick: one query."""
    from campaigns.models import ActionRecord
    from eclipse.defence import KIND_ATTACK

    return list(ActionRecord.objects.filter(
        campaign_id=view.encounter.campaign_id, kind=KIND_ATTACK,
        summary__encounter=view.encounter.pk, summary__result__weapon_mishap__isnull=False,
        summary__result__weapon_mishap_by__isnull=True).order_by("-id")[:10])


def situation_choices(params=None) -> list[SituationChoice]:
    """The seed's table rows a player picks on the form (the automatic ones follow from the
    sheet and the other choices), each with the campaign's value (``params``: its
    EclipsePhaseParameters; a row naming a parameter takes it) or the seed's without."""
    return [SituationChoice(s.code, gettext(s.label),
                            s.value_for(params) if params is not None else s.value, s.applies,
                            s.group)
            for s in SITUATIONS
            if not s.automatic and s.side == "attack" and not s.code.startswith("aim_")]


def turn_options(*, view, me) -> TurnOptions:
    """The partial's data for ``me`` (a Combatant) in ``view`` (encounters.selectors.
    EncounterView): three queries for the sheet's sleeve, armour and weapons, one for the
    effects, whatever the number of combatants."""
    loaded = loaded_view(me.character) if me is not None and me.character else None
    if loaded is None:
        return TurnOptions(None)
    params = params_of(view.encounter)
    used = phase_actions(view.encounter)
    effects = {f.name for f in view.effects if f.bearer_id == me.pk}
    targets = [c for c in view.combatants if c.pk != me.pk and not c.removed
               and c.character is not None and getattr(c.character, "eclipse", None)]
    weapons = [a for a in loaded.weapons
               if a.row.state not in (WeaponState.JAMMED, WeaponState.DESTROYED)
               and loaded.character.can_use(a.weapon.skill, params)]  # no untrained psi
    return TurnOptions(loaded, used.allows(ActionKind.QUICK, params),
                       used.allows(ActionKind.COMPLEX, params), used, weapons, targets,
                       effects, situation_choices(params))


@dataclass(frozen=True)
class OddsLine:
    """The odds against one defence (``defence``: "none", "dodge", "melee:<skill>"), ``odds``
    a gamerules.eclipse_phase.odds.AttackOdds; and their drawings (campaigns.charts)."""

    defence: str
    odds: Any

    @property
    def wounds(self) -> list[tuple[int, Fraction]]:
        return sorted(self.odds.wounds.items())

    @property
    def damage(self) -> list[tuple[int, Fraction]]:
        return sorted(self.odds.damage.items())

    @cached_property
    def bar(self) -> list[charts.Segment]:
        """The outcomes side by side, summing to 1: a critical hit, a plain hit, defended,
        missed (keys "critical", "hit", "defended", "miss")."""
        o = self.odds
        return charts.stacked_bar([
            ("critical", gettext("critical hit"), o.critical),
            ("hit", gettext("hit, not critical"), o.hit - o.critical),
            ("defended", gettext("defended"), o.defended), ("miss", gettext("missed"), o.miss)])

    @cached_property
    def no_damage(self) -> str:
        """The chance of no damage (a miss, a defence, armour stopping it all), in percent."""
        return charts.percent(self.odds.damage.get(0, Fraction(0)))

    @cached_property
    def damage_chart(self) -> charts.Histogram | None:
        """The damage that gets through (1 and more), scaled to its most likely value: the
        chance of none (``no_damage``) would flatten the rest."""
        return charts.histogram({d: p for d, p in self.odds.damage.items() if d > 0})

    @cached_property
    def damage_text(self) -> list[tuple[int, str]]:
        """Each damage that gets through with its chance in percent (as text)."""
        return [(d, charts.percent(p)) for d, p in self.damage if d > 0 and p]

    @cached_property
    def wounds_text(self) -> list[tuple[int, str]]:
        return [(w, charts.percent(p)) for w, p in self.wounds]

    @cached_property
    def wounds_chart(self) -> charts.Histogram | None:
        return charts.histogram(self.odds.wounds)


def odds_for(ctx, me: Loaded, target, choices: Mapping[str, Any], *,
             context: AttackContext | None = None) -> list[OddsLine]:
    """The exact odds of the attack the form describes against each defence ``target`` may
    choose (``ctx`` a TurnContext-like object: encounter, combatant). Nothing is spent.
    ``context``: what the attack reads, loaded once (eclipse.context.attack_context, not
    locked: nothing is written; None: loaded here). Raises as ``eclipse.declare.declare``."""
    params = params_of(ctx.encounter)
    if context is None:
        context = attack_context(ctx.encounter, ctx.combatant, [target], lock=False)
    order = declare(ctx, me, target, AttackChoices(**choices), spend_rounds=False,
                    context=context)
    them = context.of(target)
    if them is None:
        raise NoSheet(name=target.name)
    attacker = rules.Combatant(me.character, me.health.wounds, me.mind.traumas)
    defender = rules.Combatant(them.character, them.health.wounds, them.mind.traumas,
                               them.health.knocked_down)
    armed = next(a for a in me.weapons if a.row.pk == order.weapon)
    shot = order.shots[0]
    full = context.bears(target, FULL_DEFENCE)
    surprised = target.surprised and ctx.encounter.round == 1
    no_defence = surprised or order.psi or order.defender_helpless
    keys = ["none"] if no_defence else defence_options(order.melee)
    lines = []
    for key in keys:
        odds = attack_odds(attacker, defender, armed.weapon, params,
                           options=order.options(shot),
                           defence=defence_choice(key, surprised=surprised, full_defence=full,
                                                  extra=context.gravity),
                           extra_d10=shot.extra_d10)
        lines.append(OddsLine(key, odds))
    return lines


# The contexts the odds read, kept per encounter version (``odds_context``).
ODDS_CONTEXTS_KEPT = 64
ODDS_CONTEXT_SECONDS = 60.0
_odds_contexts: OrderedDict[tuple, tuple[float, AttackContext]] = OrderedDict()
_odds_contexts_lock = threading.Lock()


def odds_context(encounter: Encounter, me: Combatant, target: Combatant) -> AttackContext:
    """What the odds of ``me`` attacking ``target`` read (eclipse.context.attack_context,
    unlocked: four queries), kept in this process for the encounter's version: the form asks
    again on every change of the player's choices, and nothing the context holds (the two
    sheets, their sleeves, weapons and armour, their effects, the gravity) changes without
    the encounter's version changing (every step bumps it; a sheet changed outside a step
    bumps the versions of its encounters: encounters.services.characters_changed; the admin's
    template edits, which do not, within ``ODDS_CONTEXT_SECONDS``). The key holds the
    encounter's creation time too: an id reused by another database (the tests') is another
    key. No query on a kept context; the odds only read it (nothing is written to it)."""
    key = (encounter.pk, encounter.created_at, encounter.version, me.pk, me.character_id,
           target.pk, target.character_id)
    now = time.monotonic()
    with _odds_contexts_lock:
        kept = _odds_contexts.get(key)
        if kept is not None and now - kept[0] <= ODDS_CONTEXT_SECONDS:
            _odds_contexts.move_to_end(key)
            return kept[1]
    context = attack_context(encounter, me, [target], lock=False)
    with _odds_contexts_lock:
        _odds_contexts[key] = (now, context)
        while len(_odds_contexts) > ODDS_CONTEXTS_KEPT:
            _odds_contexts.popitem(last=False)
    return context


def clear_odds_contexts() -> None:
    """Forget the kept contexts (the benchmark's cold series; tests)."""
    with _odds_contexts_lock:
        _odds_contexts.clear()


def odds_encounter(*, user, encounter_id: int) -> tuple[Encounter, dict[int, Combatant]]:
    """The encounter (with its campaign) whose odds ``user`` asks for, and its combatants by
    id (removed ones too): one query, the combatants joined to their encounter (two when it
    has none: the encounter alone). Raises EncounterNotFound for a missing encounter and
    for one the user may not see (a stranger learns nothing), then NotEclipse for an encounter
    of another rule system's campaign (the odds are Eclipse Phase's)."""
    rows = list(Combatant.objects.filter(encounter_id=encounter_id)
                .select_related("encounter__campaign", "character"))
    if rows:
        encounter = rows[0].encounter
        for c in rows:  # one encounter object for all (each row joined its own copy)
            c.encounter = encounter
        combatants = {c.pk: c for c in rows}
    else:
        found = Encounter.objects.select_related("campaign").filter(pk=encounter_id).first()
        if found is None:
            raise EncounterNotFound()
        encounter, combatants = found, {}
    if not can_see(user, encounter, combatants.values()):
        raise EncounterNotFound()
    environment.require_eclipse(encounter)
    return encounter, combatants


def attack_odds_shown(*, user, encounter: Encounter, combatants: Mapping[int, Combatant],
                      combatant_id: int, target_id: int, choices: Mapping[str, Any]
                      ) -> tuple[list[OddsLine], Combatant]:
    """The odds (``odds_for``) of the attack ``choices`` describes (eclipse.declare.declare's
    keywords) by ``combatant_id`` on ``target_id``, in an encounter of ``odds_encounter``, and
    the target. Nothing is spent nor journaled. Raises InvalidInput for a combatant ``user``
    does not play or a target not in the encounter or hidden from them (a hidden combatant
    does not exist for the players), NoSheet, and what declare raises."""
    me, target = combatants.get(combatant_id), combatants.get(target_id)
    if me is None or target is None or not controls(user, encounter, me) \
            or (target.hidden and not is_gm(user, encounter)):
        raise InvalidInput()
    ctx = SimpleNamespace(encounter=encounter, combatant=me, user=user)
    context = odds_context(encounter, me, target)
    mine = context.of(me)
    if mine is None:
        raise NoSheet(name=me.name)
    return odds_for(ctx, mine, target, choices, context=context), target
