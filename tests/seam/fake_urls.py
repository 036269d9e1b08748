"""The fake system's pages, mounted at /fake/ by its registration (RuleSystemSpec.urls)."""

import random

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect
from django.urls import path
from django.views.decorators.http import require_POST

from encounters.errors import EncounterServiceError
from tests.seam import fake_system

app_name = "fake"


@login_required
@require_POST
def spar(request, encounter_id: int):
    try:
        fake_system.encounter_spar(user=request.user, encounter_id=encounter_id,
                                   combatant_id=int(request.POST.get("combatant", 0)),
                                   rng=random.Random(request.POST.get("seed", "")))
    except EncounterServiceError as exc:
        return HttpResponse(exc.message, status=exc.status)
    return redirect("encounters:play", encounter_id)


urlpatterns = [path("encounters/<int:encounter_id>/spar/", spar, name="spar")]
