"""Ranged fire: firing modes and their rounds, bursts and full auto, suppressive fire, beam
sweep and concentration, blind and indirect fire, reloading.

Source: 001_e6266c120d4801b4.txt, "Options & Complications": "Selon son mode de tir, une arme à
distance peut tirer une ou plusieurs fois par action complexe : (chaque attaque est un jet
séparé) Coup par Coup (CC) : 1 tir / action complexe; Semi-auto (SA) : 2 tirs / action complexe
(2e cible, -20). Tir en rafales (TR) : 2 rafales / action complexe; Tir auto (TA) : 1 tir /
action complexe"; "Tir en rafales : peut atteindre deux cibles différentes sans malus, tant
qu'elles ne sont pas espacées de plus d'1m. Si les rafales sont concentrées sur la même cible,
soit le tir bénéficie d'un + 10, soit la VD obtient + 1d10. Utilise 3 munitions"; "Tir auto :
Peut atteindre trois cibles différentes sans malus, tant qu'elles ne sont pas espacées de plus
d'1m chacune. Si le tir est concentré sur la même cible, l'attaque bénéficie d'un +30 ou VD
+3d10. Utilise 10 munitions"; "Tir de suppression (TA) : un tir automatique arrose une zone
couvrant un arc de 20m depuis l'attaquant et reste en effet jusqu'à sa phase d'action suivante.
L'attaquant bénéficie d'une attaque gratuite sans modificateur sur toutes les cibles se trouvant
dans la zone (sauf pour les malus de blessures et contre les cibles en défense totale). Les
cibles qui bénéficient d'un couvert au début de leur phase d'action ne sont pas affectées.
L'attaque utilise 20 munitions et n'est donc pas réalisable avec une arme possédant un chargeur
plus petit"; "Armes à Rayons (lasers, plasmas) : Balayage (SA, TR), si la première attaque est
un échec, la 2e bénéficie d'un + 20. Concentration (SA, TR), si la première attaque est un
succès, l'attaquant peut renoncer à la deuxième pour « concentrer » son tir [...] la VD de
l'attaque est multipliée par 2. La manœuvre doit être annoncée avant la résolution des
dommages"; "Tir en aveugle : attaque à -30, si réussite préalable d'un jet de perception"; "Tir
indirect : -30 avec l'aide d'un « spotter » [...] Si, de plus, l'attaquant utilise une arme à
tête chercheuse (missile, roquette), pas de malus"; "Action complexe : [...] recharger".

Choices (docs/rules/eclipse-phase.md): every mode is planned for one complex action (SA two
shots, BF up to two bursts, FA one attack) and refused, spending nothing, when the magazine
holds fewer rounds than the whole action needs; "-20 per extra target": the attack on the n-th
target beyond the first of the action takes -20 x n, except the targets a burst (2) or full auto
(3) reaches "sans malus"; a concentrated BF/FA attack takes the bonus or the dice, the attacker's
choice; suppressive fire is refused with a magazine under 20 rounds ("chargeur plus petit") and
with fewer than 20 loaded; its zone is a band 20 m wide ahead of the attacker (10 m each side of
the aim line) up to the weapon's extreme range; targets in full defence are spared
(``suppressive_spares_full_defence``); a beam's concentration still spends the forgone shot's
rounds; indirect fire needs a spotter.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from gamerules.dice import RandomSource
from gamerules.eclipse_phase.attack import AttackOptions, AttackResult, Combatant, resolve_attack
from gamerules.eclipse_phase.checks import SkillTest
from gamerules.eclipse_phase.errors import FiringRefused, ManoeuvreRefused
from gamerules.eclipse_phase.gear import FiringMode, Magazine, RangeBand, Weapon
from gamerules.eclipse_phase.params import EclipsePhaseParameters
from gamerules.eclipse_phase.situations import modifier
from gamerules.eclipse_phase.turn import ActionKind
from gamerules.modifiers import Modifier

RELOAD_ACTION = ActionKind.COMPLEX
# Seed 001, "Selon son mode de tir, une arme à distance peut tirer une ou plusieurs fois par action
# complexe": "Semi-auto (SA) : 2 tirs" and "Tir en rafales (TR) : 2 rafales" a complex action.
SEMI_AUTO_SHOTS: Final = 2
BURSTS_PER_ACTION: Final = 2
# The targets a volley reaches without the extra-target malus, each 1 m apart at most: "Tir en
# rafales : peut atteindre deux cibles", "Tir auto : Peut atteindre trois cibles".
BURST_REACH: Final = 2
FULL_AUTO_REACH: Final = 3


class Concentrate(StrEnum):
    BONUS = "bonus"  # +10 (BF) or +30 (FA) to the attack
    DAMAGE = "damage"  # +1d10 (BF) or +3d10 (FA) to the DV


@dataclass(frozen=True)
class Shot:
    """One attack roll of the volley: at ``target``, with ``modifiers``, ``extra_d10`` for
    attack.roll_damage."""

    target: Hashable
    modifiers: tuple[Modifier, ...]
    extra_d10: int = 0


@dataclass(frozen=True)
class Volley:
    """What one complex action of fire does: ``shots`` (each a separate roll), ``rounds``
    spent, the ``magazine`` after."""

    mode: FiringMode
    shots: tuple[Shot, ...]
    rounds: int
    magazine: Magazine


@dataclass(frozen=True)
class Burst:
    """One burst (BF, three rounds) or full-auto attack (ten): ``targets`` one (then
    ``concentrate`` may be chosen) or several within ``spread_m`` of each other
    (``spacing_m`` the gaps between consecutive targets)."""

    targets: tuple[Hashable, ...]
    spacing_m: tuple[float, ...] = ()
    concentrate: Concentrate | None = None


def _need_mode(weapon: Weapon, mode: FiringMode) -> None:
    if mode not in weapon.modes:
        raise FiringRefused("no_mode", weapon=weapon.name, mode=mode.value)


def _spend(magazine: Magazine, rounds: int) -> Magazine:
    if rounds > magazine.loaded:
        raise FiringRefused("rounds_needed_loaded", needed=rounds, loaded=magazine.loaded)
    return magazine.spend(rounds)


def _extra_targets(targets: Sequence[Hashable], free: int, params: EclipsePhaseParameters
                   ) -> list[tuple[Modifier, ...]]:
    """The extra-target modifiers of each attack, the first ``free`` distinct targets free."""
    seen: list[Hashable] = []
    out: list[tuple[Modifier, ...]] = []
    for t in targets:
        if t not in seen:
            seen.append(t)
        extra = max(0, seen.index(t) + 1 - free)
        out.append((modifier("multiple_targets", params, extra),) if extra else ())
    return out


def single_shot(weapon: Weapon, magazine: Magazine, target: Hashable) -> Volley:
    _need_mode(weapon, FiringMode.SS)
    return Volley(FiringMode.SS, (Shot(target, ()),), 1, _spend(magazine, 1))


def semi_auto(weapon: Weapon, magazine: Magazine, targets: Sequence[Hashable],
              params: EclipsePhaseParameters) -> Volley:
    """One or two shots (one round each); a second target takes -20."""
    _need_mode(weapon, FiringMode.SA)
    if not 1 <= len(targets) <= SEMI_AUTO_SHOTS:
        raise FiringRefused("semi_auto_fires", shots=len(targets))
    mods = _extra_targets(targets, 1, params)
    return Volley(FiringMode.SA, tuple(Shot(t, m) for t, m in zip(targets, mods)), len(targets),
                  _spend(magazine, len(targets)))


def _burst_shots(burst: Burst, params: EclipsePhaseParameters, *, reach: int, bonus: int, dice: int,
                 label: str) -> list[tuple[Hashable, tuple[Modifier, ...], int]]:
    n = len(burst.targets)
    if not 1 <= n <= reach:
        raise FiringRefused("reaches_1_targets", label=label, reach=reach, targets=n)
    if n > 1:
        if burst.concentrate is not None:
            raise FiringRefused("only_fire_one")
        if len(burst.spacing_m) != n - 1 or any(g > params.spread_m or g < 0
                                                for g in burst.spacing_m):
            raise FiringRefused("targets_stand_within", label=label, spread=params.spread_m,
                                spacing=list(burst.spacing_m))
        return [(t, (), 0) for t in burst.targets]
    if burst.concentrate is Concentrate.BONUS:
        return [(burst.targets[0], (Modifier(f"concentrated {label}", bonus, "firing_mode"),), 0)]
    if burst.concentrate is Concentrate.DAMAGE:
        return [(burst.targets[0], (), dice)]
    return [(burst.targets[0], (), 0)]


def burst_fire(weapon: Weapon, magazine: Magazine, bursts: Sequence[Burst],
               params: EclipsePhaseParameters) -> Volley:
    """One or two bursts (three rounds each). The second burst's new targets take -20 each."""
    _need_mode(weapon, FiringMode.BF)
    if not 1 <= len(bursts) <= BURSTS_PER_ACTION:
        raise FiringRefused("burst_fire_one", bursts=len(bursts))
    shots = []
    free = len(bursts[0].targets)
    for burst in bursts:
        shots += _burst_shots(burst, params, reach=BURST_REACH, bonus=params.burst_bonus,
                              dice=params.burst_dv_dice, label="burst")
    extra = _extra_targets([t for t, _, _ in shots], free, params)
    rounds = params.burst_rounds * len(bursts)
    return Volley(FiringMode.BF, tuple(Shot(t, m + x, d) for (t, m, d), x in zip(shots, extra)),
                  rounds, _spend(magazine, rounds))


