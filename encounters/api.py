"""REST API of encounters: the same operations as the pages, through the same services.

Views are thin: validate the payload's shape (StrictSerializer: unknown fields and non-whole
numbers refused), call the service, serialize the encounter as the user may see it (hidden
combatants for the GM only). Rule errors answer ``{"code", "detail", "params"}`` with their
class's status (config.api): 404 ``no_such_encounter`` for an encounter the user may not see,
403 ``not_game_master`` / ``not_your_combatant`` / ``not_yours_to_answer``, 409 for a step that
came too late or out of turn (``turn_already_advanced``, ``not_your_turn``,
``action_already_taken``, ``reaction_pending``, ``reaction_not_pending``, ``reaction_expired``).
Mounted in config/api_urls.py (``urlpatterns`` below).
"""

from __future__ import annotations

from django.urls import path
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from campaigns.api import ActionSerializer
from campaigns.api_lists import (MAX_PAGE_SIZE, PAGE_SIZE, HeaderPagination,
                                 JournalListView)
from campaigns.api_base import ERRORS, READ_ERRORS, ErrorSerializer, StrictSerializer
from campaigns.numbers import INT_MAX  # a bigger number is a 400, not a 500
from encounters import selectors, services
from encounters.errors import EncounterNotFound
from encounters.models import Encounter
from gamerules.encounter.order import OrderMode

CONFLICTS = {**ERRORS, 409: ErrorSerializer}


class StateMeterSerializer(serializers.Serializer):
    key = serializers.CharField(help_text="damage, wounds, stress, moxie, ammo (Eclipse Phase); "
                                          "hp, mp (homebrew).")
    label = serializers.CharField()  # type: ignore[assignment]  # the JSON key, not Field.label
    value = serializers.IntegerField()
    maximum = serializers.IntegerField(allow_null=True, help_text="Null for a count (wounds).")
    worse_up = serializers.BooleanField(help_text="More is worse (damage, stress).")
    note = serializers.CharField(help_text="More words: the death rating, traumas, spares.")


class StateMarkSerializer(serializers.Serializer):
    key = serializers.CharField(help_text="stunned, prone, unconscious, bleeding, dead, mental, "
                                          "jammed (Eclipse Phase); posture, unconscious, dead, "
                                          "no_dodge (homebrew).")
    label = serializers.CharField()  # type: ignore[assignment]  # the JSON key


class CombatantStateSerializer(serializers.Serializer):
    """encounters.glance.Glance.as_json."""

    detail = serializers.ChoiceField(choices=["exact", "described"],
                                     help_text="exact: the gauges and conditions; described: "
                                               "the level's word only (an enemy, as the "
                                               "campaign's enemy_state says).")
    level = serializers.ChoiceField(choices=["unhurt", "wounded", "badly_wounded", "down"])
    label = serializers.CharField(  # type: ignore[assignment]  # the JSON key
        help_text="The level in the request's language.")
    meters = StateMeterSerializer(many=True)
    marks = StateMarkSerializer(many=True)


class EncounterCombatantSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    name = serializers.CharField()
    character = serializers.IntegerField(source="character_id", allow_null=True)
    rank = serializers.IntegerField(allow_null=True, help_text="Place in the order, from 0; "
                                                               "null out of it.")
    initiative = serializers.IntegerField(allow_null=True)
    tiebreak = serializers.IntegerField()
    tie = serializers.CharField(help_text="What put it below an equal combatant: tiebreak, "
                                          "position, id, or empty.")
    turns_per_round = serializers.IntegerField()
    surprised = serializers.BooleanField()
    hidden = serializers.BooleanField(help_text="Shown to the GM only.")
    defeated = serializers.BooleanField()
    removed = serializers.BooleanField()
    joined_round = serializers.IntegerField()
    x = serializers.DecimalField(max_digits=7, decimal_places=2, allow_null=True,
                                 coerce_to_string=False,
                                 help_text="Metres; null (with y) without a position.")
    y = serializers.DecimalField(max_digits=7, decimal_places=2, allow_null=True,
                                 coerce_to_string=False)
    state = serializers.SerializerMethodField(
        help_text="Its gauges and conditions as the user may read them (docs/encounters.md, "
                  "\"State at a glance\"); null: nothing to read (an enemy the campaign hides, "
                  "a combatant without a sheet, a system without states).")

    @extend_schema_field(CombatantStateSerializer(allow_null=True))
    def get_state(self, combatant) -> dict | None:
        seen = self.context.get("glances", {}).get(combatant.pk)
        return seen.as_json() if seen is not None else None


class EncounterEffectSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    name = serializers.CharField()
    bearer = serializers.IntegerField(source="bearer_id", allow_null=True)
    anchor = serializers.IntegerField(source="anchor_id")
    edge = serializers.ChoiceField(choices=["start", "end"])
    rounds = serializers.IntegerField()
    expires_round = serializers.IntegerField()


class PendingReactionSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    actor = serializers.SerializerMethodField(help_text="Null for a player when the actor is "
                                                        "hidden.")
    target = serializers.IntegerField(source="target_id")
    options = serializers.ListField(child=serializers.CharField())
    default = serializers.CharField()
    status = serializers.CharField()
    deadline = serializers.DateTimeField()
    payload = serializers.DictField()

    def get_actor(self, reaction) -> int | None:
        seen = getattr(reaction, "actor_cached", None)
        return seen.pk if seen is not None else None


class EncounterSerializer(serializers.Serializer):
    """From selectors.EncounterView."""

    id = serializers.IntegerField(source="encounter.pk")
    campaign = serializers.IntegerField(source="encounter.campaign_id")
    name = serializers.CharField(source="encounter.name")
    state = serializers.CharField(source="encounter.state")
    round = serializers.IntegerField(source="encounter.round")
    turn = serializers.IntegerField(source="encounter.turn_serial",
                                    help_text="Send it back with next/delay: a stale one is "
                                              "refused (turn_already_advanced).")
    current = serializers.IntegerField(source="current_id", allow_null=True,
                                       help_text="Null before the start, after the end, and "
                                                 "for a player while a hidden combatant acts.")
    current_phase = serializers.IntegerField(source="encounter.current_phase")
    turn_actions = serializers.IntegerField(source="encounter.turn_actions")
    actions_per_turn = serializers.IntegerField(source="encounter.actions_per_turn")
    reaction_timeout_seconds = serializers.IntegerField(
        source="encounter.reaction_timeout_seconds")
    players_may_join = serializers.BooleanField(source="encounter.players_may_join")
    version = serializers.IntegerField(source="encounter.version")
    gm = serializers.BooleanField()
    mine = serializers.ListField(child=serializers.IntegerField(),
                                 help_text="The combatants the user plays.")
    combatants = EncounterCombatantSerializer(many=True, help_text="In order, then those out of it.")
    effects = EncounterEffectSerializer(many=True)
    reactions = PendingReactionSerializer(many=True, help_text="Pending prompts the user may answer.")
    log = ActionSerializer(many=True)


def _view(request, encounter_id: int) -> Response:
    view = selectors.encounter_view(user=request.user, encounter_id=encounter_id)
    view.mine = sorted(view.mine)  # type: ignore[assignment]  # JSON
    return Response(EncounterSerializer(view, context={"glances": view.glances}).data)


class EncounterCreateSerializer(StrictSerializer):
    name = serializers.CharField(max_length=120)
    actions_per_turn = serializers.IntegerField(min_value=1, max_value=20, default=1)
    skip_defeated = serializers.BooleanField(default=True)




class CombatantEntrySerializer(StrictSerializer):
    character = serializers.IntegerField(min_value=1, max_value=INT_MAX, required=False,
                                         allow_null=True)
    template = serializers.IntegerField(
        min_value=1, max_value=INT_MAX, required=False, allow_null=True,
        help_text="A creature or non-player character copied `count` times, each copy a new "
                  "character with its own sheet (\"Goblin 1\", \"Goblin 2\"...).")
    name = serializers.CharField(max_length=70, required=False, default="")
    count = serializers.IntegerField(min_value=1, max_value=services.MOST_AT_ONCE, default=1)
    surprised = serializers.BooleanField(default=False)
    hidden = serializers.BooleanField(default=False)
    position = serializers.IntegerField(min_value=-INT_MAX, max_value=INT_MAX, required=False,
                                        allow_null=True)
    initiative = serializers.IntegerField(min_value=-INT_MAX, max_value=INT_MAX, required=False,
                                          allow_null=True)
    tiebreak = serializers.IntegerField(min_value=-INT_MAX, max_value=INT_MAX, default=0)
    turns_per_round = serializers.IntegerField(min_value=1, max_value=10, default=1)


class CombatantsAddSerializer(StrictSerializer):
    combatants = CombatantEntrySerializer(many=True)


