"""Homebrew pages (htmx, English and French): creation, the sheet with each weapon's odds, a
test roll, and the game master's rests. Thin: each calls a service or a selector."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from campaigns.errors import InvalidInput, NotFound, SheetMissing
from campaigns.messages import error_message
from campaigns.numbers import posted_text, whole_number
from campaigns.models import Campaign, RuleSystem
from campaigns.permissions import allowed, oversees
from characters.models import Character
from encounters.pages import respond
from gamerules.errors import RuleError
from gamerules.homebrew.characteristics import (CODES, MAINS, SUBS, CharacteristicsError,
                                              suggested_mains)
from homebrew import play
from homebrew.forms import CreateForm, RestForm, TestForm
from homebrew.labels import CHARACTERISTICS as LABELS, problem_text
from homebrew.models import HomebrewSheet, WeaponTemplate
from homebrew.selectors import (attack_odds_lines, character_with_sheet, multiplier_of,
                                odds_targets)
from homebrew.services import DIFFICULTY_MAX, homebrew_character_create, rest_grant, roll_test


def _campaign_or_404(campaign_id: int) -> Campaign:
    campaign = Campaign.objects.filter(pk=campaign_id, rule_system=RuleSystem.HOMEBREW).first()
    if campaign is None:
        raise Http404(_("No such campaign."))
    return campaign


def field_errors(exc: CharacteristicsError) -> dict[str, list[str]]:
    """Each field's problems in the reader's language ("*": the whole sheet)."""
    errors: dict[str, list[str]] = {}
    for problem in exc.problems:
        errors.setdefault(problem.field, []).append(problem_text(problem, _))
    return errors


def _create_context(campaign, form, errors=None, error=None, *, offered=(), picked=()):
    errors = errors or {}
    params = campaign.parameters
    groups = [{"main": form[main], "label": LABELS[main], "errors": errors.get(main, []),
               "subs": [(form[sub], errors.get(sub, [])) for sub in SUBS[main]]}
              for main in MAINS]
    return {"campaign": campaign, "form": form, "groups": groups, "params": params,
            "sheet_errors": errors.get("*", []), "error": error, "offered": offered,
            "picked": set(picked)}


def _gear_of(request) -> list[int]:
    """The starting picks posted (``gear``, template ids). Raises InvalidInput for one that is
    not a whole number; the service checks the rest."""
    picks = [whole_number(v, negative=False, digits=9) for v in request.POST.getlist("gear")]
    if any(p is None for p in picks):
        raise InvalidInput()
    return [p for p in picks if p is not None]


@login_required
@require_http_methods(["GET", "POST"])
def create(request, campaign_id: int):
    """The creation page: name, the three characteristics (the campaign's
    ``characteristic_points``, each within its caps, first shared evenly) and their subs (the
    main's tens, 0 to ``sub_max`` each), then the starting gear (up to ``starting_gear_picks``
    of the weapons and spells the GM offers at creation). Refusals come back per field, in the
    reader's language, nothing created."""
    campaign = _campaign_or_404(campaign_id)
    template = "homebrew/_create.html" if request.htmx else "homebrew/create.html"
    offered = list(WeaponTemplate.objects.filter(campaign=campaign, offered_at_creation=True))
    if request.method == "GET":
        initial = {**suggested_mains(campaign.parameters),
                   "name": request.GET.get("name", "")[:60]}
        return render(request, template, _create_context(campaign, CreateForm(initial=initial),
                                                         offered=offered))
    form = CreateForm(request.POST)
    picked = [p for p in (whole_number(v, negative=False, digits=9)
                          for v in request.POST.getlist("gear")) if p is not None]
    shown = {"offered": offered, "picked": picked}
    if not form.is_valid():
        return render(request, template, _create_context(campaign, form, **shown), status=422)
    try:
        character = homebrew_character_create(
            user=request.user, campaign=campaign, name=form.cleaned_data["name"],
            values=form.values(), mp_label=form.cleaned_data["mp_label"],
            gear=_gear_of(request))
    except CharacteristicsError as exc:
        return render(request, template,
                      _create_context(campaign, form, errors=field_errors(exc), **shown),
                      status=422)
    except RuleError as exc:
        return render(request, template,
                      _create_context(campaign, form, error=error_message(exc), **shown),
                      status=422)
    if request.htmx:
        return HttpResponseClientRedirect(reverse("homebrew:sheet", args=[character.pk]))
    return redirect("homebrew:sheet", character_id=character.pk)


def _sheet_context(request, character: Character, *, result=None, error=None):
    sheet: HomebrewSheet = character.homebrew
    params = character.campaign.parameters
    gm = oversees(request.user, character.campaign)
    targets = odds_targets(user=request.user, character=character, gm=gm)
    chosen = request.GET.get("target")
    target = next((t for t in targets if str(t.pk) == chosen), targets[0] if targets else None)
    weapons = list(sheet.weapons.all())
    odds = []
    if target is not None:
        for weapon in weapons:
            try:
                lines = attack_odds_lines(actor=sheet, target=target, weapon=weapon,
                                          params=params)
            except RuleError:  # a die the admin let through before it checked
                continue
            odds.append({"weapon": weapon, "lines": lines,
                         "multiplier": multiplier_of(weapon, params)})
    return {"c": character, "s": sheet, "targets": targets, "target": target, "odds": odds,
            "weapons": weapons, "injuries": list(sheet.injuries.all()), "codes": CODES,
            "labels": LABELS, "may_act": allowed(request.user, "characters.act", character),
            "gm": gm, "test_form": TestForm(), "result": result, "error": error}