def full_auto(weapon: Weapon, magazine: Magazine, burst: Burst, params: EclipsePhaseParameters
              ) -> Volley:
    """One full-auto attack (ten rounds) on up to three targets 1 m apart, or concentrated."""
    _need_mode(weapon, FiringMode.FA)
    shots = _burst_shots(burst, params, reach=FULL_AUTO_REACH, bonus=params.full_auto_bonus,
                         dice=params.full_auto_dv_dice, label="full auto")
    return Volley(FiringMode.FA, tuple(Shot(t, m, d) for t, m, d in shots),
                  params.full_auto_rounds, _spend(magazine, params.full_auto_rounds))


# --- suppressive fire ------------------------------------------------------------------------

@dataclass(frozen=True)
class SuppressiveZone:
    """The zone a suppressive fire covers until ``attacker``'s next action phase: ``origin``
    (x, y) in metres, ``heading`` the aim direction (any length), ``width_m``, ``depth_m``
    (the weapon's extreme range)."""

    attacker: Hashable
    origin: tuple[float, float]
    heading: tuple[float, float]
    width_m: float
    depth_m: float

    def covers(self, point: tuple[float, float]) -> bool:
        dx, dy = point[0] - self.origin[0], point[1] - self.origin[1]
        norm = math.hypot(*self.heading)
        ux, uy = self.heading[0] / norm, self.heading[1] / norm
        ahead = dx * ux + dy * uy
        aside = abs(-dx * uy + dy * ux)
        return 0 < ahead <= self.depth_m and aside <= self.width_m / 2


