"""A homebrew attack from its order to the state after: every decision, in memory.

The services (homebrew.services, homebrew.play) load and lock the sheets once
(homebrew.context), turn them into ``Fighter`` values, call ``declare_attack`` with an
``AttackOrder`` and later ``answer_attack`` with a ``ReactionChoice``, then write what these
return. Nothing here reads or writes a database; the dice come from the ``rng`` passed in.

- ``declare_attack`` (seed, "Attaquer" steps 1-3, "Magie"): a physical weapon counting on the
  gauge spends it (never HP: our choice), a spell spends its MP and the shortfall in HP (the
  health rules then apply to the attacker); then the hit test, the damage die (halved in
  defensive posture), the critical and its multiplier (gamerules.homebrew.attack); then what the
  target may answer (``reactions``: "none" always, parry and dodge as
  gamerules.homebrew.reactions.refusal_for allows and only while the target stands), why the
  others are refused (``refused``: the rule's code, or "target_down"), and which allies may
  parry for it (``protectors``: standing, in defensive posture, against a physical hit).
- ``answer_attack`` ("Attaquer" step 4, "Parade", "Esquive", "Santé"): the reaction's test,
  the damage the target finally takes, its HP and health after (unconscious at 0, dead at 0 for
  an enemy not spared, a permanent injury at minus the maximum), and the dodge lost for the
  round after a failed dodge.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from gamerules.dice import RandomSource
from gamerules.homebrew.attack import (AttackKind, AttackResult, Attacker, Weapon, die_sides,
                                       resolve_attack)
from gamerules.homebrew.checks import assist
from gamerules.homebrew.health import HealthChange, HealthState, apply_damage
from gamerules.homebrew.magic import spend_mp
from gamerules.homebrew.params import HomebrewParameters
from gamerules.homebrew.reactions import (Reaction, ReactionOutcome, Reactor, refusal_for,
                                          resolve_reaction)
from gamerules.homebrew.turn import Posture

TARGET_DOWN = "target_down"  # why a target not standing is offered no parry nor dodge


@dataclass(frozen=True)
class Fighter:
    """A character's numbers as the attack rules read them (a homebrew sheet, in memory).
    ``enemy``: not a player character (dies at 0 HP unless ``spared``);
    ``dodge_lost_round``: the round marker in which a failed dodge took the dodge away."""

    id: int
    physique: int
    mental: int
    force: int
    dexterite: int
    hp: int
    hp_max: int
    mp: int
    posture: Posture = Posture.OFFENSIVE
    health: HealthState = HealthState.STANDING
    enemy: bool = False
    spared: bool = False
    dodge_lost_round: str = ""

    @property
    def standing(self) -> bool:
        return self.health is HealthState.STANDING

    def can_dodge(self, round_key: str) -> bool:
        return not round_key or self.dodge_lost_round != round_key

    def reactor(self, round_key: str, *, surprised: bool = False) -> Reactor:
        return Reactor(force=self.force, dexterite=self.dexterite, posture=self.posture,
                       can_dodge=self.can_dodge(round_key), surprised=surprised)

    def damaged(self, damage: int, params: HomebrewParameters
                ) -> tuple[Fighter, HealthChange]:
        """This fighter after taking ``damage`` (the dead stay dead), and the change."""
        change = apply_damage(damage, hp=self.hp, hp_max=self.hp_max, params=params,
                              enemy=self.enemy, spared=self.spared)
        health = self.health if self.health is HealthState.DEAD else change.state
        return replace(self, hp=change.hp_after, health=health), change


@dataclass(frozen=True)
class AttackOrder:
    """What the attacker asks: ``actor`` attacks ``target`` (character ids) with ``weapon``,
    in ``posture`` (None: the sheet's), in the round ``round_key``; ``protectors`` the ids of
    the allies judged near enough to parry for the target; ``difficulty`` and ``assists``
    (helper, bonus) the game master's modifiers of the hit test."""

    actor: int
    target: int
    weapon: Weapon
    posture: Posture | None = None
    round_key: str = ""
    description: str = ""
    protectors: tuple[int, ...] = ()
    target_surprised: bool = False
    difficulty: int = 0
    assists: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class AttackCost:
    """What the attack cost the attacker before the test: ``mp_spent`` from the gauge,
    ``hp_spent`` for the MP missing (a spell); ``health`` the attacker's change then."""

    cost: int
    mp_spent: int
    hp_spent: int
    health: HealthChange | None = None

    def as_record(self, health: str | None = None) -> dict[str, object]:
        record: dict[str, object] = {"cost": self.cost, "mp_spent": self.mp_spent,
                                     "hp_spent": self.hp_spent}
        if health is not None:
            record["health"] = health
        return record


@dataclass(frozen=True)
class Declaration:
    """``declare_attack``'s outcome: the attacker after paying (``attacker``), the rolled
    ``result``, what the target may answer (``reactions``), why it may not parry or dodge
    (``refused``: reaction -> code) and the allies who may parry for it (``protectors``)."""

    order: AttackOrder
    posture: Posture
    attacker: Fighter
    cost: AttackCost | None
    result: AttackResult
    reactions: tuple[str, ...]
    refused: tuple[tuple[str, str], ...]
    protectors: tuple[int, ...]

    @property
    def options(self) -> list[str]:
        """The answers to offer: ``reactions``, then "parry:<id>" for each protector."""
        return [*self.reactions, *(f"parry:{pk}" for pk in self.protectors)]

    @property
    def attacker_injured(self) -> bool:
        return self.cost is not None and self.cost.health is not None \
            and self.cost.health.permanent_injury


def lacks_resource(weapon: Weapon, mp: int) -> bool:
    """A physical weapon counting on the gauge (cartridges) with too little left: refused,
    never paid in HP (our choice)."""
    return weapon.kind is AttackKind.PHYSICAL and weapon.mp_cost > 0 and mp < weapon.mp_cost


def pay(weapon: Weapon, attacker: Fighter, params: HomebrewParameters
        ) -> tuple[Fighter, AttackCost | None]:
    """The attacker after paying ``weapon``'s cost (hit or miss), and the cost (None: free).
    A physical weapon spends the gauge (``lacks_resource`` first); a spell its MP, then HP."""
    if not weapon.mp_cost:
        return attacker, None
    if weapon.kind is AttackKind.PHYSICAL:
        return (replace(attacker, mp=attacker.mp - weapon.mp_cost),
                AttackCost(weapon.mp_cost, weapon.mp_cost, 0))
    spent = spend_mp(weapon.mp_cost, mp=attacker.mp, hp=attacker.hp, params=params)
    after = replace(attacker, mp=spent.mp_after)
    change = None
    if spent.hp_spent:
        after, change = after.damaged(spent.hp_spent, params)
    return after, AttackCost(spent.cost, spent.mp_spent, spent.hp_spent, change)


def offered_reactions(result: AttackResult, target: Fighter, reactor: Reactor
                      ) -> tuple[tuple[str, ...], tuple[tuple[str, str], ...]]:
    """What ``target`` may answer ``result`` with, and why each of parry and dodge left out is
    refused (the rule's code, or "target_down" for a target not standing)."""
    offered = tuple(r.value for r in Reaction
                    if refusal_for(result.kind, r, reactor, hit=result.hit) is None
                    and (r is Reaction.NONE or target.standing))
    refused = []
    for r in (Reaction.PARRY, Reaction.DODGE):
        if r.value not in offered:
            why = refusal_for(result.kind, r, reactor, hit=result.hit)
            refused.append((r.value, why.code if why is not None else TARGET_DOWN))
    return offered, tuple(refused)


def ally_parries(result: AttackResult, allies: Sequence[Fighter], round_key: str
                 ) -> tuple[int, ...]:
    """The ids of ``allies`` who may parry ``result`` for its target: a physical hit, the ally
    standing and in defensive posture (the caller names the allies near enough)."""
    if not (result.hit and result.kind is AttackKind.PHYSICAL):
        return ()
    return tuple(a.id for a in allies if a.standing and refusal_for(
        result.kind, Reaction.PARRY, a.reactor(round_key), for_ally=True) is None)


def declare_attack(order: AttackOrder, attacker: Fighter, target: Fighter, *,
                   allies: Sequence[Fighter], rng: RandomSource, params: HomebrewParameters
                   ) -> Declaration:
    """Steps 1-3 of "Attaquer" for ``order``: pay, roll the hit and the damage, say what the
    target and ``allies`` (the fighters of ``order.protectors`` in the same campaign) may
    answer. The caller checks first that the attacker stands and has the resource
    (``lacks_resource``). Raises InvalidWeapon for a bad die (before anything is paid)."""
    die_sides(order.weapon.die)  # raises InvalidWeapon
    posture = order.posture or attacker.posture
    paid, cost = pay(order.weapon, attacker, params)
    result = resolve_attack(Attacker(paid.physique, paid.mental, posture), order.weapon, rng,
                            params, difficulty_value=order.difficulty,
                            assists=[assist(n, b) for n, b in order.assists])
    reactions, refused = offered_reactions(
        result, target, target.reactor(order.round_key, surprised=order.target_surprised))
    helpers = [a for a in allies if a.id not in (order.actor, order.target)]
    return Declaration(order, posture, paid, cost, result, reactions, refused,
                       ally_parries(result, helpers, order.round_key))


@dataclass(frozen=True)
class ReactionChoice:
    """The answer to an attack: ``reaction``, by the target (``by`` None or the target's id)
    or by an ally parrying for it (``by`` its id)."""

    reaction: Reaction = Reaction.NONE
    by: int | None = None

    def for_ally(self, target: int) -> bool:
        return self.by is not None and self.by != target

    def reactor_id(self, target: int) -> int:
        return self.by if self.by is not None and self.for_ally(target) else target


@dataclass(frozen=True)
class Resolution:
    """``answer_attack``'s outcome: the reaction's ``outcome`` (its test, what a parry blocked,
    the damage finally taken), the target and the reactor after (the same fighter when the
    target reacts), the target's HP before and its health change (None on a miss)."""

    choice: ReactionChoice
    for_ally: bool
    outcome: ReactionOutcome
    hit: bool
    hp_before: int
    target: Fighter
    reactor: Fighter
    health: HealthChange | None

    @property
    def damage(self) -> int:
        return self.outcome.damage if self.hit else 0

    @property
    def permanent_injury(self) -> bool:
        return self.health is not None and self.health.permanent_injury


def answer_attack(result: AttackResult, choice: ReactionChoice, target: Fighter,
                  reactor: Fighter, *, rng: RandomSource, params: HomebrewParameters,
                  round_key: str = "") -> Resolution:
    """Step 4 of "Attaquer" and "Santé": ``reactor`` (the target, or the ally of
    ``choice.by``) answers ``result`` with ``choice.reaction``, then the target takes the
    damage. Raises ReactionRefused when the rules refuse the reaction now (nothing changes).
    Which answers were offered is the caller's check."""
    for_ally = choice.for_ally(target.id)
    outcome = resolve_reaction(result, choice.reaction, reactor.reactor(round_key), rng,
                               params, for_ally=for_ally)
    if outcome.dodge_lost:
        reactor = replace(reactor, dodge_lost_round=round_key)
    hurt, change = target, None
    if not for_ally:
        hurt = reactor
    if result.hit:
        hurt, change = hurt.damaged(outcome.damage, params)
    if not for_ally:
        reactor = hurt
    return Resolution(choice, for_ally, outcome, result.hit, target.hp, hurt, reactor, change)
