"""Eclipse Phase pages (htmx, English and French): creation, the sheet (aptitudes, skills,
morph, ego, weapons with ammunition, armour, gauges), resleeving, gear, Moxie, and the game
master's healing and stress recovery. Thin: each calls a service or a selector."""

from __future__ import annotations

from collections.abc import Callable

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
from campaigns.models import Campaign, RuleSystem
from campaigns.numbers import posted_text, whole_number
from campaigns.permissions import allowed, oversees
from characters.models import Character
from eclipse import services
from eclipse.forms import CreateForm
from eclipse.models import ArmourTemplate, MorphTemplate, WeaponTemplate
from eclipse.selectors import character_with_sheet, figures_of, loaded_view
from gamerules.errors import RuleError


def _campaign_or_404(campaign_id: int) -> Campaign:
    campaign = Campaign.objects.filter(pk=campaign_id,
                                       rule_system=RuleSystem.ECLIPSE_PHASE).first()
    if campaign is None:
        raise Http404(_("No such campaign."))
    return campaign


def _create_context(campaign, form, morphs, error=None):
    params = campaign.parameters
    return {"campaign": campaign, "form": form, "morphs": morphs, "error": error,
            "params": params, "skills": form.skill_rows(params.default_any_skill)}


@login_required
@require_http_methods(["GET", "POST"])
def create(request, campaign_id: int):
    """The creation page: name, seven aptitudes (the campaign's budget), trained skills and the
    first morph. A refusal comes back in the reader's language, nothing created."""
    campaign = _campaign_or_404(campaign_id)
    template = "eclipse/_create.html" if request.htmx else "eclipse/create.html"
    morphs = list(MorphTemplate.objects.filter(campaign=campaign))
    if request.method == "GET":
        form = CreateForm(initial={"name": request.GET.get("name", "")[:60]}, morphs=morphs)
        return render(request, template, _create_context(campaign, form, morphs))
    form = CreateForm(request.POST, morphs=morphs)
    if not form.is_valid():
        return render(request, template, _create_context(campaign, form, morphs), status=422)
    try:
        character = services.eclipse_character_create(
            user=request.user, campaign=campaign, name=form.cleaned_data["name"],
            aptitudes=form.aptitudes(), skills=form.skills(),
            morph_id=form.cleaned_data["morph"])
    except RuleError as exc:
        return render(request, template,
                      _create_context(campaign, form, morphs, error=error_message(exc)),
                      status=422)
    if request.htmx:
        return HttpResponseClientRedirect(reverse("eclipse:sheet", args=[character.pk]))
    return redirect("eclipse:sheet", character_id=character.pk)


def _character_or_404(request, character_id: int) -> Character:
    try:
        return character_with_sheet(user=request.user, character_id=character_id)
    except (NotFound, SheetMissing):
        raise Http404(_("No such character.")) from None


def _sheet_context(request, character: Character, *, error=None, done=None):
    params = character.campaign.parameters
    loaded = loaded_view(character)
    figures = figures_of(loaded, params) if loaded is not None else None
    gm = oversees(request.user, character.campaign)
    may_act = gm or allowed(request.user, "characters.act", character)
    context = {"c": character, "s": character.eclipse, "f": figures, "r": loaded, "gm": gm,
               "may_act": may_act, "params": params, "error": error, "done": done,
               "morphs": [], "weapon_templates": [], "armour_templates": []}
    if may_act:  # the GM's templates to pick from: three queries
        campaign = character.campaign_id
        context.update(
            morphs=list(MorphTemplate.objects.filter(campaign_id=campaign)),
            weapon_templates=list(WeaponTemplate.objects.filter(campaign_id=campaign)),
            armour_templates=list(ArmourTemplate.objects.filter(campaign_id=campaign)))
    return context


@login_required
@require_GET
def sheet(request, character_id: int):
    """The sheet: aptitudes, skills, morph, ego, gauges (damage against DUR, wounds, stress
    against lucidity, traumas, Moxie), weapons with ammunition, armour; the forms of what the
    reader may do."""
    character = _character_or_404(request, character_id)
    template = "eclipse/_sheet_page.html" if request.htmx else "eclipse/sheet.html"
    return render(request, template, _sheet_context(request, character))


