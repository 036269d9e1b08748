"""Characters and weapons for the Eclipse Phase rule tests."""

from gamerules.eclipse_phase.attack import Combatant
from gamerules.eclipse_phase.gear import BlastKind, DamageType, FiringMode, Weapon
from gamerules.eclipse_phase.params import EclipsePhaseParameters
from gamerules.eclipse_phase.sheet import Aptitude, Character, Ego, Morph, MorphKind, ranks_for

P = EclipsePhaseParameters()


def ego(name="Mira", skills=None, **aptitudes):
    """``skills`` as ratings under the ego's own aptitudes (stored as the ranks they mean)."""
    values = {a: 15 for a in Aptitude}
    values.update({Aptitude(k): v for k, v in aptitudes.items()})
    return Ego(name, values, ranks_for(skills or {}, values))


def character(skills=None, morph=None, worn=(), **aptitudes):
    return Character(ego(skills=skills, **aptitudes), morph or Morph("splicer"), worn)


SPLICER = Morph("splicer", durability=30)  # WT 6, DR 45
SYNTH = Morph("case", MorphKind.SYNTHMORPH, durability=30, armour_energy=4, armour_kinetic=4)
POD = Morph("pleasure pod", MorphKind.POD, durability=30)

PISTOL = Weapon("medium pistol", "kinetic_weapons", "1d10+2", ap=1,
                modes=frozenset({FiringMode.SS, FiringMode.SA}), magazine=12,
                ranges=(10, 30, 50, 100))
RIFLE = Weapon("assault rifle", "kinetic_weapons", "2d10", ap=3,
               modes=frozenset({FiringMode.SA, FiringMode.BF, FiringMode.FA}), magazine=40,
               ranges=(30, 100, 200, 500))
SMG = Weapon("machine pistol", "kinetic_weapons", "1d10+2", modes=frozenset({FiringMode.FA}),
             magazine=15, ranges=(10, 30, 50, 100))
LASER = Weapon("laser pulser", "beam_weapons", "2d10", ap=2, damage_type=DamageType.ENERGY,
               modes=frozenset({FiringMode.SA, FiringMode.BF}), magazine=50, beam=True,
               ranges=(30, 80, 125, 300))
KNIFE = Weapon("knife", "blades", "1d10", ap=1, melee=True)
SHOCK = Weapon("shock glove", "unarmed_combat", "1d10", melee=True, touch=True)
SWORD = Weapon("claymore", "blades", "2d10", ap=2, melee=True, two_handed=True)
PSI = Weapon("psi assault", "psi_assault", "1d10", damage_type=DamageType.PSI, melee=True)
GRENADE = Weapon("frag grenade", "throwing_weapons", "3d10+6", blast=BlastKind.BLAST,
                 ranges=(10, 20, 30, 40))
SHOCKWAVE = Weapon("concussion", "throwing_weapons", "2d10", blast=BlastKind.UNIFORM,
                   blast_radius_m=5, ranges=(10, 20, 30, 40))
SHREDDER = Weapon("shredder", "spray_weapons", "2d10", blast=BlastKind.CONE,
                  modes=frozenset({FiringMode.SA}), ranges=(10, 30, 50, 70))
MISSILE = Weapon("minimissile", "seeker_weapons", "2d10+4", homing=True,
                 modes=frozenset({FiringMode.SS}), magazine=6, ranges=(50, 100, 300, 500))


SKILLS = {"kinetic_weapons": 60, "blades": 60, "fray": 50, "unarmed_combat": 45,
          "beam_weapons": 60, "psi_assault": 60}
SHOOTER = Combatant(character(skills=SKILLS, SOM=20))
TARGET = Combatant(character(skills=SKILLS, SOM=20, WIL=15))
