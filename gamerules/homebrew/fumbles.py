"""Critical failures: the effect the GM picks from a list, or writes.

Source: 002_80873c4f1892db54.txt, "Critiques": "de 96 à 100, correspondent à un échec
critique, ce qui pourra se traduire par un échec ridicule de l'action, et/ou dangereux avec un
éventuel effet négatif en malus". The list is ours (docs/rules/homebrew-d100.md, "Critical
failures"); the GM applies it, the journal records it.
"""

from __future__ import annotations

from dataclasses import dataclass

from gamerules.homebrew.errors import HomebrewError

CUSTOM = "custom"


@dataclass(frozen=True)
class FumbleEffect:
    """``malus`` is added to the fumbler's next test (0 for none); ``text`` the GM's words."""

    code: str
    label: str
    malus: int = 0
    text: str = ""


FUMBLE_EFFECTS: tuple[FumbleEffect, ...] = (
    FumbleEffect("ridiculous", "Échec ridicule (no other effect)"),
    FumbleEffect("off_balance", "Déséquilibré: -10 to the next test", malus=-10),
    FumbleEffect("drop_weapon", "Arme lâchée: a short action to pick it up"),
    FumbleEffect("exposed", "À découvert: no parry or dodge until the next turn"),
    FumbleEffect("lose_next_action", "Perd sa prochaine action"),
    FumbleEffect("self_hit", "Se blesse: takes the weapon's damage die"),
    FumbleEffect("hit_ally", "Touche un allié proche: the weapon's damage die to an ally"),
)
FUMBLES_BY_CODE = {f.code: f for f in FUMBLE_EFFECTS}


class FumbleError(HomebrewError):
    code = "invalid_fumble_effect"


def choose_fumble(code: str | None = None, *, text: str = "", malus: int = 0) -> FumbleEffect:
    """The GM's pick: a listed ``code``, or ``text`` of their own (``code`` None or "custom")
    with an optional ``malus`` (<= 0). Raises FumbleError for an unknown code, an empty custom
    text or a positive malus."""
    if malus > 0:
        raise FumbleError(code="fumble_bonus")
    if code is not None and code != CUSTOM:
        effect = FUMBLES_BY_CODE.get(code)
        if effect is None:
            raise FumbleError(code="unknown_fumble_effect", effect=code)
        return FumbleEffect(effect.code, effect.label, malus or effect.malus, text.strip())
    if not text.strip():
        raise FumbleError(code="fumble_effect_required")
    return FumbleEffect(CUSTOM, text.strip(), malus, text.strip())