def _post_int(request, name: str, default: int | None = None) -> int | None:
    raw = request.POST.get(name, "")
    if raw == "" and default is not None:
        return default
    return whole_number(raw, negative=False, digits=9)


def _required(request, name: str, default: int | None = None) -> int:
    value = _post_int(request, name, default)
    if value is None:
        raise InvalidInput()
    return value


def _act(request, character_id: int, step: Callable[[Character], object], done: str):
    """Run ``step`` on the character (visible to the reader); answer the sheet's fragment with
    the error or the confirmation (htmx), else redirect with a message."""
    character = _character_or_404(request, character_id)
    error = None
    try:
        step(character)
    except RuleError as exc:
        error = error_message(exc)
    if not request.htmx:
        if error:
            messages.error(request, error)
        else:
            messages.success(request, done)
        return redirect("eclipse:sheet", character_id=character_id)
    character = _character_or_404(request, character_id)
    return render(request, "eclipse/_sheet_page.html",
                  _sheet_context(request, character, error=error, done=None if error else done),
                  status=422 if error else 200)


@login_required
@require_POST
def resleeve(request, character_id: int):
    return _act(request, character_id, lambda c: services.resleeve(
        user=request.user, character=c, morph_id=_required(request, "morph")), _("Resleeved."))


@login_required
@require_POST
def weapon_equip(request, character_id: int):
    return _act(request, character_id, lambda c: services.weapon_equip(
        user=request.user, character=c, template_id=_required(request, "weapon"),
        spares=_required(request, "spares", 0)), _("Weapon taken."))


@login_required
@require_POST
def weapon_unequip(request, character_id: int):
    return _act(request, character_id, lambda c: services.weapon_unequip(
        user=request.user, character=c, carried_id=_required(request, "carried")),
        _("Weapon dropped."))


@login_required
@require_POST
def armour_wear(request, character_id: int):
    return _act(request, character_id, lambda c: services.armour_wear(
        user=request.user, character=c, template_id=_required(request, "armour")),
        _("Armour worn."))


@login_required
@require_POST
def armour_remove(request, character_id: int):
    return _act(request, character_id, lambda c: services.armour_remove(
        user=request.user, character=c, worn_id=_required(request, "worn")),
        _("Armour taken off."))


@login_required
@require_POST
def heal(request, character_id: int):
    return _act(request, character_id, lambda c: services.heal(
        user=request.user, character=c, damage=_required(request, "damage", 0),
        wounds=_required(request, "wounds", 0)), _("Healed."))


@login_required
@require_POST
def recover(request, character_id: int):
    remove = [r for r in request.POST.getlist("remove") if r]
    return _act(request, character_id, lambda c: services.stress_recover(
        user=request.user, character=c, method=request.POST.get("method", ""),
        stress=_required(request, "stress", 0), traumas=_required(request, "traumas", 0),
        remove=remove), _("Recovered."))


@login_required
@require_POST
def stress(request, character_id: int):
    return _act(request, character_id, lambda c: services.stress_inflict(
        user=request.user, character=c, sv=request.POST.get("sv", ""),
        resist=request.POST.get("unresisted") != "1",
        source=posted_text(request.POST, "source")), _("Stress inflicted."))


@login_required
@require_POST
def derangement(request, character_id: int):
    return _act(request, character_id, lambda c: services.derangement_name(
        user=request.user, character=c, name=posted_text(request.POST, "name"),
        disorder=request.POST.get("disorder") == "1"), _("Named."))


@login_required
@require_POST
def moxie(request, character_id: int):
    if request.POST.get("refresh") == "1":
        return _act(request, character_id, lambda c: services.moxie_refresh(
            user=request.user, character=c), _("Moxie refreshed."))
    return _act(request, character_id, lambda c: services.moxie_spend(
        user=request.user, character=c, reason=request.POST.get("reason", "")),
        _("Moxie point spent."))
