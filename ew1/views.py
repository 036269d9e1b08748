"""Eternal War One II's pages: character creation (roll, reroll, redistribute, confirm, as htmx
fragments, no reload) and the sheet's actions (level-up; the inventory: equip, unequip, use).
Suicide and reincarnation are the board's (combat.views). URL names in the ``ew1`` namespace,
paths under /characters/ (ew1.urls).

With htmx each POST answers with its fragment (result or error inside); without it, a redirect
with a message.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from campaigns.errors import NotFound
from campaigns.models import RuleSystem
from campaigns.messages import error_message
from campaigns.permissions import allowed
from characters.pages import sheet_action
from characters.selectors import character_sheet
from ew1.creation import (character_from_draft, draft_allowance, draft_confirm, draft_get,
                          draft_redistribute, draft_reroll, draft_values)
from ew1.equipment import item_equip, item_unequip, item_use
from ew1.forms import LevelUpForm, RedistributeForm
from ew1.progression import level_up_spend
from gamerules.errors import RuleError
from gamerules.ew1.characteristics import CODES
from gamerules.ew1.levelup import characteristic_rooms, per_skill_cap, skill_rooms


# --- creation drafts --------------------------------------------------------------------------

def _context(draft, *, error=None, form=None):
    params = draft.campaign.parameters
    try:
        values = draft_values(draft)
    except RuleError:  # the parameters changed since the points were moved
        values = draft.rolled
    rows = [{"code": c, "rolled": draft.rolled[c], "delta": draft.deltas.get(c, 0),
             "value": values[c]} for c in CODES]
    return {"draft": draft, "rows": rows, "total": sum(values.values()),
            "allowance": draft_allowance(draft=draft), "error": error,
            "form": form or RedistributeForm(initial={c: draft.deltas.get(c, 0) for c in CODES}),
            "limits": {"total": params.redistribute_total,
                       "each": params.redistribute_per_characteristic}}


def _render(request, draft, **extra):
    template = "ew1/_draft.html" if request.htmx else "ew1/draft.html"
    return render(request, template, _context(draft, **extra))


def _draft_or_404(request, draft_id):
    try:
        return draft_get(user=request.user, draft_id=draft_id)
    except NotFound:
        raise Http404(_("No such draft.")) from None


@login_required
@require_GET
def draft_detail(request, draft_id: int):
    """The draft; once confirmed (the draft is gone), a redirect to the character it became."""
    try:
        draft = draft_get(user=request.user, draft_id=draft_id)
    except NotFound:
        character_id = character_from_draft(user=request.user, draft_id=draft_id)
        if character_id is None:
            raise Http404(_("No such draft.")) from None
        return redirect("characters:detail", character_id=character_id)
    return _render(request, draft)


def _step(request, draft_id, run, *, form=None):
    try:
        draft = run()
    except NotFound:
        raise Http404(_("No such draft.")) from None
    except RuleError as exc:
        if not request.htmx:
            messages.error(request, error_message(exc))
            return redirect("ew1:draft", draft_id=draft_id)
        return _render(request, _draft_or_404(request, draft_id), error=error_message(exc),
                       form=form)
    if not request.htmx:
        return redirect("ew1:draft", draft_id=draft.pk)
    return _render(request, draft)


@login_required
@require_POST
def draft_reroll_view(request, draft_id: int):
    return _step(request, draft_id, lambda: draft_reroll(user=request.user, draft_id=draft_id))


@login_required
@require_POST
def draft_redistribute_view(request, draft_id: int):
    form = RedistributeForm(request.POST)
    if not form.is_valid():
        draft = _draft_or_404(request, draft_id)
        each = draft.campaign.parameters.redistribute_per_characteristic  # the campaign's
        return _render(request, draft, form=form, error=_(
            "Each change is a whole number, at most %(each)s either way.") % {"each": each})
    return _step(request, draft_id, lambda: draft_redistribute(
        user=request.user, draft_id=draft_id, deltas=form.cleaned_data), form=form)


@login_required
@require_POST
def draft_confirm_view(request, draft_id: int):
    try:
        character = draft_confirm(user=request.user, draft_id=draft_id)
    except NotFound:
        raise Http404(_("No such draft.")) from None
    except RuleError as exc:
        messages.error(request, error_message(exc))
        return redirect("ew1:draft", draft_id=draft_id)
    messages.success(request, _("%(name)s rolled and incarnated.") % {"name": character.name})
    response = redirect("characters:detail", character_id=character.pk)
    if request.htmx:  # leave the draft page entirely; a 302 would be followed inside the XHR
        return HttpResponseClientRedirect(response["Location"])
    return response


# --- sheet actions ----------------------------------------------------------------------------

@login_required
@require_POST
def equip(request, character_id: int, item_id: int):
    return sheet_action(request, character_id, lambda: item_equip(
        user=request.user, character_id=character_id, item_id=item_id), _("Equipped."))


@login_required
@require_POST
def unequip(request, character_id: int, item_id: int):
    return sheet_action(request, character_id, lambda: item_unequip(
        user=request.user, character_id=character_id, item_id=item_id), _("Unequipped."))


@login_required
@require_POST
def use(request, character_id: int, item_id: int):
    return sheet_action(request, character_id, lambda: item_use(
        user=request.user, character_id=character_id, item_id=item_id), _("Used."))


@login_required
@require_http_methods(["GET", "POST"])
def level_up(request, character_id: int):
    try:
        view = character_sheet(user=request.user, character_id=character_id)
    except NotFound:
        raise Http404(_("No such character.")) from None
    if not allowed(request.user, "characters.act", view.character):
        raise Http404(_("No such character."))
    if view.character.campaign.rule_system != RuleSystem.ETERNAL_WAR:
        raise Http404(_("No such character."))  # levels are Eternal War One II's
    sheet = view.character.ew1
    params = view.character.campaign.parameters
    rooms = {"skills": skill_rooms(level=sheet.level, skills=sheet.skills,
                                   skill_points=sheet.skill_points,
                                   skill_cap_floor=params.skill_cap_floor,
                                   already_raised=sheet.skills_raised),
             "characteristics": characteristic_rooms(
                 characteristics=sheet.characteristics,
                 characteristic_points=sheet.characteristic_points,
                 characteristic_max=params.characteristic_max)}
    form = LevelUpForm(request.POST or None, rooms=rooms)
    error = None
    if request.method == "POST" and not form.is_valid():
        error = _("Points are positive whole numbers.")
    elif request.method == "POST":
        skills, chars = form.allocation()
        try:
            level_up_spend(user=request.user, character_id=character_id, add_skills=skills,
                           add_characteristics=chars)
        except RuleError as exc:
            error = error_message(exc)
        else:
            messages.success(request, _("Points spent."))
            return redirect("characters:detail", character_id=character_id)
    return render(request, "ew1/level_up.html", {
        "view": view, "form": form, "error": error,
        "cap": per_skill_cap(sheet.level, floor=params.skill_cap_floor),
        "skill_rows": [(form[f"skill_{r.code}"], r) for r in rooms["skills"]],
        "char_rows": [(form[f"char_{r.code}"], r) for r in rooms["characteristics"]]})
