"""REST API of the TACNet (eclipse.tacnet), under /api/eclipse/: create a network (GM), join
and leave (the GM; a player with their own character when the network is open), what the
panel shows in an encounter (members only), and the GM's marks of what the network perceives
(answered with the encounter, as the encounter's steps). Thin: the payload's shape is
checked here, the rest by the services; rule errors are {"code", "detail", "params"}."""

from __future__ import annotations

from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from campaigns.api_base import ERRORS, ErrorSerializer, StrictSerializer
from campaigns.numbers import INT_MAX
from eclipse import tacnet
from encounters.api import step_view
from encounters.selectors import encounter_view

CONFLICTS = {**ERRORS, 409: ErrorSerializer}


class TacnetSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    name = serializers.CharField()
    open_to_players = serializers.BooleanField()


class TacnetCreateSerializer(StrictSerializer):
    name = serializers.CharField(max_length=tacnet.NAME_MAX)
    open_to_players = serializers.BooleanField(required=False, default=True,
                                               help_text="Players join and leave with their "
                                                         "own characters.")


class TacnetMemberActSerializer(StrictSerializer):
    character = serializers.IntegerField(help_text="The character joining or leaving.", min_value=1,
                                         max_value=INT_MAX)


class TacnetPerceiveSerializer(StrictSerializer):
    network = serializers.IntegerField(min_value=1, max_value=INT_MAX)
    opponent = serializers.IntegerField(help_text="The opponent's combatant.", min_value=1, max_value=INT_MAX)
    by = serializers.IntegerField(required=False, allow_null=True, default=None,
                                  help_text="The perceiving member's combatant; null: the "
                                            "network as a whole.", min_value=1, max_value=INT_MAX)
    note = serializers.CharField(max_length=tacnet.NOTE_MAX, required=False, default="",
                                 allow_blank=True)


class TacnetClearSerializer(StrictSerializer):
    mark = serializers.IntegerField(help_text="The mark (a perceived entry's id).", min_value=1,
                                    max_value=INT_MAX)


class TacnetAmmoSerializer(serializers.Serializer):
    name = serializers.CharField()
    loaded = serializers.IntegerField()
    capacity = serializers.IntegerField()
    spares = serializers.IntegerField()
    state = serializers.CharField()


class TacnetMemberSerializer(serializers.Serializer):
    character = serializers.IntegerField()
    name = serializers.CharField()
    combatant = serializers.IntegerField(allow_null=True)
    wounds = serializers.IntegerField()
    damage = serializers.IntegerField()
    durability = serializers.IntegerField()
    weapons = TacnetAmmoSerializer(many=True)


class TacnetPerceivedSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    opponent = serializers.IntegerField()
    name = serializers.CharField()
    by = serializers.CharField(help_text="The member's name; empty: the network.")
    note = serializers.CharField()


class TacnetNetworkPanelSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    open_to_players = serializers.BooleanField()
    members = TacnetMemberSerializer(many=True)
    perceived = TacnetPerceivedSerializer(many=True)


class TacnetPanelSerializer(serializers.Serializer):
    networks = TacnetNetworkPanelSerializer(many=True)
    joinable = TacnetSerializer(many=True)


class CreateView(APIView):
    @extend_schema(operation_id="eclipse_tacnets_create", request=TacnetCreateSerializer,
                   responses={201: TacnetSerializer, **CONFLICTS},
                   summary="Create a TACNet in the campaign (GM).")
    def post(self, request, campaign_id: int):
        payload = TacnetCreateSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        network = tacnet.tacnet_create(user=request.user, campaign_id=campaign_id,
                                       **payload.validated_data)
        return Response(TacnetSerializer(network).data, status=status.HTTP_201_CREATED)


def _member_view(op: str, run, summary: str):
    class MemberView(APIView):
        @extend_schema(operation_id=op, request=TacnetMemberActSerializer,
                       responses={200: TacnetSerializer, **CONFLICTS}, summary=summary)
        def post(self, request, network_id: int):
            payload = TacnetMemberActSerializer(data=request.data)
            payload.is_valid(raise_exception=True)
            run(user=request.user, network_id=network_id,
                character_id=payload.validated_data["character"])
            return Response(TacnetSerializer(tacnet.network_for(user=request.user,
                                                                network_id=network_id)).data)

    MemberView.__name__ = MemberView.__qualname__ = "".join(p.title() for p in op.split("_"))
    return MemberView


class PanelView(APIView):
    @extend_schema(operation_id="eclipse_tacnets_panel",
                   responses={200: TacnetPanelSerializer, **ERRORS},
                   summary="What the TACNet panel shows the user in the encounter: the "
                           "networks they are in (the GM: all), their members' state and "
                           "the opponents perceived.")
    def get(self, request, encounter_id: int):
        view = encounter_view(user=request.user, encounter_id=encounter_id)
        return Response(tacnet.panel_data(tacnet.panel(view=view, user=request.user)))


urlpatterns = [
    path("eclipse/campaigns/<int:campaign_id>/tacnets/", CreateView.as_view(),
         name="api-eclipse-tacnets-create"),
    path("eclipse/tacnets/<int:network_id>/join/",
         _member_view("eclipse_tacnets_join", tacnet.tacnet_join,
                      "Join the TACNet (mesh implants needed).").as_view(),
         name="api-eclipse-tacnets-join"),
    path("eclipse/tacnets/<int:network_id>/leave/",
         _member_view("eclipse_tacnets_leave", tacnet.tacnet_leave,
                      "Leave the TACNet.").as_view(),
         name="api-eclipse-tacnets-leave"),
    path("eclipse/encounters/<int:encounter_id>/tacnet/", PanelView.as_view(),
         name="api-eclipse-tacnet-panel"),
    path("eclipse/encounters/<int:encounter_id>/tacnet/perceive/",
         step_view("The GM marks an opponent perceived by a member (or the network).",
                   TacnetPerceiveSerializer,
                   lambda u, e, d: tacnet.tacnet_perceive(
                       user=u, encounter_id=e, network_id=d["network"],
                       opponent_id=d["opponent"], by_id=d["by"], note=d["note"]),
                   "eclipse_tacnets_perceive").as_view(),
         name="api-eclipse-tacnets-perceive"),
    path("eclipse/encounters/<int:encounter_id>/tacnet/clear/",
         step_view("The GM clears a mark.", TacnetClearSerializer,
                   lambda u, e, d: tacnet.tacnet_clear(user=u, encounter_id=e,
                                                       mark_id=d["mark"]),
                   "eclipse_tacnets_clear").as_view(),
         name="api-eclipse-tacnets-clear"),
]
