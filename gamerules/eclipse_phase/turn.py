"""Action turns: initiative each turn, action phases by SPD, quick/complex actions, delaying.

Source: 001_e6266c120d4801b4.txt, "Actions": "Action automatique : action ne nécessitant pas de
jet de dé (parler, faire un geste, etc.) ou réaction (se défendre). Action rapide : dégainer,
viser, activer implant, utiliser objet simple, se coucher, se lever, etc. Action complexe :
attaquer, tirer, recharger, acrobaties, désarmer objet complexe, etc."; "Pendant la (les)
phase(s) d'action d'un tour de combat, chaque personnage peut généralement effectuer trois
actions rapides ou une action rapide et une action complexe"; "Chaque personnage a droit à un
nombre de phases d'action égal à sa caractéristique de VITesse (base 1, variable selon le morph
et les implants possédés)"; "Surprise & embuscade": "un malus de 30 à l'initiative";
"Recevoir une charge": "si on a retardé son action".

The seed gives no initiative formula; the first edition's: base = (INT + REF) / 5 rounded up
(``initiative_divisor``, ``initiative_round_up``) + the morph's bonus; each action turn 1d10
(``initiative_die``) + base - 1 per wound and per trauma (``initiative_per_wound``). Choice:
equal totals go to the higher REF, then keep the order given (the GM's). In phase p (1 to SPD
max), everyone with SPD >= p acts, in initiative order. A delayed combatant may act at any
later moment of the turn (interrupting); a delay not used by the end of the turn is lost.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from gamerules.dice import DiceRoll, RandomSource, roll
from gamerules.eclipse_phase.errors import ActionsSpent
from gamerules.eclipse_phase.params import EclipsePhaseParameters
from gamerules.eclipse_phase.sheet import Aptitude, Character
from gamerules.modifiers import Modifier, total


class ActionKind(StrEnum):
    AUTOMATIC = "automatic"  # talking, defending: free
    QUICK = "quick"  # draw, aim, stand up, activate an implant
    COMPLEX = "complex"  # attack, shoot, reload, full defence


# What each action of the seed costs ("Actions"; "Défense totale : [...] (action complexe)";
# "Viser : + 10 par action rapide, +30 par action complexe"; "action rapide pour se relever";
# surprised defenders defend with a quick action, attack.AttackResult.defence_cost).
ACTION_COSTS: dict[str, ActionKind] = {
    "talk": ActionKind.AUTOMATIC, "gesture": ActionKind.AUTOMATIC,
    "defend": ActionKind.AUTOMATIC, "defend_surprised": ActionKind.QUICK,
    "draw": ActionKind.QUICK, "aim_quick": ActionKind.QUICK, "activate_implant": ActionKind.QUICK,
    "use_simple_object": ActionKind.QUICK, "drop_prone": ActionKind.QUICK,
    "stand_up": ActionKind.QUICK, "delay": ActionKind.AUTOMATIC,
    "attack": ActionKind.COMPLEX, "shoot": ActionKind.COMPLEX, "reload": ActionKind.COMPLEX,
    "acrobatics": ActionKind.COMPLEX, "disarm_complex_object": ActionKind.COMPLEX,
    "full_defence": ActionKind.COMPLEX, "aim_complex": ActionKind.COMPLEX,
    "suppressive_fire": ActionKind.COMPLEX, "escape": ActionKind.COMPLEX,
}


def initiative_base(character: Character, params: EclipsePhaseParameters) -> int:
    """(INT + REF) / ``initiative_divisor``, rounded up (or down), + the morph's bonus."""
    summed = character.aptitude(Aptitude.INT, params) + character.aptitude(Aptitude.REF, params)
    d = params.initiative_divisor
    base = -(-summed // d) if params.initiative_round_up else summed // d
    return base + character.morph.initiative_bonus


@dataclass(frozen=True)
class Contender:
    """Who rolls initiative: ``who`` an encounter id; ``modifiers`` extra (surprise -30)."""

    who: Hashable
    character: Character
    wounds: int = 0
    traumas: int = 0
    modifiers: tuple[Modifier, ...] = ()


@dataclass(frozen=True)
class InitiativeRoll:
    """``total`` = ``roll`` + ``base`` + ``modifiers`` (wounds, traumas, surprise)."""

    who: Hashable
    base: int
    roll: DiceRoll
    modifiers: tuple[Modifier, ...]
    total: int
    speed: int
    reflexes: int


def initiative_modifiers(params: EclipsePhaseParameters, wounds: int, traumas: int, *,
                         pain_filter: bool = False) -> tuple[Modifier, ...]:
    """-1 per wound and per trauma; a ``pain_filter`` ignores one wound's."""
    mods = []
    if wounds and params.initiative_per_wound:
        felt = max(0, wounds - 1) if pain_filter else wounds
        if pain_filter:
            mods.append(Modifier(f"wounds ({wounds}, pain filter: 1 ignored)",
                                 -felt * params.initiative_per_wound, "pain_filter"))
        else:
            mods.append(Modifier(f"wounds ({wounds})", -wounds * params.initiative_per_wound,
                                 "wounds"))
    if traumas and params.initiative_per_wound:
        mods.append(Modifier(f"traumas ({traumas})", -traumas * params.initiative_per_wound,
                             "traumas"))
    return tuple(mods)


def roll_initiative(contenders: Sequence[Contender], rng: RandomSource,
                    params: EclipsePhaseParameters) -> tuple[InitiativeRoll, ...]:
    """Every contender's initiative for this action turn, best first (ties: higher REF, then
    the order given). Rolled in the order given."""
    rolls = []
    for c in contenders:
        base = initiative_base(c.character, params)
        thrown = roll(f"1d{params.initiative_die}", rng)
        mods = initiative_modifiers(params, c.wounds, c.traumas,
                                    pain_filter=c.character.pain_filter) + c.modifiers
        rolls.append(InitiativeRoll(c.who, base, thrown, mods, thrown.total + base + total(mods),
                                    c.character.morph.spd(params),
                                    c.character.aptitude(Aptitude.REF, params)))
    order = sorted(range(len(rolls)), key=lambda i: (-rolls[i].total, -rolls[i].reflexes, i))
    return tuple(rolls[i] for i in order)


def phases(order: Sequence[InitiativeRoll], params: EclipsePhaseParameters
           ) -> tuple[tuple[Hashable, ...], ...]:
    """Who acts in each action phase (1 to the highest SPD present), in initiative order."""
    top = max((r.speed for r in order), default=0)
    return tuple(tuple(r.who for r in order if min(r.speed, params.speed_max) >= p)
                 for p in range(1, min(top, params.speed_max) + 1))


@dataclass(frozen=True)
class PhaseActions:
    """What one combatant has used in its current action phase: three quick actions, or one
    quick and one complex (``quick_actions_per_phase``)."""

    quick: int = 0
    complex: int = 0

    def allows(self, kind: ActionKind, params: EclipsePhaseParameters) -> bool:
        if kind is ActionKind.AUTOMATIC:
            return True
        if kind is ActionKind.COMPLEX:
            return self.complex == 0 and self.quick <= 1
        limit = 1 if self.complex else params.quick_actions_per_phase
        return self.quick < limit

    def spend(self, kind: ActionKind, params: EclipsePhaseParameters) -> PhaseActions:
        """The actions after ``kind``. Raises ActionsSpent when it does not fit."""
        if not self.allows(kind, params):
            raise ActionsSpent("no_action_left", kind=kind.value, quick=self.quick,
                               complex=self.complex)
        if kind is ActionKind.QUICK:
            return replace(self, quick=self.quick + 1)
        if kind is ActionKind.COMPLEX:
            return replace(self, complex=self.complex + 1)
        return self


@dataclass(frozen=True)
class PhaseOrder:
    """One action phase: ``pending`` still to act in order, ``delayed`` who delayed (they act
    when they choose, until the end of the turn), ``done`` who acted."""

    pending: tuple[Hashable, ...]
    delayed: tuple[Hashable, ...] = ()
    done: tuple[Hashable, ...] = ()

    @property
    def current(self) -> Hashable | None:
        return self.pending[0] if self.pending else None

    def act(self, who: Hashable) -> PhaseOrder:
        """``who`` acts: the current combatant, or a delayed one interrupting. Raises
        ActionsSpent otherwise."""
        if self.pending and who == self.pending[0]:
            return replace(self, pending=self.pending[1:], done=(*self.done, who))
        if who in self.delayed:
            return replace(self, delayed=tuple(d for d in self.delayed if d != who),
                           done=(*self.done, who))
        raise ActionsSpent("not_combatant_turn", who=str(who))

    def delay(self, who: Hashable) -> PhaseOrder:
        """The current combatant holds its action. Raises ActionsSpent if it is not current."""
        if not self.pending or who != self.pending[0]:
            raise ActionsSpent("only_combatant_about", who=str(who))
        return replace(self, pending=self.pending[1:], delayed=(*self.delayed, who))

    def next_phase(self, acting: Sequence[Hashable]) -> PhaseOrder:
        """The next phase of the same turn: delays carry over."""
        return PhaseOrder(tuple(a for a in acting if a not in self.delayed), self.delayed)
