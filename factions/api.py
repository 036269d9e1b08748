"""REST API of factions: list and create a campaign's factions, a faction's detail (its members
only when ``factions.view_members`` allows), join or ask to join, invite, answer and withdraw
requests and invitations, remove a member, hand the leadership over, leave, dissolve.

Views are thin: validate the payload's shape, call the service the pages call, read back with
the pages' selectors. Rule errors become 4xx in ``config.api``: not_found 404 (also for a
faction, request or character the user may not touch), forbidden 403 (the request's other side
trying to answer it, a former leader), already_in_faction, faction_name_taken, request_closed,
leader_must_hand_over, not_a_member, invalid_input 400. Mounted under /api/ by
``config/api_urls.py`` (``urlpatterns`` below).
"""

from __future__ import annotations

from django_filters import rest_framework as filters
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from campaigns.api import CampaignRefSerializer, CharacterRefSerializer, SystemPartSerializer
from campaigns.permissions import allowed
from campaigns.selectors import campaign_get

from campaigns.api_base import ERRORS, READ_ERRORS, ErrorSerializer, StrictSerializer
from campaigns.api_lists import ListView, paged
from factions import services
from factions.models import Faction, JoinRequest, Membership
from factions.selectors import factions_of, faction_get, members_of, pending_for
from factions.services import NAME_MAX

class LeaderSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    player = serializers.CharField(source="owner.username", allow_null=True, default=None)

class FactionSummarySerializer(serializers.Serializer):
    """A Faction with ``leader`` (and its owner) loaded and ``size`` annotated."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    description = serializers.CharField()
    is_public = serializers.BooleanField(help_text="Public: anyone joins at once. Private: by "
                                                   "request (the leader answers) or invitation.")
    leader = LeaderSerializer()
    size = serializers.IntegerField(help_text="Number of members, the leader included.")

class MemberSerializer(SystemPartSerializer):
    """A Membership; the rule system's "member" serializer adds its numbers (give the
    serializer ``context={"rule_system": ...}``: the members' campaign is not loaded)."""

    system_part = "member"

    id = serializers.IntegerField(source="character.id")
    name = serializers.CharField(source="character.name")
    player = serializers.CharField(source="character.owner.username", allow_null=True,
                                   default=None)
    joined_at = serializers.DateTimeField()
    leader = serializers.SerializerMethodField()

    def get_leader(self, membership: Membership) -> bool:
        return membership.character_id == membership.faction.leader_id

    def system_object(self, membership: Membership):
        return membership.character

    def character_of(self, membership: Membership):
        return membership.character

class FactionRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()

class JoinRequestSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    faction = FactionRefSerializer()
    character = CharacterRefSerializer()
    kind = serializers.ChoiceField(choices=JoinRequest.Kind.choices,
                                   help_text="request: the character asks, the leader answers. "
                                             "invitation: the leader invites, the player "
                                             "answers.")
    state = serializers.ChoiceField(choices=JoinRequest.State.choices)
    created_at = serializers.DateTimeField()
    decided_at = serializers.DateTimeField(allow_null=True)

class FactionDetailSerializer(FactionSummarySerializer):
    """From ``faction_detail_data``: the faction plus what the user may see of it."""

    campaign = CampaignRefSerializer()
    members = serializers.SerializerMethodField(
        help_text="Null when the user may not see them (a private faction, to whoever is not a "
                  "member, its leader, the campaign's game master or staff).")
    pending = serializers.SerializerMethodField(
        help_text="Pending requests and invitations: all of them for the leader, those of the "
                  "user's characters otherwise.")

    @extend_schema_field(MemberSerializer(many=True, allow_null=True))
    def get_members(self, faction):
        members = self.context["members"]
        return None if members is None else MemberSerializer(
            members, many=True, context={"rule_system": faction.campaign.rule_system}).data

    @extend_schema_field(JoinRequestSerializer(many=True))
    def get_pending(self, faction):
        return JoinRequestSerializer(self.context["pending"], many=True).data

def _detail(request, faction_id: int, *, status_code: int = status.HTTP_200_OK) -> Response:
    faction = faction_get(faction_id=faction_id)
    members = (members_of(faction) if allowed(request.user, "factions.view_members", faction)
               else None)
    for m in members or ():
        m.faction = faction
    context = {"members": members, "pending": pending_for(user=request.user, faction=faction)}
    return Response(FactionDetailSerializer(faction, context=context).data, status=status_code)

