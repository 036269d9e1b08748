"""Homebrew d100 parameters: the seed's numbers and our choices, each replaceable per campaign.

Source: 002_80873c4f1892db54.txt. docs/rules/homebrew-d100.md cites the seed for each and
prints this table (tests keep them in step). ``LABELS`` names each for people; ``conflicts``
says which combinations leave no character possible.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from gamerules.errors import gettext_noop as N_
from gamerules.homebrew.errors import HomebrewParameterConflict
from gamerules.parameters import RuleParameters, param

D = Decimal

MAIN_COUNT = 3  # Physique, Perception, Mental (gamerules.homebrew.characteristics.MAINS)

# What people read for each parameter (the admin translates them).
LABELS: dict[str, str] = {
    "characteristic_points": N_("Characteristic points at creation"),
    "spend_all_points": N_("Spend every point at creation"),
    "characteristic_min": N_("Lowest main characteristic"),
    "characteristic_max": N_("Highest main characteristic"),
    "sub_max": N_("Highest sub-characteristic"),
    "starting_gear_picks": N_("Starting weapons and spells"),
    "hp_max_default": N_("Maximum HP of a new character"),
    "mp_max_default": N_("Maximum MP of a new character"),
    "hp_per_missing_mp": N_("HP per missing MP"),
    "enemies_die_at_zero": N_("Enemies die at 0 HP"),
    "badly_wounded_percent": N_("Badly wounded from (percent of max HP lost)"),
    "sub_test_sides": N_("Sides of the sub-characteristic die"),
    "critical_success_max": N_("Critical success up to"),
    "critical_failure_min": N_("Critical failure from"),
    "assist_bonus_d100": N_("Assist bonus on a d100 test"),
    "assist_bonus_sub": N_("Assist bonus on a sub-characteristic test"),
    "crit_multiplier_d2": N_("Critical multiplier of 1d2"),
    "crit_multiplier_d3": N_("Critical multiplier of 1d3"),
    "crit_multiplier_d4": N_("Critical multiplier of 1d4"),
    "crit_multiplier_d5_d6": N_("Critical multiplier of 1d5-1d6"),
    "crit_multiplier_d7_d8": N_("Critical multiplier of 1d7-1d8"),
    "crit_multiplier_d9_d10": N_("Critical multiplier of 1d9-1d10"),
    "crit_multiplier_d11_up": N_("Critical multiplier of 1d11 and up"),
    "defensive_round_up": N_("Defensive posture rounds the die up"),
    "short_rest_hp": N_("HP of a short rest"),
    "short_rest_mp": N_("MP of a short rest"),
    "medium_rest_hp": N_("HP of a medium rest"),
    "medium_rest_mp": N_("MP of a medium rest"),
    "reaction_timeout_seconds": N_("Time to answer a reaction (seconds)"),
}

# The parameters by rule chapter (the admin's fieldsets; docs/rules/homebrew-d100.md).
GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (N_("Characteristics and creation"), ("characteristic_points", "spend_all_points",
                                          "characteristic_min", "characteristic_max", "sub_max",
                                          "starting_gear_picks")),
    (N_("Health and magic"), ("hp_max_default", "mp_max_default", "hp_per_missing_mp",
                              "enemies_die_at_zero", "badly_wounded_percent")),
    (N_("Tests and criticals"), ("sub_test_sides", "critical_success_max", "critical_failure_min",
                                 "assist_bonus_d100", "assist_bonus_sub")),
    (N_("Critical multipliers"), ("crit_multiplier_d2", "crit_multiplier_d3", "crit_multiplier_d4",
                                  "crit_multiplier_d5_d6", "crit_multiplier_d7_d8",
                                  "crit_multiplier_d9_d10", "crit_multiplier_d11_up")),
    (N_("Postures and reactions"), ("defensive_round_up", "reaction_timeout_seconds")),
    (N_("Rests"), ("short_rest_hp", "short_rest_mp", "medium_rest_hp", "medium_rest_mp")),
)


@dataclass(frozen=True)
class HomebrewParameters(RuleParameters):
    labels = LABELS
    groups = GROUPS

    # Characteristics (seed: "Caractéristiques").
    characteristic_points: int = param(170, 3, 300, N_("Points shared between Physique, Perception "
                                                    "and Mental at creation (seed: 170)."))
    spend_all_points: bool = param(True, False, True, N_("Creation must spend every characteristic "
                                                      "point (otherwise at most that many)."))
    characteristic_min: int = param(0, 0, 100, N_("Lowest value of a main characteristic."))
    characteristic_max: int = param(100, 1, 100, N_("Highest value of a main characteristic (a %)."))
    sub_max: int = param(6, 0, 20, N_("Highest value of a sub-characteristic (seed: 6)."))
    # Starting gear (the seed says nothing: our choice, docs/rules/homebrew-d100.md).
    starting_gear_picks: int = param(2, 0, 20, N_("Weapons and spells a player picks at creation "
                                                  "among those the GM offers (at most)."))
    # Health and magic (seed: "Santé", "Magie"; the seed gives no maxima).
    hp_max_default: int = param(20, 1, 1000, N_("Maximum HP of a new character (GM-set per "
                                             "character afterwards)."))
    mp_max_default: int = param(10, 0, 1000, N_("Maximum MP of a new character (GM-set per "
                                             "character afterwards)."))
    hp_per_missing_mp: int = param(1, 0, 10, N_("HP spent per MP missing when casting without "
                                             "enough MP."))
    enemies_die_at_zero: bool = param(True, False, True, N_("Enemies die at 0 HP unless the GM marks "
                                                         "one as an exception."))
    badly_wounded_percent: int = param(50, 1, 100, N_("An enemy shown in words reads 'badly "
                                       "wounded' from this share of its max HP lost."))
    # Tests (seed: "Caractéristiques", "Actions", "Critiques").
    sub_test_sides: int = param(6, 2, 100, N_("Die of a sub-characteristic test (seed: 1d6)."))
    critical_success_max: int = param(5, 0, 50, N_("A d100 test rolling this or less is a critical "
                                                "success (seed: 1-5)."))
    critical_failure_min: int = param(96, 51, 101, N_("A d100 test rolling this or more is a critical "
                                                   "failure (seed: 96-100; 101: none)."))
    assist_bonus_d100: int = param(10, 0, 100, N_("Suggested bonus of an assist on a d100 test."))
    assist_bonus_sub: int = param(1, 0, 6, N_("Suggested bonus of an assist on a sub test."))
    # Critical multipliers (seed: "Multiplicateurs"; beyond 1d3-1d8 our extension).
    crit_multiplier_d2: Decimal = param(D("6"), D("1"), D("20"), N_("Critical multiplier of a 1d2 "
                                                                 "(extension)."))
    crit_multiplier_d3: Decimal = param(D("4"), D("1"), D("20"), N_("Critical multiplier of a 1d3 "
                                                                 "(seed: x4)."))
    crit_multiplier_d4: Decimal = param(D("3"), D("1"), D("20"), N_("Critical multiplier of a 1d4 "
                                                                 "(seed: x3)."))
    crit_multiplier_d5_d6: Decimal = param(D("1.75"), D("1"), D("20"), N_("Critical multiplier of "
                                                                       "1d5-1d6 (seed: x1.75)."))
    crit_multiplier_d7_d8: Decimal = param(D("1.5"), D("1"), D("20"), N_("Critical multiplier of "
                                                                      "1d7-1d8 (seed: x1.5)."))
    crit_multiplier_d9_d10: Decimal = param(D("1.25"), D("1"), D("20"), N_("Critical multiplier of "
                                                                        "1d9-1d10 (extension)."))
    crit_multiplier_d11_up: Decimal = param(D("1"), D("1"), D("20"), N_("Critical multiplier of 1d11 "
                                                                     "and larger (extension)."))
    # Postures (seed: "Défensive").
    defensive_round_up: bool = param(True, False, True, N_("Defensive posture halves the damage die's "
                                                        "sides rounding up (1d5 -> 1d3); off: "
                                                        "down (1d5 -> 1d2)."))
    # Rests (seed: "Repos").
    short_rest_hp: int = param(2, 0, 1000, N_("HP restored by a short rest (about 2 h)."))
    short_rest_mp: int = param(1, 0, 1000, N_("MP restored by a short rest (about 2 h)."))
    medium_rest_hp: int = param(5, 0, 1000, N_("HP restored by a medium rest (about 4 h)."))
    medium_rest_mp: int = param(3, 0, 1000, N_("MP restored by a medium rest (about 4 h)."))
    # Reactions in the encounter (seed silent on the wait; our choice).
    reaction_timeout_seconds: int = param(30, 5, 3600, N_("Seconds a prompted parry or dodge waits "
                                                       "for its answer before it defaults to no "
                                                       "reaction (new encounters)."))

    def conflicts(self) -> list[HomebrewParameterConflict]:
        """No character could be created: the lowest main characteristic above the highest, or a
        creation budget the three mains within [characteristic_min, characteristic_max] cannot
        spend (all of it with ``spend_all_points``; at least their minima otherwise)."""
        low, high, points = self.characteristic_min, self.characteristic_max, \
            self.characteristic_points
        if low > high:
            return [HomebrewParameterConflict("min_above_max",
                                              names=("characteristic_min", "characteristic_max"),
                                              low=low, high=high)]
        found = []
        if points < MAIN_COUNT * low:
            found.append(HomebrewParameterConflict(
                "points_below_minima", names=("characteristic_points", "characteristic_min"),
                points=points, low=low, least=MAIN_COUNT * low))
        if self.spend_all_points and points > MAIN_COUNT * high:
            found.append(HomebrewParameterConflict(
                "points_above_maxima",
                names=("characteristic_points", "characteristic_max", "spend_all_points"),
                points=points, high=high, most=MAIN_COUNT * high))
        return found
