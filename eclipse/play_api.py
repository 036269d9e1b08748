"""REST API of Eclipse Phase's actions in an encounter's turn (eclipse.attack, eclipse.actions,
eclipse.zones), mounted under /api/eclipse/encounters/<id>/: attack, full defence, reload,
stand up, move, aim, another action, wait for a charge, escape; and the GM's steps out of turn
(a suppressive zone's free attack, the weapon mishap). Each is answered with the encounter,
as the shared steps are (encounters.api.step_view); the defence is answered through the
shared ``/api/reactions/<id>/answer/`` (its options: "dodge", "melee:<skill>", "+moxie",
"quick:"). Thin: the payload's shape is checked here, the rest by the services; rule errors
are {"code", "detail", "params"} answers (config.api)."""

from __future__ import annotations

from django.urls import path
from rest_framework import serializers

from campaigns.api_base import StrictSerializer
from campaigns.numbers import INT_MAX
from eclipse import environment
from eclipse.actions import (Destination, encounter_aim, encounter_brace, encounter_escape,
                             encounter_full_defence, encounter_move, encounter_other,
                             encounter_reload, encounter_stand_up)
from eclipse.attack import attack_mishap_choose, encounter_attack
from eclipse.zones import encounter_zone_attack
from encounters.api import step_view


class EclipseActSerializer(StrictSerializer):
    combatant = serializers.IntegerField(help_text="The acting combatant (whose turn it is).",
                                         min_value=1, max_value=INT_MAX)
    turn = serializers.IntegerField(required=False, allow_null=True, default=None,
                                    help_text="The encounter's ``turn`` you saw.")


class EclipseAttackSerializer(EclipseActSerializer):
    target = serializers.IntegerField(help_text="The target combatant (prompted).", min_value=1,
                                      max_value=INT_MAX)
    others = serializers.ListField(child=serializers.IntegerField(min_value=1, max_value=INT_MAX),
                                   required=False, default=list, max_length=2,
                                   help_text="The volley's other targets (SA a second at "
                                             "-20, BF two, FA three within 1 m).")
    weapon = serializers.IntegerField(help_text="A carried weapon.", min_value=1, max_value=INT_MAX)
    mode = serializers.ChoiceField(choices=["", "SS", "SA", "BF", "FA"], required=False,
                                   default="")
    shots = serializers.IntegerField(min_value=1, max_value=2, required=False, default=1)
    concentrate = serializers.ChoiceField(choices=["", "bonus", "damage"], required=False,
                                          default="")
    range_band = serializers.ChoiceField(
        choices=["", "point_blank", "short", "medium", "long", "extreme"], required=False,
        default="")
    situations = serializers.ListField(child=serializers.CharField(max_length=40),
                                       required=False, default=list, max_length=40,
                                       help_text="Rows of the seed's tables (codes).")
    charge = serializers.BooleanField(required=False, default=False)
    called_shot = serializers.ChoiceField(choices=["", "ignore_armour", "disarm", "precise"],
                                          required=False, default="")
    precise_effect = serializers.CharField(max_length=300, required=False, default="",
                                           allow_blank=True)
    second_weapon = serializers.IntegerField(required=False, allow_null=True, default=None,
                                             min_value=1, max_value=INT_MAX)
    one_handed = serializers.BooleanField(required=False, default=False)
    moxie = serializers.BooleanField(required=False, default=False,
                                     help_text="Flip a failed attack test with Moxie.")
    subdue = serializers.BooleanField(required=False, default=False)
    beam = serializers.ChoiceField(choices=["", "sweep", "concentrate"], required=False,
                                   default="")
    indirect = serializers.BooleanField(required=False, default=False)
    spotter = serializers.BooleanField(required=False, default=False,
                                       help_text="The table's spotter (an attacker in no "
                                                 "TACNet).")
    spotter_combatant = serializers.IntegerField(
        required=False, allow_null=True, default=None,
        help_text="Indirect fire's spotter: a fellow TACNet member perceiving the target.",
        min_value=1, max_value=INT_MAX)
    description = serializers.CharField(max_length=300, required=False, default="",
                                        allow_blank=True)


class EclipseWeaponActSerializer(EclipseActSerializer):
    weapon = serializers.IntegerField(min_value=1, max_value=INT_MAX)


class EclipseMoveSerializer(EclipseActSerializer):
    pace = serializers.ChoiceField(choices=["walk", "run"])
    name = serializers.CharField(max_length=120, required=False, default="", allow_blank=True)


class EclipseAimSerializer(EclipseActSerializer):
    kind = serializers.ChoiceField(choices=["quick", "complex"])


class EclipseOtherSerializer(EclipseActSerializer):
    name = serializers.CharField(max_length=120)
    kind = serializers.ChoiceField(choices=["quick", "complex", "automatic"])


class EclipseEscapeSerializer(EclipseActSerializer):
    how = serializers.ChoiceField(choices=["opposed", "somx3"])


class EclipseZoneAttackSerializer(StrictSerializer):
    zone = serializers.IntegerField(help_text="The zone (its effect's id).", min_value=1, max_value=INT_MAX)
    target = serializers.IntegerField(min_value=1, max_value=INT_MAX)
    in_cover = serializers.BooleanField(required=False, default=False)