class FactionCreateSerializer(StrictSerializer):
    character = serializers.IntegerField(min_value=1, help_text="The founder, one of your "
                                                                "characters in the campaign "
                                                                "without a faction: its leader.")
    name = serializers.CharField(max_length=NAME_MAX)
    description = serializers.CharField(required=False, allow_blank=True, default="")
    is_public = serializers.BooleanField(default=True)

class FactionFilter(filters.FilterSet):
    is_public = filters.TypedChoiceFilter(
        choices=(("true", "true"), ("false", "false")), coerce=lambda value: value == "true",
        help_text="true: only the public factions (anyone joins); false: only the others.")

    class Meta:
        model = Faction
        fields = ("is_public",)


class CampaignFactionsView(ListView):
    """Filter by ``is_public``; ``?page=`` and ``?page_size=`` page the list, the ``Link``
    header names the next and previous pages."""

    filterset_class = FactionFilter
    queryset = Faction.objects.none()  # the model, for the schema

    @extend_schema(operation_id="factions_list",
                   responses={200: FactionSummarySerializer(many=True), 400: ErrorSerializer,
                              **READ_ERRORS},
                   summary="The campaign's factions, with leader and size, by name; paged "
                           "(the Link header).")
    def get(self, request, campaign_id: int):
        campaign = campaign_get(campaign_id=campaign_id)
        factions = self.listed(factions_of(campaign=campaign))
        return paged(self, FactionSummarySerializer(factions, many=True).data)

    @extend_schema(operation_id="factions_create", request=FactionCreateSerializer,
                   responses={201: FactionDetailSerializer, **ERRORS},
                   summary="Create a faction led by one of your characters (its first member).")
    def post(self, request, campaign_id: int):
        payload = FactionCreateSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        campaign = campaign_get(campaign_id=campaign_id)
        data = payload.validated_data
        faction = services.faction_create(user=request.user, character_id=data["character"],
                                          campaign_id=campaign.pk, name=data["name"],
                                          description=data["description"],
                                          is_public=data["is_public"])
        return _detail(request, faction.pk, status_code=status.HTTP_201_CREATED)

class FactionDetailView(APIView):
    @extend_schema(operation_id="factions_retrieve",
                   responses={200: FactionDetailSerializer, **READ_ERRORS},
                   summary="A faction; its members only when you may see them.")
    def get(self, request, faction_id: int):
        return _detail(request, faction_id)

class CharacterPayload(StrictSerializer):
    character = serializers.IntegerField(min_value=1)

class JoinResultSerializer(serializers.Serializer):
    joined = serializers.BooleanField(help_text="True: the character is a member now (public "
                                                "faction). False: a request was sent.")
    request = JoinRequestSerializer(allow_null=True, help_text="The request sent, if any.")

class FactionJoinView(APIView):
    @extend_schema(operation_id="factions_join", request=CharacterPayload,
                   responses={200: JoinResultSerializer, 201: JoinResultSerializer, **ERRORS},
                   summary="Join a public faction (200), or ask to join a private one (201).")
    def post(self, request, faction_id: int):
        payload = CharacterPayload(data=request.data)
        payload.is_valid(raise_exception=True)
        result = services.faction_join(user=request.user, faction_id=faction_id,
                                       character_id=payload.validated_data["character"])
        if isinstance(result, JoinRequest):
            return Response(JoinResultSerializer({"joined": False, "request": result}).data,
                            status=status.HTTP_201_CREATED)
        return Response(JoinResultSerializer({"joined": True, "request": None}).data)

class FactionInviteView(APIView):
    @extend_schema(operation_id="factions_invite", request=CharacterPayload,
                   responses={201: JoinRequestSerializer, **ERRORS},
                   summary="The leader invites a character of the campaign without a faction.")
    def post(self, request, faction_id: int):
        payload = CharacterPayload(data=request.data)
        payload.is_valid(raise_exception=True)
        invitation = services.faction_invite(user=request.user, faction_id=faction_id,
                                             character_id=payload.validated_data["character"])
        return Response(JoinRequestSerializer(invitation).data, status=status.HTTP_201_CREATED)

