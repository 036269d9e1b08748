"""The Eclipse Phase actions on the shared encounter (htmx, English and French): each calls a
service (eclipse.attack, eclipse.zones, eclipse.blasts, eclipse.actions, eclipse.turn_end) and
answers with the encounter's fragment (encounters.pages.respond); the odds answer with their
own fragment. Thin: form reading only."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from campaigns.errors import InvalidInput
from campaigns.messages import error_message
from campaigns.numbers import posted_text, whole_number
from eclipse.actions import (Destination, encounter_aim, encounter_brace, encounter_escape,
                             encounter_full_defence, encounter_move, encounter_other,
                             encounter_reload, encounter_stand_up)
from eclipse.attack import attack_mishap_choose, encounter_attack, reaction_range_correct
from eclipse.blasts import BlastAim, encounter_explode
from eclipse.errors import NotEclipse
from eclipse.play_selectors import OddsLine, attack_odds_shown, odds_encounter, situation_choices
from eclipse.turn_end import encounter_turn_end
from eclipse.zones import FireZone, encounter_suppressive_fire, encounter_zone_attack
from encounters.errors import EncounterNotFound
from encounters.pages import respond
from gamerules.errors import RuleError


def _int(request, name: str) -> int | None:
    return whole_number(request.POST.get(name, ""), negative=False, digits=9)


def _required(request, name: str) -> int:
    value = _int(request, name)
    if value is None:
        raise InvalidInput()
    return value


def _common(request, encounter_id: int) -> dict:
    return {"user": request.user, "encounter_id": encounter_id,
            "combatant_id": _required(request, "combatant"), "turn": _int(request, "turn")}


def attack_choices(request) -> dict:
    """The attack form's choices, as eclipse.declare.declare takes them."""
    codes = {s.code for s in situation_choices()}
    situations = {c: 1 for c in request.POST.getlist("situation") if c in codes}
    for group in ("size", "visibility", "cover"):
        code = request.POST.get(group, "")
        if code in codes:
            situations[code] = 1
    if request.POST.get("aim") in ("aim_quick", "aim_complex"):
        situations[request.POST["aim"]] = 1
    return {"weapon_id": _required(request, "weapon"), "mode": request.POST.get("mode", ""),
            "shots": 2 if request.POST.get("shots") == "2" else 1,
            "concentrate": request.POST.get("concentrate", ""),
            "range_band": request.POST.get("range_band", ""), "situations": situations,
            "charge": request.POST.get("charge") == "1",
            "called_shot": request.POST.get("called_shot", ""),
            "second_weapon_id": _int(request, "second_weapon") or None,
            "one_handed": request.POST.get("one_handed") == "1",
            "moxie": request.POST.get("moxie") == "1",
            "description": posted_text(request.POST, "description")[:300],
            "subdue": request.POST.get("subdue") == "1",
            "beam": request.POST.get("beam", ""),
            "indirect": request.POST.get("indirect") == "1",
            "spotter": request.POST.get("spotter") == "1",
            "spotter_id": _int(request, "spotter_combatant") or None,
            "precise_effect": posted_text(request.POST, "precise_effect")[:300]}


def _others(request) -> list[int]:
    return [n for n in (whole_number(v, negative=False, digits=9)
                        for v in request.POST.getlist("other_target")) if n is not None]


@login_required
@require_POST
def attack(request, encounter_id: int):
    return respond(request, encounter_id, lambda: encounter_attack(
        **_common(request, encounter_id), target_id=_required(request, "target"),
        other_target_ids=_others(request), **attack_choices(request)))


@login_required
@require_POST
def brace(request, encounter_id: int):
    return respond(request, encounter_id, lambda: encounter_brace(
        **_common(request, encounter_id)))


@login_required
@require_POST
def escape(request, encounter_id: int):
    return respond(request, encounter_id, lambda: encounter_escape(
        **_common(request, encounter_id), how=request.POST.get("how", "")))


@login_required
@require_POST
def zone_attack(request, encounter_id: int):
    return respond(request, encounter_id, lambda: encounter_zone_attack(
        user=request.user, encounter_id=encounter_id, zone_id=_required(request, "zone"),
        target_id=_required(request, "target"), in_cover=request.POST.get("in_cover") == "1"))


@login_required
@require_POST
def mishap(request, encounter_id: int):
    return respond(request, encounter_id, lambda: attack_mishap_choose(
        user=request.user, encounter_id=encounter_id, action_id=_required(request, "action"),
        state=request.POST.get("state", "")))


@login_required
@require_POST
def full_defence(request, encounter_id: int):
    return respond(request, encounter_id, lambda: encounter_full_defence(
        **_common(request, encounter_id)))


