"""REST API of Eclipse Phase, mounted under /api/eclipse/: creation, the sheet, resleeving, gear,
Moxie, and the game master's healing and stress recovery (the same services as the pages).

Thin: the payload's shape is checked here, everything else by the services. Rule errors become
{"code", "detail", "params"} answers (config.api)."""

from __future__ import annotations

from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from campaigns.api_base import ERRORS, READ_ERRORS, StrictSerializer
from campaigns.errors import NotFound
from campaigns.models import Campaign, RuleSystem
from campaigns.numbers import INT_MAX
from characters.services import NAME_MAX
from eclipse import services
from eclipse.selectors import character_with_sheet, figures_of, loaded_view


class EclipseWeaponSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="row.pk")
    template = serializers.IntegerField(source="row.template_id")
    name = serializers.CharField(source="weapon.name")
    dv = serializers.CharField(source="weapon.dv")
    ap = serializers.IntegerField(source="weapon.ap")
    damage_type = serializers.CharField(source="weapon.damage_type.value")
    modes = serializers.SerializerMethodField()
    loaded = serializers.IntegerField(source="magazine.loaded")
    capacity = serializers.IntegerField(source="magazine.capacity")
    spares = serializers.IntegerField(source="magazine.spares")
    state = serializers.CharField(source="row.state")

    def get_modes(self, armed) -> list[str]:
        return sorted(m.value for m in armed.weapon.modes)


