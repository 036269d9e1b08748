"""Reactions to an attack: parry (Force) and dodge (Dextérité), in defensive posture only.

Source: 002_80873c4f1892db54.txt, "Offensive": "les réactions spéciales Parade et Esquive sont
inutilisables"; "Défensive": "le personnage peut réagir à une attaque en utilisant une Parade
ou une Esquive"; "Parade": "En réponse à une attaque physique [...] un test de Force, et si
celui-ci est réussi, elle bloque alors autant de dégâts que le résultat du test. Dans le cas
contraire, la parade échoue et les dégâts sont calculés normalement. Il est également possible
de protéger des alliés proches en parant des coups leur étant destinés si les circonstances le
permettent. Il n'est pas possible de parer une attaque magique"; "Esquive": "En réponse à une
attaque physique ou magique [...] un test de Dextérité, et si le test est réussi, l'attaque est
complètement annulée. Si le test échoue, le personnage subit les dégâts maximum et ne peux plus
esquiver dans ce round"; "Surprise": a surprised character "ne pourra ni se déplacer, ni agir,
ni réagir lors de son premier tour".

Choices: one reaction per attack; no reaction to a missed attack; a parry for an ally is made
by the ally-protector in defensive posture (whether the ally is near enough is the GM's call:
the encounter asks, the rule does not measure); one may dodge only attacks aimed at oneself; a
failed dodge takes the larger of the rolled damage and the die's maximum (a critical keeps its
critical damage).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum

from gamerules.dice import RandomSource
from gamerules.homebrew.attack import AttackKind, AttackResult
from gamerules.homebrew.checks import SubTestResult, sub_test
from gamerules.homebrew.errors import ReactionRefused
from gamerules.homebrew.params import HomebrewParameters
from gamerules.homebrew.turn import Posture
from gamerules.modifiers import Modifier


class Reaction(StrEnum):
    NONE = "none"
    PARRY = "parry"
    DODGE = "dodge"


@dataclass(frozen=True)
class Reactor:
    """Who reacts: the target, or an ally parrying for it (``for_ally``). ``can_dodge`` is
    False after a failed dodge this round (see ``RoundDodges``)."""

    force: int
    dexterite: int
    posture: Posture = Posture.OFFENSIVE
    can_dodge: bool = True
    surprised: bool = False


@dataclass(frozen=True)
class RoundDodges:
    """Who may no longer dodge in this round (ids of the encounter's combatants)."""

    round: int = 1
    lost: frozenset[Hashable] = field(default_factory=frozenset)

    def can_dodge(self, who: Hashable) -> bool:
        return who not in self.lost

    def lose(self, who: Hashable) -> RoundDodges:
        return replace(self, lost=self.lost | {who})

    def next_round(self) -> RoundDodges:
        return RoundDodges(self.round + 1)


def refusal(attack: AttackResult, reaction: Reaction, reactor: Reactor, *,
            for_ally: bool = False) -> ReactionRefused | None:
    """Why ``reactor`` may not answer ``attack`` with ``reaction`` (None: it may)."""
    return refusal_for(attack.kind, reaction, reactor, hit=attack.hit, for_ally=for_ally)


def refusal_for(kind: AttackKind, reaction: Reaction, reactor: Reactor, *, hit: bool = True,
                for_ally: bool = False) -> ReactionRefused | None:
    """``refusal`` before the attack is rolled (for the odds)."""
    if reaction is Reaction.NONE:
        return None
    # The refusals in the order they are told: the first that holds is the one raised.
    refusals = (
        ("attack_missed", not hit),
        ("surprised", reactor.surprised),
        ("needs_defensive_posture", reactor.posture is not Posture.DEFENSIVE),
        ("parry_against_magic", reaction is Reaction.PARRY and kind is AttackKind.MAGICAL),
        ("dodge_for_ally", reaction is Reaction.DODGE and for_ally),
        ("no_more_dodges", reaction is Reaction.DODGE and not reactor.can_dodge),
    )
    code = next((code for code, refused in refusals if refused), None)
    return None if code is None else ReactionRefused(code=code)


def available_reactions(attack: AttackResult, reactor: Reactor, *, for_ally: bool = False
                        ) -> tuple[Reaction, ...]:
    """The reactions the encounter may offer (NONE always)."""
    return tuple(r for r in Reaction if refusal(attack, r, reactor, for_ally=for_ally) is None)


@dataclass(frozen=True)
class ReactionOutcome:
    """``damage`` is what the target finally takes; ``blocked`` what a parry stopped;
    ``dodge_lost``: the reactor may not dodge again this round."""

    reaction: Reaction
    for_ally: bool
    test: SubTestResult | None
    damage_before: int
    blocked: int
    damage: int
    dodge_lost: bool

    @property
    def success(self) -> bool | None:
        return None if self.test is None else self.test.success


def resolve_reaction(attack: AttackResult, reaction: Reaction, reactor: Reactor,
                     rng: RandomSource, params: HomebrewParameters, *, for_ally: bool = False,
                     difficulty_value: int = 0, assists: Sequence[Modifier] = ()
                     ) -> ReactionOutcome:
    """Step 4 of "Attaquer". Parry: a Force test; success blocks the die's result. Dodge: a
    Dextérité test; success cancels; failure takes the maximum damage and loses dodging for
    the round. Raises ReactionRefused (see ``refusal``) and changes nothing then."""
    refused = refusal(attack, reaction, reactor, for_ally=for_ally)
    if refused is not None:
        raise refused
    damage = attack.damage
    if reaction is Reaction.NONE:
        return ReactionOutcome(reaction, for_ally, None, damage, 0, damage, False)
    value = reactor.force if reaction is Reaction.PARRY else reactor.dexterite
    test = sub_test(value, rng, params, difficulty_value=difficulty_value, assists=assists)
    if reaction is Reaction.PARRY:
        blocked = min(damage, test.result) if test.success else 0
        return ReactionOutcome(reaction, for_ally, test, damage, blocked, damage - blocked, False)
    if test.success:
        return ReactionOutcome(reaction, for_ally, test, damage, 0, 0, False)
    return ReactionOutcome(reaction, for_ally, test, damage, 0, max(damage, attack.max_damage),
                           True)