class EncounterOrderSerializer(StrictSerializer):
    combatants = serializers.ListField(child=serializers.IntegerField(min_value=1),
                                       help_text="Every combatant in play, first to act first.")


class EncounterStartSerializer(StrictSerializer):
    mode = serializers.ChoiceField(choices=[m.value for m in OrderMode], default=OrderMode.GM)


class EncounterTurnSerializer(StrictSerializer):
    turn = serializers.IntegerField(min_value=0, help_text="The encounter's ``turn`` you saw.")


class EncounterDelaySerializer(EncounterTurnSerializer):
    combatant = serializers.IntegerField(min_value=1)
    after = serializers.IntegerField(min_value=1)


class CombatantSwitchSerializer(StrictSerializer):
    hidden = serializers.BooleanField(required=False)
    defeated = serializers.BooleanField(required=False)
    surprised = serializers.BooleanField(required=False)


class EncounterEffectInSerializer(StrictSerializer):
    name = serializers.CharField(max_length=80)
    anchor = serializers.IntegerField(min_value=1)
    edge = serializers.ChoiceField(choices=["start", "end"])
    rounds = serializers.IntegerField(min_value=1, max_value=1000)
    bearer = serializers.IntegerField(min_value=1, required=False, allow_null=True)


class CombatantPlaceSerializer(StrictSerializer):
    x = serializers.DecimalField(max_digits=9, decimal_places=4, allow_null=True,
                                 help_text="Metres (rounded to the centimetre); x and y both "
                                           "null clear the position.")
    y = serializers.DecimalField(max_digits=9, decimal_places=4, allow_null=True)


class ReactionAnswerSerializer(StrictSerializer):
    choice = serializers.CharField(max_length=32)


class EncounterVersionSerializer(serializers.Serializer):
    version = serializers.IntegerField()


def _valid(serializer_class, request):
    payload = serializer_class(data=request.data)
    payload.is_valid(raise_exception=True)
    return payload.validated_data


class EncounterListItemSerializer(serializers.Serializer):
    """One encounter of a campaign's list (its combatants, log and prompts: its own URL)."""

    id = serializers.IntegerField()
    campaign = serializers.IntegerField(source="campaign_id")
    name = serializers.CharField()
    state = serializers.ChoiceField(choices=Encounter.State.choices)
    round = serializers.IntegerField()
    players_may_join = serializers.BooleanField()
    version = serializers.IntegerField()
    created_at = serializers.DateTimeField()


class EncounterListSerializer(serializers.Serializer):
    gm = serializers.BooleanField(help_text="Whether the user runs the campaign (sees them all).")
    encounters = EncounterListItemSerializer(
        many=True, help_text="The newest first: all of them for the game master, those the user "
                             "plays a combatant in otherwise, and those open to joining "
                             "(`players_may_join`, not ended) for a player of the campaign.")


class EncounterListQuery(StrictSerializer):
    state = serializers.ChoiceField(choices=Encounter.State.choices, required=False,
                                    help_text="Only the encounters in this state.")
    page = serializers.IntegerField(min_value=1, max_value=INT_MAX, required=False,
                                    help_text="The page of `encounters`, from 1: the Link "
                                              "header names the next one.")
    page_size = serializers.IntegerField(min_value=1, max_value=INT_MAX, required=False,
                                         help_text=f"Encounters per page: {PAGE_SIZE} by "
                                                   f"default, at most {MAX_PAGE_SIZE}.")


class CampaignEncountersView(APIView):
    @extend_schema(operation_id="encounters_list", parameters=[EncounterListQuery],
                   responses={200: EncounterListSerializer, 400: ErrorSerializer,
                              **READ_ERRORS},
                   summary="The campaign's encounters the user may see (the game master: all; a "
                           "player: those where one of their characters is a combatant); "
                           "`encounters` paged (the Link header).")
    def get(self, request, campaign_id: int):
        query = EncounterListQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        state = query.validated_data.get("state")
        gm, encounters = selectors.encounters_of(user=request.user, campaign_id=campaign_id)
        paginator = HeaderPagination()
        page = paginator.paginate_queryset(
            [e for e in encounters if state is None or e.state == state], request)
        return paginator.get_paginated_response(
            EncounterListSerializer({"gm": gm, "encounters": page}).data)

    @extend_schema(operation_id="encounters_create", request=EncounterCreateSerializer,
                   responses={201: EncounterSerializer, **ERRORS},
                   summary="Open an encounter in the campaign (its game master).")
    def post(self, request, campaign_id: int):
        data = _valid(EncounterCreateSerializer, request)
        encounter = services.encounter_create(user=request.user, campaign_id=campaign_id, **data)
        response = _view(request, encounter.pk)
        response.status_code = 201
        return response