class EclipseSheetSerializer(serializers.Serializer):
    """An Eclipse Phase character (a Character loaded by eclipse.selectors.character_with_sheet).
    ``skills`` are the ranks the ego learnt; ``skill_ratings`` what each skill's test reads in
    the present morph, split into ``from_ego`` (the ego's aptitude and ranks) and
    ``from_morph`` (the morph's bonus less what its aptitude maximum cuts); ``usable`` false
    for an untrained skill that cannot default; ``aptitude_parts`` the same for aptitudes."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    campaign = serializers.IntegerField(source="campaign_id")
    sheet = serializers.SerializerMethodField()

    def get_sheet(self, character) -> dict:
        loaded = loaded_view(character)
        s = character.eclipse
        out = {"aptitudes": {a.value: v for a, v in s.aptitudes().items()},
               "skills": s.skills, "moxie": s.moxie, "moxie_max": s.moxie_max,
               "stress": s.stress, "traumas": s.traumas, "derangements": s.derangements,
               "disorders": s.disorders, "insane": s.insane, "morph": None, "weapons": [],
               "armour": []}
        if loaded is None:
            return out
        f = figures_of(loaded, character.campaign.parameters)
        out.update(lucidity=f.lucidity, trauma_threshold=f.trauma_threshold,
                   insanity_rating=f.insanity_rating,
                   effective_aptitudes={a.code: a.total for a in f.aptitudes},
                   aptitude_parts={a.code: {"ego": a.ego, "morph": a.total - a.ego,
                                            "bonus": a.bonus, "total": a.total}
                                   for a in f.aptitudes},
                   aptitude_max=f.aptitude_max, pain_filter=f.pain_filter,
                   skill_ratings={k.name: k.as_json() for k in f.skills},
                   weapons=EclipseWeaponSerializer(loaded.weapons, many=True).data)
        if s.sleeve is not None:
            out["morph"] = {"name": s.sleeve.name, "kind": s.sleeve.kind,
                            "durability": f.durability, "wound_threshold": f.wound_threshold,
                            "death_rating": f.death_rating, "speed": f.speed,
                            "damage": s.sleeve.damage, "wounds": s.sleeve.wounds,
                            "condition": f.condition, "armour_energy": f.armour_energy,
                            "armour_kinetic": f.armour_kinetic}
            out["armour"] = [{"id": w.pk, "name": w.template.name, "energy": w.template.energy,
                              "kinetic": w.template.kinetic} for w in s.sleeve.armour.all()]
        return out


class EclipseCreateSerializer(StrictSerializer):
    name = serializers.CharField(max_length=NAME_MAX)
    aptitudes = serializers.DictField(child=serializers.IntegerField(min_value=0, max_value=1000),
                                      help_text="COG, COO, INT, REF, SAV, SOM, WIL: points.")
    skills = serializers.DictField(child=serializers.IntegerField(min_value=0, max_value=1000),
                                   required=False, default=dict)
    morph = serializers.IntegerField(required=False, allow_null=True, default=None, min_value=1,
                                     max_value=INT_MAX)


def _campaign(campaign_id: int) -> Campaign:
    campaign = Campaign.objects.filter(pk=campaign_id,
                                       rule_system=RuleSystem.ECLIPSE_PHASE).first()
    if campaign is None:
        raise NotFound("no_such_campaign")
    return campaign


def _sheet(request, character_id: int, code=status.HTTP_200_OK) -> Response:
    character = character_with_sheet(user=request.user, character_id=character_id)
    return Response(EclipseSheetSerializer(character).data, status=code)


class CreateView(APIView):
    @extend_schema(operation_id="eclipse_characters_create", request=EclipseCreateSerializer,
                   responses={201: EclipseSheetSerializer, **ERRORS},
                   summary="Create an Eclipse Phase character: the aptitudes' budget, the "
                           "skills' ranks (1-99, added to the linked aptitude), the first "
                           "morph.")
    def post(self, request, campaign_id: int):
        payload = EclipseCreateSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        d = payload.validated_data
        character = services.eclipse_character_create(
            user=request.user, campaign=_campaign(campaign_id), name=d["name"],
            aptitudes=d["aptitudes"], skills=d["skills"], morph_id=d["morph"])
        return _sheet(request, character.pk, status.HTTP_201_CREATED)


class SheetView(APIView):
    @extend_schema(operation_id="eclipse_characters_retrieve",
                   responses={200: EclipseSheetSerializer, **READ_ERRORS},
                   summary="An Eclipse Phase sheet (its player or the game master).")
    def get(self, request, character_id: int):
        return _sheet(request, character_id)


class EclipseMorphSerializer(StrictSerializer):
    morph = serializers.IntegerField(min_value=1, max_value=INT_MAX)


class EclipseEquipSerializer(StrictSerializer):
    weapon = serializers.IntegerField(min_value=1, max_value=INT_MAX)
    spares = serializers.IntegerField(required=False, default=0, min_value=0, max_value=services.AMOUNT_MAX)


class EclipseCarriedSerializer(StrictSerializer):
    carried = serializers.IntegerField(min_value=1, max_value=INT_MAX)


class EclipseArmourSerializer(StrictSerializer):
    armour = serializers.IntegerField(min_value=1, max_value=INT_MAX)


class EclipseWornSerializer(StrictSerializer):
    worn = serializers.IntegerField(min_value=1, max_value=INT_MAX)


class EclipseHealSerializer(StrictSerializer):
    damage = serializers.IntegerField(required=False, default=0, min_value=0, max_value=services.AMOUNT_MAX)
    wounds = serializers.IntegerField(required=False, default=0, min_value=0, max_value=services.AMOUNT_MAX)


class EclipseRecoverSerializer(StrictSerializer):
    method = serializers.ChoiceField(choices=["rest", "psychosurgery"])
    stress = serializers.IntegerField(required=False, default=0, min_value=0, max_value=services.AMOUNT_MAX)
    traumas = serializers.IntegerField(required=False, default=0, min_value=0, max_value=services.AMOUNT_MAX)
    remove = serializers.ListField(child=serializers.CharField(max_length=120), required=False,
                                   default=list, max_length=50)


class EclipseStressSerializer(StrictSerializer):
    sv = serializers.CharField(max_length=24, help_text='A number or dice, e.g. "1d10+2".')
    resist = serializers.BooleanField(required=False, default=True,
                                      help_text="Resisted with a test of WIL x the campaign's "
                                                "stress_resist_multiplier.")
    # A field named like a Field attribute (as campaigns.api.ModifierSerializer's).
    source = serializers.CharField(max_length=120, required=False, default="",  # type: ignore[assignment]
                                   allow_blank=True)


class EclipseDerangementSerializer(StrictSerializer):
    name = serializers.CharField(max_length=120)
    disorder = serializers.BooleanField(required=False, default=False)


class EclipseMoxieSerializer(StrictSerializer):
    refresh = serializers.BooleanField(required=False, default=False,
                                       help_text="The GM refreshes to the maximum.")
    reason = serializers.CharField(max_length=120, required=False, default="", allow_blank=True)


def _moxie(u, c, d):
    if d["refresh"]:
        return services.moxie_refresh(user=u, character=c)
    return services.moxie_spend(user=u, character=c, reason=d["reason"])


# (suffix, operation id, payload, service call, summary)
STEPS = [
    ("resleeve/", "eclipse_characters_resleeve", EclipseMorphSerializer,
     lambda u, c, d: services.resleeve(user=u, character=c, morph_id=d["morph"]),
     "Move the ego into a new body of a morph template (keeps ego and stress)."),
    ("weapons/", "eclipse_characters_weapon_equip", EclipseEquipSerializer,
     lambda u, c, d: services.weapon_equip(user=u, character=c, template_id=d["weapon"],
                                           spares=d["spares"]),
     "Take a weapon (magazine full, spare magazines)."),
    ("weapons/drop/", "eclipse_characters_weapon_unequip", EclipseCarriedSerializer,
     lambda u, c, d: services.weapon_unequip(user=u, character=c, carried_id=d["carried"]),
     "Drop a carried weapon."),
    ("armour/", "eclipse_characters_armour_wear", EclipseArmourSerializer,
     lambda u, c, d: services.armour_wear(user=u, character=c, template_id=d["armour"]),
     "Wear armour over the current morph."),
    ("armour/remove/", "eclipse_characters_armour_remove", EclipseWornSerializer,
     lambda u, c, d: services.armour_remove(user=u, character=c, worn_id=d["worn"]),
     "Take armour off."),
    ("heal/", "eclipse_characters_heal", EclipseHealSerializer,
     lambda u, c, d: services.heal(user=u, character=c, damage=d["damage"], wounds=d["wounds"]),
     "The GM heals damage and wounds of the current morph."),
    ("recover/", "eclipse_characters_recover", EclipseRecoverSerializer,
     lambda u, c, d: services.stress_recover(user=u, character=c, method=d["method"],
                                             stress=d["stress"], traumas=d["traumas"],
                                             remove=d["remove"]),
     "The GM's stress recovery by rest or psychosurgery."),
    ("stress/", "eclipse_characters_stress", EclipseStressSerializer,
     lambda u, c, d: services.stress_inflict(user=u, character=c, sv=d["sv"],
                                             resist=d["resist"], source=d["source"]),
     "The GM inflicts a stress value (resisted with WIL x stress_resist_multiplier; traumas, "
     "insanity)."),
    ("derangement/", "eclipse_characters_derangement", EclipseDerangementSerializer,
     lambda u, c, d: services.derangement_name(user=u, character=c, name=d["name"],
                                               disorder=d["disorder"]),
     "The GM names a derangement or disorder."),
    ("moxie/", "eclipse_characters_moxie", EclipseMoxieSerializer, _moxie,
     "Spend a Moxie point, or (the GM) refresh Moxie."),
]


def step_view(op: str, payload_class, run, summary: str) -> type[APIView]:
    class StepView(APIView):
        @extend_schema(operation_id=op, request=payload_class,
                       responses={200: EclipseSheetSerializer, **ERRORS}, summary=summary)
        def post(self, request, character_id: int):
            payload = payload_class(data=request.data)
            payload.is_valid(raise_exception=True)
            character = character_with_sheet(user=request.user, character_id=character_id)
            run(request.user, character, payload.validated_data)
            return _sheet(request, character_id)

    StepView.__name__ = StepView.__qualname__ = "".join(
        part.title() for part in op.split("_")) + "View"
    return StepView


urlpatterns = [
    path("eclipse/campaigns/<int:campaign_id>/characters/", CreateView.as_view(),
         name="api-eclipse-create"),
    path("eclipse/characters/<int:character_id>/", SheetView.as_view(), name="api-eclipse-sheet"),
    *(path(f"eclipse/characters/<int:character_id>/{suffix}",
           step_view(op, ser, run, summary).as_view(), name=f"api-{op.replace('_', '-')}")
      for suffix, op, ser, run, summary in STEPS),
]
