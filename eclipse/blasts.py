"""Explosives in Eclipse Phase on the shared encounter: a blast, uniform blast or cone goes
off (a complex action), its DV rolled once, less with each metre from the centre, then taken
by each target through its armour; whom it reaches read from the positions when the
combatants are placed, otherwise as the table places them.

Source: 001_e6266c120d4801b4.txt, "Options & Complications" ("Explosifs et zones d'effet");
the choices are in docs/rules/eclipse-phase.md ("The encounter").
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils import timezone

from campaigns.journal import record_action
from eclipse import positions
from eclipse.acting import armed_of, begin, phase_summary, target_of
from eclipse.context import AttackContext, attack_context
from eclipse.defence import FULL_DEFENCE, test_json, test_row
from eclipse.models import CarriedWeapon
from eclipse.play_errors import BadChoice, NotATarget
from eclipse.selectors import Armed, params_of
from encounters.services import TurnContext, encounter_act, is_gm
from gamerules.dice import RandomSource
from gamerules.eclipse_phase.gear import BlastKind, RangeBand
from gamerules.eclipse_phase.turn import ActionKind
from gamerules.eclipse_phase.volley import Fighter, blast_hits

KIND_EXPLOSION = "eclipse_explosion"


@dataclass(frozen=True)
class BlastAim:
    """Where an explosive goes off: ``targets`` (combatant id, metres from the centre; for a
    cone, from the weapon, with its ``range_band``), as the table places them without
    positions; with positions, the blast centred on a combatant (``centre_id``) or a point
    (``centre``: x, y in metres), a cone from the attacker."""

    targets: Sequence[tuple[int, float]] = ()
    range_band: str = ""
    centre_id: int | None = None
    centre: tuple[Any, Any] | None = None


def encounter_explode(*, user, encounter_id: int, combatant_id: int, weapon_id: int,
                      aim: BlastAim, turn: int | None = None, rng: RandomSource | None = None,
                      now: datetime | None = None):
    """An explosive goes off (a complex action; one round of its magazine when it has one)
    where ``aim`` (BlastAim) says. The DV is rolled once (explosives.explode: -2 per metre of
    a blast, the same in a uniform blast's radius, the cone's d10), then each target takes it
    through its armour (health.take_hit). *Choice*: no attack test (throwing and scatter are
    the table's call). ONE journal entry."""
    rng, now = rng or random.SystemRandom(), now or timezone.now()

    def act(ctx: TurnContext):
        from campaigns.journal import roll_row
        from gamerules.eclipse_phase.explosives import explode

        params = params_of(ctx.encounter)
        placed = [(target_of(ctx, t), float(d)) for t, d in dict(aim.targets).items()]
        if any(d < 0 for _t, d in placed):
            raise NotATarget()
        me = begin(ctx, ActionKind.COMPLEX)
        armed = armed_of(me, weapon_id)
        placed, band, where = _blast_reach(ctx, armed, aim, placed, params)
        if not placed:
            raise NotATarget()
        if armed.weapon.magazine:
            after = armed.magazine.spend(1)
            CarriedWeapon.objects.filter(pk=armed.row.pk).update(loaded=after.loaded)
        boom = explode(armed.weapon, [(t.pk, d) for t, d in placed], rng, params, band=band)
        rolls = [roll_row(label="explosion", roll=boom.roll, actor=ctx.combatant.character)]
        if boom.cone_roll is not None:
            rolls.append(roll_row(label="cone", roll=boom.cone_roll,
                                  actor=ctx.combatant.character))
        about: list[int | None] = [None] * len(rolls)  # the DV: everyone's
        context = attack_context(ctx.encounter, ctx.combatant,
                                 [t for t, _d in placed if t.pk != ctx.combatant.pk],
                                 flags=(FULL_DEFENCE,))
        lines, more, whom = _blast_damage(context, armed, boom, placed, rng=rng, params=params)
        rolls += more
        about += whom
        context.changes.write()
        return record_action(
            campaign=ctx.encounter.campaign, kind=KIND_EXPLOSION, now=now, user=ctx.user,
            actor=ctx.combatant.character,
            summary=phase_summary(ctx, weapon=armed.weapon.name, blast=armed.weapon.blast.value
                                  if armed.weapon.blast else "", dv=boom.dv, targets=lines,
                                  roll_about=about, **where),
            rolls=rolls)

    return encounter_act(user=user, encounter_id=encounter_id, combatant_id=combatant_id,
                         act=act, costs_action=False, turn=turn, now=now, rng=rng)


def _blast_reach(ctx: TurnContext, armed: Armed, aim: BlastAim, placed: list[Any], params
                 ) -> tuple[list[Any], RangeBand | None, dict[str, Any]]:
    """Whom the blast reaches and how far: (combatant, metres) pairs, the cone's range band
    and what the summary says of where it went. A cone from the attacker and a centred blast
    read the positions when they have them; otherwise the table's ``placed``. Raises
    BadChoice (an unknown range band)."""
    try:
        band = RangeBand(aim.range_band) if aim.range_band else None
    except ValueError:
        raise BadChoice(value=aim.range_band) from None
    where: dict[str, Any] = {}
    if armed.weapon.blast is BlastKind.CONE:  # from the attacker: positions when all have
        cone = positions.cone_distances(ctx.combatant, [t for t, _d in placed], armed.weapon)
        if cone is not None:
            placed, band = cone
            where = {"range_band": band.value, "range_from": "positions"}
    elif aim.centre_id or aim.centre is not None:  # the blast's reach from positions
        point, where = positions.blast_centre(
            ctx.combatant, _centre(ctx, aim.centre_id) if aim.centre_id else aim.centre,
            armed.weapon)
        placed = positions.blast_targets(point, armed.weapon, [
            c for c in ctx.combatants.values() if not c.removed and c.character_id], params)
    return placed, band, where


def _blast_damage(context: AttackContext, armed: Armed, boom, placed: list[Any], *,
                  rng: RandomSource, params
                  ) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[int | None]]:
    """The rolled DV (``boom``: explosives.explode's) through each target's armour, kept in
    ``context`` (health, defeats) for the one write. Returns (one line per target, the SOM
    tests' rolls, whom each is about)."""
    from gamerules.eclipse_phase.health import Condition

    by_pk = {t.pk: t for t, _d in placed}
    fighters = {pk: Fighter(them.character, them.health, them.mind.traumas)
                for pk, t in by_pk.items()
                if (them := context.of(t)) is not None and them.sleeved}
    lines, rolls, about = [], [], []
    for blast in blast_hits(armed.weapon, [(int(str(w)), d, dv) for w, d, dv
                                           in boom.by_target], fighters, rng, params):
        target, hit = by_pk[blast.who], blast.hit
        if hit.som_test is not None:
            rolls.append(test_row(hit.som_test, target.character))
            about.append(target.pk)
        context.set_health(target.character_id or 0, hit.after)
        if hit.condition is not Condition.ACTIVE:
            context.defeat(target)
        lines.append({"target": target.name, "distance_m": blast.distance, "dv": blast.dv,
                      "armour_effective": hit.armour.effective, "damage": hit.damage,
                      "new_wounds": hit.new_wounds, "som_test": test_json(hit.som_test),
                      "knocked_down": hit.knocked_down, "stunned": hit.stunned,
                      "condition": hit.condition.value})
    return lines, rolls, about


def _centre(ctx: TurnContext, centre_id: int):
    """The combatant a blast is centred on; a hidden one does not exist for the players (the
    same refusal as a wrong id: no centre)."""
    centre = ctx.combatants.get(centre_id)
    if centre is not None and centre.hidden and not is_gm(ctx.user, ctx.encounter):
        return None
    return centre