def _character_or_404(request, character_id: int) -> Character:
    try:
        return character_with_sheet(user=request.user, character_id=character_id)
    except (NotFound, SheetMissing):
        raise Http404(_("No such character.")) from None


@login_required
@require_GET
def sheet(request, character_id: int):
    """The sheet: characteristics, HP and MP (or the class's own gauge), posture, permanent
    injuries, weapons and spells with their odds against a chosen target (``?target=``)."""
    character = _character_or_404(request, character_id)
    template = "homebrew/_sheet_page.html" if request.htmx else "homebrew/sheet.html"
    return render(request, template, _sheet_context(request, character))


@login_required
@require_POST
def test(request, character_id: int):
    """Roll a test of a characteristic or a sub (the player; the GM may add a difficulty)."""
    character = _character_or_404(request, character_id)
    form = TestForm(request.POST)
    result = error = None
    if form.is_valid():
        try:
            difficulty = int(request.POST.get("difficulty") or 0)
        except ValueError:
            difficulty = 0
        try:
            if abs(difficulty) > DIFFICULTY_MAX:
                raise InvalidInput()
            result = roll_test(user=request.user, character=character,
                               code=form.cleaned_data["code"], difficulty=difficulty)
        except RuleError as exc:
            error = error_message(exc)
    else:
        error = _("Choose a characteristic.")
    if not request.htmx:
        if error:
            messages.error(request, error)
        return redirect("homebrew:sheet", character_id=character_id)
    character = _character_or_404(request, character_id)
    return render(request, "homebrew/_sheet_page.html",
                  _sheet_context(request, character, result=result, error=error))


@login_required
@require_http_methods(["GET", "POST"])
def rest(request, campaign_id: int):
    """The game master grants a short, medium or long rest to some or all characters."""
    campaign = _campaign_or_404(campaign_id)
    if not oversees(request.user, campaign):
        raise Http404(_("No such campaign."))
    characters = list(Character.objects.filter(campaign=campaign, homebrew__isnull=False)
                      .select_related("homebrew").order_by("name"))
    form = RestForm(request.POST or None, characters=characters)
    given = error = None
    if request.method == "POST" and form.is_valid():
        try:
            given = rest_grant(user=request.user, campaign=campaign,
                               kind=form.cleaned_data["kind"],
                               character_ids=form.cleaned_data["characters"] or None,
                               hp_amount=form.cleaned_data["hp_amount"],
                               mp_amount=form.cleaned_data["mp_amount"])
        except RuleError as exc:
            error = error_message(exc)
        characters = list(Character.objects.filter(campaign=campaign, homebrew__isnull=False)
                          .select_related("homebrew").order_by("name"))
    template = "homebrew/_rest.html" if request.htmx else "homebrew/rest.html"
    return render(request, template, {"campaign": campaign, "form": form, "given": given,
                                      "error": error, "characters": characters,
                                      "params": campaign.parameters})


# --- the encounter's actions (homebrew.play; the answer is the encounter's fragment) --------

def _post_int(request, name: str) -> int | None:
    """A non-negative whole number of at most 9 digits, else None (campaigns.numbers)."""
    return whole_number(request.POST.get(name, ""), negative=False, digits=9)


def _required(request, name: str) -> int:
    value = _post_int(request, name)
    if value is None:
        raise InvalidInput()
    return value


@login_required
@require_POST
def encounter_attack(request, encounter_id: int):
    return respond(request, encounter_id, lambda: play.encounter_attack(
        user=request.user, encounter_id=encounter_id,
        combatant_id=_required(request, "combatant"), target_id=_required(request, "target"),
        choices=play.AttackChoices(weapon_id=_required(request, "weapon"),
                                   description=posted_text(request.POST, "description")[:300]),
        turn=_post_int(request, "turn")))


@login_required
@require_POST
def encounter_posture(request, encounter_id: int):
    return respond(request, encounter_id, lambda: play.encounter_posture(
        user=request.user, encounter_id=encounter_id,
        combatant_id=_required(request, "combatant"),
        posture=request.POST.get("posture", ""), turn=_post_int(request, "turn")))


@login_required
@require_POST
def encounter_other(request, encounter_id: int):
    move = request.POST.get("move") == "1"
    costs = None
    if move and "costs_action" in request.POST:
        costs = request.POST.get("costs_action") == "1"
    return respond(request, encounter_id, lambda: play.encounter_other(
        user=request.user, encounter_id=encounter_id,
        combatant_id=_required(request, "combatant"), name=posted_text(request.POST, "name"),
        move=play.Move(to=(request.POST.get("x"), request.POST.get("y"))) if move else None,
        costs_action=costs, turn=_post_int(request, "turn")))