class EncounterView(APIView):
    @extend_schema(operation_id="encounters_detail",
                   responses={200: EncounterSerializer, **READ_ERRORS},
                   summary="The encounter as the user may see it.")
    def get(self, request, encounter_id: int):
        return _view(request, encounter_id)


class EncounterVersionView(APIView):
    @extend_schema(operation_id="encounters_version",
                   responses={200: EncounterVersionSerializer, **READ_ERRORS},
                   summary="The encounter's version: it moves with every change (one query).")
    def get(self, request, encounter_id: int):
        row = selectors.encounter_version(user=request.user, encounter_id=encounter_id)
        if row is None:
            raise EncounterNotFound()
        if row[1] is not None:
            services.reactions_default_due(encounter_id=encounter_id)
            row = selectors.encounter_version(user=request.user, encounter_id=encounter_id)
        return Response({"version": row[0] if row else 0})


def _step(summary: str, serializer_class, run, operation_id: str):
    """An APIView class for one POST step: validate, run, answer the encounter."""

    class Step(APIView):
        @extend_schema(operation_id=operation_id, request=serializer_class,
                       responses={200: EncounterSerializer, **CONFLICTS}, summary=summary)
        def post(self, request, encounter_id: int, **ids):
            data = _valid(serializer_class, request) if serializer_class else {}
            run(request.user, encounter_id, data, **ids)
            return _view(request, encounter_id)

    Step.__name__ = Step.__qualname__ = "".join(p.title() for p in operation_id.split("_"))
    return Step


def step_view(summary: str, serializer_class, run, operation_id: str):
    """A rule system's POST step on an encounter (``run(user, encounter_id, data)``), answered
    with the encounter as the shared steps are."""
    return _step(summary, serializer_class, run, operation_id)


def _add(user, eid, d):
    entries = [services.CombatantEntry(character_id=e.get("character"),
                                       template_id=e.get("template"), name=e["name"],
                                       count=e["count"], surprised=e["surprised"],
                                       hidden=e["hidden"], position=e.get("position"),
                                       initiative=e.get("initiative"), tiebreak=e["tiebreak"],
                                       turns_per_round=e["turns_per_round"])
               for e in d["combatants"]]
    services.combatants_add(user=user, encounter_id=eid, entries=entries)


class EncounterEmptySerializer(StrictSerializer):
    pass


class EncounterJoinSerializer(StrictSerializer):
    character = serializers.IntegerField(min_value=1, max_value=INT_MAX,
                                         help_text="One of your own characters of the campaign.")


class EncounterJoiningSerializer(StrictSerializer):
    players_may_join = serializers.BooleanField()


