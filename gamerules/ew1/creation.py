"""Character creation: steered rerolls and the 5-point redistribution.

Source: 000_afeb9d2c9ccd2b72.txt, "Distribution des caracs": weak characteristics are rerolled,
"un écart type est appliqué pour équilibrer le jeu", the band widens with each reroll and rerolls
are limited per minute; then up to 5 points move between characteristics, at most 2 added to or
taken from any one.

Our reading (docs/rules/eternal-war-one-ii.md, "Creation"): a roll set (the six characteristics)
is accepted when the sum of the six lies within mean ± k standard deviations of that sum, with
exact moments from icepool. Sets outside the band are thrown again at once (steering); the first
roll uses k = ``creation_band_sd``, each reroll widens it by ``creation_band_step``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from collections.abc import Mapping

from gamerules.dice import DiceRoll, RandomSource
from gamerules.errors import RuleError
from gamerules.ew1.errors import MESSAGES
from gamerules.ew1.characteristics import CODES, CREATION_DICE, roll_characteristics
from gamerules.probability import mean, variance

MAX_STEERING_ATTEMPTS = 1000


class RedistributionError(RuleError):
    code = "invalid_redistribution"
    messages = MESSAGES


@lru_cache(maxsize=1)
def sum_moments() -> tuple[float, float]:
    """Exact mean and standard deviation of FOR+DEF+TAI+INT+DEX+LUK at creation (68, ~6.83)."""
    m = sum(mean(e) for e in CREATION_DICE.values())
    v = sum(variance(e) for e in CREATION_DICE.values())  # the six rolls are independent
    return float(m), math.sqrt(v)


def band(reroll: int, *, band_sd: Decimal, band_step: Decimal) -> tuple[float, float, float]:
    """(k, low, high): the accepted interval of the characteristics' sum for roll number
    ``reroll`` (0 for the first roll)."""
    k = float(band_sd + band_step * reroll)
    m, sd = sum_moments()
    return k, m - k * sd, m + k * sd


@dataclass(frozen=True)
class SteeredRoll:
    rolls: dict[str, DiceRoll]  # the accepted set, by characteristic code
    k: float
    low: float
    high: float
    attempts: int  # sets thrown, the accepted one included

    @property
    def values(self) -> dict[str, int]:
        return {code: r.total for code, r in self.rolls.items()}

    @property
    def total(self) -> int:
        return sum(self.values.values())


def steered_roll(rng: RandomSource, *, reroll: int, band_sd: Decimal, band_step: Decimal
                 ) -> SteeredRoll:
    """Throw characteristic sets until the sum falls in the band of roll number ``reroll``.
    Never loops forever: after MAX_STEERING_ATTEMPTS the last set is kept (probability below
    1e-100 with a 1-sd band)."""
    k, low, high = band(reroll, band_sd=band_sd, band_step=band_step)
    for attempt in range(1, MAX_STEERING_ATTEMPTS + 1):
        rolled = roll_characteristics(rng)
        total = sum(rolled.values.values())
        if low <= total <= high:
            break
    return SteeredRoll(rolled.rolls, k, low, high, attempt)


def validate_redistribution(values: Mapping[str, int], deltas: Mapping[str, int], *,
                            total_max: int, per_characteristic_max: int) -> dict[str, int]:
    """The characteristics after moving points by ``deltas`` (code -> signed points).

    Points are moved, not created: the deltas sum to 0; at most ``total_max`` (5) points move
    (the sum of the positive deltas); no characteristic changes by more than
    ``per_characteristic_max`` (2); none falls below 1. Raises RedistributionError.
    """
    unknown = set(deltas) - set(CODES)
    if unknown:
        raise RedistributionError("unknown_characteristics", unknown=", ".join(sorted(unknown)))
    if any(not isinstance(d, int) or isinstance(d, bool) for d in deltas.values()):
        raise RedistributionError("points_are_whole")
    if sum(deltas.values()) != 0:
        raise RedistributionError("points_are_moved")
    moved = sum(d for d in deltas.values() if d > 0)
    if moved > total_max:
        raise RedistributionError("most_points_moved", total_max=total_max, moved=moved)
    too_far = [c for c, d in deltas.items() if abs(d) > per_characteristic_max]
    if too_far:
        raise RedistributionError("most_points_added",
                                  per_characteristic_max=per_characteristic_max,
                                  too_far=", ".join(sorted(too_far)))
    result = {code: values[code] + deltas.get(code, 0) for code in CODES}
    if any(v < 1 for v in result.values()):
        raise RedistributionError("characteristic_cannot_fall")
    return result
