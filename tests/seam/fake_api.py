"""The fake system's API route, under /api/ by its registration (RuleSystemSpec.api_urls)."""

import random

from django.urls import path
from rest_framework.response import Response
from rest_framework.views import APIView

from tests.seam import fake_system


class SparView(APIView):
    def post(self, request, encounter_id: int):
        entry = fake_system.encounter_spar(
            user=request.user, encounter_id=encounter_id,
            combatant_id=int(request.data.get("combatant", 0)),
            rng=random.Random(str(request.data.get("seed", ""))))
        return Response({"kind": entry.kind, "summary": entry.summary}, status=201)


urlpatterns = [path("fake/encounters/<int:encounter_id>/spar/", SparView.as_view(),
                    name="api-fake-spar")]