@dataclass(frozen=True)
class ZoneTarget:
    """Someone who may be in the zone: ``in_cover`` at the start of its action phase;
    ``full_defence`` declared."""

    who: Hashable
    position: tuple[float, float]
    in_cover: bool = False
    full_defence: bool = False


def suppressive_fire(weapon: Weapon, magazine: Magazine, attacker: Hashable, *,
                     origin: tuple[float, float], heading: tuple[float, float],
                     params: EclipsePhaseParameters) -> tuple[SuppressiveZone, Magazine]:
    """Open suppressive fire (a complex action, FA weapons): the zone and the magazine after 20
    rounds. Raises FiringRefused without FA, with a magazine under 20, or fewer loaded."""
    _need_mode(weapon, FiringMode.FA)
    need = params.suppressive_rounds
    if weapon.magazine < need:
        raise FiringRefused("suppressive_fire_needs", needed=need, name=weapon.name,
                            capacity=weapon.magazine)
    if heading == (0, 0):
        raise FiringRefused("aim_suppressive_fire")
    zone = SuppressiveZone(attacker, origin, heading, params.suppressive_width_m,
                           weapon.ranges[3])
    return zone, _spend(magazine, need)


def suppressive_attack(attacker: Combatant, defender: Combatant, weapon: Weapon,
                       rng: RandomSource, params: EclipsePhaseParameters) -> AttackResult:
    """The free attack on someone ``suppressed`` returns: "sans modificateur" (no situation,
    no range band malus), the attacker's wounds and traumas still counting; the target defends
    as usual (dodge / 2)."""
    return resolve_attack(attacker, defender, weapon, rng, params,
                          options=AttackOptions(range_band=RangeBand.SHORT))


