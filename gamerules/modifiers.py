"""One modifier type for every system: a signed number added to a test's target or a result.

``label`` is what the player reads ("faction (3 allies)", "difficulty", "assist: Mira");
``source`` names where it comes from, a short stable key for statistics ("faction", "gm",
"assist", "item FOR"). Eternal War One II's labels already name their source, so ``source``
defaults to the label.
"""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Iterable


@dataclass(frozen=True)
class Modifier:
    label: str
    value: int
    source: str = ""

    def __post_init__(self) -> None:
        if not self.source:
            object.__setattr__(self, "source", self.label)

    def as_record(self) -> dict[str, str | int]:
        """The JSON the journal stores: {"label", "value", "source"}."""
        return {"label": self.label, "value": self.value, "source": self.source}


def total(modifiers: Iterable[Modifier]) -> int:
    """The sum of the modifiers' values (0 for none)."""
    return sum(m.value for m in modifiers)
