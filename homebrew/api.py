"""REST API of the homebrew d100 system, mounted under /api/homebrew/: creation, the sheet, a
test, the posture, the odds of an attack, the GM's rests; and the actions in an encounter's
turn (homebrew.play: attack, posture, move or another action), answered with the encounter;
reactions are answered through the shared encounter's API.

Thin: the payload's shape is checked here, everything else by the services. Rule errors become
{"code", "detail", "params"} answers (config.api); a refused creation also lists each field's
problems in ``errors`` (codes in ``problems``)."""

from __future__ import annotations

from django.urls import path
from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from campaigns.errors import NotFound
from campaigns.models import Campaign, RuleSystem
from characters.services import NAME_MAX
from campaigns.api_base import ERRORS, READ_ERRORS, ErrorSerializer, StrictSerializer
from campaigns.numbers import INT_MAX  # a bigger number is a 400, not a 500
from encounters.api import step_view
from gamerules.homebrew.characteristics import CODES, CharacteristicsError
from homebrew import play
from homebrew.labels import problem_text, problems_text
from homebrew.models import WeaponTemplate
from campaigns.permissions import oversees
from homebrew.selectors import attack_odds_lines, character_with_sheet, odds_targets
from homebrew.services import (DIFFICULTY_MAX, homebrew_character_create, posture_set, rest_grant,
                               roll_test)


class HomebrewWeaponSerializer(serializers.ModelSerializer):
    class Meta:
        model = WeaponTemplate
        fields = ("id", "name", "die", "kind", "mp_cost")


class HomebrewInjurySerializer(serializers.Serializer):
    description = serializers.CharField()
    round_key = serializers.CharField()
    created_at = serializers.DateTimeField()