@login_required
@require_POST
def reload(request, encounter_id: int):
    return respond(request, encounter_id, lambda: encounter_reload(
        **_common(request, encounter_id), weapon_id=_required(request, "weapon")))


@login_required
@require_POST
def stand_up(request, encounter_id: int):
    return respond(request, encounter_id, lambda: encounter_stand_up(
        **_common(request, encounter_id)))


@login_required
@require_POST
def move(request, encounter_id: int):
    return respond(request, encounter_id, lambda: encounter_move(
        **_common(request, encounter_id), pace=request.POST.get("pace", ""),
        to=Destination(x=request.POST.get("x", ""), y=request.POST.get("y", ""),
                       name=posted_text(request.POST, "name"),
                       extension=request.POST.get("extension", ""))))


@login_required
@require_POST
def aim(request, encounter_id: int):
    return respond(request, encounter_id, lambda: encounter_aim(
        **_common(request, encounter_id), kind=request.POST.get("kind", "")))


@login_required
@require_POST
def other(request, encounter_id: int):
    return respond(request, encounter_id, lambda: encounter_other(
        **_common(request, encounter_id), name=posted_text(request.POST, "name"),
        kind=request.POST.get("kind", "")))


@login_required
@require_POST
def turn_end(request, encounter_id: int):
    return respond(request, encounter_id, lambda: encounter_turn_end(
        user=request.user, encounter_id=encounter_id), done=_("Bleeding and stun applied."))


@login_required
@require_POST
def odds(request, encounter_id: int):
    """The exact odds of the attack the form describes (nothing spent, nothing journaled); 404
    for an encounter the user may not see and for another rule system's."""
    try:
        encounter, combatants = odds_encounter(user=request.user, encounter_id=encounter_id)
    except (EncounterNotFound, NotEclipse):
        raise Http404(_("No such encounter.")) from None
    lines: list[OddsLine] = []
    error, target = None, None
    try:
        lines, target = attack_odds_shown(
            user=request.user, encounter=encounter, combatants=combatants,
            combatant_id=_required(request, "combatant"), target_id=_required(request, "target"),
            choices=attack_choices(request))
    except RuleError as exc:
        error = error_message(exc)
    return render(request, "eclipse/encounter/_odds.html",
                  {"lines": lines, "error": error, "target": target})


@login_required
@require_POST
def range_correct(request, encounter_id: int):
    """The GM corrects a pending attack's range band."""
    return respond(request, encounter_id, lambda: reaction_range_correct(
        user=request.user, reaction_id=_required(request, "reaction"),
        range_band=request.POST.get("range_band", "")))


@login_required
@require_POST
def suppressive(request, encounter_id: int):
    def ids(name: str) -> list[int]:
        return [n for n in (whole_number(v, negative=False, digits=9)
                            for v in request.POST.getlist(name)) if n is not None]

    return respond(request, encounter_id, lambda: encounter_suppressive_fire(
        **_common(request, encounter_id), weapon_id=_required(request, "weapon"),
        fire=FireZone(target_ids=ids("zone"), in_cover_ids=tuple(ids("cover")),
                      aim_id=_int(request, "aim") or None)))


@login_required
@require_POST
def explode(request, encounter_id: int):
    """Targets are the ``dist-<combatant>`` fields filled (metres, whole numbers)."""
    targets = []
    for key, value in request.POST.items():
        if key.startswith("dist-") and value.strip():
            who = whole_number(key[5:], negative=False, digits=9)
            metres = whole_number(value, negative=False, digits=4)
            if who is not None and metres is not None:
                targets.append((who, float(metres)))
    return respond(request, encounter_id, lambda: encounter_explode(
        **_common(request, encounter_id), weapon_id=_required(request, "weapon"),
        aim=BlastAim(targets=targets, range_band=request.POST.get("range_band", ""),
                     centre_id=_int(request, "centre") or None)))


@login_required
@require_POST
def gravity(request, encounter_id: int):
    """The GM sets the encounter's gravity (eclipse.environment)."""
    from eclipse import environment

    return respond(request, encounter_id, lambda: environment.encounter_gravity_set(
        user=request.user, encounter_id=encounter_id,
        gravity_g=request.POST.get("gravity", "")))


@login_required
@require_POST
def ambush(request, encounter_id: int):
    """The GM rolls the ambush before the start (eclipse.ambush)."""
    from eclipse.ambush import encounter_ambush

    return respond(request, encounter_id, lambda: encounter_ambush(
        user=request.user, encounter_id=encounter_id,
        ambusher_id=_required(request, "ambusher")))