class EclipseMishapSerializer(StrictSerializer):
    action = serializers.IntegerField(help_text="The attack's journal entry.", min_value=1, max_value=INT_MAX)
    state = serializers.ChoiceField(choices=["damaged", "jammed", "destroyed"])


class EclipseGravitySerializer(StrictSerializer):
    gravity = serializers.DecimalField(max_digits=4, decimal_places=2, min_value=0,
                                       max_value=20, help_text="In g (1 on Earth).")


class EclipseAmbushSerializer(StrictSerializer):
    ambusher = serializers.IntegerField(help_text="The ambushing combatant.", min_value=1, max_value=INT_MAX)


def _ambush(u, e, d):
    from eclipse.ambush import encounter_ambush

    return encounter_ambush(user=u, encounter_id=e, ambusher_id=d["ambusher"])


def _attack(u, e, d):
    return encounter_attack(
        user=u, encounter_id=e, combatant_id=d["combatant"], target_id=d["target"],
        other_target_ids=d["others"], weapon_id=d["weapon"], mode=d["mode"], shots=d["shots"],
        concentrate=d["concentrate"], range_band=d["range_band"],
        situations={code: 1 for code in d["situations"]}, charge=d["charge"],
        called_shot=d["called_shot"], precise_effect=d["precise_effect"],
        second_weapon_id=d["second_weapon"], one_handed=d["one_handed"], moxie=d["moxie"],
        subdue=d["subdue"], beam=d["beam"], indirect=d["indirect"], spotter=d["spotter"],
        description=d["description"], spotter_id=d["spotter_combatant"], turn=d["turn"])


def _act(fn, **fields):
    return lambda u, e, d: fn(user=u, encounter_id=e, combatant_id=d["combatant"],
                              turn=d["turn"], **{k: d[v] for k, v in fields.items()})


def _move(u, e, d):
    return encounter_move(user=u, encounter_id=e, combatant_id=d["combatant"],
                          turn=d["turn"], pace=d["pace"],
                          to=Destination(name=d["name"]))


ENCOUNTER_STEPS = [
    ("attack/", "eclipse_encounters_attack", EclipseAttackSerializer, _attack,
     "Attack (complex): the rounds are spent, the target is prompted (or psi resolved at "
     "once)."),
    ("full-defence/", "eclipse_encounters_full_defence", EclipseActSerializer,
     _act(encounter_full_defence), "Full defence (complex): +30 until the next phase."),
    ("brace/", "eclipse_encounters_brace", EclipseActSerializer, _act(encounter_brace),
     "Wait for a charge (complex): +20 to the defence against a charge."),
    ("reload/", "eclipse_encounters_reload", EclipseWeaponActSerializer,
     _act(encounter_reload, weapon_id="weapon"), "Reload (complex) from the spares."),
    ("stand-up/", "eclipse_encounters_stand_up", EclipseActSerializer,
     _act(encounter_stand_up), "Stand up (quick)."),
    ("move/", "eclipse_encounters_move", EclipseMoveSerializer,
     _move, "Walk 4 m or run 20 m (quick)."),
    ("aim/", "eclipse_encounters_aim", EclipseAimSerializer,
     _act(encounter_aim, kind="kind"), "Aim: quick +10, complex +30."),
    ("actions/", "eclipse_encounters_other", EclipseOtherSerializer,
     _act(encounter_other, name="name", kind="kind"), "Another action the table names."),
    ("escape/", "eclipse_encounters_escape", EclipseEscapeSerializer,
     _act(encounter_escape, how="how"),
     "Escape a hold (complex): opposed unarmed combat, or (how=somx3) SOM x "
     "subdue_escape_som_multiplier - subdue_escape_malus, the campaign's parameters."),
    ("zone-attack/", "eclipse_encounters_zone_attack", EclipseZoneAttackSerializer,
     lambda u, e, d: encounter_zone_attack(user=u, encounter_id=e, zone_id=d["zone"],
                                           target_id=d["target"], in_cover=d["in_cover"]),
     "The free attack of a suppressive zone on someone entering or acting in it (GM)."),
    ("mishap/", "eclipse_encounters_mishap", EclipseMishapSerializer,
     lambda u, e, d: attack_mishap_choose(user=u, action_id=d["action"],
                                          state=d["state"], encounter_id=e),
     "The GM picks what a defender's critical did to the weapon."),
    ("gravity/", "eclipse_encounters_gravity", EclipseGravitySerializer,
     lambda u, e, d: environment.encounter_gravity_set(user=u, encounter_id=e,
                                                       gravity_g=d["gravity"]),
     "The GM sets the encounter's gravity (high-gravity malus on attacks above high_gravity_g, "
     "jumps x low_gravity_jump_multiplier below low_gravity_g: the campaign's parameters)."),
    ("ambush/", "eclipse_encounters_ambush", EclipseAmbushSerializer, _ambush,
     "Before the start, the GM rolls the ambush against the combatants marked surprised "
     "(perception -20 against infiltration)."),
]

urlpatterns = [
    path(f"eclipse/encounters/<int:encounter_id>/{suffix}",
         step_view(summary, ser, run, op).as_view(), name=f"api-{op.replace('_', '-')}")
    for suffix, op, ser, run, summary in ENCOUNTER_STEPS
]
