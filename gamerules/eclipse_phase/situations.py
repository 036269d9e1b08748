"""The seed's three tables of combat modifiers, as data.

Source: 001_e6266c120d4801b4.txt, "Modificateurs de Combat généraux", "Mêlée", "A distance"
(each row's ``seed`` is the seed's own words). A row whose number is also a campaign parameter
names it (``param``) and takes the campaign's value. ``applies`` says which attacks it may be
chosen for ("any", "melee", "ranged"); ``side`` whose test it changes ("attack" or "defence");
rows of one ``group`` exclude each other (one cover, one range band, one aim...); ``per`` rows
count ("-10 par blessure", "-20 par cible supplémentaire"); ``automatic`` rows are applied by the
rules themselves (wounds and traumas, range bands from the distance) rather than picked.

``modifiers_for`` turns a choice {code: count} into Modifiers (label = the row's English label,
source = "situation:<code>") for the log; it refuses unknown codes, rows for the other kind of
attack and two rows of one group.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from gamerules.eclipse_phase.errors import InvalidModifier
from gamerules.errors import gettext_noop as N_
from gamerules.eclipse_phase.params import EclipsePhaseParameters
from gamerules.modifiers import Modifier

Applies = Literal["any", "melee", "ranged"]
Table = Literal["general", "melee", "ranged", "damage"]


@dataclass(frozen=True)
class Situation:
    code: str
    table: Table
    label: str
    seed: str
    value: int
    applies: Applies = "any"
    side: Literal["attack", "defence"] = "attack"
    group: str = ""
    param: str = ""
    per: str = ""
    automatic: bool = False

    def value_for(self, params: EclipsePhaseParameters) -> int:
        """The row's value with the campaign's parameter (its sign kept)."""
        if not self.param:
            return self.value
        magnitude = int(getattr(params, self.param))
        return magnitude if self.value >= 0 else -magnitude


S = Situation
SITUATIONS: tuple[Situation, ...] = (
    # Modificateurs de Combat généraux
    S("off_hand", "general", N_("off hand"), "Mauvaise main : -20", -20, param="off_hand_malus"),
    S("wounded", "general", N_("per wound or trauma"), "Personnage blessé/traumatisé : -10 par "
      "blessure/trauma", -10, per="wound or trauma", param="wound_malus", automatic=True),
    S("superior_position", "general", N_("superior position"), "Position supérieure : +20", 20),
    S("touch", "general", N_("touch attack"), "Attaque de contact : +20", 20, applies="melee",
      param="touch_bonus", automatic=True),
    S("called_shot", "general", N_("called shot"), "Coup amélioré : -10", -10,
      param="called_shot_malus", automatic=True),
    S("two_handed_one_hand", "general", N_("two-handed weapon in one hand"),
      "Arme à deux mains dans une seule main : -20", -20, param="two_handed_one_hand_malus", automatic=True),
    S("small_target", "general", N_("small target"), "Petite cible (taille enfant) : -10", -10,
      group="size"),
    S("very_small_target", "general", N_("very small target"),
      "Très petite cible (souris, insecte) : -30", -30, group="size"),
    S("large_target", "general", N_("large target"), "Grande cible (voiture) : +10", 10, group="size"),
    S("very_large_target", "general", N_("very large target"), "Très grande cible (bâtiment) : +30",
      30, group="size"),
    S("visibility_minor", "general", N_("poor visibility (minor)"),
      "Manque de visibilité (mineur, brouillard, fumée) : -10", -10, group="visibility"),
    S("visibility_major", "general", N_("poor visibility (major)"),
      "Manque de visibilité (majeur, fumée épaisse, obscurité) : -20", -20, group="visibility"),
    S("blind", "general", N_("blind attack"), "Attaque en aveugle : -30", -30, group="visibility",
      param="blind_fire_malus"),
    # Mêlée
    S("reach", "melee", N_("reach advantage"), "Avantage de portée : +10", 10, applies="melee"),
    S("charging", "melee", N_("charging"), "Charge : -10", -10, applies="melee", param="charge_malus",
      automatic=True),
    S("receiving_charge", "melee", N_("receiving a charge"), "En réception de charge : +20", 20,
      applies="melee", side="defence", param="receive_charge_bonus", automatic=True),
    # A distance
    S("smartlink", "ranged", N_("smartlink or laser sight"), "Smartlink ou visée laser : +10", 10,
      applies="ranged"),
    S("attacker_in_cover", "ranged", N_("attacker in cover"), "Attaquant à couvert : -10", -10,
      applies="ranged"),
    S("attacker_running", "ranged", N_("attacker running"), "Attaquant en course : -20", -20,
      applies="ranged"),
    S("attacker_in_melee", "ranged", N_("attacker in melee"), "Attaquant en mêlée : -30", -30,
      applies="ranged"),
    S("target_cover_minor", "ranged", N_("target in minor cover"), "Cible à couvert mineur : -10", -10,
      applies="ranged", group="cover"),
    S("target_cover_moderate", "ranged", N_("target in moderate cover"),
      "Cible à couvert modéré : -20", -20, applies="ranged", group="cover"),
    S("target_cover_major", "ranged", N_("target in major cover"), "Cible à couvert majeur : -30", -30,
      applies="ranged", group="cover"),
    S("target_prone_far", "ranged", N_("target prone and far (10 m+)"),
      "Cible accroupie et lointaine (10m+) : -10", -10, applies="ranged"),
    S("target_hidden", "ranged", N_("target hidden"), "Cible cachée : -60", -60, applies="ranged"),
    S("aim_quick", "ranged", N_("aimed (quick)"), "Tir visé (rapide) : +10", 10, applies="ranged",
      group="aim", param="aim_quick_bonus"),
    S("aim_complex", "ranged", N_("aimed (complex)"), "Tir visé (complexe) : +30", 30,
      applies="ranged", group="aim", param="aim_complex_bonus"),
    S("beam_sweep", "ranged", N_("beam sweep (second shot)"),
      "Tir de balayage avec arme à rayon : +10 au deuxième tir", 10, applies="ranged",
      param="beam_sweep_bonus", automatic=True),
    S("multiple_targets", "ranged", N_("per extra target"),
      "Cibles multiples dans la même phase d'action : -20 par cible supplémentaire", -20,
      applies="ranged", per="extra target", param="semi_auto_second_target_malus", automatic=True),
    S("indirect", "ranged", N_("indirect fire"), "Tir indirect : -30", -30, applies="ranged",
      param="indirect_fire_malus", automatic=True),
    S("point_blank", "ranged", N_("point blank (under 2 m)"), "Tir à bout-portant (-2m) : +10", 10,
      applies="ranged", group="range", automatic=True),
    S("short_range", "ranged", N_("short range"), "Portée courte : NA", 0, applies="ranged",
      group="range", automatic=True),
    S("medium_range", "ranged", N_("medium range"), "Portée moyenne : -10", -10, applies="ranged",
      group="range", automatic=True),
    S("long_range", "ranged", N_("long range"), "Portée longue : -20", -20, applies="ranged",
      group="range", automatic=True),
    S("extreme_range", "ranged", N_("extreme range"), "Portée extrême : -30", -30, applies="ranged",
      group="range", automatic=True),
    # "Dommages" (not in the tables, a modifier all the same)
    S("target_knocked_down", "damage", N_("target knocked down"),
      "projeté au sol (+10 aux attaques des adversaires", 10,
      param="knocked_down_attack_bonus", automatic=True),
)

BY_CODE: dict[str, Situation] = {s.code: s for s in SITUATIONS}


def situation(code: str) -> Situation:
    try:
        return BY_CODE[code]
    except KeyError:
        raise InvalidModifier("unknown_combat_modifier", modifier=code) from None


def modifier(code: str, params: EclipsePhaseParameters, count: int = 1) -> Modifier:
    """The Modifier of one row (x ``count`` for a ``per`` row)."""
    row = situation(code)
    if count < 1 or (count > 1 and not row.per):
        raise InvalidModifier("counted_once", modifier=code, count=count)
    label = f"{row.label} (x{count})" if row.per else row.label
    return Modifier(label, row.value_for(params) * count, f"situation:{code}")


def modifiers_for(choice: Mapping[str, int], *, attack: Literal["melee", "ranged"],
                  side: Literal["attack", "defence"], params: EclipsePhaseParameters
                  ) -> tuple[Modifier, ...]:
    """The Modifiers of the rows chosen ({code: count}, count 1 for a plain row) for this kind
    of attack and this side. Raises InvalidModifier for an unknown code, an automatic row, a
    row of the other kind of attack or side, or two rows of one group."""
    groups: dict[str, str] = {}
    mods = []
    for code, count in choice.items():
        row = situation(code)
        if row.automatic:
            raise InvalidModifier("follows_from_sheet", modifier=code)
        if row.applies not in ("any", attack):
            raise InvalidModifier("applies_attacks_only", modifier=code, applies=row.applies)
        if row.side != side:
            raise InvalidModifier("modifies", modifier=code, side=row.side)
        if row.group:
            if row.group in groups:
                raise InvalidModifier("exclude_each_other", modifier=code, other=groups[row.group])
            groups[row.group] = code
        mods.append(modifier(code, params, count))
    return tuple(mods)