class HomebrewSheetSerializer(serializers.Serializer):
    """A homebrew character (a Character with ``homebrew`` loaded, weapons and injuries
    prefetched)."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    campaign = serializers.IntegerField(source="campaign_id")
    characteristics = serializers.SerializerMethodField()
    hp = serializers.IntegerField(source="homebrew.hp")
    hp_max = serializers.IntegerField(source="homebrew.hp_max")
    mp = serializers.IntegerField(source="homebrew.mp")
    mp_max = serializers.IntegerField(source="homebrew.mp_max")
    mp_label = serializers.CharField(source="homebrew.gauge_label")
    posture = serializers.CharField(source="homebrew.posture")
    health = serializers.CharField(source="homebrew.health")
    weapons = HomebrewWeaponSerializer(source="homebrew.weapons.all", many=True)
    injuries = HomebrewInjurySerializer(source="homebrew.injuries.all", many=True)

    def get_characteristics(self, character) -> dict[str, int]:
        return character.homebrew.characteristics().as_dict()


class HomebrewCreateSerializer(StrictSerializer):
    name = serializers.CharField(max_length=NAME_MAX)
    mp_label = serializers.CharField(max_length=30, required=False, default="", allow_blank=True)
    characteristics = serializers.DictField(
        child=serializers.IntegerField(),
        help_text=f"Each of {', '.join(CODES)}: points.")
    gear = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=INT_MAX), required=False,
        default=list, max_length=100,
        help_text="Weapon and spell template ids to start with: offered at creation by the "
                  "campaign's GM, at most its `starting_gear_picks`.")


def _campaign(campaign_id: int) -> Campaign:
    campaign = Campaign.objects.filter(pk=campaign_id, rule_system=RuleSystem.HOMEBREW).first()
    if campaign is None:
        raise NotFound("no_such_campaign")
    return campaign


def _sheet(request, character_id: int, code=status.HTTP_200_OK) -> Response:
    character = character_with_sheet(user=request.user, character_id=character_id)
    return Response(HomebrewSheetSerializer(character).data, status=code)


class CreateView(APIView):
    @extend_schema(operation_id="homebrew_characters_create", request=HomebrewCreateSerializer,
                   responses={201: HomebrewSheetSerializer, **ERRORS},
                   summary="Create a homebrew character: 170 points, subs within the tens, the "
                           "starting weapons and spells the GM offers.")
    def post(self, request, campaign_id: int):
        payload = HomebrewCreateSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        data = payload.validated_data
        try:
            character = homebrew_character_create(
                user=request.user, campaign=_campaign(campaign_id), name=data["name"],
                values=data["characteristics"], mp_label=data["mp_label"],
                gear=data["gear"])
        except CharacteristicsError as exc:
            errors: dict[str, list[str]] = {}
            for p in exc.problems:
                errors.setdefault(p.field, []).append(problem_text(p, gettext))
            return Response({"code": exc.code, "detail": problems_text(exc),
                             "problems": [{"field": p.field, "code": p.code,
                                           "params": p.params} for p in exc.problems],
                             "errors": errors}, status=status.HTTP_400_BAD_REQUEST)
        return _sheet(request, character.pk, status.HTTP_201_CREATED)


class SheetView(APIView):
    @extend_schema(operation_id="homebrew_characters_retrieve",
                   responses={200: HomebrewSheetSerializer, **READ_ERRORS},
                   summary="A homebrew sheet (its player or the game master).")
    def get(self, request, character_id: int):
        return _sheet(request, character_id)


class HomebrewTestSerializer(StrictSerializer):
    code = serializers.ChoiceField(choices=list(CODES))
    difficulty = serializers.IntegerField(required=False, default=0, min_value=-DIFFICULTY_MAX,
                                          max_value=DIFFICULTY_MAX)
    assists = serializers.DictField(child=serializers.IntegerField(min_value=-100, max_value=100),
                                    required=False, default=dict,
                                    help_text="Helper name to bonus (the game master only).")
    sides = serializers.IntegerField(required=False, allow_null=True, default=None,
                                     min_value=2, max_value=100)


class HomebrewTestResultSerializer(serializers.Serializer):
    code = serializers.CharField()
    grade = serializers.CharField()
    success = serializers.BooleanField()
    face = serializers.IntegerField()
    target = serializers.IntegerField()


class TestView(APIView):
    @extend_schema(operation_id="homebrew_characters_test", request=HomebrewTestSerializer,
                   responses={200: HomebrewTestResultSerializer, **ERRORS},
                   summary="Test a characteristic (1d100) or a sub (1d6); the GM adds "
                           "difficulty and assists.")
    def post(self, request, character_id: int):
        payload = HomebrewTestSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        data = payload.validated_data
        character = character_with_sheet(user=request.user, character_id=character_id)
        outcome = roll_test(user=request.user, character=character, code=data["code"],
                            difficulty=data["difficulty"], assists=list(data["assists"].items()),
                            sides=data["sides"])
        test = outcome.d100 or outcome.sub
        return Response({"code": outcome.code, "grade": outcome.grade,
                         "success": outcome.success, "face": test.roll.total,
                         "target": test.target})


class HomebrewPostureSerializer(StrictSerializer):
    posture = serializers.ChoiceField(choices=["offensive", "defensive"])


class PostureView(APIView):
    @extend_schema(operation_id="homebrew_characters_posture", request=HomebrewPostureSerializer,
                   responses={200: HomebrewSheetSerializer, **ERRORS, 409: ErrorSerializer},
                   summary="Change the posture (the encounter allows it at the start of a turn).")
    def post(self, request, character_id: int):
        payload = HomebrewPostureSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        character = character_with_sheet(user=request.user, character_id=character_id)
        posture_set(user=request.user, character=character,
                    posture=payload.validated_data["posture"])
        return _sheet(request, character_id)




class HomebrewOddsQuerySerializer(StrictSerializer):
    weapon = serializers.IntegerField(min_value=1, max_value=INT_MAX)
    target = serializers.IntegerField(min_value=1, max_value=INT_MAX)
    difficulty = serializers.IntegerField(required=False, default=0, min_value=-DIFFICULTY_MAX,
                                          max_value=DIFFICULTY_MAX)


class OddsLineSerializer(serializers.Serializer):
    reaction = serializers.CharField()
    by = serializers.CharField(allow_null=True)
    hit = serializers.FloatField(help_text="% to hit (criticals included).")
    critical = serializers.FloatField(help_text="% of a critical success.")
    damage_low = serializers.IntegerField()
    damage_high = serializers.IntegerField()
    mean_damage = serializers.FloatField()
    distribution = serializers.DictField(child=serializers.FloatField(),
                                         help_text="Damage taken -> probability (0-1).")


class HomebrewOddsSerializer(serializers.Serializer):
    weapon = serializers.IntegerField()
    target = serializers.IntegerField()
    lines = OddsLineSerializer(many=True)


class RestedSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    hp = serializers.IntegerField()
    mp = serializers.IntegerField()
    hp_gained = serializers.IntegerField()
    mp_gained = serializers.IntegerField()


class HomebrewRestResultSerializer(serializers.Serializer):
    rested = RestedSerializer(many=True)


class OddsView(APIView):
    @extend_schema(operation_id="homebrew_characters_odds", parameters=[HomebrewOddsQuerySerializer],
                   responses={200: HomebrewOddsSerializer, **READ_ERRORS},
                   summary="Chance to hit and to crit, and the damage, for each reaction the "
                           "target may take.")
    def get(self, request, character_id: int):
        query = HomebrewOddsQuerySerializer(data=request.query_params.dict())
        query.is_valid(raise_exception=True)
        data = query.validated_data
        character = character_with_sheet(user=request.user, character_id=character_id)
        weapon = next((w for w in character.homebrew.weapons.all() if w.pk == data["weapon"]),
                      None)
        gm = oversees(request.user, character.campaign)
        target = next((t for t in odds_targets(user=request.user, character=character, gm=gm)
                       if t.pk == data["target"]), None)  # a sheet not in view: as missing
        if weapon is None or target is None:
            raise NotFound()
        lines = attack_odds_lines(actor=character.homebrew, target=target, weapon=weapon,
                                  params=character.campaign.parameters,
                                  difficulty=data["difficulty"])
        return Response({"weapon": weapon.pk, "target": target.pk, "lines": [
            {"reaction": line.reaction, "by": line.by, "hit": line.hit_percent,
             "critical": line.crit_percent, "damage_low": line.damage_low,
             "damage_high": line.damage_high, "mean_damage": line.mean,
             "distribution": {str(k): float(v) for k, v in sorted(line.odds.damage.items())}}
            for line in lines]})


class HomebrewRestSerializer(StrictSerializer):
    kind = serializers.ChoiceField(choices=["short", "medium", "long"])
    characters = serializers.ListField(child=serializers.IntegerField(min_value=1,
                                                                      max_value=INT_MAX),
                                       required=False,
                                       allow_null=True, default=None)
    hp_amount = serializers.IntegerField(required=False, allow_null=True, default=None,
                                         min_value=0, max_value=100000)
    mp_amount = serializers.IntegerField(required=False, allow_null=True, default=None,
                                         min_value=0, max_value=100000)


class RestView(APIView):
    @extend_schema(operation_id="homebrew_campaigns_rest", request=HomebrewRestSerializer,
                   responses={200: HomebrewRestResultSerializer, **ERRORS},
                   summary="The game master grants a rest to some or all characters.")
    def post(self, request, campaign_id: int):
        payload = HomebrewRestSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        data = payload.validated_data
        given = rest_grant(user=request.user, campaign=_campaign(campaign_id), kind=data["kind"],
                           character_ids=data["characters"], hp_amount=data["hp_amount"],
                           mp_amount=data["mp_amount"])
        return Response({"rested": [{"id": g.character_id, "name": g.name,
                                     "hp": g.outcome.hp_after, "mp": g.outcome.mp_after,
                                     "hp_gained": g.outcome.hp_gained,
                                     "mp_gained": g.outcome.mp_gained} for g in given]})


class HomebrewEncounterActSerializer(StrictSerializer):
    combatant = serializers.IntegerField(help_text="The acting combatant (whose turn it is).")
    turn = serializers.IntegerField(required=False, allow_null=True, default=None,
                                    help_text="The encounter's ``turn`` you saw.")


class HomebrewEncounterAttackSerializer(HomebrewEncounterActSerializer):
    target = serializers.IntegerField(help_text="The target combatant.")
    weapon = serializers.IntegerField(help_text="An equipped weapon or spell.")
    description = serializers.CharField(max_length=300, required=False, default="",
                                        allow_blank=True)


class HomebrewEncounterPostureSerializer(HomebrewEncounterActSerializer):
    posture = serializers.ChoiceField(choices=["offensive", "defensive"])


class HomebrewEncounterOtherSerializer(HomebrewEncounterActSerializer):
    name = serializers.CharField(max_length=120, required=False, default="", allow_blank=True)
    move = serializers.BooleanField(default=False)
    costs_action = serializers.BooleanField(required=False, allow_null=True, default=None,
                                            help_text="A move's cost (the GM only).")


ENCOUNTER_STEPS = [
    ("attack/", "homebrew_encounters_attack", HomebrewEncounterAttackSerializer,
     lambda u, e, d: play.encounter_attack(
         user=u, encounter_id=e, combatant_id=d["combatant"], target_id=d["target"],
         choices=play.AttackChoices(weapon_id=d["weapon"], description=d["description"]),
         turn=d["turn"]),
     "Attack in turn: the target is prompted to react (or resolved at once); a miss ends "
     "the turn."),
    ("posture/", "homebrew_encounters_posture", HomebrewEncounterPostureSerializer,
     lambda u, e, d: play.encounter_posture(user=u, encounter_id=e, combatant_id=d["combatant"],
                                            posture=d["posture"], turn=d["turn"]),
     "Change posture at the start of the turn (free; refused after acting)."),
    ("actions/", "homebrew_encounters_other", HomebrewEncounterOtherSerializer,
     lambda u, e, d: play.encounter_other(user=u, encounter_id=e, combatant_id=d["combatant"],
                                          name=d["name"],
                                          move=play.Move() if d["move"] else None,
                                          costs_action=d["costs_action"], turn=d["turn"]),
     "A move (free unless the GM marks it) or another action the GM names (the action)."),
]

urlpatterns = [
    *(path(f"homebrew/encounters/<int:encounter_id>/{suffix}",
           step_view(summary, ser, run, op).as_view(), name=f"api-{op.replace('_', '-')}")
      for suffix, op, ser, run, summary in ENCOUNTER_STEPS),
    path("homebrew/campaigns/<int:campaign_id>/characters/", CreateView.as_view(),
         name="api-homebrew-create"),
    path("homebrew/campaigns/<int:campaign_id>/rest/", RestView.as_view(),
         name="api-homebrew-rest"),
    path("homebrew/characters/<int:character_id>/", SheetView.as_view(),
         name="api-homebrew-sheet"),
    path("homebrew/characters/<int:character_id>/test/", TestView.as_view(),
         name="api-homebrew-test"),
    path("homebrew/characters/<int:character_id>/posture/", PostureView.as_view(),
         name="api-homebrew-posture"),
    path("homebrew/characters/<int:character_id>/odds/", OddsView.as_view(),
         name="api-homebrew-odds"),
]
