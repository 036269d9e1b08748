"""Eclipse Phase on the shared encounter: the first edition's initiative and SPD turns a round.

Source: 001_e6266c120d4801b4.txt, "Actions": "Chaque personnage a droit à un nombre de phases
d'action égal à sa caractéristique de VITesse"; the initiative is the first edition's
(ECLIPSE-PHASE-NOTES.md): 1d10 + ceil((INT + REF) / 5) + the morph's bonus - 1 per wound and
per trauma (gamerules.eclipse_phase.turn.roll_initiative), ties to the higher REF. The
encounter's clock plays a combatant with ``turns_per_round`` n in phases (phase k: everyone with
more than k turns, in order), which is Eclipse Phase's action phases, so turns a round = SPD
(capped by the campaign's ``speed_max``). A rolled order is rolled again at the start of every
action turn (a round of the encounter: hooks.register_initiative_each_round), the wounds and
traumas of the moment counted. ``register()`` is called from EclipseConfig.ready().
"""

from __future__ import annotations

from campaigns.journal import roll_row
from gamerules import dice
from gamerules.dice import RandomSource
from gamerules.eclipse_phase.params import EclipsePhaseParameters
from gamerules.eclipse_phase.turn import Contender, roll_initiative
from gamerules.modifiers import Modifier

SYSTEM = "eclipse_phase"
# What the initiative and the turns read past the character, for every combatant at once (three
# queries whatever their number): the campaign (its parameters), the sheet and its current
# sleeve. Neither reads the worn armour nor the weapons (gamerules.eclipse_phase.turn), so
# they are not loaded (four queries more before issue 20).
PREFETCH = ("campaign", "eclipse__sleeve")


def _params(character) -> EclipsePhaseParameters:
    params = character.campaign.parameters if character.campaign_id else None
    return params if isinstance(params, EclipsePhaseParameters) else EclipsePhaseParameters()


def _sheet(character):
    return getattr(character, "eclipse", None) if character is not None else None


def initiative(combatant, rng: RandomSource):
    """encounters.hooks.InitiativeFn: the first edition's roll with the wound and trauma
    maluses; the tie-breaker is REF (with the morph's bonus). A combatant without a sheet rolls
    1d10 alone."""
    from encounters import hooks

    character = combatant.character
    sheet = _sheet(character)
    if sheet is None:
        r = dice.roll("1d10", rng)
        return hooks.Initiative(score=r.total, tiebreak=0,
                                rolls=(roll_row(label="initiative", roll=r, actor=character),))
    params = _params(character)
    (result,) = roll_initiative([_contender(combatant.pk, sheet)], rng, params)
    mods = [Modifier("base (INT + REF) / 5 + morph", result.base, "initiative_base"),
            *result.modifiers]
    score = result.total
    surprised = _ambush_malus(combatant)
    if surprised is not None:  # noticed the ambush late: -30 on the start's roll
        mods.append(surprised)
        score += surprised.value
    return hooks.Initiative(score=score, tiebreak=result.reflexes,
                            rolls=(roll_row(label="initiative", roll=result.roll,
                                            actor=character, modifiers=mods),))


def _contender(who: int, sheet) -> Contender:
    """The pure contender of a sheet loaded with its sleeve (``PREFETCH``): the ego, the
    morph, the wounds and traumas. The initiative reads neither armour nor weapons
    (gamerules.eclipse_phase.turn.roll_initiative), so the character is built without them
    (eclipse.selectors.rules_of would read both: two queries more per batch)."""
    from eclipse.selectors import NO_MORPH, ego_of, health_of, mind_of, morph_of
    from gamerules.eclipse_phase.sheet import Character as RulesCharacter

    sleeve = sheet.sleeve
    morph = morph_of(sleeve) if sleeve is not None else NO_MORPH
    return Contender(who, RulesCharacter(ego=ego_of(sheet), morph=morph),
                     wounds=health_of(sleeve).wounds, traumas=mind_of(sheet).traumas)


def _ambush_malus(combatant) -> Modifier | None:
    from eclipse.ambush import initiative_malus

    return initiative_malus(combatant)


def turns(character) -> int:
    """encounters.hooks.TurnsFn: SPD (the sleeve's, capped by ``speed_max``); 1 unsleeved."""
    sheet = _sheet(character)
    if sheet is None or sheet.sleeve is None:
        return 1
    return max(1, min(sheet.sleeve.speed, _params(character).speed_max))


def register() -> bool:
    """Register the initiative and the turns with the encounter's hooks; False without it."""
    try:
        from encounters import hooks
    except ImportError:
        return False
    hooks.register_initiative(SYSTEM, initiative)
    hooks.register_initiative_each_round(SYSTEM)  # "each action turn" (first edition)
    hooks.register_turns(SYSTEM, turns)
    hooks.register_sheet_prefetch(SYSTEM, PREFETCH)
    return True