def suppressed(zone: SuppressiveZone, targets: Sequence[ZoneTarget],
               params: EclipsePhaseParameters) -> tuple[Hashable, ...]:
    """Who takes a free attack (no modifier but the attacker's wounds): in the zone, not in
    cover, not in full defence (``suppressive_spares_full_defence``)."""
    return tuple(t.who for t in targets
                 if t.who != zone.attacker and zone.covers(t.position) and not t.in_cover
                 and not (t.full_defence and params.suppressive_spares_full_defence))


# --- beams, blind and indirect fire -----------------------------------------------------------

def _beam_mode(weapon: Weapon, mode: FiringMode, what: str) -> None:
    if not weapon.beam:
        raise ManoeuvreRefused("only_beam_weapon", what=what, weapon=weapon.name)
    if mode not in (FiringMode.SA, FiringMode.BF):
        raise ManoeuvreRefused("beam_sa_bf", what=what, mode=mode.value)


def sweep_modifier(weapon: Weapon, mode: FiringMode, first_hit: bool,
                   params: EclipsePhaseParameters) -> Modifier:
    """The beam sweep: +20 to the second attack after the first missed."""
    _beam_mode(weapon, mode, "sweep")
    if first_hit:
        raise ManoeuvreRefused("sweep_follows_missed")
    return modifier("beam_sweep", params)


def check_concentration(weapon: Weapon, mode: FiringMode, first_hit: bool) -> None:
    """A beam concentrates (x2 DV, the second attack given up) only after a first hit: then
    pass ``concentrate=True`` to attack.roll_damage."""
    _beam_mode(weapon, mode, "concentrate")
    if not first_hit:
        raise ManoeuvreRefused("concentration_follows_successful")


def blind_fire_modifier(perception: SkillTest, params: EclipsePhaseParameters) -> Modifier:
    """-30, after a successful perception test. Raises ManoeuvreRefused after a failed one."""
    if not perception.success:
        raise ManoeuvreRefused("blind_fire_needs")
    return modifier("blind", params)


def indirect_fire_modifiers(weapon: Weapon, *, spotter: bool, params: EclipsePhaseParameters
                            ) -> tuple[Modifier, ...]:
    """-30 with a spotter; none with a homing weapon. Raises ManoeuvreRefused without one."""
    if not spotter:
        raise ManoeuvreRefused("indirect_fire_needs")
    return () if weapon.homing else (modifier("indirect", params),)


def reload(magazine: Magazine) -> Magazine:
    """A complex action (``RELOAD_ACTION``): a full magazine from the spares."""
    return magazine.reload()