class AnswerPayload(StrictSerializer):
    accept = serializers.BooleanField(help_text="True accepts (the character becomes a member), "
                                                "false refuses.")

class RequestAnswerView(APIView):
    @extend_schema(operation_id="faction_requests_answer", request=AnswerPayload,
                   responses={200: JoinRequestSerializer, **ERRORS},
                   summary="Answer a pending request (its faction's leader) or invitation (the "
                           "invited character's player).")
    def post(self, request, request_id: int):
        payload = AnswerPayload(data=request.data)
        payload.is_valid(raise_exception=True)
        answered = services.request_answer(user=request.user, request_id=request_id,
                                           accept=payload.validated_data["accept"])
        return Response(JoinRequestSerializer(answered).data)

class RequestWithdrawView(APIView):
    @extend_schema(operation_id="faction_requests_withdraw", request=None,
                   responses={200: JoinRequestSerializer, **ERRORS},
                   summary="Withdraw your pending request, or (leader) a pending invitation.")
    def post(self, request, request_id: int):
        withdrawn = services.request_withdraw(user=request.user, request_id=request_id)
        return Response(JoinRequestSerializer(withdrawn).data)

class FactionRemoveView(APIView):
    @extend_schema(operation_id="factions_remove_member", request=CharacterPayload,
                   responses={200: FactionDetailSerializer, **ERRORS},
                   summary="The leader removes a member (not themself).")
    def post(self, request, faction_id: int):
        payload = CharacterPayload(data=request.data)
        payload.is_valid(raise_exception=True)
        services.member_remove(user=request.user, faction_id=faction_id,
                               character_id=payload.validated_data["character"])
        return _detail(request, faction_id)

class FactionTransferView(APIView):
    @extend_schema(operation_id="factions_transfer", request=CharacterPayload,
                   responses={200: FactionDetailSerializer, **ERRORS},
                   summary="The leader hands the leadership over to another member.")
    def post(self, request, faction_id: int):
        payload = CharacterPayload(data=request.data)
        payload.is_valid(raise_exception=True)
        services.leadership_transfer(user=request.user, faction_id=faction_id,
                                     character_id=payload.validated_data["character"])
        return _detail(request, faction_id)

class FactionLeaveView(APIView):
    @extend_schema(operation_id="factions_leave", request=CharacterPayload,
                   responses={204: None, **ERRORS},
                   summary="One of your characters leaves the faction (a leader must hand over "
                           "first; a leader alone dissolves it).")
    def post(self, request, faction_id: int):
        payload = CharacterPayload(data=request.data)
        payload.is_valid(raise_exception=True)
        services.faction_leave(user=request.user, faction_id=faction_id,
                               character_id=payload.validated_data["character"])
        return Response(status=status.HTTP_204_NO_CONTENT)

class FactionDissolveView(APIView):
    @extend_schema(operation_id="factions_dissolve", request=None,
                   responses={204: None, **ERRORS},
                   summary="The leader dissolves the faction: memberships and requests go.")
    def post(self, request, faction_id: int):
        services.faction_dissolve(user=request.user, faction_id=faction_id)
        return Response(status=status.HTTP_204_NO_CONTENT)

def _urls():
    from django.urls import path
    f = "factions/<int:faction_id>"
    r = "faction-requests/<int:request_id>"
    return [
        path("campaigns/<int:campaign_id>/factions/", CampaignFactionsView.as_view(),
             name="api-campaign-factions"),
        path(f"{f}/", FactionDetailView.as_view(), name="api-faction"),
        path(f"{f}/join/", FactionJoinView.as_view(), name="api-faction-join"),
        path(f"{f}/invite/", FactionInviteView.as_view(), name="api-faction-invite"),
        path(f"{f}/remove/", FactionRemoveView.as_view(), name="api-faction-remove"),
        path(f"{f}/transfer/", FactionTransferView.as_view(), name="api-faction-transfer"),
        path(f"{f}/leave/", FactionLeaveView.as_view(), name="api-faction-leave"),
        path(f"{f}/dissolve/", FactionDissolveView.as_view(), name="api-faction-dissolve"),
        path(f"{r}/answer/", RequestAnswerView.as_view(), name="api-faction-request-answer"),
        path(f"{r}/withdraw/", RequestWithdrawView.as_view(),
             name="api-faction-request-withdraw"),
    ]

urlpatterns = _urls()
