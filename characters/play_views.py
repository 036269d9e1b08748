"""Sheet actions: level-up, inventory (equip, unequip, use), suicide, reincarnation and the
cooldown notice.

With htmx each POST answers with the sheet fragment (result or error inside); without it, a
redirect to the sheet with a message.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from campaigns.errors import Forbidden, NotFound
from campaigns.messages import error_message
from campaigns.permissions import allowed
from characters.selectors import character_sheet
from characters.services import cooldown_notice_dismiss
from combat.services import character_reincarnate, character_suicide
from ew1.equipment import item_equip, item_unequip, item_use
from ew1.forms import LevelUpForm
from ew1.progression import level_up_spend
from gamerules.errors import RuleError
from gamerules.ew1.levelup import characteristic_rooms, per_skill_cap, skill_rooms


def _sheet(request, character_id: int, *, error=None, notice=None):
    try:
        view = character_sheet(user=request.user, character_id=character_id)
    except NotFound:
        raise Http404(_("No such character.")) from None
    return render(request, "characters/_sheet.html",
                  {"view": view, "error": error, "notice": notice})


def _act(request, character_id: int, run, success: str):
    try:
        run()
    except (NotFound, Forbidden):
        raise Http404(_("No such character.")) from None
    except RuleError as exc:
        if request.htmx:
            return _sheet(request, character_id, error=error_message(exc))
        messages.error(request, error_message(exc))
    else:
        if request.htmx:
            return _sheet(request, character_id, notice=success)
        messages.success(request, success)
    return redirect("characters:detail", character_id=character_id)


@login_required
@require_POST
def equip(request, character_id: int, item_id: int):
    return _act(request, character_id, lambda: item_equip(
        user=request.user, character_id=character_id, item_id=item_id), _("Equipped."))


@login_required
@require_POST
def unequip(request, character_id: int, item_id: int):
    return _act(request, character_id, lambda: item_unequip(
        user=request.user, character_id=character_id, item_id=item_id), _("Unequipped."))


@login_required
@require_POST
def use(request, character_id: int, item_id: int):
    return _act(request, character_id, lambda: item_use(
        user=request.user, character_id=character_id, item_id=item_id), _("Used."))


@login_required
@require_POST
def suicide(request, character_id: int):
    asap = request.POST.get("reincarnate_asap") in ("1", "on", "true")
    return _act(request, character_id, lambda: character_suicide(
        user=request.user, character_id=character_id, reincarnate_asap=asap),
        _("Your character left the board."))


@login_required
@require_POST
def reincarnate(request, character_id: int):
    return _act(request, character_id, lambda: character_reincarnate(
        user=request.user, character_id=character_id), _("Your character is back on the board."))


@login_required
@require_POST
def dismiss_notice(request, character_id: int):
    try:
        cooldown_notice_dismiss(user=request.user, character_id=character_id)
    except NotFound:
        raise Http404(_("No such character.")) from None
    if request.htmx:
        return _sheet(request, character_id)
    return redirect("characters:detail", character_id=character_id)


@login_required
@require_http_methods(["GET", "POST"])
def level_up(request, character_id: int):
    try:
        view = character_sheet(user=request.user, character_id=character_id)
    except NotFound:
        raise Http404(_("No such character.")) from None
    if not allowed(request.user, "characters.act", view.character):
        raise Http404(_("No such character."))
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
    return render(request, "characters/level_up.html", {
        "view": view, "form": form, "error": error,
        "cap": per_skill_cap(sheet.level, floor=params.skill_cap_floor),
        "skill_rows": [(form[f"skill_{r.code}"], r) for r in rooms["skills"]],
        "char_rows": [(form[f"char_{r.code}"], r) for r in rooms["characteristics"]]})
