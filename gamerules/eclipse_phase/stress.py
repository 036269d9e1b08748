"""Mental health: stress values, traumas, lucidity, derangements, insanity, recovery.

Source: 001_e6266c120d4801b4.txt, "Santé Mentale & stress": "Ces événements possèdent une Valeur
de Stress qui est gérée de manière similaire à la VD physique. On résiste à la VS avec VOL. La
quantité totale de stress que peut supporter un ego [...] est déterminée par la caractéristique
de LUCidité (équivalent à la DUR physique). Une VS élevée peut signifier qu'un ego se voit
infliger des Traumas (équivalent mental des Blessures physiques) et, à long terme, des
dérangements mentaux. On peut se remettre de ces affections grâce au repos ou, éventuellement,
les soigner à l'aide de psychochirurgie [...] Un ego qui se voit infliger une trop grande
quantité de stress peut se retrouver irrémédiablement fou à lier..."

Choices (docs/rules/eclipse-phase.md): the SV is resisted with a WIL x3 test
(``stress_resist_multiplier``, wound and trauma maluses applied): a success keeps
``stress_resisted_percent`` (50) of the SV rounded down, a failure all of it; traumas are
counted like wounds (``trauma_inclusive`` off: strictly above each multiple of the trauma
threshold); each new trauma asks the GM for a derangement, and every ``traumas_per_disorder``
(4) traumas in total for a disorder; stress >= LUC: the ego is beyond its lucidity (out of
play until it recovers); stress >= insanity rating: permanently insane, which no rest or
psychosurgery undoes. Rest removes stress and traumas; psychosurgery also derangements and
disorders. The amounts are the GM's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from gamerules.dice import RandomSource
from gamerules.eclipse_phase.checks import SkillTest, Strain, skill_test
from gamerules.eclipse_phase.errors import InvalidSheet, RecoveryRefused
from gamerules.eclipse_phase.params import EclipsePhaseParameters
from gamerules.eclipse_phase.sheet import Aptitude, Character


class MentalCondition(StrEnum):
    STABLE = "stable"
    BEYOND_LUCIDITY = "beyond_lucidity"  # stress >= LUC
    INSANE = "insane"  # stress >= insanity rating: permanent


@dataclass(frozen=True)
class Mind:
    """An ego's state: ``stress`` taken, ``traumas``, the ``derangements`` and ``disorders``
    the GM named, ``insane`` once the insanity rating was reached (it stays)."""

    stress: int = 0
    traumas: int = 0
    derangements: tuple[str, ...] = ()
    disorders: tuple[str, ...] = ()
    insane: bool = False

    def __post_init__(self) -> None:
        if self.stress < 0 or self.traumas < 0:
            raise InvalidSheet("stress_traumas_are")


def traumas_from(sv: int, trauma_threshold: int, params: EclipsePhaseParameters) -> int:
    if sv <= 0:
        return 0
    if params.trauma_inclusive:
        return sv // trauma_threshold
    return (sv - 1) // trauma_threshold


def mental_condition(mind: Mind, character: Character, params: EclipsePhaseParameters
                     ) -> MentalCondition:
    """From the ego's lucidity and insanity rating in its present morph (``Character.luc``)."""
    if mind.insane or mind.stress >= character.ir(params):
        return MentalCondition.INSANE
    if mind.stress >= character.luc(params):
        return MentalCondition.BEYOND_LUCIDITY
    return MentalCondition.STABLE


@dataclass(frozen=True)
class StressResult:
    """``sv`` the stress value; ``resist`` the WIL test (None: not allowed); ``taken`` the
    stress kept; ``new_traumas``; ``derangements_due`` how many derangements the GM names now;
    ``disorder_due`` whether a disorder is due; ``condition`` after."""

    sv: int
    resist: SkillTest | None
    taken: int
    trauma_threshold: int
    new_traumas: int
    before: Mind
    after: Mind
    derangements_due: int
    disorder_due: bool
    condition: MentalCondition


def take_stress(character: Character, mind: Mind, sv: int, rng: RandomSource,
                params: EclipsePhaseParameters, *, resist: bool = True, wounds: int = 0
                ) -> StressResult:
    """Inflict a stress value: the WIL test (``resist``), the stress kept, traumas, due
    derangements and disorders. Raises InvalidSheet for a negative SV."""
    if sv < 0:
        raise InvalidSheet("stress_value_never", sv=sv)
    test = None
    taken = sv
    if resist and sv:
        wil = character.aptitude(Aptitude.WIL, params) * params.stress_resist_multiplier
        test = skill_test(wil, rng, params, label=f"WILx{params.stress_resist_multiplier} against stress",
                          strain=Strain(wounds=wounds, traumas=mind.traumas,
                                        pain_filter=character.pain_filter))
        if test.success:
            taken = sv * params.stress_resisted_percent // 100
    tt = character.tt(params)
    new = traumas_from(taken, tt, params)
    after = replace(mind, stress=mind.stress + taken, traumas=mind.traumas + new)
    per = params.traumas_per_disorder
    disorder_due = new > 0 and after.traumas // per > mind.traumas // per
    state = mental_condition(after, character, params)
    if state is MentalCondition.INSANE:
        after = replace(after, insane=True)
    return StressResult(sv, test, taken, tt, new, mind, after, new, disorder_due, state)


class Recovery(StrEnum):
    REST = "rest"
    PSYCHOSURGERY = "psychosurgery"


def recover(mind: Mind, method: Recovery, *, stress: int = 0, traumas: int = 0,
            remove: Sequence[str] = ()) -> Mind:
    """The GM's recovery: ``stress`` and ``traumas`` removed, and with psychosurgery the named
    derangements or disorders (``remove``). Raises RecoveryRefused for an insane ego or a rest
    removing derangements; InvalidSheet for negative amounts."""
    if stress < 0 or traumas < 0:
        raise InvalidSheet("recovery_amounts_are")
    if mind.insane:
        raise RecoveryRefused("ego_permanently_insane")
    if remove and method is not Recovery.PSYCHOSURGERY:
        raise RecoveryRefused("only_psychosurgery_removes", method=method.value)
    unknown = [r for r in remove if r not in mind.derangements and r not in mind.disorders]
    if unknown:
        raise InvalidSheet("not_derangement_disorder", unknown=", ".join(unknown))
    return replace(mind, stress=max(0, mind.stress - stress),
                   traumas=max(0, mind.traumas - traumas),
                   derangements=tuple(d for d in mind.derangements if d not in remove),
                   disorders=tuple(d for d in mind.disorders if d not in remove))


def name_derangement(mind: Mind, name: str, *, disorder: bool = False) -> Mind:
    """The GM names a derangement (or disorder) the ego now has."""
    if not name.strip():
        raise InvalidSheet("derangement_needs_name")
    if disorder:
        return replace(mind, disorders=(*mind.disorders, name))
    return replace(mind, derangements=(*mind.derangements, name))