STEPS = [
    ("combatants/", "encounters_add", CombatantsAddSerializer, _add,
     "Add combatants (GM): characters of the campaign, or names (count of them)."),
    ("join/", "encounters_join", EncounterJoinSerializer,
     lambda u, e, d: services.encounter_join(user=u, encounter_id=e, character_id=d["character"]),
     "Add your own character (a player, once) to an encounter whose GM lets players join; "
     "while it runs, at the end of the order (a rolled order rolls its initiative)."),
    ("joining/", "encounters_joining", EncounterJoiningSerializer,
     lambda u, e, d: services.encounter_joining_set(user=u, encounter_id=e,
                                                    allowed=d["players_may_join"]),
     "Let the campaign's players join with their own character, or stop it (GM)."),
    ("order/", "encounters_order", EncounterOrderSerializer,
     lambda u, e, d: services.encounter_set_order(user=u, encounter_id=e,
                                                  combatant_ids=d["combatants"]),
     "Set the GM's order (GM)."),
    ("start/", "encounters_start", EncounterStartSerializer,
     lambda u, e, d: services.encounter_start(user=u, encounter_id=e, mode=d["mode"]),
     "Place everyone (GM's order or rolled initiative) and start round 1 (GM)."),
    ("next/", "encounters_next", EncounterTurnSerializer,
     lambda u, e, d: services.encounter_next_turn(user=u, encounter_id=e, turn=d["turn"]),
     "End the turn and start the next (GM, or the player whose turn it is)."),
    ("delay/", "encounters_delay", EncounterDelaySerializer,
     lambda u, e, d: services.encounter_delay(user=u, encounter_id=e,
                                              combatant_id=d["combatant"], after_id=d["after"],
                                              turn=d["turn"]),
     "Delay the current turn to act just after another combatant."),
    ("spend-action/", "encounters_spend_action", EncounterTurnSerializer,
     lambda u, e, d: services.encounter_spend_action(user=u, encounter_id=e, turn=d["turn"]),
     "Count the current turn's action as taken: a move beyond a short distance (GM)."),
    ("end/", "encounters_end", EncounterEmptySerializer,
     lambda u, e, d: services.encounter_end(user=u, encounter_id=e), "End the encounter (GM)."),
    ("effects/", "encounters_effect", EncounterEffectInSerializer,
     lambda u, e, d: services.effect_add(user=u, encounter_id=e, name=d["name"],
                                         anchor_id=d["anchor"], edge=d["edge"],
                                         rounds=d["rounds"], bearer_id=d.get("bearer")),
     "Add an effect lasting rounds, ending at the start or end of a combatant's turn (GM)."),
    ("combatants/<int:combatant_id>/", "encounters_combatant", CombatantSwitchSerializer,
     lambda u, e, d, combatant_id: services.combatant_update(
         user=u, encounter_id=e, combatant_id=combatant_id, **d),
     "Reveal or hide, mark defeated or back up, surprised (GM)."),
    ("combatants/<int:combatant_id>/remove/", "encounters_remove", EncounterEmptySerializer,
     lambda u, e, d, combatant_id: services.combatant_remove(user=u, encounter_id=e,
                                                             combatant_id=combatant_id),
     "Take a combatant out of the order (GM)."),
    ("combatants/<int:combatant_id>/readd/", "encounters_readd", EncounterEmptySerializer,
     lambda u, e, d, combatant_id: services.combatant_readd(user=u, encounter_id=e,
                                                            combatant_id=combatant_id),
     "Bring a removed combatant back, at the end of the order (GM)."),
    ("combatants/<int:combatant_id>/position/", "encounters_place", CombatantPlaceSerializer,
     lambda u, e, d, combatant_id: services.combatant_place(
         user=u, encounter_id=e, combatant_id=combatant_id, x=d["x"], y=d["y"]),
     "Put a combatant at (x, y) metres, or clear its position with nulls (GM)."),
    ("positions/clear/", "encounters_positions_clear", EncounterEmptySerializer,
     lambda u, e, d: services.positions_clear(user=u, encounter_id=e),
     "Clear every combatant's position (GM)."),
]


class ReactionAnswerView(APIView):
    @extend_schema(operation_id="reactions_answer", request=ReactionAnswerSerializer,
                   responses={200: EncounterSerializer, **CONFLICTS},
                   summary="Answer a pending reaction (the target's player, or the GM).")
    def post(self, request, reaction_id: int):
        data = _valid(ReactionAnswerSerializer, request)
        reaction = services.answer_reaction(user=request.user, reaction_id=reaction_id,
                                            choice=data["choice"])
        return _view(request, reaction.encounter_id)


class EncounterJournalView(JournalListView):
    """Filter by character, kind and time; ``next`` is the cursor of older entries."""

    @extend_schema(operation_id="encounters_journal",
                   responses={200: ActionSerializer(many=True), **READ_ERRORS},
                   summary="The encounter's journal, newest first, paged by cursor: its actions "
                           "and rolls as the user may read them (the game master: all; a "
                           "player: nothing of a hidden combatant, the enemies' state as the "
                           "campaign says).")
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    def read(self, request):
        return selectors.encounter_journal(user=request.user,
                                           encounter_id=self.kwargs["encounter_id"])


def _urls():
    E = "encounters/<int:encounter_id>/"
    urls = [
        path("campaigns/<int:campaign_id>/encounters/", CampaignEncountersView.as_view(),
             name="api-encounters"),
        path(E, EncounterView.as_view(), name="api-encounter"),
        path(f"{E}version/", EncounterVersionView.as_view(), name="api-encounter-version"),
        path(f"{E}journal/", EncounterJournalView.as_view(), name="api-encounter-journal"),
        path("reactions/<int:reaction_id>/answer/", ReactionAnswerView.as_view(),
             name="api-reaction-answer"),
    ]
    for suffix, op, ser, run, summary in STEPS:
        urls.append(path(f"{E}{suffix}", _step(summary, ser, run, op).as_view(),
                         name=f"api-{op.replace('_', '-')}"))
    return urls


urlpatterns = _urls()
