"""Homebrew d100 parameters: the seed's numbers and our choices, each replaceable per campaign.

Source: 002_80873c4f1892db54.txt. docs/rules/homebrew-d100.md cites the seed for each and
prints this table (tests keep them in step).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from gamerules.parameters import RuleParameters, param

D = Decimal


@dataclass(frozen=True)
class HomebrewParameters(RuleParameters):
    # Characteristics (seed: "Caractéristiques").
    characteristic_points: int = param(170, 3, 300, "Points shared between Physique, Perception "
                                                    "and Mental at creation (seed: 170).")
    spend_all_points: bool = param(True, False, True, "Creation must spend every characteristic "
                                                      "point (otherwise at most that many).")
    characteristic_min: int = param(0, 0, 100, "Lowest value of a main characteristic.")
    characteristic_max: int = param(100, 1, 100, "Highest value of a main characteristic (a %).")
    sub_max: int = param(6, 0, 20, "Highest value of a sub-characteristic (seed: 6).")
    # Health and magic (seed: "Santé", "Magie"; the seed gives no maxima).
    hp_max_default: int = param(20, 1, 1000, "Maximum HP of a new character (GM-set per "
                                             "character afterwards).")
    mp_max_default: int = param(10, 0, 1000, "Maximum MP of a new character (GM-set per "
                                             "character afterwards).")
    hp_per_missing_mp: int = param(1, 0, 10, "HP spent per MP missing when casting without "
                                             "enough MP.")
    enemies_die_at_zero: bool = param(True, False, True, "Enemies die at 0 HP unless the GM marks "
                                                         "one as an exception.")
    # Tests (seed: "Caractéristiques", "Actions", "Critiques").
    sub_test_sides: int = param(6, 2, 100, "Die of a sub-characteristic test (seed: 1d6).")
    critical_success_max: int = param(5, 0, 50, "A d100 test rolling this or less is a critical "
                                                "success (seed: 1-5).")
    critical_failure_min: int = param(96, 51, 101, "A d100 test rolling this or more is a critical "
                                                   "failure (seed: 96-100; 101: none).")
    assist_bonus_d100: int = param(10, 0, 100, "Suggested bonus of an assist on a d100 test.")
    assist_bonus_sub: int = param(1, 0, 6, "Suggested bonus of an assist on a sub test.")
    # Critical multipliers (seed: "Multiplicateurs"; beyond 1d3-1d8 our extension).
    crit_multiplier_d2: Decimal = param(D("6"), D("1"), D("20"), "Critical multiplier of a 1d2 "
                                                                 "(extension).")
    crit_multiplier_d3: Decimal = param(D("4"), D("1"), D("20"), "Critical multiplier of a 1d3 "
                                                                 "(seed: x4).")
    crit_multiplier_d4: Decimal = param(D("3"), D("1"), D("20"), "Critical multiplier of a 1d4 "
                                                                 "(seed: x3).")
    crit_multiplier_d5_d6: Decimal = param(D("1.75"), D("1"), D("20"), "Critical multiplier of "
                                                                       "1d5-1d6 (seed: x1.75).")
    crit_multiplier_d7_d8: Decimal = param(D("1.5"), D("1"), D("20"), "Critical multiplier of "
                                                                      "1d7-1d8 (seed: x1.5).")
    crit_multiplier_d9_d10: Decimal = param(D("1.25"), D("1"), D("20"), "Critical multiplier of "
                                                                        "1d9-1d10 (extension).")
    crit_multiplier_d11_up: Decimal = param(D("1"), D("1"), D("20"), "Critical multiplier of 1d11 "
                                                                     "and larger (extension).")
    # Postures (seed: "Défensive").
    defensive_round_up: bool = param(True, False, True, "Defensive posture halves the damage die's "
                                                        "sides rounding up (1d5 -> 1d3); off: "
                                                        "down (1d5 -> 1d2).")
    # Rests (seed: "Repos").
    short_rest_hp: int = param(2, 0, 1000, "HP restored by a short rest (about 2 h).")
    short_rest_mp: int = param(1, 0, 1000, "MP restored by a short rest (about 2 h).")
    medium_rest_hp: int = param(5, 0, 1000, "HP restored by a medium rest (about 4 h).")
    medium_rest_mp: int = param(3, 0, 1000, "MP restored by a medium rest (about 4 h).")
    # Reactions in the encounter (seed silent on the wait; our choice).
    reaction_timeout_seconds: int = param(30, 5, 3600, "Seconds a prompted parry or dodge waits "
                                                       "for its answer before it defaults to no "
                                                       "reaction (new encounters).")
